"""Simulation helpers for the agents: the legal actions they consider, and applying actions
to search copies.

The engine once raised KeyError when a Cre blocking an attacker that had already left the
combat was expelled; ``table.leave_combat`` handles it now. The agents still leave such
expels out (it matters only in a second window after an attacker has left the combat)
because every benchmark in the issue note was measured with this filter; drop it together
with a re-run of those benchmarks.
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
    """``legal_actions(s)`` without the guarded actions."""
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
