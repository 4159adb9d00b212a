"""The expert's recurring misplays (/work/shared/ai-misplays.md, issue 17) as regression tests.

Each position is the engine's position text at the decision (docs/notation.md; both Hands
are written so it can be set up, the agent sees only its own view). The expert decides at
a fixed iteration budget over fixed seeds, so each test is deterministic; each test also
checks that today's expert kept as the reference (``expert_ref``, parlor.ai.reference, the
behaviour before the fix) still takes the misplay on some of those seeds, so the test keeps
proving something.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from parlor.ai.agent import Choice
from parlor.ai.base import BaseAgent
from parlor.ai.levels import EXPERT_ITERATIONS, EXPERT_POLICY, EXPERT_STRIKE_BACK, make_agent
from parlor.ai.policy import PDEFAULT, PolicyWeights, action_score, best_action
from parlor.rules.actions import Action
from parlor.rules.engine import apply, legal_actions
from parlor.rules.notation import parse_position
from parlor.rules.state import ABILITY_O, ATTACK, BLOCK, State
from parlor.rules.view import view

POSITIONS = Path(__file__).parent / "positions"
SEEDS = range(6)


def decisions(position: str, spec: str, seeds: range = SEEDS) -> list[list[Choice]]:
    s = parse_position((POSITIONS / position).read_text())
    v, legal = view(s, s.actor), legal_actions(s)
    return [make_agent(spec, seed).explain(v, legal, None) for seed in seeds]


def test_b1_309_keeps_the_drawn_card_instead_of_redrawing_its_only_diamond_sources() -> None:
    """B1 (seed 773006, turn 38): ``redraw 10D`` recycles its only Diamond sources and ends
    the turn (309.3), giving up the Lnd drop and a 2-damage attack nothing can block."""
    picks = [c[0].action for c in decisions("b1_redraw.txt", "expert@iters=400")]
    assert all(a.verb == "keep" for a in picks), [str(a) for a in picks]
    ref = [c[0].action for c in decisions("b1_redraw.txt", "expert_ref@iters=400")]
    assert any(a.verb == "redraw" for a in ref)  # the one-step look on 2 deals: a coin flip


@pytest.mark.slow
def test_b1_309_the_keep_veto_keeps_there_too() -> None:
    """B1 with ``keep=veto``: the search and the look must both prefer a Redraw for the
    expert to Redraw; here the search keeps, so the veto changes nothing."""
    picks = [c[0].action for c in decisions("b1_redraw.txt", "expert@iters=400@keep=veto")]
    assert all(a.verb == "keep" for a in picks), [str(a) for a in picks]


@pytest.mark.slow
def test_b2_406_never_declines_an_attack_nothing_can_block_or_beat() -> None:
    """B2 (seed 773018, turn 17): JC, AC and QD/4D ready, the opponent has no Cre, an empty
    Domain, no trump; ``end`` gave up 4 damage."""
    picks = [c[0].action for c in decisions("b2_free_attack.txt", "expert@iters=400")]
    assert all(a.verb == "attack" for a in picks), [str(a) for a in picks]
    ref = [c[0].action for c in decisions("b2_free_attack.txt", "expert_ref@iters=400")]
    assert any(a.verb == "end" for a in ref)


@pytest.mark.slow
def test_b3_601_604_spends_no_search_on_an_enh_that_cannot_help_on_a_lnd() -> None:
    """B3 (seed 770017, turn 39): ``play 4D on 1:9D`` adds no count to the opponent's Lnd and
    changes no mnr (Spades are trump). No Enh on the opponent's Lnds is chosen or even
    searched; the reference searched them and ranked ``play 4D on 1:9D`` among its best."""
    s = parse_position((POSITIONS / "b3_dead_enh.txt").read_text())
    their_lnds = set(s.home[1 - s.actor])

    def on_their_lnds(choices: list[Choice]) -> list[Choice]:
        return [c for c in choices if c.action.verb == "play" and c.action.target in their_lnds]

    for choices in decisions("b3_dead_enh.txt", "expert@iters=120", range(11)):
        assert on_their_lnds(choices)  # offered, and set aside
        assert choices[0].action.verb == "pass" or choices[0] not in on_their_lnds(choices)
        assert all(c.visits == 0 for c in on_their_lnds(choices))
    ref = decisions("b3_dead_enh.txt", "expert_ref@iters=120", range(11))
    assert any(str(c.action) == "play 4D on 1:9D" and c.visits > 0
               for choices in ref for c in choices[:3])


@pytest.mark.slow
def test_711_503_never_carries_a_point_that_burns_its_last_life() -> None:
    """The Carry that burns its own life (shared/ai-misplays.md, seed 773003): at 1 life with
    nothing in Hand the point could pay for, a Carry's point burns (503 as P at the next Turn
    Cycle, 504 as O at its own turn) and takes the expert to 0, where any attack that gets
    through ends the game (1201), while the taxed Queen can no longer block (302.1)."""
    for position in ("c1_carry_burns_last_life_as_p.txt", "c2_carry_burns_last_life_as_o.txt"):
        for spec in ("expert@iters=40", "expert@iters=400"):
            for choices in decisions(position, spec):
                assert choices[0].action.verb != "carry", (position, spec)
                assert any(c.action.verb == "carry" for c in choices)  # offered, declined


def test_711_504_never_carries_as_o_for_a_point_that_only_burns() -> None:
    """As O at 12 life, with nothing in either Hand that the point could pay for: the Carry
    only burns a life point at the expert's next turn (504) and keeps its Queen taxed through
    it (302.1); it denies the phasing Rlr nothing, since that Rlr holds no card."""
    for spec in ("expert@iters=40", "expert@iters=400"):
        for choices in decisions("c3_carry_burns_for_nothing.txt", spec):
            assert choices[0].action.verb != "carry", spec


# -- issue 46: every position at the expert's play budget, in at least 9 of 10 seeds ----------

PLAY_SPEC = f"expert@iters={EXPERT_ITERATIONS}"
PLAY_SEEDS = range(10)
#: the passes out of PLAY_SEEDS each position needs
PASSES = 9


def keeps(s: State, agent: BaseAgent) -> bool:
    return _decide(s, agent).verb == "keep"


def attacks(s: State, agent: BaseAgent) -> bool:
    return _decide(s, agent).verb == "attack"


def no_enh_on_their_lnd(s: State, agent: BaseAgent) -> bool:
    a = _decide(s, agent)
    return not (a.verb == "play" and a.target in set(s.home[1 - s.actor]))


def no_carry(s: State, agent: BaseAgent) -> bool:
    return _decide(s, agent).verb != "carry"


def casts_the_blocker(s: State, agent: BaseAgent) -> bool:
    return str(_decide(s, agent)) == "play AC"


def drops_the_lnd(s: State, agent: BaseAgent) -> bool:
    return str(_decide(s, agent)) == "play 10D"


def keeps_three_cres_home(s: State, agent: BaseAgent) -> bool:
    """C1: every attack declaration the expert makes in this combat (it decides each step
    afresh); at most one of its four Cres attacks, so that three stay home to block the
    opponent's three ready Cres (JS, JH, KH) at its next turn: at 1 life any one that gets
    through kills (1201), and attackers stay taxed through it (1006, 302)."""
    me = s.actor
    attackers = 0
    while s.actor == me and s.phase is ATTACK:
        a = _decide(s, agent)
        attackers += a.verb == "attack"
        apply(s, a)
    return attackers <= 1


def _decide(s: State, agent: BaseAgent) -> Action:
    return agent.explain(view(s, s.actor), legal_actions(s), None)[0].action


def play_budget_passes(position: str, good: Callable[[State, BaseAgent], bool],
                       seeds: range = PLAY_SEEDS, spec: str = PLAY_SPEC) -> int:
    """How many seeds of the expert at ``spec`` do the right thing in ``position``."""
    text = (POSITIONS / position).read_text()
    return sum(good(parse_position(text), make_agent(spec, seed)) for seed in seeds)


#: (position file, what the expert must do, xfail reason or "" when it passes now). The
#: measured counts are of the expert at its play budget (EXPERT_ITERATIONS) on PLAY_SEEDS.
PLAY_BUDGET_CASES: list[tuple[str, Callable[[State, BaseAgent], bool], str]] = [
    ("b1_redraw.txt", keeps, ""),
    ("b2_free_attack.txt", attacks, ""),
    ("b3_dead_enh.txt", no_enh_on_their_lnd, ""),
    ("c1_carry_burns_last_life_as_p.txt", no_carry, ""),
    ("c2_carry_burns_last_life_as_o.txt", no_carry, ""),
    ("c3_carry_burns_for_nothing.txt", no_carry, ""),
    ("c4_all_out_attack_at_1_life.txt", keeps_three_cres_home,
     "C1 passes in 5 seeds of 10 with the shipped expert; EXPERT_STRIKE_BACK passes it in 9"
     " (test below) but played worse in matches (levels.py), and the tree opponent's cheap"
     " replies (opp_policy) pass it in 10 but tip C2 (docs/ai.md)"),
    ("c5_blocker_held_back.txt", casts_the_blocker, ""),
    ("c6_free_lnd_declined.txt", drops_the_lnd, ""),
]


def _case(position: str, good: Callable[[State, BaseAgent], bool], reason: str) -> Any:
    marks = [pytest.mark.slow]
    if reason:
        marks.append(pytest.mark.xfail(strict=True, reason=reason))
    return pytest.param(position, good, marks=marks, id=position.removesuffix(".txt"))


@pytest.mark.parametrize(("position", "good"), [_case(*c) for c in PLAY_BUDGET_CASES])
def test_the_expert_avoids_each_recorded_misplay_at_its_play_budget(
        position: str, good: Callable[[State, BaseAgent], bool]) -> None:
    """shared/ai-misplays.md, each position as the expert plays it (EXPERT_ITERATIONS
    iterations, no clock: reproducible): the right decision in at least 9 seeds of 10.
    B1 keep, B2 attack, B3 no Enh on the opponent's Lnd; the Carry that burns its own life
    (c1-c3) declined; C1 (c4) at most one of its four Cres attacks at 1 life facing three
    ready attackers; C2 (c5) the blocker cast in the first window; the free Lnd drop (c6,
    10D the only play, the turn's last chance) taken."""
    passes = play_budget_passes(position, good)
    assert passes >= PASSES, f"{position}: {passes} of {len(PLAY_SEEDS)} seeds"


def test_1006_302_1_the_cheap_policy_weighs_the_counter_attack() -> None:
    """C1's cause: the tree's players follow the cheap policy's order, and it did not see the
    counter-attack. At 1 life facing JS, JH and KH, the expert's second attacker leaves too
    few Cres home (attackers stay taxed through the opponent's turn, 1006) and costs
    ``counter_lethal``; the opponent's first block keeps its counter-attack lethal and costs
    nothing, its second takes it away (blockers stay taxed, 302.1) and costs it."""
    s = parse_position((POSITIONS / "c4_all_out_attack_at_1_life.txt").read_text())
    off = dataclasses.replace(EXPERT_POLICY, counter_lethal=0.0)

    def cost(a: str) -> float:
        return (action_score(s, Action.parse(a), off)
                - action_score(s, Action.parse(a), EXPERT_POLICY))

    assert cost("attack KC") == 0.0
    apply(s, "attack KC")
    assert cost("attack JS") == EXPERT_POLICY.counter_lethal > 0
    apply(s, "attack JS")
    apply(s, "attack KH")
    apply(s, "done")
    assert s.phase is BLOCK
    assert cost("block JS 2:KC") == 0.0
    apply(s, "block JS 2:KC")
    assert cost("block KH 2:JS") == EXPERT_POLICY.counter_lethal
    assert PDEFAULT.counter_lethal == 0.0  # Greedy and the lower levels: unchanged


def test_707_1005_the_cheap_policy_keeps_the_strike_back_and_strikes() -> None:
    """C1 from the other side: after the expert attacked with two of its four Cres at 1 life,
    the opponent's three untaxed Cres kill it at its turn if all three attack (two blockers,
    1005, 1201). The tree's opponent followed the cheap policy, which volleyed with JS (the
    user taxes itself on P's turn and stays taxed through its own, 707, 302.1) and then
    declared one attacker of three; ``strike_back`` costs the volley and makes every
    attacker of the lethal strike worth declaring."""
    s = parse_position((POSITIONS / "c4_all_out_attack_at_1_life.txt").read_text())
    off = EXPERT_POLICY  # the shipped expert's: no strike back
    on = dataclasses.replace(EXPERT_POLICY, strike_back=6.0)  # EXPERT_STRIKE_BACK's

    def cost(a: str) -> float:
        return (action_score(s, Action.parse(a), off)
                - action_score(s, Action.parse(a), on))

    for a in ("attack KC", "attack JS", "done", "done"):  # no blocks: its Cres stay ready
        apply(s, a)
    assert s.phase is ABILITY_O
    assert cost("volley JS 2:KC") == on.strike_back > 0
    apply(s, "done")
    while s.phase is not ATTACK:
        apply(s, best_action(s, legal_actions(s), on))
    apply(s, "end")  # the expert keeps KH and KS home
    while s.phase is not ATTACK:
        apply(s, best_action(s, legal_actions(s), on))
    assert declarations(s.clone(), off) == ["attack", "done"]  # one attacker of three
    strike = on.attack_base + on.strike_back
    assert declarations(s, on, strike) == ["attack", "attack", "attack"]  # all
    s0 = parse_position((POSITIONS / "c4_all_out_attack_at_1_life.txt").read_text())
    assert action_score(s0, Action.parse("attack KC"), off) \
        == action_score(s0, Action.parse("attack KC"), on)  # 7 Pwr against 10 life
    assert PDEFAULT.strike_back == 0.0  # Greedy and the lower levels: unchanged


def declarations(s: State, w: PolicyWeights, attack_score: float | None = None) -> list[str]:
    """The cheap policy's attack declarations, the score of every attacker it declares
    checked against ``attack_score``."""
    verbs = []
    while s.phase is ATTACK:
        a = best_action(s, legal_actions(s), w)
        if a.verb == "attack" and attack_score is not None:
            assert action_score(s, a, w) == attack_score, str(a)
        verbs.append(a.verb)
        apply(s, a)
    return verbs


@pytest.mark.slow
def test_the_expert_with_the_strike_back_avoids_c1_at_its_play_budget() -> None:
    """C1 (c4) with EXPERT_STRIKE_BACK at the play budget: at most one attacker in 9 seeds of
    10 (the shipped expert: 5, the strict xfail above)."""
    spec = f"{EXPERT_STRIKE_BACK}@iters={EXPERT_ITERATIONS}"
    passes = play_budget_passes("c4_all_out_attack_at_1_life.txt", keeps_three_cres_home,
                                spec=spec)
    assert passes >= PASSES, f"c4: {passes} of {len(PLAY_SEEDS)} seeds"
