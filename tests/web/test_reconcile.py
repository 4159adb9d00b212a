"""The reconciler (issue 38): the computer's work is derived from the stored games. A game
whose computer is to act with no claim is queued, on Redis or on procrastinate's queue (a
job lost there too: the game moves on); a game is replayed only when its position changed
since the last round; a game waiting on the human is never queued; on Redis one worker at a
time runs the rounds."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
import redis
from fastapi.testclient import TestClient

from parlor.store import GameStore, libpq_url
from parlor.web import queued, redisqueue
from parlor.web.app import create_app
from parlor.web.games import Games, LiveGame
from parlor.web.reconcile import Reconciler

from ..redisserver import RedisServer
from .helpers import config_for, until, wait_for_human
from .helpers import new_game as new_web_game
from .test_computer import first_to_act_computer
from .ui import stop_process


class CountingGames(Games):
    """Games that count their replays and refreshes (the reconciler's cost)."""

    def __init__(self, store: GameStore) -> None:
        super().__init__(store, 100)
        self.gets = 0

    def get(self, game_id: str) -> LiveGame:
        self.gets += 1
        return super().get(game_id)


def test_a_round_queues_only_games_waiting_on_the_computer_and_replays_only_changed_ones(
        pg_url: str, redis_server: RedisServer) -> None:
    store = GameStore(pg_url)
    games = CountingGames(store)
    computer_first = first_to_act_computer()
    waiting, _ = games.create("random", computer_first, 12)
    human_first, _ = games.create("random", computer_first + 1000, 12)
    while (job := games.computer_job(human_first)) is not None:  # until the human acts
        games.apply_computer(human_first, job.version, job.legal[0], takebacks=0)
    queue = redisqueue.RedisQueue(redis_server.url, lease=5)
    reconciler = Reconciler(games, queue)
    other_games = CountingGames(store)
    other = Reconciler(other_games, queue)  # another worker's

    async def rounds() -> list[int]:
        try:
            return [await reconciler.once(), await reconciler.once(), await other.once()]
        finally:
            await queue.close()

    before = games.gets
    # queued once: then it is queued already; the other worker's round is not its to run
    assert asyncio.run(rounds()) == [1, 0, 0]
    assert games.gets - before == 2  # each game read once: the second round replays none
    assert other_games.gets == 0
    client = redis.Redis.from_url(redis_server.url)
    assert client.lrange(redisqueue.QUEUE_KEY, 0, -1) == [waiting.id.encode()]
    client.close()
    store.close()


def test_a_lost_procrastinate_job_is_queued_again_by_the_reconciler(
        pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without Redis: the server's job for the computer's turn is deleted before any worker
    runs (lost); a ``parlor worker`` started then finds the game waiting with no job."""
    monkeypatch.setattr(queued, "REASK_AFTER", 3600.0)  # the server does not ask again
    with TestClient(create_app(config_for(pg_url, embedded_worker=False))) as c:
        g = new_web_game(c, seed=first_to_act_computer())
        with psycopg.connect(libpq_url(pg_url), autocommit=True) as conn:
            def deleted() -> bool:
                cur = conn.execute("DELETE FROM procrastinate_jobs "
                                   "WHERE task_name = 'parlor.computer_turn'")
                return cur.rowcount > 0
            until(deleted, timeout=30, every=0.05)
        log = tmp_path / "worker.log"
        with log.open("ab") as out:
            worker = subprocess.Popen(
                [sys.executable, "-m", "parlor.cli", "worker", "--db", pg_url],
                env={**os.environ, "PARLOR_PACE": "0", "PARLOR_WORKER_RECONCILE": "0.5",
                     "PYTHONUNBUFFERED": "1"}, stdout=out, stderr=subprocess.STDOUT)
        try:
            snap = wait_for_human(c, g["id"], g["token"], timeout=60)
        finally:
            stop_process(worker)
    assert snap["version"] > 0
    assert "reconciler: 1 of 1 games waiting on the computer had no claim" in log.read_text()
