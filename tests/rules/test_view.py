"""Rules 107-109, information [R30]: what ``view(state, p)`` shows Rlr p. The other Rlr's Hand,
drawn cards and pile order never appear; Recycle cards put there face up by an expel are known
until the pile is shuffled; Discard piles are open in casual play and closed in match play;
everything on the table is public. Two states that differ only in cards hidden from p give
equal views, and a state resampled from a view gives that view back."""

from __future__ import annotations

import json
import random

from parlor.rules.engine import new_game
from parlor.rules.state import State
from parlor.rules.view import SPECTATOR, TableCard, resample, view

from .scenario import all_but, cids, said, setup, zone

TABLE = """
    settings: step
    phasing: 1
    phase: window1
    1.life: 17
    1.pool: S1
    1.hand: 3H 4C 9H
    1.home: 7H 8H{t1} 9C
    1.field: KS/2:2D{i,d1}
    1.recycle: 5C
    1.discard: QC
    2.life: 19
    2.pool: D2
    2.hand: 7S QD 6D
    2.field: JH/3C{t1}
    2.recycle: ^KS 4S 2S
    2.discard: 5D
    2.domain: 1:6S
    trumps: 1:2H
"""


def dump(s: State, player: int) -> str:
    """Everything ``player`` is sent, as JSON text (log included)."""
    return json.dumps(view(s, player).to_dict())


def test_r30_the_other_rlr_hand_is_hidden_and_only_counted() -> None:
    s = setup(TABLE)
    mine, theirs = view(s, 0).sides
    assert (mine.hand, mine.hand_count) == (("3H", "4C", "9H"), 3)
    assert (theirs.hand, theirs.hand_count) == (None, 3)
    assert view(s, 1).sides[0].hand is None
    assert view(s, 1).sides[1].hand == ("7S", "QD", "6D")


def test_r30_no_hidden_card_appears_anywhere_in_a_view() -> None:
    s = setup(TABLE)
    # none of these faces is on the table, in a Discard pile or face up, so any mention of
    # one in the JSON sent to the other Rlr would be a leak
    rlr2_hidden = ("7S", "QD", "6D", "4S", "2S")  # Rlr 2's Hand and face-down Recycle cards
    rlr1_hidden = ("3H", "4C", "9H", "5C")  # Rlr 1's Hand and face-down Recycle card
    to_rlr1, to_rlr2 = dump(s, 0), dump(s, 1)
    assert [f for f in rlr2_hidden if f in to_rlr1] == []
    assert [f for f in rlr1_hidden if f in to_rlr2] == []
    # each Rlr does see its own
    assert [f for f in rlr1_hidden if f in to_rlr1] == list(rlr1_hidden)
    assert [f for f in rlr2_hidden if f in to_rlr2] == list(rlr2_hidden)


def test_r30_a_spectator_sees_both_sides_as_an_opponent_does() -> None:
    """A tournament's spectators (1300) get the public information only."""
    s = setup(TABLE)
    seen = view(s, SPECTATOR)
    assert [side.hand for side in seen.sides] == [None, None]
    assert seen.sides[0] == view(s, 1).sides[0] and seen.sides[1] == view(s, 0).sides[1]
    assert seen.drawn is None and seen.legal == ()
    text = json.dumps(seen.to_dict())
    assert [f for f in ("7S", "QD", "6D", "4S", "2S", "3H", "4C", "9H", "5C") if f in text] == []


def test_r30_two_states_differing_only_in_cards_hidden_from_p_give_equal_views() -> None:
    a = setup(TABLE + """
        2.draw: 10S 9S 8S
    """)
    b = setup(TABLE.replace("2.hand: 7S QD 6D", "2.hand: 9S KH 6D")
              .replace("2.recycle: ^KS 4S 2S", "2.recycle: ^KS 7S QD") + """
        2.draw: 8S 4S 10S 2S
    """)
    assert view(a, 0) == view(b, 0)
    assert dump(a, 0) == dump(b, 0)
    assert view(a, 1) != view(b, 1)  # Rlr 2 sees its own Hand and Recycle pile
    # the order of a Draw pile is hidden from everyone, its owner included
    c = setup(TABLE + """
        2.draw: 8S 9S 10S
        1.draw: 6C 7C
    """)
    assert (view(a, 0), view(a, 1)) == (view(c, 0), view(c, 1))


