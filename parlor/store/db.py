"""SQL storage of games through SQLAlchemy Core: SQLite by default, PostgreSQL (psycopg 3)
for a deployment of many server processes (docs/deploy.md).

Every accepted action is one committed row, written before the server replies, so a game
survives any crash of the server (even ``kill -9``) up to its last reply. The row and the
game's new version are written in one transaction whose UPDATE names the version it expects
(``WHERE version = ply``): of two processes that race for the same move, exactly one
commits and the other gets :class:`StoreConflict`. On PostgreSQL the same transaction sends
``NOTIFY parlor_games`` so every server learns of the change (:mod:`parlor.web.queued`), or
with ``PARLOR_REDIS_URL`` the change is published on Redis after the commit
(:attr:`GameStore.announce`, :mod:`parlor.web.wakeups`)::

    >>> store = GameStore("sqlite://")
    >>> store.insert(GameRow("g1", "play", 0, "random", 7, "max_turns=200", 0.0), "h")
    >>> store.append("g1", 0, "keep 9D", turn=1, status="live", result="", now=1.0)
    >>> got = store.load("g1")
    >>> got.row.version, got.actions
    (1, ['keep 9D'])
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
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
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.pool import StaticPool

from parlor.settings import env_int

metadata = MetaData()

games = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("kind", String(16), nullable=False),  # "play" (against the computer) or "replay"
    Column("token_hash", String(64), nullable=False),
    Column("human", Integer, nullable=False),  # the human's seat, 0 = Rlr 1
    Column("level", String(32), nullable=False),
    Column("seed", BigInteger, nullable=False),  # a practice seed (0 when dealt from a key)
    # the deal key's text ("key-" + hex, issue 13) or "" for a practice seed; added to older
    # databases by migration 0005
    Column("deal", String(140), nullable=False, server_default=""),
    Column("settings", String(200), nullable=False),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("version", Integer, nullable=False, default=0),  # number of actions stored
    # takebacks made (R30; migration 0008): a takeback lowers the version and new moves raise
    # it again on another line, so only (takebacks, version) names one position of a game
    Column("takebacks", Integer, nullable=False, server_default="0", default=0),
    Column("turn", Integer, nullable=False, default=1),
    Column("status", String(16), nullable=False, default="live"),  # live | over | failed
    Column("result", Text, nullable=False, default=""),
    Column("title", String(200), nullable=False, default=""),
)

actions = Table(
    "actions",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("ply", Integer, primary_key=True),  # 0-based index in the record
    Column("action", String(200), nullable=False),
    Column("at", Float, nullable=False),
)

# Post-game analyses (migration 0006): one per game and player analysed (migration 0014:
# each seat of a friend game has its own).
analyses = Table(
    "analyses",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("player", Integer, primary_key=True),  # the Rlr analysed, 0 = Rlr 1
    Column("seed", Integer, nullable=False),  # the analysis seed (the search is seeded from it)
    Column("iterations", Integer, nullable=False),
    Column("status", String(16), nullable=False),  # running | done | failed
    # the line analysed: the game's takebacks and version then (migration 0008); an analysis
    # of a line later taken back is not the game's
    Column("takebacks", Integer, nullable=False, server_default="0", default=0),
    Column("version", Integer, nullable=False, server_default="0", default=0),
    Column("done", Integer, nullable=False, default=0),
    Column("total", Integer, nullable=False, default=0),
    Column("result", Text, nullable=False, default=""),  # JSON: the decisions, when done
    Column("error", Text, nullable=False, default=""),
    Column("updated", Float, nullable=False),
)

# A worker's answer to a server's question (a hint), kept until the server has read it.
answers = Table(
    "answers",
    metadata,
    Column("key", String(80), primary_key=True),
    Column("payload", Text, nullable=False),
    Column("at", Float, nullable=False),
)

# The one hint in flight per game, across every server (migration 0008): the decision it is
# for (takebacks, version), the key its answer will be stored under, and since when.
hint_claims = Table(
    "hint_claims",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("takebacks", Integer, nullable=False),
    Column("version", Integer, nullable=False),
    Column("key", String(80), nullable=False),
    Column("since", Float, nullable=False),
)

#: Answers older than this (seconds) are deleted as new ones come: whoever waited for them
#: has given up long before.
ANSWER_KEPT = 600.0

#: The PostgreSQL channel where every committed change of a game is announced as
#: ``"<game id> <version>"``, and where answers are announced as ``"answer <key>"``.
CHANNEL = "parlor_games"


# The statements of the hot path (one per accepted action), built once.
_ADVANCE = (
    update(games)
    .where(games.c.id == bindparam("gid"), games.c.version == bindparam("old"),
           games.c.takebacks == bindparam("line"))
    .values(version=bindparam("new"), takebacks=bindparam("new_line"), turn=bindparam("turn"),
            status=bindparam("status"), result=bindparam("result"), updated=bindparam("at"))
)
_ADD_ACTION = insert(actions).values(game_id=bindparam("game_id"), ply=bindparam("ply"),
                                     action=bindparam("action"), at=bindparam("at"))
_NOTIFY = text(f"SELECT pg_notify('{CHANNEL}', :payload)")
#: On PostgreSQL, _ADVANCE and _ADD_ACTION (and the NOTIFY, when the changes are announced
#: by it) in one statement: an action's transaction is BEGIN, this, COMMIT, as plain as a
#: one-row UPDATE's (issue 38: each statement more is a round trip under the game's row
#: lock). Its row count is the actions added: none when the game was not at ``old``. The
#: NOTIFY is in the UPDATE's RETURNING, so it is sent once, and only when the row matched.
#: (No result row is returned: reading one cost the client about as much CPU again as the
#: rest of the call, measured for issue 38.)
_ADVANCE_AND_ADD = """
WITH adv AS (
  UPDATE games SET version = :new, takebacks = :new_line, turn = :turn, status = :status,
                   result = :result, updated = :at
  WHERE id = :gid AND version = :old AND takebacks = :line
  RETURNING id{notify})
