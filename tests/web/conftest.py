"""Fixtures for the web tests: an app on a temporary SQLite file, and a client for it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from parlor.web.app import create_app

from .helpers import config_for


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(config_for(db_path))) as c:
        yield c
