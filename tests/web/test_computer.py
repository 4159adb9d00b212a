"""The computer as the web app uses it: parlor.ai's levels, and an agent that raises or
answers an illegal action reported — the game stored as failed, visible to the player, the
record in the operator's log — never replaced by another level or a random move."""

from __future__ import annotations

import logging
import multiprocessing
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient

from parlor.ai.base import Choice
from parlor.ai.failure import AgentFailed
from parlor.ai.levels import LEVEL_NAMES
from parlor.rules.actions import Action
from parlor.rules.engine import legal_actions, new_game
from parlor.rules.notation import record, replay
from parlor.rules.view import View, view
from parlor.web import computer
from parlor.web.app import create_app

from .helpers import config_for, wait_for_human
from .helpers import new_game as new_web_game


class Broken:
    name = "broken"

    def act(self, view: View, legal: Sequence[Action], budget: float | None = None) -> Action:
        raise RuntimeError("bug in the search")

    def explain(self, view: View, legal: Sequence[Action],
                budget: float | None = None) -> list[Choice]:
        raise RuntimeError("bug in the search")


class Liar:
    name = "liar"

    def act(self, view: View, legal: Sequence[Action], budget: float | None = None) -> Action:
        return Action.parse("attack KS")

    def explain(self, view: View, legal: Sequence[Action],
                budget: float | None = None) -> list[Choice]:
        return [Choice(Action.parse("attack KS"), 0.9, 10)]


def position() -> tuple[View, list[str]]:
    s = new_game(8)
    return view(s, s.actor), [str(a) for a in legal_actions(s)]


def test_the_levels_are_parlor_ais() -> None:
    assert computer.available_levels() == list(LEVEL_NAMES)
    assert computer.default_level() == "intermediate"
    assert {"random", "greedy"} <= set(computer.accepted_levels())
    with pytest.raises(ValueError, match="unknown level"):
        computer.make("wizard", 1)


@pytest.mark.parametrize(("agent", "said"), [(Broken(), "raised RuntimeError"),
                                             (Liar(), "answered 'attack KS'")])
def test_a_failing_or_wrong_agent_is_reported_not_replaced(
        monkeypatch: pytest.MonkeyPatch, agent: Any, said: str) -> None:
    monkeypatch.setattr(computer, "make", lambda level, seed: agent)
    v, legal = position()
    with pytest.raises(AgentFailed, match=said):
        computer.think("expert", 1, v, legal, None)
    with pytest.raises(AgentFailed, match=r"raised RuntimeError|hinted \['attack KS'\]"):
        computer.advise(1, v, legal, None)  # the hint never comes from another agent


def test_the_failure_crosses_a_process_pool() -> None:
    import pickle

    exc = pickle.loads(pickle.dumps(AgentFailed("expert", "raised RuntimeError('x')")))
    assert (exc.level, exc.reason) == ("expert", "raised RuntimeError('x')")
    assert str(exc) == "the expert computer raised RuntimeError('x')"


def test_the_computer_and_the_hints_run_in_a_process_pool() -> None:
    """The web app's workers are spawned processes (``ProcessPoolExecutor``): the view goes
    there pickled and the answer comes back pickled, on the compiled build as on the
    interpreted one (tests/test_values.py covers every value class)."""
    v, legal = position()
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=ctx) as pool:
        move = pool.submit(computer.think, "greedy", 1, v, legal, 0.05).result(timeout=300)
        advice = pool.submit(computer.advise, 3, v, legal, 0.05).result(timeout=300)
        failed = pool.submit(computer.think, "wizard", 1, v, legal, 0.05).exception(300)
    assert move in legal and advice.action in legal and advice.source == "expert"
    assert isinstance(failed, ValueError) and "unknown level" in str(failed)


def test_the_hint_is_the_experts_best_choice() -> None:
    v, legal = position()
    advice = computer.advise(3, v, legal, 0.05)
    assert advice.source == "expert" and advice.action in legal
    assert advice.alternatives[0]["action"] == advice.action
    assert "iterations" in advice.budget or advice.budget == "no search"  # issue 46


@pytest.mark.parametrize("agent", [Broken(), Liar()])
def test_a_game_whose_computer_fails_shows_it_and_stops(
        monkeypatch: pytest.MonkeyPatch, db_url: str, caplog: pytest.LogCaptureFixture,
        agent: Any) -> None:
    """The computer moves first in seed 3 (who goes first is dealt, 106): its failure is
    stored, shown in the snapshot, survives a restart, and the log holds the record."""
    monkeypatch.setattr(computer, "make", lambda level, seed: agent)
    db = db_url
    with caplog.at_level(logging.ERROR, logger="parlor.web"), \
            TestClient(create_app(config_for(db))) as c:
        g = new_web_game(c, level="expert", seed=first_to_act_computer())
        headers = {"X-Parlor-Token": g["token"]}
        snap = g["snapshot"]
        for _ in range(40):
            snap = c.get(f"/api/games/{g['id']}", params={"after": snap["version"],
                                                          "wait": 2}, headers=headers).json()
            if snap["status"] != "live":
                break
        assert snap["status"] == "failed" and not snap["thinking"]
        assert snap["failure"].startswith(f"The {agent.name} computer failed: it ")
        assert "bug" in snap["failure"]
        legal = snap["view"]["legal"]
        r = c.post(f"/api/games/{g['id']}/actions", json={"action": legal[0] if legal
                                                          else "pass",
                                                          "version": snap["version"]},
                   headers=headers)
        assert r.status_code == 409 and "cannot go on" in r.json()["message"]
        home = c.get("/").text
        assert "computer failed" in home
    [entry] = [r for r in caplog.records if r.name == "parlor.web" and "record" in
               r.getMessage()]
    logged = entry.getMessage().split("its record:\n", 1)[1]
    assert len(replay(logged).history) == snap["version"]
    with TestClient(create_app(config_for(db))) as c:  # after a restart: still failed
        again = c.get(f"/api/games/{g['id']}", headers=headers).json()
        assert again["status"] == "failed" and again["failure"] == snap["failure"]


def test_an_imported_record_has_no_level_to_rematch(client: TestClient) -> None:
    s = new_game(5)
    r = client.post("/api/records", json={"record": record(s)})
    assert r.status_code == 201, r.text
    r = client.post(f"/api/games/{r.json()['id']}/rematch", json={})
    assert r.status_code == 400 and "imported record" in r.json()["message"]


def first_to_act_computer() -> int:
    """A seed whose first decision is the computer's (Rlr 2's), so it fails at once."""
    for seed in range(100):
        if new_game(seed).actor == 1:
            return seed
    raise AssertionError("no seed where Rlr 2 acts first")


def test_a_failing_hint_is_an_error_not_another_agents_advice(
        client: TestClient, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    g = new_web_game(client)
    snap = wait_for_human(client, g["id"], g["token"])
    monkeypatch.setattr(computer, "make", lambda level, seed: Liar())
    with caplog.at_level(logging.ERROR, logger="parlor.web"):
        r = client.get(f"/api/games/{g['id']}/hint", params={"version": snap["version"]},
                       headers={"X-Parlor-Token": g["token"]})
    assert r.status_code == 500 and r.json()["error"] == "computer_failed"
    assert r.json()["message"].startswith("No hint: the liar computer failed: it hinted")
    assert "the game goes on" in r.json()["message"]
    assert any("its record:" in e.getMessage() for e in caplog.records)
    again = client.get(f"/api/games/{g['id']}", headers={"X-Parlor-Token": g["token"]})
    assert again.json()["status"] == "live"  # a failed hint does not stop the game
