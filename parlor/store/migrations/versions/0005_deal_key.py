"""The deal key of a game (issue 13: "key-" + hex, or "" for a practice seed).

A database where an earlier version added the column itself already has it.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    names = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("games")}
    if "deal" not in names:
        with op.batch_alter_table("games") as batch:
            batch.add_column(sa.Column("deal", sa.String(140), nullable=False,
                                       server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("deal")
