"""Fixtures for the web tests: an app on a fresh database (each test runs on SQLite and on
PostgreSQL: ``db_url`` in tests/conftest.py), and a client for it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from parlor.web.app import create_app

from .helpers import config_for


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(config_for(db_url))) as c:
        yield c


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A SQLite file, for the tests about the file itself (deleted, corrupted)."""
    return tmp_path / "games.db"
