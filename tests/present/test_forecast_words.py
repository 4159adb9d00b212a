"""The fight's forecast in words (issue 41): the comparison with its bonus, the damage and the
deaths, each Rlr's life after, as the reader of the table reads them."""

from __future__ import annotations

from parlor.present.forecast import forecast_lines
from parlor.rules.notation import parse_position

UNDER_SPADES = ("phasing: 2\nphase: block\nactor: 1\ntrumps: 2:5S\n1.field: QC/4C KH\n"
                "2.field: QS/3S JD\n2.hand: 2H 3H\ncombat: attackers=2:QS,2:JD\n")


def test_1003_3_a_block_says_who_outtrumps_whom_with_the_bonus_and_who_dies() -> None:
    line = forecast_lines(parse_position(UNDER_SPADES), 0)["block QC 2:QS"]
    assert line.startswith("If nobody plays another card: ")
    assert ("the computer's Queen of Spades with 3♠ and Jack of Diamonds outtrumps your Queen "
            "of Clubs with 4♣ in Spades, 3 to 0: bonus 2 (1003.3)") in line
    assert "your Queen of Clubs takes 4 damage (Tgh 2): terminal, it dies (1007.2)" in line
    assert "the computer's Queen of Spades takes 2 damage (Tgh 2): terminal, it dies" in line
    assert line.endswith("life after: you 19 (−1), the computer 20")


def test_1004_2_an_attack_assumes_no_blocker_and_says_the_bonus_and_the_life_after() -> None:
    s = parse_position("phasing: 1\nphase: attack\n1.field: KS/4S QC\n2.field: JH\n"
                       "2.domain: 2S\n")
    line = forecast_lines(s, 0, "Rlr 2")["attack KS"]
    assert line == ("If Rlr 2 blocks nothing and nobody plays another card: your King of Spades "
                    "with 4♠ outranks Rlr 2's Domain (2♠) in Spades, 4 to 2: bonus 1 (1004.2); "
                    "life after: you 20, Rlr 2 17 (−3)")


def test_903_an_outshown_attacker_is_level_with_the_domain_no_bonus() -> None:
    s = parse_position("phasing: 1\nphase: attack\n1.field: QC\n2.domain: 2S\n")
    line = forecast_lines(s, 0)["attack QC"]
    assert "are level: they share no suit to rank in; the computer's Domain (2♠) outshows " \
           "your Queen of Clubs with 2 in Spades" in line
    assert "bonus" not in line


def test_1201_the_forecast_says_the_attack_wins() -> None:
    s = parse_position("phasing: 1\nphase: attack\n1.field: KS\n2.life: 2\n")
    assert forecast_lines(s, 0)["attack KS"].endswith(
        "life after: you 20, the computer 0 (−2); you win (1201)")


def test_1003_2_the_points_the_forecast_places_are_said() -> None:
    s = parse_position("phasing: 1\nphase: split\n1.field: KS/7S\n2.field: JH JD\n"
                       "combat: attackers=1:KS blocks=2:JH>1:KS,2:JD>1:KS blocked=1:KS "
                       "split=1:KS split_left=2\n")
    line = forecast_lines(s, 0)["assign 2:JH"]
    # the last point goes to the first blocker it does not find terminal: the Jack of Hearts
    assert "the computer's Jack of Hearts takes 2 damage (Tgh 2): terminal, it dies" in line
    assert line.endswith("assuming your split puts 1 on the computer's Jack of Hearts")


def test_no_forecast_outside_a_combat_decision() -> None:
    assert forecast_lines(parse_position("phasing: 1\n1.hand: 9D\n"), 0) == {}
    assert forecast_lines(parse_position(UNDER_SPADES), 1) == {}
