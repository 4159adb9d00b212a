"""One-time "continue elsewhere" codes (issue 13), kept in the games database so that any
server process redeems a code another one made, and only once.

The database keeps neither the code nor the player's token: a row is found by the code's
SHA-256 and holds the token sealed with a keystream keyed by the code, so reading the table
opens no game. A code is consumed by one ``DELETE ... RETURNING``: of two servers redeeming
the same code at once, exactly one gets the token (SQLite and PostgreSQL alike)::

    >>> from parlor.store import GameStore
    >>> codes = Handovers(GameStore("sqlite://"))
    >>> code = codes.make("g1", "the-token", seconds=600, now=0.0)
    >>> codes.take(code, now=1.0), codes.take(code, now=2.0)
    (('g1', 'the-token'), None)
    >>> codes.take(codes.make("g1", "t", seconds=600, now=0.0), now=601.0) is None
    True
"""

from __future__ import annotations

import hashlib
import secrets
import time

from sqlalchemy import Column, Float, MetaData, String, Table, Text, delete, insert

from parlor.store.db import GameStore

metadata = MetaData()

#: Made by migration 0007.
handovers = Table(
    "handovers",
    metadata,
    Column("code_hash", String(64), primary_key=True),
    Column("game_id", String(32), nullable=False),
    Column("sealed", Text, nullable=False),  # hex: the token XOR a keystream keyed by the code
    Column("until", Float, nullable=False, index=True),  # wall clock: shared by processes
)


def code_hash(code: str) -> str:
    return hashlib.sha256(b"handover/" + code.encode()).hexdigest()


def _keystream(code: str, n: int) -> bytes:
    out = b""
    counter = 0
    while len(out) < n:
        out += hashlib.blake2b(f"seal/{counter}".encode(), key=code.encode()[:64]).digest()
        counter += 1
    return out[:n]


def _seal(code: str, token: str) -> str:
    data = token.encode()
    return bytes(a ^ b for a, b in zip(data, _keystream(code, len(data)), strict=True)).hex()


def _unseal(code: str, sealed: str) -> str:
    data = bytes.fromhex(sealed)
    return bytes(a ^ b for a, b in zip(data, _keystream(code, len(data)), strict=True)).decode()


class Handovers:
    """The hand-over codes of every server on one database."""

    def __init__(self, store: GameStore) -> None:
        self.engine = store.engine  # migrated by the GameStore: the table is there

    def make(self, game_id: str, token: str, *, seconds: float, now: float | None = None) -> str:
        """A new code that opens ``game_id`` with ``token`` once, within ``seconds``; the
        codes that have run out are dropped on the way."""
        at = time.time() if now is None else now
        code = secrets.token_urlsafe(18)
        with self.engine.begin() as conn:
            conn.execute(delete(handovers).where(handovers.c.until < at))
            conn.execute(insert(handovers).values(code_hash=code_hash(code), game_id=game_id,
                                                  sealed=_seal(code, token),
                                                  until=at + seconds))
        return code

    def take(self, code: str, now: float | None = None) -> tuple[str, str] | None:
        """The game id and token of ``code``, which is used up by this call; None if it was
        used already, has run out or never was."""
        at = time.time() if now is None else now
        with self.engine.begin() as conn:
            found = conn.execute(delete(handovers)
                                 .where(handovers.c.code_hash == code_hash(code))
                                 .returning(handovers.c.game_id, handovers.c.sealed,
                                            handovers.c.until)).first()
        if found is None or found.until < at:
            return None
        return str(found.game_id), _unseal(code, str(found.sealed))


__all__ = ["Handovers", "code_hash"]
