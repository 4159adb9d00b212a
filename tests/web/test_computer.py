"""The computer as the web app uses it: the AI package when it is there, a random legal
agent when it is not, and never an answer outside the legal actions."""

from __future__ import annotations

from typing import Any

import pytest

from parlor.rules.engine import legal_actions, new_game
from parlor.rules.view import view
from parlor.web import computer


def position() -> tuple[Any, list[str]]:
    s = new_game(8)
    return view(s, s.actor), [str(a) for a in legal_actions(s)]


def test_without_the_ai_package_a_random_agent_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(computer, "_levels_module", lambda: None)
    assert computer.available_levels() == ["random"]
    assert computer.default_level() == "random"
    v, legal = position()
    assert computer.think("expert", 3, v, legal, None) in legal
    advice = computer.advise(3, v, legal, None)
    assert advice.action in legal and advice.source.startswith("random")


def test_a_failing_or_wrong_agent_falls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken:
        def act(self, *a: Any, **k: Any) -> str:
            raise RuntimeError("boom")

    class Liar:
        def act(self, *a: Any, **k: Any) -> str:
            return "attack KS"

    v, legal = position()
    for agent in (Broken(), Liar()):
        monkeypatch.setattr(computer, "make", lambda level, seed, a=agent: a)
        assert computer.think("expert", 1, v, legal, None) in legal


def test_explain_answers_of_any_shape() -> None:
    assert computer._alternative(("pass", 0.5, "why not")) == {
        "action": "pass", "score": 0.5, "note": "why not"}
    assert computer._alternative({"action": "done", "value": 0.25})["score"] == 0.25
    assert computer._alternative(None) is None
