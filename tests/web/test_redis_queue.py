"""The computer's work queue on Redis (``PARLOR_REDIS_URL``, issue 38), with a real Redis, a
real PostgreSQL and ``parlor worker`` processes as an operator starts them: no job row and no
``NOTIFY`` per computer turn; work lost in Redis (FLUSHALL, a Redis restarted empty, a worker
killed with ``kill -9`` while it thinks) is derived again from the stored games by the
reconciler, so the game moves on; a duplicated queue entry plays the turn once; a worker rides
out a Redis outage (never exits, not ready meanwhile)."""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
import redis
from fastapi.testclient import TestClient

from parlor.store import GameStore, libpq_url
from parlor.web import jobs, queued, redisqueue
from parlor.web.app import create_app
from parlor.web.config import WebConfig
from parlor.web.games import Games

from ..redisserver import RedisServer
from .helpers import config_for, until, wait_for_human
from .helpers import new_game as new_web_game
from .test_computer import first_to_act_computer
from .ui import free_port, stop_process

#: Seconds a worker's lease lasts, and between two rounds of its reconciler, in these tests.
LEASE, RECONCILE = 2.0, 0.5


class Worker:
    """A ``parlor worker`` process on the Redis queue, its output in a file."""

    def __init__(self, db: str, redis_url: str, log: Path, **env: str) -> None:
        self.port = free_port()
        self.log = log
        with log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "parlor.cli", "worker", "--db", db, "--health-port",
                 str(self.port)],
                env={**os.environ, "PARLOR_REDIS_URL": redis_url, "PARLOR_PACE": "0",
                     "PARLOR_WORKER_LEASE": str(LEASE),
                     "PARLOR_WORKER_RECONCILE": str(RECONCILE), "PYTHONUNBUFFERED": "1",
                     **env},
                stdout=out, stderr=subprocess.STDOUT)

    def readyz(self) -> int:
        try:
            return httpx.get(f"http://127.0.0.1:{self.port}/readyz", timeout=5).status_code
        except httpx.TransportError:
            return 0

    def text(self) -> str:
        return self.log.read_text()

    def stop(self) -> None:
        stop_process(self.proc)


def server(pg_url: str, redis_url: str) -> TestClient:
    """A server without a worker of its own: the computer's turns go to Redis."""
    return TestClient(create_app(config_for(pg_url, redis_url=redis_url,
                                            embedded_worker=False)))


def queued_on_redis(redis_url: str, gid: str) -> bool:
    client = redis.Redis.from_url(redis_url)
    try:
        return gid.encode() in client.lrange(redisqueue.QUEUE_KEY, 0, -1)
    finally:
        client.close()


def statements_about_jobs(pg_url: str) -> int:
    """procrastinate's job rows (none is written for a computer's turn on Redis)."""
    with psycopg.connect(libpq_url(pg_url)) as conn:
        row = conn.execute("SELECT count(*) FROM procrastinate_jobs").fetchone()
        assert row is not None
        return int(row[0])


