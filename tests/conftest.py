"""Fixtures for every test folder: a real PostgreSQL (one per test session), and the
database URLs the web and store tests run on, SQLite and PostgreSQL alike."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .pgserver import PostgresServer

#: Docstring examples of parlor/ that take more than about 2 s: `slow`, like the tests
#: marked in their modules (a doctest cannot carry a marker itself).
SLOW_DOCTESTS = {"parlor/training/selfplay.py::parlor.training.selfplay"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid in SLOW_DOCTESTS:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session", autouse=True)
def quick_worker_polls() -> Iterator[None]:
    """Queue workers (embedded in a test's app or server, or ``parlor worker``) look for jobs
    every quarter second instead of every 5: a computer job queued while the game's previous
    one still holds its lock (a test answers at once) waited for the next look, 5 s, and
    that was most of the time of the PostgreSQL variants (docs/deploy.md, PARLOR_WORKER_POLL)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PARLOR_WORKER_POLL", "0.25")
        yield


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    server = PostgresServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_url(postgres: PostgresServer) -> Iterator[str]:
    """A fresh PostgreSQL database at the newest schema, dropped after the test."""
    name = postgres.new_database()
    try:
        yield postgres.url(name)
    finally:
        postgres.drop_database(name)


# the PostgreSQL variant is `slow` (a database created and migrated for each test, 2-12 s):
# `make check` runs the SQLite one, `make test` both
@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The games database of a test, once on SQLite and once on PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    url: str = request.getfixturevalue("pg_url")
    return url
