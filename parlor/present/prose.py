"""The log in prose: the engine records events as data (:class:`parlor.rules.events.Event`);
a person reads them as "you" and "the computer", with card names. The sentence in notation
(``Event.text``) is kept beside it (the web table's tooltip and "show notation" setting).

Each sentence is rendered from the event's fields by the templates of
:mod:`parlor.rules.events`, in the words of :class:`Words`; no sentence is ever read back.
"""

from __future__ import annotations

from typing import Final

from parlor.rules.cards import RANK, SUIT
from parlor.rules.events import DOMAIN_IDS, STACK_ID, Event, Voice, ref_text, rlr, sentence

_RANKS: Final = {1: "Ace", 11: "Jack", 12: "Queen", 13: "King"}
_LETTER_RANKS: Final = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King", "T": "10"}
_SYMBOLS: Final = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_SUIT_WORDS: Final = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}


def card_words(card: str) -> str:
    """A card (in notation) as a person reads it: a Cre by name, a number card by rank and
    suit symbol.

    >>> card_words("KD"), card_words("2D"), card_words("TC"), card_words("10H")
    ('the King of Diamonds', '2♦', '10♣', '10♥')
    """
    rank, suit = card[:-1], card[-1]
    if rank in "AJQK":
        return f"the {_LETTER_RANKS[rank]} of {_SUIT_WORDS[suit]}"
    return f"{_LETTER_RANKS.get(rank, rank)}{_SYMBOLS[suit]}"


def card_name(cid: int) -> str:
    """:func:`card_words` of a card id.

    >>> card_name(12), card_name(52 + 14)
    ('the King of Clubs', '2♦')
    """
    face = cid % 52
    rank = RANK[face]
    suit = "CDHS"[SUIT[face]]
    if rank in _RANKS:
        return f"the {_RANKS[rank]} of {_SUIT_WORDS[suit]}"
    return f"{rank}{_SYMBOLS[suit]}"


def entity_words(body: str) -> str:
    """``KD/5C+AD`` (a group of hosts with their Enhs, in notation) in words.

    >>> entity_words("KD/5C+AD")
    'the King of Diamonds with 5♣ and the Ace of Diamonds'
    """
    groups = []
    for group in body.split("+"):
        host, *enhs = group.split("/")
        with_ = f" with {' and '.join(card_words(e) for e in enhs)}" if enhs else ""
        groups.append(card_words(host) + with_)
    return " and ".join(groups)


def side_words(side: str) -> str:
    """A side of a comparison (``D:2D``, ``JH/3C``, ``nobody``) in words.

    >>> side_words("D:2D"), side_words("D:"), side_words("AS+QH/4H")
    ('the Domain (2♦)', 'the empty Domain', 'the Ace of Spades and the Queen of Hearts with 4♥')
    """
    if side.startswith("D:"):
        body = side[2:]
        return f"the Domain ({entity_words(body)})" if body else "the empty Domain"
    if side == "nobody":
        return side
    return entity_words(side)


class Words(Voice):
    """The sentences' words for the person at seat ``seat`` (None: a spectator, who reads
    "Rlr 1" and "Rlr 2"): "you" and the ``opponent`` ("the computer"; "Rlr 2" across a
    table between two people), cards by name, no notation."""

    def __init__(self, seat: int | None, opponent: str = "the computer") -> None:
        self.seat = seat
        self.opponent = opponent

    def who(self, p: int) -> str:
        if self.seat is None:
            return rlr(p)
        return "you" if p == self.seat else self.opponent

    def does(self, p: int, verb: str, verb_s: str) -> str:
        return f"{self.who(p)} {verb if p == self.seat else verb_s}"

    def whose(self, p: int) -> str:
        if self.seat is None:
            return f"{rlr(p)}'s"
        return "your" if p == self.seat else f"{self.opponent}'s"

    def card(self, cid: int) -> str:
        return card_name(cid)

    def owned(self, cid: int) -> str:
        """"your King of Spades" ("the King of Spades" to a spectator)."""
        if cid == STACK_ID or cid in DOMAIN_IDS:
            return ref_text(cid)
        words = card_name(cid)
        if self.seat is None:
            return words
        return f"{self.whose(cid // 52)} {words.removeprefix('the ')}"

    def of(self, cid: int) -> str:
        """"your King of Spades" ("the King of Spades of Rlr 1" to a spectator)."""
        if self.seat is None:
            return f"{card_name(cid)} of {rlr(cid // 52)}"
        return self.owned(cid)

    def entity(self, text: str) -> str:
        return side_words(text)


def _capital(s: str) -> str:
    return s[:1].upper() + s[1:]


def prose(e: Event, reader: int | None, player: int | None,
          opponent: str = "the computer") -> str:
    """The event as ``player`` may read it (its own cards, R30; None: the public event), in
    words for the person at seat ``reader`` (None: a spectator, who reads "Rlr 1" and "Rlr
    2"): "you" and the ``opponent`` ("the computer", or a person's name), cards by name, no
    notation. A forced decision says so.

    >>> from parlor.rules.events import Event
    >>> prose(Event("play", 0, (52 + 13 + 3, 52 + 9), detail="enh", entity="10C/4D"), 0, 0)
    "You play 4♦ on the computer's 10♣ (10♣ with 4♦)"
    >>> prose(Event("turn", 1, amounts=(3,)), 1, 1)
    'Turn 3: you are the phasing Rlr'
    >>> prose(Event("win", 1, amounts=(-2,), detail="attack"), 0, 0)
    'The computer wins: you are at -2 life after an attack'
    >>> prose(Event("draw", 0, (13, 1)), 0, 0), prose(Event("draw", 0, (13, 1)), 1, 1)
    ('You draw the Ace of Diamonds, 2♣', 'The computer draws 2 cards')
    >>> prose(Event("end", 1, automatic=True), 0, 0)
    'The computer does not attack: the turn ends (automatic: the only legal choice)'
    >>> prose(Event("play", 0, (52 + 13 + 3, 52 + 9), detail="enh", entity="10C/4D"), 0, 0,
    ...       "Rlr 2")
    "You play 4♦ on Rlr 2's 10♣ (10♣ with 4♦)"
    """
    secret = player is not None and player == e.player and e.has_secret
    s = _capital(sentence(e, Words(reader, opponent), secret))
    return automatic(s) if e.automatic else s


def result_words(log: list[Event] | None, result: str, reader: int | None,
                 opponent: str = "the computer") -> str:
    """How the game ended, for the person at seat ``reader`` (the other named
    ``opponent``): the game's last event, when it is its end (a game read from a position
    with its result given has no such event, and its result is shown as written)."""
    if log and log[-1].kind in ("win", "draw_game"):
        return _capital(sentence(log[-1], Words(reader, opponent)))
    return result


#: What the log adds to a decision the engine took because it was the only legal one.
AUTOMATIC = "(automatic: the only legal choice)"


def automatic(sentence: str) -> str:
    """A log sentence for a forced decision, marked so that it does not read as chosen.

    >>> automatic("You do not attack: the turn ends")
    'You do not attack: the turn ends (automatic: the only legal choice)'
    """
    return f"{sentence} {AUTOMATIC}"


__all__ = ["AUTOMATIC", "Words", "automatic", "card_name", "card_words", "entity_words",
           "prose", "result_words", "side_words"]
