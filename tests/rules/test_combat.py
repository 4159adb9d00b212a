"""Scenario tests for rule 1000 Combat (with 406-409) and rulings R5, R8-R15.

Rlr 1 is P. Positions start at the attack (``phase: attack``) or in the second window with a
``combat:`` line. The default settings play forced steps by themselves, so after the last
decision the combat resolves on its own; P keeps a Lnd in Hand so that the game then waits in
the next Turn Cycle's first window (play the Lnd or pass) and the result can be read there.
"""

from __future__ import annotations

import pickle
import random

import pytest

from parlor.rules import combat
from parlor.rules.actions import Action, IllegalActionError
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.state import DOMAIN, FACE, NONE, STACK, Combat, Phase, begin_combat, end_combat

from .scenario import cid, legal, random_positions, refused, said, setup, zone

# --- 406 / 407: declaring attackers and blockers (R8-R10) ----------------------------------------


def test_406_2_r8_declining_to_attack_ends_the_turn() -> None:
    s = setup("""
        phasing: 1
        phase: attack
        1.field: KS
        2.draw: 7H 8H
    """)
    assert legal(s) == ["attack KS", "end"]
    assert said(s, "end")[:3] == [
        "Rlr 1 does not attack: the turn ends",
        "Turn 2: Rlr 2 is the phasing Rlr",
        "Rlr 2 draws 2 cards",
    ]
    assert s.phasing == 1 and s.phase is Phase.KEEP


def test_406_1_r8_at_most_six_attackers() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: attack
        1.field: AC AD AH AS JC JD JH
    """)
    for face in ("AC", "AD", "AH", "AS", "JC", "JD"):
        apply(s, f"attack {face}")
    assert legal(s) == ["done"]
    refused(s, "attack JH", "406.1: at most 6 Cres attack at once")


def test_406_1_r5_r9_inactive_or_taxed_cres_cannot_attack() -> None:
    s = setup("""
        phasing: 1
        phase: attack
        1.field: KS{i} QS{t1} QC{t2} JS
    """)
    assert legal(s) == ["attack JS", "end"]
    refused(s, "attack KS", "703: KS is inactive (it arrived this turn) and cannot attack")
    refused(s, "attack QS", "704: QS is taxed and cannot attack")
    refused(s, "attack QC", "704: QC is taxed and cannot attack")


def test_407_r9_r10_taxed_cres_cannot_block_inactive_ones_can() -> None:
    s = setup("""
        phasing: 1
        phase: block
        actor: 2
        1.field: KS
        2.field: QH{t1} QD{i}
        combat: attackers=1:KS
    """)
    assert legal(s) == ["block QD 1:KS", "done"]
    refused(s, "block QH 1:KS", "704: QH is taxed and cannot block")


def test_407_2_r10_at_most_three_blockers_per_attacker_each_blocks_one() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: block
        actor: 2
        1.field: KS KC
        2.field: AC AD AH AS
        combat: attackers=1:KS,1:KC
    """)
    for face in ("AC", "AD", "AH"):
        apply(s, f"block {face} 1:KS")
    assert legal(s) == ["block AS 1:KC", "done"]
    refused(s, "block AS 1:KS", "407.2: 1:KS has 3 blockers, the most an attacker can have")
    refused(s, "block AC 1:KC", "407.2: AC already blocks")


# --- 1003: blocked combat, the group bonus, splitting damage (R11, R13, R14) ---------------------


def test_906_1003_jh4h2s_attacks_qh_blocks_bonus_2_with_no_trump() -> None:
    s = setup("""
        phasing: 1
        phase: attack
        1.hand: 7C
        1.field: JH/4H/2S
        2.field: QH
    """)
    assert said(s, "attack JH", "block QH 1:JH") == [
        "Rlr 1 attacks with JH",
        "Rlr 2 blocks JH with QH",
        "JH/4H/2S outranks QH in Hearts, 4 to 1: bonus 2",
        "JH of Rlr 1 takes 2 damage (combat), terminal",
        "QH of Rlr 2 takes 3 damage (combat), terminal",
    ]
    assert zone(s, "1.field") == "JH/4H/2S{t1,d2,x}"
    assert zone(s, "2.field") == "QH{t1,d3,x}"
    assert s.life == [20, 20]
    assert (s.phase, s.actor) == (Phase.WINDOW1, 0)  # the next Turn Cycle


