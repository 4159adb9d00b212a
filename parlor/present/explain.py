"""The "why" of each ranking decision in the game log.

Every ranking decision of the engine (a combat or Domain bonus, an expel, the life an expel
takes from a Domain) carries the :class:`~parlor.rules.ranking.Comparison` behind it
(``Event.why``, ``View.log_why``). :func:`why` turns that comparison into the reasoning, with
both sides' spot counts and the numbers of the rules applied (docs/rules.md); the event's
other fields say what the comparison cannot know (where an expelled card went)::

    >>> from parlor.rules.events import Event
    >>> from parlor.rules.ranking import compare
    >>> c = compare("JD/3C", "D:2C")  # as the engine logs an unblocked attacker's win
    >>> w = why(Event("bonus", 0, rule="1004", why=c))
    >>> w["rules"]
    ['1004', '903.3', '903.4', '905', '1004.2']
    >>> print(w["text"])  # doctest: +NORMALIZE_WHITESPACE
    The unblocked attacker JD/3C {D1, C3} against the Domain D:2C {C2} (1004). Clubs is the
    only suit both sides hold with unequal counts, and JD/3C leads there 3 to 2; the Domain
    does not outshow it, so JD/3C outranks (903.3, 903.4). Bonus = half the differential of 1,
    rounded up: 1 (905). The attackers win: the defending Rlr loses 1 life (1004.2).
    >>> e = Event("expel", 0, (4, 94), (0, 0, 0), "1104", "Recycle", "4S", compare("5C", "4S"))
    >>> e.text
    '5C expels 4S: outshows it, Clubs 5 over Spades 4, to Recycle'
    >>> why(e)["rules"]
    ['1102', '903.4', '1102.1', '1104.3', '1104.1']
    >>> why(Event("play", 0, (8,), rule="603", detail="lnd")) is None
    True

The one ranking decision without a comparison is an expel from the Trumps stack (805.2), a
matter of suit and value that the sentence states in full.
"""

from __future__ import annotations

from typing import Any

from parlor.rules.cards import Card, CardParseError, Kind, Suit
from parlor.rules.events import SUIT_NAMES, Event, card_text, rlr
from parlor.rules.ranking import Comparison, Counts, parse_side

_SUITS = "CDHS"


# ---------------------------------------------------------------------------------------------
# Spot counts and names


def counts_text(entity: str, counts: Counts | None = None) -> str:
    """``{H1, C3}``: an entity's spot counts as the rules write them (rule 902), suits in the
    order the entity shows them. ``counts`` (a Comparison's) spares parsing the entity.

    >>> counts_text("JH/3C"), counts_text("D:"), counts_text("KS/4S+KC", (1, 0, 0, 4))
    ('{H1, C3}', '{}', '{S4, C1}')
    """
    if counts is None:
        try:
            counts = parse_side(entity).counts
        except (CardParseError, ValueError):
            return ""
    body = entity[2:] if entity.startswith("D:") else entity
    order: list[int] = []
    for token in body.replace("+", "/").split("/"):
        if token and token[-1] in _SUITS and _SUITS.index(token[-1]) not in order:
            order.append(_SUITS.index(token[-1]))
    order += [i for i in range(4) if i not in order]
    return "{" + ", ".join(f"{_SUITS[i]}{counts[i]}" for i in order if counts[i]) + "}"


def _is_domain(side: str) -> bool:
    return side.startswith("D:")


def _name(side: str) -> str:
    """How the reasoning names a side: ``the Domain`` or the side's text."""
    return "the Domain" if _is_domain(side) else side


def _shown(c: Comparison, i: int, label: str = "") -> str:
    """``the blockers JH {H1}``: side ``i`` with its label and spot counts."""
    side = (c.a, c.b)[i]
    if _is_domain(side):
        label = label or "the Domain"
    return " ".join(x for x in (label, side, counts_text(side, c.counts[i])) if x)


def _target_kind(side: str) -> Kind | None:
    """The kind of an expel's target, from its first card (``JH/3C``: a Cre)."""
    try:
        return Card.parse(side.split("/")[0]).kind
    except (CardParseError, ValueError):
        return None


def _outshower(c: Comparison, by: int) -> tuple[int, Suit]:
    """Side ``by``'s highest count and a suit where it has it and the other side has nothing."""
    mine, theirs = c.counts[by], c.counts[1 - by]
    top = max(mine)
    suit = next((s for s in range(4) if mine[s] == top and not theirs[s]),
                mine.index(top))
    return top, Suit(suit)


