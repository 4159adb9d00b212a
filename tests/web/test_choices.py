"""The snapshot's ``choices``: the legal actions as the engine parses them, which the game page
reads instead of parsing the notation (static/js/moves.js). The page finds each acting card
by looking for its face among the drawn cards, then in the Hand, then on the reader's table:
these tests hold that it is always found there, where the verb's rule puts it."""

from __future__ import annotations

import random

from parlor.rules.actions import Action
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.state import State
from parlor.web.games import choices, table_view

#: Where the rules put the acting card of each verb: drawn (keep), Hand, or the table.
ZONE = {"keep": "drawn", "trim": "hand", "play": "hand", "expel": "hand", "redraw": "hand"}


def _zone_the_page_finds(s: State, card: str) -> str:
    """The lookup of moves.js actorKey, in the same order."""
    v = table_view(s, s.actor)
    if card in (v.drawn or ()):
        return "drawn"
    if card in (v.sides[s.actor].hand or ()):
        return "hand"
    on_table = {c.card for c in (*v.sides[s.actor].home, *v.sides[s.actor].field)}
    assert card in on_table, f"{card} is nowhere on the reader's side"
    return "table"


def test_each_choice_is_the_engine_parse_of_its_text_and_its_card_is_where_the_page_looks() -> None:
    checked = 0
    for seed in range(6):
        rng = random.Random(seed)
        s = new_game(seed)
        for _ in range(400):
            if s.is_over:
                break
            v = table_view(s, s.actor)
            for c in choices(v):
                a = Action.parse(c["text"])
                assert c["verb"] == a.verb and str(a) == c["text"]
                assert (c["card"] is None) == (a.card < 0)
                assert (c["target"] is None) == (a.target < 0)
                if c["card"] is not None:
                    assert _zone_the_page_finds(s, c["card"]) == ZONE.get(c["verb"], "table"), c
                checked += 1
            s = apply(s, rng.choice(legal_actions(s)))
    assert checked > 1000


def test_no_choices_when_it_is_not_the_readers_decision() -> None:
    s = new_game(4)
    assert choices(table_view(s, 1 - s.actor)) == []
