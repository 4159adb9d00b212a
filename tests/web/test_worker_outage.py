"""A ``parlor worker`` rides out a PostgreSQL restart (issue 38): it never exits, its health
port says it is alive throughout and not ready while the database is away, and once the
database is back it plays the computer's moves again. Real processes: a PostgreSQL of
this test's own (restarted here, so no other test shares it) and the ``parlor worker``
command as an operator starts it."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from parlor.web.app import create_app

from ..pgserver import PostgresServer
from .helpers import config_for, until, wait_for_human
from .helpers import new_game as new_web_game
from .test_computer import first_to_act_computer
from .ui import free_port, stop_process

pytestmark = pytest.mark.slow  # `make check` leaves it out: servers in their own processes


def status(url: str) -> int:
    try:
        return httpx.get(url, timeout=5).status_code
    except httpx.TransportError:
        return 0


@pytest.fixture(scope="module")
def own_postgres() -> Iterator[PostgresServer]:
    server = PostgresServer().start()
    try:
        yield server
    finally:
        server.stop()


def test_a_worker_rides_out_a_postgresql_restart(own_postgres: PostgresServer,
                                                tmp_path: Path) -> None:
    url = own_postgres.url(own_postgres.new_database())
    env = {**os.environ, "PARLOR_WORKER_HEARTBEAT": "0.5", "PARLOR_WORKER_STALLED": "3",
           "PARLOR_PACE": "0"}
    port = free_port()
    log = tmp_path / "worker.log"  # a file: a pipe nobody reads would fill and block it
    with log.open("wb") as output:
        worker = subprocess.Popen([sys.executable, "-m", "parlor.cli", "worker", "--db", url,
                                   "--health-port", str(port)],
                                  env=env, stdout=output, stderr=subprocess.STDOUT,
                                  start_new_session=True)
    health = f"http://127.0.0.1:{port}"
    try:
        until(lambda: status(f"{health}/readyz") == 200)  # connected and fetching
        assert status(f"{health}/healthz") == 200
        assert "parlor_worker_computer_jobs" in httpx.get(f"{health}/metrics").text
        own_postgres.halt()
        until(lambda: status(f"{health}/readyz") == 503)  # not ready while it is away
        time.sleep(4)  # the outage: fetches, heartbeats and the stalled-job watch all fail
        assert worker.poll() is None, \
            f"the worker exited while the database was away: {log.read_text()[-3000:]}"
        assert status(f"{health}/healthz") == 200  # alive all along
        own_postgres.resume()
        until(lambda: status(f"{health}/readyz") == 200)
        with TestClient(create_app(config_for(url, embedded_worker=False))) as c:
            g = new_web_game(c, seed=first_to_act_computer())
            snap = wait_for_human(c, g["id"], g["token"], timeout=60)  # the worker played
        assert snap["version"] > 0 and snap["status"] == "live"
        assert worker.poll() is None
    finally:
        stop_process(worker)
