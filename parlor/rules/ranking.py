"""The ranking calculus: spot counts, outshown, outranked, outtrumped and bonuses (rule 900).

Every comparison in the game — combat bonuses, expel legality, ability checks — goes through
:func:`compare`, which works on *entities*: a Cre or Lnd with its Enhs, a Domain, a lone Enh,
or a group of these. Each side is reduced to its spot counts, a 4-tuple indexed by
:class:`~parlor.rules.cards.Suit` holding the highest card per suit (0 = none) [R25].

    >>> r = compare("JH/4H/2S", "QH", trump="S")
    >>> r.winner, r.kind, r.differential, r.bonus
    (0, 'trump', 2, 1)
    >>> r.explain()
    'JH/4H/2S outtrumps QH in Spades, 2 to 0: bonus 1'
    >>> compare("4C", "JH/3C").explain()
    '4C outranks JH/3C in Clubs, 4 to 3: bonus 1'

The engine calls :func:`rank_counts` directly on count tuples (no objects on the hot path).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from parlor.rules.cards import Card, CardParseError, Kind, Suit, spot
from parlor.rules.values import Value

Counts = tuple[int, int, int, int]
EMPTY: Final[Counts] = (0, 0, 0, 0)

#: How a comparison was decided: rank_counts() returns these codes.
LEVEL: Final = 0
TRUMP: Final = 1
RANK: Final = 2
#: Carry booster (rules 706.3, 711.3, R27): a Queen's own-suit Enhs count this much more.
CARRY_BOOST: Final = 4
MAX_BONUS: Final = 3
_KIND_TEXT: Final[dict[Kind, Literal["Cre", "Lnd", "Enh"]]] = {
    Kind.CRE: "Cre",
    Kind.LND: "Lnd",
    Kind.ENH: "Enh",
}


# ---------------------------------------------------------------------------------------------
# Entities and their text forms


@dataclass(frozen=True, slots=True)
class Entity(Value):
    """A ranked thing (rule 901): a Cre or Lnd with its Enhs, a Domain, or a lone Enh.

    ``card`` is None for a Domain, whose defence is only its Enhs.

    >>> str(Entity.parse("JC/2C/4H")), Entity.parse("D:6S/5C").counts
    ('JC/2C/4H', (5, 0, 0, 6))
    """

    card: Card | None
    enhs: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        if self.card is not None and self.card.is_enh and self.enhs:
            raise CardParseError(f"an Enh ({self.card}) cannot carry other Enhs")
        for enh in self.enhs:
            if not enh.is_enh:
                raise CardParseError(f"{enh} is a {enh.kind.value}, not an Enh (2-6)")

    @staticmethod
    def parse(text: str | Entity) -> Entity:
        """``JC/2C/4H`` (a card then its Enhs), ``D:6S/5C`` (a Domain), ``4H`` (a lone Enh)."""
        if isinstance(text, Entity):
            return text
        text = text.strip()
        if text[:2].upper() == "D:":
            body = text[2:]
            enhs = tuple(Card.parse(t) for t in body.split("/")) if body else ()
            return Entity(None, enhs)
        if not text:
            raise CardParseError("empty entity: write a card like KS or a Domain like D:5C")
        card, *rest = (Card.parse(t) for t in text.split("/"))
        return Entity(card, tuple(rest))

    @property
    def kind(self) -> Literal["Cre", "Lnd", "Enh", "Domain"]:
        if self.card is None:
            return "Domain"
        return _KIND_TEXT[self.card.kind]

    @property
    def counts(self) -> Counts:
        """Spot counts by suit [R25]: base suit (Cre 1, Lnd 7-10, Enh its value) and Enhs."""
        cards = self.enhs if self.card is None else (self.card, *self.enhs)
        return counts_of((c.suit, spot(c.rank)) for c in cards)

    def __str__(self) -> str:
        body = "/".join(str(c) for c in self.enhs)
        if self.card is None:
            return "D:" + body
        return f"{self.card}/{body}" if body else str(self.card)


@dataclass(frozen=True, slots=True)
class Group(Value):
    """A designated grouping (attackers, blockers, targets); counts are the members' highest
    per suit (rule 902.3).

    >>> str(Group.parse("KS/4S+KC")), Group.parse("KS/4S+KC").counts
    ('KS/4S+KC', (1, 0, 0, 4))
    """

    members: tuple[Entity, ...]

    @staticmethod
    def parse(text: str | Group) -> Group:
        if isinstance(text, Group):
            return text
        return Group(tuple(Entity.parse(t) for t in text.split("+")))

    @property
    def counts(self) -> Counts:
        return merge(*(m.counts for m in self.members))

    def __str__(self) -> str:
        return "+".join(str(m) for m in self.members)


Side = Entity | Group


def parse_side(text: str | Side) -> Side:
    """An entity or a group from its text form (a ``+`` makes a group)."""
    if isinstance(text, Entity | Group):
        return text
    return Group.parse(text) if "+" in text else Entity.parse(text)


def counts_of(spots: object) -> Counts:
    """Highest spot per suit from ``(suit, spot)`` pairs."""
    out = [0, 0, 0, 0]
    for suit, value in spots:  # type: ignore[attr-defined]
        if value > out[suit]:
            out[suit] = value
    return (out[0], out[1], out[2], out[3])


def merge(*many: Counts) -> Counts:
    """Group counts: the highest per suit over the members (rule 902.3)."""
    if not many:
        return EMPTY
    return (
        max(c[0] for c in many),
        max(c[1] for c in many),
        max(c[2] for c in many),
        max(c[3] for c in many),
    )


def carry_counts(queen: Entity) -> Counts:
    """A Queen's counts for Carry only (R27): her own-suit Enhs count +4."""
    assert queen.card is not None and queen.card.rank == 12
    suit = queen.card.suit
    boosted = [(suit, 1)] + [
        (e.suit, e.rank + CARRY_BOOST if e.suit == suit else e.rank) for e in queen.enhs
    ]
    return counts_of(boosted)


