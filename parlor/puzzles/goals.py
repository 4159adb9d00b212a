"""A puzzle's goal: which one a line reaches, and whether a played line reached it.

The goals (:data:`parlor.puzzles.model.GOALS`), from the solver's side:

* ``win``: the solver has won by the end of the line (1201: only an attack wins);
* ``survive``: the solver is attacked by Cres whose Pwr reaches its life, and the line ends
  with that combat over and the solver not beaten;
* ``combat``: the line ends with the combat over, and the opponent lost more of its Cres
  (Pwr + Tgh of those gone or terminal, 1007) than the solver;
* ``best``: none of these; the line is the clearly best play.

A combat is *over* when the state holds no declared attackers: the attack step's Combat is
empty until the first declaration, and the engine ends it after the win check (1006).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlor.rules.cards import PWR, TGH
from parlor.rules.state import OVER, State

if TYPE_CHECKING:
    from parlor.puzzles.model import Puzzle


def in_combat(s: State) -> bool:
    """Attackers are declared and their combat is not over (406-1006)."""
    return s.phase is not OVER and s.combat is not None and bool(s.combat.attackers)


def attack_pwr(s: State) -> int:
    """The declared attackers' Pwr, Sally included (702)."""
    if s.combat is None:
        return 0
    return sum(PWR[c % 52] + s.pwr_mod[c] for c in s.combat.attackers)


def threatened(s: State, solver: int) -> bool:
    """The solver is attacked by Cres whose Pwr, unblocked, would take all its life (1005)."""
    return s.phasing != solver and in_combat(s) and attack_pwr(s) >= s.life[solver]


def cres_lost(start: State, final: State, p: int) -> int:
    """Pwr + Tgh of ``p``'s Cres on the Field at ``start`` that are gone or terminal at
    ``final`` (a terminal Cre goes to Discard at the next untax, 1007.2)."""
    return sum(PWR[c % 52] + TGH[c % 52] for c in start.field[p]
               if c not in final.field[p] or final.terminal[c])


def ahead(start: State, final: State, solver: int) -> bool:
    """The opponent lost more in Cres than the solver between the two states."""
    return cres_lost(start, final, 1 - solver) > cres_lost(start, final, solver)


def goal_of(states: list[State], solver: int) -> str:
    """The strongest goal a line reaches (the module's order), given the state before each of
    its decisions and the state after the last."""
    start, final = states[0], states[-1]
    if final.winner == solver:
        return "win"
    if final.winner is not None or in_combat(final) or not any(map(in_combat, states)):
        return "best"
    if threatened(start, solver):
        return "survive"
    if ahead(start, final, solver):
        return "combat"
    return "best"


def reached(puzzle: Puzzle, final: State) -> bool:
    """Whether ``final`` (the state after a line played from the puzzle's position) reaches
    the puzzle's goal. ``best`` has no goal beyond the line itself: it holds while the solver
    has not lost."""
    solver = puzzle.solver
    if puzzle.goal == "win":
        return final.winner == solver
    if final.winner == 1 - solver or in_combat(final):
        return puzzle.goal == "best" and final.winner != 1 - solver
    if puzzle.goal == "survive":
        return True
    if puzzle.goal == "combat":
        return ahead(puzzle.start(), final, solver)
    return True


__all__ = ["ahead", "attack_pwr", "cres_lost", "goal_of", "in_combat", "reached",
           "threatened"]
