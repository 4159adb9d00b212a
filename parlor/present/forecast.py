"""The fight's forecast in words (issue 41): for each combat decision of the reader's, one
sentence of what the engine says follows if nobody plays another card
(:mod:`parlor.rules.forecast`): who outranks, outshows or outtrumps whom and the bonus (903,
1003.3, 1004), the damage and which Cres become terminal (1007), each Rlr's life after, and
the points the forecast placed for someone::

    >>> from parlor.rules.notation import parse_position
    >>> s = parse_position("phasing: 1\\nphase: attack\\n1.field: KS/4S\\n2.domain: 2S\\n")
    >>> print(forecast_lines(s, 0)["attack KS"])  # doctest: +NORMALIZE_WHITESPACE
    If the computer blocks nothing and nobody plays another card: your King of Spades with 4♠
    outranks the computer's Domain (2♠) in Spades, 4 to 2: bonus 1 (1004.2); life after: you
    20, the computer 17 (−3)
"""

from __future__ import annotations

from parlor.present.prose import Words, card_words
from parlor.rules.forecast import Forecast, forecasts
from parlor.rules.ranking import Comparison, compare_counts
from parlor.rules.state import State
from parlor.rules.table import tgh


def forecast_lines(s: State, p: int, opponent: str = "the computer") -> dict[str, str]:
    """The forecast's sentence for each of ``p``'s combat decisions now, by action text
    (none unless ``p`` decides in a combat), the other Rlr named ``opponent``."""
    return {text: forecast_words(f, opponent, s) for text, f in forecasts(s, p).items()}


def forecast_words(f: Forecast, opponent: str = "the computer",
                   s: State | None = None) -> str:
    """One forecast as a sentence for the Rlr who decides (``s``: the state it was made on,
    for the Tgh of the Cres that take damage)."""
    v = Words(f.seat, opponent)
    who = "If nobody plays another card: "
    if f.unblocked_assumed:
        who = f"If {opponent} blocks nothing and nobody plays another card: "
    parts = [*_comparisons(f, v), *_damage(f, v, s), _life(f, v)]
    if f.winner is not None:
        parts.append(f"{v.does(f.winner, 'win', 'wins')} (1201)")
    placed = _placed(f, v)
    if placed:
        parts.append(placed)
    return who + "; ".join(parts)


def _side(v: Words, whose: int, text: str) -> str:
    """A side of a comparison in words, its owner's: ``KS/4S+QC`` as "your King of Spades
    with 4♠ and Queen of Clubs", ``D:2S`` as "the computer's Domain (2♠)"."""
    owner = v.whose(whose)
    if text.startswith("D:"):
        body = text[2:]
        return f"{owner} Domain ({', '.join(card_words(e) for e in body.split('/'))})" \
            if body else f"{owner} empty Domain"
    groups = []
    for group in text.split("+"):
        host, *enhs = group.split("/")
        with_ = f" with {' and '.join(card_words(e) for e in enhs)}" if enhs else ""
        groups.append(card_words(host).removeprefix("the ") + with_)
    return f"{owner} {' and '.join(groups)}"


def _worded(c: Comparison, v: Words, a: int, b: int) -> str:
    """The comparison's own explanation (:meth:`Comparison.explain`), the sides in words."""
    return compare_counts(_side(v, a, c.a), _side(v, b, c.b), c.counts[0], c.counts[1],
                          None if c.trump is None else int(c.trump)).explain()


def _comparisons(f: Forecast, v: Words) -> list[str]:
    out = []
    p, o = f.phasing, 1 - f.phasing
    if f.group is not None:
        out.append(_worded(f.group, v, p, o) + (" (1003.3)" if f.group.winner is not None
                                                else ""))
    if f.domain is not None and (f.domain.winner is not None or any(f.domain.counts[1])):
        rule = " (1004.2)" if f.domain.winner == 0 else " (1004.1)" if f.domain.winner else ""
        out.append(_worded(f.domain, v, p, o) + rule)
    return out


def _damage(f: Forecast, v: Words, s: State | None) -> list[str]:
    """Each Cre's damage in the combat, in the order the engine dealt it; terminal ones
    die (1007.2)."""
    taken: dict[int, int] = {}
    for e in f.events:
        if e.kind == "damage":
            taken[e.cards[0]] = taken.get(e.cards[0], 0) + e.amounts[0]
    out = []
    for cid, amount in taken.items():
        of = f" (Tgh {tgh(s, cid)})" if s is not None else ""
        dies = ": terminal, it dies (1007.2)" if cid in f.terminal else ""
        out.append(f"{v.owned(cid)} takes {amount} damage{of}{dies}")
    return out


def _life(f: Forecast, v: Words) -> str:
    def one(q: int) -> str:
        change = f.life[q] - f.life_before[q]
        sign = f" (+{change})" if change > 0 else f" (−{-change})" if change < 0 else ""
        return f"{v.who(q)} {f.life[q]}{sign}"

    me = f.seat
    return f"life after: {one(me)}, {one(1 - me)}"


def _placed(f: Forecast, v: Words) -> str:
    """The points the forecast placed for a Rlr, grouped: "assuming the computer's split
    puts 2 on your Queen of Clubs"."""
    if not f.placed:
        return ""
    counted: dict[tuple[int, str, int], int] = {}
    for key in f.placed:
        counted[key] = counted.get(key, 0) + 1
    said = []
    for (actor, verb, target), n in counted.items():
        what = "split" if verb == "assign" else "bonus"
        said.append(f"{v.whose(actor)} {what} puts {n} on {v.owned(target)}")
    return "assuming " + ", ".join(said)


__all__ = ["forecast_lines", "forecast_words"]