def test_906_1003_jh4h2s_attacks_qh_blocks_bonus_1_with_spades_trump() -> None:
    s = setup("""
        phasing: 1
        phase: attack
        trumps: 2:3S
        1.hand: 7C
        1.field: JH/4H/2S
        2.field: QH
    """)
    assert said(s, "attack JH", "block QH 1:JH")[2:] == [
        "JH/4H/2S outtrumps QH in Spades, 2 to 0: bonus 1",
        "JH of Rlr 1 takes 2 damage (combat), terminal",
        "QH of Rlr 2 takes 2 damage (combat), terminal",
    ]


def test_1003_example_jc2c4h_attacks_jh4c3h_blocks_terminal_jack() -> None:
    s = setup("""
        phasing: 1
        phase: attack
        1.hand: 7C
        1.field: JC/2C/4H
        2.field: JH/4C/3H
    """)
    # JC could Volley the JH: Rlr 1 declines. JH cannot Harry, since the JC side outranks it
    # (R27), so Rlr 2's ability step passes by itself.
    assert said(s, "attack JC", "block JH 1:JC", "done")[2:] == [
        "JC/2C/4H outranks JH/4C/3H in Hearts, 4 to 3: bonus 1",
        "JC of Rlr 1 takes 1 damage (combat)",
        "JH of Rlr 2 takes 2 damage (combat), terminal",
    ]
    assert zone(s, "1.field") == "JC/2C/4H{t1,d1}"
    assert zone(s, "2.field") == "JH/4C/3H{t1,d2,x}"


def test_1003_r13_group_bonus_all_attackers_vs_all_blockers() -> None:
    # AS alone shares no suit with QD/2H, but the unblocked KH/5D pitches in: the attackers
    # {C0 D5 H1 S1} outrank the blockers {D1 H2} in Diamonds 5 to 1, differential 4, bonus 2.
    s = setup("""
        phasing: 1
        phase: attack
        1.hand: 7C
        1.field: AS KH/5D
        2.field: QD/2H
    """)
    assert said(s, "attack AS", "attack KH", "block QD 1:AS")[3:] == [
        "AS+KH/5D outranks QD/2H in Diamonds, 5 to 1: bonus 2",
        "AS of Rlr 1 takes 2 damage (combat), terminal",
        "QD of Rlr 2 takes 3 damage (combat), terminal",
        "Rlr 2 loses 2 life (unblocked attackers): 18 left",
    ]
    assert s.life == [20, 18]


def test_1003_r13_no_group_bonus_without_the_unblocked_attacker() -> None:
    s = setup("""
        phasing: 1
        phase: attack
        1.hand: 7C
        1.field: AS KH/5D{t1}
        2.field: QD/2H
    """)
    assert said(s, "attack AS", "block QD 1:AS")[2:] == [
        "AS of Rlr 1 takes 2 damage (combat), terminal",
        "QD of Rlr 2 takes 1 damage (combat)",
    ]


def test_1003_3_r14_blockers_bonus_is_given_one_point_at_a_time_to_any_attacker() -> None:
    # Blockers {S5} outrank the attackers {C1 S1} in Spades, differential 4, bonus 2; Rlr 2
    # may give points to the unblocked AC as well as to the KS it blocks.
    s = setup("""
        phasing: 1
        phase: attack
        1.hand: 7C
        1.field: KS AC
        2.field: QS/5S
    """)
    # QS could Ally the KS (its side, QS/5S, is not outranked): Rlr 2 declines.
    assert said(s, "attack KS", "attack AC", "block QS 1:KS", "done")[3:] == [
        "QS/5S outranks KS+AC in Spades, 5 to 1: bonus 2",
    ]
    assert (s.phase, s.actor) == (Phase.BONUS, 1)
    assert legal(s) == ["bonus 1:KS", "bonus 1:AC"]
    refused(s, "bonus 2:QS", "1003.3: 2:QS is not an opposing Cre in the comparison: the bonus "
            "goes to 1:KS, 1:AC")
    assert said(s, "bonus 1:AC") == []
    assert legal(s) == ["bonus 1:KS", "bonus 1:AC"]
    assert said(s, "bonus 1:KS") == [
        "KS of Rlr 1 takes 3 damage (combat), terminal",
        "QS of Rlr 2 takes 2 damage (combat), terminal",
        "AC of Rlr 1 takes 1 damage (combat), terminal",
        "Rlr 2 loses 1 life (unblocked attackers): 19 left",
    ]
    assert zone(s, "1.field") == "KS{t1,d3,x} AC{t1,d1,x}"


