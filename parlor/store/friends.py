"""Invitations to a game between two people (issue 45), kept in the games database so that
any server process accepts an invitation another one made, and only once.

A row is a friend game's second seat: the hash of the invitation code that opens it, until
when, and once someone accepted it the hash of that person's secret token (the first seat's
token hash is the game's own, in ``games``). Neither the code nor a token is kept. An
invitation is accepted by one conditional ``UPDATE``: of two people opening the same link at
once, exactly one takes the seat (SQLite and PostgreSQL alike)::

    >>> from parlor.store import GameStore
    >>> seats = FriendSeats(GameStore("sqlite://"))
    >>> seats.invite("g1", "code-hash", until=100.0)
    >>> seats.accept("code-hash", "guest-hash", now=1.0), seats.accept("code-hash", "x", now=2.0)
    (True, False)
    >>> seats.find("code-hash").guest_hash
    'guest-hash'
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Column, Float, MetaData, String, Table, insert, select, update

from parlor.store.db import GameStore

metadata = MetaData()

#: Made by migration 0010.
friend_seats = Table(
    "friend_seats",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("invite_hash", String(64), nullable=False, unique=True),
    Column("until", Float, nullable=False),  # wall clock: shared by processes
    Column("guest_hash", String(64), nullable=True),  # None until the invitation is accepted
    Column("accepted", Float, nullable=True),
)


@dataclass(frozen=True, slots=True)
class FriendSeat:
    game_id: str
    invite_hash: str
    until: float
    guest_hash: str | None
    accepted: float | None


class FriendSeats:
    """The friend games' second seats of every server on one database."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.engine = store.engine  # migrated by the GameStore: the table is there

    def invite(self, game_id: str, invite_hash: str, *, until: float) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(friend_seats).values(game_id=game_id, invite_hash=invite_hash,
                                                     until=until))

    def accept(self, invite_hash: str, guest_hash: str, *, now: float) -> bool:
        """Give the second seat to ``guest_hash`` if the invitation is open (not taken, not
        run out); False otherwise (then nothing changed). An acceptance is announced as a
        change of its game, as a move is (``NOTIFY``, or Redis after the commit), so the
        inviter's table waiting on any server of a deployment hears it at once."""
        with self.store._writing(), self.engine.begin() as conn:
            taken = conn.execute(update(friend_seats)
                                 .where(friend_seats.c.invite_hash == invite_hash,
                                        friend_seats.c.guest_hash.is_(None),
                                        friend_seats.c.until >= now)
                                 .values(guest_hash=guest_hash, accepted=now)
                                 .returning(friend_seats.c.game_id)).first()
            if taken is None:
                return False
            self.store._notify(conn, f"{taken.game_id} seated")
        self.store._announced(f"{taken.game_id} seated")
        return True

    def find(self, invite_hash: str) -> FriendSeat | None:
        return self._one(friend_seats.c.invite_hash == invite_hash)

    def of_game(self, game_id: str) -> FriendSeat | None:
        return self._one(friend_seats.c.game_id == game_id)

    def _one(self, where: object) -> FriendSeat | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(friend_seats).where(where)).first()  # type: ignore[arg-type]
        if r is None:
            return None
        return FriendSeat(str(r.game_id), str(r.invite_hash), float(r.until),
                          None if r.guest_hash is None else str(r.guest_hash),
                          None if r.accepted is None else float(r.accepted))


__all__ = ["FriendSeat", "FriendSeats", "friend_seats"]
