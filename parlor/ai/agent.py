"""The agent interface: :class:`Agent` and :class:`Choice`.

This module stays interpreted in the compiled build (see ``compile.py``): mypyc rejects
``@runtime_checkable`` Protocols, and an interface costs nothing at run time. The agents
themselves (:mod:`parlor.ai.base` onwards) are compiled.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from parlor.rules.actions import Action
from parlor.rules.values import Value
from parlor.rules.view import View


@dataclass(frozen=True, slots=True)
class Choice(Value):
    """One alternative an agent considered: its win estimate (0-1, for the agent) and how many
    samples or search visits stand behind it (0 when it was not evaluated at all)."""

    action: Action
    value: float
    visits: int

    def describe(self) -> str:
        """A log line such as ``attack KS: 71% win estimate``."""
        if self.visits == 0:
            return f"{self.action}"
        return f"{self.action}: {round(100 * self.value)}% win estimate"


@runtime_checkable
class Agent(Protocol):
    """A computer opponent."""

    name: str
    budget: float

    def act(self, view: View, legal: Sequence[Action], budget: float | None = None) -> Action:
        """The action to play (always one of ``legal``)."""
        ...

    def explain(self, view: View, legal: Sequence[Action],
                budget: float | None = None) -> list[Choice]:
        """The alternatives considered, best first (for a hint button or a log line)."""
        ...


__all__ = ["Agent", "Choice"]
