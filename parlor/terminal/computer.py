"""The computer players of the terminal: a level's agent (:mod:`parlor.ai.levels`) that acts on
the state it is given through its own view, and the level names ``parlor play`` and
``parlor tournament`` accept.

An unknown level is refused where it is chosen (:class:`UnknownLevelError`). An agent that
raises or answers an illegal action is a bug: :meth:`Computer.act` logs it with the position
(the game record so far, which replays to it) and raises
:class:`~parlor.ai.failure.AgentFailed`; nothing plays in its place.
"""

from __future__ import annotations

import argparse
import logging

from parlor.ai.base import Agent
from parlor.ai.failure import AgentFailed, decide
from parlor.ai.levels import NAMES, level_name, make_agent
from parlor.rules.actions import Action
from parlor.rules.engine import legal_actions
from parlor.rules.notation import record
from parlor.rules.state import State
from parlor.rules.view import view

DEFAULT_LEVEL = "greedy"

log = logging.getLogger("parlor.terminal")


class UnknownLevelError(ValueError):
    """A level name that parlor.ai does not know."""


def available_levels() -> tuple[str, ...]:
    """The level names the computer players offer: levels 1-5, then the baselines."""
    return NAMES


def canonical_level(name: str) -> str:
    """A level's name as parlor.ai spells it (``"5"`` → ``"expert"``); UnknownLevelError for
    anything else.

    >>> canonical_level("Expert"), canonical_level("2")
    ('expert', 'casual')
    """
    try:
        return level_name(name)
    except ValueError as exc:
        raise UnknownLevelError(f"unknown level {name!r} (available: "
                                f"{', '.join(available_levels())}, or 1-5)") from exc


def check_level(name: str) -> str:
    """argparse type: one of the computer levels, as its canonical name."""
    try:
        return canonical_level(name)
    except UnknownLevelError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


class Computer:
    """A computer player of ``level`` (UnknownLevelError for a level parlor.ai lacks)."""

    def __init__(self, level: str, seed: int = 0, budget: float | None = None) -> None:
        self.level = canonical_level(level)
        self.seed = seed
        self.budget = budget
        self.agent: Agent = make_agent(self.level, seed)

    def act(self, s: State, player: int) -> Action:
        """The agent's action for ``player`` at ``s``; AgentFailed (logged with the game
        record) when it raises or answers an illegal action."""
        legal = legal_actions(s)
        if len(legal) == 1:
            return legal[0]
        try:
            return decide(self.agent, view(s, player), legal, self.budget)
        except AgentFailed as exc:
            log.error("%s at move %d (Rlr %d to act); the game so far:\n%s", exc,
                      len(s.history) + 1, player + 1, record(s))
            raise
