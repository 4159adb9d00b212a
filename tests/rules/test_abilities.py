"""Scenario tests for rule 700, Cres and their abilities, and rulings R5, R9, R27, R28.

Rlr 1 is P. Most positions start in P's ability step (``phase: ability_p``) with a ``combat:``
line, and use ``settings: step`` so that every decision is written out: P's abilities then
``done``, O's abilities then ``done``, then the second window (O first) and the combat.
"""

from __future__ import annotations

import itertools
import random
import textwrap

import pytest

from parlor.rules import combat, ranking
from parlor.rules.actions import Action
from parlor.rules.cards import CARDS, IS_RED
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.ranking import Entity
from parlor.rules.state import FACE, NONE, Phase, State

from .scenario import cid, legal, refused, said, setup, zone

#: The refusal of an ability whose target's side beats the user's (706, R27): target, user,
#: ability.
BEATEN = ("706: the side of {} outranks or outtrumps {}'s side: the {} fails the ability check")


# --- 701 / 703: casting, inactivity (R5) ---------------------------------------------------------


def test_701_r5_a_cre_enters_its_casters_field_untaxed_and_inactive() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        1.hand: KS
        1.home: 7S 8S 9S 10S 7C
        2.hand: AD
        2.home: 7D 8D
    """)
    assert said(s, "play KS")[-1] == "Rlr 1 summons KS to the Field (inactive)"
    assert said(s, "play AD")[-1] == "Rlr 2 summons AD to the Field (inactive)"  # O may too
    assert zone(s, "1.field") == "KS{i}"
    assert zone(s, "2.field") == "AD{i}"
    apply(s, "pass")  # P passes: the window closes
    assert legal(s) == ["end"]  # the new KS cannot attack (703)
    refused(s, "attack KS", "703: KS is inactive (it arrived this turn) and cannot attack")


def test_703_r5_inactivity_ends_at_the_start_of_the_next_turn_of_either_rlr() -> None:
    s = setup("""
        phasing: 1
        phase: attack
        1.field: KS{i}
        2.field: QD{i}
        2.draw: 7H 8H
    """)
    apply(s, "end")
    assert zone(s, "1.field") == "KS"  # Rlr 2's turn began: Rlr 1's KS is active too
    assert zone(s, "2.field") == "QD"


def test_703_r5_an_inactive_cre_uses_no_ability() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: ability_p
        1.field: KH JS{i}
        2.field: QD
        combat: attackers=1:KH blocks=2:QD>1:KH
    """)
    assert legal(s) == ["sally KH", "done"]
    refused(s, "volley JS 2:QD", "703: JS is inactive (summoned this turn) and uses no ability")


def test_705_1_r28_abilities_are_used_only_in_the_ability_steps() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: window2
        actor: 2
        1.field: KH
        2.field: QD JS
        combat: attackers=1:KH blocks=2:QD>1:KH
    """)
    refused(s, "volley JS 1:KH",
            "R7: Rlr 2 must now play a card or pass; 'volley' is not possible (play, expel, pass)")


# --- 707: Volley ---------------------------------------------------------------------------------


def test_707_r28_volley_taxes_the_user_and_deals_1_damage_to_a_blocker() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: ability_p
        1.field: KH JS
        2.field: QH
        combat: attackers=1:KH blocks=2:QH>1:KH
    """)
    assert legal(s) == ["sally KH", "volley JS 2:QH", "done"]
    assert said(s, "volley JS 2:QH") == [
        "JS Volleys 2:QH: 1 damage",
        "QH of Rlr 2 takes 1 damage (Volley by JS)",
    ]
    assert zone(s, "1.field") == "KH JS{t1}"
    assert zone(s, "2.field") == "QH{d1}"
    assert said(s, "done", "done", "pass") == [
        "KH of Rlr 1 takes 2 damage (combat)",
        "QH of Rlr 2 takes 2 damage (combat), terminal",
    ]
    assert zone(s, "2.field") == "QH{t1,d3,x}"


