"""Simulation helpers for the agents: legal actions minus known engine traps, and applying
actions to search copies.

Known trap (reported to the engine owners): expelling a Cre that blocks an attacker which
has already left the combat (its ``blocking`` entry is NONE) raises KeyError in
``table.leave_combat``. Such expels are left out of what the agents consider, in search and
in their answers, until the engine handles them.
"""

from __future__ import annotations

from parlor.rules.actions import Action
from parlor.rules.engine import apply, legal_actions
from parlor.rules.state import NONE, Phase, State


def _trap(s: State, a: Action) -> bool:
    if a.verb != "expel" or s.combat is None:
        return False
    return s.combat.blocking.get(a.target, 0) == NONE


def safe_legal(s: State) -> list[Action]:
    """``legal_actions(s)`` without the actions known to crash the engine."""
    legal = legal_actions(s)
    if s.combat is not None and s.phase is Phase.WINDOW2 and any(
        b == NONE for b in s.combat.blocking.values()
    ):
        return [a for a in legal if not _trap(s, a)]
    return legal


def safe_choices(s: State, legal: list[Action]) -> list[Action]:
    """The same filter for a given list (the legal actions of the real game)."""
    if s.combat is None:
        return legal
    ok = [a for a in legal if not _trap(s, a)]
    return ok or legal


def play(s: State, a: Action) -> None:
    """Apply ``a`` (already known to be legal) to a search copy."""
    apply(s, a)


__all__ = ["play", "safe_choices", "safe_legal"]
