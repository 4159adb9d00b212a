"""Games between two people (issue 45): the second seat of a friend game, its invitation
(the code's hash and until when it can be accepted) and, once accepted, the hash of the
second player's token. A friend game itself is an ordinary row of ``games`` (kind
"friend"), its first player's token hash there.

Additive: one new table, nothing existing changes.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "friend_seats",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("invite_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("until", sa.Float, nullable=False),
        sa.Column("guest_hash", sa.String(64), nullable=True),
        sa.Column("accepted", sa.Float, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("friend_seats")
