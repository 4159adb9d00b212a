"""Computer opponents for Parlor Magic.

    >>> from parlor.ai import make_agent
    >>> from parlor.rules.engine import legal_actions, new_game
    >>> from parlor.rules.view import view
    >>> s = new_game(seed=1)
    >>> agent = make_agent("novice", seed=1)
    >>> agent.act(view(s, s.actor), legal_actions(s)) in legal_actions(s)
    True

Modules:

* :mod:`~parlor.ai.base` — the :class:`Agent` protocol, :class:`Choice` (an alternative with
  its win estimate and visits), :class:`RandomAgent`;
* :mod:`~parlor.ai.evaluate` — the hand-written evaluation and win estimate;
* :mod:`~parlor.ai.policy` — the cheap per-action scores (rollouts, plausible moves);
* :mod:`~parlor.ai.greedy` — :class:`HeuristicAgent` and :class:`GreedyAgent`;
* :mod:`~parlor.ai.search` — :class:`SearchAgent` (ISMCTS with determinization);
* :mod:`~parlor.ai.determinize` — fast determinizations of a view;
* :mod:`~parlor.ai.levels` — levels 1-5 (novice … expert), "random" and "greedy";
* :mod:`~parlor.ai.match` — playing a game between agents, with think times.
* :mod:`~parlor.ai.failure` — :class:`AgentFailed`: an agent that raises or answers an
  illegal action is reported by the front-ends, never replaced.
"""

from parlor.ai.base import Agent, BaseAgent, Choice, RandomAgent
from parlor.ai.greedy import GreedyAgent, HeuristicAgent
from parlor.ai.levels import LEVEL_NAMES, NAMES, level_name, make_agent
from parlor.ai.search import SearchAgent

__all__ = [
    "LEVEL_NAMES",
    "NAMES",
    "Agent",
    "BaseAgent",
    "Choice",
    "GreedyAgent",
    "HeuristicAgent",
    "RandomAgent",
    "SearchAgent",
    "level_name",
    "make_agent",
]
