"""Difficulty levels 1-5 and the named baselines, as agents.

=====  ============  ===========================================================  ==========
level  name          agent                                                        budget
=====  ============  ===========================================================  ==========
1      novice        Heuristic: the cheap policy's rule of thumb, 25% of the       none
                     time a random plausible move (never an outright blunder
                     such as an Enh on the opponent's Cre)
2      casual        Greedy judged at the end of its own turn, one sample, with    none
                     softmax noise (temperature 0.02): sensible, careless
3      intermediate  Greedy judged at the end of its own turn, one sample, with    none
                     a little softmax noise (temperature 0.007)
4      strong        ISMCTS search, the best 4 root actions, its priors judged     0.05 s
                     after the opponent's next turn (a weaker judgement)
5      expert        ISMCTS search                                                 0.3 s
-      random        uniformly random legal actions                                none
-      greedy        Greedy judged at the end of its own turn, 2 samples           none
=====  ============  ===========================================================  ==========

The budget is the search time per *searched* decision (play windows, attacks, blocks,
abilities); every other decision is quick (see :mod:`parlor.ai.search`).
"""

from __future__ import annotations

from collections.abc import Callable

from parlor.ai.base import BaseAgent, RandomAgent
from parlor.ai.greedy import GreedyAgent, HeuristicAgent
from parlor.ai.search import SearchAgent

LEVEL_NAMES = ("novice", "casual", "intermediate", "strong", "expert")
NAMES = (*LEVEL_NAMES, "random", "greedy")

_FACTORIES: dict[str, Callable[[int | None], BaseAgent]] = {
    "novice": lambda seed: HeuristicAgent(seed, epsilon=0.25, name="novice"),
    "casual": lambda seed: GreedyAgent(seed, samples=1, horizon=1, temperature=0.02,
                                       name="casual"),
    "intermediate": lambda seed: GreedyAgent(seed, samples=1, horizon=1, temperature=0.007,
                                             name="intermediate"),
    "strong": lambda seed: SearchAgent(seed, budget=0.05, root_width=4, look=2,
                                       name="strong"),
    "expert": lambda seed: SearchAgent(seed, budget=0.3, name="expert"),
    "random": lambda seed: RandomAgent(seed),
    "greedy": lambda seed: GreedyAgent(seed, samples=2, horizon=1, name="greedy"),
}


def level_name(level: int | str) -> str:
    """The canonical name of a level given as 1-5, "3", or a name (any case)."""
    if isinstance(level, int) or (isinstance(level, str) and level.strip().isdigit()):
        n = int(level)
        if not 1 <= n <= len(LEVEL_NAMES):
            raise ValueError(f"level {n} is not 1-{len(LEVEL_NAMES)}")
        return LEVEL_NAMES[n - 1]
    name = level.strip().lower()
    if name not in _FACTORIES:
        raise ValueError(f"unknown level {level!r}: choose 1-5 or one of {', '.join(NAMES)}")
    return name


def make_agent(level: int | str, seed: int | None = 0) -> BaseAgent:
    """An agent for a level (1-5 or novice … expert) or a baseline ("random", "greedy")."""
    return _FACTORIES[level_name(level)](seed)


__all__ = ["LEVEL_NAMES", "NAMES", "level_name", "make_agent"]
