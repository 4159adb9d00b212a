"""Bring a games database to the newest schema (Alembic), SQLite or PostgreSQL.

    >>> from sqlalchemy import create_engine
    >>> engine = create_engine("sqlite://")
    >>> upgrade(engine)
    >>> current(engine) == HEAD
    True
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy.engine import Connection, Engine

if TYPE_CHECKING:
    from alembic.config import Config

HERE = Path(__file__).resolve().parent / "migrations"
#: The newest revision; a database at it has every table this version of parlor uses.
HEAD = "0014"

# Alembic is imported where it is used, under _quiet: importing it sets up its autogenerate
# plugins with an INFO line each, before the server's address on every start.


def _config(connection: object) -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    cfg.attributes["connection"] = connection
    return cfg


@contextmanager
def _quiet(name: str = "alembic") -> Iterator[None]:
    """Alembic's INFO lines left out: a person starting the app reads where to open it, not
    which database dialect and plugins Alembic set up (issue 41)."""
    log = logging.getLogger(name)
    before = log.level
    log.setLevel(logging.WARNING)
    try:
        yield
    finally:
        log.setLevel(before)


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Apply every migration the database lacks (a new database gets them all; a
    ``parlor.db`` from before migrations is recognised and upgraded in place). A database
    already at ``revision`` is left alone without a word; a real migration logs its steps."""
    with _quiet():
        from alembic.script import ScriptDirectory

        cfg = _config(None)
        script = ScriptDirectory.from_config(cfg)
        target = script.get_current_head() if revision == "head" else revision
    with engine.connect() as conn:
        if _revision(conn) == target:
            return
        cfg.attributes["connection"] = conn
        from alembic import command

        command.upgrade(cfg, revision)
        conn.commit()


def _revision(conn: Connection) -> str | None:
    with _quiet():
        from alembic.runtime.migration import MigrationContext

        got: str | None = MigrationContext.configure(conn).get_current_revision()
        return got


def current(engine: Engine) -> str | None:
    """The database's revision (None: never migrated)."""
    with engine.connect() as conn:
        return _revision(conn)


__all__ = ["HEAD", "current", "upgrade"]
