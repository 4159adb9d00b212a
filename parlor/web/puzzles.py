"""Puzzles over HTTP, statelessly as the lessons are (:mod:`parlor.web.learning`): the browser
sends the solver's moves accepted so far with each new one; the server replays them against
the puzzle's line, plays the opponent's replies from the line, and answers with the same
snapshot shape as a game's (the solver's view only: ``view(state, solver)``), plus the
puzzle's part.

The result of an attempt comes from the moves the server replayed, never from the browser: the
last of the solver's moves of the line solves the puzzle; any other legal move fails it (unless
it wins the game at once: then it is another solution). A failure is explained in the game's
words: the move is made, the computer answers at a small fixed budget, and the events are said
as the solver reads them, with the table at the position after it. The solution is then shown
one decision at a time.

A player's first result on a puzzle is rated (Glicko-2, :mod:`parlor.store.puzzles`): an
account's rating is kept on the server, an anonymous browser keeps its own and sends it with
its moves, with a random id of its own so that a result counts once.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from parlor.present.prose import card_words, prose
from parlor.present.whynot import costs, why_not
from parlor.puzzles.model import GOALS, Puzzle, PuzzleError, load_puzzles
from parlor.rules.actions import Action, ActionParseError
from parlor.rules.engine import apply, legal_actions
from parlor.rules.events import Event
from parlor.rules.glicko import Rating
from parlor.rules.state import State, card_text
from parlor.store import GameStore
from parlor.store.puzzles import PuzzleRatings, Rated
from parlor.web.computer import think
from parlor.web.games import (
    BadAction,
    GameNotFound,
    IllegalAction,
    agent_view,
    choices,
    table_view,
    view_payload,
)
from parlor.web.games import _log_entries as log_entries

#: The most moves a request may carry (a puzzle's line is a few decisions).
MAX_MOVES = 40
#: How the computer answers a wrong move: a fixed number of search iterations, so that the
#: same wrong move is always answered alike.
ANSWER = "strong@iters=60"
#: The computer's decisions after a wrong move, at most, before the solver's next decision.
REPLIES = 6
#: The next puzzle is drawn from this many of the nearest to the player's rating.
NEAR = 5
#: The solver's declarations that may come in any order (two attackers, three blockers, a
#: split's points): the line holds one order, the solver may find another.
ANY_ORDER = ("attack", "block", "assign", "bonus")
#: A version for the solution's steps, apart from the play's (the table redraws on a change).
SOLUTION_VERSION = 1000

THEME_WORDS: dict[str, str] = {
    "lethal": "a lethal attack: the opponent's life can reach 0 this turn",
    "outtrump": "outtrumping: a Trump beats the one on the stack",
    "expel": "an expel",
    "domain": "the Domain",
    "block": "a block to survive the attack",
    "carry": "Carry: a Queen takes an opponent's Lnd",
    "harry": "Harry",
    "sally": "Sally",
    "volley": "Volley",
    "ally": "Ally",
    "mnr": "mnr: what your pool can pay",
    "burn": "burn: an unspent pool point hurts",
}


@dataclass(frozen=True, slots=True)
class Solver:
    """Who attempts a puzzle: ``key`` is ``a:<account>`` or ``b:<browser id>`` (None: the
    result is not rated), ``start`` the rating the player has now, ``account_id`` set when
    the rating is the account's (kept on the server)."""

    key: str | None
    start: Rating
    account_id: str | None = None


@dataclass
class Play:
    """A puzzle being played: the state, the line as played (the solver's declarations in
    the order made), how many of its decisions are made, and the solver's moves."""

    state: State
    line: list[str]
    at: int = 0
    moves: list[str] = field(default_factory=list)

    @property
    def solved(self) -> bool:
        return self.at >= len(self.line)


@dataclass(frozen=True)
class Prepared:
    """A puzzle with what every request about it needs, computed once."""

    puzzle: Puzzle

    @cached_property
    def states(self) -> list[State]:
        return self.puzzle.states()

    @cached_property
    def solver_at(self) -> frozenset[int]:
        return frozenset(self.puzzle.solver_moves())


def _action(text: str) -> Action | None:
    try:
        return Action.parse(text)
    except (ActionParseError, ValueError):
        return None


def same_move(sent: str, wanted: str) -> bool:
    """Whether ``sent`` is the line's decision ``wanted`` (a payment the line leaves to the
    engine may be chosen by the solver)."""
    a, b = _action(sent), _action(wanted)
    if a is None or b is None:
        return False
    return a == b or (b.tax is None and b.spend is None and a.base == b)


