"""Helpers for the web tests: app settings, creating games, waiting for the computer."""

from __future__ import annotations

import random
import re
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from parlor.web.config import WebConfig


def config_for(where: Path | str, **kw: Any) -> WebConfig:
    """Settings for a test app on a SQLite file (a path) or a database URL; on PostgreSQL
    the computer's jobs go to the queue, and the app runs a worker itself. Hints at the
    test's own pace: the per-player limit is tested where it is the subject."""
    url = where if isinstance(where, str) else f"sqlite:///{where}"
    base: dict[str, Any] = {"database_url": url, "pace": 0.0, "workers": 2,
                            "worker_kind": "thread",
                            "embedded_worker": url.startswith("postgresql"),
                            "hint_rate": 6000.0, "hint_burst": 100}
    base.update(kw)
    return WebConfig(**base)


def new_game(c: TestClient, **kw: Any) -> dict[str, Any]:
    body = {"level": "random", "seed": 7, "max_turns": 12}
    body.update(kw)
    r = c.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def form_post(c: TestClient, path: str, fields: dict[str, str], **kw: Any) -> Any:
    """Post a form as the page would: with the CSRF token the home page gives this browser."""
    page = c.get("/")
    m = re.search(r'name="csrf" value="([0-9a-f]+)"', page.text)
    assert m, "the home page's forms carry a CSRF token"
    body = urllib.parse.urlencode({**fields, "csrf": m.group(1)})
    headers = {"content-type": "application/x-www-form-urlencoded", **kw.pop("headers", {})}
    return c.post(path, content=body.encode(), headers=headers, **kw)


def wait_for_human(c: TestClient, gid: str, token: str, timeout: float = 20.0) -> dict[str, Any]:
    """The snapshot once it is the human's decision or the game is over."""
    end = time.monotonic() + timeout
    after = -1
    while True:
        r = c.get(f"/api/games/{gid}", params={"after": after, "wait": 2},
                  headers={"X-Parlor-Token": token})
        assert r.status_code == 200, r.text
        snap: dict[str, Any] = r.json()
        if snap["your_turn"] or snap["status"] == "over":
            return snap
        after = snap["version"]
        assert time.monotonic() < end, "the computer did not answer"


def play_out(c: TestClient, gid: str, token: str, seed: int = 1,
             max_moves: int = 2000) -> dict[str, Any]:
    """Play random legal actions for the human until the game ends."""
    rng = random.Random(seed)
    snap = wait_for_human(c, gid, token)
    for _ in range(max_moves):
        if snap["status"] == "over":
            return snap
        action = rng.choice(snap["view"]["legal"])
        r = c.post(f"/api/games/{gid}/actions", json={"action": action,
                                                      "version": snap["version"]},
                   headers={"X-Parlor-Token": token})
        assert r.status_code == 200, r.text
        snap = wait_for_human(c, gid, token)
    raise AssertionError("the game did not end")


def until(ok: Callable[[], bool], timeout: float = 30.0, every: float = 0.2) -> None:
    """Wait until ``ok()`` holds, asking every ``every`` seconds; fail after ``timeout``."""
    end = time.monotonic() + timeout
    while not ok():
        assert time.monotonic() < end, "not within the time"
        time.sleep(every)