def test_707_r28_javelin_jc_may_not_target_an_unblocked_attacker_js_may() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: ability_o
        actor: 2
        1.field: KS AD
        2.field: QH JC JS
        combat: attackers=1:KS,1:AD blocks=2:QH>1:KS
    """)
    assert legal(s) == [
        "volley JC 1:KS",
        "volley JS 1:KS", "volley JS 1:AD",
        "done",
    ]
    refused(s, "volley JC 1:AD", "707: JC may not Volley an unblocked attacker (1:AD)")
    assert said(s, "volley JS 1:AD") == [
        "JS Volleys 1:AD: 1 damage",
        "AD of Rlr 1 takes 1 damage (Volley by JS), terminal",
    ]
    # The terminal AD still deals its Pwr to Rlr 2 (R12).
    assert said(s, "done", "pass")[-1] == "Rlr 2 loses 1 life (unblocked attackers): 19 left"
    assert zone(s, "2.field") == "QH{t1,d2,x} JC JS{t1}"


def test_704_707_an_attacker_that_volleys_is_taxed_and_deals_no_combat_damage() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: ability_p
        1.field: JS
        2.field: QH
        combat: attackers=1:JS blocks=2:QH>1:JS
    """)
    said(s, "volley JS 2:QH", "done", "done")
    assert said(s, "pass") == ["JS of Rlr 1 takes 2 damage (combat), terminal"]
    assert zone(s, "2.field") == "QH{t1,d1}"  # only the Volley's point


def test_706_r27_volley_fails_when_the_target_outranks_the_user() -> None:
    # KS/3S {S3} outranks JS {S1}: not offered. AH/2D with Diamonds trump outtrumps it.
    s = setup("""
        settings: step
        phasing: 1
        phase: ability_o
        actor: 2
        trumps: 1:3D
        1.field: KS/3S AH/2D QC
        2.field: JS
        combat: attackers=1:KS,1:AH,1:QC
    """)
    assert legal(s) == ["volley JS 1:QC", "done"]
    refused(s, "volley JS 1:KS", BEATEN.format("1:KS", "JS", "Volley"))


def test_706_1_r27_a_blockers_side_is_all_the_blockers_on_its_attacker() -> None:
    # QH alone {H1} is level with JS {S1}, but its side is QH + AS/2S {H1 S2}, which outranks.
    s = setup("""
        settings: step
        phasing: 1
        phase: ability_p
        1.field: JS
        2.field: QH AS/2S
        combat: attackers=1:JS blocks=2:QH>1:JS,2:AS>1:JS
    """)
    assert legal(s) == ["done"]
    s = setup("""
        settings: step
        phasing: 1
        phase: ability_p
        1.field: JS
        2.field: QH
        combat: attackers=1:JS blocks=2:QH>1:JS
    """)
    assert legal(s) == ["volley JS 2:QH", "done"]


def test_706_1_r27_a_blocking_users_side_is_its_group_in_any_fight() -> None:
    # O's JS blocks KS/2S together with QS/4S: its side is {S4}. Its Volley at the other
    # attacker AS/3S {S3} should therefore work (S4 is not outranked by S3).
    s = setup("""
        settings: step
        phasing: 1
        phase: ability_o
        actor: 2
        1.field: KS/2S AS/3S
        2.field: QS/4S JS
        combat: attackers=1:KS,1:AS blocks=2:QS>1:KS,2:JS>1:KS
    """)
    assert "volley JS 1:AS" in legal(s)


def o_step(lines: str) -> State:
    """O's ability step in P's attack, every decision written out (settings: step)."""
    return setup("settings: step\nphasing: 1\nphase: ability_o\nactor: 2\n"
                 + textwrap.dedent(lines))