class PuzzleRoom:
    """A puzzle set (the shipped one unless given) and the ratings of its puzzles."""

    def __init__(self, puzzles: Sequence[Puzzle], ratings: PuzzleRatings) -> None:
        self.all = sorted(puzzles, key=lambda p: p.id)
        self.by_id = {p.id: Prepared(p) for p in self.all}
        self.ratings = ratings

    @classmethod
    def of(cls, path: str, store: GameStore) -> PuzzleRoom:
        """The puzzles of the JSON-lines file ``path`` ("": the shipped set), rated in
        ``store``."""
        text = Path(path).read_text(encoding="utf-8") if path else None
        return cls(load_puzzles(text), PuzzleRatings(store))

    def get(self, puzzle_id: str) -> Prepared:
        found = self.by_id.get(puzzle_id)
        if found is None:
            raise GameNotFound(f"there is no puzzle {puzzle_id!r}")
        return found

    # -- choosing -------------------------------------------------------------------------------

    def current_ratings(self) -> dict[str, Rating]:
        """Every puzzle's rating now: the stored one, else the shipped one."""
        stored = self.ratings.puzzles()
        return {p.id: stored.get(p.id, Rating(p.rating, p.rd)) for p in self.all}

    def index(self, theme: str = "", goal: str = "") -> list[dict[str, Any]]:
        now = self.current_ratings()
        return [{"id": p.id, "goal": p.goal, "goal_words": GOALS[p.goal],
                 "themes": list(p.themes), "rating": round(now[p.id].rating)}
                for p in self.all
                if (not theme or theme in p.themes) and (not goal or goal == p.goal)]

    def near(self, rating: float, *, done: set[str] | frozenset[str] = frozenset(),
             theme: str = "", goal: str = "", rng: random.Random | None = None,
             k: int = NEAR) -> Puzzle | None:
        """A puzzle near ``rating``: one of the ``k`` nearest among those not ``done`` (all of
        them when every one is done) that have the theme and goal asked."""
        now = self.current_ratings()
        fits = [p for p in self.all
                if (not theme or theme in p.themes) and (not goal or goal == p.goal)]
        fresh = [p for p in fits if p.id not in done] or fits
        if not fresh:
            return None
        nearest = sorted(fresh, key=lambda p: (abs(now[p.id].rating - rating), p.id))[:k]
        return (rng or random.Random()).choice(nearest)

    def daily(self, day: dt.date | None = None) -> Puzzle | None:
        """The puzzle of the UTC date ``day`` (today): the same all day, for everybody."""
        if not self.all:
            return None
        day = day or dt.datetime.now(dt.UTC).date()
        n = int.from_bytes(hashlib.sha256(f"parlor-daily/{day.isoformat()}".encode())
                           .digest()[:8], "big")
        return self.all[n % len(self.all)]

    # -- playing --------------------------------------------------------------------------------

    def replay(self, prep: Prepared, moves: object) -> Play:
        """The puzzle after the solver's ``moves`` (each must be the line's), the opponent's
        replies from the line played up to the solver's next decision."""
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise BadAction('send {"moves": [...], "action": "..."}: moves is a list of '
                            "actions")
        if len(moves) > MAX_MOVES:
            raise BadAction(f"a puzzle takes at most {MAX_MOVES} moves")
        p = Play(prep.states[0].clone(), list(prep.puzzle.line))
        self._advance(prep, p)
        for m in moves:
            j = None if p.solved else self._match(prep, p, m)
            if j is None:
                raise BadAction(f"these moves are not this puzzle's solution: {m!r}")
            self._accept(prep, p, j)
        return p

    def _advance(self, prep: Prepared, p: Play) -> None:
        """The opponent's decisions of the line, up to the solver's next one."""
        while not p.solved and p.state.actor != prep.puzzle.solver:
            self._apply(prep, p.state, p.line[p.at], p.at)
            p.at += 1

    @staticmethod
    def _apply(prep: Prepared, s: State, action: str, i: int) -> None:
        try:
            apply(s, action)
        except ValueError as exc:  # the shipped set is replayed by a test: a bug
            raise PuzzleError(f"{prep.puzzle.id}: decision {i + 1} '{action}' does not "
                              f"replay: {exc}") from None

    def _match(self, prep: Prepared, p: Play, action: str) -> int | None:
        """Which of the line's next decisions ``action`` is (the one due, or a later one of
        the same run of declarations); None: not the line's."""
        if same_move(action, p.line[p.at]):
            return p.at
        verb = p.line[p.at].split()[0]
        j = p.at + 1
        while (verb in ANY_ORDER and j < len(p.line) and j in prep.solver_at
               and p.line[j].split()[0] == verb):
            if same_move(action, p.line[j]):
                return j
            j += 1
        return None

    def _accept(self, prep: Prepared, p: Play, j: int) -> None:
        p.line[p.at], p.line[j] = p.line[j], p.line[p.at]
        self._apply(prep, p.state, p.line[p.at], p.at)
        p.moves.append(p.line[p.at])
        p.at += 1
        self._advance(prep, p)

    def act(self, prep: Prepared, moves: object, action: object,
            solver: Solver) -> dict[str, Any]:
        """The snapshot after ``action``: the next position, the puzzle solved, or failed
        with the explanation; IllegalAction for a move the rules refuse (nothing counts)."""
        p = self.replay(prep, moves)
        if action is None:
            return self.snapshot(prep, p)
        if p.solved:
            raise BadAction("this puzzle is solved: there is nothing more to play")
        if not isinstance(action, str) or not action.strip() or len(action) > 200:
            raise BadAction("send an action in the game's notation, e.g. 'attack AS'")
        try:
            apply(p.state.clone(), action)
        except ValueError as exc:
            raise IllegalAction(f"{exc}", version=len(p.moves)) from None
        j = self._match(prep, p, action)
        if j is not None:
            self._accept(prep, p, j)
            if not p.solved:
                return self.snapshot(prep, p)
            return self.snapshot(prep, p, result="solved", rated=self._rate(prep, solver, True))
        return self._wrong(prep, p, action, solver)

    def _wrong(self, prep: Prepared, p: Play, action: str, solver: Solver) -> dict[str, Any]:
        """A legal move that is not the line's: the computer answers it, and the puzzle is
        failed (or solved, when the move won the game outright)."""
        s = p.state.clone()
        first = len(s.log or ())
        apply(s, action)
        p.moves.append(action)
        turn = s.turn
        for k in range(REPLIES):  # the computer's answer, within this turn
            if s.is_over or s.actor == prep.puzzle.solver or s.turn != turn:
                break
            legal = [str(a) for a in legal_actions(s)]
            apply(s, think(ANSWER, k, agent_view(s, s.actor), legal, None))
        p.state = s
        me = prep.puzzle.solver
        if s.is_over and s.winner == me:
            return self.snapshot(prep, p, result="solved", rated=self._rate(prep, solver, True))
        said = [prose(e, me, me) for e in until_next_turn((s.log or [])[first:])]
        return self.snapshot(prep, p, result="failed", rated=self._rate(prep, solver, False),
                             explanation=[*said, verdict(prep.puzzle.goal, s, me)])

    def _rate(self, prep: Prepared, solver: Solver, solved: bool) -> Rated | None:
        if solver.key is None:
            return None
        pz = prep.puzzle
        return self.ratings.record(solver.key, pz.id, solved, start=solver.start,
                                   shipped=Rating(pz.rating, pz.rd),
                                   account_id=solver.account_id)

    # -- hints and the solution -----------------------------------------------------------------

    def hint(self, prep: Prepared, moves: object, level: object) -> dict[str, Any]:
        """The first hint names the puzzle's themes; the second the card to use now."""
        p = self.replay(prep, moves)
        if p.solved:
            raise BadAction("this puzzle is solved: no hint needed")
        if level not in (1, 2):
            raise BadAction('send {"level": 1} for the theme, {"level": 2} for the card')
        if level == 1:
            words = [THEME_WORDS[t] for t in prep.puzzle.themes] or ["the position itself"]
            return {"level": 1, "text": f"Think of {'; '.join(words)}."}
        a = _action(p.line[p.at])
        if a is None or a.card < 0:
            verb = p.line[p.at].split()[0]
            return {"level": 2, "card": None,
                    "text": f"No card this time: the move is “{verb}”."}
        card = card_text(a.card)
        return {"level": 2, "card": card, "text": f"Use {card_words(card)} ({card})."}

    def solution(self, prep: Prepared, step: object, solver: Solver) -> dict[str, Any]:
        """The table after ``step`` decisions of the line, and what the last one did. A look
        at the solution before any result on the puzzle counts as a failure."""
        n = len(prep.puzzle.line)
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= n:
            raise BadAction(f"step is a whole number from 0 to {n}")
        rated = self._rate(prep, solver, False)
        s = prep.states[step]
        me = prep.puzzle.solver
        before = len(prep.states[step - 1].log or ()) if step else len(s.log or ())
        by_me = step > 0 and prep.states[step - 1].actor == me
        p = Play(s.clone(), list(prep.puzzle.line), step)
        snap = self.snapshot(prep, p, result="solution", rated=rated)
        snap["version"] = SOLUTION_VERSION + step
        snap["puzzle"]["solution"] = {
            "step": step, "steps": n,
            "by": None if step == 0 else ("you" if by_me else "the computer"),
            "move": prep.puzzle.line[step - 1] if by_me else None,
            "said": [prose(e, me, me) for e in (s.log or [])[before:]],
        }
        return snap

    # -- the snapshot ---------------------------------------------------------------------------

    def snapshot(self, prep: Prepared, p: Play, *, result: str | None = None,
                 rated: Rated | None = None,
                 explanation: list[str] | None = None) -> dict[str, Any]:
        pz = prep.puzzle
        s = p.state
        over = result is not None or p.solved or s.is_over
        v = table_view(s, pz.solver)
        found = sum(1 for i in range(p.at) if i in prep.solver_at)
        stored = self.ratings.puzzles([pz.id]).get(pz.id, Rating(pz.rating, pz.rd))
        return {
            "id": f"puzzle-{pz.id}",
            "kind": "puzzle",
            "version": len(p.moves),
            "level": "puzzle",
            "settings": str(s.settings),
            "status": "over" if over else "live",
            "you": pz.solver,
            "seed": None,
            "thinking": False,
            "your_turn": not over and s.actor == pz.solver,
            "view": view_payload(v),
            "choices": [] if over else choices(v),
            "log": log_entries(s, pz.solver, 0, pz.solver),
            "log_total": len(s.log or ()),
            "costs": costs(s, pz.solver),
            "why_not": why_not(s, pz.solver),
            # not learning_aids: its coach and fight forecast would give the answer away, and
            # are not worked out only to be dropped
            "coach": {},
            "forecast": {},
            "moves": list(p.moves),
            "result_text": RESULT_WORDS.get(result or "", ""),
            "puzzle": {
                "id": pz.id,
                "goal": pz.goal,
                "goal_words": GOALS[pz.goal],
                "to_find": len(prep.solver_at),
                "found": found,
                "rating": round(stored.rating),
                "result": result,
                "explanation": explanation or [],
                # the themes are the first hint: said once the puzzle is over
                "themes": list(pz.themes) if over else None,
                "steps": len(pz.line),
                "rated": None if rated is None else {
                    "player": rating_json(rated.player), "puzzle": rating_json(rated.puzzle)},
            },
        }


