"""Scenario tests for rule 1100 Expel and rulings R23-R24 (with R15, R19, R30).

Every expel example of the rules text is played as a real expel from a position: who may be
expelled by what (1102), the damage it does (1103), where every card goes (1104), and
expelling one's own cards (1105). Positions use ``settings: step`` so that nothing moves on
by itself after the expel; Rlr 1 is P.
"""

from __future__ import annotations

from parlor.rules import plays
from parlor.rules.cards import CARDS
from parlor.rules.engine import apply
from parlor.rules.ranking import LEVEL, Entity
from parlor.rules.state import NONE

from .scenario import cid, legal, refused, said, setup, zone

# --- 1106: the rules text's examples against JH/3C {H1, C3} --------------------------------------

JH3C = """
    settings: step
    phasing: 1
    phase: window1
    1.hand: 2H 3H 4C 3C
    1.home: 7H 8H 9H 9C 10C 8C
    2.field: JH/3C
"""


def test_1106_r23_2h_cannot_expel_jh3c_outshown_by_the_3c() -> None:
    s = setup(JH3C)
    assert legal(s, "expel") == ["expel 3H at 2:JH", "expel 4C at 2:JH", "expel 4C at 2:3C"]
    refused(s, "expel 2H at 2:JH",
            "1102.2: a Cre is expelled only by outranking or outtrumping it (JH/3C)")


def test_1106_r24_2h_with_hearts_trump_outtrumps_jh3c_to_discard() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        trumps: 2:5H
        1.hand: 2H
        1.home: 7H 8H 9H 9C 10C 8C
        2.field: JH/3C
    """)
    assert said(s, "expel 2H at 2:JH")[-1] == (
        "2H expels JH/3C: outtrumps in Hearts 2 to 1, 1 damage, to Discard")
    # 1 damage is below the JH's Tgh 2, but a trumped card goes to Discard (1104.2), the 3C
    # with its host (1104.4); the expel card to its caster's Discard (1104.1).
    assert zone(s, "2.field") == ""
    assert zone(s, "2.discard") == "JH 3C"
    assert zone(s, "2.recycle") == ""
    assert zone(s, "1.discard") == "2H"
    assert zone(s, "trumps") == "2:5H"


def test_1106_r24_3h_outranks_jh3c_one_damage_to_recycle_face_up() -> None:
    s = setup(JH3C)
    assert said(s, "expel 3H at 2:JH")[-1] == (
        "3H expels JH/3C: outranks in Hearts 3 to 1, 1 damage, to Recycle")
    assert zone(s, "2.field") == ""
    assert zone(s, "2.recycle") == "^JH ^3C"  # face up (R30): both known to Rlr 1
    assert zone(s, "2.discard") == ""
    assert zone(s, "1.discard") == "3H"
    assert s.life == [20, 20]  # expel damage on a Cre never reaches its Rlr (1103.4)


def test_1106_r24_4c_outranks_jh3c_in_clubs_one_damage_to_recycle() -> None:
    s = setup(JH3C)
    assert said(s, "expel 4C at 2:JH")[-1] == (
        "4C expels JH/3C: outranks in Clubs 4 to 3, 1 damage, to Recycle")
    assert zone(s, "2.recycle") == "^JH ^3C"
    assert zone(s, "1.discard") == "4C"


def test_1106_r23_3c_ties_the_3c_in_clubs_and_is_refused() -> None:
    s = setup(JH3C)
    refused(s, "expel 3C at 2:JH",
            "1102.2: a Cre is expelled only by outranking or outtrumping it (JH/3C)")


def test_1102_1_4c_expels_only_the_lone_3c_and_the_jack_stays() -> None:
    s = setup(JH3C)
    assert said(s, "expel 4C at 2:3C")[-1] == "4C expels 3C: outranks in Clubs 4 to 3, to Recycle"
    assert zone(s, "2.field") == "JH"
    assert zone(s, "2.recycle") == "^3C"
    assert s.damage[cid("2:JH")] == 0  # a lone Enh's host takes no damage (1103.3)


def test_1106_r24_6c_expels_5c_from_domain_6s5c_and_damages_its_owner() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        1.hand: 6C
        1.home: 7C 8C 9C 10C 7H 8H
        2.domain: 6S 5C
    """)
    assert said(s, "expel 6C at 2:5C")[-2:] == [
        "6C expels 5C: outranks in Clubs 6 to 5, to Recycle",
        "Rlr 2 loses 1 life (6C beats the Domain): 19 left",
    ]
    assert zone(s, "2.domain") == "6S"
    assert zone(s, "2.recycle") == "^5C"
    assert zone(s, "1.discard") == "6C"
    assert s.life == [20, 19]


