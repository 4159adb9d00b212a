"""Player accounts (issue 43) in the games database (migration 0009): accounts and their
credentials, server-side sessions, the games each account holds, Glicko-2 ratings per play
mode with their history, and failed sign-ins counted per name and per address.

The store hashes nothing and checks no password: it keeps what the web layer hands it (an
Argon2id hash, a passkey's public key, a game token already sealed). A session is kept only
as the SHA-256 of its id, so reading the table signs nobody in::

    >>> from parlor.store import GameStore
    >>> accounts = Accounts(GameStore("sqlite://"))
    >>> ann = accounts.create("Ann", now=1.0)
    >>> accounts.by_name("ANN") == ann
    True
    >>> sid = accounts.new_session(ann.id, now=2.0)
    >>> accounts.session(sid, now=3.0) == ann
    True
    >>> accounts.end_all(ann.id); accounts.session(sid, now=4.0) is None
    True
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from parlor.rules.glicko import Rating
from parlor.store.db import GameStore, actions, analyses, games, hint_claims
from parlor.store.tournaments import contests

metadata = MetaData()

#: The tables of migration 0009.
accounts = Table(
    "accounts", metadata,
    Column("id", String(32), primary_key=True),
    Column("username", String(32), nullable=False),  # as the player wrote it
    Column("name_key", String(32), nullable=False, unique=True),  # lower case: one per name
    Column("created", Float, nullable=False),
    # JSON: what the browser keeps in localStorage (lesson progress, settings), kept here
    # too so that it follows the player
    Column("prefs", Text, nullable=False, server_default="{}", default="{}"),
)
credentials = Table(
    "credentials", metadata,
    Column("id", String(200), primary_key=True),  # "password/<account>" or a passkey's id
    Column("account_id", String(32), ForeignKey("accounts.id"), nullable=False, index=True),
    Column("kind", String(16), nullable=False),  # password | passkey
    Column("secret", Text, nullable=False),  # an Argon2id hash, or a passkey's public key
    Column("sign_count", BigInteger, nullable=False, server_default="0", default=0),
    Column("created", Float, nullable=False),
)
sessions = Table(
    "sessions", metadata,
    Column("id_hash", String(64), primary_key=True),
    Column("account_id", String(32), ForeignKey("accounts.id"), nullable=False, index=True),
    Column("created", Float, nullable=False),
    Column("seen", Float, nullable=False),
)
account_games = Table(
    "account_games", metadata,
    Column("game_id", String(32), primary_key=True),  # a game belongs to one account at most
    Column("account_id", String(32), ForeignKey("accounts.id"), nullable=False, index=True),
    Column("sealed", Text, nullable=False),  # the game's player token, sealed by the web layer
    Column("rated", Integer, nullable=False, server_default="0", default=0),
    Column("added", Float, nullable=False),
)
ratings = Table(
    "ratings", metadata,
    Column("account_id", String(32), ForeignKey("accounts.id"), primary_key=True),
    Column("mode", String(16), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("rd", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)
rating_history = Table(
    "rating_history", metadata,
    # a game counts once for each account, ever (a friend game: for both; migration 0014)
    Column("game_id", String(32), primary_key=True),
    Column("account_id", String(32), ForeignKey("accounts.id"), primary_key=True, index=True),
    Column("mode", String(16), nullable=False),
    Column("n", Integer, nullable=False),  # the account's rated games in the mode, from 1
    Column("level", String(32), nullable=False),
    Column("opponent", Float, nullable=False),  # the level's rating then
    Column("score", Float, nullable=False),  # 1 won, 0.5 drawn, 0 lost
    Column("rating", Float, nullable=False),  # the account's rating after the game
    Column("rd", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("at", Float, nullable=False),
    # a friend game's: the account played (``level`` is "friend"); None: a computer level.
    # No foreign key: the other's account deleted, the game stays in this history
    Column("opponent_account", String(32), nullable=True),
    UniqueConstraint("account_id", "mode", "n"),
)
#: A passkey ceremony in progress (its challenge), used once: kept in the database so that
#: the server that checks the answer need not be the one that asked.
passkey_challenges = Table(
    "passkey_challenges", metadata,
    Column("id_hash", String(64), primary_key=True),
    Column("purpose", String(16), nullable=False),  # signup | add | signin
    Column("account_id", String(32), nullable=False),  # the account to make or add to
    Column("username", String(32), nullable=False),  # a sign-up's name
    Column("challenge", String(200), nullable=False),  # base64url
    Column("until", Float, nullable=False, index=True),
)
login_failures = Table(
    "login_failures", metadata,
    Column("key", String(120), primary_key=True),  # "name:<name key>" or "addr:<address>"
    Column("count", Integer, nullable=False),
    Column("since", Float, nullable=False),  # the first failure of the window
)

#: Sessions unused this long (seconds) are gone: 30 days.
SESSION_IDLE = 30 * 24 * 3600.0


class NameTaken(ValueError):
    """The username is someone else's (compared without case)."""


