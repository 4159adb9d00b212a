"""Shared helpers for the scenario tests of rules 700-1200 (abilities, Enhs, Trumps, combat,
expel, winning).

A scenario is a position in the notation of :mod:`parlor.rules.notation`, then actions in
their text form, then exact assertions on zones, life, status and the event sentences::

    >>> s = setup('''
    ...     settings: step
    ...     phasing: 1
    ...     phase: window1
    ...     1.hand: 3H
    ...     1.home: 7H 8H 9C
    ...     2.hand: 7S
    ...     2.field: JH/3C
    ... ''')
    >>> said(s, "expel 3H at 2:JH")[-1]
    '3H expels JH/3C: outranks in Hearts 3 to 1, 1 damage, to Recycle'
    >>> zone(s, "2.recycle"), zone(s, "1.discard")
    ('^JH ^3C', '3H')

``zone`` reads one line of :func:`parlor.rules.notation.position` (top of a pile first), so
assertions are written in the same notation as the setup.
"""

from __future__ import annotations

import textwrap

import pytest

from parlor.rules.actions import IllegalActionError
from parlor.rules.cards import Card
from parlor.rules.engine import apply, legal_actions
from parlor.rules.notation import parse_position, position
from parlor.rules.state import State


def setup(text: str) -> State:
    """A state from position text (indentation ignored)."""
    return parse_position(textwrap.dedent(text))


def said(s: State, *actions: str) -> list[str]:
    """Apply the actions in turn (each for the Rlr to decide) and return the event sentences
    they produced, in order."""
    before = len(s.log or ())
    for a in actions:
        apply(s, a)
    return [e.text for e in (s.log or ())[before:]]


def zone(s: State, key: str) -> str:
    """One line of the full position: ``zone(s, "1.home") == "9S{t1} 8S"``."""
    for line in position(s).splitlines():
        k, _, value = line.partition(":")
        if k == key:
            return value.strip()
    raise KeyError(key)


def cid(ref: str) -> int:
    """The card id of ``2:KS``: ``owner * 52 + Card.parse(face).index``."""
    owner, _, face = ref.partition(":")
    return (int(owner) - 1) * 52 + Card.parse(face).index


def legal(s: State, *verbs: str) -> list[str]:
    """The legal actions now, as text, only those with the given verbs (all when none)."""
    return [str(a) for a in legal_actions(s) if not verbs or a.verb in verbs]


def refused(s: State, action: str, message: str) -> None:
    """Assert that ``action`` is refused with exactly ``message`` and changes nothing."""
    before = position(s)
    n_log = len(s.log or ())
    with pytest.raises(IllegalActionError) as info:
        apply(s, action)
    assert str(info.value) == message
    assert position(s) == before
    assert len(s.log or ()) == n_log
