"""The ``parlor`` command.

    parlor simulate -n 1000 --seed 7 [--p1 LEVEL] [--p2 LEVEL] [--workers N]

``simulate`` plays ``n`` games dealt from the seeds ``seed``, ``seed + 1``, … and prints the
wins of each seat (Rlr 1 and Rlr 2 as seated; who goes first is dealt at random, rule 106),
the draws, the mean number of turns and the games per second. A progress bar is drawn on
stderr when it is a terminal. ``play`` (:mod:`parlor.play`), ``tournament``
(:mod:`parlor.tournament_cli`) and ``serve`` (:mod:`parlor.web.serve`) are added by their
modules.

    >>> main(["simulate", "-n", "2", "--seed", "3"])  # doctest: +ELLIPSIS
    2 games, seeds 3..4, Rlr 1: random, Rlr 2: random
    ...
    0
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TextIO

from parlor import __version__
from parlor.rules.actions import Action
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.state import State

# -- computer players -------------------------------------------------------------------------

Policy = Callable[[State, random.Random], Action]


def random_policy(s: State, rng: random.Random) -> Action:
    """A uniformly random legal action."""
    return rng.choice(legal_actions(s))


# The levels --p1/--p2 accept. Stronger players join this table as parlor.ai grows.
LEVELS: dict[str, Policy] = {"random": random_policy}


def level(name: str) -> str:
    """argparse type for --p1/--p2: a known level name."""
    if name not in LEVELS:
        raise argparse.ArgumentTypeError(
            f"unknown level {name!r} (available: {', '.join(sorted(LEVELS))})"
        )
    return name


# -- simulation -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameResult:
    seed: int
    winner: int | None  # the seat: 0 = Rlr 1, 1 = Rlr 2; None = a draw
    turns: int
    decisions: int


def play_game(seed: int, p1: str = "random", p2: str = "random") -> GameResult:
    """One game dealt from ``seed``; the players' choices come from their own seeded stream."""
    policies = (LEVELS[p1], LEVELS[p2])
    rng = random.Random(f"parlor-simulate-{seed}")
    s = new_game(seed=seed)
    s.log = None
    decisions = 0
    while not s.is_over:
        apply(s, policies[s.actor](s, rng))
        decisions += 1
    return GameResult(seed, s.winner, s.turn, decisions)


def _play_range(job: tuple[int, int, str, str]) -> list[GameResult]:
    """Worker entry point: ``count`` games from seed ``start`` (module level, so it pickles)."""
    start, count, p1, p2 = job
    return [play_game(seed, p1, p2) for seed in range(start, start + count)]


def simulate(n: int, seed: int, p1: str, p2: str, workers: int = 1) -> Iterator[GameResult]:
    """The results of games ``seed`` … ``seed + n - 1``, in order with one worker, in
    batches as they finish with several."""
    if workers <= 1:
        for i in range(n):
            yield play_game(seed + i, p1, p2)
        return
    size = max(1, min(50, n // (workers * 8)))
    jobs = [(start, min(size, seed + n - start), p1, p2) for start in range(seed, seed + n, size)]
    with multiprocessing.Pool(workers) as pool:
        for batch in pool.imap_unordered(_play_range, jobs):
            yield from batch


@dataclass(slots=True)
class Summary:
    games: int = 0
    wins: tuple[int, int] = (0, 0)
    draws: int = 0
    turns: int = 0
    decisions: int = 0

    def add(self, r: GameResult) -> None:
        self.games += 1
        if r.winner is None:
            self.draws += 1
        elif r.winner == 0:
            self.wins = (self.wins[0] + 1, self.wins[1])
        else:
            self.wins = (self.wins[0], self.wins[1] + 1)
        self.turns += r.turns
        self.decisions += r.decisions

    def lines(self, seconds: float) -> list[str]:
        def row(label: str, k: int) -> str:
            pct = 100.0 * k / self.games if self.games else 0.0
            return f"{label:<12}{k:>8}  ({pct:5.1f}%)"

        n = self.games or 1
        rate = self.games / seconds if seconds > 0 else float("inf")
        return [
            row("Rlr 1 wins", self.wins[0]),
            row("Rlr 2 wins", self.wins[1]),
            row("draws", self.draws),
            f"{'mean turns':<12}{self.turns / n:>8.1f}",
            f"{'mean dec.':<12}{self.decisions / n:>8.1f}",
            f"{'games/s':<12}{rate:>8.1f}  ({seconds:.2f} s)",
        ]


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
    levels = ", ".join(sorted(LEVELS))
    sim.add_argument("--p1", type=level, default="random", metavar="LEVEL",
                     help=f"Rlr 1's player (one of: {levels}; default random)")
    sim.add_argument("--p2", type=level, default="random", metavar="LEVEL",
                     help=f"Rlr 2's player (one of: {levels}; default random)")
    sim.add_argument("--workers", type=_positive, default=1, metavar="N",
                     help="worker processes (default 1: play in this process)")
    sim.set_defaults(func=cmd_simulate)

    from parlor import play, tournament_cli  # the terminal game and the tournament (1300)
    from parlor.web import serve  # the web app

    play.add_parser(sub)
    tournament_cli.add_parser(sub)
    serve.add_parser(sub)
    return parser


def cmd_simulate(args: argparse.Namespace) -> int:
    n: int = args.games
    seed: int = args.seed
    p1: str = args.p1
    p2: str = args.p2
    print(f"{n} games, seeds {seed}..{seed + n - 1}, Rlr 1: {p1}, Rlr 2: {p2}", flush=True)
    summary = Summary()
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
