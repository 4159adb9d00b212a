"""Puzzles (issue 44): each puzzle's Glicko-2 rating, each account's puzzle rating, and every
player's first attempt at each puzzle (the one that is rated: a second try, or a look at the
solution first, counts no more).

Additive: new tables only, nothing existing changes.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def _rating_columns() -> list[sa.Column[float] | sa.Column[int]]:
    return [sa.Column("rating", sa.Float, nullable=False),
            sa.Column("rd", sa.Float, nullable=False),
            sa.Column("volatility", sa.Float, nullable=False),
            sa.Column("attempts", sa.Integer, nullable=False),
            sa.Column("solved", sa.Integer, nullable=False),
            sa.Column("updated", sa.Float, nullable=False)]


def upgrade() -> None:
    op.create_table("puzzle_ratings", sa.Column("puzzle_id", sa.String(32), primary_key=True),
                    *_rating_columns())
    op.create_table("puzzle_players",
                    sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"),
                              primary_key=True),
                    *_rating_columns())
    op.create_table(
        "puzzle_attempts",
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("puzzle_id", sa.String(32), primary_key=True),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for name in ("puzzle_attempts", "puzzle_players", "puzzle_ratings"):
        op.drop_table(name)
