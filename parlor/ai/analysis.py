"""Post-game analysis: the expert's view of each of one Rlr's decisions in a game record.

For each decision the Rlr made with a real choice, the expert (level 5 of
:mod:`parlor.ai.levels`, which gives the hints too, here fixed by iterations) looks at the
position *as that Rlr saw it* (its own view: hidden cards stay hidden) and estimates the win
chance of every legal decision.
``before`` is the estimate of the expert's preferred decision, ``after`` that of the decision
played; the drop between them marks the decision (:data:`THRESHOLDS`).

The estimate is the expert's chance for the Rlr *between two equal players* (the expert's
own play on both sides), not against the opponent actually met. The played decision is
always searched, even one the expert's pruning (:mod:`parlor.ai.prune`) or its root halving
would leave unsearched: an unsearched decision would read 0% and be marked for nothing
(issue 41). A decision the expert does not estimate at all (a split, a bonus, a choice it
settles by rule) has ``before`` and ``after`` None ("no estimate") and is never marked.

The search is fixed by iterations, never by time, and each decision's search has its own
seed (from the analysis seed and the decision's place in the record), so an analysis is
deterministic for a given record and seed, whatever order or process computes it::

    >>> from parlor.rules.engine import new_game, legal_actions, apply
    >>> from parlor.rules.notation import record
    >>> s = new_game(5)
    >>> for _ in range(6):
    ...     _ = apply(s, legal_actions(s)[-1])
    >>> a = analyse(record(s), player=0, seed=1, iterations=16)
    >>> a == analyse(record(s), player=0, seed=1, iterations=16)
    True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from parlor.ai.levels import make_agent
from parlor.ai.search import SearchAgent
from parlor.rules.actions import Action
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.notation import parse_record
from parlor.rules.seeds import Seed
from parlor.rules.state import Settings, State
from parlor.rules.values import Value
from parlor.rules.view import view

#: Marks by the drop in the win-chance estimate (percentage points, at least).
THRESHOLDS: tuple[tuple[str, float], ...] = (
    ("blunder", 0.20), ("mistake", 0.10), ("inaccuracy", 0.05))
#: Search iterations per decision: enough to rank a position's candidates, few enough for a
#: 150-decision game in under a minute on two cores (bench/analysis.py).
ITERATIONS = 400


@dataclass(frozen=True, slots=True)
class Decision(Value):
    """One analysed decision. ``ply`` is its index in the record's actions, so the position
    before it is step ``ply`` of the replay."""

    ply: int
    turn: int
    phase: str
    played: str
    best: str
    before: float | None  # the expert's win estimate after its preferred decision (0-1)
    after: float | None  # its estimate after the decision played (None: no estimate)
    alternatives: tuple[tuple[str, float], ...]  # the best few, with their estimates
    #: the search budget behind the estimates (``400 iterations``, or ``no search`` for a
    #: decision the expert does not search, :meth:`SearchAgent.budget_text`)
    budget: str = ""
    #: the search visits (or one-step samples) behind ``after``; 0 with no estimate
    visits: int = 0

    @property
    def estimated(self) -> bool:
        return self.before is not None and self.after is not None and self.visits > 0

    @property
    def drop(self) -> float:
        if self.before is None or self.after is None:
            return 0.0
        return round(max(0.0, self.before - self.after), 4)  # no float dust at a threshold

    @property
    def mark(self) -> str:
        """``blunder``, ``mistake``, ``inaccuracy`` or ``""`` (:data:`THRESHOLDS`); never
        for a decision without a real estimate behind the move played."""
        if not self.estimated:
            return ""
        return next((name for name, at in THRESHOLDS if self.drop >= at), "")


def decision_seed(seed: int, ply: int) -> int:
    return (seed * 1_000_003 + ply * 7919 + 11) & 0x7FFF_FFFF


def decision_plies(settings: Settings, seed: Seed, actions: list[str], player: int) -> list[int]:
    """The plies at which ``player`` chose among several legal decisions (not a resignation)."""
    s = new_game(seed, settings)
    out = []
    for i, text in enumerate(actions):
        a = Action.parse(text)
        if a.verb != "resign" and s.actor == player and len(legal_actions(s)) > 1:
            out.append(i)
        apply(s, a)
    return out


def _state_at(settings: Settings, seed: Seed, actions: list[str], ply: int) -> State:
    s = new_game(seed, settings)
    for text in actions[:ply]:
        apply(s, text)
    return s


def analyse_decision(settings: str, seed: Seed, actions: list[str], ply: int, player: int,
                     analysis_seed: int, iterations: int = ITERATIONS) -> Decision:
    """The expert's estimates at one decision (plain arguments: it runs in a worker)."""
    s = _state_at(Settings.parse(settings), seed, actions, ply)
    legal = legal_actions(s)
    played = str(Action.parse(actions[ply]).base)
    agent = make_agent(f"expert@iters={iterations}", decision_seed(analysis_seed, ply))
    seen = view(s, player, log=False)
    if isinstance(agent, SearchAgent):
        move = next(a for a in legal if str(a) == played)
        choices = agent.explain(seen, legal, budget=1e9, must_search=move)
        budget = agent.budget_text()
    else:
        choices = agent.explain(seen, legal, budget=1e9)
        budget = "no search"
    best = str(choices[0].action)
    mine = next(c for c in choices if str(c.action) == played)
    if not any(c.visits > 0 for c in choices):  # a flat 0.5 for all: no estimate at all
        return Decision(ply=ply, turn=s.turn, phase=s.phase.name.lower(), played=played,
                        best=best, before=None, after=None, alternatives=(),
                        budget="no estimate")
    return Decision(ply=ply, turn=s.turn, phase=s.phase.name.lower(), played=played,
                    best=best, before=round(choices[0].value, 4),
                    after=round(mine.value, 4),
                    alternatives=tuple((str(c.action), round(c.value, 4))
                                       for c in choices[:3] if c.visits > 0),
                    budget=budget, visits=mine.visits)


def analyse(record_text: str, player: int, seed: int = 0, iterations: int = ITERATIONS,
            progress: Callable[[int, int], None] | None = None) -> list[Decision]:
    """Every decision of ``player`` in the record, in order (in this process)."""
    settings, deal_seed, parsed = parse_record(record_text)
    actions = [str(a) for _, a in parsed]
    plies = decision_plies(settings, deal_seed, actions, player)
    out = []
    for n, ply in enumerate(plies):
        out.append(analyse_decision(str(settings), deal_seed, actions, ply, player, seed,
                                    iterations))
        if progress is not None:
            progress(n + 1, len(plies))
    return out


__all__ = ["ITERATIONS", "THRESHOLDS", "Decision", "analyse", "analyse_decision",
           "decision_plies", "decision_seed"]
