"""Mining: a planted lethal attack is found as a puzzle; the judgement reads only what the
solver sees; a decision whose best answer hangs on a hidden card is rejected.

The budgets here are small (:data:`SMALL`), so that the tests take seconds; the shipped set
is mined at :data:`parlor.puzzles.mine.JUDGE` (docs/puzzles.md)."""

from __future__ import annotations

import textwrap

from parlor.puzzles.mine import Mined, Settings, mine_decision, tactical
from parlor.puzzles.verify import Thresholds, judge
from parlor.rules.engine import legal_actions
from parlor.rules.notation import parse_position, position
from parlor.rules.state import State

SMALL = Settings(play_iters=100, screen_iters=100, reply_iters=100,
                 judge=Thresholds(iters=400, margin=0.10, hands=6, hand_iters=100, agree=0.8))

# Rlr 1 to attack with KS and QS (Pwr 2 + 2) against 3 life; Rlr 2's Cres are taxed on its
# own turn, so they cannot block (704): both attackers win (1201), one alone does not; and
# not attacking loses, as Rlr 2's four Cres strike back next turn against 2 life.
LETHAL = """
    turn: 5
    phasing: 1
    phase: attack
    1.life: 2
    1.field: KS QS AH{t1}
    1.home: 7S 8S 7H
    2.life: 3
    2.field: AC{t2} KC{t2} KD{t2} QD{t2}
    2.home: 7C 8C 9D
    2.hand: 2D 3D 9C
"""


def state(text: str) -> State:
    return parse_position(textwrap.dedent(text))


def test_the_planted_lethal_attack_is_mined_as_a_win() -> None:
    s = state(LETHAL)
    counts = Mined("test")
    p = mine_decision(s, SMALL, seed=3, source="planted", counts=counts)
    assert p is not None
    assert p.goal == "win" and "lethal" in p.themes
    solver = [p.line[i] for i in p.solver_moves()]
    assert set(solver[:2]) == {"attack KS", "attack QS"}
    assert set(solver[2:]) <= {"done", "pass"}
    assert p.position == position(s) and p.solver == 0
    assert (counts.screened, counts.judged) == (1, 1)


def test_the_opening_turns_and_lnd_drops_are_not_screened() -> None:
    early = state(LETHAL.replace("turn: 5", "turn: 2"))
    assert not tactical(early, legal_actions(early))
    window = state("""
        turn: 7
        phasing: 1
        phase: window1
        1.hand: 9H KS
        1.home: 7S 8S 9S
    """)
    assert not tactical(window, legal_actions(window))  # a Lnd and a Cre: no Enh, no expel


def test_the_judgement_reads_only_the_solvers_view() -> None:
    # The same position with Rlr 2's Hand swapped for other cards it holds unseen (its Draw
    # pile): the solver's view is the same, so is the judgement.
    s = state(LETHAL)
    t = state(LETHAL.replace("2.hand: 2D 3D 9C", "2.hand: JS QH 4S"))
    assert s.hand[1] != t.hand[1]
    small = SMALL.judge
    assert judge(s, 0, small, seed=5) == judge(t, 0, small, seed=5)