class RatingConflict(RuntimeError):
    """Another process rated a game of the account meanwhile: read again and retry."""


@dataclass(frozen=True, slots=True)
class Account:
    id: str
    username: str
    created: float


@dataclass(frozen=True, slots=True)
class HeldGame:
    """A game an account holds: its id, its sealed token, and whether it may be rated (it
    was started while the account was signed in)."""

    game_id: str
    sealed: str
    rated: bool
    added: float


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """One rated game in an account's history: the rating after it."""

    game_id: str
    mode: str
    n: int
    level: str
    opponent: float
    score: float
    rating: Rating
    at: float
    #: a friend game's (``level`` "friend"): the account played, and its name now (None:
    #: deleted since); a computer level's: both None
    opponent_account: str | None = None
    opponent_name: str | None = None


def new_account_id() -> str:
    return secrets.token_hex(12)


@dataclass(frozen=True, slots=True)
class Ceremony:
    """A passkey ceremony's stored half (:meth:`Accounts.take_ceremony`)."""

    purpose: str
    account_id: str
    username: str
    challenge: str


def name_key(username: str) -> str:
    return username.strip().lower()


def session_hash(sid: str) -> str:
    return hashlib.sha256(b"session/" + sid.encode()).hexdigest()


def _account(r: Any) -> Account:
    return Account(str(r.id), str(r.username), float(r.created))