# ---------------------------------------------------------------------------------------------
# The comparison itself


def outshows(x: Counts, y: Counts) -> bool:
    """X outshows Y: X's highest count is above Y's highest and in a suit Y lacks (rule 903.4)."""
    top = _top(x)
    if top <= _top(y):
        return False
    return (x[0] == top and y[0] == 0) or (x[1] == top and y[1] == 0) or (
        x[2] == top and y[2] == 0) or (x[3] == top and y[3] == 0)


def _top(c: Counts) -> int:
    """The highest count in any suit (a side's top count, R26)."""
    a = c[0] if c[0] > c[1] else c[1]
    b = c[2] if c[2] > c[3] else c[3]
    return a if a > b else b


def rank_counts(a: Counts, b: Counts, trump: int | None) -> tuple[int, int, int, int]:
    """R26 on count tuples: ``(winner, how, differential, suit)``.

    ``winner`` is 0, 1 or -1 (level); ``how`` is TRUMP, RANK or LEVEL; ``suit`` is the
    deciding suit or -1. Outshowing stops an outrank but never an outtrump (rule 903.5).

    The four suits are written out, one local per count, for speed: every combat and
    listing ranks sides (tests/rules/test_ranking_properties.py holds it to the plain loop
    over the suits, as the rule reads, on every pair of sides)."""
    a0, a1, a2, a3 = a
    b0, b1, b2, b3 = b
    if not (a0 or a1 or a2 or a3) or not (b0 or b1 or b2 or b3):
        return -1, LEVEL, 0, -1
    if trump is not None:
        ta, tb = count_in(a, trump), count_in(b, trump)
        if ta != tb:
            return (0, TRUMP, ta - tb, trump) if ta > tb else (1, TRUMP, tb - ta, trump)
        if ta:  # an equal trump count decides nothing (903.5)
            if trump == 0:
                a0 = b0 = 0
            elif trump == 1:
                a1 = b1 = 0
            elif trump == 2:
                a2 = b2 = 0
            else:
                a3 = b3 = 0
    # the highest count in a suit both hold, with the two counts unequal
    top = _contest(a0, b0, _contest(a1, b1, _contest(a2, b2, _contest(a3, b3, 0))))
    if not top:
        return -1, LEVEL, 0, -1
    # each side's smallest lead at that count, the first suit among equals
    lead_a, suit_a, lead_b, suit_b = 99, -1, 99, -1
    if a0 and b0:
        if a0 == top and b0 < top:
            lead_a, suit_a = top - b0, 0
        elif b0 == top and a0 < top:
            lead_b, suit_b = top - a0, 0
    if a1 and b1:
        if a1 == top and b1 < top and top - b1 < lead_a:
            lead_a, suit_a = top - b1, 1
        elif b1 == top and a1 < top and top - a1 < lead_b:
            lead_b, suit_b = top - a1, 1
    if a2 and b2:
        if a2 == top and b2 < top and top - b2 < lead_a:
            lead_a, suit_a = top - b2, 2
        elif b2 == top and a2 < top and top - a2 < lead_b:
            lead_b, suit_b = top - a2, 2
    if a3 and b3:
        if a3 == top and b3 < top and top - b3 < lead_a:
            lead_a, suit_a = top - b3, 3
        elif b3 == top and a3 < top and top - a3 < lead_b:
            lead_b, suit_b = top - a3, 3
    if lead_a == lead_b:
        return -1, LEVEL, 0, -1
    ca, cb = (a0, a1, a2, a3), (b0, b1, b2, b3)
    if lead_a < lead_b:
        return (-1, LEVEL, 0, suit_a) if outshows(cb, ca) else (0, RANK, lead_a, suit_a)
    return (-1, LEVEL, 0, suit_b) if outshows(ca, cb) else (1, RANK, lead_b, suit_b)