def test_1003_2_r11_attacker_splits_its_pwr_among_blockers_one_point_at_a_time() -> None:
    s = setup("""
        phasing: 1
        phase: attack
        1.hand: 7C
        1.field: KS
        2.field: AH AD
    """)
    said(s, "attack KS", "block AH 1:KS", "block AD 1:KS")
    assert (s.phase, s.actor) == (Phase.SPLIT, 0)
    assert legal(s) == ["assign 2:AH", "assign 2:AD"]
    refused(s, "assign 1:KS", "1003.2: 1:KS does not block 1:KS: its Pwr is split among its "
            "blockers (2:AH, 2:AD)")
    apply(s, "assign 2:AH")
    assert said(s, "assign 2:AD") == [
        "KS of Rlr 1 takes 2 damage (combat)",
        "AH of Rlr 2 takes 1 damage (combat), terminal",
        "AD of Rlr 2 takes 1 damage (combat), terminal",
    ]
    s = setup("""
        phasing: 1
        phase: attack
        1.hand: 7C
        1.field: KS
        2.field: AH AD
    """)
    said(s, "attack KS", "block AH 1:KS", "block AD 1:KS", "assign 2:AD")
    assert said(s, "assign 2:AD")[1:] == ["AD of Rlr 2 takes 2 damage (combat), terminal"]
    assert zone(s, "2.field") == "AH{t1} AD{t1,d2,x}"


# --- 1004 / 1005: unblocked attackers against the Domain -----------------------------------------


def test_1004_example_domain_6s5c_gains_1_life_and_deals_1_bonus_then_attackers_deal_pwr() -> None:
    s = setup("""
        phasing: 1
        phase: attack
        1.hand: 7C
        1.field: KS/4S KC
        2.domain: 6S 5C
    """)
    assert said(s, "attack KS", "attack KC") == [
        "Rlr 1 attacks with KS",
        "Rlr 1 attacks with KC",
        "D:6S/5C outranks KS/4S+KC in Spades, 6 to 4: bonus 1",
        "Rlr 2 gains 1 life from the Domain: 21",
    ]
    assert (s.phase, s.actor) == (Phase.DOMAIN_BONUS, 1)
    assert legal(s) == ["bonus 1:KS", "bonus 1:KC"]
    refused(s, "bonus D2", "1004.1: D2 is not an unblocked attacker: the Domain's bonus goes to "
            "1:KS, 1:KC")
    assert said(s, "bonus 1:KC") == [
        "KC of Rlr 1 takes 1 damage (Domain bonus)",
        "Rlr 2 loses 4 life (unblocked attackers): 17 left",
    ]
    assert s.life == [20, 17]
    assert zone(s, "1.field") == "KS/4S{t1} KC{t1,d1}"


def test_1004_example_domain_5s5c_still_bonus_1() -> None:
    s = setup("""
        phasing: 1
        phase: attack
        1.hand: 7C
        1.field: KS/4S KC
        2.domain: 5S 5C
    """)
    assert said(s, "attack KS", "attack KC")[2:] == [
        "D:5S/5C outranks KS/4S+KC in Spades, 5 to 4: bonus 1",
        "Rlr 2 gains 1 life from the Domain: 21",
    ]
    apply(s, "bonus 1:KS")
    assert s.life == [20, 17]
    assert s.damage[cid("1:KS")] == 1


def test_1004_example_domain_4s5c_bonus_2_from_the_clubs() -> None:
    s = setup("""
        phasing: 1
        phase: attack
        1.hand: 7C
        1.field: KS/4S KC
        2.domain: 4S 5C
    """)
    assert said(s, "attack KS", "attack KC")[2:] == [
        "D:4S/5C outranks KS/4S+KC in Clubs, 5 to 1: bonus 2",
        "Rlr 2 gains 1 life from the Domain: 21",
    ]
    apply(s, "bonus 1:KS")
    assert said(s, "bonus 1:KC") == [
        "KS of Rlr 1 takes 1 damage (Domain bonus)",
        "KC of Rlr 1 takes 1 damage (Domain bonus)",
        "Rlr 2 loses 4 life (unblocked attackers): 17 left",
    ]