def test_706_1_r27_the_js_volley_is_judged_with_the_qh_beside_it() -> None:
    # KC and AH/4H attack; JS and QH block KC. JS's side is JS + QH {S1, H1}: AH/4H
    # {S1, H4} outranks it in Hearts 4 to 1, so `volley JS 1:AH` is refused.
    s = o_step("""
        1.field: KC AH/4H
        2.field: JS QH
        combat: attackers=1:KC,1:AH blocks=2:JS>1:KC,2:QH>1:KC
    """)
    refused(s, "volley JS 1:AH", BEATEN.format("1:AH", "JS", "Volley"))
    # With QH blocking AH instead, JS's side is JS {S1}: level with AH/4H, so it works.
    s = o_step("""
        1.field: KC AH/4H
        2.field: JS QH
        combat: attackers=1:KC,1:AH blocks=2:JS>1:KC,2:QH>1:AH
    """)
    assert said(s, "volley JS 1:AH") == ["JS Volleys 1:AH: 1 damage",
                                         "AH of Rlr 1 takes 1 damage (Volley by JS), terminal"]


def test_706_1_r27_a_blocking_queen_carries_with_the_whole_group_of_blockers() -> None:
    # With Spades trump, KC attacks and O blocks it with QH and AS/2S. QH alone {H1} is
    # outranked by P's 8H {H8}, but her side {H1, S2} outtrumps it (S2 against 0): she
    # Carries it, as a blocking JS Volleys with its group (the same reading, 706.1).
    s = o_step("""
        trumps: 1:4S
        1.field: KC
        1.home: 8H
        2.field: QH AS/2S
        combat: attackers=1:KC blocks=2:QH>1:KC,2:AS>1:KC
    """)
    assert said(s, "carry QH 1:8H") == ["QH Carries 1:8H: +1 Hearts mnr for Rlr 2"]
    # A Queen outside the combat is her own side: the same QH cannot Carry the 8H.
    s = o_step("""
        trumps: 1:4S
        1.field: KC
        1.home: 8H
        2.field: QH AS/2S
        combat: attackers=1:KC blocks=2:AS>1:KC
    """)
    refused(s, "carry QH 1:8H", BEATEN.format("1:8H", "QH", "Carry"))


def test_706_1_r27_a_blocking_queens_group_can_also_lose_her_the_carry() -> None:
    # QH alone {H1} Carries 9D {D9} (outshown, not outranked, 711.3); beside AD/2D her side
    # is {H1, D2}, which the 9D outranks in Diamonds 9 to 2.
    s = o_step("""
        1.field: KC
        1.home: 9D
        2.field: QH AD/2D
        combat: attackers=1:KC blocks=2:QH>1:KC,2:AD>1:KC
    """)
    assert legal(s, "carry") == []
    s = o_step("""
        1.field: KC
        1.home: 9D
        2.field: QH AD/2D
        combat: attackers=1:KC blocks=2:QH>1:KC
    """)
    assert legal(s, "carry") == ["carry QH 1:9D"]


# --- 708: Sally ----------------------------------------------------------------------------------


def test_708_r28_kh_sallies_plus_1_pwr_minus_1_tgh_without_being_taxed() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: ability_p
        1.field: KH
        2.field: QD
        combat: attackers=1:KH blocks=2:QD>1:KH
    """)
    assert said(s, "sally KH") == ["KH Sallies: +1 Pwr and -1 Tgh"]
    assert zone(s, "1.field") == "KH{p+1,g-1}"
    assert said(s, "done", "done", "pass") == [
        "KH of Rlr 1 takes 2 damage (combat), terminal",  # Tgh 3 - 1 = 2
        "QD of Rlr 2 takes 3 damage (combat), terminal",  # Pwr 2 + 1 = 3
    ]
    assert zone(s, "1.field") == "KH{t1,d2,x,p+1,g-1}"


def test_708_r28_sally_needs_a_blocker_of_the_kings_colour() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: ability_p
        1.field: KS
        2.field: QH
        combat: attackers=1:KS blocks=2:QH>1:KS
    """)
    assert legal(s) == ["done"]
    refused(s, "sally KS", "708: no Cre of KS's colour blocks it")