# --- 1102 / R23: what may be expelled, and by what -----------------------------------------------


def test_1102_1_r23_lone_nontrump_enh_is_expelled_by_outshowing_host_ignored() -> None:
    # The 2C sits on KC/2C/5H, but a lone Enh is judged alone: 3D {D3} outshows {C2}.
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        1.hand: 3D
        1.home: 7D 8D 9D
        2.field: KC/2C/5H
    """)
    assert legal(s, "expel") == ["expel 3D at 2:2C"]
    assert said(s, "expel 3D at 2:2C")[-1] == (
        "3D expels 2C: outshows it, Diamonds 3 over Clubs 2, to Recycle")
    assert zone(s, "2.field") == "KC/5H"
    assert zone(s, "2.recycle") == "^2C"
    assert zone(s, "1.discard") == "3D"


def test_1102_2_r23_lone_trump_enh_only_by_outtrumping() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        trumps: 1:4C
        1.hand: 3D 3C
        1.home: 7D 8D 7C 8C 9C
        2.field: KH/2C
    """)
    refused(s, "expel 3D at 2:2C",
            "1102.2: a trump-suit Enh is expelled only by outtrumping it (2C)")
    assert said(s, "expel 3C at 2:2C")[-1] == "3C expels 2C: outtrumps in Clubs 3 to 2, to Discard"
    assert zone(s, "2.field") == "KH"
    assert zone(s, "2.discard") == "2C"  # outtrumped: Discard (1104.2)
    assert zone(s, "1.discard") == "3C"


def test_1102_3_r23_lnd_only_by_outtrumping_then_to_discard_with_its_enhs() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        1.hand: 6H 3S
        1.home: 7H 8H 9H 7S 8S 10H
        2.home: 9H/1:2D/3C
    """)
    refused(s, "expel 6H at 2:9H",
            "1102.3: a Lnd is expelled only by outtrumping it, and 6H cannot (9H/2D/3C)")
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        trumps: 1:3S
        1.hand: 2S
        1.home: 7S 8S
        2.home: 9H/1:2D/3C
    """)
    assert said(s, "expel 2S at 2:9H")[-1] == (
        "2S expels 9H/2D/3C: outtrumps in Spades 2 to 0, to Discard")
    assert zone(s, "2.home") == ""
    assert zone(s, "2.discard") == "9H 3C"  # the Lnd and Rlr 2's own 3C
    assert zone(s, "1.discard") == "2S 2D"  # the expel, and Rlr 1's 2D that sat on the Lnd (R19)
    assert s.life == [20, 20]  # a Lnd takes no damage (1103.3)


def test_1102_3_r23_lnd_with_a_trump_enh_needs_a_higher_trump() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        trumps: 2:4S
        1.hand: 2S 3S
        1.home: 7S 8S 9S
        2.home: 10D/2S
    """)
    assert legal(s, "expel") == ["expel 3S at 2:10D", "expel 3S at 2:2S"]
    refused(s, "expel 2S at 2:10D",
            "1102.3: a Lnd is expelled only by outtrumping it, and 2S cannot (10D/2S)")


def test_1101_r23_either_rlr_may_expel_opponent_expels_in_its_option() -> None:
    # Rlr 1 plays a card; Rlr 2 answers in the same window by expelling Rlr 1's KS.
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        1.hand: 7C
        1.field: KS
        2.hand: 2S
        2.home: 7S 8S
    """)
    apply(s, "play 7C")
    assert s.actor == 1
    assert said(s, "expel 2S at 1:KS")[-1] == (
        "2S expels KS: outranks in Spades 2 to 1, 1 damage, to Recycle")
    assert zone(s, "1.recycle") == "^KS"
    assert zone(s, "2.discard") == "2S"


