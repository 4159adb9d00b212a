"""Hand-over codes and the servers' shared secret (issue 13), so that several server
processes on one database agree: a "continue elsewhere" code made by one is redeemed by any
other exactly once, and a form signed by one is accepted by every other.

Additive: two new tables, nothing existing changes.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "handovers",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("sealed", sa.Text, nullable=False),
        sa.Column("until", sa.Float, nullable=False, index=True),
    )
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("server_keys")
    op.drop_table("handovers")