def test_1004_1_domain_that_outtrumps_gains_2_life() -> None:
    s = setup("""
        phasing: 1
        phase: attack
        trumps: 1:2H
        1.hand: 7C
        1.field: KS
        2.domain: 5H
    """)
    assert said(s, "attack KS")[1:] == [
        "D:5H outtrumps KS in Hearts, 5 to 0: bonus 3",
        "Rlr 2 gains 2 life from the Domain: 22",
        "KS of Rlr 1 takes 3 damage (Domain bonus), terminal",
        "Rlr 2 loses 2 life (unblocked attackers): 20 left",
    ]
    assert zone(s, "1.field") == "KS{t1,d3,x}"  # terminal, yet it dealt its Pwr (R12)


def test_1004_2_attackers_that_beat_the_domain_take_extra_life() -> None:
    s = setup("""
        phasing: 1
        phase: attack
        1.hand: 7C
        1.field: KS/5S
        2.domain: 2S
    """)
    assert said(s, "attack KS")[1:] == [
        "KS/5S outranks D:2S in Spades, 5 to 2: bonus 2",
        "Rlr 2 loses 2 life (the attackers outrank the Domain): 18 left",
        "Rlr 2 loses 2 life (unblocked attackers): 16 left",
    ]
    assert s.life == [20, 16]


def test_1004_3_empty_domain_is_never_ranked_even_by_a_trump_attacker() -> None:
    s = setup("""
        phasing: 1
        phase: attack
        trumps: 2:4S
        1.hand: 7C
        1.field: KS/6S
    """)
    assert said(s, "attack KS")[1:] == ["Rlr 2 loses 2 life (unblocked attackers): 18 left"]


# --- 1006 / 1007: taxing after combat, terminal Cres (R4, R12) -----------------------------------


def test_1006_1007_r4_r12_taxed_after_combat_terminal_cres_leave_at_the_next_untax() -> None:
    s = setup("""
        phasing: 1
        phase: attack
        1.hand: 7C
        1.field: KS AC QS
        2.field: KH QD
        2.draw: 8H 7H
    """)
    assert said(s, "attack KS", "attack AC", "done", "block KH 1:KS", "block QD 1:AC")[4:] == [
        "KS of Rlr 1 takes 2 damage (combat)",
        "AC of Rlr 1 takes 2 damage (combat), terminal",
        "KH of Rlr 2 takes 2 damage (combat)",
        "QD of Rlr 2 takes 1 damage (combat)",  # the terminal AC still deals its damage
    ]
    # Every participant is taxed on Rlr 1's turn; the terminal AC stays on the Field.
    assert zone(s, "1.field") == "KS{t1,d2} AC{t1,d2,x} QS"
    assert zone(s, "2.field") == "KH{t1,d2} QD{t1,d1}"
    assert legal(s) == ["play 7C", "pass"]
    apply(s, "pass")
    assert legal(s) == ["attack QS", "end"]
    assert said(s, "end") == [
        "Rlr 1 does not attack: the turn ends",
        "Turn 2: Rlr 2 is the phasing Rlr",
        "AC of Rlr 1 is eliminated: to Discard",
        "Rlr 2 draws 2 cards",
    ]
    # At Rlr 2's untax the terminal AC went to Discard and all damage ended; the cards taxed
    # on Rlr 1's turn, Rlr 2's blockers too, stay taxed through Rlr 2's turn (R4).
    assert zone(s, "1.discard") == "AC"
    assert zone(s, "1.field") == "KS{t1} QS"
    assert zone(s, "2.field") == "KH{t1} QD{t1}"


def test_401_r8_attacks_repeat_in_new_turn_cycles_with_the_cres_still_eligible() -> None:
    s = setup("""
        phasing: 1
        phase: attack
        1.hand: 7C 8C
        1.field: KS QS
    """)
    assert said(s, "attack KS", "done") == [
        "Rlr 1 attacks with KS",
        "Rlr 2 loses 2 life (unblocked attackers): 18 left",
    ]
    assert (s.phase, s.actor) == (Phase.WINDOW1, 0)  # a new Turn Cycle
    apply(s, "pass")
    assert legal(s) == ["attack QS", "end"]
    refused(s, "attack KS", "704: KS is taxed and cannot attack")
    assert said(s, "attack QS") == [
        "Rlr 1 attacks with QS",
        "Rlr 2 loses 2 life (unblocked attackers): 16 left",
    ]
    assert said(s, "pass")[:2] == [  # no eligible attacker is left: the turn ends
        "Rlr 1 does not attack: the turn ends",
        "Turn 2: Rlr 2 is the phasing Rlr",
    ]


# --- 1008 / R5: inactive and taxed participants --------------------------------------------------


