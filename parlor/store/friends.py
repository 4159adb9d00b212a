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

from sqlalchemy import Column, Float, Integer, MetaData, String, Table, insert, select, update
from sqlalchemy.engine import Connection

from parlor.store.db import GameStore, actions

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
    # migration 0012: the clock, the open offer, the rematch, each seat's last read
    Column("clock_base", Float, nullable=True),  # seconds; None: no clock
    Column("clock_increment", Float, nullable=True),
    Column("offer", String(24), nullable=True),  # "draw", "takeback", "draw-declined"…
    Column("offer_by", Integer, nullable=True),
    Column("offer_version", Integer, nullable=True),
    Column("offer_takebacks", Integer, nullable=True),
    Column("rematch_id", String(32), nullable=True),
    Column("seen0", Float, nullable=True),
    Column("seen1", Float, nullable=True),
    # migration 0013: the accounts signed in at the invitation and at its acceptance, and
    # when the game was rated (parlor.web.rating.RateFriendsAtEnd)
    Column("host_account", String(32), nullable=True),
    Column("guest_account", String(32), nullable=True),
    Column("rated_at", Float, nullable=True),
)


@dataclass(frozen=True, slots=True)
class FriendSeat:
    game_id: str
    invite_hash: str
    until: float
    guest_hash: str | None
    accepted: float | None
    clock_base: float | None = None
    clock_increment: float | None = None
    host_account: str | None = None
    guest_account: str | None = None

    @property
    def between_accounts(self) -> bool:
        """Whether two different accounts hold the seats (the game can be rated)."""
        return self.host_account is not None and self.guest_account is not None \
            and self.host_account != self.guest_account


@dataclass(frozen=True, slots=True)
class Offer:
    """An open offer: ``what`` ("draw" or "takeback"), by ``by`` (a seat), made at the
    game's (``version``, ``takebacks``): it lapses once the game is elsewhere."""

    what: str
    by: int
    version: int
    takebacks: int


@dataclass(frozen=True, slots=True)
class Lively:
    """What changes while a friend game is played: its open offer, its rematch, and when
    each seat last read it (None: never)."""

    offer: Offer | None
    rematch_id: str | None
    seen: tuple[float | None, float | None]


