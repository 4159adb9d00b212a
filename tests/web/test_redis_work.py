"""Hints and post-game analyses on the Redis queue (``PARLOR_REDIS_URL``, issue 38), with a
real Redis, a real PostgreSQL and ``parlor worker`` processes as an operator starts them: no
procrastinate job row for either; a hint or an analysis whose entry or lease Redis lost
(FLUSHALL), or whose worker was killed with ``kill -9``, is derived again from the stored
state by the reconciler and completes."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import redis
from fastapi.testclient import TestClient

from parlor.rules.state import Settings
from parlor.store import GameStore
from parlor.web import jobs, redisqueue
from parlor.web.config import WebConfig
from parlor.web.games import Games
from parlor.web.reconcile import Work, match_key

from ..redisserver import RedisServer
from .helpers import new_game as new_web_game
from .helpers import play_out, until, wait_for_human
from .test_computer import first_to_act_computer
from .test_redis_queue import Worker, server, statements_about_jobs


def finished_game(c: TestClient, max_turns: int = 8) -> tuple[str, str]:
    g = new_web_game(c, level="random", seed=5, max_turns=max_turns)
    play_out(c, g["id"], g["token"], seed=2)
    return g["id"], g["token"]


def analysis_of(c: TestClient, gid: str, token: str) -> dict[str, Any]:
    r = c.get(f"/api/games/{gid}/analysis", headers={"X-Parlor-Token": token})
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def analysed(c: TestClient, gid: str, token: str, timeout: float = 120) -> dict[str, Any]:
    """The analysis once it is over (done or failed)."""
    end = time.monotonic() + timeout
    while (body := analysis_of(c, gid, token))["status"] not in ("done", "failed"):
        assert time.monotonic() < end, f"the analysis did not finish: {body}"
        time.sleep(0.2)
    return body


def ask_analysis(c: TestClient, gid: str, token: str) -> None:
    r = c.post(f"/api/games/{gid}/analysis", json={"seed": 3},
               headers={"X-Parlor-Token": token})
    assert r.status_code == 202, r.text


def leased_by(redis_url: str, name: str) -> str:
    client = redis.Redis.from_url(redis_url)
    try:
        got = client.get(redisqueue.lease_key(name))
        return "" if got is None else got.decode()
    finally:
        client.close()


def entries(redis_url: str) -> list[str]:
    client = redis.Redis.from_url(redis_url)
    try:
        return [e.decode() for key in (redisqueue.QUEUE_KEY, redisqueue.ANALYSIS_QUEUE_KEY)
                for e in client.lrange(key, 0, -1)]
    finally:
        client.close()


def test_a_hint_and_an_analysis_are_worked_out_on_redis_with_no_job_row(
        pg_url: str, redis_server: RedisServer, tmp_path: Path) -> None:
    worker = Worker(pg_url, redis_server.url, tmp_path / "worker.log",
                    PARLOR_ANALYSIS_ITERATIONS="8")
    try:
        with server(pg_url, redis_server.url) as c:
            g = new_web_game(c, level="random", seed=5, max_turns=8)
            gid, token = g["id"], g["token"]
            snap = wait_for_human(c, gid, token, timeout=60)
            r = c.get(f"/api/games/{gid}/hint", params={"version": snap["version"]},
                      headers={"X-Parlor-Token": token})
            assert r.status_code == 200, r.text
            assert r.json()["action"] in snap["view"]["legal"]
            play_out(c, gid, token, seed=2)
            ask_analysis(c, gid, token)
            body = analysed(c, gid, token)
            assert body["status"] == "done" and body["total"] == len(body["decisions"]) > 0
    finally:
        worker.stop()
    log = worker.text()
    assert f"hint:{gid}:0:{snap['version']} under lease parlor-worker-" in log
    assert f"analysis:{gid}:{body['player']} under lease parlor-worker-" in log
    assert statements_about_jobs(pg_url) == 0  # no procrastinate job row for either


def test_a_hint_whose_entry_redis_lost_is_derived_from_its_claim(
        pg_url: str, redis_server: RedisServer, tmp_path: Path) -> None:
    """The server queued the hint and waits for its answer; Redis is flushed before any
    worker runs; a worker started then finds the claim with no answer and answers it."""
    with server(pg_url, redis_server.url) as c:
        g = new_web_game(c, level="random", seed=5, max_turns=8)
        gid, token = g["id"], g["token"]
        # the computer's moves by a worker of this test's own, stopped before the hint
        first = Worker(pg_url, redis_server.url, tmp_path / "first.log")
        try:
            snap = wait_for_human(c, gid, token, timeout=60)
        finally:
            first.stop()
        answer: list[httpx.Response] = []
        asking = threading.Thread(target=lambda: answer.append(c.get(
            f"/api/games/{gid}/hint", params={"version": snap["version"]},
            headers={"X-Parlor-Token": token})))
        asking.start()
        until(lambda: any(e.startswith(f"hint {gid} ") for e in entries(redis_server.url)),
              timeout=30, every=0.05)
        assert redis.Redis.from_url(redis_server.url).flushall()
        worker = Worker(pg_url, redis_server.url, tmp_path / "worker.log")
        try:
            asking.join(60)
            assert answer and answer[0].status_code == 200, answer
            assert answer[0].json()["action"] in snap["view"]["legal"]
        finally:
            worker.stop()
    log = worker.text()
    assert "hints, contests' decisions and analyses asked had no claim: queued (hint)" in log
    assert f"hint:{gid}:0:{snap['version']} under lease parlor-worker-{worker.proc.pid}:" \
        in log


def started(c: TestClient, redis_url: str, gid: str, token: str, pid: int) -> bool:
    """The analysis runs under ``pid``'s lease and has analysed a decision already."""
    body = analysis_of(c, gid, token)
    holder = leased_by(redis_url, f"analysis:{gid}:{body['player']}")
    return holder.startswith(f"parlor-worker-{pid}:") and body["status"] == "running" \
        and body["done"] >= 1


