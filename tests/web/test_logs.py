"""What a server writes to its log (issue 38): never the database password, and nothing
below ``PARLOR_LOG_LEVEL`` (an operator who asks for warnings gets no line per computer
turn). A real ``parlor serve`` process on PostgreSQL, with its own worker."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .test_computer import first_to_act_computer
from .ui import ROOT, free_port, stop_process

pytestmark = pytest.mark.slow  # `make check` leaves it out: servers in their own processes


def test_the_server_log_holds_no_password_and_honours_parlor_log_level(
        pg_url: str, tmp_path: Path) -> None:
    import httpx

    # the tests' PostgreSQL trusts local connections, so a password is accepted and unused
    url = pg_url.replace("postgres@", "postgres:hunter2-secret@")
    port = free_port()
    env = dict(os.environ, PARLOR_LOG_LEVEL="warning", PARLOR_EMBEDDED_WORKER="1",
               PARLOR_AI_WORKERS="1", PYTHONUNBUFFERED="1")
    log = tmp_path / "server.log"
    with log.open("wb") as output:
        proc = subprocess.Popen([sys.executable, "-m", "parlor.web", "--port", str(port),
                                 "--db", url, "--pace", "0"], cwd=ROOT, env=env, stdout=output,
                                stderr=subprocess.STDOUT, start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}"
        end = time.monotonic() + 60
        while True:
            try:
                httpx.get(f"{base}/healthz", timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < end and proc.poll() is None, "the server did not start"
                time.sleep(0.2)
        g = httpx.post(f"{base}/api/games", json={"level": "random", "max_turns": 4,
                                                  "seed": first_to_act_computer()}).json()
        snap = g["snapshot"]
        while snap["thinking"] and snap["status"] == "live":  # the computer's turns
            assert time.monotonic() < end + 30
            snap = httpx.get(f"{base}/api/games/{g['id']}", params={"wait": 2,
                                                                    "after": snap["version"]},
                             headers={"X-Parlor-Token": g["token"]}, timeout=10).json()
        assert snap["version"] > 0
    finally:
        stop_process(proc)
    out = log.read_text()
    assert "hunter2" not in out, out
    assert "***" in out  # the start line names the database, its password hidden
    assert not [line for line in out.splitlines() if line.startswith("INFO ")], out
