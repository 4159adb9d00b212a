"""Rules 300 Turn sequence: the roles swap when P declines to attack (301, R8), turn-taxing
(302, R4), inactivity (303, R5), the order of a turn's first steps (304), Turn Cycles that
repeat while P attacks (401, R8), the turn limit and resigning (1203, 1204, R17), and the
wrong Rlr's actions (R7)."""

from __future__ import annotations

from parlor.rules.actions import GameOverError, WrongTurnError
from parlor.rules.engine import apply, legal_actions, returns
from parlor.rules.notation import position
from parlor.rules.state import Phase

from .scenario import options, refused, said, setup, texts, zone


def test_301_r8_declining_to_attack_ends_the_turn_and_the_roles_swap() -> None:
    s = setup("""
        phasing: 1
        phase: attack
        1.field: KS
        2.draw: 5H 9D
    """)
    assert options(s) == ["attack KS", "end"]
    assert said(s, "end") == [
        "Rlr 1 does not attack: the turn ends",
        "Turn 2: Rlr 2 is the phasing Rlr",
        "Rlr 2 draws 2 cards",
    ]
    assert (s.turn, s.phasing, s.actor, s.phase) == (2, 1, 1, Phase.KEEP)
    assert zone(s, "drawn") == "5H 9D"


def test_302_r4_a_card_untaxes_only_when_the_rlr_on_whose_turn_it_was_taxed_next_phases() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: attack
        1.home: 7C{t1} 8C{t2}
        1.field: KS{t1} QS{t2}
        2.home: 9D{t1} 10D{t2}
        2.field: KD{t1} QD{t2}
    """)
    said(s, "end")
    # Rlr 2's turn: only the cards taxed on Rlr 2's turn untax, whoever owns them
    assert s.phasing == 1
    assert zone(s, "1.home") == "7C{t1} 8C"
    assert zone(s, "1.field") == "KS{t1} QS"
    assert zone(s, "2.home") == "9D{t1} 10D"
    assert zone(s, "2.field") == "KD{t1} QD"
    assert texts(s)[1:3] == [
        "Turn 2: Rlr 2 is the phasing Rlr",
        "Rlr 2 untaxes 4 cards taxed on their turn",
    ]


def test_302_1_r4_o_lnds_taxed_paying_on_p_turn_stay_taxed_through_o_turn() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        1.hand: 2S 10S
        1.home: 9S 8S
        1.field: KS
        2.hand: AD 2D
        2.home: 9D 8D
        2.draw: 5H 9C 4C 3C
        1.draw: 6H 6C
    """)
    said(s, "play 2S on D1")
    # O takes its option in P's first window and pays by taxing its Lnds on P's turn
    assert said(s, "play AD") == [
        "Rlr 2 taxes 9D: +1 Diamonds mnr",
        "Rlr 2 taxes 8D: +1 Diamonds mnr",
        "Rlr 2 pays 2 Diamonds mnr for AD",
        "Rlr 2 summons AD to the Field (inactive)",
    ]
    assert zone(s, "2.home") == "9D{t1} 8D{t1}"
    said(s, "pass", "end")
    # O's own turn: the Lnds taxed on Rlr 1's turn stay taxed, so O cannot raise mnr for 2D
    assert (s.turn, s.phasing, s.phase) == (2, 1, Phase.KEEP)
    assert zone(s, "2.home") == "9D{t1} 8D{t1}"
    said(s, "keep 5H")
    assert (s.phase, s.actor) == (Phase.WINDOW1, 1)
    assert options(s) == ["pass"]
    refused(s, "play 2D on D2", "207: 2D costs 1D+1, more mnr than Rlr 2 can raise")
    said(s, "pass", "end")
    # P's next turn: now they untax, and so do P's own 9S and 8S
    assert (s.turn, s.phasing) == (3, 0)
    assert zone(s, "2.home") == "9D 8D"
    assert zone(s, "1.home") == "9S 8S"


