"""OpenSpiel's own ISMCTS (``open_spiel.python.algorithms.ismcts``) as a Parlor Magic agent.

The agent sees what every agent sees, its view and the legal actions: it deals a state
consistent with the view (``resample``) as the root, and OpenSpiel's bot resamples the hidden
cards again for every simulation (``resample_from_infostate``). The evaluation is OpenSpiel's
``RandomRolloutEvaluator`` (uniformly random play to the end of the game); tree nodes are
keyed by observation strings (``use_observation_string``): the view shows a Rlr's own
Recycle pile, face-up cards and open Discards, so the current observation stands in for the
information state, and a determinized state's opponent has no history of its own.

Budget: OpenSpiel's bot counts simulations. To meet the expert at **equal time**, the search
here runs simulations until the decision's time budget is spent (``budget`` seconds, and at
most ``max_simulations`` when given, with at least two: the first only evaluates the
root), on every decision with more than one
legal action.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from parlor.ai.base import BaseAgent, Choice
from parlor.research.numbering import decode, encode
from parlor.research.spiel import ParlorGame, ParlorState, load
from parlor.rules.actions import Action
from parlor.rules.state import Settings
from parlor.rules.view import View


class TimedISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTSBot with its simulation loop bounded by time as well.

    ``run_search`` is OpenSpiel's own, with ``for _ in range(max_simulations)`` turned into a
    loop that also stops at the deadline; everything else is inherited unchanged."""

    def __init__(self, game: Any, evaluator: Any, uct_c: float, budget: float,
                 max_simulations: int | None, random_state: np.random.RandomState) -> None:
        super().__init__(game, evaluator, uct_c, max_simulations or 1 << 30,
                         random_state=random_state, use_observation_string=True)
        self.budget = budget
        self.last_simulations = 0

    def run_search(self, state: Any) -> list[tuple[int, float]]:
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        root_key = self.get_state_key(state)
        deadline = time.perf_counter() + self.budget
        n = 0
        # The first simulation only evaluates the root; the second is the first to visit a child.
        while n < 2 or (n < self._max_simulations and time.perf_counter() < deadline):
            sampled = self.sample_root_state(state)
            if root_key != self.get_state_key(sampled):
                raise RuntimeError("a resampled root does not look the same to its Rlr")
            self.run_simulation(sampled)
            n += 1
        self.last_simulations = n
        return list(self.get_final_policy(state, self._root_node))


class ISMCTSAgent(BaseAgent):
    """OpenSpiel's ISMCTS with random rollouts; ``budget`` seconds per decision."""

    name = "os_ismcts"

    def __init__(self, seed: int | None = 0, budget: float = 0.3,
                 max_simulations: int | None = None, uct_c: float = 2.0,
                 rollouts: int = 1) -> None:
        super().__init__(seed, budget)
        self.max_simulations = max_simulations
        self.uct_c = uct_c
        self.rollouts = rollouts
        self.np_rng = np.random.RandomState(self.rng.getrandbits(32))
        self._games: dict[Settings, ParlorGame] = {}

    def _game(self, settings: Settings) -> ParlorGame:
        if settings not in self._games:
            self._games[settings] = load(max_turns=settings.max_turns,
                                         match_play=settings.match_play)
        return self._games[settings]

    def explain(self, view: View, legal: Sequence[Action],
                budget: float | None = None) -> list[Choice]:
        if len(legal) == 1:
            return [Choice(legal[0], 0.5, 0)]
        game = self._game(view.settings)
        root = ParlorState.from_view(game, view, self.rng, keep_log=False)
        evaluator = mcts.RandomRolloutEvaluator(self.rollouts, self.np_rng)
        bot = TimedISMCTSBot(game, evaluator, self.uct_c,
                             self.budget if budget is None else budget,
                             self.max_simulations, self.np_rng)
        policy = dict(bot.run_search(root))
        node = bot._root_node
        self.last_simulations = bot.last_simulations
        by_number = {encode(a): a for a in legal}
        ranked = sorted(by_number, key=lambda n: -policy.get(n, 0.0))
        out = []
        for n in ranked:
            child = node.child_info.get(n)
            visits = child.visits if child is not None else 0
            value = (child.return_sum / visits + 1) / 2 if child is not None and visits else 0.5
            out.append(Choice(by_number[n], value, visits))
        if decode(ranked[0]) != by_number[ranked[0]]:
            raise RuntimeError("the action numbering does not round-trip")
        return out


def make_research_agent(name: str, seed: int | None = 0) -> BaseAgent:
    """The research agents by name: ``os_ismcts`` (0.3 s a decision, as the expert)."""
    if name == "os_ismcts":
        return ISMCTSAgent(seed)
    raise ValueError(f"unknown research agent {name!r}: choose os_ismcts")


RESEARCH_NAMES = ("os_ismcts",)

__all__ = ["RESEARCH_NAMES", "ISMCTSAgent", "TimedISMCTSBot", "make_research_agent"]
