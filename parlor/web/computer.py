"""The computer opponent as the web app sees it: an agent that acts on a view.

The AI lives in :mod:`parlor.ai` (``make_agent(level, seed)`` giving an agent with
``act(view, legal, budget)`` and ``explain(view, legal, budget)``). This module uses it
defensively: if it cannot be imported, or fails on a move, a random legal agent takes over,
so a game never stalls. :func:`think` and :func:`advise` are module-level functions of plain
picklable arguments, so they run in a worker process (``ProcessPoolExecutor``).

    >>> from parlor.rules.engine import new_game, legal_actions
    >>> from parlor.rules.view import view
    >>> s = new_game(4)
    >>> text = think("random", 1, view(s, s.actor), [str(a) for a in legal_actions(s)], 0.1)
    >>> text in [str(a) for a in legal_actions(s)]
    True
"""

from __future__ import annotations

import importlib
import logging
import random
import time
from dataclasses import dataclass
from typing import Any

from parlor.rules.actions import Action
from parlor.rules.view import View

log = logging.getLogger("parlor.web")

#: The level the web app offers when the AI package offers none.
FALLBACK_LEVEL = "random"


class RandomAgent:
    """A uniformly random legal action (the fallback when ``parlor.ai`` is unavailable)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, view: View, legal: list[Action], budget: float | None = None) -> Action:
        return self.rng.choice(legal)

    def explain(self, view: View, legal: list[Action],
                budget: float | None = None) -> list[dict[str, Any]]:
        picks = self.rng.sample(legal, min(3, len(legal)))
        return [{"action": str(a), "score": None, "note": "a random legal action"}
                for a in picks]


def _levels_module() -> Any | None:
    try:
        return importlib.import_module("parlor.ai.levels")
    except Exception:  # not written yet, or broken: the fallback plays
        return None


def available_levels() -> list[str]:
    """The level names the AI package offers, weakest first (``random`` if none)."""
    mod = _levels_module()
    if mod is None or not hasattr(mod, "make_agent"):
        return [FALLBACK_LEVEL]
    for name in ("LEVEL_NAMES", "LEVELS", "NAMES", "levels"):
        found = getattr(mod, name, None)
        if callable(found):
            try:
                found = found()
            except Exception:
                continue
        if isinstance(found, dict):
            names = [str(k) for k in found]
        elif isinstance(found, list | tuple):
            names = [str(getattr(x, "name", x)) for x in found]
        else:
            continue
        if names:
            return names
    return [FALLBACK_LEVEL, "expert"]


def accepted_levels() -> list[str]:
    """Every level a game may be created with: the offered ones, the AI package's baselines
    and ``random`` (always possible through the fallback)."""
    names = available_levels()
    mod = _levels_module()
    extra = getattr(mod, "NAMES", ()) if mod is not None else ()
    for n in (*(str(x) for x in extra), FALLBACK_LEVEL):
        if n not in names:
            names.append(n)
    return names


def default_level() -> str:
    """The level preselected for a new game: a middle one."""
    names = available_levels()
    return "intermediate" if "intermediate" in names else names[len(names) // 2]


def make(level: str, seed: int) -> Any:
    """An agent for ``level``; the random agent when the AI package cannot give one."""
    if level == FALLBACK_LEVEL:
        mod = _levels_module()
        if mod is None or FALLBACK_LEVEL not in available_levels():
            return RandomAgent(seed)
    mod = _levels_module()
    if mod is not None:
        try:
            return mod.make_agent(level, seed)
        except Exception as exc:
            log.warning("make_agent(%r) failed (%s); a random agent plays", level, exc)
    return RandomAgent(seed)


def think(level: str, seed: int, view: View, legal: list[str], budget: float | None) -> str:
    """The computer's choice among ``legal`` (texts), as text. Never raises for an agent's
    fault: a failure or an answer outside ``legal`` falls back to a random legal action."""
    actions = [Action.parse(a) for a in legal]
    try:
        choice = make(level, seed).act(view, actions, budget)
        text = str(choice)
        if text in legal:
            return text
        log.warning("agent %r answered %r, not a legal action; random instead", level, text)
    except Exception as exc:
        log.warning("agent %r failed (%s); random instead", level, exc)
    return str(random.Random(seed).choice(actions))


@dataclass(frozen=True, slots=True)
class Advice:
    """A hint: the action the expert would take, and its top alternatives."""

    action: str
    alternatives: list[dict[str, Any]]
    source: str
    seconds: float


def advise(seed: int, view: View, legal: list[str], budget: float | None) -> Advice:
    """What the expert would do from ``view`` (the human's own view: nothing hidden)."""
    start = time.perf_counter()
    actions = [Action.parse(a) for a in legal]
    agent = make("expert", seed)
    source = "random (the expert is not available)" if isinstance(agent, RandomAgent) \
        else "expert"
    alternatives: list[dict[str, Any]] = []
    explain = getattr(agent, "explain", None)
    if callable(explain):
        try:
            alternatives = [a for a in (_alternative(x) for x in explain(view, actions, budget))
                            if a is not None and a["action"] in legal]
        except Exception as exc:
            log.warning("explain failed (%s)", exc)
    if alternatives:
        best = alternatives[0]["action"]
    else:
        best = think("expert", seed, view, legal, budget)
        if not isinstance(agent, RandomAgent) and source == "expert":
            alternatives = [{"action": best, "score": None, "note": "the expert's choice"}]
    return Advice(best, alternatives[:5], source, time.perf_counter() - start)


def _alternative(x: Any) -> dict[str, Any] | None:
    """One of ``explain``'s answers, whatever its shape, as {action, score, note}."""
    action: Any = None
    score: Any = None
    note: Any = None
    if isinstance(x, dict):
        action = x.get("action")
        score = x.get("score", x.get("value", x.get("win_rate")))
        note = x.get("note", x.get("why", x.get("reason", x.get("text"))))
    elif isinstance(x, Action | str):
        action = x
    elif isinstance(x, tuple | list) and x:
        action = x[0]
        score = x[1] if len(x) > 1 else None
        note = x[2] if len(x) > 2 else None
    else:
        action = getattr(x, "action", None)
        for name in ("score", "value", "win_rate", "mean"):
            if getattr(x, name, None) is not None:
                score = getattr(x, name)
                break
        for name in ("note", "why", "reason", "text", "explanation"):
            if getattr(x, name, None) is not None:
                note = getattr(x, name)
                break
        describe = getattr(x, "describe", None)
        if note is None and callable(describe):
            try:
                note = describe()
            except Exception:
                note = None
    if action is None:
        return None
    if isinstance(score, int | float):
        score = round(float(score), 3)
    elif score is not None:
        score = str(score)
    return {"action": str(action), "score": score, "note": None if note is None else str(note)}


__all__ = ["Advice", "RandomAgent", "accepted_levels", "advise", "available_levels",
           "default_level", "make", "think"]
