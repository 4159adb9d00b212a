"""Cards, suits, kinds, Pwr/Tgh, costs and abilities (rules 200, 700, 800).

A card is a frozen value with a text form that round-trips::

    >>> c = Card.parse("10H")
    >>> str(c), c.kind, c.suit.colour
    ('10H', <Kind.LND: 'Lnd'>, 'red')
    >>> Card.parse(str(Card.parse("KS"))) == Card.parse("KS")
    True

For speed the engine works with the card's index (0-51, ``suit * 13 + rank - 1``); every
property is also available from precomputed tuples indexed by it (``KIND[i]``, ``SUIT[i]``…).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import cache
from typing import Final

from parlor.rules.values import Value


class CardParseError(ValueError):
    """Text that does not name a card (or an entity) in Parlor Magic notation."""


class Suit(enum.IntEnum):
    """The four base suits, in bridge order; the index is the slot in a spot-count tuple."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return "CDHS"[self]

    @property
    def colour(self) -> str:
        """'red' for Hearts and Diamonds, 'black' for Spades and Clubs (rule 202)."""
        return COLOUR[self]

    @property
    def title(self) -> str:
        return self.name.capitalize()

    @classmethod
    def parse(cls, text: str | Suit) -> Suit:
        """A suit from its letter or name: ``Suit.parse("h") is Suit.HEARTS``."""
        if isinstance(text, Suit):
            return text
        key = text.strip().upper()
        for suit in cls:
            if key in (suit.letter, suit.name, suit.name[:-1]):
                return suit
        raise CardParseError(f"{text!r} is not a suit: use C, D, H or S")


COLOUR: Final[tuple[str, ...]] = ("black", "red", "red", "black")


class Kind(enum.Enum):
    """Card types by value, common to all suits (rule 201)."""

    ENH = "Enh"  # 2-6
    LND = "Lnd"  # 7-10
    CRE = "Cre"  # A J Q K


class Ability(enum.Enum):
    """The five special feature abilities of court cards and Aces (rules 707-711)."""

    VOLLEY = "Volley"
    SALLY = "Sally"
    HARRY = "Harry"
    ALLY = "Ally"
    CARRY = "Carry"


RANK_TEXT: Final[dict[int, str]] = {1: "A", 11: "J", 12: "Q", 13: "K"}
RANK_NAME: Final[dict[int, str]] = {1: "Ace", 11: "Jack", 12: "Queen", 13: "King"}
TEXT_RANK: Final[dict[str, int]] = {"A": 1, "J": 11, "Q": 12, "K": 13, "1": 1}
TEXT_RANK.update({str(v): v for v in range(2, 11)})
TEXT_RANK["T"] = 10

#: Cre Pwr/Tgh by rank (rule 205): A 1/1, J 1/2, Q 2/2, K 2/3.
PWR_TGH: Final[dict[int, tuple[int, int]]] = {1: (1, 1), 11: (1, 2), 12: (2, 2), 13: (2, 3)}


def _abilities(rank: int, suit: Suit) -> frozenset[Ability]:
    """The ability table (rules 707-711): Volley JC JS; Sally KH KC KS; Harry JH KD JD;
    Ally KC QS; Carry every Queen."""
    table = {
        Ability.VOLLEY: {(11, Suit.CLUBS), (11, Suit.SPADES)},
        Ability.SALLY: {(13, Suit.HEARTS), (13, Suit.CLUBS), (13, Suit.SPADES)},
        Ability.HARRY: {(11, Suit.HEARTS), (13, Suit.DIAMONDS), (11, Suit.DIAMONDS)},
        Ability.ALLY: {(13, Suit.CLUBS), (12, Suit.SPADES)},
        Ability.CARRY: {(12, s) for s in Suit},
    }
    return frozenset(a for a, cards in table.items() if (rank, suit) in cards)


