"""Tournaments (issue 19): each one's spec and steps, and which saved games are its contests.

A database where an earlier version made these tables itself (``create_all``) already has
them: then this step only records that they are there.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from parlor.store.migrations.unless import create_unless_there

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    create_unless_there(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("spec", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
    )
    create_unless_there(
        "tournament_steps",
        sa.Column("tournament_id", sa.String(32), primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("step", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    create_unless_there(
        "tournament_games",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("tournament_id", sa.String(32), nullable=False, index=True),
    )


def downgrade() -> None:
    op.drop_table("tournament_games")
    op.drop_table("tournament_steps")
    op.drop_table("tournaments")
