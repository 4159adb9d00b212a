"""Rules 403-404 and 409, the play windows [R7]: one card per option, alternating; the first
pass closes the window, so if the first Rlr passes the other gets no option; P opens the first
window and O the second; either Rlr may play Cres and Enhs; a Cre cast in the second window
does not join the combat (R15). Illegal plays are refused, citing the rule, with nothing
changed."""

from __future__ import annotations

import pytest

from parlor.rules.actions import Action, WrongTurnError
from parlor.rules.state import DOMAIN, NONE, Phase

from .scenario import options, refused, said, setup, zone

BOTH_PLAY = """
    settings: step
    phasing: 1
    phase: window1
    1.hand: 2S 3C 10S
    1.home: 9S 8S 7C 8C
    1.field: KS
    2.hand: AD 2H 4C
    2.home: 9D 8D 7H 8H
"""


def test_403_1_r7_each_option_is_one_card_and_the_options_alternate() -> None:
    s = setup(BOTH_PLAY)
    assert (s.phase, s.actor) == (Phase.WINDOW1, 0)
    said(s, "play 2S on D1")
    assert (s.phase, s.actor) == (Phase.WINDOW1, 1)
    said(s, "play AD")
    assert (s.phase, s.actor) == (Phase.WINDOW1, 0)
    said(s, "play 10S")
    assert (s.phase, s.actor) == (Phase.WINDOW1, 1)
    said(s, "play 2H on 1:KS")
    assert (s.phase, s.actor) == (Phase.WINDOW1, 0)
    assert zone(s, "1.domain") == "2S"
    assert zone(s, "1.field") == "KS/2:2H"
    assert zone(s, "2.field") == "AD{i}"
    assert zone(s, "1.home") == "9S{t1} 8S 7C{t1} 8C 10S"


def test_403_2_r7_the_first_pass_closes_the_window() -> None:
    s = setup(BOTH_PLAY)
    said(s, "play 2S on D1", "play AD")
    said(s, "pass")  # P passes: O, who has playable cards, gets no further option
    assert (s.phase, s.actor) == (Phase.ATTACK, 0)
    assert zone(s, "2.hand") == "2H 4C"
    refused(s, "play 10S", "R7: Rlr 1 must now declare attackers, or end the turn; "
            "'play' is not possible (attack, done, end)")
    refused(s, "play 2H on D2", "R7: it is Rlr 1's decision, not Rlr 2's", player=1,
            error=WrongTurnError)


def test_403_2_r7_if_p_passes_first_o_gets_no_option() -> None:
    s = setup(BOTH_PLAY)
    assert "play AD" not in options(s)  # O's cards are not P's options
    assert said(s, "pass") == []
    assert (s.phase, s.actor) == (Phase.ATTACK, 0)
    assert (zone(s, "2.hand"), zone(s, "2.field"), zone(s, "2.home")) == (
        "AD 2H 4C", "", "9D 8D 7H 8H")


def test_403_3_r7_o_opens_the_second_window_and_if_o_passes_p_gets_no_option() -> None:
    s = setup(BOTH_PLAY)
    said(s, "pass", "attack KS", "done", "done", "done", "done")
    assert (s.phase, s.actor) == (Phase.WINDOW2, 1)
    assert options(s)[0] == "play AD" and options(s)[-1] == "pass"
    assert said(s, "pass") == ["Rlr 2 loses 2 life (unblocked attackers): 18 left"]
    # the combat is over and the next Turn Cycle's first window is P's
    assert (s.phase, s.actor) == (Phase.WINDOW1, 0)
    assert zone(s, "1.hand") == "2S 3C 10S"


def test_403_3_r7_in_the_second_window_p_answers_o() -> None:
    s = setup(BOTH_PLAY)
    said(s, "pass", "attack KS", "done", "done", "done", "done")
    said(s, "play 2H on D2")
    assert (s.phase, s.actor) == (Phase.WINDOW2, 0)
    said(s, "play 2S on 1:KS")
    assert (s.phase, s.actor) == (Phase.WINDOW2, 1)
    said(s, "pass")
    assert (s.phase, s.actor) == (Phase.WINDOW1, 0)


def test_403_4_r7_o_may_play_a_cre_to_its_own_field_in_p_first_window() -> None:
    s = setup(BOTH_PLAY)
    said(s, "play 2S on D1")
    assert said(s, "play AD") == [
        "Rlr 2 taxes 9D: +1 Diamonds mnr",
        "Rlr 2 taxes 7H: +1 Hearts mnr",
        "Rlr 2 pays 1 Diamonds, 1 Hearts mnr for AD",
        "Rlr 2 summons AD to the Field (inactive)",
    ]
    assert (zone(s, "2.field"), zone(s, "1.field")) == ("AD{i}", "KS")
    assert zone(s, "2.home") == "9D{t1} 8D 7H{t1} 8H"  # taxed on Rlr 1's turn (R4)


