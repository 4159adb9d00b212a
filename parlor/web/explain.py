"""The "why" of each ranking decision in the game log.

The engine writes every ranking decision as one sentence (``JD/3C outranks D:2C in Clubs,
3 to 2: bonus 1``; ``4C expels JH/3C: outranks in Clubs 4 to 3, 1 damage, to Recycle``).
:func:`why` turns such a sentence into the reasoning behind it, with the spot counts of both
sides and the numbers of the rules applied; other sentences have no "why"::

    >>> w = why("bonus", "JD/3C outranks D:2C in Clubs, 3 to 2: bonus 1")
    >>> w["rules"]
    ['903.3', '905', '1004']
    >>> print(w["text"])  # doctest: +NORMALIZE_WHITESPACE
    JD/3C {D1, C3} against the Domain D:2C {C2}. Clubs is the highest suit both sides hold
    with unequal counts, and JD/3C leads there 3 to 2, without being outshown: it outranks
    (903.3, 903.4). Bonus = half the differential of 1, rounded up: 1 (905). The attackers
    win against the Domain: the defending Rlr loses 1 life (1004).
    >>> why("expel", "5C expels 4S: outshows it, Clubs 5 over Spades 4, to Recycle")["rules"]
    ['903.4', '1102.1', '1104']
    >>> why("play", "Rlr 1 plays the Lnd 9C to Home") is None
    True
"""

from __future__ import annotations

import re
from typing import Any

from parlor.rules.cards import CardParseError
from parlor.rules.ranking import parse_side

_BONUS = re.compile(r"^(?P<a>\S+) (?P<verb>outtrumps|outranks) (?P<b>\S+) in (?P<suit>\w+), "
                    r"(?P<w>\d+) to (?P<l>\d+): bonus (?P<bonus>\d+)$")
_EXPEL = re.compile(r"^(?P<e>\S+) expels (?P<t>\S+): (?P<verb>outtrumps|outranks|outshows)"
                    r"(?: it)?(?: in (?P<suit>\w+) (?P<w>\d+) to (?P<l>\d+)"
                    r"|, (?P<osuit>\w+) (?P<ow>\d+) over (?P<lsuit>\w+) (?P<ol>\d+))?"
                    r"(?:, (?P<dmg>\d+) damage)?, to (?P<dest>.+)$")
_STACK = re.compile(r"^Rlr \d expels (?P<top>\S+) from the Trumps stack with (?P<e>[^\s:]+)")
_SUITS = "CDHS"


def counts_text(entity: str) -> str:
    """``{H1, C3}``: an entity's spot counts as the rules write them (rule 902).

    >>> counts_text("JH/3C"), counts_text("D:")
    ('{H1, C3}', '{}')
    """
    try:
        counts = parse_side(entity).counts
    except (CardParseError, ValueError):
        return ""
    entity_body = entity[2:] if entity.startswith("D:") else entity
    order: list[int] = []
    for part in re.split(r"[/+]", entity_body):
        if part and part[-1] in _SUITS and _SUITS.index(part[-1]) not in order:
            order.append(_SUITS.index(part[-1]))
    for i in range(4):
        if i not in order:
            order.append(i)
    return "{" + ", ".join(f"{_SUITS[i]}{counts[i]}" for i in order if counts[i]) + "}"


def _half(diff: int, bonus: int) -> str:
    return f"Bonus = half the differential of {diff}, rounded up: {bonus} (905)."


def _side(text: str) -> str:
    shown = f"the Domain {text}" if text.startswith("D:") else text
    return f"{shown} {counts_text(text)}".rstrip()


def why(kind: str, text: str) -> dict[str, Any] | None:
    """The reasoning behind a ranking sentence of the log, or None for other sentences."""
    if kind == "bonus" and (m := _BONUS.match(text)):
        return _why_bonus(m)
    if kind == "expel":
        if m := _STACK.match(text):
            return {
                "text": f"{m['e']} is of the top card's suit and higher, so it may expel "
                        f"{m['top']} from the Trumps stack: both go to Discard, no damage, and "
                        "the card below (if any) sets the trump suit (805.2).",
                "rules": ["805.2"],
            }
        if m := _EXPEL.match(text):
            return _why_expel(m)
    return None


def _why_bonus(m: re.Match[str]) -> dict[str, Any]:
    a, b, suit = m["a"], m["b"], m["suit"]
    w, lo, bonus = int(m["w"]), int(m["l"]), int(m["bonus"])
    diff = w - lo
    domain = a.startswith("D:") or b.startswith("D:")
    head = f"{_side(a)} against {_side(b)}."
    head = head[0].upper() + head[1:]
    if m["verb"] == "outtrumps":
        how = (f"{suit} are trumps, and {a} has {w} in {suit} against {lo}: it outtrumps, "
               "whatever the other suits show (903.2, 903.5).")
        rules = ["903.2", "905"]
    else:
        how = (f"{suit} is the highest suit both sides hold with unequal counts, and {a} leads "
               f"there {w} to {lo}, without being outshown: it outranks (903.3, 903.4).")
        rules = ["903.3", "905"]
    if domain and a.startswith("D:"):
        step = (f"The Domain wins: the defending Rlr gains life and deals {bonus} bonus "
                "damage among the unblocked attackers (1004.1).")
        rules.append("1004")
    elif domain:
        step = f"The attackers win against the Domain: the defending Rlr loses {bonus} life " \
               "(1004)."
        rules.append("1004")
    else:
        step = (f"All attackers are compared with all blockers; the winning side deals {bonus} "
                "bonus damage among the other side's Cres (1003).")
        rules.append("1003")
    return {"text": f"{head} {how} {_half(diff, bonus)} {step}", "rules": rules}


def _why_expel(m: re.Match[str]) -> dict[str, Any]:
    e, t, verb, dest = m["e"], m["t"], m["verb"], m["dest"]
    head = f"The expel {e} {counts_text(e)} against {_side(t)}."
    rules: list[str] = ["1102"]
    if verb == "outshows":
        suit, w = (m["osuit"], m["ow"]) if m["osuit"] else (m["suit"], m["w"])
        theirs = f" ({m['lsuit']} {m['ol']})" if m["lsuit"] else ""
        how = (f"{e}'s {suit} {w} is higher than anything {t} shows{theirs}, in a suit it "
               "does not have: it outshows, which is enough against a lone Enh that is not of "
               "the trump suit (1102.1).")
        rules = ["903.4", "1102.1"]
    elif verb == "outtrumps":
        how = (f"{m['suit']} are trumps, and {e} leads {t} in trumps {m['w']} to {m['l']}: it "
               "outtrumps (903.2), which expels anything, even a Lnd (1102.2, 1102.3).")
        rules = ["903.2", "1102.2", "1102.3"]
    else:
        how = (f"In {m['suit']}, {m['w']} against {m['l']}, without being outshown: {e} "
               "outranks (903.3), which expels a Cre or a lone Enh (1102.1, 1102.2).")
        rules = ["903.3", "1102.1", "1102.2"]
    parts = [head, how]
    if m["dmg"] is not None:
        parts.append(f"Expel damage is the bonus, {m['dmg']} (1103.1).")
        rules.append("1103")
    if dest.startswith("Discard"):
        parts.append("Outtrumped or eliminated cards go to their owner's Discard (1104.2).")
    else:
        parts.append("An outranked or outshown card goes to its owner's Recycle pile, face up "
                     "(1104.3).")
    rules.append("1104")
    return {"text": " ".join(parts), "rules": rules}


__all__ = ["counts_text", "why"]
