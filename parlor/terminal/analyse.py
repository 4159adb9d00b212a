"""``parlor analyse RECORD``: the post-game analysis of a game record in the terminal.

For each decision of the chosen Rlr, the expert's win estimate after its preferred decision
and after the one played, marked inaccuracy / mistake / blunder by the drop
(:data:`parlor.ai.analysis.THRESHOLDS`). The same analysis as the web app's
``/g/{id}/analysis`` for the same record, seed and iterations.
"""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from parlor.ai.analysis import ITERATIONS, THRESHOLDS, Decision, analyse_decision, decision_plies
from parlor.rules.notation import RecordError, parse_record, replay


def add_parser(sub: Any) -> None:
    """Register ``parlor analyse`` on the subparsers of the ``parlor`` command."""
    p = sub.add_parser("analyse", aliases=["analyze"], help="analyse a game record",
                       description="The expert's view of each decision of one Rlr in a game "
                                   "record (a file, or - for standard input).")
    p.add_argument("record", metavar="RECORD", help="the game record file, or - for stdin")
    p.add_argument("--seat", type=int, choices=(1, 2), default=1,
                   help="the Rlr whose decisions are analysed (default 1)")
    p.add_argument("--seed", type=int, default=0, help="the analysis seed (default 0)")
    p.add_argument("--iterations", type=int, default=ITERATIONS,
                   help=f"search iterations per decision (default {ITERATIONS})")
    p.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    p.set_defaults(func=cmd_analyse)


def _pct(x: float) -> str:
    return f"{round(100 * x):3d}%"


def line(d: Decision) -> str:
    best = "same" if d.best == d.played else d.best
    mark = f"  {d.mark.upper()}" if d.mark else ""
    chance = (f"{_pct(d.before)} -> {_pct(d.after)}"
              if d.before is not None and d.after is not None else "no estimate")
    return f"turn {d.turn:3d}  {d.played:<24} expert: {best:<24} {chance}{mark}"


def cmd_analyse(args: argparse.Namespace) -> int:
    try:
        text = sys.stdin.read() if args.record == "-" else Path(args.record).read_text()
    except OSError as exc:
        print(f"parlor analyse: cannot read {args.record}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        settings, seed, parsed = parse_record(text)
        replay(text)
    except (RecordError, ValueError) as exc:
        print(f"parlor analyse: not a record that replays: {exc}", file=sys.stderr)
        return 2
    player = args.seat - 1
    actions = [str(a) for _, a in parsed]
    plies = decision_plies(settings, seed, actions, player)
    jobs = [(str(settings), seed, actions, ply, player, args.seed, args.iterations)
            for ply in plies]
    print(f"Analysis of Rlr {args.seat}'s {len(plies)} decisions (seed {args.seed}, "
          f"{args.iterations} iterations each). Marks by the drop in the win estimate: "
          + ", ".join(f"{name} {round(at * 100)}+ points" for name, at in THRESHOLDS) + ".")
    results: list[Decision] = []
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            for d in pool.map(analyse_decision, *zip(*jobs, strict=True)):
                results.append(d)
                print(line(d), flush=True)
    else:
        for job in jobs:
            d = analyse_decision(*job)
            results.append(d)
            print(line(d), flush=True)
    counts = {name: sum(1 for d in results if d.mark == name) for name, _ in THRESHOLDS}
    plural = {"blunder": "blunders", "mistake": "mistakes", "inaccuracy": "inaccuracies"}
    print(", ".join(f"{n} {name if n == 1 else plural[name]}" for name, n in counts.items()))
    return 0


__all__ = ["add_parser", "cmd_analyse", "line"]
