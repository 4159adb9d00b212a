"""Mining: a planted lethal attack is found as a puzzle; the judgement reads only what the
solver sees; a decision whose best answer hangs on a hidden card is rejected.

The budgets here are small (:data:`SMALL`), so that the tests take seconds (slow: a few
searches each); the shipped set is mined at :data:`parlor.puzzles.mine.JUDGE`
(docs/puzzles.md)."""

from __future__ import annotations

import textwrap

import pytest

from parlor.puzzles.mine import Mined, Settings, mine_decision, mine_record, tactical
from parlor.puzzles.verify import FixedDeal, Thresholds, expert, judge
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.notation import parse_position, position, record
from parlor.rules.state import State
from parlor.rules.view import view

SMALL = Settings(play_iters=100, screen_iters=100, reply_iters=100,
                 judge=Thresholds(iters=400, margin=0.10, hands=6, hand_iters=150, agree=0.8))

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


@pytest.mark.slow
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


@pytest.mark.slow
def test_the_judgement_reads_only_the_solvers_view() -> None:
    # The same position with Rlr 2's Hand swapped for other cards it holds unseen (its Draw
    # pile): the solver's view is the same, so is the judgement.
    s = state(LETHAL)
    t = state(LETHAL.replace("2.hand: 2D 3D 9C", "2.hand: JS QH 4S"))
    assert s.hand[1] != t.hand[1]
    small = SMALL.judge
    assert judge(s, 0, small, seed=5) == judge(t, 0, small, seed=5)


FACES = [r + s for s in "CDHS" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J",
                                         "Q", "K")]
#: Rlr 2's cards Rlr 1 cannot see: its Hand of 3 and its Draw pile hold these six (the rest
#: of its deck is on the table or in its Discard, open in casual play, 109).
UNSEEN = ("2S", "9D", "10D", "10H", "8H", "9H")


def hidden_2s(hand: str) -> State:
    """Both at 1 life. Rlr 1's AS can attack; Rlr 2's AC is taxed (it cannot block, 704) and
    strikes back next turn. Without 2S in Rlr 2's Hand the attack wins (1201). With it, Rlr 2
    answers in the second window (an expel of AS, 2S outranking S1, or 2S on its Domain,
    1004.1), AS is lost and taxed AS cannot block AC next turn: Rlr 1 should not attack."""
    pool = set(UNSEEN) - set(hand.split())
    discard = [f for f in FACES if f not in {"AC", "7S", "8S", *UNSEEN}]
    return state(f"""
        turn: 9
        phasing: 1
        phase: attack
        1.life: 1
        1.field: AS
        1.home: 7C 8C
        2.life: 1
        2.field: AC{{t2}}
        2.home: 7S 8S
        2.hand: {hand}
        2.draw: {' '.join(sorted(pool))}
        2.discard: {' '.join(discard)}
    """)


def perfect_best(s: State) -> str:
    """The best decision by a search that sees ``s`` whole (every hidden card)."""
    agent = expert(150, 1)
    agent.deals = lambda _v, rng: FixedDeal(s, s.actor, rng)
    return str(agent.explain(view(s, s.actor, log=False), legal_actions(s))[0].action)


@pytest.mark.slow
def test_a_decision_whose_answer_hangs_on_a_hidden_card_is_rejected() -> None:
    with_2s, without = hidden_2s("2S 9D 10D"), hidden_2s("9D 10D 10H")
    assert view(with_2s, 0, log=False) == view(without, 0, log=False)
    assert perfect_best(with_2s) == "end"
    assert perfect_best(without) == "attack AS"
    j = judge(with_2s, 0, SMALL.judge, seed=5)
    assert j is not None and j.agreement < SMALL.judge.agree and not j.clear(SMALL.judge)
    assert mine_decision(with_2s, SMALL, seed=3, source="hidden") is None


def test_a_game_record_is_mined_decision_by_decision() -> None:
    # The opening of a record (turns 1-2): its decisions are counted, none is screened.
    s = new_game(5)
    while s.turn < 3:
        apply(s, legal_actions(s)[-1])
    mined = mine_record(record(s), SMALL, label="opening")
    assert mined.decisions > 0
    assert (mined.screened, mined.puzzles) == (0, [])
