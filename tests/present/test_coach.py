"""The coach's lines: one per kind of consequential decision, each derived from the state."""

from __future__ import annotations

from parlor.present.coach import coach
from parlor.rules.notation import parse_position


def test_attacking_taxes_the_attacker_through_the_opponents_turn_302_1() -> None:
    s = parse_position("phasing: 1\nphase: attack\n1.field: KS\n2.field: QH\n")
    lines = coach(s, 0, "the computer's")
    assert lines["attack KS"] == ("Attacking with KS taxes it after the combat: it cannot "
                                  "block on the computer's next turn (1006, 302.1)")


def test_no_warning_about_blocking_when_the_opponent_has_no_cre() -> None:
    s = parse_position("phasing: 1\nphase: attack\n1.field: KS\n")
    assert "attack KS" not in coach(s, 0)


def test_not_attacking_ends_the_turn_and_the_pool_will_burn_406_2_503() -> None:
    s = parse_position("phasing: 1\nphase: attack\n1.field: KS\n1.pool: H2\n")
    assert coach(s, 0)["end"] == ("Not attacking ends your turn (406.2); your 2 unspent mnr "
                                  "will burn: 2 life (503)")


def test_redraw_ends_the_turn_309_3() -> None:
    s = parse_position("phasing: 1\nphase: keep\n1.hand: 4D\ndrawn: 2C 3C\n")
    assert "ends your turn" in coach(s, 0)["redraw 4D"]


def test_blocking_taxes_the_blocker_through_your_next_turn() -> None:
    s = parse_position("phasing: 2\nphase: block\nactor: 1\n1.field: KH\n2.field: QC\n"
                       "combat: attackers=2:QC")
    assert "cannot attack then (1006, 302.1)" in coach(s, 0)["block KH 2:QC"]


def test_passing_closes_the_window_with_a_lnd_in_hand_and_mnr_in_the_pool() -> None:
    s = parse_position("phasing: 1\n1.hand: 9D\n1.pool: S1\n")
    line = coach(s, 0)["pass"]
    assert line.startswith("Passing closes the window (403.2)")
    assert "(603)" in line and "1 unspent mnr will burn (503)" in line


def test_a_self_taxing_ability_of_a_participant_704() -> None:
    s = parse_position("phasing: 1\nphase: ability_o\nactor: 2\n1.field: AH\n2.field: JS\n"
                       "combat: attackers=1:AH blocks=2:JS>1:AH")
    assert "deals no combat damage (704)" in coach(s, 1)["volley JS 1:AH"]


def test_a_cre_cast_in_the_second_window_misses_the_combat_409() -> None:
    s = parse_position("phasing: 1\nphase: window2\nactor: 2\n1.field: AH\n2.hand: AS\n"
                       "2.home: 7S 8S\ncombat: attackers=1:AH")
    assert "(409, 1002.1)" in coach(s, 1)["play AS"]


def test_an_enh_on_the_opponents_card_helps_the_opponent_804() -> None:
    s = parse_position("phasing: 1\n1.hand: 2H\n1.home: 7H 8H\n2.field: KS\n")
    lines = coach(s, 0, "the computer's")
    assert lines["play 2H on 2:KS"] == "This Enh joins the computer's counts, not yours (802, 804)"
    assert lines["play 2H on D2"].startswith("This Enh joins")
    assert "play 2H on D1" not in lines


def test_expelling_your_own_card_1105() -> None:
    s = parse_position("phasing: 1\n1.hand: 4C\n1.home: 7C 8C 9C 10C\n1.field: JH/3C\n")
    assert coach(s, 0)["expel 4C at 1:JH"].startswith("This expels one of your own cards")


def test_the_coach_is_silent_when_the_rlr_does_not_decide() -> None:
    s = parse_position("phasing: 1\nphase: attack\n1.field: KS\n2.field: QH\n")
    assert coach(s, 1) == {}
