"""Sanity puzzles the expert must solve: positions in the notation, one right answer each."""

from __future__ import annotations

import textwrap

from parlor.ai.base import BaseAgent
from parlor.ai.greedy import GreedyAgent
from parlor.ai.search import SearchAgent
from parlor.rules.actions import Action
from parlor.rules.engine import apply, legal_actions
from parlor.rules.notation import parse_position
from parlor.rules.state import State
from parlor.rules.view import view

COMBAT = ("combat: attackers=2:KS blocks=- blocked=- used=- pending=- split=- split_left=0 "
          "bonus_left=0 bonus_to=- dealt=no")


def expert(seed: int = 1) -> SearchAgent:
    """The expert's search, capped by iterations so that the tests are reproducible."""
    return SearchAgent(seed, budget=60.0, max_iterations=300)


def position(text: str) -> State:
    return parse_position(textwrap.dedent(text))


def answer(agent: BaseAgent, s: State) -> Action:
    return agent.act(view(s, s.actor), legal_actions(s))


def test_takes_the_lethal_attack() -> None:
    # Two attackers against one blocker and 2 life: attacking with both wins now; ending the
    # turn lets Rlr 2's Cres (taxed on its own turn, so ready again) strike back at 3 life.
    s = position("""
        phasing: 1
        phase: attack
        1.life: 3
        1.field: KS QS
        1.home: 7S 8S 9S 7H
        1.hand: 2C 8D 3H
        2.life: 2
        2.field: AH KD{t2} QD{t2}
        2.home: 7D 8D 9D 10D 7C
    """)
    for seed in (1, 2):
        t = s.clone()
        players = {0: expert(seed), 1: GreedyAgent(seed)}
        while t.turn == 1 and not t.is_over:
            a = answer(players[t.actor], t)
            if t.actor == 0:
                assert a.verb != "end", "declined a winning attack"
            apply(t, a)
        assert t.winner == 0


def test_expels_the_attacker_that_would_kill() -> None:
    # At 1 life, an unblocked KS (Pwr 2) kills. A 2S on the Domain is not enough (+1 life,
    # then 2 damage); expelling KS (2S outranks its S1) removes the attack.
    s = position(f"""
        phasing: 2
        phase: window2
        actor: 1
        1.life: 1
        1.hand: 2S 8C 9C
        1.home: 7S 8S 7C
        1.field: QC{{t1}}
        2.field: KS
        2.home: 7H 8H 9H
        {COMBAT}
    """)
    for seed in (1, 2, 3):
        assert answer(expert(seed), s) == Action.parse("expel 2S at 2:KS")


def test_blocks_to_survive() -> None:
    s = position(f"""
        phasing: 2
        phase: block
        actor: 1
        1.life: 2
        1.field: JH KC
        1.home: 7H 8H 9H
        2.field: KS AS{{t2}}
        2.home: 7S 8S 9S 10S
        {COMBAT}
    """)
    for seed in (1, 2, 3):
        assert answer(expert(seed), s).verb == "block"


def test_does_not_attack_into_a_losing_block() -> None:
    # AH (1/1) would meet KS/4S (2/3, outranking it): it dies for nothing.
    s = position("""
        phasing: 1
        phase: attack
        1.life: 20
        1.field: AH KD{t2} QH{t2}
        1.home: 7H 8H 9H 10H 7D 8D
        1.hand: 9C 3H 4D KH
        2.life: 12
        2.field: KS/4S QS
        2.home: 7S 8S 9S
        2.hand: 2S
    """)
    for seed in (1, 2, 3):
        assert answer(expert(seed), s) == Action.parse("end")


def test_plays_a_lnd_rather_than_passing() -> None:
    s = position("""
        phasing: 1
        phase: window1
        1.hand: 8H 3C 5D
        1.home: 7H 7C
        2.home: 7S 8S 9S
        2.hand: 2S 3S
    """)
    for seed in (1, 2):
        assert answer(expert(seed), s) == Action.parse("play 8H")
