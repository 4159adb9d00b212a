"""Secrets every server process on one database shares (issue 13): drawn once, by whichever
process needs one first, and kept in the database (migration 0007).

The web app signs its forms' CSRF tokens with the key ``"csrf"``: with it in the database,
any number of ``parlor serve`` processes (behind one load balancer, restarted at any time)
accept each other's forms without a secret shared by hand. ``PARLOR_SECRET``, when set, is
used instead (docs/deploy.md)::

    >>> from parlor.store import GameStore
    >>> store = GameStore("sqlite://")
    >>> first = shared_secret(store, "csrf")
    >>> len(first), shared_secret(store, "csrf") == first != shared_secret(store, "other")
    (64, True)
"""

from __future__ import annotations

import secrets
import time

from sqlalchemy import Column, Float, MetaData, String, Table, insert, select
from sqlalchemy.exc import IntegrityError

from parlor.store.db import GameStore

metadata = MetaData()

#: Made by migration 0007.
server_keys = Table(
    "server_keys",
    metadata,
    Column("name", String(32), primary_key=True),
    Column("value", String(128), nullable=False),
    Column("created", Float, nullable=False),
)


def shared_secret(store: GameStore, name: str) -> str:
    """The secret ``name`` (64 hex digits) of this database: the stored one, or a new one
    stored now. Of processes that start at once, the first insert wins and every process
    reads that one."""
    query = select(server_keys.c.value).where(server_keys.c.name == name)
    with store.engine.connect() as conn:
        found = conn.execute(query).scalar_one_or_none()
    if found is not None:
        return str(found)
    try:
        with store.engine.begin() as conn:
            conn.execute(insert(server_keys).values(name=name, value=secrets.token_hex(32),
                                                    created=time.time()))
    except IntegrityError:  # another process stored it first: that one is the secret
        pass
    with store.engine.connect() as conn:
        return str(conn.execute(query).scalar_one())


__all__ = ["shared_secret"]