def test_708_r11_ks_sallies_against_a_mixed_pair_and_splits_3_pwr() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: ability_p
        1.field: KS
        2.field: QH QC
        combat: attackers=1:KS blocks=2:QH>1:KS,2:QC>1:KS
    """)
    assert legal(s) == ["sally KS", "done"]
    assert said(s, "sally KS") == ["KS Sallies: +1 Pwr"]  # KS keeps its Tgh
    said(s, "done", "done", "pass")
    assert (s.phase, s.actor) == (Phase.SPLIT, 0)
    assert said(s, "assign 2:QH", "assign 2:QC", "assign 2:QC") == [
        "KS of Rlr 1 takes 4 damage (combat), terminal",
        "QH of Rlr 2 takes 1 damage (combat)",
        "QC of Rlr 2 takes 2 damage (combat), terminal",
    ]


def test_706_2_r27_sally_fails_when_the_blockers_group_outranks_the_king() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: ability_p
        1.field: KS
        2.field: QC QH/2S
        combat: attackers=1:KS blocks=2:QC>1:KS,2:QH>1:KS
    """)
    assert legal(s) == ["done"]


# --- 709: Harry ----------------------------------------------------------------------------------


def test_709_r28_jh_harries_plus_1_tgh_is_taxed_and_deals_no_damage() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: ability_o
        actor: 2
        1.field: KS
        2.field: JH
        combat: attackers=1:KS blocks=2:JH>1:KS
    """)
    assert legal(s) == ["harry JH", "done"]
    assert said(s, "harry JH") == ["JH Harries: +1 Tgh"]
    assert zone(s, "2.field") == "JH{t1,g+1}"
    assert said(s, "done", "pass") == ["JH of Rlr 2 takes 2 damage (combat)"]  # Tgh 3
    assert zone(s, "1.field") == "KS{t1}"
    assert zone(s, "2.field") == "JH{t1,d2,g+1}"


def test_709_r28_kd_and_jd_harry_without_being_taxed_and_still_deal_damage() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: ability_o
        actor: 2
        1.field: KS KC
        2.field: KD JD
        combat: attackers=1:KS,1:KC blocks=2:KD>1:KS,2:JD>1:KC
    """)
    assert legal(s) == ["harry KD", "harry JD", "done"]
    said(s, "harry KD", "harry JD")
    assert zone(s, "2.field") == "KD{g+1} JD{g+1}"
    assert said(s, "done", "pass") == [
        "KS of Rlr 1 takes 2 damage (combat)",
        "KC of Rlr 1 takes 1 damage (combat)",
        "KD of Rlr 2 takes 2 damage (combat)",
        "JD of Rlr 2 takes 2 damage (combat)",  # Tgh 3 with Harry: it survives
    ]
    assert zone(s, "2.field") == "KD{t1,d2,g+1} JD{t1,d2,g+1}"


def test_709_r28_harry_only_against_an_attacker_of_the_opposite_colour() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: ability_o
        actor: 2
        1.field: KH
        2.field: JD
        combat: attackers=1:KH blocks=2:JD>1:KH
    """)
    assert legal(s) == ["done"]


# --- 710: Ally -----------------------------------------------------------------------------------


def test_710_r28_kc_allies_an_opposing_clubs_blocker_which_then_deals_no_damage() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: ability_p
        1.field: KS KC
        2.field: QC QS
        combat: attackers=1:KS blocks=2:QC>1:KS
    """)
    # KC may Ally only a Cre of its base suit; KS may Sally (QC is black): it declines.
    assert legal(s) == ["sally KS", "ally KC 2:QC", "done"]
    assert said(s, "ally KC 2:QC") == ["KC Allies with 2:QC: it is taxed"]
    assert zone(s, "1.field") == "KS KC{t1}"
    assert zone(s, "2.field") == "QC{t1} QS"
    assert said(s, "done", "done", "pass") == ["QC of Rlr 2 takes 2 damage (combat), terminal"]
    assert zone(s, "1.field") == "KS{t1} KC{t1}"


