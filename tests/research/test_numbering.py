"""The fixed action numbering: every legal decision ↔ one integer, never colliding (R3, 1204)."""

from __future__ import annotations

import random

import pytest

from parlor.ai.numbers import action_number, action_numbers
from parlor.research.numbering import (
    NUM_DISTINCT_ACTIONS,
    UnnumberedActionError,
    decode,
    encode,
)
from parlor.rules.actions import Action
from parlor.rules.engine import apply, legal_actions, new_game


def test_the_numbering_is_a_bijection_over_its_whole_space() -> None:
    for n in range(NUM_DISTINCT_ACTIONS):
        assert encode(decode(n)) == n


def test_every_legal_action_of_random_games_round_trips_through_its_text() -> None:
    rng = random.Random(18)
    seen: dict[int, Action] = {}
    decisions = 0
    for seed in range(40):
        s = new_game(seed)
        s.log = None
        while not s.is_over:
            legal = legal_actions(s)
            numbers = [encode(a) for a in legal]
            assert len(set(numbers)) == len(legal), "two legal actions share a number"
            for a, n in zip(legal, numbers, strict=True):
                assert 0 <= n < NUM_DISTINCT_ACTIONS
                assert decode(n) == a
                assert encode(Action.parse(str(decode(n)))) == n
                assert seen.setdefault(n, a) == a, f"{n} names both {seen[n]} and {a}"
            apply(s, rng.choice(legal))
            decisions += 1
    assert decisions > 5000
    verbs = {a.verb for a in seen.values()}
    assert {"keep", "redraw", "play", "expel", "pass", "attack", "done", "end", "block",
            "assign"} <= verbs, verbs


def test_an_explicit_payment_is_numbered_as_its_decision_R3() -> None:
    assert encode(Action.parse("play KS tax 9S 8S spend SSC")) == encode(Action.parse("play KS"))


def test_resign_has_no_number_1204() -> None:
    with pytest.raises(UnnumberedActionError, match="1204"):
        encode(Action.parse("resign 1"))


def test_numbers_outside_the_space_are_refused() -> None:
    for n in (-1, NUM_DISTINCT_ACTIONS):
        with pytest.raises(UnnumberedActionError):
            decode(n)


def test_the_compiled_mask_numbers_equal_the_readable_numbering_everywhere() -> None:
    # parlor.ai.numbers (compiled, what the PettingZoo mask uses) against numbering.encode.
    actions = [decode(n) for n in range(NUM_DISTINCT_ACTIONS)]
    assert action_numbers(actions) == [encode(a) for a in actions]
    explicit = Action("play", 5, 200, (1, 2), (0,))  # an explicit payment: its decision's
    assert action_number(explicit) == encode(explicit)


def test_an_action_outside_the_numbering_has_no_compiled_number() -> None:
    with pytest.raises(ValueError, match="no action number"):
        action_numbers([Action("resign")])
