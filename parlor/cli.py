"""The ``parlor`` command.

    parlor simulate -n 1000 --seed 7 [--p1 LEVEL] [--p2 LEVEL] [--workers N]

``simulate`` plays ``n`` games dealt from the seeds ``seed``, ``seed + 1``, … between two
computer players whose seats alternate (:mod:`parlor.simulate`) and prints each player's wins
with a 95% confidence interval, the wins of each seat, the draws, the mean number of turns,
the players' think times and the games per second. A progress bar is drawn on
stderr when it is a terminal. ``play`` (:mod:`parlor.play`), ``tournament``
(:mod:`parlor.tournament_cli`) and ``serve`` (:mod:`parlor.web.serve`) are added by their
modules.

    >>> main(["simulate", "-n", "2", "--seed", "3"])  # doctest: +ELLIPSIS
    2 games, seeds 3..4, p1: random, p2: random (seats alternate)
    ...
    0
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import TextIO

from parlor import __version__
from parlor.simulate import PLAYERS, GameResult, Summary, play_game, player_name, simulate

__all__ = ["GameResult", "Progress", "main", "play_game"]

def level(name: str) -> str:
    """argparse type for --p1/--p2: a known level (name or number 1-5)."""
    try:
        return player_name(name)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


# -- progress bar -----------------------------------------------------------------------------


class Progress:
    """A one-line progress bar redrawn with ``\\r``; silent unless the stream is a terminal."""

    WIDTH = 30

    def __init__(self, total: int, stream: TextIO | None = None, label: str = "",
                 interval: float = 0.1) -> None:
        self.total = max(total, 1)
        self.stream = sys.stderr if stream is None else stream
        self.label = label
        self.interval = interval
        self.enabled = _isatty(self.stream)
        self.start = time.perf_counter()
        self._last = 0.0
        self._shown = False

    def update(self, done: int, force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if not force and now - self._last < self.interval and done < self.total:
            return
        self._last = now
        frac = min(done / self.total, 1.0)
        filled = int(frac * self.WIDTH)
        bar = "#" * filled + "-" * (self.WIDTH - filled)
        elapsed = now - self.start
        rate = done / elapsed if elapsed > 0 else 0.0
        self.stream.write(f"\r{self.label}[{bar}] {done}/{self.total} {frac:4.0%} "
                          f"{rate:,.1f} games/s ")
        self.stream.flush()
        self._shown = True

    def close(self) -> None:
        """Erase the bar so that what follows starts on a clean line."""
        if self.enabled and self._shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # closed or a bare file-like object
        return False


# -- the command ------------------------------------------------------------------------------


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="parlor", description="Parlor Magic: rules engine, computer opponents and tools."
    )
    parser.add_argument("--version", action="version", version=f"parlor {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    sim = sub.add_parser("simulate", help="play random games and print the results",
                         description="Play N games between computer players and summarise them.")
    sim.add_argument("-n", "--games", type=_positive, default=100, metavar="N",
                     help="number of games (default 100)")
    sim.add_argument("--seed", type=int, default=0,
                     help="seed of the first game; game i uses seed + i (default 0)")
    levels = ", ".join(PLAYERS)
    sim.add_argument("--p1", type=level, default="random", metavar="LEVEL",
                     help=f"the first player (one of: {levels}, or 1-5; default random)")
    sim.add_argument("--p2", type=level, default="random", metavar="LEVEL",
                     help=f"the second player (one of: {levels}, or 1-5; default random)")
    sim.add_argument("--workers", type=_positive, default=1, metavar="N",
                     help="worker processes (default 1: play in this process)")
    sim.set_defaults(func=cmd_simulate)

    from parlor import play, tournament_cli  # the terminal game and the tournament (1300)
    from parlor.web import serve, worker  # the web app, and its workers on PostgreSQL

    play.add_parser(sub)
    tournament_cli.add_parser(sub)
    serve.add_parser(sub)
    worker.add_parser(sub)
    return parser


def cmd_simulate(args: argparse.Namespace) -> int:
    n: int = args.games
    seed: int = args.seed
    p1: str = args.p1
    p2: str = args.p2
    print(f"{n} games, seeds {seed}..{seed + n - 1}, p1: {p1}, p2: {p2} (seats alternate)",
          flush=True)
    summary = Summary(p1, p2)
    bar = Progress(n, label="simulate ")
    start = time.perf_counter()
    try:
        for result in simulate(n, seed, p1, p2, args.workers):
            summary.add(result)
            bar.update(summary.games)
    except KeyboardInterrupt:
        bar.close()
        print(f"interrupted after {summary.games} games", file=sys.stderr)
        return 130
    elapsed = time.perf_counter() - start
    bar.close()
    for line in summary.lines(elapsed):
        print(line)
    return 0


def cmd_not_available(args: argparse.Namespace) -> int:
    print(f"parlor {args.command}: not available yet", file=sys.stderr)
    return 2


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
    return func(args)


if __name__ == "__main__":
    sys.exit(main())
