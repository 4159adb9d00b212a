"""Player accounts (issue 43): accounts, their credentials (a password's Argon2id hash,
passkeys), server-side sessions, the games each account holds, Glicko-2 ratings per mode and
their history, passkey ceremonies in progress, and failed sign-ins counted per account name
and per address (so that every server of a deployment applies one lockout).

Additive: new tables only, nothing existing changes; an older database gets them in place.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("username", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(32), nullable=False, unique=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("prefs", sa.Text, nullable=False, server_default="{}"),
    )
    op.create_table(
        "credentials",
        sa.Column("id", sa.String(200), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False,
                  index=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("secret", sa.Text, nullable=False),
        sa.Column("sign_count", sa.BigInteger, nullable=False, server_default="0"),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False,
                  index=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
    )
    op.create_table(
        "account_games",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False,
                  index=True),
        sa.Column("sealed", sa.Text, nullable=False),
        sa.Column("rated", sa.Integer, nullable=False, server_default="0"),
        sa.Column("added", sa.Float, nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"),
                  primary_key=True),
        sa.Column("mode", sa.String(16), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        "rating_history",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False,
                  index=True),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("n", sa.Integer, nullable=False),
        sa.Column("level", sa.String(32), nullable=False),
        sa.Column("opponent", sa.Float, nullable=False),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.UniqueConstraint("account_id", "mode", "n"),
    )
    op.create_table(
        "passkey_challenges",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("account_id", sa.String(32), nullable=False),
        sa.Column("username", sa.String(32), nullable=False),
        sa.Column("challenge", sa.String(200), nullable=False),
        sa.Column("until", sa.Float, nullable=False, index=True),
    )
    op.create_table(
        "login_failures",
        sa.Column("key", sa.String(120), primary_key=True),
        sa.Column("count", sa.Integer, nullable=False),
        sa.Column("since", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for name in ("login_failures", "passkey_challenges", "rating_history", "ratings",
                 "account_games", "sessions", "credentials", "accounts"):
        op.drop_table(name)