INSERT INTO actions (game_id, ply, action, at)
SELECT adv.id, {rows}
"""
#: The actions' rows: several from two arrays; one (an action, the hot path) from plain
#: parameters, which spares the client adapting two lists and the server an unnest (a
#: third of the commit path's client CPU over a plain UPDATE's, measured for issue 38).
_MANY_ROWS = ("m.ply, m.action, :at FROM adv, unnest(CAST(:plies AS integer[]), "
              "CAST(:moves AS text[])) AS m(ply, action)")
_ONE_ROW = ":ply, :action, :at FROM adv"
_NOTIFYING = f", pg_notify('{CHANNEL}', :payload) AS notified"
#: (one action?, notify?) -> the statement
_APPEND_PG = {(one, notify): text(_ADVANCE_AND_ADD.format(
    rows=_ONE_ROW if one else _MANY_ROWS, notify=_NOTIFYING if notify else ""))
    for one in (False, True) for notify in (False, True)}


class StoreConflict(RuntimeError):
    """The stored game is not at the version (and takebacks) the writer expected: a lost
    race, or a line taken back meanwhile."""


@dataclass(frozen=True, slots=True)
class GameRow:
    """The metadata of one saved game (the record is its seed, settings and actions)."""

    id: str
    kind: str
    human: int
    level: str
    seed: int
    settings: str
    created: float
    updated: float = 0.0
    version: int = 0
    turn: int = 1
    status: str = "live"
    result: str = ""
    title: str = ""
    deal: str = ""  # the deal key's text, or "" when dealt from the practice number ``seed``
    takebacks: int = 0  # takebacks made so far: with ``version``, where the game is


@dataclass(frozen=True, slots=True)
class Head:
    """Where a stored game is (:meth:`GameStore.head`)."""

    version: int
    takebacks: int
    status: str


@dataclass(frozen=True, slots=True)
class StoredGame:
    row: GameRow
    token_hash: str
    actions: list[str] = field(default_factory=list)


def default_url() -> str:
    """``PARLOR_DATABASE_URL``, or ``./parlor.db`` in the working folder."""
    return os.environ.get("PARLOR_DATABASE_URL") or "sqlite:///parlor.db"


def sqlalchemy_url(url: str) -> str:
    """A PostgreSQL URL as libpq writes it (``postgresql://...``) made to name psycopg 3,
    the driver parlor uses; other URLs unchanged.

    >>> sqlalchemy_url("postgres://u@db/parlor")
    'postgresql+psycopg://u@db/parlor'
    >>> sqlalchemy_url("sqlite:///parlor.db")
    'sqlite:///parlor.db'
    """
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def libpq_url(url: str) -> str:
    """The same database as a libpq connection string (for psycopg and procrastinate).

    >>> libpq_url("postgresql+psycopg://u@/parlor?host=/tmp/pg")
    'postgresql://u@/parlor?host=/tmp/pg'
    """
    return "postgresql://" + url.split("://", 1)[1]


def _row(r: Any) -> GameRow:
    return GameRow(
        id=r.id, kind=r.kind, human=r.human, level=r.level, seed=r.seed, settings=r.settings,
        created=r.created, updated=r.updated, version=r.version, turn=r.turn,
        status=r.status, result=r.result, title=r.title, deal=r.deal, takebacks=r.takebacks,
    )


class GameStore:
    """Games and their actions in one SQL database."""

    def __init__(self, url: str | None = None, *, pool_size: int | None = None) -> None:
        self.url = sqlalchemy_url(url or default_url())
        self.is_sqlite = self.url.startswith("sqlite")
        #: Other processes may write the same games (PostgreSQL): a cached game is trusted
        #: only at the version it was read at (:meth:`version`).
        self.shared = not self.is_sqlite
        self.is_postgres = self.url.startswith("postgresql")
        kwargs: dict[str, Any] = {}
        if self.is_sqlite:
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
            if self.url in ("sqlite://", "sqlite:///:memory:"):
                kwargs["poolclass"] = StaticPool  # one shared in-memory database
        else:
            # PARLOR_DB_POOL connections per process, a few more in a burst; a connection
            # the database dropped (a restart, a failover) is noticed before it is used
            kwargs.update(pool_size=pool_size or env_int("PARLOR_DB_POOL", 10),
                          max_overflow=env_int("PARLOR_DB_OVERFLOW", 10),
                          pool_timeout=env_int("PARLOR_DB_TIMEOUT", 10),
                          pool_pre_ping=True)
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        # SQLite takes one writer at a time; serialising writes here avoids lock upgrades.
        self._write_lock = threading.Lock() if self.is_sqlite else None
        #: Where committed changes are announced instead of ``NOTIFY`` (``PARLOR_REDIS_URL``,
        #: set by the web layer): called after the commit, so no notify lock is held through
        #: the commit's flush. None: ``NOTIFY`` inside the transaction (PostgreSQL only).
        self.announce: Callable[[str], None] | None = None
        #: Called inside the transaction of the move that ends a game (status ``over``), with
        #: the connection, the game's id and the time: what must be stored with the result
        #: itself (an account's rating, parlor.web.rating), or not at all. An exception
        #: rolls the move back.
        self.at_end: list[Callable[[Connection, str, float], None]] = []
        from parlor.store.migrate import upgrade

        upgrade(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    # -- writing ---------------------------------------------------------------------------

    def _writing(self) -> Any:
        return self._write_lock if self._write_lock is not None else _NoLock()

    def _notify(self, conn: Connection, payload: str) -> None:
        """Inside the transaction: ``NOTIFY``, delivered to every listener when (and if) it
        commits, unless :attr:`announce` is set (then :meth:`_announced` after the commit)."""
        if self.is_postgres and self.announce is None:
            conn.execute(_NOTIFY, {"payload": payload})

    def _announced(self, payload: str) -> None:
        if self.announce is not None:
            self.announce(payload)

    def insert(self, row: GameRow, token_hash: str, moves: list[str] | None = None) -> None:
        """A new game, with the actions already in its record (for an imported record)."""
        moves = moves or []
        now = row.created
        row = replace(row, updated=row.updated or now, version=len(moves))
        with self._writing(), self.engine.begin() as conn:
            conn.execute(insert(games).values(
                id=row.id, kind=row.kind, token_hash=token_hash, human=row.human,
                level=row.level, seed=row.seed, settings=row.settings, created=row.created,
                updated=row.updated, version=row.version, takebacks=row.takebacks,
                turn=row.turn, status=row.status, result=row.result, title=row.title,
                deal=row.deal))
            if moves:
                conn.execute(insert(actions), [
                    {"game_id": row.id, "ply": i, "action": a, "at": now}
                    for i, a in enumerate(moves)])

    def append(self, game_id: str, ply: int, action: str, *, turn: int, status: str,
               result: str, now: float | None = None, takebacks: int = 0) -> None:
        """Commit action number ``ply`` (0-based); raise StoreConflict unless the stored
        game holds exactly ``ply`` actions after exactly ``takebacks`` takebacks."""
        self.append_many(game_id, ply, [action], turn=turn, status=status, result=result,
                         now=now, takebacks=takebacks)

    def append_many(self, game_id: str, ply: int, moves: list[str], *, turn: int,
                    status: str, result: str, now: float | None = None,
                    takebacks: int = 0) -> None:
        """:meth:`append` of several actions in one commit (at least one: on PostgreSQL
        no action added is how a stale version shows)."""
        if not moves:
            raise ValueError("append_many: no actions")
        at = time.time() if now is None else now
        advance = {"gid": game_id, "old": ply, "new": ply + len(moves), "line": takebacks,
                   "new_line": takebacks, "turn": turn, "status": status, "result": result,
                   "at": at}
        payload = f"{game_id} {ply + len(moves)}"
        with self._writing(), self.engine.begin() as conn:
            if self.is_postgres:
                self._append_pg(conn, advance, moves, payload)
            else:
                done = conn.execute(_ADVANCE, advance)
                if done.rowcount != 1:
                    raise StoreConflict(_not_at(game_id, ply, takebacks))
                conn.execute(_ADD_ACTION, [
                    {"game_id": game_id, "ply": ply + i, "action": a, "at": at}
                    for i, a in enumerate(moves)])
            if status == "over":  # the game ends with this commit (no move follows an end)
                for hook in self.at_end:
                    hook(conn, game_id, at)
        self._announced(payload)

    def _append_pg(self, conn: Connection, advance: dict[str, Any], moves: list[str],
                   payload: str) -> None:
        """:meth:`append_many`'s writes on PostgreSQL, in one statement (_ADVANCE_AND_ADD:
        the same UPDATE and INSERT as the two statements on SQLite, and the NOTIFY of
        :meth:`_notify`)."""
        notify = self.announce is None
        ply = advance["old"]
        one = len(moves) == 1
        values = ({**advance, "ply": ply, "action": moves[0]} if one else
                  {**advance, "plies": list(range(ply, ply + len(moves))), "moves": moves})
        if notify:
            values["payload"] = payload
        added = conn.execute(_APPEND_PG[one, notify], values).rowcount
        if added == 0:
            raise StoreConflict(_not_at(advance["gid"], ply, advance["line"]))
        if added != len(moves):
            raise AssertionError(f"{added} of {len(moves)} actions stored")

    def truncate(self, game_id: str, ply: int, keep: int, *, turn: int, status: str,
                 result: str, now: float | None = None, takebacks: int = 0) -> None:
        """Keep only the first ``keep`` actions (a takeback in casual play, R30) and count
        the takeback; raise StoreConflict unless the stored game holds exactly ``ply``
        actions after exactly ``takebacks`` takebacks. The record then holds only the line
        actually played, and the game's ``takebacks`` is one more, so no cache or job that
        knew the old line at some version trusts the new line at that version."""
        at = time.time() if now is None else now
        with self._writing(), self.engine.begin() as conn:
            done = conn.execute(_ADVANCE, {"gid": game_id, "old": ply, "new": keep,
                                           "line": takebacks, "new_line": takebacks + 1,
                                           "turn": turn, "status": status, "result": result,
                                           "at": at})
            if done.rowcount != 1:
                raise StoreConflict(_not_at(game_id, ply, takebacks))
            conn.execute(actions.delete().where(actions.c.game_id == game_id,
                                                actions.c.ply >= keep))
            self._notify(conn, f"{game_id} {keep}")
        self._announced(f"{game_id} {keep}")

    def put_analysis(self, game_id: str, player: int, **values: Any) -> None:
        """Create or update the analysis of ``player``'s decisions in a game (columns of
        :data:`analyses`)."""
        values["updated"] = time.time()
        with self._writing(), self.engine.begin() as conn:
            done = conn.execute(update(analyses).where(analyses.c.game_id == game_id,
                                                       analyses.c.player == player)
                                .values(**values))
            if done.rowcount == 0:
                conn.execute(insert(analyses).values(game_id=game_id, player=player, **values))

    def analyses_running(self, since: float) -> int:
        """Analyses running or waiting whose row moved since ``since`` (older ones stopped:
        their server or worker went away)."""
        with self.engine.connect() as conn:
            return int(conn.execute(
                select(func.count()).select_from(analyses)
                .where(analyses.c.status == "running", analyses.c.updated >= since)
            ).scalar_one())

    def analysis(self, game_id: str, player: int) -> dict[str, Any] | None:
        """The analysis row of ``player``'s decisions in a game as a dict, or None."""
        with self.engine.connect() as conn:
            r = conn.execute(select(analyses).where(analyses.c.game_id == game_id,
                                                    analyses.c.player == player)).first()
        return None if r is None else dict(r._mapping)

    def mark(self, game_id: str, version: int, *, status: str, result: str,
             now: float | None = None, takebacks: int = 0, ends: bool = False) -> None:
        """Set a game's status and result without an action (a game stopped where its
        computer player failed); StoreConflict unless it is at ``version`` after
        ``takebacks`` takebacks. ``ends``: with a result that counts (a draw agreed between
        friends), so the :attr:`at_end` hooks run in this transaction too."""
        at = time.time() if now is None else now
        with self._writing(), self.engine.begin() as conn:
            done = conn.execute(update(games).where(games.c.id == game_id,
                                                    games.c.version == version,
                                                    games.c.takebacks == takebacks)
                                .values(status=status, result=result, updated=at))
            if done.rowcount != 1:
                raise StoreConflict(_not_at(game_id, version, takebacks))
            if ends:
                for hook in self.at_end:
                    hook(conn, game_id, at)
            self._notify(conn, f"{game_id} {version}")
        self._announced(f"{game_id} {version}")

    # -- reading ---------------------------------------------------------------------------

    @contextlib.contextmanager
    def _snapshot(self) -> Iterator[Connection]:
        """A connection whose reads agree with each other: a game's row and its actions as
        one commit left them. READ COMMITTED (PostgreSQL's default) takes a snapshot per
        statement, and pysqlite runs each SELECT in a transaction of its own, so a move
        committed between the two reads would show in one and not the other, and a takeback
        could replace the actions read. So: on PostgreSQL one read-only REPEATABLE READ
        transaction; on SQLite one read transaction (WAL: a snapshot, writers go on)."""
        with self.engine.connect() as conn:
            if self.is_postgres:
                conn = conn.execution_options(isolation_level="REPEATABLE READ",
                                              postgresql_readonly=True)
                with conn.begin():
                    yield conn
            else:
                conn.exec_driver_sql("BEGIN")  # pysqlite would not begin one for a SELECT
                try:
                    yield conn
                finally:
                    conn.exec_driver_sql("COMMIT")

    def load(self, game_id: str) -> StoredGame | None:
        """The game's row and its actions, read together: never an action beyond the row's
        version (see :meth:`_snapshot`)."""
        with self._snapshot() as conn:
            r = conn.execute(select(games).where(games.c.id == game_id)).first()
            if r is None:
                return None
            moves = conn.execute(
                select(actions.c.action)
                .where(actions.c.game_id == game_id, actions.c.ply < r.version)
                .order_by(actions.c.ply)).scalars().all()
        return StoredGame(_row(r), r.token_hash, list(moves))

    @staticmethod
    def row_in(conn: Connection, game_id: str) -> GameRow | None:
        """A game's row as ``conn`` sees it (inside a transaction: with its own changes)."""
        r = conn.execute(select(games).where(games.c.id == game_id)).first()
        return None if r is None else _row(r)

    def rows(self, ids: list[str]) -> list[GameRow]:
        """The games with these ids, most recently played first."""
        if not ids:
            return []
        with self.engine.connect() as conn:
            found = conn.execute(
                select(games).where(games.c.id.in_(ids)).order_by(games.c.updated.desc()))
            return [_row(r) for r in found]

    def token_hashes(self, ids: list[str]) -> dict[str, str]:
        if not ids:
            return {}
        with self.engine.connect() as conn:
            found = conn.execute(select(games.c.id, games.c.token_hash)
                                 .where(games.c.id.in_(ids)))
            return {r.id: r.token_hash for r in found}

    def count(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(games)).scalar_one())

    def version(self, game_id: str) -> int | None:
        """The stored game's version (None: no such game): one indexed read."""
        found = self.head(game_id)
        return None if found is None else found.version

    def head(self, game_id: str) -> Head | None:
        """Where the stored game is: its version, takebacks and status (a status may change
        without an action: :meth:`mark`); None: no such game. One indexed read."""
        with self.engine.connect() as conn:
            r = conn.execute(select(games.c.version, games.c.takebacks, games.c.status)
                             .where(games.c.id == game_id)).first()
            return None if r is None else Head(int(r.version), int(r.takebacks), str(r.status))

    def since(self, game_id: str, ply: int) -> tuple[GameRow, list[str]] | None:
        """The game's row and its actions from number ``ply`` on, read together (one
        snapshot, so the row's version and the actions agree: :meth:`_snapshot`)."""
        with self._snapshot() as conn:
            r = conn.execute(select(games).where(games.c.id == game_id)).first()
            if r is None:
                return None
            moves = conn.execute(
                select(actions.c.action)
                .where(actions.c.game_id == game_id, actions.c.ply >= ply,
                       actions.c.ply < r.version)
                .order_by(actions.c.ply)).scalars().all()
        return _row(r), list(moves)

    def ping(self) -> None:
        """One round trip to the database; raises if it cannot be reached."""
        with self.engine.connect() as conn:
            conn.execute(select(func.count()).select_from(games).where(games.c.id == ""))

    # -- answers of the work queue ------------------------------------------------------------

    def put_answer(self, key: str, payload: str) -> None:
        """Store an answer (several servers may wait for it: it is kept for
        :data:`ANSWER_KEPT` seconds) and announce it."""
        now = time.time()
        with self._writing(), self.engine.begin() as conn:
            conn.execute(delete(answers).where((answers.c.key == key)
                                               | (answers.c.at < now - ANSWER_KEPT)))
            conn.execute(insert(answers).values(key=key, payload=payload, at=now))
            self._notify(conn, f"answer {key}")
        self._announced(f"answer {key}")

    def answer(self, key: str) -> str | None:
        """The answer stored under ``key`` (None: not yet)."""
        with self.engine.connect() as conn:
            found = conn.execute(select(answers.c.payload).where(answers.c.key == key))
            payload = found.scalar_one_or_none()
            return None if payload is None else str(payload)

    def claim_hint(self, game_id: str, takebacks: int, version: int, key: str, *,
                   expire_after: float, now: float | None = None) -> str | None:
        """Claim the game's one hint in flight for the decision at (``takebacks``,
        ``version``). Returns ``key`` when the claim is ours (ask a worker, answer under
        ``key``), the key of the hint already asked for this same decision (wait for its
        answer), or None while a hint for another decision is in flight. A claim older than
        ``expire_after`` seconds (its server gave up or died) is taken over."""
        at = time.time() if now is None else now
        for _attempt in range(3):  # two servers inserting at once: one loses, reads again
            try:
                with self._writing(), self.engine.begin() as conn:
                    held = conn.execute(select(hint_claims)
                                        .where(hint_claims.c.game_id == game_id)
                                        .with_for_update()).first()
                    mine = {"takebacks": takebacks, "version": version, "key": key,
                            "since": at}
                    if held is None:
                        conn.execute(insert(hint_claims).values(game_id=game_id, **mine))
                        return key
                    if held.since < at - expire_after:
                        conn.execute(update(hint_claims)
                                     .where(hint_claims.c.game_id == game_id).values(**mine))
                        return key
                    if (held.takebacks, held.version) == (takebacks, version):
                        return str(held.key)
                    return None
            except IntegrityError:
                continue
        raise StoreConflict(f"game {game_id}: the hint claim could not be settled")

    def release_hint(self, game_id: str, key: str) -> None:
        """End the claim ``key`` (its answer came, or its asker gave up)."""
        with self._writing(), self.engine.begin() as conn:
            conn.execute(delete(hint_claims).where(hint_claims.c.game_id == game_id,
                                                   hint_claims.c.key == key))


def _not_at(game_id: str, version: int, takebacks: int) -> str:
    return f"game {game_id} is not at version {version} after {takebacks} takebacks"


class _NoLock:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    # In WAL mode NORMAL writes each commit to the log before it returns (a killed server,
    # even ``kill -9``, loses nothing) and syncs at checkpoints; FULL also survives a power
    # cut, at one fsync per commit. PARLOR_SQLITE_SYNC=FULL chooses it.
    sync = os.environ.get("PARLOR_SQLITE_SYNC", "NORMAL").upper()
    cur.execute(f"PRAGMA synchronous={sync if sync in ('NORMAL', 'FULL', 'EXTRA') else 'NORMAL'}")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.close()


__all__ = ["CHANNEL", "GameRow", "GameStore", "Head", "StoreConflict", "StoredGame", "default_url",
           "libpq_url", "sqlalchemy_url"]