def test_710_r4_an_allied_attacker_stays_in_but_deals_no_damage_and_stays_taxed() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: ability_o
        actor: 2
        1.field: JS
        2.field: QS
        combat: attackers=1:JS
    """)
    assert legal(s) == ["ally QS 1:JS", "done"]
    said(s, "ally QS 1:JS", "done")
    assert said(s, "pass") == []  # the unblocked JS is taxed: no damage to Rlr 2
    assert s.life == [20, 20]
    assert zone(s, "1.field") == "JS{t1}"
    assert zone(s, "2.field") == "QS{t1}"


def test_706_r27_ally_fails_against_a_target_that_outranks_the_user() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: ability_p
        1.field: KS KC
        2.field: QC/3C JC
        combat: attackers=1:KS
    """)
    assert legal(s) == ["ally KC 2:JC", "done"]


def test_705_3_r28_kc_uses_at_most_one_ability_per_combat() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: ability_p
        1.field: KC
        2.field: QC
        combat: attackers=1:KC blocks=2:QC>1:KC
    """)
    assert legal(s) == ["sally KC", "ally KC 2:QC", "done"]
    said(s, "sally KC")
    assert legal(s) == ["done"]


def test_705_3_r28_qs_uses_at_most_one_ability_per_combat() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: ability_p
        1.field: AH QS
        2.home: 7C
        2.field: JS
        combat: attackers=1:AH
    """)
    assert legal(s) == ["carry QS 2:7C", "ally QS 2:JS", "done"]
    said(s, "carry QS 2:7C")
    assert legal(s) == ["done"]


# --- 711: Carry ----------------------------------------------------------------------------------

CARRY = """
    settings: step
    phasing: 1
    phase: ability_p
    {trumps}
    1.field: AC {queen}
    2.home: {lnds}
    combat: attackers=1:AC
"""


def carry_position(queen: str, lnds: str, trumps: str = "") -> State:
    """P's ability step, P's Queen beside an attacking AC, O's Home holding ``lnds``."""
    return setup(CARRY.format(queen=queen, lnds=lnds,
                              trumps=f"trumps: {trumps}" if trumps else ""))


def carries(queen: str, lnds: str, trumps: str = "") -> list[str]:
    """The Carry actions open to Rlr 1's Queen against Rlr 2's Home."""
    return legal(carry_position(queen, lnds, trumps), "carry")


def test_711_3_qh_carries_9d_outshown_but_not_outranked() -> None:
    assert carries("QH", "9D 8H 10H 9C") == ["carry QH 2:9D"]  # only red Lnds, not 9C


def test_711_3_qh_cannot_carry_9d2h_and_qh3d_cannot_carry_9d() -> None:
    assert carries("QH", "9D/2H") == []
    assert carries("QH/3D", "9D") == []


def test_711_3_with_spades_trump_qh2s_carries_8h_but_not_8h2s_or_8h3s() -> None:
    assert carries("QH", "8H", trumps="1:4S") == []
    assert carries("QH/2S", "8H", trumps="1:4S") == ["carry QH 2:8H"]
    assert carries("QH/2S", "8H/2S", trumps="1:4S") == []
    assert carries("QH/2S", "8H/3S", trumps="1:4S") == []


def test_711_3_r27_hearts_enhs_on_the_queen_count_4_more() -> None:
    assert carries("QH/4H", "8H 9H") == ["carry QH 2:8H"]  # H 4+4 = 8: a tie is a success
    assert carries("QH/3H", "8H") == []  # H7
    assert carries("QH/6H", "10H") == ["carry QH 2:10H"]  # H10
    assert carries("QH/5H", "10H") == []  # H9


