"""The fixed action numbering: every decision of ``legal_actions`` ↔ one integer.

``legal_actions`` lists each decision once, in its automatic-payment form (R3): a verb, the
actor's card by face (0-51, or none) and a target (a card id 0-103, ``D1``, ``D2``, ``T``, or
none). The numbering is a mixed-radix product *per verb shape*, laid out in blocks:

=========  ==========================================================  ======  =======
block      decisions                                                   size    first
=========  ==========================================================  ======  =======
bare       ``pass``, ``done``, ``end``, ``redraw`` (empty Hand)        4       0
face       ``trim``, ``keep``, ``redraw``, ``play``, ``attack``,         7 x 52  4
           ``sally``, ``harry`` + FACE
ref        ``assign``, ``bonus`` + REF                                 2 x 107 368
face-ref   ``play … on``, ``expel … at``, ``block``, ``volley``,       6 x     582
           ``ally``, ``carry`` + FACE + REF                            5564
=========  ==========================================================  ======  =======

FACE is the card's index ``suit * 13 + rank - 1`` (``AC`` = 0, ``KS`` = 51); REF is the card
id (``owner * 52 + face``: ``1:AC`` = 0, ``2:KS`` = 103), then ``D1`` = 104, ``D2`` = 105,
``T`` = 106. A face-ref decision is ``first + FACE * 107 + REF``. The whole space is
:data:`NUM_DISTINCT_ACTIONS` = 33,966 integers and :func:`encode`/:func:`decode` are inverse
bijections over all of it, so no two decisions ever share a number.

Left out on purpose: an explicit payment (``play KS tax 9S spend SC``) is another form of the
same decision (R3) and gets that decision's number (its payment is dropped); ``resign`` is
possible at any moment and never listed (1204), so it has no number.

**The factored encoding** (optional, for learners with one head per part): a decision as
three small integers ``(verb, card, target)``: ``verb`` indexes :data:`VERBS` (17),
``card`` is FACE + 1 (0: no card, 53 values), ``target`` is REF + 1 (0: no target, 108
values): :data:`FACTORED_NVEC` = (17, 53, 108). :func:`factor` and :func:`unfactor` map
between it and the flat numbers; a triple with no flat number (``pass`` with a card) raises
UnnumberedActionError.

    >>> from parlor.rules.actions import Action
    >>> encode(Action.parse("play 4H on 2:KS"))
    3788
    >>> str(decode(3788))
    'play 4H on 2:KS'
    >>> factor(3788)
    (6, 30, 104)
    >>> unfactor(6, 30, 104)
    3788
"""

from __future__ import annotations

from parlor.rules.actions import Action
from parlor.rules.state import DOMAIN, NONE, STACK

FACES = 52
REFS = 107  # 104 card ids, D1, D2, T

BARE: tuple[str, ...] = ("pass", "done", "end", "redraw")
FACE_VERBS: tuple[str, ...] = ("trim", "keep", "redraw", "play", "attack", "sally", "harry")
REF_VERBS: tuple[str, ...] = ("assign", "bonus")
FACE_REF_VERBS: tuple[str, ...] = ("play", "expel", "block", "volley", "ally", "carry")

FACE_FIRST = len(BARE)
REF_FIRST = FACE_FIRST + len(FACE_VERBS) * FACES
FACE_REF_FIRST = REF_FIRST + len(REF_VERBS) * REFS
NUM_DISTINCT_ACTIONS = FACE_REF_FIRST + len(FACE_REF_VERBS) * FACES * REFS


#: Every verb once, in block order (``redraw`` and ``play`` take two shapes: one index each).
VERBS: tuple[str, ...] = tuple(dict.fromkeys((*BARE, *FACE_VERBS, *REF_VERBS, *FACE_REF_VERBS)))
FACTORED_NVEC = (len(VERBS), FACES + 1, REFS + 1)


class UnnumberedActionError(ValueError):
    """An action outside the numbering (``resign``), or a number outside the space."""


