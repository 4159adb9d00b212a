"""Information-set Monte Carlo tree search with determinization (SO-ISMCTS).

Each iteration deals a *determinization* of the agent's view (the hidden cards at random,
:class:`~parlor.ai.determinize.Determinizer`, the same distribution as
:func:`~parlor.rules.view.resample`), walks one shared tree whose edges are actions (an edge
counts how often it was *available* as well as visited, so that actions that exist only in
some deals are judged fairly), expands one new edge, plays a fast *rollout* with the
epsilon-greedy cheap policy (:mod:`parlor.ai.policy`) for both Rlrs until the horizon (by
default the start of the turn after the opponent's next one), evaluates the position with
:func:`~parlor.ai.evaluate.win_prob` and backs the estimate up.

* **Priors.** Each root action starts from the Greedy agent's one-step estimate (two
  virtual visits), so a short search is never much worse than Greedy's judgement and a long
  one can overrule it. The estimate is taken at the end of the agent's own turn
  (``look=1``), where Greedy takes it: a Greedy that judges after the opponent's
  cheap-policy turn instead won 44.5% against one that judges there, and priors taken after
  that turn held the search to 64.5% against Greedy where ``look=1`` reached 76% (0.2 s,
  the same 100 deals). Deeper nodes widen progressively in the cheap policy's order (the
  best few actions first, more as the node is visited).
* **Root: sequential halving** (default, ``root="halving"``). The best ``root_width`` root
  actions by prior are searched in rounds; in a round every candidate is tried on the *same*
  determinizations with the same rollout seeds (common random numbers: the comparison is
  between actions, not between lucky and unlucky deals), then the worse half is dropped.
  Below each root action the tree is ISMCTS as above. ``root="ucb"`` is plain UCB at the
  root too, kept for comparison.
* **Anytime.** The rounds share the time budget (or ``max_iterations``, the levels' budget,
  with the time only a cap: a search the cap cuts short keeps its ranking so far and is
  logged and counted, :func:`cap_stats`); the answer is the best survivor. The search
  stops early when the leader is ``decisive``-ly ahead after enough samples, or when
  nothing separates the candidates (a decided game).
* **Where the time goes.** Only decisions that shape the game are searched: play windows,
  attacks, blocks, abilities, and keeping a drawn card or Redrawing (``search_keep``: a
  Redraw ends the turn, 309.3, giving up the Lnd drop and the attack, which a one-step look
  on two deals judged by coin flip; shared/ai-misplays.md B1). Trimming the Hand (and the
  keep decision with ``search_keep=False``) uses Greedy's one-step look on two
  determinizations (the Hand evaluation decides them); splitting damage
  and bonus points use the cheap policy (finish the weakest Cre, no overkill). Forced and
  single-choice decisions take no time at all, and a window where every play looks outright
  bad (Enhs on the opponent's side, expelling one's own cards) is passed without search.
* **Settled root moves** (``settle_root``, :mod:`parlor.ai.prune`): Enhs on Lnds that
  cannot help, and declining an attack nothing can block or beat, are set aside before the
  search and listed last.
"""

from __future__ import annotations

import logging
import math
import random
import time
from collections.abc import Callable, Sequence

from parlor.ai.base import BaseAgent, Choice
from parlor.ai.belief import BeliefDeterminizer
from parlor.ai.determinize import Determinizer
from parlor.ai.evaluate import DEFAULT, IS_LND, Weights, win_prob
from parlor.ai.features import hand_suits
from parlor.ai.greedy import one_step, settle
from parlor.ai.policy import (
    BAD,
    PDEFAULT,
    PolicyWeights,
    action_score,
    best_action,
    epsilon_action,
)
from parlor.ai.prune import settled_root
from parlor.rules.actions import Action
from parlor.rules.engine import apply, legal_actions
from parlor.rules.state import (
    ABILITY_O,
    ABILITY_P,
    ATTACK,
    BLOCK,
    BONUS,
    DOMAIN_BONUS,
    KEEP,
    OVER,
    SPLIT,
    WINDOW1,
    WINDOW2,
    State,
)
from parlor.rules.table import pwr
from parlor.rules.view import View

SAMPLERS = ("uniform", "belief")

log = logging.getLogger("parlor.ai.search")


