"""Wake-ups on Redis (``PARLOR_REDIS_URL``, issue 38): servers on one PostgreSQL learn of
each other's changes and of the workers' answers through a real Redis, no action's commit
sends ``NOTIFY``, and Redis holds no truth: while it is down moves still commit and long
polls re-check every second; once it is back, wake-ups are prompt again."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import psycopg
import pytest
import redis
from fastapi.testclient import TestClient
from sqlalchemy import event

from parlor.store import CHANNEL, GameRow, GameStore, libpq_url
from parlor.web.app import create_app
from parlor.web.wakeups import Publisher, attach

from ..redisserver import RedisServer
from .helpers import config_for, new_game, wait_for_human
from .ui import free_port, stop_process

pytestmark = pytest.mark.slow  # not in `make check`: Redis, servers in their own processes

#: A long poll's wait: one that returns well before it was woken (nothing else ends it).
WAIT = 30


def published(seen: Any) -> list[str]:
    """The payloads a test's own subscription received (what came within a second)."""
    heard = []
    end = time.monotonic() + 1.0
    while time.monotonic() < end:
        m = seen.get_message(timeout=0.1)
        if m is not None and m["type"] == "message":
            heard.extend(m["data"].decode().split("\n"))  # a payload a line
    return heard


def listen_state(c: TestClient) -> str:
    state: str = c.get("/readyz").json()["checks"]["listen"]
    return state


def until_listen(c: TestClient, state: str, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while listen_state(c) != state:
        assert time.monotonic() < end, f"/readyz's listen never became {state!r}"
        time.sleep(0.1)


def human_to_act(c: TestClient) -> tuple[dict[str, Any], dict[str, Any]]:
    g = new_game(c, max_turns=40)
    return g, wait_for_human(c, g["id"], g["token"])


def woken_by_a_move(a: TestClient, b: TestClient, g: dict[str, Any],
                    snap: dict[str, Any]) -> tuple[float, dict[str, Any]]:
    """A long poll on ``a`` while ``b`` makes the human's move: the seconds the poll took,
    and what it returned."""
    auth = {"X-Parlor-Token": g["token"]}
    conductor: Any = a.app.state.conductor  # type: ignore[attr-defined]
    with ThreadPoolExecutor(1) as pool:
        start = time.monotonic()
        polled = pool.submit(a.get, f"/api/games/{g['id']}", headers=auth,
                             params={"after": snap["version"], "wait": WAIT})
        while conductor.retained() == 0:  # the poll waits on a's event now
            assert not polled.done(), polled.result().text
            time.sleep(0.02)
        moved = b.post(f"/api/games/{g['id']}/actions", headers=auth, json={
            "action": snap["view"]["legal"][0], "version": snap["version"]})
        assert moved.status_code == 200, moved.text  # committed, Redis or not
        r = polled.result()
        took = time.monotonic() - start
    assert r.status_code == 200, r.text
    got: dict[str, Any] = r.json()
    assert got["version"] > snap["version"]
    return took, got


def test_a_long_poll_on_one_server_returns_when_another_server_moves(
        pg_url: str, redis_server: RedisServer) -> None:
    config = config_for(pg_url, redis_url=redis_server.url)
    with TestClient(create_app(config)) as a, TestClient(create_app(config)) as b:
        until_listen(a, "ok")
        g, snap = human_to_act(b)
        statements: list[str] = []
        event.listen(b.app.state.games.store.engine,  # type: ignore[attr-defined]
                     "before_cursor_execute", lambda _c, _cur, sql, *_a: statements.append(sql))
        took, _ = woken_by_a_move(a, b, g, snap)
        assert took < WAIT / 2  # woken by b's publish, not by the end of its wait
        # b committed the move (on PostgreSQL one statement: the UPDATE inside a WITH)
        assert any("UPDATE games" in s for s in statements)
        assert not any("notify" in s.lower() for s in statements)


def test_a_hint_answered_by_a_worker_reaches_the_asking_server(
        pg_url: str, redis_server: RedisServer) -> None:
    """Server a runs no worker: b's worker answers, and announces the answer on Redis."""
    seen = redis.Redis.from_url(redis_server.url).pubsub(ignore_subscribe_messages=True)
    seen.subscribe(CHANNEL)
    asking = config_for(pg_url, redis_url=redis_server.url, embedded_worker=False)
    working = config_for(pg_url, redis_url=redis_server.url)
    with TestClient(create_app(asking)) as a, TestClient(create_app(working)):
        until_listen(a, "ok")
        g, snap = human_to_act(a)
        r = a.get(f"/api/games/{g['id']}/hint", params={"version": snap["version"]},
                  headers={"X-Parlor-Token": g["token"]})
        assert r.status_code == 200, r.text
        assert r.json()["action"] in snap["view"]["legal"]
    heard = published(seen)
    seen.close()
    assert any(p.startswith("answer ") for p in heard), heard
    assert any(p.startswith(f"{g['id']} ") for p in heard), heard


def test_a_parlor_worker_process_announces_its_answers_on_redis_not_notify(
        pg_url: str, redis_server: RedisServer) -> None:
    """``parlor worker`` reads PARLOR_REDIS_URL too: its answer to a hint asked on a server
    without a worker is published on Redis, and nothing is notified on PostgreSQL."""
    port = free_port()
    worker = subprocess.Popen(
        [sys.executable, "-m", "parlor.cli", "worker", "--db", pg_url, "--health-port",
         str(port)], env={**os.environ, "PARLOR_REDIS_URL": redis_server.url,
                          "PARLOR_PACE": "0"},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    seen = redis.Redis.from_url(redis_server.url).pubsub(ignore_subscribe_messages=True)
    seen.subscribe(CHANNEL)
    with psycopg.connect(libpq_url(pg_url), autocommit=True) as pg:
        pg.execute(f"LISTEN {CHANNEL}")
        try:
            end = time.monotonic() + 60
            while not worker_ready(port):
                assert worker.poll() is None and time.monotonic() < end, "no worker"
                time.sleep(0.2)
            asking = config_for(pg_url, redis_url=redis_server.url, embedded_worker=False)
            with TestClient(create_app(asking)) as a:
                g, snap = human_to_act(a)  # the worker played the computer's turns
                r = a.get(f"/api/games/{g['id']}/hint", params={"version": snap["version"]},
                          headers={"X-Parlor-Token": g["token"]})
                assert r.status_code == 200, r.text
        finally:
            stop_process(worker)
        notified = [n.payload for n in pg.notifies(timeout=0.5)]
    heard = published(seen)
    seen.close()
    assert any(p.startswith("answer ") for p in heard), heard
    assert notified == []


def worker_ready(port: int) -> bool:
    with contextlib.suppress(httpx.HTTPError):
        return httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=2).status_code == 200
    return False


def test_while_redis_is_down_moves_commit_and_long_polls_recheck_every_second(
        pg_url: str, redis_server: RedisServer) -> None:
    config = config_for(pg_url, redis_url=redis_server.url)
    with TestClient(create_app(config)) as a, TestClient(create_app(config)) as b:
        until_listen(a, "ok")
        g, snap = human_to_act(b)
        redis_server.kill()
        until_listen(a, "not listening")
        assert a.get("/readyz").status_code == 503
        took, got = woken_by_a_move(a, b, g, snap)  # the move commits; the poll re-checks
        assert took < WAIT / 2
        stored = GameStore(pg_url)
        assert (stored.version(g["id"]) or 0) >= got["version"]
        stored.close()
        redis_server.start()  # the same port: every server subscribes again
        until_listen(a, "ok")
        until_listen(b, "ok")
        snap = wait_for_human(b, g["id"], g["token"])
        if snap["status"] == "live":
            took, _ = woken_by_a_move(a, b, g, snap)
            assert took < WAIT / 2


def test_a_publisher_whose_redis_is_down_warns_once_per_interval(
        redis_server: RedisServer, caplog: pytest.LogCaptureFixture) -> None:
    redis_server.kill()
    publisher = Publisher(redis_server.url)
    for n in range(20):  # messages of their own (each after the last one's attempt)
        publisher(f"g{n} 1")
        time.sleep(0.02)
    publisher.close()
    warnings = [r for r in caplog.records if "Redis publish failed" in r.getMessage()]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]
    assert publisher.failed > 0  # counted for the next warning


