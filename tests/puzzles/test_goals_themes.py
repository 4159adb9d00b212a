"""A puzzle's goal and themes, read from hand-written lines (named by the rule they show)."""

from __future__ import annotations

import textwrap

from parlor.puzzles.goals import goal_of, reached
from parlor.puzzles.model import EXAMPLE, Puzzle
from parlor.puzzles.solution import accepts, reorder, run_group
from parlor.puzzles.themes import themes_of

COMBAT = ("combat: attackers=2:{a} blocks=- blocked=- used=- pending=- split=- split_left=0 "
          "bonus_left=0 bonus_to=- dealt=no")

LETHAL = """
    turn: 5
    phasing: 1
    phase: attack
    1.field: KS QS
    2.life: 3
    2.field: AH{t2}
"""
# Rlr 2's AC attacks Rlr 1 at 1 life; Rlr 1's AH can block it (407).
ATTACKED_AT_1 = """
    turn: 6
    phasing: 2
    phase: block
    actor: 1
    1.life: 1
    1.field: AH
    2.field: AC
""" + "    " + COMBAT.format(a="AC") + "\n"
# Rlr 2's AC attacks; Rlr 1's KH (2/3) blocks and kills it, taking 1 (1003.2).
KING_BLOCKS_ACE = """
    turn: 6
    phasing: 2
    phase: block
    actor: 1
    1.field: KH
    2.field: AC
""" + "    " + COMBAT.format(a="AC") + "\n"


def puzzle(pos: str, solver: int, line: tuple[str, ...], goal: str = "best") -> Puzzle:
    return Puzzle(id="p0000", position=textwrap.dedent(pos), solver=solver, goal=goal,
                  line=line, themes=())


def goal_and_themes(pos: str, solver: int, line: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    p = puzzle(pos, solver, line)
    return goal_of(p.states(), solver), themes_of(p.start(), line, solver)


def test_1201_an_attack_that_takes_the_last_life_is_a_win_and_lethal() -> None:
    line = ("attack KS", "attack QS")
    assert goal_and_themes(LETHAL, 0, line) == ("win", ("lethal",))
    assert reached(puzzle(LETHAL, 0, line, "win"), puzzle(LETHAL, 0, line).states()[-1])


def test_1201_one_attacker_short_of_lethal_does_not_reach_the_win() -> None:
    p = puzzle(LETHAL, 0, ("attack KS", "end"), "win")
    final = puzzle(LETHAL, 0, ("attack KS",)).states()[-1]
    assert final.winner is None
    assert not reached(p, final)


def test_407_blocking_a_lethal_attacker_survives_and_is_a_block() -> None:
    line = ("block AH 2:AC",)
    assert goal_and_themes(ATTACKED_AT_1, 0, line) == ("survive", ("block",))
    p = puzzle(ATTACKED_AT_1, 0, line, "survive")
    assert reached(p, p.states()[-1])


def test_1005_not_blocking_a_lethal_attacker_does_not_survive() -> None:
    p = puzzle(ATTACKED_AT_1, 0, ("done",), "survive")
    final = p.states()[-1]
    assert final.winner == 1
    assert not reached(p, final)


def test_1003_a_block_that_kills_the_attacker_wins_the_combat() -> None:
    line = ("block KH 2:AC",)
    assert goal_and_themes(KING_BLOCKS_ACE, 0, line) == ("combat", ("block",))
    p = puzzle(KING_BLOCKS_ACE, 0, ("done",), "combat")  # no block: nothing won
    assert not reached(p, p.states()[-1])


def test_1102_an_expel_by_outranking_is_expel_not_outtrump() -> None:
    pos = """
        phasing: 1
        phase: window1
        1.hand: 4C
        1.home: 7C 8C 9C 10C
        2.field: JH/3C
    """
    assert goal_and_themes(pos, 0, ("expel 4C at 2:JH",)) == ("best", ("expel",))


def test_1106_an_expel_by_outtrumping_is_expel_and_outtrump() -> None:
    # With Hearts trump, 2H outtrumps JH/3C (H2 against H1) although the C3 outshows it.
    pos = """
        phasing: 1
        phase: window1
        trumps: 2:5H
        1.hand: 2H
        1.home: 7H 8H
        2.field: JH/3C
    """
    assert goal_and_themes(pos, 0, ("expel 2H at 2:JH",)) == ("best", ("outtrump", "expel"))


def test_805_an_enh_on_the_trumps_stack_is_outtrump() -> None:
    pos = """
        phasing: 1
        phase: window1
        1.hand: 4S
        1.home: 7S 8S 9S 10S
    """
    assert goal_and_themes(pos, 0, ("play 4S on T",)) == ("best", ("outtrump",))


def test_802_an_enh_on_the_own_domain_is_domain() -> None:
    pos = """
        phasing: 1
        phase: window1
        1.hand: 5S
        1.home: 7S 8S 9S 10S 10H
    """
    assert goal_and_themes(pos, 0, ("play 5S on D1",)) == ("best", ("domain",))


def test_711_carry_is_carry_and_mnr() -> None:
    assert themes_of(EXAMPLE.start(), EXAMPLE.line, EXAMPLE.solver) == ("carry", "mnr")


def test_503_mnr_left_in_the_pool_burns_at_the_next_turn_cycle() -> None:
    pos = """
        turn: 5
        phasing: 1
        phase: attack
        1.pool: H2
        1.field: AS
    """
    p = puzzle(pos, 0, ("attack AS",))
    assert p.states()[-1].life[0] == 18
    assert "burn" in themes_of(p.start(), p.line, 0)


def test_406_a_declaration_step_is_answered_in_any_order() -> None:
    line = ("attack KS", "attack QS")
    assert run_group(line, 0) == {"attack KS", "attack QS"}
    assert accepts(line, 0, "attack QS")
    swapped = reorder(line, 0, "attack QS")
    p = puzzle(LETHAL, 0, swapped, "win")
    assert reached(p, p.states()[-1])
