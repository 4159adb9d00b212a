"""Scenario tests for rule 800, Enhs (with 209), and rulings R18 and R19.

Enhs never change Pwr or Tgh (R18): they act through ranking. An Enh stays its caster's card
wherever it lies, defends the Domain it sits in whoever cast it, and goes to its own owner's
pile when its host leaves (R19). ``2.domain: 1:5C`` is Rlr 1's 5C in Rlr 2's Domain. Rlr 1 is P.
"""

from __future__ import annotations

import random

from parlor.rules import plays
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.state import Phase

from .scenario import legal, said, setup, zone


def test_801_an_enh_may_target_lnds_and_cres_of_either_rlr_either_domain_or_the_stack() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        1.hand: 2C
        1.home: 7C 8C
        1.field: AS
        2.home: 7H
        2.field: QD
    """)
    assert legal(s, "play") == [
        "play 2C on 1:7C", "play 2C on 1:8C", "play 2C on 2:7H",
        "play 2C on 1:AS", "play 2C on 2:QD",
        "play 2C on D1", "play 2C on D2", "play 2C on T",
    ]
    assert said(s, "play 2C on 2:QD")[-1] == "Rlr 1 plays 2C on 2:QD (QD/2C)"
    assert zone(s, "2.field") == "QD/1:2C"


def test_803_804_r18_a_lower_enh_adds_nothing_now_but_counts_when_the_higher_leaves() -> None:
    # JH/5C/3C counts {H1, C5}: 4C cannot expel the Jack. Once the 5C is expelled, the 3C
    # counts again ({H1, C3}) and 4C outranks the Jack in Clubs, 4 to 3.
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        1.pool: C3
        1.hand: 6C 4C 2C
        1.home: 7C 8C 9C 10C 7H 8H 9H 10H
        2.hand: AD
        2.home: 7D 8D
        2.field: JH/5C/3C
    """)
    assert [a for a in legal(s, "expel") if a.startswith("expel 4C")] == ["expel 4C at 2:3C"]
    assert "play 2C on 2:JH" in legal(s)  # an Enh may go on whatever the counts (803)
    assert said(s, "expel 6C at 2:5C tax 7H 8H 9H spend CCCHHH")[-1] == (
        "6C expels 5C: outranks in Clubs 6 to 5, to Recycle")
    apply(s, "play AD")  # Rlr 2's option
    assert [a for a in legal(s, "expel") if a.startswith("expel 4C")] == [
        "expel 4C at 2:JH", "expel 4C at 2:3C"]
    assert said(s, "expel 4C at 2:JH")[-1] == (
        "4C expels JH/3C: outranks in Clubs 4 to 3, 1 damage, to Recycle")


def test_209_r18_enhs_give_no_pwr_or_tgh() -> None:
    # JS/6S/6H attacks and QH/6H blocks: Hearts are level and the blockers have no Spades, so
    # there is no bonus; the Jack deals its 1 Pwr and dies at its 2 Tgh, Enhs or not.
    s = setup("""
        phasing: 1
        phase: attack
        1.hand: 7C
        1.field: JS/6S/6H
        2.field: QH/6H
    """)
    assert said(s, "attack JS", "block QH 1:JS", "done")[2:] == [
        "JS of Rlr 1 takes 2 damage (combat), terminal",
        "QH of Rlr 2 takes 1 damage (combat)",
    ]
    assert zone(s, "1.field") == "JS/6S/6H{t1,d2,x}"
    assert zone(s, "2.field") == "QH/6H{t1,d1}"


def test_802_r19_an_enh_cast_by_rlr_1_in_rlr_2s_domain_defends_rlr_2() -> None:
    s = setup("""
        phasing: 1
        phase: window1
        1.hand: 5C 7H
        1.home: 7C 8C 9C 10C 8D
        1.field: KC
    """)
    assert said(s, "play 5C on D2")[-1] == "Rlr 1 plays 5C on Rlr 2's Domain"
    assert zone(s, "2.domain") == "1:5C"
    assert zone(s, "1.domain") == ""
    # Rlr 2 has nothing to play: the window closes. The Domain {C5} outranks the unblocked
    # KC {C1}, differential 4, bonus 2: Rlr 2 gains 1 life and deals 2 to the KC.
    assert said(s, "attack KC") == [
        "Rlr 1 attacks with KC",
        "D:5C outranks KC in Clubs, 5 to 1: bonus 2",
        "Rlr 2 gains 1 life from the Domain: 21",
        "KC of Rlr 1 takes 2 damage (Domain bonus)",
        "Rlr 2 loses 2 life (unblocked attackers): 19 left",
    ]
    assert (s.phase, s.actor) == (Phase.WINDOW1, 0)


def test_806_r19_a_hosts_enhs_go_each_to_its_own_owners_discard_with_it() -> None:
    # Rlr 2's QD carries Rlr 1's 2H and its own 2D; it dies blocking and leaves at the untax.
    s = setup("""
        phasing: 1
        phase: attack
        1.hand: 7C
        1.field: KS QS
        2.field: QD/1:2H/2D
        2.draw: 7H 8H
    """)
    said(s, "attack KS", "done", "block QD 1:KS")
    assert zone(s, "2.field") == "QD/1:2H/2D{t1,d2,x}"
    said(s, "pass", "end")
    assert s.phasing == 1
    assert zone(s, "2.field") == ""
    assert zone(s, "2.discard") == "QD 2D"
    assert zone(s, "1.discard") == "2H"
    assert zone(s, "1.recycle") == "" and zone(s, "2.recycle") == ""


def test_r22_r23_the_window_listing_is_the_rules_reference_listing() -> None:
    """The window's listing (plays.window_actions, with its expel tables and one walk over
    the zones) lists exactly what its reference (plays.window_actions_reference, the rules
    as written) lists, in the same order: at every window of seeded random games, for both
    Rlrs, whoever is to act."""
    windows = 0
    for seed in range(60):
        s = new_game(seed)
        rng = random.Random(seed)
        while not s.is_over:
            if s.phase in (Phase.WINDOW1, Phase.WINDOW2):
                windows += 1
                for p in (0, 1):
                    fast = plays.window_actions(s, p)
                    assert fast == plays.window_actions_reference(s, p), (seed, s.turn, p)
            apply(s, rng.choice(legal_actions(s)))
    assert windows > 1000