@pytest.mark.parametrize("queen", ["QC", "QD", "QH", "QS"])
def test_711_3_r27_the_engines_carry_counts_are_the_rulebooks(queen: str) -> None:
    # every set of up to two Enhs from a spread of suits and values, on each Queen
    enhs = ["2C", "5C", "3D", "6D", "2H", "4H", "3S", "6S"]
    pairs = [[e, f] for i, e in enumerate(enhs) for f in enhs[i + 1:]]
    sets: list[list[str]] = [[], *([e] for e in enhs), *pairs]
    for on in sets:
        text = "/".join([queen, *on])
        s = carry_position(text, "9D")
        assert combat.carry_counts(s, cid(f"1:{queen}")) == ranking.carry_counts(
            Entity.parse(text)), text


def test_711_r27_the_table_of_bare_lnds_beating_a_side_is_the_ability_check() -> None:
    """The Carry listing reads which bare Lnds beat a Queen's side from a table by the
    side's counts and the trump (combat._bare_lnds_beating): it must give the ability check
    of 706 for every Lnd, read the first time and again."""
    values = (0, 1, 2, 5, 6, 8, 10)
    lnds = [c for c in CARDS if c.is_lnd]
    for side in itertools.product(values, repeat=4):
        for trump in (None, 0, 1, 2, 3):
            expected = 0
            for lnd in lnds:
                if combat.side_beats(Entity(lnd).counts, side, trump):
                    expected |= 1 << lnd.index
            assert combat._bare_lnds_beating(side, trump) == expected, (side, trump)
            assert combat._bare_lnds_beating(side, trump) == expected, (side, trump)


@pytest.mark.parametrize(("queen", "lnd", "trumps", "pool"), [
    ("QH", "9D", "", "D1"),
    ("QH/2S", "8H", "1:4S", "H1"),
    ("QH/4H", "8H", "", "H1"),
    ("QH/6H", "10H", "", "H1"),
])
def test_711_3_r28_the_queen_of_hearts_carries(queen: str, lnd: str, trumps: str,
                                                pool: str) -> None:
    s = carry_position(queen, lnd, trumps)
    face = lnd.split("/")[0]
    suit = {"D1": "Diamonds", "H1": "Hearts"}[pool]
    assert said(s, f"carry QH 2:{face}") == [f"QH Carries 2:{face}: +1 {suit} mnr for Rlr 1"]
    assert zone(s, "1.pool") == pool
    assert zone(s, "1.field") == f"AC {queen}{{t1}}"
    assert zone(s, "2.home") == f"{lnd}{{t1}}"


@pytest.mark.parametrize(("queen", "lnd", "trumps"), [
    ("QH", "9D/2H", ""),  # H2 outranks her H1
    ("QH/3D", "9D", ""),  # D9 outranks D3
    ("QH", "8H", ""),  # H8 outranks H1
    ("QH/2S", "8H/2S", "1:4S"),  # trumps level, then H8 against H1
    ("QH/2S", "8H/3S", "1:4S"),  # the Lnd outtrumps her
    ("QH/3H", "8H", ""),  # H 3+4 = 7 against H8
])
def test_711_3_r27_the_queen_of_hearts_cannot_carry(queen: str, lnd: str, trumps: str) -> None:
    s = carry_position(queen, lnd, trumps)
    action = f"carry QH 2:{lnd.split('/')[0]}"
    refused(s, action, BEATEN.format(f"2:{lnd.split('/')[0]}", "QH", "Carry"))


def test_711_r28_carry_taxes_queen_and_lnd_and_gives_mnr_to_the_queens_controller() -> None:
    s = carry_position("QH", "9D 9C")
    assert said(s, "carry QH 2:9D") == ["QH Carries 2:9D: +1 Diamonds mnr for Rlr 1"]
    assert zone(s, "1.pool") == "D1"
    assert zone(s, "2.pool") == ""
    assert zone(s, "1.field") == "AC QH{t1}"
    assert zone(s, "2.home") == "9D{t1} 9C"