# --- 1103 / R24: expel damage --------------------------------------------------------------------


def test_1103_1_r24_expel_damage_adds_to_marked_damage_and_eliminates() -> None:
    # KS with 2 damage marked; 3S outranks it (S3 to S1, differential 2): 1 more, total 3 = Tgh.
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        1.hand: 3S
        1.home: 7S 8S 9S
        2.field: KS/2:2H{t1,d2}
    """)
    assert said(s, "expel 3S at 2:KS")[-1] == (
        "3S expels KS/2H: outranks in Spades 3 to 1, 1 damage, to Discard (eliminated)")
    assert zone(s, "2.discard") == "KS 2H"
    assert zone(s, "2.recycle") == ""
    assert s.damage[cid("2:KS")] == 0 and not s.terminal[cid("2:KS")]  # cleared (1103.4)


def test_1103_1_r24_same_expel_on_an_undamaged_king_only_recycles_it() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        1.hand: 3S
        1.home: 7S 8S 9S
        2.field: KS/2H{t1}
    """)
    assert said(s, "expel 3S at 2:KS")[-1] == (
        "3S expels KS/2H: outranks in Spades 3 to 1, 1 damage, to Recycle")
    assert zone(s, "2.recycle") == "^KS ^2H"


def test_1103_2_r24_domain_expel_that_does_not_beat_the_whole_domain_does_no_damage() -> None:
    # 3C outranks the lone 2C, but the whole Domain {S6, C5} outranks the 3C: no damage.
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        1.hand: 3C
        1.home: 7C 8C 9C
        2.domain: 6S 2C 5C
    """)
    assert said(s, "expel 3C at 2:2C")[-1] == "3C expels 2C: outranks in Clubs 3 to 2, to Recycle"
    assert zone(s, "2.domain") == "6S 5C"
    assert s.life == [20, 20]


def test_1103_2_r24_expelling_in_ones_own_domain_costs_no_life_whoever_cast_it() -> None:
    # Rlr 1's 4D sits in Rlr 1's own Domain, cast there by Rlr 2 (2:4D); Rlr 1 expels it.
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        1.hand: 5D
        1.home: 7D 8D 9D 10D 7C
        1.domain: 2:4D
    """)
    assert said(s, "expel 5D at 2:4D")[-1] == (
        "5D expels 4D: outranks in Diamonds 5 to 4, to Recycle")
    assert zone(s, "1.domain") == ""
    assert zone(s, "2.recycle") == "^4D"  # to its owner's pile (R19)
    assert zone(s, "1.discard") == "5D"
    assert s.life == [20, 20]


def test_1103_2_r24_domain_damage_by_outtrumping_is_the_whole_domain_bonus() -> None:
    # Spades trump: 5S outtrumps the lone 2S (S5 to S2), and the whole Domain {S2, H6} too,
    # differential 3, bonus 2.
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        trumps: 1:4S
        1.hand: 5S
        1.home: 7S 8S 9S 10S 7H
        2.domain: 2S 6H
    """)
    # Spades trump also lets 5S expel the top of the stack, Rlr 1's own 7H and the lone 6H.
    assert legal(s, "expel") == [
        "expel 5S at T", "expel 5S at 1:7H", "expel 5S at 2:2S", "expel 5S at 2:6H"]
    assert said(s, "expel 5S at 2:2S")[-2:] == [
        "5S expels 2S: outtrumps in Spades 5 to 2, to Discard",
        "Rlr 2 loses 2 life (5S beats the Domain): 18 left",
    ]
    assert zone(s, "2.domain") == "6H"
    assert zone(s, "2.discard") == "2S"
    assert zone(s, "1.discard") == "5S"


# --- 1105: expelling one's own Cre ---------------------------------------------------------------


def test_1105_r24_own_cre_expelled_below_its_tgh_goes_back_to_recycle() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        1.hand: 3H
        1.home: 7H 8H 9H
        1.field: JH{d1}
    """)
    assert legal(s, "expel") == ["expel 3H at 1:JH"]
    assert said(s, "expel 3H at 1:JH")[-1] == (
        "3H expels JH: outranks in Hearts 3 to 1, 1 damage, to Discard (eliminated)")
    assert zone(s, "1.discard") == "3H JH"
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        1.hand: 3H
        1.home: 7H 8H 9H
        1.field: JH
    """)
    assert said(s, "expel 3H at 1:JH")[-1] == (
        "3H expels JH: outranks in Hearts 3 to 1, 1 damage, to Recycle")
    assert zone(s, "1.recycle") == "^JH"
    assert zone(s, "1.discard") == "3H"


def test_1105_r24_expelled_terminal_cre_always_goes_to_discard() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        1.hand: 4H
        1.home: 7H 8H 9H 10H
        2.field: KH{t1,d3,x}
    """)
    assert said(s, "expel 4H at 2:KH")[-1] == (
        "4H expels KH: outranks in Hearts 4 to 1, 2 damage, to Discard (eliminated)")
    assert zone(s, "2.discard") == "KH"


