"""Self-play positions for the learned evaluation, with the outcome as the target.

Games between fast existing agents (by default Greedy and the Greedy-based levels, and the
cheap policy's novice, whose careless play reaches the kind of positions the search's
rollouts reach; ``parlor train --pairing`` names others, such as the expert at a fixed
iteration budget against Greedy), each dealt from its own seed; seats alternate. At the
start of every turn both Rlrs' :func:`~parlor.ai.features.features` are recorded, each
with that Rlr's result of the game (1 a win, 0 a loss, 0.5 a draw): the search evaluates
its leaves at the start of a turn (:mod:`parlor.ai.search`), so those are the positions to
learn. Everything is seeded, so the same ``seed`` and ``games`` give the same rows.

    >>> data = positions(seed=5, games=1)
    >>> len(data.rows) == len(data.targets) == len(data.games) > 0
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from parlor.ai.features import features
from parlor.ai.levels import make_agent
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.state import OVER
from parlor.rules.view import view

#: The pairings the games cycle through (the first named sits as Rlr 1 on even games).
PAIRINGS: tuple[tuple[str, str], ...] = (
    ("greedy", "greedy"),
    ("intermediate", "greedy"),
    ("casual", "intermediate"),
    ("novice", "greedy"),
)
MAX_DECISIONS = 20000


@dataclass
class Positions:
    """Feature rows, their targets, and the game (index) each row comes from."""

    rows: list[list[float]] = field(default_factory=list)
    targets: list[float] = field(default_factory=list)
    games: list[int] = field(default_factory=list)
    turns_left: list[int] = field(default_factory=list)


def play_and_record(index: int, seed: int, pairing: Sequence[str], out: Positions) -> None:
    """Play game ``index`` (dealt from ``seed``) and append its positions to ``out``."""
    a, b = pairing
    names = (b, a) if index % 2 else (a, b)
    agents = [make_agent(names[0], seed * 7919 + 1), make_agent(names[1], seed * 7919 + 2)]
    s = new_game(seed)
    s.log = None
    snapshots: list[tuple[list[float], list[float], int]] = []
    turn = 0
    n = 0
    while s.phase is not OVER and n < MAX_DECISIONS:
        if s.turn != turn:
            turn = s.turn
            snapshots.append((features(s, 0), features(s, 1), s.settings.max_turns - turn))
        legal = legal_actions(s)
        p = s.actor
        action = agents[p].act(view(s, p, log=False), list(legal), agents[p].budget)
        apply(s, action)
        n += 1
    if s.phase is not OVER:
        raise RuntimeError(f"game {index} (seed {seed}) did not end in {MAX_DECISIONS} decisions")
    result = (0.5, 0.5) if s.winner is None else (
        (1.0, 0.0) if s.winner == 0 else (0.0, 1.0))
    for f0, f1, left in snapshots:
        for f, r in ((f0, result[0]), (f1, result[1])):
            out.rows.append(f)
            out.targets.append(r)
            out.games.append(index)
            out.turns_left.append(left)


def positions(seed: int, games: int, pairings: Sequence[tuple[str, str]] = PAIRINGS,
              workers: int = 1) -> Positions:
    """The positions of ``games`` games, game i dealt from ``seed + i`` and played by the
    pairing ``i % len(pairings)`` (seats alternating), on ``workers`` processes: the same
    rows in the same order however many (each game has its own seeds)."""
    jobs = [(i, seed + i, tuple(pairings[i % len(pairings)])) for i in range(games)]
    out = Positions()
    if workers <= 1:
        for job in jobs:
            _merge(out, _one_game(job))
        return out
    with ProcessPoolExecutor(workers) as pool:
        for part in pool.map(_one_game, jobs, chunksize=4):
            _merge(out, part)
    return out


def _one_game(job: tuple[int, int, tuple[str, ...]]) -> Positions:
    index, seed, pairing = job
    out = Positions()
    play_and_record(index, seed, pairing, out)
    return out


def _merge(out: Positions, part: Positions) -> None:
    out.rows += part.rows
    out.targets += part.targets
    out.games += part.games
    out.turns_left += part.turns_left


__all__ = ["PAIRINGS", "Positions", "play_and_record", "positions"]
