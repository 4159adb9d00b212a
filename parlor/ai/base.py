"""The agent interface shared by every computer opponent.

An agent sees only its own :class:`~parlor.rules.view.View` and the legal actions; it never
receives the full state. Whatever it needs to know about hidden cards it samples itself with
:func:`~parlor.rules.view.resample` from its own seeded ``random.Random``, so two states
that look the same to it get the same answer from agents built with the same seed.

``budget`` is the wall-clock time in seconds the caller allows for this decision (None: the
agent's own default). Agents may use less: forced and cheap decisions take no search.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from mypy_extensions import mypyc_attr

from parlor.ai.agent import Agent, Choice
from parlor.rules.actions import Action
from parlor.rules.state import State
from parlor.rules.view import View, resample


# Research agents (parlor/research/agents.py, interpreted) subclass it on the compiled build.
@mypyc_attr(allow_interpreted_subclasses=True)
class BaseAgent:
    """Common plumbing: the seeded generator, the budget, ``act`` in terms of ``explain``."""

    name = "agent"

    def __init__(self, seed: int | None = 0, budget: float = 0.0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.budget = budget

    def act(self, view: View, legal: Sequence[Action], budget: float | None = None) -> Action:
        if len(legal) == 1:
            return legal[0]
        return self.explain(view, legal, budget)[0].action

    def explain(self, view: View, legal: Sequence[Action],
                budget: float | None = None) -> list[Choice]:
        raise NotImplementedError

    def sample(self, view: View) -> State:
        """A full state consistent with the view (hidden cards from this agent's generator)."""
        return resample(view, self.rng)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r}, seed={self.seed})"


class RandomAgent(BaseAgent):
    """Uniformly random legal actions (the floor every level must beat)."""

    name = "random"

    def explain(self, view: View, legal: Sequence[Action],
                budget: float | None = None) -> list[Choice]:
        pick = self.rng.randrange(len(legal))
        order = [legal[pick], *(a for i, a in enumerate(legal) if i != pick)]
        return [Choice(a, 0.5, 0) for a in order]


__all__ = ["Agent", "BaseAgent", "Choice", "RandomAgent"]
