"""``parlor tournament``: a tournament under rule 1300 between computer players (and at most one
human, who plays its games with the ``parlor play`` screen).

    parlor tournament --teams "A:expert,greedy B:novice,expert" --rounds 6 --seed 1
                      [--talents 4] [--max-turns 200] [--think S] [--json FILE]
                      [--records DIR] [--no-ransom]

``--teams`` lists the teams, separated by spaces, each ``NAME:LEVEL,LEVEL,...``; a player is
named after its team and place (``A1``, ``A2``…) and plays at its level, or is ``human``.
The rules module :mod:`parlor.rules.tournament` pairs the rounds, settles every game and pays
the ransoms; this module only plays the games and shows the results: a progress bar, the
games and a standings table after each round, and a final report (a table, and JSON with
``--json``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

from parlor.ai.failure import AgentFailed
from parlor.rules.tournament import (
    DEFAULT_ROUNDS,
    DEFAULT_TALENTS,
    TournamentError,
    TournamentSettings,
)
from parlor.terminal.commands import Quit
from parlor.terminal.computer import available_levels
from parlor.terminal.options import positive
from parlor.terminal.play import console_reader, make_console
from parlor.terminal.runner import Runner
from parlor.terminal.teams import HUMAN, parse_teams

DEFAULT_TEAMS = "A:greedy,novice B:greedy,novice"  # fast levels: seconds in all


def add_parser(sub: Any) -> None:
    """Register ``parlor tournament`` on the subparsers of the ``parlor`` command."""
    p = sub.add_parser(
        "tournament", help="run a tournament between computer players (rules 1300)",
        description="Run a tournament (docs/rules.md 1300): teams, talents, payouts by the "
                    "winner's life, ransoms and single-card draws. One player may be 'human' "
                    "and plays its games in the terminal.")
    p.add_argument("--teams", default=DEFAULT_TEAMS, metavar="TEAMS",
                   help=f"teams as 'NAME:LEVEL,LEVEL NAME:LEVEL,...' with levels from: "
                        f"{', '.join(available_levels())}, {HUMAN} (default {DEFAULT_TEAMS!r})")
    p.add_argument("--rounds", type=positive, default=DEFAULT_ROUNDS,
                   help=f"rounds to play (default {DEFAULT_ROUNDS})")
    p.add_argument("--minutes", type=positive, default=None, metavar="M",
                   help="end after M minutes instead of a number of rounds: no round starts "
                        "after that, the round in play finishes (1312.1)")
    p.add_argument("--talents", type=positive, default=DEFAULT_TALENTS,
                   help=f"each player's dole (1302; default {DEFAULT_TALENTS})")
    p.add_argument("--seed", type=int, default=0, help="the tournament's seed (default 0)")
    p.add_argument("--max-turns", type=positive, default=200, metavar="N",
                   help="a game is a draw after N turns (1203; default 200)")
    p.add_argument("--think", type=float, default=None, metavar="SECONDS",
                   help="the computers' time per decision (default: each level's own)")
    p.add_argument("--no-ransom", action="store_true",
                   help="teammates never pay ransoms (1308): prisoners keep single draws")
    p.add_argument("--json", metavar="FILE", default=None,
                   help="write the final report as JSON to FILE ('-' for standard output)")
    p.add_argument("--records", metavar="DIR", default=None,
                   help="save every game's record in DIR")
    p.add_argument("--quiet", action="store_true",
                   help="print only the final report (no table after each round)")
    p.set_defaults(func=cmd_tournament)


def cmd_tournament(args: argparse.Namespace) -> int:
    try:
        entries = parse_teams(args.teams)
        by_time = args.minutes is not None
        settings = TournamentSettings(rounds=None if by_time else args.rounds,
                                      time_limit=args.minutes * 60.0 if by_time else None,
                                      talents=args.talents,
                                      max_turns=args.max_turns,
                                      auto_ransom=not args.no_ransom)
    except (ValueError, TournamentError) as exc:
        print(f"parlor tournament: {exc}", file=sys.stderr)
        return 2
    to_stdout = args.json == "-"
    console = make_console() if not to_stdout else Console(stderr=True, highlight=False)
    has_human = any(e.level == HUMAN for e in entries)
    runner = Runner(entries, settings, args.seed, console,
                    console_reader(console) if has_human else None, args.think,
                    Path(args.records) if args.records else None, args.quiet)
    try:
        t = runner.run()
    except Quit:
        console.print("Tournament stopped.")
        return 1
    except AgentFailed as exc:
        print(f"parlor tournament: {exc}: the tournament stops (the game's record is in the "
              "log above)", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        console.print("Tournament interrupted.")
        return 130
    if args.json:
        text = json.dumps(runner.report(t), indent=2) + "\n"
        if to_stdout:
            sys.stdout.write(text)
        else:
            try:
                Path(args.json).write_text(text, encoding="utf-8")
            except OSError as exc:
                print(f"parlor tournament: cannot write {args.json}: {exc.strerror}",
                      file=sys.stderr)
                return 1
            console.print(f"report written to {args.json}")
    return 0