def test_1008_r5_inactive_blocker_deals_no_damage_but_counts_in_the_comparison() -> None:
    s = setup("""
        phasing: 1
        phase: attack
        1.hand: 7C
        1.field: KH
        2.field: QH/3H{i}
    """)
    assert said(s, "attack KH", "block QH 1:KH")[2:] == [
        "QH/3H outranks KH in Hearts, 3 to 1: bonus 1",
        "KH of Rlr 1 takes 1 damage (combat)",  # the bonus only: the QH deals no damage
        "QH of Rlr 2 takes 2 damage (combat), terminal",
    ]
    assert zone(s, "2.field") == "QH/3H{t1,i,d2,x}"


# --- 1002 / R15: changes in the second window ----------------------------------------------------


def test_1002_1_r15_a_cre_cast_in_the_second_window_does_not_join_the_combat() -> None:
    s = setup("""
        phasing: 1
        phase: window2
        actor: 2
        1.hand: 7C
        1.field: KS
        2.hand: QD
        2.home: 7D 8D 9D 10D
        combat: attackers=1:KS
    """)
    apply(s, "play QD")
    assert said(s, "pass") == ["Rlr 2 loses 2 life (unblocked attackers): 18 left"]
    assert zone(s, "2.field") == "QD{i}"  # not blocking, not taxed
    assert zone(s, "1.field") == "KS{t1}"


def test_1002_2_r15_an_expelled_attacker_leaves_the_combat() -> None:
    s = setup("""
        phasing: 1
        phase: window2
        actor: 2
        1.hand: 7C
        1.field: KS AH
        2.hand: 2S
        2.home: 7S 8S
        2.field: QH
        combat: attackers=1:KS,1:AH blocks=2:QH>1:KS
    """)
    assert said(s, "expel 2S at 1:KS")[-1] == (
        "2S expels KS: outranks in Spades 2 to 1, 1 damage, to Recycle")
    assert zone(s, "combat").startswith("attackers=1:AH blocks=2:QH>- blocked=1:KS")
    assert said(s, "pass") == ["Rlr 2 loses 1 life (unblocked attackers): 19 left"]
    assert zone(s, "1.recycle") == "^KS"
    assert zone(s, "1.field") == "AH{t1}"
    assert zone(s, "2.field") == "QH{t1}"  # still a participant: taxed, no damage dealt


def test_1002_3_r15_an_attacker_whose_blockers_are_all_gone_stays_blocked() -> None:
    # Unblocked, KS/4S {S4} would outrank the Domain {S2} and deal 1 + 2. Blocked, it deals
    # nothing to Rlr 2 even though its only blocker was expelled.
    s = setup("""
        phasing: 1
        phase: window2
        actor: 2
        1.hand: 2S 7C
        1.home: 7S 8S
        1.field: KS/4S
        2.hand: 2D
        2.home: 7D 8D
        2.field: AS
        2.domain: 2S
        combat: attackers=1:KS blocks=2:AS>1:KS
    """)
    apply(s, "play 2D on D2")
    # Rlr 2 has nothing left to play, so its pass closes the window and the combat resolves:
    # the expel is the last thing that happens.
    assert said(s, "expel 2S at 2:AS")[-1] == (
        "2S expels AS: outranks in Spades 2 to 1, 1 damage, to Discard (eliminated)")
    assert (s.phase, s.actor) == (Phase.WINDOW1, 0)
    assert s.life == [20, 20]
    assert zone(s, "1.field") == "KS/4S{t1}"
    assert zone(s, "2.discard") == "AS"


def test_1000_a_combats_copy_is_equal_and_independent() -> None:
    # Combat is a plain class for the compiled build's sake; it keeps a dataclass's equality
    # and repr, field by field, and a state's clone must not share its lists (rule 1000)
    cb = Combat([3, 5], {3: [60]}, {60: 3}, {3}, {60}, {3: 2}, [5], 1, 2, [3], True)
    twin = cb.copy()
    assert twin == cb and repr(twin) == repr(cb)
    assert repr(cb).startswith("Combat(attackers=[3, 5], blockers={3: [60]}, blocking={60: 3}")
    assert pickle.loads(pickle.dumps(cb)) == cb
    twin.attackers.append(7)
    twin.blockers[3].append(61)
    twin.used.add(61)
    assert twin != cb
    assert cb.attackers == [3, 5] and cb.blockers == {3: [60]} and cb.used == {60}
    assert Combat() == Combat() and Combat() != cb


