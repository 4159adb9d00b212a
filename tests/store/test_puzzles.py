"""Puzzle ratings in the store (issue 44, migration 0011) on SQLite and PostgreSQL: an older
database gains the tables in place; a player's first attempt at a puzzle moves both ratings
(Glicko-2) and a second counts no more; an account's rating is kept, and goes with the
account; two attempts rated from the same reading of a puzzle do not lose one."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command

from parlor.rules.glicko import Game, Rating, rate
from parlor.store import GameStore, sqlalchemy_url
from parlor.store.accounts import Accounts
from parlor.store.migrate import HEAD, _config, current, upgrade
from parlor.store.puzzles import PuzzleRatings, _Moved, _put, account_player, puzzle_ratings

TABLES = {"puzzle_ratings", "puzzle_players", "puzzle_attempts"}
SHIPPED = Rating(1600, 90)


def test_a_database_at_0010_gains_the_puzzle_tables_in_place(db_url: str) -> None:
    engine = sa.create_engine(sqlalchemy_url(db_url))
    upgrade(engine, "0010")
    with engine.connect() as conn:  # the PostgreSQL fixture's database is at the newest
        command.downgrade(_config(conn), "0010")
        conn.commit()
    assert not TABLES & set(sa.inspect(engine).get_table_names())
    engine.dispose()
    store = GameStore(db_url)
    assert current(store.engine) == HEAD
    assert set(sa.inspect(store.engine).get_table_names()) >= TABLES
    store.close()


def test_a_first_attempt_rates_both_and_a_second_counts_no_more(db_url: str) -> None:
    store = GameStore(db_url)
    ratings = PuzzleRatings(store)
    me = Rating(1450, 120, 0.06)
    got = ratings.record("b:browser-1", "p0001", False, start=me, shipped=SHIPPED, now=1.0)
    assert got is not None
    assert got.player == rate(me, [Game(SHIPPED, 0.0)])
    assert got.puzzle == rate(SHIPPED, [Game(me, 1.0)])
    assert ratings.puzzles() == {"p0001": got.puzzle}
    assert ratings.record("b:browser-1", "p0001", True, start=me, shipped=SHIPPED) is None
    assert ratings.attempted("b:browser-1") == {"p0001": False}
    # another player starts from the puzzle's stored rating, not the shipped one
    other = ratings.record("b:browser-2", "p0001", True, start=me, shipped=SHIPPED)
    assert other is not None and other.puzzle == rate(got.puzzle, [Game(me, 0.0)])
    with store.engine.connect() as conn:
        row = conn.execute(sa.select(puzzle_ratings)).one()
    assert (row.attempts, row.solved) == (2, 1)
    store.close()


def test_an_accounts_rating_is_kept_and_deleted_with_the_account(db_url: str) -> None:
    store = GameStore(db_url)
    ratings, accounts = PuzzleRatings(store), Accounts(store)
    ann = accounts.create("ann")
    key = account_player(ann.id)
    one = ratings.record(key, "p0001", True, start=Rating(), shipped=SHIPPED,
                         account_id=ann.id)
    assert one is not None and ratings.account(ann.id) == one.player
    # the next attempt starts from the kept rating, whatever start says
    two = ratings.record(key, "p0002", True, start=Rating(3000), shipped=SHIPPED,
                         account_id=ann.id)
    assert two is not None and two.player == rate(one.player, [Game(SHIPPED, 1.0)])
    accounts.delete(ann.id, games_too=True)
    assert ratings.account(ann.id) is None and ratings.attempted(key) == {}
    store.close()


def test_an_attempt_rated_from_a_stale_reading_is_retried(db_url: str) -> None:
    """Another server rated the puzzle between this attempt's reading and its write: the
    update matches no row (the attempts count moved), nothing of the attempt is kept, and it
    is rated again from a new reading."""
    store = GameStore(db_url)
    ratings = PuzzleRatings(store)
    ratings.record("b:one", "p0001", True, start=Rating(), shipped=SHIPPED)
    with store.engine.begin() as conn:
        stale = conn.execute(sa.select(puzzle_ratings)).one()
        conn.execute(sa.update(puzzle_ratings).values(attempts=stale.attempts + 1))
        with pytest.raises(_Moved):
            _put(conn, puzzle_ratings, puzzle_ratings.c.puzzle_id, "p0001", stale, Rating(),
                 True, 2.0)
    real = ratings._record
    tries = []

    def first_one_stale(*args: Any) -> Any:
        tries.append(1)
        if len(tries) == 1:
            real(*args)  # written, then rolled back with the transaction
            raise _Moved
        return real(*args)

    ratings._record = first_one_stale  # type: ignore[method-assign,assignment]
    got = ratings.record("b:three", "p0001", False, start=Rating(), shipped=SHIPPED)
    assert got is not None and len(tries) == 2
    assert ratings.attempted("b:three") == {"p0001": False}
    with store.engine.connect() as conn:
        assert conn.execute(sa.select(puzzle_ratings.c.attempts)).scalar_one() == 3
    store.close()
