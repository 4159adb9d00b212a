"""A ``parlor worker`` rides out a PostgreSQL restart (issue 38): it never exits, and once
the database is back it plays the computer's moves again. Real processes: a PostgreSQL of
this test's own (restarted here, so no other test shares it) and the ``parlor worker``
command as an operator starts it."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from parlor.web.app import create_app

from ..pgserver import PostgresServer
from .helpers import config_for, wait_for_human
from .helpers import new_game as new_web_game
from .test_computer import first_to_act_computer


@pytest.fixture(scope="module")
def own_postgres() -> Iterator[PostgresServer]:
    server = PostgresServer().start()
    try:
        yield server
    finally:
        server.stop()


def test_a_worker_rides_out_a_postgresql_restart(own_postgres: PostgresServer) -> None:
    url = own_postgres.url(own_postgres.new_database())
    env = {**os.environ, "PARLOR_WORKER_HEARTBEAT": "0.5", "PARLOR_WORKER_STALLED": "3",
           "PARLOR_PACE": "0"}
    worker = subprocess.Popen([sys.executable, "-m", "parlor.cli", "worker", "--db", url],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True)
    try:
        time.sleep(3)  # connected and fetching
        assert worker.poll() is None, worker.stdout.read() if worker.stdout else ""
        own_postgres.halt()
        time.sleep(6)  # the outage: fetches, heartbeats and the stalled-job watch all fail
        assert worker.poll() is None, "the worker exited while the database was away"
        own_postgres.resume()
        with TestClient(create_app(config_for(url, embedded_worker=False))) as c:
            g = new_web_game(c, seed=first_to_act_computer())
            snap = wait_for_human(c, g["id"], g["token"], timeout=60)  # the worker played
        assert snap["version"] > 0 and snap["status"] == "live"
        assert worker.poll() is None
    finally:
        worker.terminate()
        try:
            worker.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.communicate()
