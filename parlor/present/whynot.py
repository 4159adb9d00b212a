""""Why not?": for each of a Rlr's cards that has no legal action now, the engine's reason in
one sentence with its rule (docs/rules.md), and each Hand card's cost as printed on it.

Keys are those of the browser's table: ``h:KS`` a Hand card, ``1:KS`` a card of Rlr 1 on the
table. Only when that Rlr decides, and only the Rlr's own cards, but while it hands out an
attacker's damage or bonus points (1003.2, 1003.3, 1004.1) the opposing Cres it could give
them to. Every reason is the engine's own refusal where the engine has one (the verifies of
parlor.rules.engine, plays and combat, which the legal actions and apply's refusals ask)::

    >>> from parlor.rules.notation import parse_position
    >>> s = parse_position("phasing: 1\\n1.hand: KS 9H\\n1.home: 7S 8S\\n")
    >>> why_not(s, 0)["h:KS"]
    'KS costs 3♠+2: you can raise 2 mnr, 2 of them ♠, from your pool and untaxed Lnds (206, 405)'
    >>> cost_text(s.hand[0][0] % 52)
    '3♠+2'
"""

from __future__ import annotations

from functools import cache

from parlor.rules.cards import COST, Kind
from parlor.rules.combat import (
    verify_assign,
    verify_attack,
    verify_block,
    verify_bonus,
    why_no_ability,
)
from parlor.rules.engine import legal_actions, verify_redraw
from parlor.rules.plays import available, verify_lnd
from parlor.rules.state import C_KIND, FACE, NONE, Phase, State, card_text, ref_text
from parlor.rules.view import CARD_TEXT, REF_TEXT

SYMBOL = "♣♦♥♠"  # suit indexes C D H S
WINDOWS = (Phase.WINDOW1, Phase.WINDOW2)
ABILITY_PHASES = (Phase.ABILITY_P, Phase.ABILITY_O)
#: The phases in which the Rlr to decide gives points to the other Rlr's Cres.
POINT_PHASES = (Phase.SPLIT, Phase.BONUS, Phase.DOMAIN_BONUS)


def cost_text(face: int) -> str:
    """A card's cost as printed on the card in Hand: ``3♠+2``, ``1♥+1``, ``free`` (206, 207)."""
    c = COST[face]
    if not c.total:
        return "free"
    generic = f"+{c.generic}" if c.generic else ""
    return f"{c.suited}{SYMBOL[int(c.suit)]}{generic}"


#: Each face's :func:`cost_text`, written once (a reply carries a Hand's).
COST_TEXT: tuple[str, ...] = tuple(cost_text(f) for f in range(52))


def costs(s: State, p: int) -> dict[str, str]:
    """Each of ``p``'s Hand (and drawn) cards' cost, by face text."""
    cards = s.hand[p] + (s.drawn if s.phasing == p else [])
    return {CARD_TEXT[c]: COST_TEXT[FACE[c]] for c in cards}


def _actors(s: State, p: int) -> set[str]:
    """The keys of ``p``'s cards that some legal action uses now."""
    out = set()
    for a in legal_actions(s):
        if a.verb in ("assign", "bonus"):  # a point for an opposing Cre
            out.add(REF_TEXT[a.target])
            continue
        if a.card == NONE:
            continue
        face = CARD_TEXT[a.card]
        if a.verb in ("trim", "play", "expel", "redraw"):
            out.add(f"h:{face}")
        elif a.verb == "keep":
            out.add(f"d:{face}")
        else:
            out.add(f"{p + 1}:{face}")
    return out


def _hand_card(s: State, p: int, cid: int) -> str:
    phase = s.phase
    name = CARD_TEXT[cid]
    if phase is Phase.KEEP:
        why = verify_redraw(s, cid)  # the engine's refusal, as the legal actions ask it
        assert why is not None, f"redraw {name} verifies but is not listed"
        return f"{name}: {why}"
    if phase is Phase.TRIM:
        return f"{name}: first recycle down to 7 cards (304.3)"
    if phase not in WINDOWS:
        return (f"{name}: Hand cards are played only in a window (403); now it is time to "
                f"{'attack' if phase is Phase.ATTACK else 'decide the combat'}")
    if C_KIND[cid] is Kind.LND:
        why = verify_lnd(s, p)  # the engine's refusal, as the legal actions ask it
        return f"{name}: {why}" if why is not None else f"{name} cannot be played now (603)"
    cost = COST[FACE[cid]]
    avail, total = available(s, p)
    suit = int(cost.suit)
    have = avail[suit]
    return (f"{name} costs {cost_text(FACE[cid])}: you can raise {total} mnr, {have} of them "
            f"{SYMBOL[suit]}, from your pool and untaxed Lnds (206, 405)")


def _table_cre(s: State, p: int, cid: int) -> str | None:
    """The engine's own refusal of each declaration or ability ``cid`` could make now (the
    verifies of parlor.rules.combat, which the legal actions and apply's refusals use)."""
    phase = s.phase
    if phase is Phase.ATTACK and p == s.phasing:
        return verify_attack(s, cid)
    if phase is Phase.BLOCK and p != s.phasing:
        cb = s.combat
        assert cb is not None
        reasons: list[str] = []
        for a in cb.attackers:
            why = verify_block(s, cid, a)
            if why is not None and why not in reasons:
                reasons.append(why)
        return "; ".join(reasons) if reasons else None
    if phase in ABILITY_PHASES:
        return "; ".join(why_no_ability(s, p, cid))
    return None


def _point_refusal(s: State, cid: int) -> str:
    """The engine's refusal of the next point of a split attacker's Pwr (verify_assign) or of
    a bonus (verify_bonus) for the opposing Cre ``cid``, which the listing did not offer."""
    why = verify_assign(s, cid) if s.phase is Phase.SPLIT else verify_bonus(s, cid)
    assert why is not None, f"{ref_text(cid)} verifies but is not listed"
    return why


def why_not(s: State, p: int) -> dict[str, str]:
    """The reason for each of ``p``'s cards without a legal action (empty unless ``p``
    decides now)."""
    if s.is_over or s.actor != p:
        return {}
    usable = _actors(s, p)
    out: dict[str, str] = {}
    for cid in s.hand[p]:
        key = f"h:{CARD_TEXT[cid]}"
        if key not in usable:
            out[key] = _hand_card(s, p, cid)
    for cid in s.field[p]:
        key = f"{p + 1}:{CARD_TEXT[cid]}"
        if key not in usable:
            reason = _table_cre(s, p, cid)
            if reason is not None:
                out[key] = reason
    if s.phase in POINT_PHASES:
        for cid in s.field[1 - p]:
            key = f"{2 - p}:{CARD_TEXT[cid]}"
            if key not in usable:
                out[key] = _point_refusal(s, cid)
    taxed = s.taxed
    for cid in s.home[p]:  # a late Home holds 20 Lnds or more: each line written once
        key, line = _lnd_line(p, cid, taxed[cid] != NONE)
        out[key] = line
    return out


@cache  # 2 Rlrs x 104 cards x taxed or not, at most
def _lnd_line(p: int, cid: int, taxed: bool) -> tuple[str, str]:
    """The key and the line of a Lnd in ``p``'s Home."""
    return (f"{p + 1}:{card_text(cid)}",
            f"{card_text(cid)} is a Lnd: it is taxed for mnr when you pay for a card "
            f"({'taxed now' if taxed else 'untaxed'}; 405, 601)")


__all__ = ["cost_text", "costs", "why_not"]