def test_r30_the_drawn_cards_are_hidden_from_the_other_rlr() -> None:
    s = setup("""
        phasing: 2
        phase: attack
        1.draw: 5H 9D
        2.hand: 5H
    """)
    said(s, "end")
    assert (view(s, 0).drawn, view(s, 0).drawn_count) == (("5H", "9D"), 2)
    assert (view(s, 1).drawn, view(s, 1).drawn_count) == (None, 2)
    assert view(s, 0).log[-1] == "You draw 5H, 9D"
    assert view(s, 1).log[-1] == "Rlr 1 draws 2 cards"
    said(s, "keep 9D")
    assert view(s, 0).log[-1] == "You keep 9D and recycle 5H"
    assert view(s, 1).log[-1] == "Rlr 1 keeps a card and recycles the other"
    assert "9D" not in dump(s, 1)


def test_108_r30_recycle_cards_are_hidden_except_those_put_there_face_up() -> None:
    s = setup(TABLE)
    theirs = view(s, 0).sides[1]
    assert (theirs.recycle_count, theirs.recycle_known) == (3, ("KS",))
    mine = view(s, 1).sides[1]  # the owner knows its whole Recycle pile
    assert (mine.recycle_count, mine.recycle_known) == (3, ("2S", "4S", "KS"))


def test_108_r30_an_expel_puts_cards_in_the_recycle_pile_face_up() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        1.hand: 3H
        1.home: 7H 8H 9C
        2.field: JH/3C
        2.recycle: 4S
    """)
    said(s, "expel 3H at 2:JH")
    assert zone(s, "2.recycle") == "^JH ^3C 4S"
    assert view(s, 0).sides[1].recycle_known == ("3C", "JH")
    assert view(s, 0).sides[0].discard == ("3H",)


def test_108_r30_face_up_recycle_cards_are_no_longer_known_once_shuffled_in() -> None:
    s = setup(f"""
        phasing: 2
        phase: attack
        1.recycle: ^KS 2S
        1.discard: {all_but("KS 2S")}
    """)
    assert view(s, 1).sides[0].recycle_known == ("KS",)
    said(s, "end")  # Rlr 1 must draw from an empty Draw pile: the Recycle pile is shuffled in
    assert (view(s, 1).sides[0].recycle_known, view(s, 1).sides[0].recycle_count) == ((), 0)
    assert zone(s, "1.recycle") == ""
    assert sorted(s.drawn) == sorted(cids(1, "KS 2S"))
    assert view(s, 1).drawn is None


def test_109_r30_discard_piles_are_open_in_casual_play_and_closed_in_match_play() -> None:
    s = setup(TABLE)
    assert (view(s, 0).sides[1].discard, view(s, 0).sides[1].discard_count) == (("5D",), 1)
    assert view(s, 1).sides[0].discard == ("QC",)
    m = setup(TABLE.replace("settings: step", "settings: step match_play"))
    assert (view(m, 0).sides[1].discard, view(m, 0).sides[1].discard_count) == (None, 1)
    assert (view(m, 0).sides[0].discard, view(m, 0).sides[0].discard_count) == (None, 1)


def test_107_the_table_life_pools_statuses_and_counts_are_public() -> None:
    s = setup(TABLE)
    v = view(s, 1)
    me, them = v.sides[1], v.sides[0]
    assert (them.life, them.pool, me.life, me.pool) == (17, (0, 0, 0, 1), 19, (0, 2, 0, 0))
    assert them.home == (
        TableCard("1:7H", "7H", (), "7H", None),
        TableCard("1:8H", "8H", (), "8H", 1),
        TableCard("1:9C", "9C", (), "9C", None),
    )
    assert them.field == (
        TableCard("1:KS", "KS", ("2:2D",), "KS/2D", None, inactive=True, damage=1, pwr=2, tgh=3),
    )
    assert me.field == (TableCard("2:JH", "JH", ("2:3C",), "JH/3C", 1, pwr=1, tgh=2),)
    assert me.domain == ("1:6S",)
    assert (v.stack, v.trump) == (("1:2H",), "H")
    assert (them.hand_count, them.draw_count, them.recycle_count) == (3, 41, 1)
    assert (v.turn, v.phasing, v.phase, v.actor) == (1, 0, "window1", 0)


def test_r30_only_the_rlr_to_decide_is_shown_its_legal_actions() -> None:
    s = setup(TABLE)
    assert view(s, 1).legal == ()
    assert view(s, 0).legal == ("play 9H", "pass")  # 3H and 4C are out of reach


def test_r30_a_state_resampled_from_a_view_gives_the_same_view() -> None:
    for s in (setup(TABLE), new_game(seed=5), new_game(seed=6)):
        for p in (0, 1):
            v = view(s, p)
            for n in range(3):
                r = resample(v, random.Random(n))
                assert view(r, p) == v
                cards = [c for zone in r.zones().values() for c in zone]
                assert sorted(cards) == list(range(104))