def test_flushing_redis_mid_analysis_still_completes(
        pg_url: str, redis_server: RedisServer, tmp_path: Path) -> None:
    """FLUSHALL while a worker analyses (its lease and any entry gone): the reconciler
    queues the analysis again from its row, and it completes."""
    # long enough (many decisions, each searched a while) for the reconciler's rounds
    # (every 0.5 s) to come while it still runs
    worker = Worker(pg_url, redis_server.url, tmp_path / "worker.log",
                    PARLOR_ANALYSIS_ITERATIONS="300")
    try:
        with server(pg_url, redis_server.url) as c:
            gid, token = finished_game(c, max_turns=30)
            ask_analysis(c, gid, token)
            until(lambda: started(c, redis_server.url, gid, token, worker.proc.pid),
                  timeout=120, every=0.05)
            assert redis.Redis.from_url(redis_server.url).flushall()
            assert analysis_of(c, gid, token)["status"] == "running"
            body = analysed(c, gid, token, timeout=600)
            assert body["status"] == "done" and body["total"] == len(body["decisions"]) > 0
            until(lambda: "had no claim: queued (analysis)" in worker.text(), timeout=60)
            # the entry derived again is taken (and dropped: the analysis is done)...
            until(lambda: not entries(redis_server.url)
                  and not leased_by(redis_server.url, f"analysis:{gid}:{body['player']}"),
                  timeout=120)
            # ... and what the player reads stays done
            assert analysis_of(c, gid, token)["status"] == "done"
    finally:
        worker.stop()


def test_a_killed_workers_analysis_is_picked_up_again(
        pg_url: str, redis_server: RedisServer, tmp_path: Path) -> None:
    """kill -9 of the worker analysing: its lease runs out, another worker's reconciler
    queues the analysis again from its row, and that worker completes it."""
    slow = Worker(pg_url, redis_server.url, tmp_path / "slow.log",
                  PARLOR_ANALYSIS_ITERATIONS="400")
    other: Worker | None = None
    try:
        with server(pg_url, redis_server.url) as c:
            gid, token = finished_game(c)
            ask_analysis(c, gid, token)
            until(lambda: started(c, redis_server.url, gid, token, slow.proc.pid),
                  timeout=120, every=0.05)
            slow.proc.kill()
            slow.proc.wait(10)
            other = Worker(pg_url, redis_server.url, tmp_path / "other.log",
                           PARLOR_ANALYSIS_ITERATIONS="8")
            body = analysed(c, gid, token, timeout=120)
            assert body["status"] == "done" and body["total"] == len(body["decisions"]) > 0
            assert other is not None
            assert f"analysis:{gid}:{body['player']} under lease " \
                f"parlor-worker-{other.proc.pid}:" \
                in other.text()
    finally:
        slow.stop()
        if other is not None:
            other.stop()