def test_403_4_r7_o_may_play_an_enh_on_p_cards_and_p_on_o_cards() -> None:
    s = setup(BOTH_PLAY)
    said(s, "play 3C on 2:9D", "play 2H on 1:KS")
    assert zone(s, "2.home") == "9D/1:3C{t1} 8D 7H{t1} 8H"
    assert zone(s, "1.field") == "KS/2:2H"


def test_404_a_play_taxes_then_pays_then_lays_the_card() -> None:
    s = setup(BOTH_PLAY)
    assert said(s, "play 3C on D2") == [
        "Rlr 1 taxes 7C: +1 Clubs mnr",
        "Rlr 1 taxes 8C: +1 Clubs mnr",
        "Rlr 1 taxes 9S: +1 Spades mnr",
        "Rlr 1 pays 2 Clubs, 1 Spades mnr for 3C",
        "Rlr 1 plays 3C on Rlr 2's Domain",
    ]
    assert zone(s, "2.domain") == "1:3C"


def test_409_r15_a_cre_cast_in_the_second_window_does_not_join_the_combat() -> None:
    s = setup(BOTH_PLAY)
    said(s, "pass", "attack KS", "done", "done", "done", "done")
    said(s, "play AD")  # too late to block
    assert s.combat is not None
    assert (s.combat.blocking, s.combat.blocked) == ({}, set())
    said(s, "pass")
    assert (s.life[1], zone(s, "2.field"), zone(s, "1.field")) == (18, "AD{i}", "KS{t1}")


def test_403_with_auto_play_a_rlr_with_nothing_to_play_passes_by_itself() -> None:
    s = setup("""
        phasing: 1
        phase: window1
        1.hand: 2S 10S
        1.home: 9S 8S
        1.field: KS
        2.hand: 6H
    """)
    said(s, "play 2S on D1")  # O cannot pay for 6H: its pass is its only choice
    assert (s.phase, s.actor, options(s)) == (Phase.ATTACK, 0, ["attack KS", "end"])


def test_403_step_by_step_the_forced_pass_is_given_explicitly() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        1.hand: 2S 10S
        1.home: 9S 8S
        1.field: KS
        2.hand: 6H
    """)
    said(s, "play 2S on D1")
    assert (s.phase, s.actor, options(s)) == (Phase.WINDOW1, 1, ["pass"])
    said(s, "pass")
    assert (s.phase, s.actor) == (Phase.ATTACK, 0)


@pytest.mark.parametrize(("action", "message"), [
    ("play 4H on D1", "403.1: 4H is not in Rlr 1's Hand"),
    ("play AD", "403.1: AD is not in Rlr 1's Hand"),
    ("play 2S", "801: an Enh needs a target: a Lnd, a Cre, a Domain or the Trumps stack"),
    ("play JS", "403.1: JS is not in Rlr 1's Hand"),
    ("attack KS", "R7: Rlr 1 must now play a card or pass; 'attack' is not possible "
                  "(play, expel, pass)"),
    ("keep 2S", "R7: Rlr 1 must now play a card or pass; 'keep' is not possible "
                "(play, expel, pass)"),
    ("play 2S on 2:2H", "801: that is not a target on the table"),
    ("expel 2S at D2", "1101: expel a Cre, a Lnd or one Enh that is on the table"),
    ("expel 2S at 1:9S", "1102.3: a Lnd is expelled only by outtrumping it"),
    ("expel 2S at T", "805.2: only a higher Enh of the top card's suit expels the top of the "
                      "Trumps stack"),
    (Action("play"), "R7: 'play' names one card of your Hand"),
    (Action("pass", NONE, DOMAIN[0]), "R7: 'pass' is said alone, with no card or target"),
])
def test_403_illegal_plays_are_refused_citing_the_rule_and_change_nothing(
        action: str | Action, message: str) -> None:
    refused(setup(BOTH_PLAY), action, message)


def test_403_4_a_cre_takes_no_target_and_an_unaffordable_card_is_refused() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        1.hand: AS KS 6S
        1.home: 9S 8S
    """)
    refused(s, "play AS on D1", "701: a Cre is played to its own Field, with no target")
    refused(s, "play KS", "206: KS costs 3S+2, more mnr than Rlr 1 can raise")
    refused(s, "play 6S on D1", "207: 6S costs 3S+3, more mnr than Rlr 1 can raise")


def test_r7_o_may_not_act_on_p_option() -> None:
    s = setup(BOTH_PLAY)
    refused(s, "play AD", "R7: it is Rlr 1's decision, not Rlr 2's", player=1,
            error=WrongTurnError)
    refused(s, "pass", "R7: it is Rlr 1's decision, not Rlr 2's", player=1,
            error=WrongTurnError)
