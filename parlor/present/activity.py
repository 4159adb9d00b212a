"""What a player is doing, in words, for the person across the table (a game between two
people, issue 45): "Rlr 2 is choosing blockers". One phrase per phase of the turn, the
phases of :mod:`parlor.present.phases` (docs/rules.md 300-400, 1000).

    >>> doing("block", 1)
    'Rlr 2 is choosing blockers'
    >>> doing("no such phase", 0)
    'Rlr 1 is deciding (no such phase)'
"""

from __future__ import annotations

PHASE_DOING = {
    "trim": "recycling Hand cards down to 7",
    "keep": "choosing a drawn card to keep, or a Redraw",
    "window1": "deciding in the first window",
    "attack": "choosing attackers",
    "block": "choosing blockers",
    "ability_p": "using abilities",
    "ability_o": "using abilities",
    "window2": "deciding in the second window",
    "split": "splitting an attacker's Pwr among its blockers",
    "bonus": "giving out the bonus points",
    "domain_bonus": "giving out the Domain's bonus points",
}


def doing(phase: str, seat: int) -> str:
    """What the Rlr at ``seat`` is doing while ``phase`` asks for their decision."""
    what = PHASE_DOING.get(phase)
    return f"Rlr {seat + 1} is {what}" if what else f"Rlr {seat + 1} is deciding ({phase})"


__all__ = ["PHASE_DOING", "doing"]
