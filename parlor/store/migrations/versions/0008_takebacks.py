"""A game's takebacks (R30), so that a position is named by (takebacks, version): a takeback
lowers a casual game's version and new moves raise it again on another line, so a version
alone let a cache or a job of another process trust a line that was taken back. An analysis
records the line it analysed (its game's takebacks and version then). And the one hint in
flight per game is claimed in the database, so the limit holds across servers.

Existing analyses are of their game's line as it is now (a takeback before this migration
could not be told apart).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("takebacks", sa.Integer, nullable=False,
                                   server_default="0"))
    with op.batch_alter_table("analyses") as batch:
        batch.add_column(sa.Column("takebacks", sa.Integer, nullable=False,
                                   server_default="0"))
        batch.add_column(sa.Column("version", sa.Integer, nullable=False, server_default="0"))
    op.execute("UPDATE analyses SET version = (SELECT games.version FROM games "
               "WHERE games.id = analyses.game_id)")
    op.create_table(
        "hint_claims",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("takebacks", sa.Integer, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("key", sa.String(80), nullable=False),
        sa.Column("since", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("hint_claims")
    with op.batch_alter_table("analyses") as batch:
        batch.drop_column("version")
        batch.drop_column("takebacks")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("takebacks")
