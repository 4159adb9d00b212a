"""A computer job left ``doing`` under a live worker (its end never written: the database
restarted just then, or its retry clashed with a newer job of the game) holds its game's lock
for good unless someone notices (issue 38): the worker that holds it ends it and asks for
the game's computer again, so the game moves on."""

from __future__ import annotations

import asyncio
import time

import pytest
from fastapi.testclient import TestClient
from procrastinate.exceptions import UniqueViolation

from parlor.web import jobs
from parlor.web.app import create_app

from .helpers import config_for, wait_for_human
from .helpers import new_game as new_web_game
from .test_computer import first_to_act_computer

pytestmark = pytest.mark.slow  # `make check` leaves it out: PostgreSQL


def test_an_orphaned_computer_job_is_ended_and_its_game_moves_on(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARLOR_WORKER_HEARTBEAT", "0.3")
    # not shorter: on a loaded machine a heartbeat 2 s (and once 5 s) late had the live
    # worker's own row pruned as stalled, and then no job of the game ran (issue 38's note:
    # a pruned live worker is a case of its own, not this test's); at 12 s, once more than
    # 12 s late during `make test` at load 6, and its planted orphan was retried as a
    # stalled worker's job instead of reaped. The reaper's grace is this too, so the game
    # still moves on well within the minute the test allows.
    monkeypatch.setenv("PARLOR_WORKER_STALLED", "25")
    # the reaper alone: the reconciler (parlor.web.reconcile) would also queue the game's
    # computer, between a job's end and the next, and its stale twin could hold the game's
    # lock just as the orphan is planted (it is harmless in play: its version is old)
    monkeypatch.setenv("PARLOR_WORKER_RECONCILE", "3600")
    with TestClient(create_app(config_for(pg_url))) as c:  # with a worker of its own
        queue = c.app.state.conductor.app  # type: ignore[attr-defined]
        g = new_web_game(c, seed=first_to_act_computer())
        gid, token = g["id"], g["token"]
        snap = wait_for_human(c, gid, token)  # the worker has run this game's computer

        async def plant() -> int:
            """A computer job of this game marked running under the live worker, which
            does not run it (as a job whose end could not be written)."""
            row = await queue.connector.execute_query_one_async(
                "SELECT max(id) AS id FROM procrastinate_workers")
            worker = int(row["id"])
            assert worker in jobs._worker_ids  # the worker that played this game's computer
            for _ in range(100):  # the human's turn shows before that job's end is written
                running = await queue.connector.execute_query_one_async(
                    "SELECT count(*) AS n FROM procrastinate_jobs WHERE lock = %(lock)s "
                    "AND status = 'doing'", lock=jobs.game_lock(gid))
                if not running["n"]:
                    break
                await asyncio.sleep(0.1)
            job_id = await queue.configure_task(
                "parlor.computer_turn", lock=jobs.game_lock(gid), queueing_lock="planted",
                schedule_in={"hours": 1}).defer_async(game_id=gid, version=snap["version"])
            for _ in range(100):  # a twin job of the game (a poll's re-ask) may run just now
                try:
                    await queue.connector.execute_query_async(
                        "UPDATE procrastinate_jobs SET status = 'doing', worker_id = %(w)s "
                        "WHERE id = %(id)s", w=worker, id=job_id)
                    return int(job_id)
                except UniqueViolation:  # the game's lock is held: once that job has ended
                    await asyncio.sleep(0.1)
            raise AssertionError("the game's jobs never left its lock free")

        job_id = c.portal.call(plant)  # type: ignore[attr-defined]
        moved = snap
        while not moved["thinking"]:  # the human's moves, until the computer is to act
            r = c.post(f"/api/games/{gid}/actions",
                       json={"action": moved["view"]["legal"][0], "version": moved["version"]},
                       headers={"X-Parlor-Token": token})
            assert r.status_code == 200, r.text
            moved = r.json()
        start = time.monotonic()
        after = wait_for_human(c, gid, token, timeout=60)
        assert after["version"] > moved["version"]
        assert time.monotonic() - start < 60

        async def status() -> str:
            row = await queue.connector.execute_query_one_async(
                "SELECT status FROM procrastinate_jobs WHERE id = %(id)s", id=job_id)
            return str(row["status"])

        assert c.portal.call(status) == "failed"  # type: ignore[attr-defined]