def ref_index(target: int) -> int:
    """A table reference as 0-106: card ids as they are, then D1, D2, T."""
    if 0 <= target < 104:
        return target
    if target == DOMAIN[0]:
        return 104
    if target == DOMAIN[1]:
        return 105
    if target == STACK:
        return 106
    raise UnnumberedActionError(f"{target} is not a table reference")


def ref_of(index: int) -> int:
    if index < 104:
        return index
    return (DOMAIN[0], DOMAIN[1], STACK)[index - 104]


#: Numbers already worked out, by automatic-payment action (an Action is an immutable
#: NamedTuple), and actions by number: the OpenSpiel game encodes every legal action of every
#: decision, and arithmetic in Python cost as much as the compiled engine's decision itself.
_NUMBER_OF: dict[Action, int] = {}
_ACTION_OF: list[Action | None] = [None] * NUM_DISTINCT_ACTIONS


def encode(action: Action) -> int:
    """The number of ``action`` (its automatic-payment form)."""
    number = _NUMBER_OF.get(action)
    if number is None:
        number = _encode(action)
        if action.tax is None and action.spend is None:
            _NUMBER_OF[action] = number
    return number


def _encode(action: Action) -> int:
    verb, card, target = action.verb, action.card, action.target
    if card == NONE and target == NONE and verb in BARE:
        return BARE.index(verb)
    if card != NONE and target == NONE and verb in FACE_VERBS:
        return FACE_FIRST + FACE_VERBS.index(verb) * FACES + card
    if card == NONE and target != NONE and verb in REF_VERBS:
        return REF_FIRST + REF_VERBS.index(verb) * REFS + ref_index(target)
    if card != NONE and target != NONE and verb in FACE_REF_VERBS:
        block = FACE_REF_VERBS.index(verb) * FACES * REFS
        return FACE_REF_FIRST + block + card * REFS + ref_index(target)
    raise UnnumberedActionError(
        f"{action} has no number: resign is never listed (1204), so it is not numbered")


def decode(number: int) -> Action:
    """The decision with this number (automatic payment)."""
    if not 0 <= number < NUM_DISTINCT_ACTIONS:
        raise UnnumberedActionError(f"{number} is outside 0-{NUM_DISTINCT_ACTIONS - 1}")
    action = _ACTION_OF[number]
    if action is None:
        action = _ACTION_OF[number] = _decode(number)
    return action


def _decode(number: int) -> Action:
    if number < FACE_FIRST:
        return Action(BARE[number])
    if number < REF_FIRST:
        verb, face = divmod(number - FACE_FIRST, FACES)
        return Action(FACE_VERBS[verb], face)
    if number < FACE_REF_FIRST:
        verb, ref = divmod(number - REF_FIRST, REFS)
        return Action(REF_VERBS[verb], NONE, ref_of(ref))
    verb, rest = divmod(number - FACE_REF_FIRST, FACES * REFS)
    face, ref = divmod(rest, REFS)
    return Action(FACE_REF_VERBS[verb], face, ref_of(ref))


def factor(number: int) -> tuple[int, int, int]:
    """The factored form ``(verb, card + 1, target + 1)`` of a flat number (0: none)."""
    a = decode(number)
    card = 0 if a.card == NONE else a.card + 1
    target = 0 if a.target == NONE else ref_index(a.target) + 1
    return VERBS.index(a.verb), card, target


def unfactor(verb: int, card: int, target: int) -> int:
    """The flat number of a factored decision; UnnumberedActionError if it has none."""
    if not (0 <= verb < FACTORED_NVEC[0] and 0 <= card < FACTORED_NVEC[1]
            and 0 <= target < FACTORED_NVEC[2]):
        raise UnnumberedActionError(f"({verb}, {card}, {target}) is outside {FACTORED_NVEC}")
    return encode(Action(VERBS[verb], card - 1 if card else NONE,
                         ref_of(target - 1) if target else NONE))


__all__ = ["FACTORED_NVEC", "NUM_DISTINCT_ACTIONS", "VERBS", "UnnumberedActionError", "decode",
           "encode", "factor", "unfactor"]
