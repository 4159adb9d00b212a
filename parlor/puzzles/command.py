"""``parlor puzzles mine`` and ``parlor puzzles verify``: the shipped set's two commands.

``parlor puzzles mine --games N --seed S --out FILE`` plays games S .. S+N-1 (or mines
``--record`` files) as :mod:`parlor.puzzles.mine` describes, in ``--workers`` processes or on
Ray (``--ray local|auto|ADDRESS``, as bench/ai.py), and writes the puzzles to FILE, one JSON
line each, numbered p0001 on in game order. Without Ray the file grows game by game in
order, so a run stopped early holds exactly what ``--games K`` gives for the K games done.

``parlor puzzles verify [--sample 30] [--seed 0] [--file FILE]`` judges a random sample of
the set afresh (:func:`parlor.puzzles.verify.verify`, at :data:`VERIFY`: new hands, a deeper
search) and reports the agreement; it exits 1 if any puzzle does not agree.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, TextIO

from parlor.puzzles.mine import Mined, Settings, mine_game, mine_record, number
from parlor.puzzles.model import Puzzle, load_puzzles
from parlor.puzzles.verify import Thresholds, verify

#: The fresh verification: a deeper search than the mining's (6,000 iterations against 4,000),
#: 12 new hands searched deeper (400 against 300); the solution must still be the best, by
#: any margin, and best on three hands in four.
VERIFY = Thresholds(iters=6000, margin=0.0, hands=12, hand_iters=400, agree=0.75)


def add_parser(sub: Any) -> None:
    """Register ``parlor puzzles`` on the subparsers of the ``parlor`` command."""
    p = sub.add_parser("puzzles", help="mine and verify puzzles",
                       description="Mine puzzles from games, or verify the shipped set.")
    cmds = p.add_subparsers(dest="puzzles_command", metavar="SUBCOMMAND", required=True)
    m = cmds.add_parser("mine", help="play games and keep the clearly best decisions")
    m.add_argument("--games", type=int, default=10, help="games to play (default 10)")
    m.add_argument("--seed", type=int, default=0, help="the first game's seed (default 0)")
    m.add_argument("--record", action="append", default=[], metavar="FILE",
                   help="mine a game record as well (repeatable)")
    m.add_argument("--out", required=True, help="the puzzles file to write")
    m.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    m.add_argument("--ray", default=None, metavar="ADDRESS",
                   help="mine on Ray (the cluster extra): local, auto or a cluster's address")
    m.set_defaults(func=cmd_mine)
    v = cmds.add_parser("verify", help="verify a sample of the puzzles afresh")
    v.add_argument("--sample", type=int, default=30, help="puzzles to verify (default 30)")
    v.add_argument("--seed", type=int, default=0, help="the sample's and searches' seed")
    v.add_argument("--file", default=None, help="a puzzles file (default: the shipped set)")
    v.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    v.add_argument("--keep", default=None, metavar="FILE",
                   help="write the puzzles that agree to FILE, numbered p0001 on (the shipped "
                        "set is the mined one kept by a verification of every puzzle)")
    v.set_defaults(func=cmd_verify)


def _games(args: argparse.Namespace) -> Iterator[Mined]:
    seeds = list(range(args.seed, args.seed + args.games))
    if args.ray is not None:
        from parlor.cluster import ray_map

        done = sorted(ray_map(mine_game, seeds, args.ray, args.workers),
                      key=lambda m: seeds.index(int(m.source.split()[0][5:])))
        yield from done
    elif args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            yield from pool.map(mine_game, seeds)
    else:
        yield from map(mine_game, seeds)


def cmd_mine(args: argparse.Namespace) -> int:
    records = []
    for name in args.record:
        try:
            records.append((name, Path(name).read_text()))
        except OSError as exc:
            print(f"parlor puzzles mine: cannot read {name}: {exc.strerror}", file=sys.stderr)
            return 2
    t0 = time.perf_counter()
    total = Mined("all")
    count = 0
    with open(args.out, "w") as out:
        for m in _all(args, records):
            for p in number(m.puzzles, count + 1):
                out.write(p.text() + "\n")
            out.flush()
            count += len(m.puzzles)
            _add(total, m)
            print(f"{m.source}: {m.decisions} decisions, {m.screened} screened, {m.judged} "
                  f"judged, {len(m.puzzles)} puzzles, {m.cpu:.1f} CPU-s; {count} in all",
                  file=sys.stderr, flush=True)
    _summary(total, count, time.perf_counter() - t0, sys.stdout)
    return 0


def _all(args: argparse.Namespace, records: list[tuple[str, str]]) -> Iterator[Mined]:
    yield from _games(args)
    for i, (name, text) in enumerate(records):
        yield mine_record(text, Settings(), seed=args.seed + i, label=f"record={name}")


def _add(total: Mined, m: Mined) -> None:
    total.decisions += m.decisions
    total.screened += m.screened
    total.judged += m.judged
    total.cpu += m.cpu


def _summary(total: Mined, count: int, wall: float, out: TextIO) -> None:
    cpu = max(total.cpu, 1e-9)
    print(f"{count} puzzles; {total.decisions} decisions with a choice, {total.screened} "
          f"screened, {total.judged} judged; {total.cpu:.0f} CPU-s ({wall:.0f} s wall): "
          f"{total.screened / cpu:.1f} decisions screened per CPU-second, "
          f"{count * 3600 / cpu:.0f} puzzles per CPU-hour", file=out)


def _verify_one(job: tuple[Puzzle, int]) -> tuple[str, bool, float, str]:
    p, seed = job
    v = verify(p, VERIFY, seed)
    detail = "; ".join(f"{a}: " + ("no estimate" if j is None else
                                   f"best {j.action} margin {j.margin:+.3f} "
                                   f"hands {j.agreement:.0%}")
                       for a, j in v.judgements)
    return p.id, v.agrees, v.margin, detail


def cmd_verify(args: argparse.Namespace) -> int:
    text = None if args.file is None else Path(args.file).read_text()
    puzzles = load_puzzles(text)
    sample = sample_of(puzzles, args.sample, args.seed)
    jobs = [(p, args.seed) for p in sample]
    agreed = 0
    t0 = time.process_time()
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            results = list(pool.map(_verify_one, jobs))
    else:
        results = [_verify_one(j) for j in jobs]
    for pid, ok, margin, detail in results:
        agreed += ok
        print(f"{pid}: {'agrees' if ok else 'DISAGREES'} (margin {margin:+.3f}) {detail}")
    if args.keep is not None:
        kept = {pid for pid, ok, _, _ in results if ok}
        with open(args.keep, "w") as out:
            out.writelines(p.text() + "\n" for p in number(x for x in sample if x.id in kept))
    print(f"{agreed} of {len(sample)} agree ({agreed / max(1, len(sample)):.0%}); "
          f"{time.process_time() - t0:.0f} CPU-s in this process")
    return 0 if agreed == len(sample) else 1


def sample_of(puzzles: list[Puzzle], n: int, seed: int) -> list[Puzzle]:
    """A random sample of ``n`` puzzles (all of them if fewer), in the set's order."""
    if n >= len(puzzles):
        return list(puzzles)
    chosen = set(random.Random(seed).sample(range(len(puzzles)), n))
    return [p for i, p in enumerate(puzzles) if i in chosen]


__all__ = ["VERIFY", "add_parser", "cmd_mine", "cmd_verify", "sample_of"]
