"""The log in prose: the engine's sentences name seats and cards in the notation
(docs/notation.md); a person reads them as "you" and "the computer", with card names. The
sentence in notation is kept beside it (the web table's tooltip and "show notation" setting).
"""

from __future__ import annotations

import re

_RANKS = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King", "T": "10"}
_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_SUIT_WORDS = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}
_CARD = r"(?:10|[2-9TAJQK])[CDHS]"
_ENTITY = re.compile(
    rf"(?<![\w:/+])(?:(?P<owner>[12]):|(?P<dom>D:))?(?P<body>{_CARD}(?:[/+]{_CARD})*)?(?![\w/+])")
_SEAT = re.compile(r"\bRlr (?P<n>[12])(?P<poss>'s)?(?: (?P<verb>[a-zA-Z]+))?")
_OF_SEAT = re.compile(rf"\b(?P<card>{_CARD}|the (?:\w+ of \w+|\d+\S)) of Rlr (?P<n>[12])\b")
_IRREGULAR = {"is": "are", "has": "have", "does": "do", "was": "were"}


def card_words(card: str) -> str:
    """A card as a person reads it: a Cre by name, a number card by rank and suit symbol.

    >>> card_words("KD"), card_words("2D"), card_words("TC"), card_words("10H")
    ('the King of Diamonds', '2♦', '10♣', '10♥')
    """
    rank, suit = card[:-1], card[-1]
    if rank in "AJQK":
        return f"the {_RANKS[rank]} of {_SUIT_WORDS[suit]}"
    return f"{_RANKS.get(rank, rank)}{_SYMBOLS[suit]}"


def entity_words(body: str) -> str:
    """``KD/5C+AD`` (a group of hosts with their Enhs) in words.

    >>> entity_words("KD/5C+AD")
    'the King of Diamonds with 5♣ and the Ace of Diamonds'
    """
    groups = []
    for group in body.split("+"):
        host, *enhs = group.split("/")
        with_ = f" with {' and '.join(card_words(e) for e in enhs)}" if enhs else ""
        groups.append(card_words(host) + with_)
    return " and ".join(groups)


def _verb_for_you(verb: str) -> str:
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if not verb.endswith("s") or verb.endswith("ss") or (verb[:1].isupper() and verb != "Redraws"):
        return verb
    if verb.endswith("ies"):
        return verb[:-3] + "y"
    if re.search(r"(sh|ch|x|ss|o)es$", verb):
        return verb[:-2]
    return verb[:-1]


def prose(text: str, viewer: int | None) -> str:
    """The engine's sentence for a person at seat ``viewer`` (None: a spectator, who reads
    "Rlr 1" and "Rlr 2"): "you" and "the computer", cards by name, no notation.

    >>> prose("Rlr 1 plays 4D on 2:10C (10C/4D)", 0)
    "You play 4♦ on the computer's 10♣ (10♣ with 4♦)"
    >>> prose("D:2D outtrumps KD/5C+AD in Diamonds, 2 to 1: bonus 1", 1)  # doctest: +ELLIPSIS
    'The Domain (2♦) outtrumps the King of Diamonds with 5♣ and the Ace of Diamonds in ...'
    >>> prose("AH of Rlr 1 takes 1 damage (combat), terminal", 1)
    "The computer's Ace of Hearts takes 1 damage (combat), terminal"
    >>> prose("Turn 3: Rlr 2 is the phasing Rlr", 1)
    'Turn 3: you are the phasing Rlr'
    >>> prose("Each Rlr is dealt 7 cards; Rlr 1 goes first", 0)
    'Each Rlr is dealt 7 cards; you go first'
    >>> prose("Rlr 2 wins: Rlr 1 is at -2 life", 0)
    'The computer wins: you are at -2 life'
    >>> prose("Rlr 2 blocks AH with AS", None)
    'Rlr 2 blocks the Ace of Hearts with the Ace of Spades'
    """
    def entity(m: re.Match[str]) -> str:
        body = m.group("body")
        if m.group("dom") is not None:
            return f"the Domain ({entity_words(body)})" if body else "the empty Domain"
        if body is None:
            return m.group(0)
        words = entity_words(body)
        owner = m.group("owner")
        if owner is not None and viewer is not None:
            who = "your" if int(owner) - 1 == viewer else "the computer's"
            return f"{who} {words.removeprefix('the ')}"
        return words

    s = _ENTITY.sub(entity, text)
    if viewer is None:
        return s[:1].upper() + s[1:]

    def of_seat(m: re.Match[str]) -> str:
        who = "your" if int(m.group("n")) - 1 == viewer else "the computer's"
        return f"{who} {m.group('card').removeprefix('the ')}"

    def seat(m: re.Match[str]) -> str:
        you = int(m.group("n")) - 1 == viewer
        verb = m.group("verb")
        if m.group("poss"):
            head = "your" if you else "the computer's"
            return f"{head} {verb}" if verb else head
        head = "you" if you else "the computer"
        if verb is None:
            return head
        return f"{head} {_verb_for_you(verb) if you else verb}"

    s = _SEAT.sub(seat, _OF_SEAT.sub(of_seat, s))
    return s[:1].upper() + s[1:]


#: What the log adds to a decision the engine took because it was the only legal one.
AUTOMATIC = "(automatic: the only legal choice)"


def automatic(sentence: str) -> str:
    """A log sentence for a forced decision, marked so that it does not read as chosen.

    >>> automatic(prose("Rlr 1 does not attack: the turn ends", 0))
    'You do not attack: the turn ends (automatic: the only legal choice)'
    """
    return f"{sentence} {AUTOMATIC}"


__all__ = ["AUTOMATIC", "automatic", "card_words", "entity_words", "prose"]