RESULT_WORDS = {
    "solved": "That is the puzzle's solution.",
    "failed": "Your move does not reach the goal: see what happens, then the solution.",
    "solution": "Step through it with Next step.",
}


def rating_json(r: Rating) -> dict[str, float]:
    return {"rating": round(r.rating, 2), "rd": round(r.rd, 2),
            "volatility": round(r.volatility, 6)}


def until_next_turn(events: Sequence[Event]) -> list[Event]:
    """The events of this turn: the next turn's start and draws say nothing of the move."""
    out = []
    for e in events:
        if e.kind == "turn":
            break
        out.append(e)
    return out


def verdict(goal: str, s: State, me: int) -> str:
    """What a wrong move left of the puzzle's goal, in the game's words."""
    them = 1 - me
    lives = f"You are at {s.life[me]} life, the computer at {s.life[them]}."
    if s.is_over and s.winner == them:
        return f"The computer wins. {lives}"
    said = {
        "win": "The computer is still in the game: that move does not win this turn.",
        "survive": "That does not see you safely through the attack.",
        "combat": "That does not win the combat.",
        "best": "That is not the best move here.",
    }[goal]
    return f"{said} {lives}"


__all__ = [
    "ANSWER",
    "NEAR",
    "THEME_WORDS",
    "Play",
    "Prepared",
    "PuzzleRoom",
    "Solver",
    "rating_json",
    "same_move",
    "verdict",
]