class _Why:
    """Sentences, each ending with the rules it applies; the rules collected in order."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.rules: list[str] = []

    def add(self, sentence: str, *rules: str) -> None:
        if rules:
            sentence += f" ({', '.join(rules)})"
        self.parts.append(sentence[0].upper() + sentence[1:] + ".")
        self.rules += [r for r in rules if r not in self.rules]

    def done(self) -> dict[str, Any]:
        return {"text": " ".join(self.parts), "rules": self.rules}


# ---------------------------------------------------------------------------------------------
# How a comparison was decided (rule 903) and its bonus (905)


def _decision(w: _Why, c: Comparison) -> None:
    """Why the winner outranks or outtrumps (903.2-903.6)."""
    if c.winner is None or c.suit is None:
        w.add(c.explain(), "903")
        return
    win, lose = c.winner, 1 - c.winner
    names = (_name(c.a), _name(c.b))
    suit = c.suit
    wc, lc = c.counts[win][suit], c.counts[lose][suit]
    if c.kind == "trump":
        if c.outshown == win:
            top, top_suit = _outshower(c, lose)
            w.add(f"{suit.title} are trumps, and {names[win]} has {wc} in {suit.title} against "
                  f"{lc}: it outtrumps", "903.2")
            w.add(f"{names[lose]}'s {top} in {top_suit.title} outshows it, but outshowing never "
                  "stops outtrumping", "903.5")
        else:
            w.add(f"{suit.title} are trumps, and {names[win]} has {wc} in {suit.title} against "
                  f"{lc}: it outtrumps, whatever the other suits show", "903.2", "903.5")
        return
    t = c.trump
    if t is not None:
        tc = c.counts[0][t]
        if tc:
            w.add(f"Both sides have {tc} in {t.title}, the trumps: equal trump counts cancel "
                  "out", "903.6")
    shared = [s for s in range(4) if (t is None or s != t)
              and c.counts[0][s] and c.counts[1][s] and c.counts[0][s] != c.counts[1][s]]
    if shared == [int(suit)]:
        how = (f"{suit.title} is the only suit both sides hold with unequal counts, and "
               f"{names[win]} leads there {wc} to {lc}")
    else:
        pairs = [f"{Suit(s).title} ({c.counts[win][s]} to {c.counts[lose][s]})" for s in shared]
        listed = ", ".join(pairs[:-1]) + " and " + pairs[-1]
        how = (f"The suits both sides hold with unequal counts are {listed}, {names[win]}'s "
               f"count first; the highest of these counts is {wc}, and {names[win]} holds it "
               f"in {suit.title}, leading by {c.differential}")
        rival = [s for s in shared if c.counts[lose][s] == wc]
        if rival:
            r = rival[0]
            how += (f"; {names[lose]} holds {wc} too, in {Suit(r).title}, but leads there by "
                    f"{wc - c.counts[win][r]}, and the smaller differential wins")
    w.add(f"{how}; {names[lose]} does not outshow it, so {names[win]} outranks",
          "903.3", "903.4")


def _bonus(w: _Why, c: Comparison) -> None:
    d = c.differential
    capped = ", at most 3" if c.bonus < (d + 1) // 2 else ""
    w.add(f"Bonus = half the differential of {d}, rounded up{capped}: {c.bonus}", "905")


# ---------------------------------------------------------------------------------------------
# The decisions of the log


def _why_bonus(c: Comparison) -> dict[str, Any]:
    w = _Why()
    plural = "+" in c.a
    attackers = "the unblocked attackers" if plural else "the unblocked attacker"
    if _is_domain(c.b):
        w.add(f"{_shown(c, 0, attackers)} against {_shown(c, 1)}", "1004")
    else:
        blockers = "the blockers" if "+" in c.b else "the blocker"
        w.add(f"{_shown(c, 0, 'the attackers' if plural else 'the attacker')} against "
              f"{_shown(c, 1, blockers)}: all attackers, blocked and unblocked, against all "
              "blockers", "1003.1")
    _decision(w, c)
    _bonus(w, c)
    if _is_domain(c.b):
        if c.winner == 0:
            w.add(f"The attackers win: the defending Rlr loses {c.bonus} life", "1004.2")
        else:
            gain = 2 if c.kind == "trump" else 1
            also = ", as it outtrumps" if gain == 2 else ""
            w.add(f"The Domain wins: the defending Rlr gains {gain} life{also}, then deals the "
                  f"{c.bonus} bonus point{'s' if c.bonus > 1 else ''} one at a time among the "
                  "unblocked attackers", "1004.1")
    else:
        side, other = ("attackers", "blockers") if c.winner == 0 else ("blockers", "attackers")
        w.add(f"The {side} win: their controller deals the {c.bonus} bonus "
              f"point{'s' if c.bonus > 1 else ''} one at a time among the {other}", "1003.3")
    return w.done()


def _legality(w: _Why, c: Comparison, kind: Kind | None) -> None:
    """Why this result expels this target (1102)."""
    t = c.b
    trumps = c.trump is not None and kind is Kind.ENH and c.counts[1][c.trump] > 0
    if kind is Kind.LND:
        w.add(f"Against a Lnd only outtrumping expels, and {c.a} outtrumps {t}", "1102.3")
    elif kind is Kind.CRE:
        verb = "outtrumps" if c.kind == "trump" else "outranks"
        w.add(f"Against a Cre outranking or outtrumping expels, and {c.a} {verb} {t}", "1102.2")
    elif trumps:
        w.add(f"{t} is of the trump suit, so only outtrumping expels it, and {c.a} outtrumps",
              "1102.2")
    else:
        verb = {"trump": "outtrumps", "rank": "outranks"}.get(c.kind or "", "outshows")
        w.add(f"Against a lone Enh not of the trump suit (its host ignored) outshowing, "
              f"outranking or outtrumping expels, and {c.a} {verb} {t}", "1102.1")


def _why_expel(c: Comparison, dest: str) -> dict[str, Any]:
    w = _Why()
    kind = _target_kind(c.b)
    w.add(f"The expel {_shown(c, 0)} against {_shown(c, 1)}, ranked as a lone Enh", "1102")
    if c.winner is None and c.outshown == 1:
        top, suit = _outshower(c, 0)
        theirs = max(c.counts[1])
        their_suit = Suit(c.counts[1].index(theirs))
        w.add(f"{c.a}'s {suit.title} {top} is higher than anything {c.b} shows "
              f"({their_suit.title} {theirs}), in a suit {c.b} does not have: {c.a} outshows "
              "it. Neither side outranks, so the result is level, but outshowing is enough "
              "here", "903.4")
    else:
        _decision(w, c)
    _legality(w, c, kind)
    if kind is Kind.CRE and c.winner is not None:
        d = c.differential
        capped = ", at most 3" if c.bonus < (d + 1) // 2 else ""
        w.add(f"Expel damage is the bonus, half the differential of {d}, rounded up{capped}: "
              f"{c.bonus}, added to the damage {c.b.split('/')[0]} already has", "905",
              "1103.1")
    elif kind is Kind.LND:
        w.add("A Lnd takes no damage", "1103.3")
    host = c.b.split("/")[0]
    if "eliminated" in dest:
        w.add(f"That damage reaches {host}'s Tgh: it is eliminated and goes to its owner's "
              "Discard", "1103.1", "1104.2")
    elif dest.startswith("Discard"):
        w.add("An outtrumped card goes to its owner's Discard", "1104.2")
    elif dest.startswith("Recycle"):
        how = "outshown" if c.winner is None else "outranked"
        w.add(f"An {how} card goes to its owner's Recycle pile, face up", "1104.3")
    if "/" in c.b and kind in (Kind.CRE, Kind.LND):
        w.add(f"The Enhs on {host} go with it", "1104.4")
    w.add(f"The expel {c.a} goes to its caster's Discard", "1104.1")
    return w.done()


def _why_domain_life(c: Comparison, e: Event) -> dict[str, Any]:
    """The life an expel takes from a Domain (1103.2): the expel against the whole Domain."""
    w = _Why()
    w.add(f"The expel {_shown(c, 0)} took an Enh from a Domain, so it is also compared with "
          f"the whole Domain as it stood, {c.b} {counts_text(c.b, c.counts[1])}", "1103.2")
    _decision(w, c)
    _bonus(w, c)
    who = rlr(e.player) if e.player is not None else "the Domain's owner"
    w.add(f"The expel beats the whole Domain: {who} loses the bonus, {e.amounts[0]} life",
          "1103.2")
    return w.done()


def _why_stack(e: Event) -> dict[str, Any] | None:
    if e.detail != "stack":
        return None
    trump = e.amounts[0]
    now = f" {SUIT_NAMES[trump]} are now trumps." if trump >= 0 else " There are now no trumps."
    top, ex = card_text(e.cards[0]), card_text(e.cards[1])
    return {
        "text": f"{ex} is of the top card's suit and higher, so it may expel {top} "
                "from the Trumps stack: both go to Discard, no damage, and the card below (if "
                f"any) sets the trump suit (805.2).{now}",
        "rules": ["805.2"],
    }


def why(e: Event) -> dict[str, Any] | None:
    """The reasoning behind a ranking decision of the log, as ``{"text", "rules"}``, or None.

    It reads the event's fields and its comparison (``Event.why``); events without a
    comparison have no "why", but for the expel of the Trumps stack's top card.
    """
    comparison, kind = e.why, e.kind
    if comparison is None:
        return _why_stack(e) if kind == "expel" else None
    if kind == "bonus":
        return _why_bonus(comparison)
    if kind == "expel":
        return _why_expel(comparison, e.detail)
    if kind == "life" and _is_domain(comparison.b):
        return _why_domain_life(comparison, e)
    return None


__all__ = ["counts_text", "why"]