@pytest.mark.parametrize("loss", ["flushall", "restart"])
def test_work_lost_in_redis_is_derived_again_and_the_game_moves(
        pg_url: str, redis_server: RedisServer, tmp_path: Path, loss: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The server queued the computer's turn on Redis; Redis loses it before any worker
    runs; a worker's reconciler finds the game waiting with no claim and plays it."""
    monkeypatch.setattr(queued, "REASK_AFTER", 3600.0)  # the server does not ask again
    with server(pg_url, redis_server.url) as c:
        g = new_web_game(c, seed=first_to_act_computer())
        until(lambda: queued_on_redis(redis_server.url, g["id"]), timeout=30, every=0.05)
        if loss == "flushall":
            assert redis.Redis.from_url(redis_server.url).flushall()
        else:
            redis_server.kill()  # no persistence: it comes back empty
            redis_server.start()
        assert not queued_on_redis(redis_server.url, g["id"])
        worker = Worker(pg_url, redis_server.url, tmp_path / "worker.log")
        try:
            snap = wait_for_human(c, g["id"], g["token"], timeout=60)
            assert snap["version"] > 0
            assert "reconciler: 1 of 1 games waiting on the computer had no claim" \
                in worker.text()
        finally:
            worker.stop()
    assert statements_about_jobs(pg_url) == 0  # no job row for a computer's turn


def lease_holder(redis_url: str, gid: str) -> str | None:
    client = redis.Redis.from_url(redis_url)
    try:
        got = client.get(redisqueue.lease_key(gid))
        return None if got is None else got.decode()
    finally:
        client.close()


def test_a_worker_killed_while_it_thinks_leaves_a_lease_that_expires(
        pg_url: str, redis_server: RedisServer, tmp_path: Path) -> None:
    """kill -9 of the worker holding a game's lease (it waits out a long readable pace):
    another worker plays the game once the lease has run out."""
    slow = Worker(pg_url, redis_server.url, tmp_path / "slow.log", PARLOR_PACE="600")
    other: Worker | None = None
    try:
        until(lambda: slow.readyz() == 200, timeout=60)
        with server(pg_url, redis_server.url) as c:
            g = new_web_game(c, seed=first_to_act_computer())
            until(lambda: (lease_holder(redis_server.url, g["id"]) or "").startswith(
                f"parlor-worker-{slow.proc.pid}:"), timeout=30, every=0.05)
            slow.proc.kill()
            slow.proc.wait(10)
            assert lease_holder(redis_server.url, g["id"]) is not None  # held by the dead
            other = Worker(pg_url, redis_server.url, tmp_path / "other.log")
            snap = wait_for_human(c, g["id"], g["token"], timeout=60)
            assert snap["version"] > 0 and snap["status"] == "live"
            assert f"game {g['id']}: the computer's turn under lease parlor-worker-" \
                   f"{other.proc.pid}:" in other.text()
    finally:
        slow.stop()
        if other is not None:
            other.stop()


def test_a_duplicated_queue_entry_plays_the_computers_turn_once(
        pg_url: str, redis_server: RedisServer, tmp_path: Path) -> None:
    """The same game four times in the list: one worker claims the lease, the other entries
    are dropped; the computer's turn is stored once."""
    with server(pg_url, redis_server.url) as c:
        g = new_web_game(c, seed=first_to_act_computer())
        until(lambda: queued_on_redis(redis_server.url, g["id"]), timeout=30, every=0.05)
        client = redis.Redis.from_url(redis_server.url)
        client.lpush(redisqueue.QUEUE_KEY, g["id"], g["id"], g["id"])
        client.close()
        # a readable pace of 2 s holds the lease while the duplicates are popped
        worker = Worker(pg_url, redis_server.url, tmp_path / "worker.log",
                        PARLOR_PACE="2", PARLOR_WORKER_CONCURRENCY="8")
        try:
            snap = wait_for_human(c, g["id"], g["token"], timeout=60)
            until(lambda: worker.text().count("is leased by another worker") == 3,
                  timeout=30)
        finally:
            worker.stop()
    log = worker.text()
    assert log.count(f"game {g['id']}: the computer's turn under lease") == 1
    stored = GameStore(pg_url).load(g["id"])
    assert stored is not None and len(stored.actions) == snap["version"]


def test_two_workers_without_a_lease_store_the_computers_decision_once(
        pg_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """The lease's last line of defence: two workers that play the same turn at once (a
    lease lost to a flush) commit only at the version they decided at, so one decision is
    stored and the other dropped."""
    with TestClient(create_app(config_for(pg_url, embedded_worker=False))) as c:
        g = new_web_game(c, seed=first_to_act_computer())
    config = WebConfig(database_url=pg_url, pace=0.5)
    stores = [GameStore(pg_url), GameStore(pg_url)]
    runtimes = [jobs.Runtime(Games(s, 10), config) for s in stores]

    async def both() -> None:
        async def play(rt: jobs.Runtime) -> None:
            jobs._runtime = rt
            await jobs._play(g["id"])
        await asyncio.gather(*(asyncio.create_task(play(rt)) for rt in runtimes))

    caplog.set_level(logging.INFO, logger="parlor.worker")
    try:
        asyncio.run(both())
    finally:
        jobs._runtime = None
    dropped = [r for r in caplog.records if "the decision is dropped" in r.getMessage()]
    stored = stores[0].load(g["id"])
    for s in stores:
        s.close()
    assert stored is not None and stored.row.version == len(stored.actions) >= 1
    assert len(dropped) >= 1  # the other worker's decision at the same version


def test_a_worker_rides_out_a_redis_outage(
        pg_url: str, redis_server: RedisServer, tmp_path: Path) -> None:
    """Redis killed: the worker stays alive, says it is not ready, and once Redis is back
    (empty) it is ready again and plays the computer of a game queued meanwhile."""
    worker = Worker(pg_url, redis_server.url, tmp_path / "worker.log")
    try:
        until(lambda: worker.readyz() == 200, timeout=60)
        redis_server.kill()
        until(lambda: worker.readyz() == 503, timeout=30)
        time.sleep(2)  # several failed pops and reconciler rounds
        assert worker.proc.poll() is None, "the worker exited while Redis was away"
        with server(pg_url, redis_server.url) as c:
            g: dict[str, Any] = new_web_game(c, seed=first_to_act_computer())  # not queued
            redis_server.start()
            until(lambda: worker.readyz() == 200, timeout=30)
            snap = wait_for_human(c, g["id"], g["token"], timeout=60)
        assert snap["version"] > 0
        assert "the computer's queue on Redis is away" in worker.text()
        assert worker.proc.poll() is None
    finally:
        worker.stop()
