"""A perfect-information search: the expert's search over the true state (issue 17).

Issue 17 measures the expert against "a perfect-information search with the same budget":
the same :class:`~parlor.ai.search.SearchAgent`, every setting as the expert's, whose every
iteration starts from a copy of the *true* state instead of a determinization of its view.
It sees the opponent's Hand, both Draw piles' order and the reshuffle seed, so the gap
between it and the expert is what the hidden cards are worth to the search.

It lives in bench/, outside the package: the match runner hands it the true state
(:class:`~parlor.ai.agent.SeesState`, :func:`~parlor.ai.match.play_game`), and neither the web
nor the terminal can build one (their agents come from :mod:`parlor.ai.levels`). Asked to
act from a view alone it raises: it never quietly plays as something else.

Specs for bench/ai.py: ``perfect`` (the expert's time budget) or ``perfect@iters=N``, each
also with ``@keep=look`` (keep/Redraw by the one-step look instead of the search).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from parlor.ai.agent import Choice
from parlor.ai.determinize import Determinizer
from parlor.ai.levels import make_agent
from parlor.ai.search import SearchAgent
from parlor.puzzles.verify import FixedDeal
from parlor.rules.actions import Action
from parlor.rules.state import State
from parlor.rules.view import View, view

NAME = "perfect"


#: 'Determinizations' that are all the true state: the puzzles' verification searches a fixed
#: deal the same way (one class, so the two cannot drift apart).
TrueState = FixedDeal


class PerfectInformationSearch:
    """The expert's search over the true state (a benchmark opponent, bench/ only). It holds
    a :class:`SearchAgent` with the expert's settings whose determinizations are the state
    the match runner hands it (the search is compiled, so it is configured, not subclassed)."""

    def __init__(self, expert: SearchAgent) -> None:
        self.name = NAME
        self.budget = expert.budget
        self._truth: State | None = None
        self.search = SearchAgent(
            expert.seed, budget=expert.budget, max_iterations=expert.max_iterations,
            horizon=expert.horizon, epsilon=expert.epsilon, c=expert.c,
            prior_visits=expert.prior_visits, root_samples=expert.root_samples,
            widen=expert.widen, root=expert.root, root_width=expert.root_width,
            decisive=expert.decisive, look=expert.look, search_keep=expert.search_keep,
            keep_veto=expert.keep_veto, settle_root=expert.settle_root, name=NAME,
            weights=expert.weights, policy=expert.policy, evaluate=expert.evaluate,
            deals=self._true_state)

    def act_on_state(self, s: State, legal: Sequence[Action]) -> Action:
        self._truth = s
        try:
            return self.act(view(s, s.actor, log=False), legal, self.budget)
        finally:
            self._truth = None

    def act(self, v: View, legal: Sequence[Action], budget: float | None = None) -> Action:
        return self.search.act(v, legal, budget)

    def explain(self, v: View, legal: Sequence[Action],
                budget: float | None = None) -> list[Choice]:
        return self.search.explain(v, legal, budget)

    def _true_state(self, v: View, rng: random.Random) -> Determinizer:
        if self._truth is None:
            raise RuntimeError("the perfect-information search plays only from the true state "
                               "(play_game hands it one); it has no view-only play")
        return TrueState(self._truth, v.player, rng)


def is_perfect(spec: str) -> bool:
    return spec.strip().lower().partition("@")[0].strip() == NAME


def _options(spec: str) -> tuple[int | None, bool]:
    """The iteration budget (None: the expert's time) and whether keep/Redraw is searched."""
    _, *options = spec.strip().lower().split("@")
    iters: int | None = None
    search_keep = True
    for option in options:
        key, _, value = (x.strip() for x in option.partition("="))
        if key == "keep" and value in ("search", "look"):
            search_keep = value == "search"
        elif key == "iters" and value.isdigit() and int(value) >= 1:
            iters = int(value)
        else:
            raise ValueError(f"{spec!r}: write perfect, perfect@iters=N, and @keep=look to "
                             "decide keep/Redraw by the one-step look (the perfect-information "
                             "search samples nothing)")
    return iters, search_keep


def perfect_spec(spec: str) -> str:
    """The canonical text of ``perfect``, ``perfect@iters=N`` (and ``@keep=look``)."""
    iters, search_keep = _options(spec)
    return "@".join([NAME, *([f"iters={iters}"] if iters is not None else []),
                     *([] if search_keep else ["keep=look"])])


def make_perfect(spec: str, seed: int) -> PerfectInformationSearch:
    """The perfect-information search with the expert's settings and budget (the expert's
    time, or ``@iters=N`` like ``expert@iters=N``). ``@keep=look`` decides keep/Redraw by the
    one-step look of the search at 20ac8f4 instead of searching it: knowing its next draws,
    the search over the true state may value a Redraw differently."""
    iters, search_keep = _options(spec)
    expert = make_agent("expert" if iters is None else f"expert@iters={iters}", seed)
    assert isinstance(expert, SearchAgent)
    agent = PerfectInformationSearch(expert)
    agent.search.search_keep = search_keep
    assert math.isinf(agent.budget) == (agent.search.max_iterations is not None)
    return agent


__all__ = ["NAME", "PerfectInformationSearch", "TrueState", "is_perfect", "make_perfect",
           "perfect_spec"]
