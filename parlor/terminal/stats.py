"""The summary ``parlor simulate`` prints: each player's wins with a 95% confidence interval,
the wins of each seat, the draws, the mean number of turns and decisions, think times."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from parlor.terminal.simulate import GameResult


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
