"""Saved tournaments: each is its spec (teams, levels, settings, seed) and the steps taken, one
row per step, committed before the server goes on; its contests are ordinary saved games.

The tables are new and separate from the games' (nothing existing changes); the store's
migrations make them (:mod:`parlor.store.migrations`, revision 0003)::

    >>> from parlor.store import GameStore
    >>> ts = TournamentStore(GameStore("sqlite://"))
    >>> ts.insert("t1", "h", '{"teams": []}', "Cup", now=1.0)
    >>> ts.append("t1", 0, '{"do": "end"}', status="over", now=2.0)
    >>> got = ts.load("t1")
    >>> got.row.status, got.steps
    ('over', ['{"do": "end"}'])
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import Column, Float, Integer, MetaData, String, Table, Text, insert, select, update

from parlor.store.db import GameStore, StoreConflict

metadata = MetaData()

tournaments = Table(
    "tournaments",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("token_hash", String(64), nullable=False),
    Column("title", String(200), nullable=False),
    Column("spec", Text, nullable=False),  # JSON: teams, levels, settings, seed, the person
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("version", Integer, nullable=False, default=0),  # number of steps stored
    Column("status", String(16), nullable=False, default="live"),  # live | over
)

steps = Table(
    "tournament_steps",
    metadata,
    Column("tournament_id", String(32), primary_key=True),
    Column("n", Integer, primary_key=True),  # 0-based
    Column("step", Text, nullable=False),  # JSON
    Column("at", Float, nullable=False),
)

contests = Table(
    "tournament_games",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("tournament_id", String(32), nullable=False, index=True),
)


@dataclass(frozen=True, slots=True)
class TournamentRow:
    id: str
    title: str
    spec: str
    created: float
    updated: float
    version: int
    status: str


@dataclass(frozen=True, slots=True)
class StoredTournament:
    row: TournamentRow
    token_hash: str
    steps: list[str] = field(default_factory=list)


class TournamentStore:
    """Tournaments in the same database as the games (:class:`GameStore`'s engine)."""

    def __init__(self, games: GameStore) -> None:
        self.engine = games.engine  # migrated by the GameStore: the tables are there

    def insert(self, tid: str, token_hash: str, spec: str, title: str, now: float) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(tournaments).values(
                id=tid, token_hash=token_hash, title=title, spec=spec, created=now,
                updated=now, version=0, status="live"))

    def append(self, tid: str, n: int, step: str, *, status: str, now: float,
               games: tuple[str, ...] = ()) -> None:
        """Commit step number ``n`` (and the contests it creates); StoreConflict unless the
        stored tournament holds exactly ``n`` steps."""
        with self.engine.begin() as conn:
            done = conn.execute(update(tournaments)
                                .where(tournaments.c.id == tid, tournaments.c.version == n)
                                .values(version=n + 1, status=status, updated=now))
            if done.rowcount != 1:
                raise StoreConflict(f"tournament {tid} is not at step {n}")
            conn.execute(insert(steps).values(tournament_id=tid, n=n, step=step, at=now))
            if games:
                conn.execute(insert(contests), [{"game_id": g, "tournament_id": tid}
                                                for g in games])

    def load(self, tid: str) -> StoredTournament | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(tournaments).where(tournaments.c.id == tid)).first()
            if r is None:
                return None
            found = conn.execute(select(steps.c.step).where(steps.c.tournament_id == tid)
                                 .order_by(steps.c.n)).scalars().all()
        row = TournamentRow(r.id, r.title, r.spec, r.created, r.updated, r.version, r.status)
        return StoredTournament(row, r.token_hash, list(found))

    def live_ids(self) -> list[str]:
        with self.engine.connect() as conn:
            return list(conn.execute(select(tournaments.c.id)
                                     .where(tournaments.c.status == "live")).scalars())

    def token_hashes(self, ids: list[str]) -> dict[str, str]:
        if not ids:
            return {}
        with self.engine.connect() as conn:
            found = conn.execute(select(tournaments.c.id, tournaments.c.token_hash)
                                 .where(tournaments.c.id.in_(ids)))
            return {r.id: r.token_hash for r in found}

    def rows(self, ids: list[str]) -> list[TournamentRow]:
        if not ids:
            return []
        with self.engine.connect() as conn:
            found = conn.execute(select(tournaments).where(tournaments.c.id.in_(ids))
                                 .order_by(tournaments.c.updated.desc()))
            return [TournamentRow(r.id, r.title, r.spec, r.created, r.updated, r.version,
                                  r.status) for r in found]

    def tournament_of(self, game_id: str) -> str | None:
        """The tournament a game is a contest of, if any."""
        with self.engine.connect() as conn:
            found = conn.execute(select(contests.c.tournament_id)
                                 .where(contests.c.game_id == game_id)).scalar()
            return None if found is None else str(found)


__all__ = ["StoredTournament", "TournamentRow", "TournamentStore"]
