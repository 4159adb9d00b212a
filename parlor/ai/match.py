"""Playing agents against each other: one game, with think times, for tests and the bench."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from parlor.ai.agent import SeesState
from parlor.ai.base import Agent
from parlor.rules.actions import Action
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.state import OVER, Settings, State
from parlor.rules.view import view


class IllegalAgentAction(RuntimeError):
    """An agent returned an action that is not among the legal ones."""


@dataclass
class GameResult:
    seed: int
    winner: int | None  # seat 0/1, None for a draw
    turns: int
    decisions: tuple[int, int] = (0, 0)
    think: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))
    think_phase: tuple[dict[str, list[float]], dict[str, list[float]]] = field(
        default_factory=lambda: ({}, {}))
    result: str = ""


def play_game(agents: Sequence[Agent], seed: int, settings: Settings | None = None,
              max_decisions: int = 20000, state: State | None = None) -> GameResult:
    """Play one game between ``agents[0]`` (Rlr 1) and ``agents[1]`` (Rlr 2).

    Every decision with more than one legal action goes to the agent to act, with its own
    view and its own budget (a benchmark agent that :class:`~parlor.ai.agent.SeesState` gets
    a copy of the true state instead); single choices are applied by the engine
    (``settings.auto``).
    Raises IllegalAgentAction if an agent answers with an action that is not legal."""
    if state is None:
        s = new_game(seed, settings)
        s.log = None  # nobody reads it here, and writing it costs time
    else:
        s = state
    think: tuple[list[float], list[float]] = ([], [])
    by_phase: tuple[dict[str, list[float]], dict[str, list[float]]] = ({}, {})
    n = 0
    while s.phase is not OVER and n < max_decisions:
        legal = legal_actions(s)
        p = s.actor
        agent = agents[p]
        phase = s.phase.name.lower()
        a: Action
        if isinstance(agent, SeesState):
            truth = s.clone()
            t0 = time.perf_counter()
            a = agent.act_on_state(truth, list(legal))
        else:
            v = view(s, p, log=False)
            t0 = time.perf_counter()
            a = agent.act(v, list(legal), agent.budget)
        dt = time.perf_counter() - t0
        if a not in legal:
            raise IllegalAgentAction(f"{agent!r} played {a} at {phase}; legal: "
                                     f"{', '.join(str(x) for x in legal)}")
        think[p].append(dt)
        by_phase[p].setdefault(phase, []).append(dt)
        apply(s, a)
        n += 1
    return GameResult(seed, s.winner, s.turn, (len(think[0]), len(think[1])), think, by_phase,
                      s.result)


__all__ = ["GameResult", "IllegalAgentAction", "play_game"]