def count_in(c: Counts, suit: int) -> int:
    """The count of ``c`` in ``suit``: ``c[suit]``, written out for speed."""
    c0, c1, c2, c3 = c
    return c0 if suit == 0 else c1 if suit == 1 else c2 if suit == 2 else c3


def raised(c: Counts, suit: int, value: int) -> Counts:
    """Counts ``c`` with ``suit``'s count raised to ``value`` if that is higher: a card joins
    an entity or a group (R25). Written out suit by suit, as :func:`count_in` is."""
    c0, c1, c2, c3 = c
    if suit == 0:
        return (value if value > c0 else c0), c1, c2, c3
    if suit == 1:
        return c0, (value if value > c1 else c1), c2, c3
    if suit == 2:
        return c0, c1, (value if value > c2 else c2), c3
    return c0, c1, c2, (value if value > c3 else c3)


def _contest(x: int, y: int, top: int) -> int:
    """``top`` raised to the higher of ``x`` and ``y`` when both are held and unequal."""
    if x and y and x != y:
        hi = x if x > y else y
        if hi > top:
            return hi
    return top


def _drop(c: Counts, suit: int) -> Counts:
    out = list(c)
    out[suit] = 0
    return (out[0], out[1], out[2], out[3])


def bonus(differential: int) -> int:
    """Outranking/outtrumping bonus: half the differential rounded up, 1..3 (rule 905)."""
    return min(MAX_BONUS, (differential + 1) // 2)


def beats(a: Counts, b: Counts, trump: int | None) -> bool:
    """True when ``a`` outranks or outtrumps ``b``."""
    return rank_counts(a, b, trump)[0] == 0


@dataclass(frozen=True, slots=True)
class Comparison(Value):
    """The result of comparing side ``a`` (index 0) with side ``b`` (index 1) [R26]."""

    a: str
    b: str
    counts: tuple[Counts, Counts]
    trump: Suit | None
    winner: int | None
    kind: Literal["trump", "rank"] | None
    differential: int
    bonus: int
    outshown: int | None
    suit: Suit | None

    def explain(self) -> str:
        """One English sentence naming the deciding suit and numbers."""
        return _explain(self)


def compare(a: str | Side, b: str | Side, trump: str | Suit | None = None) -> Comparison:
    """Compare two entities or groups (or their text forms) under an optional trump [R26].

    >>> compare("JC/2C/4H", "JH/4C/3H").winner
    0
    >>> compare("KH", "AS/2H", trump="S").kind
    'trump'
    """
    side_a, side_b = parse_side(a), parse_side(b)
    trump_suit = None if trump is None else Suit.parse(trump)
    return compare_counts(str(side_a), str(side_b), side_a.counts, side_b.counts, trump_suit)


def compare_counts(a: str, b: str, ca: Counts, cb: Counts, trump: int | None) -> Comparison:
    """:func:`compare` for sides already reduced to counts (the engine's log uses it)."""
    t = None if trump is None else int(trump)
    winner, how, diff, suit = rank_counts(ca, cb, t)
    shown_a, shown_b = (_drop(ca, t), _drop(cb, t)) if t is not None and ca[t] == cb[t] else (
        ca,
        cb,
    )
    outshown = 1 if outshows(shown_a, shown_b) else 0 if outshows(shown_b, shown_a) else None
    return Comparison(
        a=a,
        b=b,
        counts=(ca, cb),
        trump=None if t is None else Suit(t),
        winner=None if winner < 0 else winner,
        kind={TRUMP: "trump", RANK: "rank"}.get(how),  # type: ignore[arg-type]
        differential=diff,
        bonus=bonus(diff) if winner >= 0 else 0,
        outshown=outshown,
        suit=None if suit < 0 else Suit(suit),
    )


def _explain(r: Comparison) -> str:
    names = (r.a, r.b)
    if r.winner is not None and r.suit is not None:
        w, lo = r.winner, 1 - r.winner
        verb = "outtrumps" if r.kind == "trump" else "outranks"
        wc, lc = r.counts[w][r.suit], r.counts[lo][r.suit]
        return (
            f"{names[w]} {verb} {names[lo]} in {r.suit.title}, {wc} to {lc}: bonus {r.bonus}"
        )
    pair = f"{r.a} and {r.b} are level"
    empty = [n for n, c in zip(names, r.counts, strict=True) if not any(c)]
    if empty:
        what = "an empty Domain" if empty[0].startswith("D:") else empty[0]
        return f"{pair}: {what} is never ranked"
    if r.suit is not None and r.outshown is not None:
        loser = names[r.outshown]
        shower = 1 - r.outshown
        top, top_suit = _outshowing(r)
        would = r.counts[r.outshown][r.suit], r.counts[shower][r.suit]
        return (
            f"{pair}: {loser} would outrank in {r.suit.title}, {would[0]} to {would[1]}, "
            f"but is outshown by {names[shower]}'s {top} in {top_suit.title}"
        )
    ca, cb = r.counts
    trump_note = ""
    if r.trump is not None and ca[r.trump]:
        trump_note = f"matched in trumps ({r.trump.title} {ca[r.trump]} to {cb[r.trump]}); "
    shared = [
        Suit(s)
        for s in range(4)
        if ca[s] and cb[s] and (r.trump is None or s != r.trump)
    ]
    if not shared:
        return f"{pair}: {trump_note}they share no suit to rank in{_outshow_note(r)}"
    ties = ", ".join(f"{s.title} {ca[s]} to {cb[s]}" for s in shared)
    if all(ca[s] == cb[s] for s in shared):
        return f"{pair}: {trump_note}tied in every shared suit ({ties})"
    return f"{pair}: {trump_note}each outranks the other by the same margin ({ties})"


def _outshowing(r: Comparison) -> tuple[int, Suit]:
    """The count and suit with which the side that is not ``r.outshown`` outshows the other
    (judged with matched trumps removed, rule 903.6)."""
    assert r.outshown is not None
    shown = r.counts
    t = r.trump
    if t is not None and shown[0][t] == shown[1][t]:
        shown = (_drop(shown[0], t), _drop(shown[1], t))
    shower, other = shown[1 - r.outshown], shown[r.outshown]
    top = max(shower)
    return top, next(Suit(x) for x in range(4) if shower[x] == top and not other[x])


def _outshow_note(r: Comparison) -> str:
    """``; 6C outshows JH with 6 in Clubs`` (enough to expel a lone Enh, rule 1102.1)."""
    if r.outshown is None:
        return ""
    top, suit = _outshowing(r)
    names = (r.a, r.b)
    return f"; {names[1 - r.outshown]} outshows {names[r.outshown]} with {top} in {suit.title}"


__all__ = [
    "CARRY_BOOST",
    "EMPTY",
    "Comparison",
    "Counts",
    "Entity",
    "Group",
    "Kind",
    "beats",
    "bonus",
    "carry_counts",
    "compare",
    "compare_counts",
    "count_in",
    "counts_of",
    "merge",
    "outshows",
    "parse_side",
    "raised",
    "rank_counts",
]
