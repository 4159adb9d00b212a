"""What the actor is asked to do in each phase of the turn, as a sentence with the rule that
sets it (docs/rules.md 300-400, 1000).

    >>> task("attack")
    'declare attackers one at a time, then done; or end the turn (406)'
"""

from __future__ import annotations

PHASE_TASK = {
    "trim": "recycle Hand cards down to 7 before drawing (304.3)",
    "keep": "keep one drawn card, or Redraw (305, 309)",
    "window1": "first window: play a card or pass (403)",
    "attack": "declare attackers one at a time, then done; or end the turn (406)",
    "block": "declare blockers one at a time, then done (407)",
    "ability_p": "use abilities, then done (408)",
    "ability_o": "use abilities, then done (408)",
    "window2": "second window: play a card or pass (409)",
    "split": "split the attacker's Pwr among its blockers (1003.2)",
    "bonus": "give out the bonus points (1003.3)",
    "domain_bonus": "give out the Domain's bonus points (1004.1)",
    "over": "the game is over",
}


def task(phase: str) -> str:
    """The decision of ``phase`` in words (the phase's own name when it has none)."""
    return PHASE_TASK.get(phase, phase)


__all__ = ["PHASE_TASK", "task"]
