"""GET /metrics (issue 38): what an operator's Prometheus reads, on SQLite and PostgreSQL:
actions, reply times by route template, games cached, the computer's work waiting and its
age; never a game id."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from ..redisserver import RedisServer
from .helpers import new_game, until, wait_for_human


def sample(text: str, name: str, **labels: str) -> float:
    """The value of one sample of the exposition text (KeyError when it is missing)."""
    for line in text.splitlines():
        m = re.match(r"^([a-z_]+)(?:\{(.*)\})? (\S+)$", line)
        if not m or m.group(1) != name:
            continue
        found = dict(re.findall(r'(\w+)="([^"]*)"', m.group(2) or ""))
        if all(found.get(k) == v for k, v in labels.items()):
            return float(m.group(3))
    raise KeyError(f"{name}{labels}")


def test_metrics_count_actions_and_time_replies_by_route(client: TestClient) -> None:
    g = new_game(client)
    snap = wait_for_human(client, g["id"], g["token"])
    r = client.post(f"/api/games/{g['id']}/actions",
                    json={"action": snap["view"]["legal"][0], "version": snap["version"]},
                    headers={"X-Parlor-Token": g["token"]})
    assert r.status_code == 200
    client.get("/api/games/unknown-id-0001")
    m = client.get("/metrics")
    assert m.status_code == 200 and m.headers["content-type"].startswith("text/plain")
    text = m.text
    assert sample(text, "parlor_actions_total", by="human") == 1
    assert sample(text, "parlor_reply_seconds_count", route="/api/games/{game_id}/actions",
                  kind="reply") == 1
    assert sample(text, "parlor_reply_seconds_count", route="/api/games/{game_id}",
                  kind="long_poll") >= 1
    assert sample(text, "parlor_games_cached") >= 1
    assert sample(text, "parlor_search_capped_total", result="capped") >= 0  # issue 46
    assert g["id"] not in text and "unknown-id-0001" not in text


@pytest.mark.slow
def test_metrics_show_the_computers_work_waiting_and_its_age(pg_url: str) -> None:
    from parlor.web.app import create_app

    from .helpers import config_for

    with TestClient(create_app(config_for(pg_url, embedded_worker=False))) as c:
        queue = c.app.state.conductor.app  # type: ignore[attr-defined]

        async def queue_one() -> None:
            await queue.configure_task("parlor.computer_turn", lock="game:x",
                                       queueing_lock="game:x").defer_async(
                game_id="x", version=0)

        c.portal.call(queue_one)  # type: ignore[attr-defined]
        text = c.get("/metrics").text
    assert sample(text, "parlor_computer_jobs", queue="computer", state="todo") == 1
    assert 0 <= sample(text, "parlor_computer_wait_seconds", queue="computer") < 60


@pytest.mark.slow
def test_metrics_on_redis_read_the_queues_with_the_servers_own_connection(
        pg_url: str, redis_server: RedisServer) -> None:
    """With ``PARLOR_REDIS_URL`` the work waiting is each Redis list's length, read through
    the connection the server holds anyway: a scrape opens no connection to Redis."""
    import redis

    from parlor.web import redisqueue
    from parlor.web.app import create_app

    from .helpers import config_for

    watcher = redis.Redis.from_url(redis_server.url)

    def connections() -> int:
        return int(watcher.info("stats")["total_connections_received"])

    with TestClient(create_app(config_for(pg_url, redis_url=redis_server.url,
                                          embedded_worker=False))) as c:
        watcher.lpush(redisqueue.QUEUE_KEY, "x")
        first = c.get("/metrics").text  # the server's pool has its connection from now on
        before = connections()
        for _ in range(5):
            text = c.get("/metrics").text
        assert connections() == before
    watcher.close()
    assert sample(first, "parlor_computer_jobs", queue="computer", state="todo") == 1
    assert sample(text, "parlor_computer_jobs", queue="analysis", state="todo") == 0


@pytest.mark.slow
def test_metrics_on_redis_give_the_oldest_waiting_entrys_age(
        pg_url: str, redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """``parlor_computer_wait_seconds`` on the Redis queue: a game waiting on the computer,
    queued by the server (no worker runs), is as old as its push, by Redis's clock (the
    marker set 30 s back stands for 30 s of waiting: no timed assertion); an entry whose
    marker has expired reads as the marker's expiry, not as 0."""
    import redis

    from parlor.web import queued, redisqueue
    from parlor.web.app import create_app

    from .helpers import config_for
    from .test_computer import first_to_act_computer

    monkeypatch.setattr(queued, "REASK_AFTER", 3600.0)  # the server does not queue it again
    watcher = redis.Redis.from_url(redis_server.url)
    with TestClient(create_app(config_for(pg_url, redis_url=redis_server.url,
                                          embedded_worker=False))) as c:
        g = new_game(c, seed=first_to_act_computer())
        until(lambda: watcher.llen(redisqueue.QUEUE_KEY) == 1, timeout=30, every=0.05)
        marker = redisqueue.queued_key(g["id"])
        pushed = int(watcher.get(marker) or b"0")
        seconds, micros = watcher.time()
        assert 0 <= seconds * 1000 + micros // 1000 - pushed < 60_000  # Redis's clock, ms
        watcher.set(marker, pushed - 30_000, keepttl=True)
        text = c.get("/metrics").text
        assert sample(text, "parlor_computer_jobs", queue="computer", state="todo") == 1
        assert 30 <= sample(text, "parlor_computer_wait_seconds", queue="computer") < 90
        assert sample(text, "parlor_computer_wait_seconds", queue="analysis") == 0
        watcher.delete(marker)  # expired while its entry waits
        lease = c.app.state.conductor.redis_queue.marker_ms / 1000  # type: ignore[attr-defined]
        text = c.get("/metrics").text
        assert sample(text, "parlor_computer_wait_seconds", queue="computer") == lease
        watcher.set(marker, "1")  # as a server of before set it (a rolling upgrade)
        text = c.get("/metrics").text
        assert sample(text, "parlor_computer_wait_seconds", queue="computer") == lease
    watcher.close()
    assert g["id"] not in text
