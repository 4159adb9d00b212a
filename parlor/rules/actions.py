"""Actions: one small immutable value per decision, with a text form that round-trips.

The acting card is written by its face (it is always the actor's own: a hand card, an
attacker, a blocker, an ability user); a card on the table is written owner-qualified
(``2:KS``), a Domain as ``D1``/``D2`` and the Trumps stack as ``T``::

    >>> a = Action.parse("play 4H on 2:KS")
    >>> str(a), a == Action.parse(str(a))
    ('play 4H on 2:KS', True)
    >>> str(Action.parse("play KS tax 9S 8S spend SSC"))
    'play KS tax 9S 8S spend SSC'

Actions are NamedTuples rather than dataclasses because random playouts create hundreds of
them per game; they are just as immutable and hashable.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from parlor.rules.cards import Card, CardParseError, Suit
from parlor.rules.events import ref_id
from parlor.rules.state import DOMAIN, NONE, STACK, card_text, ref_text


class ActionParseError(ValueError):
    """Text that is not an action in Parlor Magic notation."""


class IllegalActionError(ValueError):
    """A well-formed action that the rules forbid now; the message cites the rule."""


class WrongTurnError(IllegalActionError):
    """An action by a Rlr who is not the one to decide now."""


class GameOverError(IllegalActionError):
    """Any action after the game has ended."""


#: Verbs whose text is ``verb FACE``.
CARD_VERBS: Final = ("trim", "keep", "attack", "sally", "harry")
#: Verbs whose text is ``verb FACE REF``.
CARD_REF_VERBS: Final = ("block", "volley", "ally", "carry")
#: Verbs whose text is ``verb REF``.
REF_VERBS: Final = ("assign", "bonus")
BARE_VERBS: Final = ("pass", "done", "end", "resign")


class Action(NamedTuple):
    """A decision. ``card`` is a face index 0-51 (the actor's card) or -1; ``target`` is a
    card id 0-103, a Domain or Stack code, or -1; ``tax``/``spend`` give an explicit payment
    (R3): the actor's Lnds (faces) to tax, then the suits of the points spent from the pool.
    """

    verb: str
    card: int = NONE
    target: int = NONE
    tax: tuple[int, ...] | None = None
    spend: tuple[int, ...] | None = None

    @property
    def base(self) -> Action:
        """The same decision with automatic payment."""
        explicit = self.tax is not None or self.spend is not None  # "tax" alone taxes nothing
        return Action(self.verb, self.card, self.target) if explicit else self

    def __str__(self) -> str:
        if self.verb == "resign" and self.target != NONE:
            return f"resign {self.target + 1}"  # which Rlr resigns: 1 or 2
        words = [self.verb]
        if self.card != NONE:
            words.append(card_text(self.card))
        if self.target != NONE:
            if self.verb == "play":
                words.append("on")
            elif self.verb == "expel":
                words.append("at")
            words.append(ref_text(self.target))
        if self.tax is not None:
            words.append("tax")
            words.extend(card_text(f) for f in self.tax)
        if self.spend is not None:
            words.append("spend")
            words.append("".join(Suit(s).letter for s in self.spend) or "-")
        return " ".join(words)

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"

    @staticmethod
    def parse(text: str) -> Action:
        """Parse the text form; raise ActionParseError naming the problem."""
        try:
            return _parse(text.split())
        except (CardParseError, IndexError, KeyError) as exc:
            raise ActionParseError(f"{text!r} is not an action: {exc}") from None


def parse_ref(text: str) -> int:
    """``2:KS`` → card id; ``D1``/``D2`` → Domain code; ``T`` → Stack code
    (:func:`parlor.rules.events.ref_id`, with a bad reference an ActionParseError)."""
    try:
        return ref_id(text)
    except CardParseError:
        raise
    except ValueError as exc:
        raise ActionParseError(str(exc)) from None


def _face(text: str) -> int:
    return Card.parse(text).index


def _parse(words: list[str]) -> Action:
    if not words:
        raise ActionParseError("empty action")
    verb, rest = words[0].lower(), words[1:]
    if verb in BARE_VERBS and not rest:
        return Action(verb)
    if verb == "resign" and rest in (["1"], ["2"]):
        return Action(verb, NONE, int(rest[0]) - 1)
    if verb == "redraw":
        return Action(verb, _face(rest[0])) if rest else Action(verb)
    if verb in CARD_VERBS and len(rest) == 1:
        return Action(verb, _face(rest[0]))
    if verb in CARD_REF_VERBS and len(rest) == 2:
        return Action(verb, _face(rest[0]), parse_ref(rest[1]))
    if verb in REF_VERBS and len(rest) == 1:
        return Action(verb, NONE, parse_ref(rest[0]))
    if verb in ("play", "expel") and rest:
        return _parse_play(verb, rest)
    raise ActionParseError(f"{' '.join(words)!r} is not an action")


def _parse_play(verb: str, rest: list[str]) -> Action:
    card, rest = _face(rest[0]), rest[1:]
    target = NONE
    if rest and rest[0].lower() in ("on", "at"):
        if (rest[0].lower() == "at") != (verb == "expel"):
            raise ActionParseError("write 'play CARD on TARGET' or 'expel CARD at TARGET'")
        target, rest = parse_ref(rest[1]), rest[2:]
    elif verb == "expel":
        raise ActionParseError("an expel needs a target: expel 4H at 2:KS")
    tax: tuple[int, ...] | None = None
    spend: tuple[int, ...] | None = None
    while rest:
        word = rest[0].lower()
        if word == "tax":
            names = []
            rest = rest[1:]
            while rest and rest[0].lower() not in ("spend",):
                names.append(_face(rest[0]))
                rest = rest[1:]
            tax = tuple(names)
        elif word == "spend" and len(rest) >= 2:
            letters = "" if rest[1] == "-" else rest[1]
            spend = tuple(int(Suit.parse(ch)) for ch in letters)
            rest = rest[2:]
        else:
            raise ActionParseError(f"unexpected {rest[0]!r}: payment is 'tax 9S 8S spend SSC'")
    return Action(verb, card, target, tax, spend)


PASS: Final = Action("pass")
DONE: Final = Action("done")
END: Final = Action("end")

_SHARED: Final[dict[tuple[str, int, int], Action]] = {}


def action_of(verb: str, card: int = NONE, target: int = NONE) -> Action:
    """The one shared Action for a decision with automatic payment.

    Listing legal actions builds the same few thousand values over and over; actions are
    immutable, so the engine hands out one object per decision instead of a new tuple each
    time (faster, and a state's history holds references, not copies).

    >>> action_of("attack", 12) is action_of("attack", 12) == Action("attack", 12)
    True
    """
    key = (verb, card, target)
    found = _SHARED.get(key)
    if found is None:
        found = _SHARED[key] = Action(verb, card, target)
    return found


_ROWS: Final[dict[tuple[str, int], list[Action]]] = {}


def target_row(verb: str, face: int) -> list[Action]:
    """:func:`action_of` ``(verb, face, target)`` for every target, by slot: the card ids
    0-103, then the two Domains and the stack (104-106). Built once per verb and face."""
    row = _ROWS.get((verb, face))
    if row is None:
        targets = [*range(104), DOMAIN[0], DOMAIN[1], STACK]
        row = _ROWS[verb, face] = [action_of(verb, face, t) for t in targets]
    return row
