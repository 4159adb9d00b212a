"""The coach: before a consequential decision, one line on what the engine knows will follow.

Each line is derived from the state and the rules, never guessed: :func:`coach` maps a legal
action's text to its line, for the actions that have one::

    >>> from parlor.rules.notation import parse_position
    >>> s = parse_position("phasing: 1\\nphase: attack\\n1.field: KS\\n2.field: QH\\n")
    >>> print(coach(s, 0, "the computer's")["attack KS"])  # doctest: +NORMALIZE_WHITESPACE
    Attacking with KS taxes it after the combat: it cannot block on the computer's next turn
    (1006, 302.1)
    >>> coach(s, 0)["end"]
    'Not attacking ends your turn (406.2)'
"""

from __future__ import annotations

from parlor.rules.actions import Action
from parlor.rules.cards import Kind
from parlor.rules.engine import legal_actions
from parlor.rules.state import (
    C_KIND,
    C_RANK,
    C_SUIT,
    DOMAIN,
    NONE,
    OWNER,
    STACK,
    Phase,
    State,
    card_text,
)

SELF_TAXING = ("volley", "ally", "carry")


def _pool_note(s: State, p: int) -> str:
    n = sum(s.pool[p])
    return f"; your {n} unspent mnr will burn: {n} life (503)" if n else ""


def _line(s: State, p: int, a: Action, them: str) -> str | None:
    v = a.verb
    cb = s.combat
    if v == "attack":
        name = card_text(a.card)
        if any(not s.terminal[c] for c in s.field[1 - p]):
            return (f"Attacking with {name} taxes it after the combat: it cannot block on "
                    f"{them} next turn (1006, 302.1)")
        return None
    if v == "end":
        return "Not attacking ends your turn (406.2)" + _pool_note(s, p)
    if v == "redraw":
        return "Redraw ends your turn at once, after you keep one of the new cards (309.3)"
    if v == "block":
        return (f"Blocking with {card_text(a.card)} taxes it after the combat: it stays taxed "
                "through your next turn and cannot attack then (1006, 302.1)")
    if v == "pass" and s.phase in (Phase.WINDOW1, Phase.WINDOW2):
        notes = []
        if p == s.phasing and not s.lnd_played and any(
                C_KIND[c] is Kind.LND for c in s.hand[p]):
            notes.append("a Lnd can then wait only until after an attack (603)")
        if sum(s.pool[p]):
            notes.append(f"your {sum(s.pool[p])} unspent mnr will burn (503)")
        if notes:
            return "Passing closes the window (403.2): " + "; ".join(notes)
        return None
    if v in SELF_TAXING or (v == "harry" and C_RANK[a.card] == 11 and C_SUIT[a.card] == 2):
        user = p * 52 + a.card
        if cb is not None and (user in cb.attackers or user in cb.blocking):
            return (f"{card_text(a.card)} taxes itself: it stays in the combat but deals no "
                    "combat damage (704)")
        return None
    if v == "play" and C_KIND[a.card] is Kind.CRE and s.phase is Phase.WINDOW2:
        return "A Cre cast in the second window does not join this combat (409, 1002.1)"
    if v == "play" and a.target not in (NONE, STACK):
        theirs = a.target == DOMAIN[1 - p] or (a.target not in DOMAIN and
                                               OWNER[a.target] != p)
        if theirs:
            return f"This Enh joins {them} counts, not yours (802, 804)"
        return None
    if v == "expel" and a.target not in DOMAIN and a.target != STACK and OWNER[a.target] == p:
        return "This expels one of your own cards (1101, 1105)"
    return None


def coach(s: State, p: int, them: str = "the other Rlr's") -> dict[str, str]:
    """The coach's line for each of ``p``'s legal actions that has one (none unless ``p``
    decides now). ``them`` names the opponent in the possessive (``"the computer's"``)."""
    if s.is_over or s.actor != p:
        return {}
    out = {}
    for a in legal_actions(s):
        line = _line(s, p, a, them)
        if line is not None:
            out[str(a)] = line
    return out


__all__ = ["coach"]
