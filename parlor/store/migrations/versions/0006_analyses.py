"""Post-game analyses (issue 11): one row per analysed game, its progress and its result.

A database where an earlier version made this table itself (``create_all``, before
migrations) already has it: then this step only records that it is there.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from parlor.store.migrations.unless import create_unless_there

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    create_unless_there(
        "analyses",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seed", sa.Integer, nullable=False),
        sa.Column("iterations", sa.Integer, nullable=False),
        sa.Column("player", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("result", sa.Text, nullable=False),
        sa.Column("error", sa.Text, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("analyses")