@dataclass(frozen=True, slots=True, order=True)
class Card(Value):
    """One playing card: ``rank`` 1 (Ace) to 13 (King) and ``suit``."""

    suit: Suit
    rank: int

    def __post_init__(self) -> None:
        if not 1 <= self.rank <= 13:
            raise CardParseError(f"rank {self.rank} is not 1-13")

    @staticmethod
    def parse(text: str | Card) -> Card:
        """Parse ``AH``, ``10S``, ``kc`` (also ``TS`` for ten); raise CardParseError."""
        if isinstance(text, Card):
            return text
        return _parse_card(text.strip().upper())

    @staticmethod
    def from_index(index: int) -> Card:
        return CARDS[index]

    @property
    def index(self) -> int:
        return int(self.suit) * 13 + self.rank - 1

    @property
    def kind(self) -> Kind:
        return KIND[self.index]

    @property
    def colour(self) -> str:
        return self.suit.colour

    @property
    def is_cre(self) -> bool:
        return self.kind is Kind.CRE

    @property
    def is_lnd(self) -> bool:
        return self.kind is Kind.LND

    @property
    def is_enh(self) -> bool:
        return self.kind is Kind.ENH

    @property
    def pwr(self) -> int:
        """Cre power (rule 205); 0 for other kinds."""
        return PWR[self.index]

    @property
    def tgh(self) -> int:
        """Cre toughness (rule 205); 0 for other kinds."""
        return TGH[self.index]

    @property
    def cost(self) -> Cost:
        """Mnr needed to play it (R20): Cre Tgh own suit + Pwr generic; Enh value, half own suit."""
        return COST[self.index]

    @property
    def abilities(self) -> frozenset[Ability]:
        return ABILITIES[self.index]

    @property
    def name(self) -> str:
        """Long English name: ``King of Spades``."""
        return f"{RANK_NAME.get(self.rank, str(self.rank))} of {self.suit.title}"

    def __str__(self) -> str:
        return RANK_TEXT.get(self.rank, str(self.rank)) + self.suit.letter

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


@cache
def _parse_card(key: str) -> Card:
    if len(key) < 2 or key[:-1] not in TEXT_RANK:
        raise CardParseError(f"{key!r} is not a card: write rank then suit, like AH, 10S or KC")
    return Card(Suit.parse(key[-1]), TEXT_RANK[key[:-1]])


@dataclass(frozen=True, slots=True)
class Cost(Value):
    """A mnr cost: ``suited`` points must be of ``suit``; ``total`` points in all (R20)."""

    suit: Suit
    suited: int
    total: int

    @property
    def generic(self) -> int:
        return self.total - self.suited

    def __str__(self) -> str:
        generic = f"+{self.generic}" if self.generic else ""
        return f"{self.suited}{self.suit.letter}{generic}" if self.total else "free"


def _kind(rank: int) -> Kind:
    if 2 <= rank <= 6:
        return Kind.ENH
    if 7 <= rank <= 10:
        return Kind.LND
    return Kind.CRE


def _cost(card: Card) -> Cost:
    kind = _kind(card.rank)
    if kind is Kind.CRE:
        pwr, tgh = PWR_TGH[card.rank]
        return Cost(card.suit, tgh, tgh + pwr)
    if kind is Kind.ENH:
        return Cost(card.suit, (card.rank + 1) // 2, card.rank)
    return Cost(card.suit, 0, 0)


CARDS: Final[tuple[Card, ...]] = tuple(Card(s, r) for s in Suit for r in range(1, 14))
#: Per-index lookups for the engine's hot paths.
SUIT: Final[tuple[int, ...]] = tuple(int(c.suit) for c in CARDS)
RANK: Final[tuple[int, ...]] = tuple(c.rank for c in CARDS)
KIND: Final[tuple[Kind, ...]] = tuple(_kind(c.rank) for c in CARDS)
PWR: Final[tuple[int, ...]] = tuple(PWR_TGH.get(c.rank, (0, 0))[0] for c in CARDS)
TGH: Final[tuple[int, ...]] = tuple(PWR_TGH.get(c.rank, (0, 0))[1] for c in CARDS)
COST: Final[tuple[Cost, ...]] = tuple(_cost(c) for c in CARDS)
ABILITIES: Final[tuple[frozenset[Ability], ...]] = tuple(_abilities(c.rank, c.suit) for c in CARDS)
IS_RED: Final[tuple[bool, ...]] = tuple(COLOUR[s] == "red" for s in SUIT)


def deck() -> list[Card]:
    """A full 52-card deck in index order (rule 104)."""
    return list(CARDS)


def spot(rank: int) -> int:
    """The spot count a card shows in its base suit (R25): Cres 1, others their value."""
    return 1 if rank == 1 or rank > 10 else rank
