"""The action numbers of legal actions, worked out by compiled code (the mask of R30).

:mod:`parlor.research.numbering` is the readable reference of the fixed action numbering
(its blocks and sizes documented there); this module computes the same number with a verb
lookup and integer arithmetic, compiled by mypyc in the compiled build, so that an action
mask costs tens of nanoseconds an action instead of a NamedTuple hash and an interpreted
call (about 0.15 microseconds each, hundreds of actions in a late position).
tests/research/test_numbering.py holds :func:`action_number` equal to ``numbering.encode``
over the whole numbering.
"""

from __future__ import annotations

from typing import Final

from parlor.rules.actions import Action
from parlor.rules.state import DOMAIN, NONE, STACK

FACES: Final = 52
REFS: Final = 107  # 104 card ids, D1, D2, T

#: The first number of each verb's block, by shape (numbering's table): bare, face, ref,
#: face-ref; ``redraw`` and ``play`` take two shapes, one entry in each shape's table.
_BARE: Final[dict[str, int]] = {"pass": 0, "done": 1, "end": 2, "redraw": 3}
_FACE_FIRST: Final = 4
_FACE: Final[dict[str, int]] = {
    v: _FACE_FIRST + i * FACES
    for i, v in enumerate(("trim", "keep", "redraw", "play", "attack", "sally", "harry"))}
_REF_FIRST: Final = _FACE_FIRST + 7 * FACES
_REF: Final[dict[str, int]] = {v: _REF_FIRST + i * REFS for i, v in enumerate(("assign", "bonus"))}
_FACE_REF_FIRST: Final = _REF_FIRST + 2 * REFS
_FACE_REF: Final[dict[str, int]] = {
    v: _FACE_REF_FIRST + i * FACES * REFS
    for i, v in enumerate(("play", "expel", "block", "volley", "ally", "carry"))}


def _ref(target: int) -> int:
    """A table reference as 0-106 (card ids, then D1, D2, T); -1 if it is none of them."""
    if 0 <= target < 104:
        return target
    if target == DOMAIN[0]:
        return 104
    if target == DOMAIN[1]:
        return 105
    if target == STACK:
        return 106
    return -1


def action_number(a: Action) -> int:
    """The number of ``a`` (its automatic-payment form), as ``numbering.encode``; -1 for an
    action outside the numbering (``resign``; numbering.encode raises on it)."""
    verb, card, target = a.verb, a.card, a.target
    if card == NONE:
        if target == NONE:
            return _BARE.get(verb, -1)
        first = _REF.get(verb, -1)
        ref = _ref(target)
        return -1 if first < 0 or ref < 0 else first + ref
    if target == NONE:
        first = _FACE.get(verb, -1)
        return -1 if first < 0 else first + card
    first = _FACE_REF.get(verb, -1)
    ref = _ref(target)
    return -1 if first < 0 or ref < 0 else first + card * REFS + ref


def action_numbers(actions: list[Action]) -> list[int]:
    """:func:`action_number` of each action (the legal actions of a mask, which never list
    ``resign``); ValueError names an action outside the numbering."""
    out: list[int] = []
    for a in actions:
        n = action_number(a)
        if n < 0:
            raise ValueError(f"{a} has no action number")
        out.append(n)
    return out
