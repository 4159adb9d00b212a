"""Alembic's environment: migrations run on the connection :mod:`parlor.store.migrate` hands
over (never from an ini file), in one transaction."""

from __future__ import annotations

from typing import Any

from alembic import context
from sqlalchemy import text

from parlor.store.db import metadata

#: Any fixed number: every process that migrates a PostgreSQL database takes this lock first,
#: so N servers and M workers started at once migrate it exactly once.
MIGRATION_LOCK = 7_140_001


def run(connection: Any) -> None:
    context.configure(connection=connection, target_metadata=metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            connection.execute(text(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})"))
        context.run_migrations()


if hasattr(context, "config"):  # run by Alembic (the layering test merely imports it)
    run(context.config.attributes["connection"])
