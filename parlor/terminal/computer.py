"""The computer players of the terminal: a level's agent that acts on the state it is given
(through the player's view), and the level names ``parlor play`` and ``parlor tournament``
accept.

The computer players come from :func:`parlor.ai.levels.make_agent` when it exists; a level
that is not available falls back to uniformly random legal actions, with a warning.
"""

from __future__ import annotations

import argparse
import importlib
import random
from collections.abc import Sequence
from typing import Any, Protocol

from parlor.rules.actions import Action
from parlor.rules.engine import legal_actions
from parlor.rules.state import State
from parlor.rules.view import View, view

KNOWN_LEVELS = ("random", "novice", "greedy", "expert")
DEFAULT_LEVEL = "greedy"


class AgentLike(Protocol):
    def act(self, view: View, legal: Sequence[Action], budget: float | None = None) -> Action:
        ...


class UnknownLevelError(ValueError):
    """A level name that parlor.ai does not know."""


def _levels_module() -> Any:
    try:
        return importlib.import_module("parlor.ai.levels")
    except ImportError:
        return None


def available_levels() -> tuple[str, ...]:
    """The level names the computer players offer (KNOWN_LEVELS until parlor.ai says)."""
    mod = _levels_module()
    for attr in ("NAMES", "LEVELS"):
        names = getattr(mod, attr, None) if mod is not None else None
        if isinstance(names, dict | list | tuple) and names:
            return tuple(str(n) for n in names)
    return KNOWN_LEVELS


def canonical_level(name: str) -> str:
    """A level's name as parlor.ai spells it (it may also accept numbers: 1-5); raises
    UnknownLevelError."""
    mod = _levels_module()
    to_name = getattr(mod, "level_name", None) if mod is not None else None
    if to_name is not None:
        try:
            return str(to_name(name))
        except (KeyError, ValueError):
            pass
    elif name.strip().lower() in available_levels():
        return name.strip().lower()
    raise UnknownLevelError(f"unknown level {name!r} (available: "
                            f"{', '.join(available_levels())})")


class Computer:
    """A computer player of ``level``: the parlor.ai agent when there is one, otherwise (or
    when the agent fails or answers an illegal action) a random legal action."""

    def __init__(self, level: str, seed: int = 0, budget: float | None = None) -> None:
        self.level = level
        self.seed = seed
        self.budget = budget
        self.rng = random.Random(f"parlor-computer:{level}:{seed}")
        self.agent: AgentLike | None = None
        self.warnings: list[str] = []
        mod = _levels_module()
        make = getattr(mod, "make_agent", None) if mod is not None else None
        if make is None:
            if level != "random":
                self.warnings.append(f"computer level {level!r} is not available yet: "
                                     "it plays random legal moves")
            return
        try:
            self.agent = make(level, seed)
        except (KeyError, ValueError) as exc:
            raise UnknownLevelError(
                f"unknown level {level!r} (available: {', '.join(available_levels())})"
            ) from exc

    @property
    def fallback(self) -> bool:
        return self.agent is None

    def act(self, s: State, player: int) -> Action:
        legal = legal_actions(s)
        if len(legal) == 1:
            return legal[0]
        if self.agent is not None:
            try:
                a = self.agent.act(view(s, player), list(legal), self.budget)
            except Exception as exc:  # an AI bug must not end the human's game
                self._warn(f"the {self.level} computer failed ({exc!r}): a random move instead")
            else:
                if a in legal:
                    return a
                self._warn(f"the {self.level} computer chose an illegal {a}: a random move "
                           "instead")
        return self.rng.choice(legal)

    def _warn(self, text: str) -> None:
        if len(self.warnings) < 20:
            self.warnings.append(text)


def check_level(name: str) -> str:
    """argparse type: one of the computer levels, as its canonical name."""
    try:
        return canonical_level(name)
    except UnknownLevelError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
