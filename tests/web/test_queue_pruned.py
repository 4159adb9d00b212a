"""A live worker whose registration was pruned (procrastinate deletes a worker's row when its
heartbeat comes late, as on a loaded machine; issue 38) registers again, so the games' jobs
run on: it never goes on alive doing nothing. Both a server's own worker and ``parlor
worker`` as an operator starts it, on a real PostgreSQL."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from parlor.store import libpq_url
from parlor.web.app import create_app

from .helpers import config_for, until, wait_for_human
from .helpers import new_game as new_web_game
from .test_computer import first_to_act_computer
from .ui import stop_process

pytestmark = pytest.mark.slow  # `make check` leaves it out: PostgreSQL


def worker_rows(pg_url: str) -> list[int]:
    with psycopg.connect(libpq_url(pg_url)) as conn:
        return [int(r[0]) for r in conn.execute("SELECT id FROM procrastinate_workers")]


def prune_all(pg_url: str) -> list[int]:
    """What procrastinate's prune does to a worker it thinks stalled: its row goes."""
    with psycopg.connect(libpq_url(pg_url), autocommit=True) as conn:
        return [int(r[0]) for r in conn.execute("DELETE FROM procrastinate_workers "
                                                "RETURNING id")]


@contextmanager
def a_worker(pg_url: str, where: str, log: Path) -> Iterator[TestClient]:
    """A server, and its worker: its own (``embedded``) or a ``parlor worker`` process."""
    if where == "embedded":
        with TestClient(create_app(config_for(pg_url))) as c:
            yield c
        return
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "parlor.cli", "worker", "--db", pg_url],
            env={**os.environ, "PARLOR_PACE": "0", "PYTHONUNBUFFERED": "1"},
            stdout=out, stderr=subprocess.STDOUT)
    try:
        with TestClient(create_app(config_for(pg_url, embedded_worker=False))) as c:
            yield c
        assert proc.poll() is None, "the worker exited"
    finally:
        stop_process(proc)


@pytest.mark.parametrize("where", ["embedded", "process"])
def test_a_live_worker_whose_row_was_pruned_registers_again_and_plays_on(
        pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture, where: str) -> None:
    monkeypatch.setenv("PARLOR_WORKER_HEARTBEAT", "0.3")
    log = tmp_path / "worker.log"
    with a_worker(pg_url, where, log) as c:
        g = new_web_game(c, seed=first_to_act_computer())
        gid, token = g["id"], g["token"]
        snap: dict[str, Any] = wait_for_human(c, gid, token, timeout=60)
        until(lambda: bool(worker_rows(pg_url)), timeout=30)
        pruned = prune_all(pg_url)
        assert pruned
        # registered again under a new row
        until(lambda: any(w > max(pruned) for w in worker_rows(pg_url)), timeout=30)
        while not snap["thinking"] and snap["status"] == "live":
            r = c.post(f"/api/games/{gid}/actions",
                       json={"action": snap["view"]["legal"][0], "version": snap["version"]},
                       headers={"X-Parlor-Token": token})
            assert r.status_code == 200, r.text
            snap = r.json()
        if snap["status"] == "live":  # the computer's job runs under the new registration
            after = wait_for_human(c, gid, token, timeout=60)
            assert after["version"] > snap["version"]
    said = log.read_text() if where == "process" else caplog.text
    assert f"procrastinate's worker {max(pruned)} was pruned while alive" in said
    assert "registering again" in said