def test_1104_r19_enhs_on_an_expelled_host_go_to_their_own_owners_piles() -> None:
    # Rlr 2's QD carries Rlr 1's 2C and Rlr 2's own 2D; Rlr 1's 3D outranks it (D3 to D2).
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        1.hand: 3D
        1.home: 7D 8D 9D
        2.field: QD/1:2C/2D
    """)
    assert said(s, "expel 3D at 2:QD")[-1] == (
        "3D expels QD/2C/2D: outranks in Diamonds 3 to 2, 1 damage, to Recycle")
    assert zone(s, "2.recycle") == "^QD ^2D"
    assert zone(s, "1.recycle") == "^2C"
    assert zone(s, "1.discard") == "3D"


def test_1002_2_r15_expel_a_blocker_whose_attacker_already_left() -> None:
    # Both of a combat's Cres leave in the second window: first the attacker, then the blocker
    # that was left blocking nobody; the combat goes on without either (R15).
    s = setup("""
        settings: step
        phasing: 1
        phase: window2
        actor: 2
        1.field: KS
        1.hand: 5H
        1.home: 7H 8H 9H 10H 7C
        2.field: JH
        2.hand: 6S
        2.home: 7S 8S 9S 10S 7D 8D
        combat: attackers=1:KS blocks=2:JH>1:KS
    """)
    apply(s, "expel 6S at 1:KS")
    assert s.combat is not None and s.combat.blocking == {cid("2:JH"): NONE}
    apply(s, "expel 5H at 2:JH")
    assert s.combat is not None and s.combat.blocking == {}
    assert cid("1:KS") in s.discard[0] and cid("2:JH") in s.discard[1]  # both eliminated


# --- 1102, R23: the table of which Enhs expel a host is the rule worked out -----------------------

def test_1102_r23_the_expel_table_agrees_with_working_each_expel_out() -> None:
    """The window listing reads which Enh faces expel a host with Enhs from a table shared by
    every host of the same counts, suit and trump (plays._situation); each host, Cre or Lnd
    of either Rlr, with each set of up to two Enhs and each trump, must read what working
    every Enh out against it gives."""
    hosts = [c for c in CARDS if c.is_cre or c.is_lnd]
    enhs = ["2C", "6C", "3D", "5D", "2H", "6H", "4S", "5S"]
    sets = [[e] for e in enhs] + [[e, f] for i, e in enumerate(enhs) for f in enhs[i + 1:]]
    for host in hosts:
        for on in sets:
            ct = Entity.parse("/".join([str(host), *on])).counts
            for trump in (None, 0, 1, 2, 3):
                for owner in (0, 1):
                    target = owner * 52 + host.index
                    expected = 0
                    for face in range(52):
                        if CARDS[face].is_enh:
                            ce = [0, 0, 0, 0]
                            ce[CARDS[face].suit] = CARDS[face].rank
                            how = plays._expel_how(face, (ce[0], ce[1], ce[2], ce[3]), target,
                                                   ct, trump)[0]
                            if how != LEVEL:
                                expected |= 1 << face
                    assert plays._expellers(target, ct, trump) == expected, (host, on, trump)
