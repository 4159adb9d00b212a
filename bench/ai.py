#!/usr/bin/env python3
"""Round robin of the computer opponents: win rates, an Elo ladder and think times.

    python bench/ai.py [--levels novice,casual,...] [--games N] [--workers N] [--seed N]
                       [--pairs a:b,c:d] [--out results.jsonl]

    python bench/ai.py --pairs expert@iters=800:expert_ref@iters=800,expert@iters=800:greedy
    python bench/ai.py --pairs expert@iters=800:greedy --games 200 --ray auto

``--ray ADDRESS`` plays the games on Ray instead of the local process pool (the ``cluster``
extra; ``local``, ``auto`` or a cluster's address, :mod:`parlor.cluster`): the same seeds
give the same games wherever they run.

A level may be given as ``NAME@iters=N``: the search then runs exactly N iterations per
searched decision whatever the machine's load (strength by iterations, not seconds), and the
match is reproducible for its seeds. ``@sampler=uniform`` or ``@sampler=belief`` chooses how a
searching agent deals the hidden cards (:mod:`parlor.ai.belief`), e.g.
``expert@iters=100@sampler=belief:expert@iters=100@sampler=uniform``; a search setting
(``horizon``, ``look``, ``root_width``, ``c``, ``epsilon``, ``prior_visits``, ``widen``,
``decisive``: :data:`parlor.ai.levels.TUNING`) for tuning matches, e.g.
``expert@iters=1150@horizon=1:greedy``. ``perfect`` (or
``perfect@iters=N``) is the expert's search over the true state (bench/perfect.py): the match
runner hands it the true state, so it measures what the hidden cards are worth; no player can
meet it. ``expert_ref`` is today's expert kept fixed
(:mod:`parlor.ai.reference`; by time, 0.3 s cut by the compiled build's speed-up, unless given
iterations).

Every pair of levels plays ``--games`` games (seats alternate: even games the first-named
level is Rlr 1), each dealt from its own seed; draws (the 200-turn limit) count half.
``--pairs`` plays only the listed pairings instead of the full round robin (for example
``expert:random,expert:greedy``). Think time is the wall-clock time of each ``act`` call
that reached the agent (single legal choices are applied by the engine and never reach it),
reported as p50/p95/max per level, and separately for the decisions the level searches
(keep/Redraw included: the expert searches it). Win rates come with Wilson 95% intervals, and
the report ends with the load average (the machine is shared).
Games run in ``--workers`` processes (default 1; the machine has 2 cores, and timings get
worse when the cores are shared), or on Ray with ``--ray``.

Measured on 2026-11-30 (2 cores, ``--workers 2 --seed 1000``, seats alternating; the
expert searches 0.3 s with its priors judged at the end of its own turn):

    expert vs greedy        200 games  73.2%  +-6.1   (146-53, 1 draw; target >= 70%)
    expert vs random        200 games  100.0%         (target >= 98%)
    casual vs novice        200 games  82.5%  +-5.3
    intermediate vs casual  200 games  84.8%  +-5.0
    strong vs intermediate  200 games  84.2%  +-5.0   (strong: priors after the opponent's turn)
    expert vs strong        200 games  70.0%  +-6.4
    expert think time: p50 0.300 s, p95 0.301 s per decision that reached it
    expert vs os_ismcts      40 games  100.0%         (40-0; Wilson 95% 91.2-100%; OpenSpiel's
                             ISMCTS, random rollouts, equal time 0.3 s; seeds 1000-1039, a
                             loaded machine)

Measured on 2026-12-01 (2 cores at load 10-21, ``--workers 1``, seats alternating, 100
iterations per searched decision; see /work/notes/s3-G-issue-17.md):

    expert belief vs expert uniform       70 games  54.3%  [43-65%]  (37-31-2, seeds 791000+)
    expert belief vs perfect              40 games  62.5%  [47-76%]  (seeds 792000+)
    expert uniform vs perfect             38 games  60.5%  [45-74%]
    expert uniform vs perfect@keep=look   85 games  41.2%  [31-52%]
    expert think time at 0.3 s (keep/Redraw searched): p50 302 ms, p95 308 ms

Measured on 2026-12-01 (2 cores, ``--workers 2 --seed 900000``, niced beside other work; the
iterations are each side's median per searched decision at 0.3 s on an idle machine: today's
compiled expert 1,145, the interpreted expert of 20ac8f4 492):

    expert@iters=1150 vs expert_ref@iters=500   140 games  45.7%  [37.7-54.0%]  (63-2-75)

The same after the keep/Redraw veto became the expert's default (2026-12-01, seeds 900000+
and 910000+, ``--workers 2``, niced; ``expert@iters=4000:expert_ref@iters=1200`` is each
side's median iterations at 0.3 s measured again at nice 0, 3,100-4,900 and 930-2,000):

    expert@iters=1150 vs expert_ref@iters=500   200 games  63.7%  [56.9-70.1%]  (125-5-70)
    expert@iters=4000 vs expert_ref@iters=1200  200 games  61.3%  [54.3-67.7%]  (121-3-76)
    expert@iters=1150 vs greedy                 200 games  75.0%  [68.6-80.5%]  (150-0-50)

The same expert against the perfect-information search (2026-12-01/02, seeds 940000-940199,
``--workers 1``, niced; 42 games, then 158):

    expert@iters=1150 vs perfect@iters=1150     200 games  50.5%  [43.6-57.4%]  (101-0-99)

Rollouts three turns deep instead of two (2026-12-02, ``--workers 1``, nice 5 beside one other
match; ``@horizon=2`` is the expert before). Chosen on seeds 960000+ at 1,150 iterations; then,
on fresh seeds, at 830 iterations, the same median time per searched decision (0.076 s) as two
turns at 1,150:

    expert@iters=1150@horizon=2 vs greedy       200 games  73.8%  [67.2-79.4%]  (147-1-52, 960000+)
    expert@iters=1150@horizon=3 vs greedy       200 games  83.5%  [77.7-88.0%]  (166-2-32, 960000+)
    expert@iters=1150@horizon=1 vs greedy        46 games  52.2%                (24-0-22, stopped)
    expert@iters=1150@horizon=4 vs greedy       116 games  85.3%  [77.8-90.6%]  (99-0-17, stopped)
    expert@iters=830 vs expert_ref@iters=500    200 games  72.5%  [65.9-78.2%]  (143-4-53, 970000+)
    expert@iters=1150@horizon=2 vs expert_ref@iters=500
                                                200 games  59.8%  [52.8-66.3%]  (117-5-78, 970000+)
    expert@iters=830 vs greedy                  200 games  77.0%  [70.7-82.3%]  (154-0-46, 980000+)
    expert@iters=1150@horizon=2 vs greedy       200 games  75.8%  [69.4-81.2%]  (151-1-48, 980000+)
    expert@iters=830 vs expert@iters=1150@horizon=2
                                                 72 games  69.4%  [58.0-78.9%]  (48-4-20, 990000+)

At the play budget (2026-12-02): the expert's median iterations per searched decision at 0.3 s
on an idle core, 1,930 (p10 1,182, p90 3,552; 433 decisions, 6 games, seeds 995000+); then
``--workers 1`` on seeds 1000000+ (four turns at 1,500: about the same time, estimated):

    expert@iters=1930 vs greedy                 200 games  82.5%  [76.6-87.1%]  (165-0-35)
    expert@iters=1500@horizon=4 vs greedy       101 games  82.2%  [73.6-88.4%]  (83-0-18, stopped)
    expert@iters=4000 vs greedy                  36 games  77.8%  [61.9-88.3%]  (28-0-8, stopped;
                                                 1,930 on those 36: 77.8%, --workers 2)
    expert@iters=1930 vs strong                 200 games  83.5%  [77.7-88.0%]  (164-6-30, seeds
                                                 1010000+, --workers 2; strong 0.05 s a decision)

With the learned evaluation v2 (16 tanh units fitted to 2,000 Greedy-family games, ``parlor
train``; 2026-12-02, fresh seeds; ``expert@value=v2`` is the expert now):

    expert@iters=1930@value=v2 vs greedy        200 games  86.8%  [81.4-90.8%]  (173-1-26, 1020000+,
                                                 --workers 2)
    expert@iters=800@value=v2 vs expert_ref@iters=500
                                                200 games  76.0%  [69.6-81.4%]  (151-2-47, 1030000+,
                                                 --workers 1)
    expert@iters=600 vs perfect@iters=600       200 games  51.2%  [44.4-58.1%]  (98-9-93, 1040000+,
                                                 --workers 1; both judge with v2)

Against greedy, seats alternating: with its priors judged after the opponent's turn (the
earlier default) the search won 64.5% at 0.2 s (100 games, seeds 5000-5099) and 62.7% at
0.6 s (200 games, seed 1000): more time did not help. With its priors judged at the end of
its own turn, as Greedy judges: 76% at 0.2 s on the same 100 seeds (69.5% with rollouts
also stopped there), and 73.2% at 0.3 s above.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import math
import os
import platform
import sys
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from parlor.ai.base import BaseAgent  # noqa: E402
from parlor.ai.levels import NAMES, agent_spec, make_agent  # noqa: E402
from parlor.ai.match import play_game  # noqa: E402
from parlor.ai.search import cap_stats  # noqa: E402
from parlor.cluster import ray_map  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from perfect import is_perfect, make_perfect, perfect_spec  # noqa: E402

#: Opponents from other libraries (parlor.research, the `research` extra): `os_ismcts` is
#: OpenSpiel's ISMCTS with random rollouts at the expert's 0.3 s a decision (equal time).
RESEARCH_NAMES = ("os_ismcts",)


def agent_name(name: str) -> str:
    """A research opponent's name, or an agent spec of parlor.ai.levels (a level, greedy,
    random, expert_ref, each searching agent also as ``NAME@iters=N``)."""
    key = name.strip().lower()
    if is_perfect(key):
        return perfect_spec(key)
    return key if key in RESEARCH_NAMES else agent_spec(name)


def build_agent(name: str, seed: int) -> BaseAgent:
    if is_perfect(name):
        return make_perfect(name, seed)
    if name in RESEARCH_NAMES:
        from parlor.research.agents import make_research_agent  # needs the research extra

        return make_research_agent(name, seed)
    return make_agent(name, seed)


#: The decisions the expert searches (keep/Redraw too: ``search_keep``, shared/ai-misplays.md B1).
SEARCHED_PHASES = ("keep", "window1", "window2", "attack", "block", "ability_p", "ability_o")


@dataclass
class Game:
    a: str
    b: str
    index: int
    seed: int
    score_a: float  # 1 win, 0.5 draw, 0 loss
    turns: int
    think_a: list[float]
    think_b: list[float]
    searched_a: list[float]
    searched_b: list[float]
    #: the game's searches under a wall-clock cap (a level as shipped, not ``@iters=N``) and
    #: how many the cap cut short (parlor.ai.search.cap_stats; both seats together)
    capped: tuple[int, int] = (0, 0)


def run_one(task: tuple[str, str, int, int]) -> Game:
    a, b, index, base_seed = task
    seed = base_seed + index
    flip = index % 2 == 1  # odd games: b is Rlr 1
    agent_a = build_agent(a, seed * 7919 + 1)
    agent_b = build_agent(b, seed * 7919 + 2)
    seats = [agent_b, agent_a] if flip else [agent_a, agent_b]
    searches, capped = cap_stats()
    r = play_game(seats, seed)
    after = cap_stats()
    sa, sb = (1, 0) if flip else (0, 1)
    score = 0.5 if r.winner is None else 1.0 if r.winner == sa else 0.0

    def searched(seat: int) -> list[float]:
        return [t for ph in SEARCHED_PHASES for t in r.think_phase[seat].get(ph, [])]

    return Game(a, b, index, seed, score, r.turns, r.think[sa], r.think[sb], searched(sa),
                searched(sb), (after[0] - searches, after[1] - capped))


@dataclass
class Tally:
    games: int = 0
    score: float = 0.0
    wins: int = 0
    draws: int = 0


@dataclass
class Times:
    all: list[float] = field(default_factory=list)
    searched: list[float] = field(default_factory=list)


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    ys = sorted(xs)
    return ys[min(len(ys) - 1, int(q * len(ys)))]


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (draws count half a win)."""
    if n == 0:
        return (0.0, 1.0)
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def elo_fit(levels: list[str], tallies: dict[tuple[str, str], Tally],
            iterations: int = 2000) -> dict[str, float]:
    """Bradley-Terry ratings on the Elo scale (400 per factor of 10 in odds), fitted by
    gradient ascent; the first level is pinned at 0. Draws count half a win each way; a
    half-game prior against an equal opponent keeps 100% results finite."""
    r = {lv: 0.0 for lv in levels}
    k = math.log(10) / 400
    for _ in range(iterations):
        grad = {lv: 0.0 for lv in levels}
        for (a, b), t in tallies.items():
            if not t.games:
                continue
            p = 1 / (1 + math.exp(-k * (r[a] - r[b])))
            g = (t.score + 0.5) - (t.games + 1) * p
            grad[a] += g
            grad[b] -= g
        for lv in levels[1:]:
            r[lv] += 2.0 * grad[lv]
    base = r[levels[0]]
    return {lv: x - base for lv, x in r.items()}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description="Round robin of the Parlor Magic AI levels.")
    p.add_argument("--levels", default="novice,casual,intermediate,strong,expert",
                   help=f"comma-separated levels (1-5 or names: {', '.join(NAMES)}; "
                   f"with the research extra also {', '.join(RESEARCH_NAMES)})")
    p.add_argument("--pairs", default="",
                   help="only these pairings, e.g. expert:random,expert:greedy")
    p.add_argument("--games", type=int, default=20, help="games per pairing (default 20)")
    p.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    p.add_argument("--seed", type=int, default=1000, help="seed of the first game's deal")
    p.add_argument("--ray", default=None, metavar="ADDRESS",
                   help="play on Ray (the cluster extra): local, auto or a cluster's address")
    p.add_argument("--out", default="", help="append one JSON line per game to this file")
    args = p.parse_args(argv)
    if args.pairs:
        pairs = []
        for item in args.pairs.split(","):
            a, sep, b = item.partition(":")
            if not sep:
                p.error(f"--pairs: write a:b, not {item!r}")
            pairs.append((agent_name(a), agent_name(b)))
        args.pairs = pairs
        args.levels = list(dict.fromkeys(x for pair in pairs for x in pair))
    else:
        args.levels = [agent_name(x) for x in args.levels.split(",") if x.strip()]
        args.pairs = list(itertools.combinations(args.levels, 2))
    return args


