"""The computer opponent as the web app sees it: an agent of :mod:`parlor.ai` that acts on a
view. :func:`think` and :func:`advise` are module-level functions of plain picklable
arguments, so they run in a worker process (``ProcessPoolExecutor``).

An agent that raises or answers an illegal action is a bug: both raise
:class:`~parlor.ai.failure.AgentFailed` (which crosses the process pool), and the server
stores the game as failed (:meth:`parlor.web.games.Games.computer_failed`) with the record in
the operator's log. Nothing plays in its place, and a hint never comes from another agent.

    >>> from parlor.rules.engine import new_game, legal_actions
    >>> from parlor.rules.view import view
    >>> s = new_game(4)
    >>> text = think("random", 1, view(s, s.actor), [str(a) for a in legal_actions(s)], 0.1)
    >>> text in [str(a) for a in legal_actions(s)]
    True
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from parlor.ai.base import Agent, Choice
from parlor.ai.failure import AgentFailed, decide
from parlor.ai.levels import LEVEL_NAMES, NAMES, make_agent
from parlor.ai.search import SearchAgent, add_cap_stats, cap_stats
from parlor.rules.actions import Action
from parlor.rules.view import View

T = TypeVar("T")

#: The level that gives hints.
HINT_LEVEL = "expert"


def available_levels() -> list[str]:
    """The levels offered for a new game, weakest first: 1-5, novice … expert."""
    return list(LEVEL_NAMES)


def accepted_levels() -> list[str]:
    """Every level a game may be created with: the offered ones and the AI package's
    baselines (random, greedy)."""
    return list(NAMES)


def default_level() -> str:
    """The level preselected for a new game: the middle one."""
    return LEVEL_NAMES[len(LEVEL_NAMES) // 2]


def make(level: str, seed: int) -> Agent:
    """The agent of ``level`` (ValueError for a level parlor.ai does not know)."""
    return make_agent(level, seed)


def think(level: str, seed: int, view: View, legal: list[str], budget: float | None) -> str:
    """The computer's choice among ``legal`` (texts), as text; AgentFailed when the agent
    raises or answers anything else."""
    return str(decide(make(level, seed), view, [Action.parse(a) for a in legal], budget))


@dataclass(frozen=True, slots=True)
class Advice:
    """A hint: the action the expert would take, and its top alternatives."""

    action: str
    alternatives: list[dict[str, Any]]
    source: str
    seconds: float
    #: the search budget the expert used (``2000 iterations``; issue 46)
    budget: str = ""


def advise(seed: int, view: View, legal: list[str], budget: float | None) -> Advice:
    """What the expert would do from ``view`` (the human's own view: nothing hidden), best
    first; AgentFailed when its answers are not legal actions or it raises."""
    start = time.perf_counter()
    actions = [Action.parse(a) for a in legal]
    agent = make(HINT_LEVEL, seed)
    try:
        choices = agent.explain(view, actions, budget)
    except Exception as exc:
        raise AgentFailed(agent.name, f"raised {exc!r} while giving a hint") from exc
    wrong = [str(c.action) for c in choices if c.action not in actions]
    if not choices or wrong:
        raise AgentFailed(agent.name, f"hinted {wrong or 'nothing'}, not legal actions")
    alternatives = [alternative(c) for c in choices[:5]]
    used = agent.budget_text() if isinstance(agent, SearchAgent) else "no search"
    return Advice(alternatives[0]["action"], alternatives, HINT_LEVEL,
                  time.perf_counter() - start, used)


def alternative(c: Choice) -> dict[str, Any]:
    """One of the expert's alternatives as the hint panel shows it: the action, its win
    estimate and a note."""
    return {"action": str(c.action), "score": round(c.value, 3), "note": c.describe()}


@dataclass(frozen=True, slots=True)
class Counted(Generic[T]):
    """A pool task's answer and the capped searches it ran (issue 46): a worker process's
    counts would never reach the serving process's /metrics otherwise."""

    value: T
    pid: int  # the process that searched
    searches: int
    capped: int


def counted(task: Callable[..., T], *args: Any) -> Counted[T]:
    """``task(*args)`` with the searches it ran under a cap and those the cap cut short.
    A pool process runs one task at a time, so the difference is the task's own."""
    searches, capped = cap_stats()
    value = task(*args)
    after_searches, after_capped = cap_stats()
    return Counted(value, os.getpid(), after_searches - searches, after_capped - capped)


def tally(answer: Counted[T]) -> T:
    """The task's answer, its searches added to this process's counts when another process
    ran them (a thread pool's searches are this process's own, already counted)."""
    if answer.pid != os.getpid():
        add_cap_stats(answer.searches, answer.capped)
    return answer.value


__all__ = ["HINT_LEVEL", "Advice", "Counted", "accepted_levels", "advise", "available_levels",
           "counted", "default_level", "make", "tally", "think"]
