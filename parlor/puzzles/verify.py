"""Is one action clearly best, whatever the hidden cards? The judgement behind every puzzle.

:func:`judge` asks two questions of a decision, both from the solver's side:

1. **A large search** (the expert's ISMCTS, :mod:`parlor.ai.search`, at ``iters`` iterations,
   determinizations *uniform* over the cards the solver cannot see): the best action's win
   estimate and its **margin** over the runner-up (the best of the others that the search
   estimated; an action the search set aside unsearched counts 0).
2. **Hidden hands**: ``hands`` full states dealt from ``view(state, solver)``
   (:class:`~parlor.ai.determinize.Determinizer`: the opponent's Hand and the piles' order at
   random, every card the solver sees in place), each searched with perfect information at
   ``hand_iters`` iterations (every iteration starts from that state). The **agreement** is
   the share of hands whose best action is the large search's.

A decision is *clear* when the margin and the agreement reach the thresholds
(:class:`Thresholds`). A puzzle whose answer depends on a card the solver cannot see fails
the second question: on the hands where that card lies elsewhere another action is best.

Decisions inside a combat's resolution (splitting an attacker's Pwr, 1003.2, and dealing a
bonus, 1003.3 and 1004.1) come after every window, so nothing hidden changes them: they are
judged exactly instead (:func:`exact_choices`, a minimax over the rest of the combat, the
outcome scored by :func:`outcome`); one is clear when it alone scores best.

:func:`verify` repeats the judgement for every decision of a puzzle's solution with fresh
hands and a fresh seed, usually deeper (``parlor puzzles verify``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from parlor.ai.determinize import Determinizer
from parlor.ai.levels import make_agent
from parlor.ai.prune import settled_root
from parlor.ai.search import SearchAgent
from parlor.puzzles.goals import cres_lost, in_combat, reached
from parlor.puzzles.model import Puzzle
from parlor.puzzles.solution import run_group
from parlor.rules.actions import Action
from parlor.rules.engine import apply, legal_actions
from parlor.rules.state import ATTACK, BONUS, DOMAIN_BONUS, SPLIT, State
from parlor.rules.values import Value
from parlor.rules.view import View, view

#: The phases judged exactly: a combat's resolution, where nothing hidden is left to play.
EXACT = frozenset({SPLIT, BONUS, DOMAIN_BONUS})
#: Positions the exact minimax may visit before it gives up (a very wide split).
EXACT_NODES = 4000


@dataclass(frozen=True, slots=True)
class Thresholds(Value):
    """How clear a decision must be, and the budgets that judge it."""

    iters: int = 4000          # the large search (2x the expert's 2,000 a decision)
    margin: float = 0.10       # best minus runner-up win estimate, at the large search
    hands: int = 12            # hidden hands dealt from the solver's view
    hand_iters: int = 300      # perfect-information search on each hand
    agree: float = 0.9         # share of hands whose best action must be the same


@dataclass(frozen=True, slots=True)
class Judgement(Value):
    action: str          # the large search's best action (or the exact one)
    value: float         # its win estimate (the exact outcome's score for exact decisions)
    margin: float        # over the runner-up
    agreement: float     # share of the hidden hands that agree (1.0 for exact decisions)
    exact: bool = False

    def clear(self, t: Thresholds) -> bool:
        if self.exact:
            return self.margin > 0
        return self.margin >= t.margin and self.agreement >= t.agree


class FixedDeal(Determinizer):
    """'Determinizations' that are all one state: a perfect-information search of it."""

    def __init__(self, s: State, me: int, rng: random.Random) -> None:  # no view to read
        self.rng = rng
        self.me = me
        self.base = s.clone()
        self.base.log = None
        self.base.trail = None

    def deal(self) -> State:
        s = self.base.clone()
        s._legal = None
        return s


def expert(iters: int, seed: int) -> SearchAgent:
    """The expert's search at ``iters`` iterations, no time limit, uniform determinizations
    (a puzzle's position has no history to read a belief from)."""
    agent = make_agent(f"expert@iters={iters}@sampler=uniform", seed)
    assert isinstance(agent, SearchAgent)
    return agent


def _margin(values: dict[str, float], group: frozenset[str]) -> float:
    inside = [v for a, v in values.items() if a in group]
    others = [v for a, v in values.items() if a not in group]
    return max(inside) - max(others, default=0.0)


def judge(s: State, solver: int, t: Thresholds, seed: int,
          group: frozenset[str] | None = None) -> Judgement | None:
    """The judgement of the solver's decision at ``s`` (the solver must be to act), or None
    when the search gives no estimate (a decision it settles without searching).

    ``group``: actions that count as one answer (the declarations of one attack or block
    step, in any order: :func:`parlor.puzzles.solution.run_group`); the margin is then the
    group's best over the best outside it, and a hand agrees when its best is in the group.
    The judgement's action is the search's best, which must be in the group to be clear."""
    if s.actor != solver:
        raise ValueError(f"Rlr {solver + 1} is not to act at this position")
    legal = legal_actions(s)
    if s.phase in EXACT:
        return exact_judgement(s, solver)
    seen = view(s, solver, log=False)
    choices = expert(t.iters, seed).explain(seen, legal)
    if choices[0].visits == 0:
        return settled_judgement(seen, legal, seed)
    best = str(choices[0].action)
    if group is None:
        group = frozenset({best})
    if best not in group:
        return Judgement(best, round(choices[0].value, 4), 0.0, 0.0)
    values = {str(c.action): (c.value if c.visits > 0 else 0.0) for c in choices}
    agree = hand_agreement(s, seen, legal, group, t, seed)
    return Judgement(best, round(values[best], 4), round(_margin(values, group), 4),
                     round(agree, 4))


def settled_judgement(seen: View, legal: Sequence[Action], seed: int) -> Judgement | None:
    """The judgement of an attack step the rules settle (:func:`parlor.ai.prune.settled_root`:
    the opponent has no Cre to block, so declining while a free attacker is undeclared is
    set aside, and one attacker is left): clear, from open information alone. None for any
    other decision the search does not estimate."""
    first = Determinizer(seen, random.Random(seed)).deal()
    if first.phase is not ATTACK:
        return None
    kept, _ = settled_root(first, legal)
    if len(kept) != 1:
        return None
    return Judgement(str(kept[0]), 1.0, 1.0, 1.0)


def hand_agreement(s: State, seen: View, legal: Sequence[Action], group: frozenset[str],
                   t: Thresholds, seed: int) -> float:
    """The share of ``t.hands`` hidden hands, dealt from the solver's view, whose
    perfect-information search prefers an action of ``group``. Stops as soon as the
    threshold is out of reach (the share returned is then an upper bound below it)."""
    det = Determinizer(seen, random.Random(seed * 7919 + 1))
    allowed = t.hands - math.ceil(t.agree * t.hands)  # disagreements the threshold allows
    agree = wrong = 0
    for k in range(t.hands):
        hand = det.deal()
        agent = expert(t.hand_iters, seed * 31 + k + 2)
        agent.deals = lambda _v, rng, h=hand: FixedDeal(h, seen.player, rng)
        if str(agent.explain(seen, list(legal))[0].action) in group:
            agree += 1
        else:
            wrong += 1
            if wrong > allowed:
                return (t.hands - wrong) / t.hands
    return agree / t.hands


# -- the combat's resolution, exactly -------------------------------------------------------

def outcome(start: State, s: State, solver: int) -> float:
    """The solver's score of a combat's end: a win or a loss outweighs everything, then Cres
    (Pwr + Tgh lost by the opponent minus by the solver), then life."""
    if s.winner is not None:
        return 1000.0 if s.winner == solver else -1000.0
    cres = cres_lost(start, s, 1 - solver) - cres_lost(start, s, solver)
    life = (s.life[solver] - start.life[solver]) - (s.life[1 - solver] - start.life[1 - solver])
    return 10.0 * cres + life


class _TooWide(Exception):
    pass


def exact_choices(s: State, solver: int) -> dict[str, float]:
    """Each legal action at ``s`` (a combat's resolution) with the outcome of the rest of the
    combat, both sides choosing their best (solver maximising, opponent minimising).
    Raises ValueError if the resolution is too wide to enumerate (EXACT_NODES)."""
    nodes = [0]
    try:
        return {str(a): _minimax(_after(s, a), s, solver, nodes) for a in legal_actions(s)}
    except _TooWide:
        raise ValueError(f"more than {EXACT_NODES} positions to the combat's end") from None


def _after(s: State, a: Action) -> State:
    t = s.clone()
    t.log = None
    apply(t, a)
    return t


def _minimax(s: State, start: State, solver: int, nodes: list[int]) -> float:
    nodes[0] += 1
    if nodes[0] > EXACT_NODES:
        raise _TooWide
    if s.winner is not None or not in_combat(s) or s.phase not in EXACT:
        return outcome(start, s, solver)
    scores = [_minimax(_after(s, a), start, solver, nodes) for a in legal_actions(s)]
    return max(scores) if s.actor == solver else min(scores)


def exact_judgement(s: State, solver: int) -> Judgement | None:
    """The exact judgement of a decision in a combat's resolution (None: too wide)."""
    try:
        values = exact_choices(s, solver)
    except ValueError:
        return None
    best = max(values, key=lambda a: values[a])
    return Judgement(best, values[best], _margin(values, frozenset({best})), 1.0, exact=True)


def exact_reply(s: State, solver: int) -> str | None:
    """The opponent's best decision in a combat's resolution (the solver's worst outcome);
    None if the resolution is too wide."""
    try:
        values = exact_choices(s, solver)
    except ValueError:
        return None
    return min(values, key=lambda a: values[a])


# -- a whole puzzle -------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Verdict(Value):
    """A fresh verification of a puzzle: the judgement of each of the solver's decisions in
    its line, whether each is still the line's decision and clear, and the goal."""

    id: str
    judgements: tuple[tuple[str, Judgement | None], ...]  # (the line's decision, judgement)
    goal_reached: bool
    agrees: bool

    @property
    def margin(self) -> float:
        """The smallest margin over the solver's decisions (0 when one is not judged)."""
        return min((j.margin if j is not None else 0.0 for _, j in self.judgements),
                   default=0.0)


def verify(p: Puzzle, t: Thresholds, seed: int) -> Verdict:
    """Judge every decision of the solver in the puzzle's line afresh (``seed``: new hands,
    new searches): it agrees when each is still clear and the judgement's best is the line's
    decision (or, in a declaration step, one of the same step's declarations), and the line
    still reaches the goal."""
    states = p.states()
    out: list[tuple[str, Judgement | None]] = []
    ok = True
    for i in p.solver_moves():
        group = run_group(p.line, i)
        j = judge(states[i], p.solver, t, seed * 101 + i, group)
        out.append((p.line[i], j))
        ok = ok and j is not None and j.action in group and j.clear(t)
    goal = reached(p, states[-1])
    return Verdict(p.id, tuple(out), goal, ok and goal)


__all__ = ["EXACT", "FixedDeal", "Judgement", "Thresholds", "Verdict", "exact_choices",
           "exact_judgement", "exact_reply", "expert", "hand_agreement", "judge", "outcome",
           "verify"]
