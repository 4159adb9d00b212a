"""Agents without search: the rule-of-thumb Heuristic agent and the Greedy agent.

* :class:`HeuristicAgent` plays the cheap policy's favourite (:mod:`parlor.ai.policy`),
  optionally with noise: a plausible move, no look at the consequences.
* :class:`GreedyAgent` looks one decision ahead: for each legal action it takes a few
  states resampled from its view, applies the action, lets the cheap policy *settle* the
  position (the rest of the play window, or the rest of the combat, for both Rlrs) and
  evaluates the result from its own side (:func:`parlor.ai.evaluate.win_prob`). With a
  ``temperature`` it picks by softmax over those estimates instead of the best (the lower
  levels: sensible but careless).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from parlor.ai.base import BaseAgent, Choice
from parlor.ai.evaluate import DEFAULT, Weights, win_prob
from parlor.ai.policy import PDEFAULT, PolicyWeights, best_action, epsilon_action, ranked
from parlor.rules.actions import Action
from parlor.rules.engine import apply, legal_actions
from parlor.rules.state import (
    OVER,
    State,
)
from parlor.rules.view import View


def settle(s: State, end_turn: int, rng: random.Random | None = None,
           epsilon: float = 0.0, limit: int = 600, policy: PolicyWeights = PDEFAULT) -> State:
    """Play the cheap policy (both Rlrs) from ``s`` until turn ``end_turn`` starts (or the
    game ends), so that every alternative is judged at the same point."""
    for _ in range(limit):
        if s.phase is OVER or s.turn >= end_turn:
            break
        legal = legal_actions(s)
        if rng is not None and epsilon > 0.0:
            a = epsilon_action(s, legal, rng, epsilon, policy)
        else:
            a = best_action(s, legal, policy)
        apply(s, a)
    return s


def one_step(s: State, a: Action, me: int, rng: random.Random | None = None,
             horizon: int = 2, w: Weights = DEFAULT, policy: PolicyWeights = PDEFAULT) -> float:
    """Win estimate for ``me`` after playing ``a`` in (a copy of) ``s`` and settling to
    the start of the ``horizon``-th turn from now."""
    t = s.clone()
    end = t.turn + horizon
    apply(t, a)
    settle(t, end, rng, policy=policy)
    return win_prob(t, me, w)


def softmax_pick(values: list[float], temperature: float, rng: random.Random) -> int:
    top = max(values)
    weights = [math.exp((v - top) / temperature) for v in values]
    x = rng.random() * sum(weights)
    for i, w in enumerate(weights):
        x -= w
        if x <= 0:
            return i
    return len(values) - 1


class HeuristicAgent(BaseAgent):
    """The cheap policy's choice, with probability ``epsilon`` a random plausible one."""

    name = "heuristic"

    def __init__(self, seed: int | None = 0, epsilon: float = 0.0, budget: float = 0.0,
                 name: str | None = None, policy: PolicyWeights = PDEFAULT) -> None:
        super().__init__(seed, budget)
        self.epsilon = epsilon
        self.policy = policy
        if name:
            self.name = name

    def explain(self, view: View, legal: Sequence[Action],
                budget: float | None = None) -> list[Choice]:
        s = self.sample(view)
        legal = list(legal)
        order = ranked(s, legal, self.policy)
        if len(legal) > 1 and self.epsilon > 0.0:
            pick = epsilon_action(s, legal, self.rng, self.epsilon, self.policy)
            order = [x for x in order if x[1] == pick] + [x for x in order if x[1] != pick]
        return [Choice(a, 0.5, 0) for _, a in order]


class GreedyAgent(BaseAgent):
    """Best immediate outcome of its own decision, over ``samples`` resampled states."""

    name = "greedy"

    def __init__(self, seed: int | None = 0, samples: int = 2, temperature: float = 0.0,
                 horizon: int = 2, budget: float = 0.0, name: str | None = None,
                 weights: Weights = DEFAULT, policy: PolicyWeights = PDEFAULT) -> None:
        super().__init__(seed, budget)
        self.samples = samples
        self.horizon = horizon
        self.weights = weights
        self.policy = policy
        self.temperature = temperature
        if name:
            self.name = name

    def explain(self, view: View, legal: Sequence[Action],
                budget: float | None = None) -> list[Choice]:
        if len(legal) == 1:
            return [Choice(legal[0], 0.5, 0)]
        me = view.player
        states = [self.sample(view) for _ in range(self.samples)]
        legal = list(legal)
        values = []
        for a in legal:
            values.append(sum(one_step(s, a, me, horizon=self.horizon, w=self.weights,
                                       policy=self.policy)
                              for s in states)
                          / len(states))
        order = sorted(range(len(legal)), key=lambda i: -values[i])
        if self.temperature > 0.0:
            pick = softmax_pick(values, self.temperature, self.rng)
            order.remove(pick)
            order.insert(0, pick)
        return [Choice(legal[i], values[i], len(states)) for i in order]


__all__ = ["GreedyAgent", "HeuristicAgent", "one_step", "settle"]