def test_711_r21_a_carried_lnd_with_a_trump_enh_gives_trump_mnr() -> None:
    s = carry_position("QH/3S", "9D/2S", trumps="2:4S")
    assert legal(s, "carry") == ["carry QH 2:9D"]  # S3 outtrumps the Lnd's S2
    assert said(s, "carry QH 2:9D") == ["QH Carries 2:9D: +1 Spades mnr for Rlr 1"]
    assert zone(s, "1.pool") == "S1"


def test_711_1_r2_o_carries_in_its_step_and_its_mnr_does_not_burn_on_ps_turn() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: ability_o
        actor: 2
        1.home: 9H 7C
        1.field: AC
        2.field: QD
        combat: attackers=1:AC
    """)
    assert legal(s) == ["carry QD 1:9H", "done"]
    assert said(s, "carry QD 1:9H") == ["QD Carries 1:9H: +1 Hearts mnr for Rlr 2"]
    said(s, "done", "pass")  # the combat; then a new Turn Cycle begins with P's burn only
    assert (s.phase, s.actor) == (Phase.WINDOW1, 0)
    assert zone(s, "2.pool") == "H1"
    assert s.life == [20, 19]
    assert zone(s, "1.home") == "9H{t1} 7C"


# --- 702 / 1007.3: how long Sally and Harry last; terminal Cres ----------------------------------


def test_702_sally_and_harry_changes_last_until_the_next_untax() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: ability_p
        1.field: KS
        2.field: QC KD
        2.draw: 7H 8H
        combat: attackers=1:KS blocks=2:QC>1:KS,2:KD>1:KS
    """)
    said(s, "sally KS", "done", "harry KD", "done", "pass", "assign 2:QC", "assign 2:QC",
         "assign 2:QC")
    assert zone(s, "1.field") == "KS{t1,d4,x,p+1}"
    assert zone(s, "2.field") == "QC{t1,d3,x} KD{t1,g+1}"
    said(s, "pass", "end")
    assert s.phasing == 1
    assert zone(s, "1.field") == ""
    assert zone(s, "2.field") == "KD{t1}"  # Harry ended; the tax stays (R4)


def test_1007_3_a_terminal_cre_uses_no_ability() -> None:
    # Two Volleys make the blocking JD terminal; it can no longer Harry.
    s = setup("""
        settings: step
        phasing: 1
        phase: ability_p
        1.field: KS JS JC
        2.field: JD
        combat: attackers=1:KS blocks=2:JD>1:KS
    """)
    said(s, "volley JS 2:JD")
    assert said(s, "volley JC 2:JD")[-1] == "JD of Rlr 2 takes 1 damage (Volley by JC), terminal"
    apply(s, "done")
    assert legal(s) == ["done"]
    assert s.terminal[cid("2:JD")]


def test_711_a_queen_may_carry_only_when_the_other_home_holds_an_untaxed_lnd_of_her_colour(
) -> None:
    """The Carry listing skips a Queen at one look when the other Rlr's Home has no untaxed
    Lnd of her colour (combat._carry_candidates, read from the kept figures of untaxed Lnds
    by the suit they yield, trump yields included): it must never say none where a look at
    the Home finds one, and must say none where the Home has none and no Lnd yields trump.
    Checked at every step of seeded random games, for both Homes and both colours."""
    for seed in range(30):
        s = new_game(seed)
        rng = random.Random(seed)
        while not s.is_over:
            for q in (0, 1):
                for red in (False, True):
                    found = any(IS_RED[FACE[lnd]] == red and s.taxed[lnd] == NONE
                                for lnd in s.home[q])
                    answer = combat._carry_candidates(s, q, red)
                    assert answer or not found, (seed, q, red)
                    if s.trump is None:
                        assert answer == found, (seed, q, red)
            apply(s, rng.choice(legal_actions(s)))


