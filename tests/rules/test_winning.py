"""Scenario tests for rule 1200 Winning and ruling R16.

The game is won only at the win check of a combat in which O was dealt damage (1201). Burn
and expel damage never end it: a Rlr at 0 life or less plays on until an attack damages it
(1202). Rlr 1 is P.
"""

from __future__ import annotations

import pytest

from parlor.rules.actions import GameOverError
from parlor.rules.engine import apply, legal_actions
from parlor.rules.state import Phase

from .scenario import said, setup, zone


def test_1201_r16_an_unblocked_attack_that_brings_o_to_0_wins() -> None:
    s = setup("""
        phasing: 1
        phase: attack
        1.field: KS
        2.life: 2
    """)
    assert said(s, "attack KS") == [
        "Rlr 1 attacks with KS",
        "Rlr 2 loses 2 life (unblocked attackers): 0 left",
        "Rlr 1 wins: Rlr 2 is at 0 life after an attack",
    ]
    assert s.phase is Phase.OVER and s.winner == 0
    assert s.result == "Rlr 1 wins: Rlr 2 is at 0 life after an attack"
    assert zone(s, "1.field") == "KS{t1}"
    assert legal_actions(s) == []
    with pytest.raises(GameOverError) as info:
        apply(s, "end")
    assert str(info.value) == (
        "R16: the game is over (Rlr 1 wins: Rlr 2 is at 0 life after an attack)")


def test_1201_r16_the_attackers_beating_the_domain_is_damage_too() -> None:
    # Rlr 2's QS/6S Allies the attacking KS/5S (S6 is not outranked by S5), which then deals
    # no Pwr; but KS/5S still outranks the Domain {S2} (differential 3, bonus 2), and that loss
    # of life is damage dealt by the attack.
    s = setup("""
        settings: step
        phasing: 1
        phase: ability_o
        actor: 2
        1.field: KS/5S
        2.life: 2
        2.field: QS/6S
        2.domain: 2S
        combat: attackers=1:KS
    """)
    assert said(s, "ally QS 1:KS", "done", "pass")[1:] == [
        "KS/5S outranks D:2S in Spades, 5 to 2: bonus 2",
        "Rlr 2 loses 2 life (the attackers outrank the Domain): 0 left",
        "Rlr 1 wins: Rlr 2 is at 0 life after an attack",
    ]
    assert s.winner == 0


def test_1201_r13_life_gained_from_the_domain_counts_before_the_win_check() -> None:
    # Rlr 2 at 2: the Domain {S6} outranks KS/4S (bonus 1), so Rlr 2 goes to 3, deals the bonus
    # point, then takes KS's 2 Pwr: 1 life left, and the game goes on.
    s = setup("""
        phasing: 1
        phase: attack
        1.hand: 7C
        1.field: KS/4S
        2.life: 2
        2.domain: 6S
    """)
    assert said(s, "attack KS")[1:] == [
        "D:6S outranks KS/4S in Spades, 6 to 4: bonus 1",
        "Rlr 2 gains 1 life from the Domain: 3",
        "KS of Rlr 1 takes 1 damage (Domain bonus)",
        "Rlr 2 loses 2 life (unblocked attackers): 1 left",
    ]
    assert s.winner is None and (s.phase, s.actor) == (Phase.WINDOW1, 0)


def test_1202_r16_zero_life_from_an_expel_plays_on_until_an_attack_damages_it() -> None:
    s = setup("""
        phasing: 1
        phase: window1
        1.hand: 6C 7H
        1.home: 7C 8C 9C 10C 7D 8D
        1.field: KS QS
        2.life: 1
        2.field: QH
        2.domain: 6S 5C
    """)
    # 6C beats the whole Domain {S6, C5} in Clubs, 6 to 5: Rlr 2 loses 1 life, to 0.
    assert said(s, "expel 6C at 2:5C")[-1] == "Rlr 2 loses 1 life (6C beats the Domain): 0 left"
    assert s.life == [20, 0] and not s.is_over
    # Rlr 2 has nothing to play; the window is closed. KS attacks and QH blocks it: Rlr 2
    # is dealt no damage, so it stays in the game at 0 life.
    said(s, "attack KS", "done", "block QH 1:KS")
    assert s.life == [20, 0] and not s.is_over
    assert (s.phase, s.actor) == (Phase.WINDOW1, 0)
    # A new Turn Cycle: the unblocked QS damages Rlr 2 (after the 6S left in its Domain wins
    # it 1 life), and the win check ends the game.
    assert said(s, "pass", "attack QS") == [
        "Rlr 1 attacks with QS",
        "D:6S outranks QS in Spades, 6 to 1: bonus 3",
        "Rlr 2 gains 1 life from the Domain: 1",
        "QS of Rlr 1 takes 3 damage (Domain bonus), terminal",
        "Rlr 2 loses 2 life (unblocked attackers): -1 left",
        "Rlr 1 wins: Rlr 2 is at -1 life after an attack",
    ]
    assert s.winner == 0


def test_1202_r16_burn_to_zero_or_below_does_not_end_the_game() -> None:
    # Rlr 1 kept 2 mnr in its pool through the second window: the next Turn Cycle burns it.
    s = setup("""
        phasing: 1
        phase: window2
        actor: 2
        1.life: 1
        1.pool: C2
        1.hand: 7H
        1.field: KS QS
        2.life: 4
        combat: attackers=1:KS
    """)
    assert said(s, "pass") == [
        "Rlr 2 loses 2 life (unblocked attackers): 2 left",
        "Rlr 1 burns 2 mnr: -1 life",
    ]
    assert s.life == [-1, 2]
    assert not s.is_over and (s.phase, s.actor) == (Phase.WINDOW1, 0)
    # Rlr 1 at -1 life still attacks, and wins.
    assert said(s, "pass", "attack QS")[-1] == "Rlr 1 wins: Rlr 2 is at 0 life after an attack"


def test_1202_r1_o_burning_to_zero_at_its_turn_start_plays_on() -> None:
    s = setup("""
        phasing: 1
        phase: attack
        2.life: 1
        2.pool: H1
        1.field: KS{t1}
        2.draw: 7H 8H
    """)
    assert said(s, "end")[:3] == [
        "Rlr 1 does not attack: the turn ends",
        "Turn 2: Rlr 2 is the phasing Rlr",
        "Rlr 2 burns 1 mnr: 0 life",
    ]
    assert s.life == [20, 0]
    assert not s.is_over and s.phase is Phase.KEEP and s.phasing == 1
