"""Helpers for scenario tests: set up a position in the notation, play actions, read the result.

A scenario reads like a worked example of the rulebook::

    >>> s = setup('''
    ...     settings: step
    ...     phasing: 1
    ...     phase: window1
    ...     1.hand: JS
    ...     1.home: 9S 8S 7C
    ... ''')
    >>> said(s, "play JS")
    ['Rlr 1 taxes 9S: +1 Spades mnr', 'Rlr 1 taxes 8S: +1 Spades mnr', \
'Rlr 1 taxes 7C: +1 Clubs mnr', 'Rlr 1 pays 1 Clubs, 2 Spades mnr for JS', \
'Rlr 1 summons JS to the Field (inactive)']
    >>> zone(s, "1.home"), zone(s, "1.field"), zone(s, "actor")
    ('9S{t1} 8S{t1} 7C{t1}', 'JS{i}', '2')

Positions are written with :func:`parlor.rules.notation.parse_position`; :func:`at` reads one
line of :func:`parlor.rules.notation.position` back, so assertions use the same notation.
"""

from __future__ import annotations

import random
import textwrap
from collections.abc import Iterable, Iterator

import pytest

from parlor.rules.actions import Action, IllegalActionError
from parlor.rules.cards import CARDS, Card
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.notation import parse_position, position
from parlor.rules.state import State


def setup(text: str) -> State:
    """A state from position text (indentation ignored)."""
    return parse_position(textwrap.dedent(text))


def act(s: State, *actions: Action | str) -> State:
    """Apply each action in turn (for the Rlr to decide); returns the state."""
    for a in actions:
        apply(s, a)
    return s


def options(s: State) -> list[str]:
    """The legal actions now, as text (automatic payment), in the engine's order."""
    return [str(a) for a in legal_actions(s)]


def legal(s: State, *verbs: str) -> list[str]:
    """The legal actions now, as text, only those with the given verbs (all when none)."""
    return [str(a) for a in legal_actions(s) if not verbs or a.verb in verbs]


def texts(s: State) -> list[str]:
    """Every event sentence of the log, in order (public text)."""
    return [e.text for e in s.log or ()]


def said(s: State, *actions: Action | str) -> list[str]:
    """Apply the actions and return the event sentences they produced."""
    before = len(s.log or ())
    act(s, *actions)
    return texts(s)[before:]


def cid(ref: str) -> int:
    """The card id of an owner-qualified card: ``cid("2:KS") == 52 + Card.parse("KS").index``."""
    owner, _, face = ref.partition(":")
    return (int(owner) - 1) * 52 + Card.parse(face).index


def cids(owner: int, cards: str) -> list[int]:
    """Card ids of Rlr ``owner`` (1 or 2): ``cids(1, "9S 8S")``."""
    return [cid(f"{owner}:{c}") for c in cards.split()]


def all_but(*cards: str) -> str:
    """Every face of a deck except the given ones, in card order: a position can put them out
    of the way (``1.discard: {all_but("5H 9D")}``) so that a Draw pile holds exactly the
    cards the scenario names."""
    used = {Card.parse(c) for group in cards for c in group.split()}
    return " ".join(str(c) for c in CARDS if c not in used)


def zone(s: State, key: str) -> str:
    """The value of one line of the full position, e.g. ``zone(s, "1.home") == "9S{t1} 8S"``."""
    for line in position(s).splitlines():
        k, _, value = line.partition(":")
        if k == key:
            return value.strip()
    raise KeyError(key)


def refused(s: State, action: Action | str, message: str, player: int | None = None,
            error: type[IllegalActionError] = IllegalActionError) -> str:
    """Assert that ``action`` is refused with a message starting ``message`` (the rule, or the
    whole message) and that the state is left exactly as it was; returns the full message."""
    before = position(s)
    n_log = len(s.log or ())
    n_history = len(s.history)
    with pytest.raises(error) as info:
        apply(s, action, player)
    text = str(info.value)
    assert text.startswith(message), text
    assert position(s) == before
    assert len(s.log or ()) == n_log
    assert len(s.history) == n_history
    return text


def random_positions(seeds: Iterable[int]) -> Iterator[tuple[int, State]]:
    """Every position of seeded random games (default settings) as ``(seed, state)``, before
    a legal action chosen uniformly (``random.Random(seed)``) is applied to it: read the
    state, do not change it."""
    for seed in seeds:
        s = new_game(seed)
        rng = random.Random(seed)
        while not s.is_over:
            yield seed, s
            apply(s, rng.choice(legal_actions(s)))
