"""Puzzle ratings (issue 44, migration 0011): each puzzle's Glicko-2 rating, each account's
puzzle rating, and each player's first attempt at each puzzle.

Only a player's first attempt at a puzzle is rated, and it is recorded in the same
transaction as both new ratings, so a result sent twice, a second try or a look at the
solution before trying counts once. A player is ``a:<account id>`` (whose rating is kept
here) or ``b:<browser id>`` (an anonymous browser, which keeps its own rating and sends it).
Two players rating the same puzzle at once: the puzzle's row is updated only from the
number of attempts it was read at, and the loser of that race retries::

    >>> from parlor.store import GameStore
    >>> ratings = PuzzleRatings(GameStore("sqlite://"))
    >>> r = ratings.record("b:browser-1", "p0001", True, start=Rating(),
    ...                    shipped=Rating(1500, 350), now=1.0)
    >>> round(r.player.rating), round(r.puzzle.rating)
    (1662, 1338)
    >>> ratings.record("b:browser-1", "p0001", False, start=Rating(),
    ...                shipped=Rating(1500, 350)) is None
    True
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from parlor.rules.glicko import Game, Rating, rate
from parlor.store.db import GameStore

metadata = MetaData()


def _rating_columns() -> list[Column[Any]]:
    return [Column("rating", Float, nullable=False), Column("rd", Float, nullable=False),
            Column("volatility", Float, nullable=False),
            Column("attempts", Integer, nullable=False),
            Column("solved", Integer, nullable=False), Column("updated", Float, nullable=False)]


#: The tables of migration 0011.
puzzle_ratings = Table("puzzle_ratings", metadata,
                       Column("puzzle_id", String(32), primary_key=True), *_rating_columns())
puzzle_players = Table("puzzle_players", metadata,
                       Column("account_id", String(32), ForeignKey("accounts.id"),
                              primary_key=True), *_rating_columns())
puzzle_attempts = Table(
    "puzzle_attempts", metadata,
    Column("player", String(64), primary_key=True),  # a:<account id> | b:<browser id>
    Column("puzzle_id", String(32), primary_key=True),
    Column("solved", Integer, nullable=False),
    Column("at", Float, nullable=False),
)

#: Tries of one rating before giving up on a puzzle that many players rate at once.
RETRIES = 8


class PuzzleRatingConflict(RuntimeError):
    """The puzzle's rating kept changing under this attempt (:data:`RETRIES` times)."""


class _Moved(Exception):
    """A row changed since it was read: try again."""


@dataclass(frozen=True, slots=True)
class Rated:
    """The ratings after one rated attempt."""

    player: Rating
    puzzle: Rating


def _rating(r: Any) -> Rating:
    return Rating(float(r.rating), float(r.rd), float(r.volatility))


def account_player(account_id: str) -> str:
    return f"a:{account_id}"


class PuzzleRatings:
    """The puzzle ratings of every server on one database (its GameStore migrated them)."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.engine = store.engine

    def puzzles(self, ids: Iterable[str] | None = None) -> dict[str, Rating]:
        """The stored ratings of these puzzles (all when None); a puzzle nobody tried yet
        is absent (its rating is the shipped one)."""
        query = select(puzzle_ratings)
        if ids is not None:
            query = query.where(puzzle_ratings.c.puzzle_id.in_(list(ids)))
        with self.engine.connect() as conn:
            return {str(r.puzzle_id): _rating(r) for r in conn.execute(query)}

    def account(self, account_id: str) -> Rating | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(puzzle_players)
                             .where(puzzle_players.c.account_id == account_id)).first()
        return None if r is None else _rating(r)

    def attempted(self, player: str) -> dict[str, bool]:
        """The puzzles ``player`` has tried, and whether the first try solved it."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(puzzle_attempts.c.puzzle_id, puzzle_attempts.c.solved)
                                .where(puzzle_attempts.c.player == player))
            return {str(r.puzzle_id): bool(r.solved) for r in rows}

    def record(self, player: str, puzzle_id: str, solved: bool, *, start: Rating,
               shipped: Rating, account_id: str | None = None,
               now: float | None = None) -> Rated | None:
        """Rate ``player``'s first attempt at the puzzle: both ratings move (Glicko-2, one
        game each way). ``start`` is the player's rating when none is stored (an anonymous
        browser's own), ``shipped`` the puzzle's (the shipped set's). None: not the first attempt,
        nothing changes. With ``account_id`` the player's rating is the account's, kept
        here."""
        at = time.time() if now is None else now
        for _ in range(RETRIES):
            try:
                with self.store._writing(), self.engine.begin() as conn:
                    return self._record(conn, player, puzzle_id, solved, start, shipped,
                                        account_id, at)
            except (_Moved, IntegrityError):
                continue
        raise PuzzleRatingConflict(f"the rating of {puzzle_id} kept changing: try again")

    def _record(self, conn: Connection, who: str, puzzle_id: str, solved: bool,
                start: Rating, shipped: Rating, account_id: str | None,
                at: float) -> Rated | None:
        seen = conn.execute(select(puzzle_attempts.c.solved).where(
            puzzle_attempts.c.player == who, puzzle_attempts.c.puzzle_id == puzzle_id)).first()
        if seen is not None:
            return None
        conn.execute(insert(puzzle_attempts).values(player=who, puzzle_id=puzzle_id,
                                                    solved=int(solved), at=at))
        p_row = conn.execute(select(puzzle_ratings)
                             .where(puzzle_ratings.c.puzzle_id == puzzle_id)).first()
        p_old = shipped if p_row is None else _rating(p_row)
        a_row = None
        if account_id is not None:
            a_row = conn.execute(select(puzzle_players)
                                 .where(puzzle_players.c.account_id == account_id)).first()
        me_old = start if a_row is None else _rating(a_row)
        score = 1.0 if solved else 0.0
        me_new = rate(me_old, [Game(p_old, score)])
        p_new = rate(p_old, [Game(me_old, 1.0 - score)])
        _put(conn, puzzle_ratings, puzzle_ratings.c.puzzle_id, puzzle_id, p_row, p_new,
             solved, at)
        if account_id is not None:
            _put(conn, puzzle_players, puzzle_players.c.account_id, account_id, a_row,
                 me_new, solved, at)
        return Rated(me_new, p_new)



def forget_account(conn: Connection, account_id: str) -> None:
    """Inside the deletion of an account: its puzzle rating and attempts."""
    conn.execute(delete(puzzle_players).where(puzzle_players.c.account_id == account_id))
    conn.execute(delete(puzzle_attempts)
                 .where(puzzle_attempts.c.player == account_player(account_id)))


def _put(conn: Connection, table: Table, key: Any, key_value: str, old: Any, new: Rating,
         solved: bool, at: float) -> None:
    """Write a new rating: insert the first, else update it only from the attempts count it
    was read at (_Moved when another attempt was rated meanwhile)."""
    values = {"rating": new.rating, "rd": new.rd, "volatility": new.volatility,
              "updated": at}
    if old is None:
        conn.execute(insert(table).values({key.name: key_value, **values, "attempts": 1,
                                           "solved": int(solved)}))
        return
    done = conn.execute(update(table).where(key == key_value,
                                            table.c.attempts == old.attempts)
                        .values(**values, attempts=old.attempts + 1,
                                solved=old.solved + int(solved)))
    if done.rowcount != 1:
        raise _Moved


__all__ = ["PuzzleRatingConflict", "PuzzleRatings", "Rated", "account_player", "forget_account",
           "puzzle_attempts", "puzzle_players", "puzzle_ratings"]
