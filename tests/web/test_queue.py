"""The computer on the work queue (PostgreSQL) as the player sees it: a job the queue
refuses, or one that fails at every attempt, stops the game as failed with the sentence the
player reads (never a computer that silently never moves); "thinking now" is the job's own
state; a hint in flight is claimed in the database, so its limit holds across servers."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from parlor.store import GameStore
from parlor.web import jobs, queued
from parlor.web.app import create_app

from .helpers import config_for
from .helpers import new_game as new_web_game
from .test_computer import first_to_act_computer

pytestmark = pytest.mark.slow  # `make check` leaves it out: PostgreSQL


def poll(c: TestClient, g: dict[str, Any], until: Any, timeout: float = 30.0) -> dict[str, Any]:
    """Snapshots of the game (long polls) until ``until(snapshot)``; the last one."""
    headers = {"X-Parlor-Token": g["token"]}
    snap: dict[str, Any] = g["snapshot"]
    end = time.monotonic() + timeout
    while not until(snap):
        assert time.monotonic() < end, f"still {snap['status']} at move {snap['version']}"
        snap = c.get(f"/api/games/{g['id']}", params={"after": snap["version"], "wait": 1},
                     headers=headers).json()
    return snap


class Refusing:
    """A queue whose every job is refused (procrastinate's tables gone, say)."""

    def __init__(self) -> None:
        self.asked = 0

    def configure_task(self, *_args: Any, **_kw: Any) -> Refusing:
        return self

    async def defer_async(self, **_kw: Any) -> int:
        self.asked += 1
        raise RuntimeError("relation procrastinate_jobs does not exist")


def test_a_computer_job_the_queue_refuses_stops_the_game_as_failed(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(queued, "QUEUE_RETRY", (0.01, 0.01))
    with TestClient(create_app(config_for(pg_url, embedded_worker=False))) as c:
        refusing = Refusing()
        c.app.state.conductor.app = refusing  # type: ignore[attr-defined]
        g = new_web_game(c, seed=first_to_act_computer())
        snap = poll(c, g, lambda s: s["status"] != "live")
        c.app.state.conductor.app = None  # type: ignore[attr-defined]
    assert refusing.asked == 3  # three attempts, then the game stops
    assert snap["status"] == "failed" and not snap["thinking"]
    assert snap["failure"].startswith("The random computer could not play: the work queue "
                                      "refused its job.")
    stored = GameStore(pg_url).load(g["id"])  # every server sees it
    assert stored is not None and stored.row.status == "failed"


def test_a_computer_job_that_fails_at_every_attempt_stops_the_game_as_failed(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    runs: list[str] = []

    async def crash(game_id: str) -> None:
        runs.append(game_id)
        raise ConnectionError("the worker lost its database")

    monkeypatch.setattr(jobs, "_play", crash)
    with TestClient(create_app(config_for(pg_url))) as c:  # with a worker of its own
        g = new_web_game(c, seed=first_to_act_computer())
        snap = poll(c, g, lambda s: s["status"] != "live", timeout=60)
    assert len(runs) == jobs.RETRIES + 1
    assert snap["status"] == "failed"
    assert f"its job failed {jobs.RETRIES + 1} times (ConnectionError)" in snap["failure"]


def test_thinking_now_is_the_computer_jobs_own_state(pg_url: str) -> None:
    """A long readable pace keeps the worker's job running (procrastinate's ``doing``)."""
    with TestClient(create_app(config_for(pg_url, pace=3.0))) as c:
        g = new_web_game(c, seed=first_to_act_computer())
        snap = poll(c, g, lambda s: s.get("thinking_now", False), timeout=30)
        assert snap["thinking"] and snap["status"] == "live"
        done = poll(c, g, lambda s: s["your_turn"] or s["status"] != "live", timeout=60)
        assert done["thinking_now"] is False


def test_one_hint_in_flight_per_game_is_claimed_in_the_database(pg_url: str) -> None:
    """Two servers' stores: the same decision shares one claim (one worker job, one answer);
    another decision of the game waits until it ends; a claim whose server gave up (older
    than the hint's budget) is taken over."""
    a, b = GameStore(pg_url), GameStore(pg_url)
    assert a.claim_hint("g1", 0, 4, "ka", expire_after=30, now=100.0) == "ka"  # ours
    assert b.claim_hint("g1", 0, 4, "kb", expire_after=30, now=101.0) == "ka"  # the same
    assert b.claim_hint("g1", 1, 4, "kc", expire_after=30, now=102.0) is None  # another line
    assert b.claim_hint("g1", 0, 5, "kd", expire_after=30, now=131.0) == "kd"  # expired
    b.release_hint("g1", "kd")
    assert a.claim_hint("g1", 0, 6, "ke", expire_after=30, now=132.0) == "ke"
    a.put_answer("ke", "{}")
    assert a.answer("ke") == b.answer("ke") == "{}"  # every waiting server reads it
    a.close()
    b.close()
