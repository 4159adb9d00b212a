"""Fixtures for the web tests: an app on a fresh database (each test runs on SQLite and on
PostgreSQL: ``db_url`` in tests/conftest.py), and a client for it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from parlor.web.app import create_app

from ..redisserver import RedisServer
from .helpers import config_for
from .ui import CHROMIUM, CHROMIUM_ARGS


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(config_for(db_url))) as c:
        yield c


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A SQLite file, for the tests about the file itself (deleted, corrupted)."""
    return tmp_path / "games.db"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium through Playwright, one per browser test module (``make test``
    installs it; never a browser of Playwright's own)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    """A real Redis of the test's own (Debian's redis-server on a free port)."""
    server = RedisServer().start()
    try:
        yield server
    finally:
        server.stop()
