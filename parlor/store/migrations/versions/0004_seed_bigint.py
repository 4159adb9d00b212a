"""A game's seed as a 64-bit integer: tournaments deal contests with seeds above 2**31.
SQLite's INTEGER holds 64 bits already; PostgreSQL's column is widened.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.alter_column("games", "seed", type_=sa.BigInteger, existing_nullable=False)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.alter_column("games", "seed", type_=sa.Integer, existing_nullable=False)
