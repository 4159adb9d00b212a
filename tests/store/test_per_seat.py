"""Each player's own record of a friend game in the store (issue 45, migration 0014) on
SQLite and PostgreSQL: a database at 0013 upgrades in place keeping its analyses and rating
history; then each seat of a game has its own analysis and each account its own point of a
game; a downgrade keeps what the older key can hold."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from alembic import command

from parlor.rules.glicko import Rating
from parlor.store import GameStore, sqlalchemy_url
from parlor.store.accounts import Accounts, RatingPoint
from parlor.store.migrate import HEAD, _config, current, upgrade

GAME = ("INSERT INTO games (id, kind, token_hash, human, level, seed, deal, settings, "
        "created, updated, version, takebacks, turn, status, result, title) VALUES "
        "('g1', 'friend', 'h', 1, 'friend', 7, '', 'max_turns=200', 1, 2, 9, 0, 3, 'over', "
        "'Rlr 1 wins', 't')")
ANALYSIS = ("INSERT INTO analyses (game_id, seed, iterations, player, status, takebacks, "
            "version, done, total, result, error, updated) VALUES "
            "('g1', 0, 8, {player}, 'done', 0, 9, 2, 2, '[]', '', 3)")
ACCOUNT = "INSERT INTO accounts (id, username, name_key, created) VALUES ('{a}', '{a}', '{a}', 1)"
POINT = ("INSERT INTO rating_history (game_id, account_id, mode, n, level, opponent, score, "
         "rating, rd, volatility, at) VALUES ('g1', '{a}', 'match', 1, 'novice', 1400, 1, "
         "1600, 200, 0.06, 4)")


def at_0013(db_url: str) -> sa.Engine:
    """The database at 0013 (the PostgreSQL fixture's is at the newest: down it goes)."""
    engine = sa.create_engine(sqlalchemy_url(db_url))
    upgrade(engine, "0013")
    with engine.connect() as conn:
        command.downgrade(_config(conn), "0013")
        conn.commit()
    return engine


def test_a_database_at_0013_upgrades_keeping_its_analyses_and_ratings(db_url: str) -> None:
    engine = at_0013(db_url)
    with engine.begin() as conn:
        for sql in (GAME, ANALYSIS.format(player=1), ACCOUNT.format(a="ann"),
                    POINT.format(a="ann")):
            conn.execute(sa.text(sql))
    engine.dispose()
    store = GameStore(db_url)
    assert current(store.engine) == HEAD
    assert store.analysis("g1", 1) is not None and store.analysis("g1", 1)["done"] == 2
    assert store.analysis("g1", 0) is None
    point, = Accounts(store).history("ann")
    assert (point.game_id, point.opponent_account, point.opponent_name) == ("g1", None, None)
    store.close()


def test_each_seat_has_its_own_analysis_and_each_account_its_own_point(db_url: str) -> None:
    engine = at_0013(db_url)
    with engine.begin() as conn:
        conn.execute(sa.text(GAME))
    engine.dispose()
    store = GameStore(db_url)
    store.put_analysis("g1", 0, seed=0, iterations=8, status="running", done=0, total=3,
                       result="", error="", takebacks=0, version=9)
    store.put_analysis("g1", 1, seed=5, iterations=8, status="done", done=2, total=2,
                       result="[]", error="", takebacks=0, version=9)
    store.put_analysis("g1", 0, done=1)  # one seat's progress leaves the other's alone
    mine, theirs = store.analysis("g1", 0), store.analysis("g1", 1)
    assert mine is not None and theirs is not None
    assert (mine["done"], mine["status"], mine["seed"]) == (1, "running", 0)
    assert (theirs["done"], theirs["status"], theirs["seed"]) == (2, "done", 5)
    accounts = Accounts(store)
    ann, bob = accounts.create("ann"), accounts.create("bob")
    with store.engine.begin() as conn:
        for me, other, score in ((ann.id, bob.id, 1.0), (bob.id, ann.id, 0.0)):
            accounts.record_in(conn, me, RatingPoint("g1", "match", 1, "friend", 1500.0,
                                                     score, Rating(), 5.0, other))
    assert [(p.score, p.opponent_name) for p in accounts.history(ann.id)] == [(1.0, "bob")]
    assert [(p.score, p.opponent_name) for p in accounts.history(bob.id)] == [(0.0, "ann")]
    with pytest.raises(sa.exc.IntegrityError), store.engine.begin() as conn:  # once each
        accounts.record_in(conn, ann.id, RatingPoint("g1", "match", 2, "friend", 1500.0,
                                                     1.0, Rating(), 6.0, bob.id))
    store.close()


def test_a_downgrade_to_0013_keeps_the_games_human_analysis_and_computer_points(
        db_url: str) -> None:
    engine = at_0013(db_url)
    with engine.begin() as conn:
        conn.execute(sa.text(GAME))
    engine.dispose()
    store = GameStore(db_url)
    for player in (0, 1):
        store.put_analysis("g1", player, seed=0, iterations=8, status="done", done=1,
                           total=1, result="[]", error="", takebacks=0, version=9)
    accounts = Accounts(store)
    ann, bob = accounts.create("ann"), accounts.create("bob")
    with store.engine.begin() as conn:
        accounts.record_in(conn, ann.id, RatingPoint("g1", "match", 1, "friend", 1500.0,
                                                     1.0, Rating(), 5.0, bob.id))
    with store.engine.connect() as conn:
        command.downgrade(_config(conn), "0013")
        conn.commit()
        players = conn.execute(sa.text("SELECT player FROM analyses")).scalars().all()
        points = conn.execute(sa.text("SELECT count(*) FROM rating_history")).scalar_one()
    assert players == [1] and points == 0  # the game's human (the inviter) keeps theirs
    store.close()
    again = GameStore(db_url)  # and up again
    assert current(again.engine) == HEAD and again.analysis("g1", 1) is not None
    again.close()
