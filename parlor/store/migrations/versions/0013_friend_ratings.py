"""Rated games between two accounts (issue 45): which account sits at each seat of a friend
game, and when the game was rated.

- ``host_account``: the account signed in when the invitation was made (None: nobody was).
- ``guest_account``: the account signed in when the invitation was accepted (None: nobody).
  Seats are tied to accounts then, not at the end, so holding the other seat's token later
  (adopting it) cannot turn a game into one against oneself.
- ``rated_at``: when the game's end updated both ratings (None: not rated). Set once, by a
  conditional ``UPDATE`` in the transaction storing the end: a game counts once.

Additive: new nullable columns, nothing existing changes.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

COLUMNS = (
    ("host_account", sa.String(32)),
    ("guest_account", sa.String(32)),
    ("rated_at", sa.Float),
)


def upgrade() -> None:
    for name, kind in COLUMNS:
        op.add_column("friend_seats", sa.Column(name, kind, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("friend_seats") as batch:  # SQLite drops columns by a copy
        for name, _ in reversed(COLUMNS):
            batch.drop_column(name)