class CapStats:
    """How often this process's searches ran out of wall-clock time before their iteration
    budget (the cap, :class:`SearchAgent`): an operator's sign that the machine is too busy
    for the levels' strength. One per process; :func:`cap_stats` reads it."""

    def __init__(self) -> None:
        self.searches = 0  # searches with an iteration budget and a finite cap
        self.capped = 0  # those the cap stopped short of their iterations


_STATS = CapStats()


def cap_stats() -> tuple[int, int]:
    """(searches with an iteration budget under a wall-clock cap, how many the cap cut
    short) in this process since it started: parlor/web/metrics.py exports them."""
    return _STATS.searches, _STATS.capped


def add_cap_stats(searches: int, capped: int) -> None:
    """Add another process's counts to this one's (a worker pool's searches, reported back
    with their answers by parlor.web.computer.counted): one process's /metrics shows them."""
    _STATS.searches += searches
    _STATS.capped += capped

#: A leaf evaluation: a win estimate in [0, 1] of a state for a Rlr.
Evaluator = Callable[[State, int], float]
#: Another source of determinizations than the sampler, given a decision's view and the
#: agent's random stream: bench/perfect.py's true state (a compiled class cannot be
#: subclassed from interpreted code, so the search takes it as a value).
Deals = Callable[[View, random.Random], Determinizer]

SEARCHED = frozenset({WINDOW1, WINDOW2, ATTACK, BLOCK,
                      ABILITY_P, ABILITY_O})
PRIOR_SHARE = 0.4
MIN_SAMPLES = 6  # per root candidate before the search may stop early
INDIFFERENT = 0.003  # win-estimate spread under which the candidates are all the same
LINE_MIN = 10  # iterations an action needs to count as tried (``best_line``)
PRIOR_WIDTH = 8  # an inner node's actions that get the one-step prior (``node_prior``)


class _Edge:
    __slots__ = ("action", "avail", "child", "n", "n0", "player", "stage", "w")

    def __init__(self, action: Action, n: float = 0.0, w: float = 0.0) -> None:
        self.action = action
        self.player = -1  # who takes the action (set when a path goes through it)
        self.n = n
        self.n0 = n  # virtual visits of the prior
        self.stage = 0  # sequential halving: the rounds it took part in
        self.w = w
        self.avail = 1.0
        self.child: _Node | None = None


#: A declined Lnd drop counts while the Home holds fewer Lnds than this (the first Lnds pay
#: for everything; shared/ai-misplays.md counts Homes of six or fewer).
DROP_HOME = 7


class _Tally:
    """Per Rlr, along one iteration's path (tree and rollout): turns it ended as P with a
    Lnd in Hand, none dropped and a short Home; life points burned below what is safe."""

    __slots__ = ("burned", "declined")

    def __init__(self) -> None:
        self.declined = [0, 0]
        self.burned = [0, 0]


def dead_cres(s: State, p: int) -> int:
    """The Cres in ``p``'s Hand that its Home has enough Lnds for (the evaluation's Hand
    value then counts them castable) but too few of their own suit (206: Tgh in mnr of the
    Cre's suit; 601, 602: a Lnd gives its base suit, or the trump suit if it carries a trump
    Enh). The learned value, like :func:`~parlor.ai.evaluate.hand_card_value`, counts Lnds
    but not their suits, so a Home of Spades and Clubs holding KH and QH looks ready to cast
    them (issue 46: 8 of 10 replayed losses to Greedy held two to five such Cres at turn 16)."""
    return hand_cres_by_suit(s, p)[0]


def hand_cres_by_suit(s: State, p: int) -> tuple[int, int]:
    """(:func:`dead_cres`, the Cres in ``p``'s Hand whose own suit the Home already yields
    enough of, whatever its size): the second tells Lnd drops and keeps of a suit the Hand's
    Cres need from the others, which the learned value cannot (a Home's first Lnds tie
    exactly, whatever their suits)."""
    h = hand_suits(s, p)
    return h.dead, h.suited


class _Node:
    __slots__ = ("edges", "order", "visits")

    def __init__(self) -> None:
        self.edges: dict[Action, _Edge] = {}
        self.visits = 0
        #: with ``node_prior``: the actions of the determinization that first gave the node its
        #: prior, best first by the one-step look (the widening order); None: not looked yet
        self.order: list[Action] | None = None


