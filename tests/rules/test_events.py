"""Events as data (issue 40): each event of a game is a value whose text form round-trips,
and its sentences are rendered from its fields."""

from __future__ import annotations

import random

import pytest

from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.events import Event


def test_every_event_of_real_games_round_trips_through_its_form() -> None:
    kinds = set()
    for seed in range(1, 6):
        s = new_game(seed)
        rng = random.Random(seed)
        while not s.is_over:
            apply(s, rng.choice(legal_actions(s)))
        for e in s.log or ():
            back = Event.parse(e.form())
            assert back == e, e.form()
            if e.kind != "bonus":  # a bonus is worded from its comparison, not in the form
                assert (back.text, back.secret) == (e.text, e.secret)
            kinds.add(e.kind)
    assert len(kinds) >= 15, kinds


@pytest.mark.parametrize("text", ["play by 1 cards KS", "turn by x", "draw cards 3:KS",
                                  "turn amounts two"])
def test_a_malformed_form_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        Event.parse(text)