def test_with_redis_no_commit_sends_notify_and_each_change_is_published(
        pg_url: str, redis_server: RedisServer) -> None:
    seen = redis.Redis.from_url(redis_server.url).pubsub(ignore_subscribe_messages=True)
    seen.subscribe(CHANNEL)
    store = GameStore(pg_url)
    publisher = attach(store, redis_server.url)
    assert publisher is not None
    statements: list[str] = []
    event.listen(store.engine, "before_cursor_execute",
                 lambda _c, _cur, sql, *_a: statements.append(sql))
    store.insert(GameRow("g1", "play", 0, "random", 7, "max_turns=200", 1.0), "h")
    store.append("g1", 0, "keep 9D", turn=1, status="live", result="")
    store.append_many("g1", 1, ["a", "b"], turn=1, status="live", result="")
    store.truncate("g1", 3, 1, turn=1, status="live", result="")
    store.mark("g1", 1, status="failed", result="", takebacks=1)
    store.put_answer("k1", "{}")
    assert statements and not any("notify" in s.lower() for s in statements)
    heard = published(seen)
    assert heard == ["g1 1", "g1 3", "g1 1", "g1 1", "answer k1"]  # in commit order
    publisher.close()
    store.close()
    seen.close()
    plain = GameStore(pg_url)  # without Redis: NOTIFY in the transaction, as before
    statements.clear()
    event.listen(plain.engine, "before_cursor_execute",
                 lambda _c, _cur, sql, *_a: statements.append(sql))
    plain.put_answer("k2", "{}")
    assert any("pg_notify" in s for s in statements)
    plain.close()
