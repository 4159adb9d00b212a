"""Issue 13 with two server processes on one database (SQLite and PostgreSQL), as a
deployment behind a load balancer runs them, and no PARLOR_SECRET shared by hand: a form
rendered by one server is accepted by the other, and a "continue elsewhere" code made by one
is redeemed by the other, once."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx
import pytest

from .ui import ROOT, free_port, stop_process

pytestmark = pytest.mark.slow  # `make check` leaves it out: servers in their own processes

ENV = {"PYTHONUNBUFFERED": "1", "PARLOR_COMPUTER": "pool", "PARLOR_AI_KIND": "thread",
       "PARLOR_AI_WORKERS": "1", "PARLOR_LOG_LEVEL": "WARNING"}


class Server:
    def __init__(self, db: str) -> None:
        self.db, self.port = db, free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {k: v for k, v in os.environ.items() if k != "PARLOR_SECRET"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "parlor.web", "--port", str(self.port), "--db", db,
             "--pace", "0"], cwd=ROOT, env=dict(env, **ENV),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        end = time.monotonic() + 60
        while time.monotonic() < end:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.base + "/readyz", timeout=2).status_code == 200:
                    return
            assert self.proc.poll() is None, "the server died at start"
            time.sleep(0.2)
        raise AssertionError("the server did not become ready")

    def stop(self) -> None:
        stop_process(self.proc)


@pytest.fixture
def servers(db_url: str) -> Iterator[tuple[Server, Server]]:
    started: list[Server] = []
    try:
        started.append(Server(db_url))
        started.append(Server(db_url))
        yield started[0], started[1]
    finally:
        for s in started:
            s.stop()


def csrf_of(client: httpx.Client) -> str:
    m = re.search(r'name="csrf" value="([0-9a-f]+)"', client.get("/").text)
    assert m, "the home page's forms carry a CSRF token"
    return m.group(1)


def test_two_servers_share_forms_and_hand_over_codes(servers: tuple[Server, Server]) -> None:
    a, b = servers
    with httpx.Client(base_url=a.base, timeout=30) as on_a, \
            httpx.Client(base_url=b.base, timeout=30) as on_b:
        r = on_a.post("/api/games", json={"level": "random", "seed": 7, "max_turns": 8})
        assert r.status_code == 201, r.text
        gid, token = r.json()["id"], r.json()["token"]
        # a form from server a, sent (by the load balancer) to server b: accepted
        csrf = csrf_of(on_a)
        on_b.cookies.set("pm_csrf", on_a.cookies["pm_csrf"])
        on_b.cookies.set(f"pm_{gid}", token)
        page = on_b.post(f"/g/{gid}/handover", data={"csrf": csrf})
        assert page.status_code == 200, page.text
        link = re.search(r"/h/[A-Za-z0-9_-]+", page.text)
        assert link is not None and token not in page.text
        # ... and its code, made by server b, redeemed on server a by another browser
        with httpx.Client(base_url=a.base, timeout=30) as elsewhere:
            taken = elsewhere.get(link.group(0), follow_redirects=False)
            assert taken.status_code == 303 and taken.headers["location"] == f"/g/{gid}"
            assert elsewhere.get(f"/api/games/{gid}").status_code == 200
        for server in (b, a):  # once only, on either server
            again = httpx.get(server.base + link.group(0), follow_redirects=False, timeout=30)
            assert again.status_code == 403
        # a forged form token is still refused on both
        on_a.cookies.set(f"pm_{gid}", token)
        for client in (on_a, on_b):
            bad = client.post(f"/g/{gid}/handover", data={"csrf": "0" * 64})
            assert bad.status_code == 403
