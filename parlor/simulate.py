"""Games between computer players, for ``parlor simulate``: results, win rates with 95%
confidence intervals and think times.

Seats alternate: in even games (counted from the first seed) ``p1`` sits as Rlr 1, in odd
games as Rlr 2, so neither player keeps a seat's advantage. Who goes first is still dealt
at random (rule 106). Random players take the engine's fast path; other levels play through
their own views like any computer opponent (:mod:`parlor.ai`).
"""

from __future__ import annotations

import math
import multiprocessing
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from parlor.ai.base import Agent
from parlor.ai.levels import NAMES, make_agent
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.view import view

#: The players ``--p1``/``--p2`` accept: the five levels by name or number, random, greedy.
PLAYERS: tuple[str, ...] = NAMES


def player_name(text: str) -> str:
    """A known player name (``"5"`` → ``"expert"``); ValueError for anything else."""
    key = text.strip().lower()
    if key.isdigit() and 1 <= int(key) <= 5:
        key = NAMES[int(key) - 1]
    if key not in PLAYERS:
        raise ValueError(f"unknown level {text!r} (available: {', '.join(PLAYERS)})")
    return key


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
        action = agents[p].act(view(s, p, log=False), legal, agents[p].budget)
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


def simulate(n: int, seed: int, p1: str, p2: str, workers: int = 1) -> Iterator[GameResult]:
    """The results of games ``seed`` … ``seed + n - 1``, in order with one worker, in batches
    as they finish with several (worker processes)."""
    if workers <= 1:
        for i in range(n):
            yield play_game(seed + i, p1, p2, i % 2 == 1)
        return
    fast = (p1, p2) == ("random", "random")
    size = max(1, min(50 if fast else 2, n // (workers * 8)))
    jobs = [(seed, start, min(size, seed + n - start), p1, p2)
            for start in range(seed, seed + n, size)]
    with multiprocessing.Pool(workers) as pool:
        for batch in pool.imap_unordered(_play_range, jobs):
            yield from batch


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``k / n``.

    >>> [round(x, 3) for x in wilson(140, 200)]
    [0.633, 0.759]
    """
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile (0-100) by nearest rank; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


@dataclass(slots=True)
class Summary:
    p1: str = "random"
    p2: str = "random"
    games: int = 0
    seat_wins: list[int] = field(default_factory=lambda: [0, 0])
    player_wins: list[int] = field(default_factory=lambda: [0, 0])
    draws: int = 0
    turns: int = 0
    decisions: int = 0
    think: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))

    def add(self, r: GameResult) -> None:
        self.games += 1
        self.turns += r.turns
        self.decisions += r.decisions
        if r.winner is None:
            self.draws += 1
        else:
            self.seat_wins[r.winner] += 1
            self.player_wins[r.winner_player or 0] += 1
        self.think[0].extend(r.think[0])
        self.think[1].extend(r.think[1])

    def lines(self, seconds: float) -> list[str]:
        n = self.games or 1

        def row(label: str, k: int) -> str:
            return f"{label:<12}{k:>8}  ({100.0 * k / n:5.1f}%)"

        out = []
        for i, name in enumerate((self.p1, self.p2)):
            lo, hi = wilson(self.player_wins[i], self.games)
            out.append(f"{row(f'p{i + 1} wins', self.player_wins[i])}  95% CI "
                       f"{100 * lo:.1f}-{100 * hi:.1f}%  {name}")
        out += [
            row("Rlr 1 wins", self.seat_wins[0]),
            row("Rlr 2 wins", self.seat_wins[1]),
            row("draws", self.draws),
            f"{'mean turns':<12}{self.turns / n:>8.1f}",
            f"{'mean dec.':<12}{self.decisions / n:>8.1f}",
        ]
        for i, name in enumerate((self.p1, self.p2)):
            t = self.think[i]
            if t:
                out.append(f"{'think p' + str(i + 1):<12}  p50 {percentile(t, 50):.3f} s  "
                           f"p95 {percentile(t, 95):.3f} s  max {max(t):.3f} s  "
                           f"({len(t)} decisions, {name})")
        rate = self.games / seconds if seconds > 0 else float("inf")
        out.append(f"{'games/s':<12}{rate:>8.1f}  ({seconds:.2f} s)")
        return out
