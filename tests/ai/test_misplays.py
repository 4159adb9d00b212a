"""The expert's recurring misplays (/work/shared/ai-misplays.md, issue 17) as regression tests.

Each position is the engine's position text at the decision (docs/notation.md; both Hands
are written so it can be set up, the agent sees only its own view). The expert decides at
a fixed iteration budget over fixed seeds, so each test is deterministic; each test also
checks that today's expert kept as the reference (``expert_ref``, parlor.ai.reference, the
behaviour before the fix) still takes the misplay on some of those seeds, so the test keeps
proving something.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from parlor.ai.agent import Choice
from parlor.ai.levels import make_agent
from parlor.rules.engine import legal_actions
from parlor.rules.notation import parse_position
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