def blind_deal(s: State, me: int, rng: random.Random) -> State:
    """A copy of ``s`` with ``me``'s Hand dealt again from its Hand and Draw pile, as ``me``'s
    opponent would see it: the determinization holds ``me``'s true Hand, and an opponent
    judging its moves on it would play as if it knew that Hand (an omniscient opponent)."""
    t = s.clone()
    t._legal = None
    pool = t.hand[me] + t.draw[me]
    rng.shuffle(pool)
    n = len(t.hand[me])
    t.hand[me], t.draw[me] = pool[:n], pool[n:]
    return t


class SearchAgent(BaseAgent):
    """ISMCTS over determinizations with cheap-policy rollouts and evaluation at a horizon.

    ``budget``: seconds per searched decision (the caller's budget replaces it);
    ``max_iterations``: the iterations per searched decision instead, and ``budget`` then only
    caps the wall-clock time for responsiveness (issue 46: the levels play a fixed number of
    iterations, so their strength does not move with the machine's load; a search the cap cuts
    short is logged and counted, :func:`cap_stats`). Same seed and same iterations give the
    same decisions whenever the cap is not reached; with ``budget=math.inf`` (benchmarks,
    ``expert@iters=800`` in :mod:`parlor.ai.levels`) always. ``horizon``: rollouts stop when
    this many turns have started after the root's turn; ``look``: the same for the one-step
    priors (and for the decisions that only look one step ahead); ``search_keep``: search
    keeping a drawn card against Redrawing; ``keep_veto``: with ``search_keep``, Redraw only
    when the one-step look prefers a Redraw too (the searched keep overrates Redraws, which end
    the turn, 309.3: keep and Redraw estimates lie a few hundredths apart and Redraws
    outnumber keeps among the candidates); ``settle_root``: set aside the root moves of
    :mod:`parlor.ai.prune`; ``sampler``: ``"uniform"`` determinizations or ``"belief"``
    (weighted by the opponent's decisions, :mod:`parlor.ai.belief`); ``epsilon``: rollout
    randomness; ``c``: UCB exploration; ``evaluate``: the leaf evaluation (default: the
    hand-written :func:`~parlor.ai.evaluate.win_prob` with ``weights``; the learned one is
    :func:`parlor.ai.value.learned`); ``deals``: determinizations from elsewhere than the
    sampler (a benchmark's true state); ``declined_drop`` and ``burn_below_safe``: what the
    leaf's estimate loses per free Lnd drop declined on the path to it and per life point
    burned below what is safe (the path's tally, :meth:`_path_cost`; 0: not kept);
    ``best_line``: rank the root actions by the value of the best replies below them rather
    than by their mean (:meth:`_line_value`; 0: the mean); ``node_prior``: the virtual visits
    of Greedy's one-step look at inner nodes too (:meth:`_node_prior`; 0: none, the cheap
    policy's order alone), at the nodes of ``prior_who`` (0 both Rlrs, 1 the opponent, 2 the
    searching Rlr) once a node has ``prior_after`` visits, the opponent's judged on a Hand of
    the searching Rlr dealt from what it cannot see with ``prior_blind``; ``opp_policy``: the
    share of the opponent's decisions in the tree taken by the cheap policy instead of UCB
    (UCB finds the reply to the searcher's true Hand, which every determinization shares; 0:
    UCB); ``dead_cre``: what the leaf's estimate loses per Cre in the searcher's Hand that its
    Home pays for by count but not by suit (:func:`dead_cres`; 0: not counted);
    ``suited_cre``: what it gains per Cre in that Hand whose own suit the Home already yields
    (:func:`hand_cres_by_suit`; 0: not counted); ``suit_short``: what it loses per Lnd of
    their own suit the Cres in that Hand still lack (:func:`~parlor.ai.features.hand_suits`;
    0: not counted), so that a Lnd drop of a needed suit beats a tie. The priors stay Greedy's
    hand-written judgement.
    """

    name = "search"

    def __init__(self, seed: int | None = 0, budget: float = 0.5,
                 max_iterations: int | None = None, horizon: int = 2, epsilon: float = 0.1,
                 c: float = 0.7, prior_visits: float = 2.0, root_samples: int = 1,
                 widen: float = 2.0, root: str = "halving", root_width: int = 8,
                 decisive: float = 0.25, look: int = 1, search_keep: bool = True,
                 keep_veto: bool = False, settle_root: bool = True, sampler: str = "uniform",
                 name: str | None = None,
                 weights: Weights = DEFAULT, policy: PolicyWeights = PDEFAULT,
                 evaluate: Evaluator | None = None, deals: Deals | None = None,
                 declined_drop: float = 0.0, burn_below_safe: float = 0.0,
                 best_line: float = 0.0, node_prior: float = 0.0, prior_who: int = 0,
                 prior_after: int = 1, prior_blind: int = 0, opp_policy: float = 0.0,
                 dead_cre: float = 0.0, suited_cre: float = 0.0,
                 suit_short: float = 0.0) -> None:
        super().__init__(seed, budget)
        self.deals = deals
        self.weights = weights
        self.evaluate = evaluate
        self.policy = policy
        self.max_iterations = max_iterations
        self.horizon = horizon
        self.epsilon = epsilon
        self.c = c
        self.prior_visits = prior_visits
        self.root_samples = root_samples
        self.widen = widen
        self.root = root
        self.root_width = root_width
        self.decisive = decisive
        self.look = look
        self.search_keep = search_keep
        self.keep_veto = keep_veto
        self.settle_root = settle_root
        self.declined_drop = declined_drop
        self.burn_below_safe = burn_below_safe
        self.best_line = best_line
        self.node_prior = node_prior
        self.prior_who = prior_who
        self.prior_after = prior_after
        self.prior_blind = prior_blind
        self.opp_policy = opp_policy
        self.dead_cre = dead_cre
        self.suited_cre = suited_cre
        self.suit_short = suit_short
        if sampler not in SAMPLERS:
            raise ValueError(f"sampler {sampler!r}: choose {' or '.join(SAMPLERS)}")
        self.sampler = sampler
        if name:
            self.name = name
        self.last_iterations = 0
        self.last_capped = False  # the wall-clock cap stopped the last search
        self.last_searched = False  # the last decision was searched (not a one-step look)
        self.last_limit = budget

    # -- the interface ---------------------------------------------------------------------

    def explain(self, view: View, legal: Sequence[Action],
                budget: float | None = None, must_search: Action | None = None) -> list[Choice]:
        """The alternatives, best first. ``must_search``: an action searched whatever the root's
        pruning and halving say (the post-game analysis's played move: an estimate it never
        searched would read as a blunder, issue 41)."""
        self.last_searched = False
        if len(legal) == 1:
            return [Choice(legal[0], 0.5, 0)]
        t0 = time.perf_counter()
        # an iteration budget with no cap (benchmarks) ignores the clock, the caller's too
        uncapped = self.max_iterations is not None and math.isinf(self.budget)
        limit = self.budget if budget is None or uncapped else budget
        det = self.determinizer(view)
        first = det.deal()
        choices = list(legal)
        phase = first.phase
        if phase in (SPLIT, BONUS, DOMAIN_BONUS):
            a = best_action(first, choices, self.policy)
            return [Choice(a, 0.5, 0)] + [Choice(x, 0.5, 0) for x in choices if x != a]
        searched = phase in SEARCHED or (phase is KEEP and self.search_keep)
        if not searched:
            return self._greedy(det, first, choices)
        if phase in (WINDOW1, WINDOW2) and all(
            action_score(first, a, self.policy) <= BAD / 2 for a in choices if a.verb != "pass"
        ):
            rest = [x for x in choices if x.verb != "pass"]
            return [Choice(x, 0.5, 0) for x in [*(a for a in choices if a.verb == "pass"),
                                                  *rest]]
        aside: list[Action] = []
        if self.settle_root:
            choices, aside = settled_root(first, choices)
            if must_search in aside:
                aside.remove(must_search)
                choices.append(must_search)
            if len(choices) == 1:
                return [Choice(x, 0.5, 0) for x in [*choices, *aside]]
        self.last_searched = True
        ranked = self._search(det, first, choices, t0 + limit, must_search)
        self._count_cap(limit, time.perf_counter() - t0)
        if phase is KEEP and self.keep_veto:
            ranked = self._veto_redraw(det, first, choices, ranked)
        return ranked + [Choice(x, 0.0, 0) for x in aside]

    def _count_cap(self, limit: float, seconds: float) -> None:
        """Count a search with an iteration budget under a finite cap, and log and count it
        when the cap cut it short (its decision then depends on the machine's load)."""
        self.last_limit = limit
        if self.max_iterations is None or math.isinf(limit):
            return
        _STATS.searches += 1
        if self.last_capped:
            _STATS.capped += 1
            log.warning("%s: search capped at %.2f s after %d of %d iterations (%.2f s)",
                        self.name, limit, self.last_iterations, self.max_iterations, seconds)

    def budget_text(self) -> str:
        """The budget the last searched decision used, for a hint or an analysis:
        ``2000 iterations``, ``812 of 2000 iterations (cut at the 1.5 s cap)`` or
        ``0.3 s (1934 iterations)``; ``no search`` for a decision taken without one."""
        n, cap = self.last_iterations, self.max_iterations
        if not self.last_searched:
            return "no search"
        if cap is None:
            return f"{self.last_limit:g} s ({n} iterations)"
        if self.last_capped:
            return f"{n} of {cap} iterations (cut at the {self.last_limit:g} s cap)"
        return f"{cap} iterations"

    def _veto_redraw(self, det: Determinizer, first: State, choices: list[Action],
                     ranked: list[Choice]) -> list[Choice]:
        """The search's ranking, with its best keep first if the search chose a Redraw that
        the one-step look does not prefer (``keep_veto``, 309)."""
        if ranked[0].action.verb != "redraw":
            return ranked
        if self._greedy(det, first, choices)[0].action.verb == "redraw":
            return ranked
        keep = next((c for c in ranked if c.action.verb == "keep"), None)
        if keep is None:
            return ranked
        return [keep, *(c for c in ranked if c is not keep)]

    def determinizer(self, view: View) -> Determinizer:
        """The source of this decision's determinizations: uniform over the hidden cards
        (``sampler="uniform"``), or weighted by the opponent's decisions (``"belief"``,
        :mod:`parlor.ai.belief`)."""
        if self.deals is not None:
            return self.deals(view, self.rng)
        if self.sampler == "belief":
            return BeliefDeterminizer(view, self.rng)
        return Determinizer(view, self.rng)

    # -- one-step look (Greedy) ------------------------------------------------------------

    def _greedy(self, det: Determinizer, first: State, choices: list[Action]) -> list[Choice]:
        me = det.me
        states = [first] + [det.deal() for _ in range(self.root_samples)]
        w, pw = self.weights, self.policy
        values = [sum(one_step(s, a, me, horizon=self.look, w=w, policy=pw)
                      for s in states) / len(states)
                  for a in choices]
        order = sorted(range(len(choices)), key=lambda i: -values[i])
        return [Choice(choices[i], values[i], len(states)) for i in order]

    # -- the search ------------------------------------------------------------------------

    def _priors(self, root: _Node, first: State, choices: list[Action], me: int,
                deadline: float) -> list[Action]:
        """Greedy's one-step estimate of each root action on the first determinization, as
        ``prior_visits`` virtual visits; in the cheap policy's order, for at most
        PRIOR_SHARE of the time (the rest start unvisited). Returns the actions best first."""
        start = time.perf_counter()
        prior_end = start + PRIOR_SHARE * (deadline - start)
        ordered = sorted(choices, key=lambda a: -action_score(first, a, self.policy))
        values: dict[Action, float] = {}
        for a in ordered:
            if self.max_iterations is None and time.perf_counter() >= prior_end:
                root.edges[a] = _Edge(a)
                continue
            v = one_step(first, a, me, horizon=self.look, w=self.weights, policy=self.policy)
            values[a] = v
            root.edges[a] = _Edge(a, self.prior_visits, self.prior_visits * v)
        root.visits = 1
        return sorted(ordered, key=lambda a: -values.get(a, -1.0))

    def _search(self, det: Determinizer, first: State, choices: list[Action],
                deadline: float, must_search: Action | None = None) -> list[Choice]:
        me = det.me
        root = _Node()
        self.last_capped = False
        end_turn = first.turn + self.horizon
        ranked_choices = self._priors(root, first, choices, me, deadline)
        if self.root == "halving":
            iterations = self._halving(det, root, ranked_choices, me, end_turn, deadline,
                                       must_search)
        else:
            iterations = self._ucb(det, root, set(choices), me, end_turn, deadline)
        self.last_iterations = iterations
        if self.root == "halving":
            edges = sorted(root.edges.values(),
                           key=lambda e: (-e.stage, -self._value(e)))
        else:
            edges = sorted(root.edges.values(), key=lambda e: (-e.n, -e.w))
        return [Choice(e.action, self._value(e) if e.n else 0.5,
                       round(e.n - e.n0)) for e in edges]

    def _value(self, edge: _Edge) -> float:
        """A root action's estimate: the mean of its iterations, or with ``best_line`` the
        value of the line its player would take (:meth:`_line_value`)."""
        if not self.best_line:
            return edge.w / edge.n if edge.n else 0.0
        return self._line_value(edge)

    def _line_value(self, edge: _Edge) -> float:
        """The estimate of ``edge`` for the Rlr who takes it, along the best replies: below
        it, the next Rlr to act takes the best of its well-tried actions (each at least
        ``best_line`` of the node's visits and LINE_MIN), valued the same way; where no
        action is well tried (a fresh node, or one split by hidden cards, such as the keep
        after a draw), the edge's own mean. The plain mean mixes in every exploratory reply
        of the tree: at 1 life with its Cres all attacking, the tree's opponent found the
        counter-attack that kills (0.93 for it) yet the attack kept 0.28 from the replies it
        tried and dropped (shared/ai-misplays.md C1)."""
        mean = edge.w / edge.n if edge.n else 0.0
        child = edge.child
        if child is None:
            return mean
        replies = [e for e in child.edges.values() if e.player >= 0]
        need = max(LINE_MIN, self.best_line * sum(e.n for e in replies))
        tried = [e for e in replies if e.n >= need]
        if not tried:
            return mean
        v = max(self._line_value(e) for e in tried)
        return v if tried[0].player == edge.player else 1.0 - v

    def _ucb(self, det: Determinizer, root: _Node, allowed: set[Action], me: int,
             end_turn: int, deadline: float) -> int:
        """Plain SO-ISMCTS: UCB at every node, the root included."""
        iterations = 0
        cap = self.max_iterations
        while True:
            if cap is not None and iterations >= cap:
                break
            if (cap is None or iterations) and time.perf_counter() >= deadline:
                self.last_capped = cap is not None
                break
            self._iterate(det.deal(), root, me, end_turn, allowed, None, self.rng)
            iterations += 1
        return iterations

    def _halving(self, det: Determinizer, root: _Node, ranked_choices: list[Action], me: int,
                 end_turn: int, deadline: float, must_search: Action | None = None) -> int:
        """Sequential halving at the root: the best ``root_width`` actions by prior share the
        same determinizations (and rollout seeds) round by round, so that they are compared
        on equal deals; after each round the worse half is dropped. Below each root action
        the tree is ISMCTS as usual. ``must_search`` joins the first round whatever its prior."""
        cands = ranked_choices[: self.root_width]
        if must_search is not None and must_search in ranked_choices \
                and must_search not in cands:
            cands.append(must_search)
        rounds = max(1, math.ceil(math.log2(len(cands))))
        start = time.perf_counter()
        cap = self.max_iterations
        per_round = None if cap is None else max(1, -(-cap // rounds))
        iterations = 0
        allowed = set(cands)
        for r in range(rounds):
            round_end = start + (deadline - start) * (r + 1) / rounds
            done = 0
            while True:
                if per_round is not None:
                    if done >= per_round:
                        break
                    if iterations and time.perf_counter() >= deadline:
                        self.last_capped = True  # the cap: keep the ranking so far
                        break
                elif done and time.perf_counter() >= round_end:
                    break
                base = det.deal()
                seed = self.rng.getrandbits(32)
                for a in cands:
                    s = base.clone()
                    self._iterate(s, root, me, end_turn, allowed, a, random.Random(seed))
                    iterations += 1
                done += len(cands)
            for a in cands:
                root.edges[a].stage = r + 1
            cands.sort(key=lambda a: -self._value(root.edges[a]))
            if self.last_capped:
                root.edges[cands[0]].stage = rounds
                break
            if r < rounds - 1 and self._settled(root, cands):
                root.edges[cands[0]].stage = rounds
                break
            if r < rounds - 1 and len(cands) > 2:
                cands = cands[: max(2, (len(cands) + 1) // 2)]
                allowed = set(cands)
        return iterations

    def _settled(self, root: _Node, cands: list[Action]) -> bool:
        """Stop early when the leader is far ahead of the runner-up (``decisive``), or when
        nothing separates the candidates at all (a decided game)."""
        means = [self._value(root.edges[a]) for a in cands]
        samples = min(root.edges[a].n - root.edges[a].n0 for a in cands)
        if samples < MIN_SAMPLES:
            return False
        return means[0] - means[1] >= self.decisive or means[0] - means[-1] <= INDIFFERENT

    def _apply(self, s: State, a: Action, tally: _Tally | None) -> None:
        """Apply ``a``; with a tally, note what the leaf evaluation cannot see from the
        leaf's state alone (:class:`_Tally`)."""
        if tally is None:
            apply(s, a)
            return
        turn, p = s.turn, s.phasing
        dropped = s.lnd_played
        pools = (sum(s.pool[0]), sum(s.pool[1]))
        lives = (s.life[0], s.life[1])
        apply(s, a)
        if s.turn != turn and not dropped and len(s.home[p]) < DROP_HOME \
                and any(IS_LND[c % 52] for c in s.hand[p]):
            tally.declined[p] += 1
        for q in (0, 1):
            burned = lives[q] - s.life[q]
            if burned > 0 and pools[q] == burned and sum(s.pool[q]) == 0:
                safe = max(1, sum(pwr(s, c) for c in s.field[1 - q] if not s.terminal[c]))
                tally.burned[q] += max(0, min(lives[q], safe) - s.life[q])

    def _rollout(self, s: State, end_turn: int, rng: random.Random, tally: _Tally) -> None:
        """:func:`~parlor.ai.greedy.settle` with the tally kept."""
        for _ in range(600):
            if s.phase is OVER or s.turn >= end_turn:
                break
            self._apply(s, epsilon_action(s, legal_actions(s), rng, self.epsilon,
                                          self.policy), tally)

    def _path_cost(self, tally: _Tally, q: int) -> float:
        """What ``q`` lost on the way to the leaf that the leaf's evaluation undervalues:
        free Lnd drops declined while its Home was short (the horizon hides the tempo: a
        drop made a turn later looks as good at the leaf, yet the turn's drop is gone for
        good, 603) and life burned below what is safe (the opponent's Pwr on the Field:
        at 0 life or less any damage that gets through ends the game, 503, 1201)."""
        return (self.declined_drop * tally.declined[q]
                + self.burn_below_safe * tally.burned[q])

    def _wants_prior(self, s: State, me: int) -> bool:
        """Whether a node where ``s.actor`` acts gets the one-step prior (``prior_who``: 0
        both Rlrs' nodes, 1 the opponent's only, 2 the searching Rlr's only)."""
        who = self.prior_who
        return who == 0 or (who == 1) == (s.actor != me)

    def _node_prior(self, node: _Node, s: State, legal: list[Action], me: int,
                    rng: random.Random) -> None:
        """Greedy's one-step look for the actor at an inner node, as the root has it
        (``node_prior`` virtual visits on each of the cheap policy's best ``PRIOR_WIDTH``
        actions, judged on this iteration's determinization): the tree's players, the
        opponent above all, choose as a one-turn look would rather than as the cheap policy's
        first guess, and the node widens in the look's order. With ``prior_blind`` the
        opponent looks at a deal of the searching Rlr's Hand it cannot see
        (:func:`blind_deal`), not at the determinization's, which holds that Rlr's true Hand."""
        actor = s.actor
        pw = self.policy
        scored = sorted(legal, key=lambda a: -action_score(s, a, pw))[:PRIOR_WIDTH]
        looked = blind_deal(s, me, rng) if self.prior_blind and actor != me else s
        values = {a: one_step(looked, a, actor, horizon=self.look, w=self.weights, policy=pw)
                  for a in scored}
        np_ = self.node_prior
        for a, v in values.items():
            edge = node.edges.get(a)
            if edge is None:
                node.edges[a] = _Edge(a, np_, np_ * v)
            else:
                edge.n += np_
                edge.n0 += np_
                edge.w += np_ * v
        node.order = sorted(scored, key=lambda a: -values[a])

    def _widened(self, node: _Node, s: State, legal: list[Action]) -> list[Action]:
        """A node's legal actions in widening order: the cheap policy's, or with a node prior
        the look's order first (:meth:`_node_prior`), then the rest in the policy's."""
        pw = self.policy
        scored = sorted(legal, key=lambda a: -action_score(s, a, pw))
        if node.order is None:
            return scored
        here = set(legal)
        first = [a for a in node.order if a in here]
        seen = set(first)
        return first + [a for a in scored if a not in seen]

    def _iterate(self, s: State, root: _Node, me: int, end_turn: int,
                 allowed: set[Action], first_action: Action | None,
                 rng: random.Random) -> None:
        path: list[tuple[_Edge, int]] = []
        node = root
        expanded = False
        tally = _Tally() if self.declined_drop or self.burn_below_safe else None
        while s.phase is not OVER and s.turn < end_turn:
            if node is root and first_action is not None:
                edge = root.edges[first_action]
                edge.player = me
                self._apply(s, first_action, tally)
                path.append((edge, me))
                if edge.child is None:
                    edge.child = _Node()
                node = edge.child
                continue
            legal = legal_actions(s)
            if node is root:
                cands = [a for a in legal if a in allowed]
                if not cands:
                    break
            else:
                if self.node_prior and node.order is None \
                        and node.visits >= self.prior_after and self._wants_prior(s, me):
                    self._node_prior(node, s, legal, me, rng)
                k = 1 + int(self.widen * math.sqrt(node.visits))
                cands = self._widened(node, s, legal)[:k] if len(legal) > k else legal
            node.visits += 1
            edges = node.edges
            if self.opp_policy and s.actor != me and rng.random() < self.opp_policy:
                # the opponent plays the cheap policy's move (``opp_policy``): UCB at its
                # nodes finds the reply to our true Hand, which every deal shares
                cands = [best_action(s, cands, self.policy)]
            fresh = [a for a in cands if a not in edges or edges[a].n == 0]
            if fresh:
                a = fresh[0]
                edge = edges.get(a) or _Edge(a)
                edges[a] = edge
                player = s.actor
                edge.player = player
                self._apply(s, a, tally)
                path.append((edge, player))
                expanded = True
                break
            best: _Edge | None = None
            best_u = -1.0
            c = self.c
            for a in cands:
                e = edges[a]
                e.avail += 1.0
                u = e.w / e.n + c * math.sqrt(math.log(e.avail) / e.n)
                if u > best_u:
                    best, best_u = e, u
            assert best is not None
            player = s.actor
            best.player = player
            self._apply(s, best.action, tally)
            path.append((best, player))
            if best.child is None:
                best.child = _Node()
            node = best.child
        if expanded or node is not root:
            if tally is None:
                settle(s, end_turn, rng, self.epsilon, policy=self.policy)
            else:
                self._rollout(s, end_turn, rng, tally)
        v = win_prob(s, me, self.weights) if self.evaluate is None else self.evaluate(s, me)
        if (self.dead_cre or self.suited_cre) and s.phase is not OVER:
            dead, suited = hand_cres_by_suit(s, me)
            v = min(1.0, max(0.0, v - self.dead_cre * dead + self.suited_cre * suited))
        if self.suit_short and s.phase is not OVER:
            v = max(0.0, v - self.suit_short * hand_suits(s, me).short)
        if tally is not None and s.phase is not OVER:
            # the searching Rlr's own costs only: the opponent's moves in the tree follow the
            # cheap policy, whose declined drops are its artefacts, not a real player's loss
            # (counted for both, a 40-iteration search Carried in c3_carry_burns_for_nothing)
            v = min(1.0, max(0.0, v - self._path_cost(tally, me)))
        for edge, player in path:
            edge.n += 1.0
            edge.w += v if player == me else 1.0 - v


__all__ = ["SAMPLERS", "CapStats", "Deals", "Evaluator", "SearchAgent", "add_cap_stats",
           "cap_stats", "epsilon_action"]
