"""A view names its cards from tables written once (``view.CARD_TEXT``, ``view.REF_TEXT``)
instead of building each name anew: the names are those of the readable reference
(``card_text``, ``ref_text``, ``entity_text``), for every card and in random games. Its
table cards are made once for what they show and then found (``view._table_card``): each
is the one the reference (``make_table_card``) makes anew."""

from __future__ import annotations

import pickle
import random

from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.state import N_CARDS, State, card_text, ref_text
from parlor.rules.table import entity_text
from parlor.rules.values import Value
from parlor.rules.view import (
    _TABLE_CARDS,
    _ZONES,
    CARD_TEXT,
    REF_TEXT,
    SPECTATOR,
    TABLE_CARDS_KEPT,
    ZONES_KEPT,
    make_table_card,
    view,
)


def test_every_card_has_its_reference_name() -> None:
    assert tuple(card_text(c) for c in range(N_CARDS)) == CARD_TEXT
    assert tuple(ref_text(c) for c in range(N_CARDS)) == REF_TEXT


def _check(s: State) -> None:
    for player in (0, 1, SPECTATOR):
        v = view(s, player, log=False, trail=False)
        assert v.stack == tuple(ref_text(c) for c in s.stack)
        for q, side in enumerate(v.sides):
            for zone, cards in ((s.home[q], side.home), (s.field[q], side.field)):
                assert [c.ref for c in cards] == [ref_text(c) for c in zone]
                assert [c.card for c in cards] == [card_text(c) for c in zone]
                assert [c.text for c in cards] == [entity_text(s, c) for c in zone]
                assert [c.enhs for c in cards] == [
                    tuple(ref_text(e) for e in s.enhs.get(c, ())) for c in zone]
            assert side.domain == tuple(ref_text(e) for e in s.domain[q])
            if side.discard is not None:
                assert side.discard == tuple(card_text(c) for c in s.discard[q])
            if side.hand is not None:
                assert side.hand == tuple(card_text(c) for c in s.hand[q])
        if v.drawn is not None:
            assert v.drawn == tuple(card_text(c) for c in s.drawn)


def test_a_views_names_are_the_reference_names_in_random_games() -> None:
    for seed in range(6):
        s, rng = new_game(seed), random.Random(seed)
        for _ in range(400):
            if s.is_over:
                break
            _check(s)
            apply(s, rng.choice(legal_actions(s)))


def test_a_pickled_view_is_the_view_with_its_trail() -> None:
    """A view pickles its trail as plain tuples (View.__reduce__), and is the same view,
    trail included (a computer's view goes to its process pool pickled)."""
    s, rng = new_game(21), random.Random(21)
    for _ in range(120):
        apply(s, rng.choice(legal_actions(s)))
    for player in (0, 1, SPECTATOR):
        v = view(s, player)
        back = pickle.loads(pickle.dumps(v))
        assert back == v and back.trail == v.trail and back.log == v.log
        assert back.log_why == v.log_why
        assert all(type(step) is type(v.trail[0]) for step in back.trail)
        assert back.trail[-1].action == v.trail[-1].action


def test_a_table_card_found_is_the_one_made_anew_in_random_games() -> None:
    """Every table card of a view (found among those made before, for every viewer) equals
    the reference's, made from the state at that step; the cards kept stay bounded."""
    for seed in range(6):
        s, rng = new_game(seed), random.Random(seed)
        for _ in range(400):
            if s.is_over:
                break
            for player in (0, 1, SPECTATOR):
                v = view(s, player, log=False, trail=False)
                for q, side in enumerate(v.sides):
                    for zone, cards in ((s.home[q], side.home), (s.field[q], side.field)):
                        assert list(cards) == [make_table_card(s, c) for c in zone]
            apply(s, rng.choice(legal_actions(s)))
    assert 0 < len(_TABLE_CARDS) <= TABLE_CARDS_KEPT
    assert 0 < len(_ZONES) <= ZONES_KEPT


def test_a_zone_found_whole_is_made_anew_after_any_status_or_enh_change() -> None:
    """A zone is found whole (``view._zone``) only while every card of it shows the same:
    a change of one card's status or Enhs, or of the zone's order, gives the reference's
    cards at once (the same state changed in place, as a refresh changes a live one)."""
    s, rng = new_game(5), random.Random(5)
    while not any(len(z) >= 2 for z in s.home + s.field):
        apply(s, rng.choice(legal_actions(s)))
    q = next(q for q in (0, 1) if len(s.home[q]) >= 2)
    zone = s.home[q]

    def cards() -> list[object]:
        return list(view(s, 0, log=False, trail=False).sides[q].home)

    def reference() -> list[object]:
        return [make_table_card(s, c) for c in zone]

    assert cards() == reference()
    c = zone[1]
    for column in (s.inactive, s.damage, s.terminal, s.pwr_mod, s.tgh_mod):
        column[c] += 1
        assert cards() == reference()
    s.taxed[c] = 0 if s.taxed[c] != 0 else 1
    assert cards() == reference()
    s.enhs[c] = [s.draw[q][0]]
    assert cards() == reference() and cards()[1].enhs
    zone.reverse()
    assert cards() == reference()


def test_a_table_card_and_a_side_pickle_by_their_fields_in_order() -> None:
    """TableCard and SideView write their fields out for pickling (``__reduce__``): the
    same as :class:`Value`'s, which names them from the dataclass, in random games."""
    s, rng = new_game(22), random.Random(22)
    seen = 0
    for _ in range(300):
        for side in view(s, 0, log=False, trail=False).sides:
            assert side.__reduce__() == Value.__reduce__(side)
            for tc in side.home + side.field:
                assert tc.__reduce__() == Value.__reduce__(tc)
                seen += 1
            assert pickle.loads(pickle.dumps(side)) == side
        apply(s, rng.choice(legal_actions(s)))
    assert seen > 100