def print_report(levels: list[str], games: Iterable[Game], seconds: float) -> None:
    tallies: dict[tuple[str, str], Tally] = defaultdict(Tally)
    times: dict[str, Times] = defaultdict(Times)
    turns: list[int] = []
    caps: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for g in games:
        caps[(g.a, g.b)][0] += g.capped[0]
        caps[(g.a, g.b)][1] += g.capped[1]
        t = tallies[(g.a, g.b)]
        t.games += 1
        t.score += g.score_a
        t.wins += g.score_a == 1.0
        t.draws += g.score_a == 0.5
        times[g.a].all += g.think_a
        times[g.b].all += g.think_b
        times[g.a].searched += g.searched_a
        times[g.b].searched += g.searched_b
        turns.append(g.turns)
    n_games = sum(t.games for t in tallies.values())
    print(f"{n_games} games in {seconds:.0f} s; mean length {sum(turns) / max(1, len(turns)):.0f}"
          " turns")
    print()
    print("Pairings (score of the first level; draws count half; Wilson 95% interval):")
    for (a, b), t in tallies.items():
        rate = t.score / t.games
        lo, hi = wilson(t.score, t.games)
        losses = t.games - t.wins - t.draws
        print(f"  {a:>12} vs {b:<12} {t.wins:4d}-{losses:<4d} ({t.draws} draws)  "
              f"{100 * rate:5.1f}%  [{100 * lo:4.1f}-{100 * hi:4.1f}%]")
    print()
    width = max(8, *(len(x) for x in levels)) + 1
    print("Win rate of the row level against the column level:")
    print(" " * width + "".join(f"{x[:10]:>11}" for x in levels))
    for a in levels:
        cells = []
        for b in levels:
            if (a, b) in tallies:
                t = tallies[(a, b)]
                cells.append(f"{100 * t.score / t.games:10.0f}%")
            elif (b, a) in tallies:
                t = tallies[(b, a)]
                cells.append(f"{100 * (1 - t.score / t.games):10.0f}%")
            else:
                cells.append(f"{'-':>11}")
        print(f"{a:<{width}}" + "".join(cells))
    print()
    ratings = elo_fit(levels, dict(tallies))
    print(f"Elo ladder (Bradley-Terry, {levels[0]} = 0):")
    for lv in sorted(levels, key=lambda x: -ratings[x]):
        print(f"  {lv:<{width}} {ratings[lv]:7.0f}")
    print()
    print("Think time per decision that reached the agent (ms; searched: keep/Redraw, windows,")
    print("attacks, blocks, abilities):")
    print(f"  {'level':<{width}} {'n':>7} {'p50':>8} {'p95':>8} {'max':>8} {'mean':>8}   "
          f"{'searched n':>10} {'p50':>8} {'p95':>8}")
    for lv in levels:
        tm = times[lv]
        xs, ss = tm.all, tm.searched
        mean = 1000 * sum(xs) / len(xs) if xs else float("nan")
        print(f"  {lv:<{width}} {len(xs):7d} {1000 * pct(xs, .5):8.1f} {1000 * pct(xs, .95):8.1f}"
              f" {1000 * max(xs, default=float('nan')):8.1f} {mean:8.1f}   {len(ss):10d}"
              f" {1000 * pct(ss, .5):8.1f} {1000 * pct(ss, .95):8.1f}")
    print()
    for (a, b), (n, cut) in caps.items():
        if n:
            print(f"Wall-clock cap, {a} vs {b}: {cut} of {n} searches cut short"
                  f" ({100 * cut / n:.1f}%)")
    print(f"Load average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    tasks = [(a, b, i, args.seed) for a, b in args.pairs for i in range(args.games)]
    print(f"Python {platform.python_version()}, {os.cpu_count()} cpus, {args.workers} worker(s);"
          f" {args.games} games per pairing, {len(args.pairs)} pairing(s), seed {args.seed}")
    start = time.perf_counter()
    games: list[Game] = []
    out = open(args.out, "a") if args.out else None  # noqa: SIM115
    try:
        with contextlib.ExitStack() as stack:
            if args.ray is None:
                pool = stack.enter_context(Pool(args.workers))
                results: Iterator[Game] = pool.imap_unordered(run_one, tasks)
            else:
                results = ray_map(run_one, tasks, args.ray, args.workers)
            for g in results:
                games.append(g)
                if out is not None:
                    out.write(json.dumps({"a": g.a, "b": g.b, "index": g.index, "seed": g.seed,
                                          "score_a": g.score_a, "turns": g.turns,
                                          "think_a": g.think_a, "think_b": g.think_b,
                                          "searched_a": g.searched_a,
                                          "searched_b": g.searched_b,
                                          "capped": list(g.capped)}) + "\n")
                    out.flush()
                done = len(games)
                if done % max(1, len(tasks) // 20) == 0 or done == len(tasks):
                    print(f"  {done}/{len(tasks)} games, {time.perf_counter() - start:.0f} s",
                          file=sys.stderr, flush=True)
    finally:
        if out is not None:
            out.close()
    print()
    print_report(args.levels, games, time.perf_counter() - start)
    return 0


if __name__ == "__main__":
    sys.exit(main())
