"""Games between two people (issue 45), continued: a friend game's clock, the offer one
player makes the other (a draw, a takeback), its rematch, and when each seat last read the
game.

- ``clock_base``, ``clock_increment``: the time control chosen at the invitation (seconds;
  both None: no clock). The clocks themselves are not stored: they follow from the record's
  times (``actions.at``, written by the server) and the acceptance's (``accepted``), so a
  clock can never disagree with the game it times (see :mod:`parlor.web.friendclock`).
- ``offer``, ``offer_by``, ``offer_version``, ``offer_takebacks``: the open offer ("draw" or
  "takeback"), the seat that made it and the position it was made at (an offer lapses when
  the game moves on).
- ``rematch_id``: the game a rematch request made (seats swapped).
- ``seen0``, ``seen1``: when each seat's table last read the game (wall clock), for
  "disconnected" and a claim of the game.

Additive: new nullable columns, nothing existing changes.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

COLUMNS = (
    ("clock_base", sa.Float),
    ("clock_increment", sa.Float),
    ("offer", sa.String(24)),
    ("offer_by", sa.Integer),
    ("offer_version", sa.Integer),
    ("offer_takebacks", sa.Integer),
    ("rematch_id", sa.String(32)),
    ("seen0", sa.Float),
    ("seen1", sa.Float),
)


def upgrade() -> None:
    for name, kind in COLUMNS:
        op.add_column("friend_seats", sa.Column(name, kind, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("friend_seats") as batch:  # SQLite drops columns by a copy
        for name, _ in reversed(COLUMNS):
            batch.drop_column(name)
