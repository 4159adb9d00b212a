"""The computer's work queue: answers of jobs (hints) for the server that asked, and on
PostgreSQL procrastinate's own schema (its jobs, locks and workers).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "answers",
        sa.Column("key", sa.String(80), primary_key=True),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    bind = op.get_bind()
    if bind.dialect.name == "postgresql":
        from procrastinate.schema import SchemaManager

        # the whole schema of the installed procrastinate; later versions of procrastinate
        # ship their own migration files (docs/deploy.md says how to apply them)
        # psycopg reads no placeholders in a statement sent without parameters (the
        # schema has literal '%' signs); the same connection, so the same transaction
        raw = bind.connection.driver_connection
        assert raw is not None
        raw.execute(SchemaManager.get_schema())


def downgrade() -> None:
    op.drop_table("answers")
