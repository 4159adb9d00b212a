"""Each player's own record of a friend game (issue 45):

- ``analyses`` is keyed by (game, player): each seat of a friend game has the analysis of
  its own decisions (a game against the computer still has one, of its human's).
- ``rating_history`` is keyed by (game, account): a rated friend game is a point in both
  players' histories, and ``opponent_account`` names the account played (None: a computer
  level, named by ``level``). It is no foreign key: an opponent who deletes their account
  leaves the game in the other's history, shown as a deleted account.

Existing rows keep their values: every existing analysis is its game's one (of the player
it names), every existing point the one account's.

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import warnings

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

#: Each table's primary key before and after.
KEYS = {"analyses": (["game_id"], ["game_id", "player"]),
        "rating_history": (["game_id"], ["game_id", "account_id"])}


def _rekey(table: str, columns: list[str]) -> None:
    """Make ``columns`` the table's primary key."""
    if op.get_bind().dialect.name == "sqlite":
        # SQLite changes a key only by copying the table (batch mode); the copy reflects the
        # old key on its columns and warns that the new constraint replaces it: it does
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", sa.exc.SAWarning)
            with op.batch_alter_table(table, recreate="always") as batch:
                batch.create_primary_key(f"{table}_pkey", columns)
        return
    # PostgreSQL names an unnamed table's key <table>_pkey (the name 0006 and 0009 got)
    op.drop_constraint(f"{table}_pkey", table, type_="primary")
    op.create_primary_key(f"{table}_pkey", table, columns)


def upgrade() -> None:
    op.add_column("rating_history", sa.Column("opponent_account", sa.String(32), nullable=True))
    for table, (_, after) in KEYS.items():
        _rekey(table, after)


def downgrade() -> None:
    # the older key holds one row per game: the friend games' second rows go (a second
    # seat's analysis, the points of friend games, whose second player's point has no room)
    op.execute("DELETE FROM analyses WHERE player <> (SELECT games.human FROM games "
               "WHERE games.id = analyses.game_id)")
    op.execute("DELETE FROM rating_history WHERE opponent_account IS NOT NULL")
    for table, (before, _) in KEYS.items():
        _rekey(table, before)
    with op.batch_alter_table("rating_history") as batch:
        batch.drop_column("opponent_account")