class Accounts:
    """The accounts of every server on one database (its GameStore migrated the tables)."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.engine = store.engine

    # -- accounts and credentials ---------------------------------------------------------------

    def create(self, username: str, *, now: float | None = None,
               account_id: str | None = None) -> Account:
        """A new account; NameTaken if the name (any case) is held."""
        at = time.time() if now is None else now
        account = Account(account_id or new_account_id(), username.strip(), at)
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(accounts).values(id=account.id, username=account.username,
                                                     name_key=name_key(username), created=at))
        except IntegrityError:
            raise NameTaken(f"the name {username!r} is taken") from None
        return account

    def by_name(self, username: str) -> Account | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(accounts)
                             .where(accounts.c.name_key == name_key(username))).first()
        return None if r is None else _account(r)

    def with_password(self, username: str) -> tuple[Account | None, str | None]:
        """The account of ``username`` and its password hash, in one query (so a sign-in
        does the same database work for an unknown name as for a known one)."""
        query = (select(accounts, credentials.c.secret)
                 .outerjoin(credentials, (credentials.c.account_id == accounts.c.id)
                            & (credentials.c.kind == "password"))
                 .where(accounts.c.name_key == name_key(username)))
        with self.engine.connect() as conn:
            r = conn.execute(query).first()
        if r is None:
            return None, None
        return _account(r), None if r.secret is None else str(r.secret)

    def by_id(self, account_id: str) -> Account | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(accounts).where(accounts.c.id == account_id)).first()
        return None if r is None else _account(r)

    def prefs(self, account_id: str) -> str:
        with self.engine.connect() as conn:
            found = conn.execute(select(accounts.c.prefs).where(accounts.c.id == account_id))
            return str(found.scalar_one_or_none() or "{}")

    def set_prefs(self, account_id: str, prefs: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(accounts).where(accounts.c.id == account_id)
                         .values(prefs=prefs))

    def set_password(self, account_id: str, password_hash: str,
                     now: float | None = None) -> None:
        """The account's one password credential (replaced if it had one)."""
        cid = f"password/{account_id}"
        at = time.time() if now is None else now
        with self.engine.begin() as conn:
            conn.execute(delete(credentials).where(credentials.c.id == cid))
            conn.execute(insert(credentials).values(id=cid, account_id=account_id,
                                                    kind="password", secret=password_hash,
                                                    created=at))

    def password_hash(self, account_id: str) -> str | None:
        with self.engine.connect() as conn:
            found = conn.execute(select(credentials.c.secret)
                                 .where(credentials.c.id == f"password/{account_id}"))
            value = found.scalar_one_or_none()
        return None if value is None else str(value)

    def add_passkey(self, account_id: str, credential_id: str, public_key: str,
                    sign_count: int, now: float | None = None) -> None:
        at = time.time() if now is None else now
        with self.engine.begin() as conn:
            conn.execute(insert(credentials).values(
                id=f"passkey/{credential_id}", account_id=account_id, kind="passkey",
                secret=public_key, sign_count=sign_count, created=at))

    def passkey(self, credential_id: str) -> tuple[str, str, int] | None:
        """A passkey's account, public key and last signature count."""
        with self.engine.connect() as conn:
            r = conn.execute(select(credentials)
                             .where(credentials.c.id == f"passkey/{credential_id}")).first()
        return None if r is None else (str(r.account_id), str(r.secret), int(r.sign_count))

    def passkey_ids(self, account_id: str) -> list[str]:
        with self.engine.connect() as conn:
            found = conn.execute(select(credentials.c.id).where(
                credentials.c.account_id == account_id, credentials.c.kind == "passkey"))
            return [str(x).removeprefix("passkey/") for x in found.scalars()]

    def count_passkey_use(self, credential_id: str, old: int, new: int) -> bool:
        """Move a passkey's signature count from ``old`` to ``new``; False when another
        sign-in moved it first (a cloned authenticator, or a replay)."""
        with self.engine.begin() as conn:
            done = conn.execute(update(credentials).where(
                credentials.c.id == f"passkey/{credential_id}",
                credentials.c.sign_count == old).values(sign_count=new))
        return done.rowcount == 1

    def begin_ceremony(self, ceremony: Ceremony, *, seconds: float,
                       now: float | None = None) -> str:
        """Keep a passkey ceremony's challenge; returns the id the browser sends back."""
        at = time.time() if now is None else now
        cid = secrets.token_urlsafe(24)
        with self.engine.begin() as conn:
            conn.execute(delete(passkey_challenges).where(passkey_challenges.c.until < at))
            conn.execute(insert(passkey_challenges).values(
                id_hash=session_hash(cid), purpose=ceremony.purpose,
                account_id=ceremony.account_id, username=ceremony.username,
                challenge=ceremony.challenge, until=at + seconds))
        return cid

    def take_ceremony(self, cid: str, now: float | None = None) -> Ceremony | None:
        """The ceremony ``cid``, used up by this call (None: unknown, used or run out)."""
        at = time.time() if now is None else now
        with self.engine.begin() as conn:
            r = conn.execute(delete(passkey_challenges)
                             .where(passkey_challenges.c.id_hash == session_hash(cid))
                             .returning(passkey_challenges)).first()
        if r is None or r.until < at:
            return None
        return Ceremony(str(r.purpose), str(r.account_id), str(r.username), str(r.challenge))

    # -- sessions -------------------------------------------------------------------------------

    def new_session(self, account_id: str, now: float | None = None) -> str:
        """A new session of the account: its id (256 random bits), stored only hashed."""
        at = time.time() if now is None else now
        sid = secrets.token_urlsafe(32)
        with self.engine.begin() as conn:
            conn.execute(delete(sessions).where(sessions.c.seen < at - SESSION_IDLE))
            conn.execute(insert(sessions).values(id_hash=session_hash(sid),
                                                 account_id=account_id, created=at, seen=at))
        return sid

    def session(self, sid: str, now: float | None = None) -> Account | None:
        """The account signed in by session ``sid``; None if there is no such session (never
        issued, ended, or idle too long)."""
        at = time.time() if now is None else now
        query = (select(accounts, sessions.c.seen)
                 .join(sessions, sessions.c.account_id == accounts.c.id)
                 .where(sessions.c.id_hash == session_hash(sid)))
        with self.engine.connect() as conn:
            r = conn.execute(query).first()
        if r is None or r.seen < at - SESSION_IDLE:
            return None
        if r.seen < at - 3600:  # note the use at most hourly: a read, not a write, per request
            with self.engine.begin() as conn:
                conn.execute(update(sessions).where(sessions.c.id_hash == session_hash(sid))
                             .values(seen=at))
        return _account(r)

    def session_started(self, sid: str) -> float | None:
        with self.engine.connect() as conn:
            found = conn.execute(select(sessions.c.created)
                                 .where(sessions.c.id_hash == session_hash(sid)))
            value = found.scalar_one_or_none()
        return None if value is None else float(value)

    def end_session(self, sid: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(sessions).where(sessions.c.id_hash == session_hash(sid)))

    def end_all(self, account_id: str) -> None:
        """Sign the account out everywhere: every session of it ends."""
        with self.engine.begin() as conn:
            conn.execute(delete(sessions).where(sessions.c.account_id == account_id))

    def session_count(self, account_id: str) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(sessions)
                                    .where(sessions.c.account_id == account_id)).scalar_one())

    # -- games ----------------------------------------------------------------------------------

    def hold(self, account_id: str, game_id: str, sealed: str, *, rated: bool,
             now: float | None = None) -> bool:
        """The account holds the game from now on; False if an account holds it already
        (its own or another's: a game is never taken from an account)."""
        at = time.time() if now is None else now
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(account_games).values(
                    game_id=game_id, account_id=account_id, sealed=sealed, rated=int(rated),
                    added=at))
        except IntegrityError:
            return False
        return True

    def held(self, account_id: str) -> list[HeldGame]:
        """The games the account holds, most recently added first."""
        with self.engine.connect() as conn:
            found = conn.execute(select(account_games)
                                 .where(account_games.c.account_id == account_id)
                                 .order_by(account_games.c.added.desc()))
            return [HeldGame(str(r.game_id), str(r.sealed), bool(r.rated), float(r.added))
                    for r in found]

    def holder(self, game_id: str) -> str | None:
        with self.engine.connect() as conn:
            found = conn.execute(select(account_games.c.account_id)
                                 .where(account_games.c.game_id == game_id))
            value = found.scalar_one_or_none()
        return None if value is None else str(value)

    # -- ratings --------------------------------------------------------------------------------

    def rating(self, account_id: str, mode: str) -> tuple[Rating, int] | None:
        """The account's rating in ``mode`` and its number of rated games; None: unrated."""
        with self.engine.connect() as conn:
            r = conn.execute(select(ratings).where(ratings.c.account_id == account_id,
                                                   ratings.c.mode == mode)).first()
        return None if r is None else (Rating(r.rating, r.rd, r.volatility), int(r.games))

    def counted(self, game_ids: Sequence[str]) -> set[str]:
        """Which of these games are rated already."""
        if not game_ids:
            return set()
        with self.engine.connect() as conn:
            found = conn.execute(select(rating_history.c.game_id)
                                 .where(rating_history.c.game_id.in_(list(game_ids))))
            return {str(x) for x in found.scalars()}

    @staticmethod
    def holding(conn: Connection, game_id: str) -> tuple[str, bool] | None:
        """The account holding a game and whether it may be rated, as ``conn`` sees it."""
        r = conn.execute(select(account_games.c.account_id, account_games.c.rated)
                         .where(account_games.c.game_id == game_id)).first()
        return None if r is None else (str(r.account_id), bool(r.rated))

    @staticmethod
    def is_contest(conn: Connection, game_id: str) -> bool:
        """Whether the game is a tournament's contest."""
        return conn.execute(select(contests.c.game_id)
                            .where(contests.c.game_id == game_id)).first() is not None

    def rate_in(self, conn: Connection, account_id: str, mode: str, game_id: str,
                after: Callable[[Rating, int], RatingPoint]) -> RatingPoint | None:
        """Inside ``conn``'s transaction (the one storing the game's end): the account's
        rating in ``mode`` after the game, ``after(rating before, rated games before)``,
        stored with the game in its history. A game counts once: None, and nothing
        written, when it is rated already. The account's row is locked first (PostgreSQL:
        two games of one account ending at once on two servers are rated one after the
        other, each from the other's result; SQLite has one writer at a time anyway)."""
        conn.execute(select(accounts.c.id).where(accounts.c.id == account_id).with_for_update())
        if conn.execute(select(rating_history.c.game_id)
                        .where(rating_history.c.game_id == game_id)).first() is not None:
            return None
        r = conn.execute(select(ratings).where(ratings.c.account_id == account_id,
                                               ratings.c.mode == mode)).first()
        before, n = (Rating(), 0) if r is None else (Rating(r.rating, r.rd, r.volatility),
                                                     int(r.games))
        point = after(before, n)
        self._write_point(conn, account_id, point)
        return point

    @staticmethod
    def ratings_in(conn: Connection, account_ids: Sequence[str],
                   mode: str) -> dict[str, tuple[Rating, int]]:
        """Inside ``conn``'s transaction: each account's rating in ``mode`` and its rated
        games (a new rating and 0 if none), the accounts' rows locked first, in one order
        (two games ending at once on two servers rate one after the other, without a
        deadlock). An account deleted meanwhile is left out."""
        found: dict[str, tuple[Rating, int]] = {}
        for account_id in sorted(account_ids):
            if conn.execute(select(accounts.c.id).where(accounts.c.id == account_id)
                            .with_for_update()).first() is None:
                continue
            r = conn.execute(select(ratings).where(ratings.c.account_id == account_id,
                                                   ratings.c.mode == mode)).first()
            found[account_id] = (Rating(), 0) if r is None else \
                (Rating(r.rating, r.rd, r.volatility), int(r.games))
        return found

    def record_in(self, conn: Connection, account_id: str, point: RatingPoint) -> None:
        """Inside ``conn``'s transaction: the account's rating after its ``point.n``-th
        rated game (n-1 before it, as :meth:`ratings_in` read under the lock), and the game
        in its history."""
        self._write_point(conn, account_id, point)

    def _write_point(self, conn: Connection, account_id: str, point: RatingPoint) -> None:
        r = point.rating
        conn.execute(insert(rating_history).values(
            game_id=point.game_id, account_id=account_id, mode=point.mode, n=point.n,
            level=point.level, opponent=point.opponent, score=point.score,
            rating=r.rating, rd=r.rd, volatility=r.volatility, at=point.at,
            opponent_account=point.opponent_account))
        self._set_rating(conn, account_id, point.mode, point.n, {
            "rating": r.rating, "rd": r.rd, "volatility": r.volatility, "games": point.n,
            "updated": point.at})

    def record_rating(self, account_id: str, point: RatingPoint) -> None:
        """Store the rating after a rated game, and the game in the history, together.
        ``point.n`` must be the account's count in the mode plus one: RatingConflict when
        another process rated a game meanwhile, or rated this one already."""
        try:
            with self.engine.begin() as conn:
                self._write_point(conn, account_id, point)
        except IntegrityError:
            raise RatingConflict(f"game {point.game_id} or rated game {point.n} of "
                                 f"{point.mode} is rated already") from None

    @staticmethod
    def _set_rating(conn: Connection, account_id: str, mode: str, n: int,
                    values: dict[str, Any]) -> None:
        if n == 1:
            conn.execute(insert(ratings).values(account_id=account_id, mode=mode, **values))
            return
        done = conn.execute(update(ratings).where(ratings.c.account_id == account_id,
                                                  ratings.c.mode == mode,
                                                  ratings.c.games == n - 1).values(**values))
        if done.rowcount != 1:
            raise IntegrityError("ratings", None, ValueError("rated meanwhile"))

    def history(self, account_id: str, mode: str | None = None) -> list[RatingPoint]:
        """The account's rated games, oldest first (a friend game's with its opponent's
        name)."""
        other = accounts.alias("other")
        query = (select(rating_history, other.c.username.label("opponent_name"))
                 .select_from(rating_history.outerjoin(
                     other, other.c.id == rating_history.c.opponent_account))
                 .where(rating_history.c.account_id == account_id))
        if mode is not None:
            query = query.where(rating_history.c.mode == mode)
        with self.engine.connect() as conn:
            found = conn.execute(query.order_by(rating_history.c.mode, rating_history.c.n))
            return [RatingPoint(str(r.game_id), str(r.mode), int(r.n), str(r.level),
                                float(r.opponent), float(r.score),
                                Rating(r.rating, r.rd, r.volatility), float(r.at),
                                r.opponent_account, r.opponent_name)
                    for r in found]

    # -- failed sign-ins ------------------------------------------------------------------------

    def failures(self, key: str, *, window: float, now: float | None = None) -> int:
        """Failed sign-ins under ``key`` within the window that began with the first."""
        at = time.time() if now is None else now
        with self.engine.connect() as conn:
            r = conn.execute(select(login_failures)
                             .where(login_failures.c.key == key)).first()
        return 0 if r is None or r.since < at - window else int(r._mapping["count"])

    def fail(self, key: str, *, window: float, now: float | None = None) -> None:
        """Count a failed sign-in under ``key`` (a window past its end starts again)."""
        at = time.time() if now is None else now
        for _attempt in range(3):  # two servers inserting the first failure at once
            try:
                with self.engine.begin() as conn:
                    r = conn.execute(select(login_failures).where(login_failures.c.key == key)
                                     .with_for_update()).first()
                    if r is None:
                        conn.execute(insert(login_failures).values(key=key, count=1, since=at))
                    elif r.since < at - window:
                        conn.execute(update(login_failures).where(login_failures.c.key == key)
                                     .values(count=1, since=at))
                    else:
                        conn.execute(update(login_failures).where(login_failures.c.key == key)
                                     .values(count=login_failures.c.count + 1))
                return
            except IntegrityError:
                continue

    def forgive(self, key: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(login_failures).where(login_failures.c.key == key))

    # -- deleting -------------------------------------------------------------------------------

    def delete(self, account_id: str, *, games_too: bool) -> list[str]:
        """Delete the account, its credentials, sessions and ratings. Its games are
        anonymised (they stay, held by no one) or, with ``games_too``, deleted with their
        actions and analyses; a tournament's contest is only anonymised (the tournament's
        other players keep its record). Returns the ids of the games deleted."""
        from parlor.store.puzzles import forget_account
        from parlor.store.tournaments import contests as tournament_games

        with self.store._writing(), self.engine.begin() as conn:
            held = [str(x) for x in conn.execute(
                select(account_games.c.game_id)
                .where(account_games.c.account_id == account_id)).scalars()]
            in_tournaments = {str(x) for x in conn.execute(
                select(tournament_games.c.game_id)
                .where(tournament_games.c.game_id.in_(held))).scalars()} if held else set()
            gone = [g for g in held if g not in in_tournaments] if games_too else []
            forget_account(conn, account_id)  # issue 44: the account's puzzle rating
            for table in (account_games, rating_history, ratings, sessions, credentials):
                conn.execute(delete(table).where(table.c.account_id == account_id))
            conn.execute(delete(accounts).where(accounts.c.id == account_id))
            if gone:
                for table, column in ((actions, actions.c.game_id),
                                      (analyses, analyses.c.game_id),
                                      (hint_claims, hint_claims.c.game_id),
                                      (games, games.c.id)):
                    conn.execute(delete(table).where(column.in_(gone)))
        return gone


__all__ = ["SESSION_IDLE", "Account", "Accounts", "Ceremony", "HeldGame", "NameTaken",
           "RatingConflict", "RatingPoint", "name_key", "new_account_id", "session_hash"]
