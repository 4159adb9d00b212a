"""The accounts store (issue 43, migration 0009) on SQLite and PostgreSQL: an older database
gains the tables in place; names are unique without case; sessions are kept hashed and end
one by one or all at once; a game is held by one account; a rated game counts once; failed
sign-ins are counted per key in a window; deleting an account anonymises or deletes its
games."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command

from parlor.rules.glicko import Rating
from parlor.store import GameRow, GameStore, sqlalchemy_url
from parlor.store.accounts import (
    SESSION_IDLE,
    Accounts,
    Ceremony,
    NameTaken,
    RatingConflict,
    RatingPoint,
    session_hash,
)
from parlor.store.migrate import HEAD, _config, current, upgrade

TABLES = {"accounts", "credentials", "sessions", "account_games", "ratings", "rating_history",
          "login_failures", "passkey_challenges"}


def game(gid: str) -> GameRow:
    return GameRow(gid, "play", 0, "novice", 7, "max_turns=200", 1.0)


@pytest.fixture
def store(db_url: str) -> GameStore:
    return GameStore(db_url)


def test_a_database_at_0008_upgrades_in_place_and_keeps_its_games(db_url: str) -> None:
    engine = sa.create_engine(sqlalchemy_url(db_url))
    upgrade(engine, "0008")
    with engine.connect() as conn:  # the PostgreSQL fixture's database is at the newest
        command.downgrade(_config(conn), "0008")
        conn.commit()
    assert not TABLES & set(sa.inspect(engine).get_table_names())
    with engine.begin() as conn:
        conn.execute(sa.text("INSERT INTO games (id, kind, token_hash, human, level, seed, "
                             "deal, settings, created, updated, version, takebacks, turn, "
                             "status, result, title) VALUES ('g1', 'play', 'h', 0, 'novice', "
                             "7, '', 'max_turns=200', 1, 2, 0, 0, 1, 'live', '', 't')"))
    engine.dispose()
    store = GameStore(db_url)
    assert current(store.engine) == HEAD == "0012"
    assert set(sa.inspect(store.engine).get_table_names()) >= TABLES
    assert store.load("g1") is not None
    store.close()


def test_names_are_unique_without_case(store: GameStore) -> None:
    accounts = Accounts(store)
    ann = accounts.create("Ann")
    with pytest.raises(NameTaken):
        accounts.create("aNN")
    assert accounts.by_name(" ann ") == ann
    assert accounts.by_name("bob") is None


def test_a_session_is_stored_only_hashed_and_ends_alone_or_with_all(store: GameStore) -> None:
    accounts = Accounts(store)
    ann = accounts.create("ann")
    one, two = accounts.new_session(ann.id), accounts.new_session(ann.id)
    assert one != two and accounts.session(one) == ann == accounts.session(two)
    with store.engine.connect() as conn:
        kept = set(conn.execute(sa.text("SELECT id_hash FROM sessions")).scalars())
    assert kept == {session_hash(one), session_hash(two)} and one not in kept
    accounts.end_session(one)
    assert accounts.session(one) is None and accounts.session(two) == ann
    accounts.new_session(ann.id)
    accounts.end_all(ann.id)
    assert accounts.session(two) is None and accounts.session_count(ann.id) == 0


def test_a_session_idle_too_long_is_no_session(store: GameStore) -> None:
    accounts = Accounts(store)
    ann = accounts.create("ann", now=0.0)
    sid = accounts.new_session(ann.id, now=0.0)
    assert accounts.session(sid, now=SESSION_IDLE - 1) == ann
    assert accounts.session(sid, now=2 * SESSION_IDLE) is None
    assert accounts.session("never-issued") is None


def test_a_game_is_held_by_one_account(store: GameStore) -> None:
    accounts = Accounts(store)
    ann, bob = accounts.create("ann"), accounts.create("bob")
    assert accounts.hold(ann.id, "g1", "sealed", rated=True)
    assert not accounts.hold(bob.id, "g1", "other", rated=False)
    assert [h.game_id for h in accounts.held(ann.id)] == ["g1"] and accounts.held(bob.id) == []
    assert accounts.holder("g1") == ann.id


def test_a_rated_game_counts_once_and_ratings_advance_in_order(store: GameStore) -> None:
    accounts = Accounts(store)
    ann = accounts.create("ann")

    def point(gid: str, n: int, r: float) -> RatingPoint:
        return RatingPoint(gid, "match", n, "novice", 1000.0, 1.0, Rating(r, 300, 0.06), 5.0)

    accounts.record_rating(ann.id, point("g1", 1, 1600))
    with pytest.raises(RatingConflict):
        accounts.record_rating(ann.id, point("g1", 2, 1700))  # the same game again
    with pytest.raises(RatingConflict):
        accounts.record_rating(ann.id, point("g2", 1, 1700))  # a stale count
    accounts.record_rating(ann.id, point("g2", 2, 1650))
    assert accounts.rating(ann.id, "match") == (Rating(1650, 300, 0.06), 2)
    assert [p.game_id for p in accounts.history(ann.id)] == ["g1", "g2"]
    assert accounts.counted(["g1", "g2", "g3"]) == {"g1", "g2"}
    assert accounts.rating(ann.id, "casual") is None


def test_failures_are_counted_per_key_within_a_window(store: GameStore) -> None:
    accounts = Accounts(store)
    for t in range(3):
        accounts.fail("name:ann", window=100, now=float(t))
    assert accounts.failures("name:ann", window=100, now=50) == 3
    assert accounts.failures("addr:1.2.3.4", window=100, now=50) == 0
    assert accounts.failures("name:ann", window=100, now=150) == 0  # the window ran out
    accounts.fail("name:ann", window=100, now=150)
    assert accounts.failures("name:ann", window=100, now=151) == 1
    accounts.forgive("name:ann")
    assert accounts.failures("name:ann", window=100, now=151) == 0


@pytest.mark.parametrize("games_too", [False, True])
def test_deleting_an_account_anonymises_or_deletes_its_games(store: GameStore,
                                                              games_too: bool) -> None:
    accounts = Accounts(store)
    ann = accounts.create("ann")
    store.insert(game("g1"), "h", ["keep 9D"])
    store.insert(game("g2"), "h")
    accounts.hold(ann.id, "g1", "s", rated=False)
    accounts.set_password(ann.id, "$argon2id$...")
    sid = accounts.new_session(ann.id)
    gone = accounts.delete(ann.id, games_too=games_too)
    assert accounts.by_name("ann") is None and accounts.session(sid) is None
    assert accounts.password_hash(ann.id) is None and accounts.holder("g1") is None
    assert gone == (["g1"] if games_too else [])
    assert (store.load("g1") is None) == games_too
    assert store.load("g2") is not None  # never the account's
    accounts.create("ann")  # the name is free again


def test_a_passkey_ceremony_is_used_once_and_runs_out(store: GameStore) -> None:
    accounts = Accounts(store)
    ceremony = Ceremony("signup", "a1", "ann", "Y2hhbGxlbmdl")
    cid = accounts.begin_ceremony(ceremony, seconds=60, now=0.0)
    assert accounts.take_ceremony(cid, now=1.0) == ceremony
    assert accounts.take_ceremony(cid, now=2.0) is None
    late = accounts.begin_ceremony(ceremony, seconds=60, now=0.0)
    assert accounts.take_ceremony(late, now=61.0) is None


def test_passkey_sign_count_moves_only_from_the_count_read(tmp_path: Path) -> None:
    accounts = Accounts(GameStore(f"sqlite:///{tmp_path / 'a.db'}"))
    ann = accounts.create("ann")
    accounts.add_passkey(ann.id, "cred1", "pk", 0)
    assert accounts.passkey("cred1") == (ann.id, "pk", 0)
    assert accounts.count_passkey_use("cred1", 0, 1)
    assert not accounts.count_passkey_use("cred1", 0, 1)
    assert accounts.passkey_ids(ann.id) == ["cred1"]


def test_an_account_and_its_password_hash_are_read_in_one_query(store: GameStore) -> None:
    accounts = Accounts(store)
    ann, bob = accounts.create("ann"), accounts.create("bob")
    accounts.set_password(ann.id, "$argon2id$ann")
    accounts.add_passkey(bob.id, "cred", "pk", 0)  # a passkey is no password
    assert accounts.with_password("ANN") == (ann, "$argon2id$ann")
    assert accounts.with_password("bob") == (bob, None)
    assert accounts.with_password("nobody") == (None, None)
