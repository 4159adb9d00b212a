"""Bring a games database to the newest schema (Alembic), SQLite or PostgreSQL.

    >>> from sqlalchemy import create_engine
    >>> engine = create_engine("sqlite://")
    >>> upgrade(engine)
    >>> current(engine) == HEAD
    True
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy.engine import Engine

HERE = Path(__file__).resolve().parent / "migrations"
#: The newest revision; a database at it has every table this version of parlor uses.
HEAD = "0012"


def _config(connection: object) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    cfg.attributes["connection"] = connection
    return cfg


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Apply every migration the database lacks (a new database gets them all; a
    ``parlor.db`` from before migrations is recognised and upgraded in place)."""
    with engine.connect() as conn:
        command.upgrade(_config(conn), revision)
        conn.commit()


def current(engine: Engine) -> str | None:
    """The database's revision (None: never migrated)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


__all__ = ["HEAD", "current", "upgrade"]