def test_a_contests_decision_is_derived_and_answered_under_its_positions_key(
        pg_url: str, redis_server: RedisServer) -> None:
    """A live contest between computers waits on its next decision: the reconciler queues
    it (no server needs to have asked), a worker answers it under the key the position
    names (the key the server driving the tournament waits on), and then nothing more is
    queued for that position."""
    store = GameStore(pg_url)
    games = Games(store, 10)
    live = games.create_contest(kind="match", level="random|random", seed=5,
                                settings=Settings(max_turns=8), human=0, title="contest",
                                token_hash="-")
    queue = redisqueue.RedisQueue(redis_server.url, lease=5)
    config = WebConfig(database_url=pg_url, pace=0.0, worker_kind="thread")
    runner = redisqueue.ComputerRunner(queue, games, config, jobs.WorkerSettings())
    at = (live.id, live.row.takebacks, live.row.version)

    async def derive_and_answer() -> list[int]:
        jobs.install(games, config)
        try:
            queued = await runner.reconciler.once()
            entry = await queue.pop(runner.lists)
            assert entry == f"match {live.id} {at[1]} {at[2]}"
            await runner._work(entry)
            return [queued, await runner.reconciler.once()]
        finally:
            jobs._runtime = None
            await queue.close()

    assert asyncio.run(derive_and_answer()) == [1, 0]  # answered: not queued again
    payload = store.answer(match_key(*at))
    store.close()
    assert payload is not None
    job = games.match_job(live)
    assert job is not None and json.loads(payload)["action"] in job.legal


def test_sigterm_lets_the_running_work_end_then_the_worker_exits(
        pg_url: str, redis_server: RedisServer, tmp_path: Path) -> None:
    """SIGTERM while a worker waits out the readable pace of a computer's turn: it takes
    no more work, the turn is stored, and the process exits 0 (supervision restarts it)."""
    from .test_redis_queue import lease_holder

    worker = Worker(pg_url, redis_server.url, tmp_path / "worker.log", PARLOR_PACE="3",
                    PARLOR_WORKER_GRACEFUL="60")
    try:
        with server(pg_url, redis_server.url) as c:
            g = new_web_game(c, seed=first_to_act_computer())
            until(lambda: (lease_holder(redis_server.url, g["id"]) or "").startswith(
                f"parlor-worker-{worker.proc.pid}:"), timeout=60, every=0.05)
            worker.proc.terminate()
            assert worker.proc.wait(60) == 0
            stored = GameStore(pg_url).load(g["id"])
            assert stored is not None and stored.row.version > 0
    finally:
        worker.stop()
    assert "stopping: 1 pieces of work may end within 60 s" in worker.text()


def test_a_worker_takes_no_more_analyses_than_its_pool_runs_at_once() -> None:
    """An analysis waiting in the pool under a lease would run out its progress limit and
    be taken by another worker too; and analyses must not take every slot from the
    computer's turns: a worker pops the analyses' list only while it has room for one."""
    queue = redisqueue.RedisQueue("redis://127.0.0.1:1/0")  # never reached here
    config = WebConfig(database_url="postgresql://-", analysis_workers=2)
    both = redisqueue.ComputerRunner(queue, Games.__new__(Games), config,
                                     jobs.WorkerSettings())
    only = redisqueue.ComputerRunner(queue, Games.__new__(Games), config,
                                     jobs.WorkerSettings(queues=(jobs.ANALYSIS_QUEUE,)))
    lists = [redisqueue.QUEUE_KEY, redisqueue.ANALYSIS_QUEUE_KEY]
    assert both._open_lists() == lists  # the computer's list first
    both._analyses = only._analyses = 1
    assert both._open_lists() == lists and only._open_lists() == lists[1:]
    both._analyses = only._analyses = 2
    assert both._open_lists() == lists[:1] and only._open_lists() == []


def test_a_hint_whose_workers_keep_dying_is_answered_as_failed(
        pg_url: str, redis_server: RedisServer) -> None:
    """A request whose every worker dies while doing it is derived and started again by
    the reconciler; its starts are counted, and past the bound its asker is told."""
    store = GameStore(pg_url)
    games = Games(store, 10)
    live, _token = games.create("random", first_to_act_computer() + 1000, 12)
    while (job := games.computer_job(live)) is not None:  # until the human acts
        games.apply_computer(live, job.version, job.legal[0], takebacks=0)
    key = "k-dying"
    assert store.claim_hint(live.id, 0, live.row.version, key, expire_after=60) == key
    work = Work.hint(live.id, 0, live.row.version, key)
    client = redis.Redis.from_url(redis_server.url)
    client.set(f"{redisqueue.PREFIX}:starts:{work.entry()}", redisqueue.MAX_STARTS)
    client.close()
    queue = redisqueue.RedisQueue(redis_server.url, lease=5)
    config = WebConfig(database_url=pg_url, worker_kind="thread")
    runner = redisqueue.ComputerRunner(queue, games, config, jobs.WorkerSettings())

    async def once_more() -> None:
        jobs.install(games, config)
        try:
            await runner._work(work.entry())
        finally:
            jobs._runtime = None
            await queue.close()

    asyncio.run(once_more())
    payload = store.answer(key)
    store.close()
    assert payload is not None
    answer = json.loads(payload)
    assert answer["status"] == 503 and answer["advice"] is None
    assert f"its workers stopped {redisqueue.MAX_STARTS} times" in answer["message"]