class FriendSeats:
    """The friend games' second seats of every server on one database."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.engine = store.engine  # migrated by the GameStore: the table is there

    def invite(self, game_id: str, invite_hash: str, *, until: float,
               clock: tuple[float, float] | None = None, account: str | None = None) -> None:
        """A new invitation; ``clock`` (base, increment in seconds) or None: no clock;
        ``account``: the inviter's, if signed in."""
        base, inc = clock if clock is not None else (None, None)
        with self.engine.begin() as conn:
            conn.execute(insert(friend_seats).values(game_id=game_id, invite_hash=invite_hash,
                                                     until=until, clock_base=base,
                                                     clock_increment=inc,
                                                     host_account=account))

    def accept(self, invite_hash: str, guest_hash: str, *, now: float,
               account: str | None = None) -> bool:
        """Give the second seat to ``guest_hash`` if the invitation is open (not taken, not
        run out); False otherwise (then nothing changed). An acceptance is announced as a
        change of its game, as a move is (``NOTIFY``, or Redis after the commit), so the
        inviter's table waiting on any server of a deployment hears it at once."""
        with self.store._writing(), self.engine.begin() as conn:
            taken = conn.execute(update(friend_seats)
                                 .where(friend_seats.c.invite_hash == invite_hash,
                                        friend_seats.c.guest_hash.is_(None),
                                        friend_seats.c.until >= now)
                                 .values(guest_hash=guest_hash, accepted=now,
                                         guest_account=account)
                                 .returning(friend_seats.c.game_id)).first()
            if taken is None:
                return False
            self.store._notify(conn, f"{taken.game_id} seated")
        self.store._announced(f"{taken.game_id} seated")
        return True

    def accept_game(self, game_id: str, guest_hash: str, *, now: float,
                    account: str | None = None) -> bool:
        """:meth:`accept` by the game's id (a rematch's invitation, opened by the other
        player of the game it follows, whose code nobody was sent)."""
        found = self.of_game(game_id)
        return found is not None and self.accept(found.invite_hash, guest_hash, now=now,
                                                   account=account)

    def times(self, game_id: str, from_ply: int) -> list[float]:
        """When the server stored each action of the game's record from ``from_ply`` on."""
        with self.engine.connect() as conn:
            return [float(r.at) for r in conn.execute(
                select(actions.c.at).where(actions.c.game_id == game_id,
                                           actions.c.ply >= from_ply)
                .order_by(actions.c.ply))]

    def lively(self, game_id: str) -> Lively:
        with self.engine.connect() as conn:
            r = conn.execute(select(friend_seats).where(friend_seats.c.game_id == game_id)
                             ).first()
        if r is None:
            return Lively(None, None, (None, None))
        offer = None if r.offer is None else Offer(str(r.offer), int(r.offer_by),
                                                   int(r.offer_version),
                                                   int(r.offer_takebacks))
        return Lively(offer, None if r.rematch_id is None else str(r.rematch_id),
                      (_float(r.seen0), _float(r.seen1)))

    def offer(self, game_id: str, offer: Offer | None, *, unless: Offer | None = None,
              only: Offer | None = None) -> bool:
        """Make ``offer`` the game's open offer (None: withdraw or settle it). With
        ``only``, just if that is the open offer now (accepting or declining the offer the
        player saw, not one made since); False if it was not. Announced as a change."""
        values = ({"offer": None, "offer_by": None, "offer_version": None,
                   "offer_takebacks": None} if offer is None else
                  {"offer": offer.what, "offer_by": offer.by, "offer_version": offer.version,
                   "offer_takebacks": offer.takebacks})
        where = [friend_seats.c.game_id == game_id]
        if only is not None:
            where += [friend_seats.c.offer == only.what, friend_seats.c.offer_by == only.by,
                      friend_seats.c.offer_version == only.version,
                      friend_seats.c.offer_takebacks == only.takebacks]
        with self.store._writing(), self.engine.begin() as conn:
            done = conn.execute(update(friend_seats).where(*where).values(**values)).rowcount
            if done == 1:
                self.store._notify(conn, f"{game_id} offer")
        if done == 1:
            self.store._announced(f"{game_id} offer")
        return done == 1

    def set_rematch(self, game_id: str, rematch_id: str) -> bool:
        """Record the game's rematch, unless it has one already (False then)."""
        with self.store._writing(), self.engine.begin() as conn:
            done = conn.execute(update(friend_seats)
                                .where(friend_seats.c.game_id == game_id,
                                       friend_seats.c.rematch_id.is_(None))
                                .values(rematch_id=rematch_id)).rowcount
            if done == 1:
                self.store._notify(conn, f"{game_id} rematch")
        if done == 1:
            self.store._announced(f"{game_id} rematch")
        return done == 1

    def seen(self, game_id: str, seat: int, now: float) -> None:
        """The seat's table read the game at ``now``."""
        column = "seen0" if seat == 0 else "seen1"
        with self.store._writing(), self.engine.begin() as conn:
            conn.execute(update(friend_seats).where(friend_seats.c.game_id == game_id)
                         .values({column: now}))

    def guest_hashes(self, ids: list[str]) -> dict[str, str]:
        """The second seats' token hashes of those of ``ids`` that are accepted friend
        games (game id -> hash): a guest's games are theirs as an inviter's are."""
        if not ids:
            return {}
        with self.engine.connect() as conn:
            return {str(r.game_id): str(r.guest_hash) for r in conn.execute(
                select(friend_seats.c.game_id, friend_seats.c.guest_hash)
                .where(friend_seats.c.game_id.in_(ids),
                       friend_seats.c.guest_hash.is_not(None)))}

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
                          _float(r.accepted), _float(r.clock_base), _float(r.clock_increment),
                          _str(r.host_account), _str(r.guest_account))

    @staticmethod
    def seats_in(conn: Connection, game_id: str) -> FriendSeat | None:
        """The game's second seat as ``conn`` sees it (inside the transaction ending it)."""
        r = conn.execute(select(friend_seats).where(friend_seats.c.game_id == game_id)).first()
        if r is None:
            return None
        return FriendSeat(str(r.game_id), str(r.invite_hash), float(r.until), _str(r.guest_hash),
                          _float(r.accepted), host_account=_str(r.host_account),
                          guest_account=_str(r.guest_account))

    @staticmethod
    def mark_rated(conn: Connection, game_id: str, at: float) -> bool:
        """Inside the transaction ending the game: note that it is rated now; False if it
        was rated already (a game counts once)."""
        done = conn.execute(update(friend_seats).where(friend_seats.c.game_id == game_id,
                                                       friend_seats.c.rated_at.is_(None))
                            .values(rated_at=at)).rowcount
        return bool(done == 1)

    def rated_at(self, game_id: str) -> float | None:
        with self.engine.connect() as conn:
            return _float(conn.execute(select(friend_seats.c.rated_at)
                                       .where(friend_seats.c.game_id == game_id)).scalar())


def _str(x: object) -> str | None:
    return None if x is None else str(x)


def _float(x: object) -> float | None:
    return None if x is None else float(x)  # type: ignore[arg-type]


__all__ = ["FriendSeat", "FriendSeats", "Lively", "Offer", "friend_seats"]