def test_406_an_attack_step_begins_in_the_last_combat_emptied() -> None:
    # A state begins each attack step in its last Combat (begin_combat): every field of a
    # used one, full or left empty, must read as a new Combat's, and a clone keeps no spare
    s = setup("phasing: 1\nphase: attack\n1.field: KS")
    full = Combat([3, 5], {3: [60]}, {60: 3}, {3}, {60}, {3: 2}, [5], 1, 2, [3], True)
    for used in (full, Combat([3], {}, {}, set(), {3}, {}, [], 0, 0, [], False)):
        s.combat = used
        end_combat(s)
        assert s.combat is None and s.spare_combat is used
        assert s.clone().spare_combat is None
        assert begin_combat(s) is used and s.combat is used
        assert used == Combat() and s.spare_combat is None


def test_406_407_attackers_and_blockers_are_listed_exactly_when_their_verify_accepts() -> None:
    """The attack and block listings ask the same verify as apply's refusal and "why not"
    (combat.verify_attack, combat.verify_block): at every attack and block step of seeded
    random games, a declaration naming any Cre of the deciding Rlr (and, for a block, any
    card as the attacker) is listed exactly when its verify answers None."""
    steps = 0
    for seed, s in random_positions(range(40)):
        listed = set(legal_actions(s))
        if s.phase is Phase.ATTACK:
            steps += 1
            for c in range(s.phasing * 52, s.phasing * 52 + 52):
                ok = combat.verify_attack(s, c) is None
                assert ok == (Action("attack", FACE[c]) in listed), (seed, c)
        elif s.phase is Phase.BLOCK:
            steps += 1
            for b in s.field[s.opponent]:
                for a in range(104):
                    ok = combat.verify_block(s, b, a) is None
                    assert ok == (Action("block", FACE[b], a) in listed), (seed, b, a)
    assert steps > 100


def test_406_3_1003_2_1003_3_1004_1_closing_and_points_are_listed_when_their_verify_accepts(
) -> None:
    """The attack step's close (done or end), the split's points and the bonus points are
    listed exactly when their verify answers None (combat.verify_close_attack,
    verify_assign, verify_bonus: the ones apply's refusal and "why not" render), at every
    attack, split and bonus step of seeded random games, for every card as the target."""
    seen: set[Phase] = set()
    for seed, s in random_positions(range(40)):
        listed = set(legal_actions(s))
        if s.phase is Phase.ATTACK:
            for verb in ("done", "end"):
                ok = combat.verify_close_attack(s, verb) is None
                assert ok == (Action(verb) in listed), (seed, verb)
        elif s.phase in (Phase.SPLIT, Phase.BONUS, Phase.DOMAIN_BONUS):
            seen.add(s.phase)
            verb = "assign" if s.phase is Phase.SPLIT else "bonus"
            verify = combat.verify_assign if verb == "assign" else combat.verify_bonus
            for t in [*range(104), *DOMAIN, STACK]:
                ok = verify(s, t) is None
                assert ok == (Action(verb, NONE, t) in listed), (seed, verb, t)
    assert seen == {Phase.SPLIT, Phase.BONUS, Phase.DOMAIN_BONUS}


def test_r7_a_built_action_of_the_wrong_form_is_refused_with_a_reason() -> None:
    """An action no text parses to (a ``done`` naming a card, a ``block`` with no attacker,
    an ability naming the Domain) is refused with the rule, never an engine fault, at every
    attack, block and ability step of seeded random games."""
    verbs = ("attack", "block", "volley", "sally", "harry", "ally", "carry", "done", "end",
             "assign", "bonus")
    phases = (Phase.ATTACK, Phase.BLOCK, Phase.ABILITY_P, Phase.ABILITY_O, Phase.SPLIT,
              Phase.BONUS, Phase.DOMAIN_BONUS)
    for seed in range(12):
        s = new_game(seed)
        rng = random.Random(seed)
        while not s.is_over:
            if s.phase in phases:
                listed = set(legal_actions(s))
                for verb in verbs:
                    for card in (NONE, FACE[rng.randrange(104)]):
                        for target in (NONE, STACK, DOMAIN[0], rng.randrange(104)):
                            a = Action(verb, card, target)
                            if a not in listed:
                                with pytest.raises(IllegalActionError, match=r"^\S+: "):
                                    apply(s, a)
            apply(s, rng.choice(legal_actions(s)))
