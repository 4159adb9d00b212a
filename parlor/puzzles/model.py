"""A puzzle as a value: a position from a real game, the Rlr who solves it, a goal, and the
solution line, with its themes, its rating and where it came from.

A puzzle's ``position`` is the whole state (the :func:`~parlor.rules.notation.position`
text), hidden cards included: the opponent's Hand and both Draw piles are needed to replay the
line, and the mining checked that the solution does not depend on them (it stays best on
hands consistent with the solver's view). A front-end shows the solver only
``view(state, solver)``, as at a game.

The ``line`` holds every decision from the position on, in order, the solver's and the
opponent's alike (the opponent's are forced or best); who takes each is the state's
``actor`` when it is replayed. The solver must find the solver's decisions; the opponent's
are played for them.

    >>> p = Puzzle.parse(EXAMPLE.text())
    >>> p == EXAMPLE
    True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from parlor.rules.engine import apply
from parlor.rules.notation import parse_position
from parlor.rules.state import State
from parlor.rules.values import Value

#: What the solver must reach, with the words a page shows.
GOALS: dict[str, str] = {
    "win": "Win this turn",           # the solver wins the game by the end of the line
    "survive": "Survive the attack",  # the solver is attacked and is alive, the attack over
    "combat": "Win the combat",       # the solver's side comes out of the combat ahead
    "best": "Find the best move",     # the line is the clearly best play, no short-term goal
}

#: Themes a puzzle may carry (what its solution does), in the rulebook's names.
THEMES: tuple[str, ...] = (
    "lethal", "outtrump", "expel", "domain", "block", "carry", "harry", "sally", "volley",
    "ally", "mnr", "burn",
)

START_RATING = 1500.0
START_RD = 350.0


class PuzzleError(ValueError):
    """A puzzle that does not parse, or whose line does not replay."""


@dataclass(frozen=True, slots=True)
class Puzzle(Value):
    id: str                  # stable: "p" and four digits in the shipped set
    position: str            # the notation's position text, hidden cards included
    solver: int              # 0 or 1 (Rlr 1 or Rlr 2)
    goal: str                # a key of GOALS
    line: tuple[str, ...]    # every decision from the position, in the notation's words
    themes: tuple[str, ...]  # from THEMES
    rating: float = START_RATING
    rd: float = START_RD
    source: str = ""         # where it came from, e.g. "seed=17 expert-vs-strong decision=41"

    def __post_init__(self) -> None:
        if self.goal not in GOALS:
            raise PuzzleError(f"goal {self.goal!r} is not one of {sorted(GOALS)}")
        if self.solver not in (0, 1):
            raise PuzzleError(f"solver {self.solver} is not 0 or 1")
        unknown = [t for t in self.themes if t not in THEMES]
        if unknown:
            raise PuzzleError(f"unknown themes {unknown}: the themes are {list(THEMES)}")
        if not self.line:
            raise PuzzleError("a puzzle's line has at least one decision")

    def start(self) -> State:
        """The position, ready to play."""
        return parse_position(self.position)

    def states(self) -> list[State]:
        """The state before each decision of the line, then the state after the last."""
        s = self.start()
        out = [s.clone()]
        for i, a in enumerate(self.line):
            try:
                apply(s, a)
            except ValueError as exc:
                raise PuzzleError(f"{self.id}: decision {i + 1} '{a}' does not replay: "
                                  f"{exc}") from None
            out.append(s.clone())
        return out

    def solver_moves(self) -> list[int]:
        """The indexes in ``line`` of the decisions the solver must find."""
        return [i for i, s in enumerate(self.states()[:-1]) if s.actor == self.solver]

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "position": self.position, "solver": self.solver,
                "goal": self.goal, "line": list(self.line), "themes": list(self.themes),
                "rating": self.rating, "rd": self.rd, "source": self.source}

    def text(self) -> str:
        """One JSON line: the form of the shipped data file."""
        return json.dumps(self.as_json(), sort_keys=True)

    @classmethod
    def parse(cls, text: str) -> Puzzle:
        try:
            d = json.loads(text)
            return cls(id=str(d["id"]), position=str(d["position"]), solver=int(d["solver"]),
                       goal=str(d["goal"]), line=tuple(str(a) for a in d["line"]),
                       themes=tuple(str(t) for t in d["themes"]),
                       rating=float(d.get("rating", START_RATING)),
                       rd=float(d.get("rd", START_RD)), source=str(d.get("source", "")))
        except (KeyError, TypeError, json.JSONDecodeError) as exc:
            raise PuzzleError(f"not a puzzle line: {exc}") from None


def load_puzzles(text: str | None = None) -> list[Puzzle]:
    """The shipped set (or the puzzles in ``text``), one JSON line each; ``#`` lines and blank
    lines are skipped."""
    if text is None:
        text = resources.files("parlor.puzzles").joinpath("data/puzzles.jsonl").read_text()
    return [Puzzle.parse(line) for line in text.splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


EXAMPLE = Puzzle(id="p0000", position="phasing: 1\nphase: ability_o\nactor: 2\n1.home: 9D\n"
                 "1.field: AS\n2.field: QH\n2.home: 8C\n2.hand: 2D\ncombat: attackers=1:AS\n",
                 solver=1, goal="best", line=("carry QH 1:9D",), themes=("carry",),
                 source="lesson 10-carry")
