"""A step shared by the migrations that make tables an older parlor made itself.

Before migrations existed, ``create_all`` made the tables of the time (games and actions,
issue 19's tournaments, issue 11's analyses). A database from then already has them: the
migration that introduces a table then only records that it is there.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op


def create_unless_there(name: str, *columns: Any) -> None:
    """``op.create_table(name, *columns)``, unless the database already has ``name``."""
    if not sa.inspect(op.get_bind()).has_table(name):
        op.create_table(name, *columns)


__all__ = ["create_unless_there"]