def test_303_r5_a_cre_summoned_this_turn_cannot_attack() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: attack
        1.field: KS AS{i}
    """)
    assert options(s) == ["attack KS", "end"]
    refused(s, "attack AS", "703: AS is inactive (it arrived this turn) and cannot attack")


def test_303_r5_inactivity_ends_at_the_start_of_the_next_turn_of_either_rlr() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: attack
        1.field: KS{i}
        2.field: QD{i}
    """)
    said(s, "end")
    # Rlr 2's turn starts: P's KS and O's QD, both summoned on Rlr 1's turn, are active
    assert zone(s, "1.field") == "KS"
    assert zone(s, "2.field") == "QD"
    said(s, "keep AC", "pass")
    assert options(s) == ["attack QD", "end"]


def test_303_r5_an_inactive_cre_may_block_but_deals_no_damage_and_uses_no_ability() -> None:
    text = """
        settings: step
        phasing: 1
        phase: attack
        1.field: KS JS{flags}
        2.field: AD{{i}}
    """
    s = setup(text.format(flags="{i}"))
    said(s, "attack KS", "done")
    assert options(s) == ["block AD 1:KS", "done"]
    said(s, "block AD 1:KS", "done")
    assert options(s) == ["done"]  # the inactive JS may not Volley
    assert said(s, "done", "done", "pass") == ["AD of Rlr 2 takes 2 damage (combat), terminal"]
    assert zone(s, "1.field") == "KS{t1} JS{i}"  # KS took no damage from the inactive AD
    assert zone(s, "2.field") == "AD{t1,i,d2,x}"
    # the same JS, active, could have Volleyed the blocker
    s = setup(text.format(flags=""))
    said(s, "attack KS", "done", "block AD 1:KS", "done")
    assert options(s) == ["volley JS 2:AD", "done"]


def test_304_a_turn_starts_with_untax_then_burn_then_trim_then_draw() -> None:
    s = setup("""
        phasing: 2
        phase: attack
        1.pool: H2 C1
        1.hand: 4C 2S 3S 4S 5S 6S 9S 10S
        1.home: 8C{t1} 9C{t2}
        1.draw: 5H 9D
    """)
    assert said(s, "end") == [
        "Rlr 2 does not attack: the turn ends",
        "Turn 2: Rlr 1 is the phasing Rlr",
        "Rlr 1 untaxes 1 card taxed on their turn",
        "Rlr 1 burns 3 mnr: 17 life",
    ]
    assert (s.phase, s.actor) == (Phase.TRIM, 0)
    assert zone(s, "1.home") == "8C 9C{t2}"
    assert (s.life, zone(s, "1.pool")) == ([17, 20], "")
    assert said(s, "trim 4C") == ["Rlr 1 recycles a card to keep 7 in Hand", "Rlr 1 draws 2 cards"]
    assert s.phase is Phase.KEEP


def test_304_1_r12_terminal_cres_go_to_discard_and_damage_ends_at_the_untax() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: attack
        1.field: KS{t1,d3,x} QS{t1,d1,p+1,g+1}
        2.field: KH/2:4H{t1,d2,x} JD{t1,d1,g+1}
    """)
    assert said(s, "end")[1:] == [
        "Turn 2: Rlr 2 is the phasing Rlr",
        "KS of Rlr 1 is eliminated: to Discard",
        "KH of Rlr 2 is eliminated: to Discard",
        "Rlr 2 draws 2 cards",
    ]
    # the survivors lose their damage and Sally/Harry changes but stay taxed (taxed on Rlr 1's
    # turn, they untax when Rlr 1's next turn starts)
    assert zone(s, "1.field") == "QS{t1}"
    assert zone(s, "2.field") == "JD{t1}"
    assert (zone(s, "1.discard"), zone(s, "2.discard")) == ("KS", "KH 4H")


def test_401_r8_attacks_repeat_in_new_turn_cycles_while_p_has_eligible_cres() -> None:
    s = setup("""
        phasing: 1
        phase: window1
        1.hand: 7S
        1.field: KS QS
    """)
    said(s, "pass")
    assert options(s) == ["attack KS", "attack QS", "end"]
    said(s, "attack KS", "done")
    # the combat resolved (no blockers, O has no cards) and a new Turn Cycle began
    assert (s.phase, s.actor, s.life[1]) == (Phase.WINDOW1, 0, 18)
    said(s, "pass")
    assert options(s) == ["attack QS", "end"]
    said(s, "attack QS")
    assert (s.phase, s.life[1]) == (Phase.WINDOW1, 16)
    # no eligible Cre is left: the attack step can only end the turn, and it does by itself
    assert said(s, "pass")[:2] == [
        "Rlr 1 does not attack: the turn ends",
        "Turn 2: Rlr 2 is the phasing Rlr",
    ]


def test_406_3_attackers_are_declared_one_at_a_time_then_done() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: attack
        1.field: KS QS
    """)
    refused(s, "done", "406.2: declare at least one attacker, or end the turn")
    said(s, "attack KS")
    assert options(s) == ["attack QS", "done"]
    refused(s, "end", "406.3: attackers are declared: say done")
    refused(s, "attack KS", "406.1: KS is already attacking")
    said(s, "done")
    assert (s.phase, s.actor) == (Phase.BLOCK, 1)


