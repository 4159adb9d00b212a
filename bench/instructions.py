#!/usr/bin/env python3
"""Instructions a step of the compiled engine, early and late in a game, counted by callgrind.

    python bench/instructions.py [--games N] [--seed N]

A count the machine's load does not move: bench/engine.py times the same kind of steps in
CPU time, which other work on a shared machine moves by a tenth or more between runs, so a
change of a few percent shows here first. Random games are played as bench/engine.py plays
them (step by step with ``auto`` off, the event log off, a seeded uniform choice) and
pickled at step 0 and at step 400. Each part is then replayed under ``valgrind
--tool=callgrind`` twice, a warm-up (the process-wide tables of actions and rankings fill)
and a measured pass, counted only inside ``legal_actions`` and ``apply`` (the engine, not
the loop around it): early, steps 0-50 of every game; late, steps 400-600 of every game that
gets there. Instructions are not time: a late step also misses the caches more often, so
late/early here is higher than bench/engine.py's. Needs valgrind (a Debian package) and the
compiled build, whose functions callgrind can name (``make compiled``).
"""

from __future__ import annotations

import argparse
import importlib.util
import pickle
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if importlib.util.find_spec("parlor") is None:
    sys.path.append(str(ROOT))

#: The parts of a game: the step a snapshot is taken at, and how many steps are replayed.
PARTS = {"early": (0, 50), "late": (400, 200)}
#: The compiled engine's entry points (mypyc's names): only what runs inside is counted.
ENTRIES = ("CPyPy_engine___apply", "CPyPy_engine___legal_actions")

Snapshot = tuple[bytes, object]  # a pickled state, and the choosing generator's state


def snapshots(games: int, seed: int) -> dict[str, list[Snapshot]]:
    """Each part's states of ``games`` random games (a late one only from a game that lasts
    past its first step), with the generator that chooses their next steps."""
    from parlor.rules.engine import apply, legal_actions, new_game
    from parlor.rules.state import Settings

    settings = Settings(auto=False)
    rng = random.Random(seed)
    out: dict[str, list[Snapshot]] = {part: [] for part in PARTS}
    g = 0
    while len(out["late"]) < games:
        s = new_game(seed=seed + g, settings=settings)
        s.log = None
        g += 1
        n = 0
        while not s.is_over:
            for part, (at, _) in PARTS.items():
                if n == at and len(out[part]) < games:
                    out[part].append((pickle.dumps(s), rng.getstate()))
            if n == PARTS["late"][0]:
                break
            apply(s, rng.choice(legal_actions(s)))
            n += 1
    return out


def replay(snaps: list[Snapshot], span: int) -> int:
    """Play ``span`` steps from each snapshot (one live state at a time, as in a run of
    bench/engine.py); the number of steps played."""
    from parlor.rules.engine import apply, legal_actions

    rng = random.Random(0)
    steps = 0
    for blob, st in snaps:
        s = pickle.loads(blob)
        rng.setstate(st)  # type: ignore[arg-type]
        for _ in range(span):
            if s.is_over:
                break
            apply(s, rng.choice(legal_actions(s)))
            steps += 1
    return steps


def worker(part: str, path: str) -> None:
    """Under callgrind: a warm-up pass, then the measured one between two ``time.sleep(0)``
    (callgrind zeroes its counts before the first and dumps them before the second)."""
    with open(path, "rb") as f:
        snaps: list[Snapshot] = pickle.load(f)[part]
    span = PARTS[part][1]
    replay(snaps, span)
    time.sleep(0)
    steps = replay(snaps, span)
    time.sleep(0)
    print(steps)


def count(part: str, path: Path, out: Path) -> tuple[int, int]:
    """(steps, instructions) of the measured pass of ``part``."""
    cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
           "--collect-atstart=no", "--zero-before=time_sleep", "--dump-before=time_sleep",
           *(f"--toggle-collect={e}" for e in ENTRIES),
           sys.executable, __file__, "--worker", part, str(path)]
    run = subprocess.run(cmd, capture_output=True, text=True, check=True)
    steps = int(run.stdout.split()[-1])
    # dumps: .1 the warm-up (zeroed), .2 the measured pass, .3 what follows
    totals = [line for line in Path(f"{out}.2").read_text().splitlines()
              if line.startswith("totals:")]
    return steps, int(totals[0].split()[1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=200, help="games per part (default 200)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the deals and choices")
    ap.add_argument("--worker", nargs=2, metavar=("PART", "FILE"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        worker(*args.worker)
        return 0
    from parlor.build import describe

    build = describe()
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    if not build.startswith("compiled"):
        print(f"the engine runs {build}: callgrind counts the compiled build's functions "
              "only (make compiled)", file=sys.stderr)
        return 2
    print(f"parlor: {build}; {args.games} games per part, seed {args.seed}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "snapshots.pickle"
        path.write_bytes(pickle.dumps(snapshots(args.games, args.seed)))
        per_step = {}
        for part in PARTS:
            steps, ir = count(part, path, Path(tmp) / f"{part}.callgrind")
            if not ir:
                print(f"callgrind counted nothing inside {', '.join(ENTRIES)}",
                      file=sys.stderr)
                return 1
            per_step[part] = ir / steps
            at, span = PARTS[part]
            label = f"{part} (steps {at}-{at + span}):"
            print(f"{label:<23} {steps:>6} steps, {ir:>13,} instructions, "
                  f"{per_step[part]:>7,.0f} a step")
    print(f"late/early speed in instructions: {per_step['early'] / per_step['late']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