# --- 705-711: one verify per ability, shared by the listing and the refusal --------------------


def test_705_each_ability_refusal_names_the_ability_and_why() -> None:
    """A second Volley and a Sally by a Jack, which has none, are refused for different
    reasons, each with its section (705.3, 708)."""
    s = setup("""
        settings: step
        phasing: 1
        phase: ability_p
        1.field: KH JS
        2.field: QH
        combat: attackers=1:KH blocks=2:QH>1:KH
    """)
    said(s, "volley JS 2:QH")
    refused(s, "volley JS 2:QH", "705.3: JS has used an ability this combat")
    refused(s, "sally JS", "708: JS has no Sally")
    refused(s, "harry KH", "709: KH has no Harry")
    refused(s, Action("sally", FACE[cid("1:KH")], cid("2:QH")), "708: a Sally names no target")
    refused(s, "volley QH 2:QH", "705.2: QH is not a Cre on your Field")


def test_709_harry_needs_a_blocker_on_an_attacker_of_the_opposite_colour() -> None:
    s = o_step("""
        1.field: KS KH
        2.field: JH{t1} JD{t1} KD
        combat: attackers=1:KS,1:KH blocks=2:JH>1:KS,2:JD>1:KS,2:KD>1:KH
    """)
    assert legal(s, "harry") == ["harry JD"]  # JD Harries taxed; the feather-bearing JH may not
    refused(s, "harry JH", "705.2: JH is taxed, and its Harry would tax it")
    refused(s, "harry KD", "709: KD blocks an attacker of its own colour")


def test_710_ally_taxes_an_untaxed_opposing_cre_of_the_users_suit() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: ability_p
        1.field: KC QS
        2.field: AC AS{t2} AH
        combat: attackers=1:KC
    """)
    assert legal(s, "ally") == ["ally KC 2:AC"]
    refused(s, "ally QS 2:AS", "710: 2:AS is already taxed")
    refused(s, "ally QS 2:AH", "710: 2:AH is not of QS's suit")
    refused(s, "ally QS 1:KC", "710: an Ally taxes a Cre on the other Rlr's Field; 1:KC is not")


def test_711_carry_refusals_name_the_colour_and_the_tax() -> None:
    s = o_step("""
        1.field: KC
        1.home: 9D 9C 8H{t1}
        2.field: QH
        combat: attackers=1:KC
    """)
    assert legal(s, "carry") == ["carry QH 1:9D"]
    refused(s, "carry QH 1:9C", "711: 1:9C is not of QH's colour")
    refused(s, "carry QH 1:8H", "711: 1:8H is already taxed")
    refused(s, "carry QH 1:KC", "711: a Carry taxes a Lnd in the other Rlr's Home")


def test_705_an_ability_is_listed_exactly_when_its_verify_accepts_it() -> None:
    """The listing and the refusal ask the same verify per ability (combat.verify_ability):
    at every ability step of seeded random games, every ability action that names one of the
    actor's Cres (any verb, any target or none) is listed exactly when the verify answers
    None, and otherwise is refused with that answer."""
    steps = 0
    for seed in range(40):
        s = new_game(seed)
        rng = random.Random(seed)
        while not s.is_over:
            if s.phase in (Phase.ABILITY_P, Phase.ABILITY_O):
                steps += 1
                p = s.actor
                listed = set(legal_actions(s))
                for u in s.field[p]:
                    for verb in combat.ABILITY_OF_VERB:
                        for t in (NONE, *range(104)):
                            a = Action(verb, FACE[u], t)
                            why = combat.verify_ability(s, p, a)
                            assert (why is None) == (a in listed), (seed, str(a), why)
            apply(s, rng.choice(legal_actions(s)))
    assert steps > 100  # the games reach many ability steps