def test_406_1_r8_at_most_6_cres_attack_at_once() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: attack
        1.field: KS QS AS JS KH QH AH
    """)
    said(s, "attack KS", "attack QS", "attack AS", "attack JS", "attack KH", "attack QH")
    assert options(s) == ["done"]
    refused(s, "attack AH", "406.1: at most 6 Cres attack at once")


def test_r7_an_action_by_the_rlr_not_to_decide_is_a_wrong_turn_error() -> None:
    s = setup("""
        phasing: 1
        phase: window1
        1.hand: 7S
        2.hand: 7D
    """)
    refused(s, "pass", "R7: it is Rlr 1's decision, not Rlr 2's", player=1, error=WrongTurnError)
    refused(s, "play 7D", "R7: it is Rlr 1's decision, not Rlr 2's", player=1,
            error=WrongTurnError)


def test_1203_r17_the_game_is_drawn_when_turn_max_turns_ends() -> None:
    text = """
        settings: max_turns=3
        turn: {turn}
        phasing: 2
        phase: attack
        1.hand: 7S
    """
    s = setup(text.format(turn=2))
    said(s, "end")
    assert (s.turn, s.phase, s.winner) == (3, Phase.KEEP, None)
    s = setup(text.format(turn=3))
    assert said(s, "end") == [
        "Rlr 2 does not attack: the turn ends",
        "Draw: the turn limit of 3 turns is reached",
    ]
    assert (s.phase, s.winner, s.result) == (
        Phase.OVER, None, "Draw: the turn limit of 3 turns is reached")
    assert returns(s) == (0.0, 0.0)
    assert legal_actions(s) == []


def test_1203_r17_a_redraw_turn_counts_towards_the_limit() -> None:
    s = setup("""
        settings: max_turns=3
        turn: 3
        phasing: 1
        phase: keep
        drawn: 5H 9D
        1.hand: 4C
    """)
    said(s, "redraw 4C", "keep AC")
    assert (s.phase, s.winner, s.result) == (
        Phase.OVER, None, "Draw: the turn limit of 3 turns is reached")


def test_1204_r17_a_rlr_may_resign_at_any_decision() -> None:
    s = setup("""
        phasing: 1
        phase: window1
        1.hand: 7S
    """)
    assert said(s, "resign") == ["Rlr 2 wins: Rlr 1 resigns"]
    assert (s.phase, s.winner, s.result) == (Phase.OVER, 1, "Rlr 2 wins: Rlr 1 resigns")
    assert returns(s) == (-1.0, 1.0)
    assert [str(a) for a in s.history] == ["resign 1"]


def test_1204_r17_the_rlr_not_to_decide_may_resign_too() -> None:
    s = setup("""
        phasing: 1
        phase: window1
        1.hand: 7S
    """)
    apply(s, "resign", 1)
    assert (s.winner, s.result) == (0, "Rlr 1 wins: Rlr 2 resigns")
    assert returns(s) == (1.0, -1.0)
    assert [str(a) for a in s.history] == ["resign 2"]
    s = setup("""
        phasing: 1
        phase: window1
        1.hand: 7S
    """)
    said(s, "resign 2")
    assert (s.winner, s.result) == (0, "Rlr 1 wins: Rlr 2 resigns")


def test_r16_no_action_is_possible_once_the_game_is_over() -> None:
    s = setup("""
        phasing: 1
        phase: window1
        1.hand: 7S
    """)
    said(s, "resign")
    before = position(s)
    for action in ("play 7S", "pass", "resign"):
        refused(s, action, "R16: the game is over (Rlr 2 wins: Rlr 1 resigns)",
                error=GameOverError)
    assert position(s) == before
