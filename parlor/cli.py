"""The ``parlor`` command: a thin dispatcher to the front-ends' commands.

* ``play`` (:mod:`parlor.terminal.play`): a game against the computer in the terminal;
* ``tournament`` (:mod:`parlor.terminal.tournament`): a tournament under rule 1300;
* ``simulate`` (:mod:`parlor.terminal.simulate`): games between computer players, summarised;
* ``analyse`` (:mod:`parlor.terminal.analyse`): the post-game analysis of a game record;
* ``serve`` (:mod:`parlor.web.serve`): the web app;
* ``worker`` (:mod:`parlor.web.worker`): the computer's jobs of a PostgreSQL deployment;
* ``train`` (:mod:`parlor.training.command`): regenerate the learned evaluation's weights;
* ``puzzles`` (:mod:`parlor.puzzles.command`): mine puzzles, verify the shipped set.

    >>> main(["simulate", "-n", "2", "--seed", "3"])  # doctest: +ELLIPSIS
    2 games, seeds 3..4, p1: random, p2: random (seats alternate)
    ...
    0
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from parlor import __version__
from parlor.build import describe
from parlor.puzzles import command as puzzles
from parlor.settings import SettingError
from parlor.terminal import analyse, play, simulate, tournament
from parlor.training import command as train
from parlor.web import serve, worker


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="parlor", description="Parlor Magic: rules engine, computer opponents and tools."
    )
    parser.add_argument("--version", action="version",
                        version=f"parlor {__version__}, {describe()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    simulate.add_parser(sub)
    play.add_parser(sub)
    tournament.add_parser(sub)
    analyse.add_parser(sub)
    serve.add_parser(sub)
    worker.add_parser(sub)
    train.add_parser(sub)
    puzzles.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``); returns the exit code."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a usage error already printed
        if exc.code is None:
            return 0
        return exc.code if isinstance(exc.code, int) else 2
    func: Callable[[argparse.Namespace], int] = args.func
    try:
        return func(args)
    except SettingError as exc:  # an unreadable environment setting: said, not a traceback
        print(f"parlor {args.command}: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
