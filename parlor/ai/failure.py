"""A computer player that raises, or answers an action that is not legal, has a bug: the
front-ends report it, with the position, and never play another level or a random move in
its place.

    >>> from parlor.ai.levels import make_agent
    >>> from parlor.rules.engine import legal_actions, new_game
    >>> from parlor.rules.view import view
    >>> s = new_game(4)
    >>> legal = legal_actions(s)
    >>> decide(make_agent("novice", 1), view(s, s.actor), legal) in legal
    True
    >>> class Liar:
    ...     name = "liar"
    ...     def act(self, view, legal, budget=None):
    ...         return "attack KS"
    >>> decide(Liar(), view(s, s.actor), legal)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    parlor.ai.failure.AgentFailed: the liar computer answered 'attack KS', not a legal action ...
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from parlor.rules.actions import Action
from parlor.rules.view import View


class Acting(Protocol):
    """Anything that decides like an agent (:class:`parlor.ai.base.Agent`)."""

    name: str

    def act(self, view: View, legal: Sequence[Action], budget: float | None = None) -> Any:
        ...


class AgentFailed(RuntimeError):
    """The computer player ``level`` raised or answered an illegal action: a bug to report.

    ``reason`` says what it did; the front-end that catches it logs the position (the game
    record) with it. Its arguments are kept in ``args`` so that it crosses a process pool.
    """

    def __init__(self, level: str, reason: str) -> None:
        super().__init__(level, reason)
        self.level = level
        self.reason = reason

    def __str__(self) -> str:
        return f"the {self.level} computer {self.reason}"


def decide(agent: Acting, v: View, legal: Sequence[Action],
           budget: float | None = None) -> Action:
    """``agent``'s action among ``legal`` from the view ``v``; AgentFailed when it raises or
    answers anything else."""
    try:
        choice = agent.act(v, legal, budget)
    except Exception as exc:
        raise AgentFailed(agent.name, f"raised {exc!r}") from exc
    if not isinstance(choice, Action) or choice not in legal:
        raise AgentFailed(agent.name, f"answered {str(choice)!r}, not a legal action (one of "
                                      f"{len(legal)})")
    return choice


__all__ = ["AgentFailed", "decide"]
