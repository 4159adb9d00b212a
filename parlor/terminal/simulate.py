"""``parlor simulate``: games between computer players, and their summary.

    parlor simulate -n 1000 --seed 7 [--p1 LEVEL] [--p2 LEVEL] [--workers N]
    parlor simulate -n 40 --p1 expert@iters=800 --p2 expert_ref@iters=800 [--ray auto]

plays ``n`` games dealt from the seeds ``seed``, ``seed + 1``, … and prints each player's wins
with a 95% confidence interval, the wins of each seat, the draws, the mean number of turns,
the players' think times and the games per second (:mod:`parlor.terminal.stats`). A progress
bar is drawn on stderr when it is a terminal.

Seats alternate: in even games (counted from the first seed) ``p1`` sits as Rlr 1, in odd
games as Rlr 2, so neither player keeps a seat's advantage. Who goes first is still dealt
at random (rule 106). Random players take the engine's fast path; other levels play through
their own views like any computer opponent (:mod:`parlor.ai`). A searching level given as
``LEVEL@iters=N`` searches exactly N iterations a decision, whatever the machine's load, and
``expert_ref`` is today's expert kept fixed for measurements (:mod:`parlor.ai.levels`).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from parlor.ai.base import Agent
from parlor.ai.failure import decide
from parlor.ai.levels import NAMES, REFERENCE_NAMES, agent_spec, make_agent
from parlor.cluster import ray_map
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.view import view
from parlor.terminal.options import positive
from parlor.terminal.progress import Progress
from parlor.terminal.stats import Summary

#: The players ``--p1``/``--p2`` accept: the five levels by name or number, random, greedy,
#: the reference expert; a searching one also as ``NAME@iters=N``.
PLAYERS: tuple[str, ...] = (*NAMES, *REFERENCE_NAMES)


def player_name(text: str) -> str:
    """A known player's spec (``"5"`` → ``"expert"``, ``"5@iters=800"`` →
    ``"expert@iters=800"``); ValueError for anything else."""
    try:
        return agent_spec(text)
    except ValueError as exc:
        if "@" in text:  # a known name with a faulty budget: say what is wrong with it
            raise
        raise ValueError(f"unknown level {text!r} (available: {', '.join(PLAYERS)}; a "
                         "searching one also as NAME@iters=N)") from exc


@dataclass(frozen=True, slots=True)
class GameResult:
    seed: int
    winner: int | None  # the seat: 0 = Rlr 1, 1 = Rlr 2; None = a draw
    turns: int
    decisions: int
    swapped: bool = False  # p1 sat as Rlr 2
    think: tuple[tuple[float, ...], tuple[float, ...]] = ((), ())  # seconds, by player p1/p2

    @property
    def winner_player(self) -> int | None:
        """0 when p1 won, 1 when p2 won, None for a draw."""
        if self.winner is None:
            return None
        return self.winner ^ 1 if self.swapped else self.winner


def play_game(seed: int, p1: str = "random", p2: str = "random",
              swapped: bool = False) -> GameResult:
    """One game dealt from ``seed``; each player's choices come from its own seeded stream."""
    s = new_game(seed=seed)
    s.log = None
    seats = (p2, p1) if swapped else (p1, p2)
    if seats == ("random", "random"):  # the fast path: no views, one stream for both
        rng = random.Random(f"parlor-simulate-{seed}")
        decisions = 0
        while not s.is_over:
            apply(s, rng.choice(legal_actions(s)))
            decisions += 1
        return GameResult(seed, s.winner, s.turn, decisions, swapped)
    agents: tuple[Agent, Agent] = (make_agent(seats[0], seed * 2), make_agent(seats[1],
                                                                               seed * 2 + 1))
    think: tuple[list[float], list[float]] = ([], [])
    while not s.is_over:
        p = s.actor
        legal = legal_actions(s)
        t0 = time.perf_counter()
        action = decide(agents[p], view(s, p, log=False), legal, agents[p].budget)
        think[p].append(time.perf_counter() - t0)
        apply(s, action)
    by_player = (think[1], think[0]) if swapped else think
    return GameResult(seed, s.winner, s.turn, len(think[0]) + len(think[1]), swapped,
                      (tuple(by_player[0]), tuple(by_player[1])))


def _play_range(job: tuple[int, int, int, str, str]) -> list[GameResult]:
    """Worker entry point: ``count`` games from seed ``start`` (module level, so it pickles)."""
    first, start, count, p1, p2 = job
    return [play_game(seed, p1, p2, (seed - first) % 2 == 1)
            for seed in range(start, start + count)]


def simulate(n: int, seed: int, p1: str, p2: str, workers: int = 1,
             ray: str | None = None) -> Iterator[GameResult]:
    """The results of games ``seed`` … ``seed + n - 1``, in order with one worker, in batches
    as they finish with several (worker processes), or on Ray when ``ray`` names a cluster
    (:mod:`parlor.cluster`: ``local``, ``auto`` or an address)."""
    if ray is None and workers <= 1:
        for i in range(n):
            yield play_game(seed + i, p1, p2, i % 2 == 1)
        return
    fast = (p1, p2) == ("random", "random")
    size = max(1, min(50 if fast else 2, n // (workers * 8)))
    jobs = [(seed, start, min(size, seed + n - start), p1, p2)
            for start in range(seed, seed + n, size)]
    if ray is not None:
        for batch in ray_map(_play_range, jobs, ray, workers):
            yield from batch
        return
    with multiprocessing.Pool(workers) as pool:
        for batch in pool.imap_unordered(_play_range, jobs):
            yield from batch


# -- the command -----------------------------------------------------------------------------


def _level(name: str) -> str:
    """argparse type for --p1/--p2: a known level (name or number 1-5)."""
    try:
        return player_name(name)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_parser(sub: Any) -> None:
    """Register ``parlor simulate`` on the subparsers of the ``parlor`` command."""
    sim = sub.add_parser("simulate", help="play random games and print the results",
                         description="Play N games between computer players and summarise them.")
    sim.add_argument("-n", "--games", type=positive, default=100, metavar="N",
                     help="number of games (default 100)")
    sim.add_argument("--seed", type=int, default=0,
                     help="seed of the first game; game i uses seed + i (default 0)")
    levels = ", ".join(PLAYERS)
    sim.add_argument("--p1", type=_level, default="random", metavar="LEVEL",
                     help=f"the first player (one of: {levels}, or 1-5; a searching one "
                     "also as NAME@iters=N; default random)")
    sim.add_argument("--p2", type=_level, default="random", metavar="LEVEL",
                     help=f"the second player (one of: {levels}, or 1-5; a searching one "
                     "also as NAME@iters=N; default random)")
    sim.add_argument("--workers", type=positive, default=1, metavar="N",
                     help="worker processes (default 1: play in this process)")
    sim.add_argument("--ray", default=None, metavar="ADDRESS",
                     help="play the games on Ray (the cluster extra): local (an instance on "
                     "this machine with --workers CPUs), auto (the cluster running here) or a "
                     "cluster's address; results as with the local pool for the same seeds")
    sim.set_defaults(func=cmd_simulate)


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
        for result in simulate(n, seed, p1, p2, args.workers, args.ray):
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
