"""The games store on SQLite and PostgreSQL: migrations (an old ``parlor.db`` upgrades in
place), one accepted action per version however many processes race for it, and the
``NOTIFY`` that tells other servers of each commit."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

import psycopg
import pytest
import sqlalchemy as sa

from parlor.store import CHANNEL, GameRow, GameStore, StoreConflict, libpq_url
from parlor.store.db import metadata
from parlor.store.migrate import HEAD, current


def row(gid: str = "g1") -> GameRow:
    return GameRow(gid, "play", 0, "random", 7, "max_turns=200", 1.0)


def test_an_old_parlor_db_upgrades_in_place(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'parlor.db'}"
    engine = sa.create_engine(url)
    old = sa.MetaData()  # the schema before migrations: create_all of games and actions
    sa.Table("games", old, *(sa.Column(c.name, c.type, primary_key=c.primary_key)
                             for c in metadata.tables["games"].columns
                             if c.name not in ("deal", "takebacks")))  # later: 0005, 0008
    metadata.tables["actions"].to_metadata(old)
    old.create_all(engine)
    with engine.begin() as conn:
        conn.execute(sa.text("INSERT INTO games VALUES ('g1', 'play', 'h', 0, 'random', 7, "
                             "'max_turns=200', 1, 2, 1, 1, 'live', '', 'You against random')"))
        conn.execute(sa.text("INSERT INTO actions VALUES ('g1', 0, 'keep 9D', 2)"))
    engine.dispose()
    store = GameStore(url)
    assert current(store.engine) == HEAD
    got = store.load("g1")
    assert got is not None and got.actions == ["keep 9D"] and got.row.version == 1
    store.append("g1", 1, "keep 3S", turn=1, status="live", result="")
    store.close()
    again = GameStore(url)  # a second start migrates nothing
    assert again.load("g1").actions == ["keep 9D", "keep 3S"]  # type: ignore[union-attr]
    assert {"deal", "takebacks"} <= {c["name"]
                                     for c in sa.inspect(again.engine).get_columns("games")}
    again.close()


def test_a_new_database_is_at_the_newest_schema(db_url: str) -> None:
    store = GameStore(db_url)
    assert current(store.engine) == HEAD
    assert {"games", "actions", "answers", "tournaments", "tournament_steps",
            "tournament_games", "analyses"} <= set(sa.inspect(store.engine).get_table_names())
    store.close()


def test_a_start_that_migrates_nothing_says_nothing_and_a_migration_says_its_steps(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """`make run` on an up-to-date database: the server's address, not Alembic's chatter."""
    url = f"sqlite:///{tmp_path / 'parlor.db'}"
    with caplog.at_level(logging.INFO):
        GameStore(url).close()  # a new database: every migration, each one a line
        steps = [r.getMessage() for r in caplog.records if r.name.startswith("alembic")]
        assert any(m.startswith("Running upgrade") for m in steps), steps
        caplog.clear()
        GameStore(url).close()  # at the newest schema already
        assert [r.getMessage() for r in caplog.records if r.name.startswith("alembic")] == []


def test_of_racing_writers_exactly_one_commits_each_version(db_url: str) -> None:
    """The guarantee behind "two servers never both accept one move"."""
    stores = [GameStore(db_url) for _ in range(2)]  # as two server processes would
    stores[0].insert(row(), "h")
    wins: list[int] = []
    conflicts: list[int] = []
    start = threading.Barrier(10)

    def write(i: int) -> None:
        start.wait()
        try:
            stores[i % 2].append("g1", 0, f"keep {i}C", turn=1, status="live", result="")
            wins.append(i)
        except StoreConflict:
            conflicts.append(i)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(wins) == 1 and len(conflicts) == 9
    got = stores[1].load("g1")
    assert got is not None and got.actions == [f"keep {wins[0]}C"] and got.row.version == 1
    for s in stores:
        s.close()


def test_since_reads_the_row_and_the_new_actions_together(db_url: str) -> None:
    store = GameStore(db_url)
    store.insert(row(), "h", ["keep 9D", "keep 3S"])
    store.append("g1", 2, "trim 4H", turn=1, status="live", result="")
    found = store.since("g1", 1)
    assert found is not None
    assert found[0].version == 3 and found[1] == ["keep 3S", "trim 4H"]
    assert store.version("g1") == 3 and store.version("nope") is None
    store.close()


@pytest.mark.slow
def test_each_commit_is_announced_to_listeners(pg_url: str) -> None:
    store = GameStore(pg_url)
    store.insert(row(), "h")
    with psycopg.connect(libpq_url(pg_url), autocommit=True) as conn:
        conn.execute(f"LISTEN {CHANNEL}")
        store.append("g1", 0, "keep 9D", turn=1, status="live", result="")
        with pytest.raises(StoreConflict):  # a refused write announces nothing
            store.append("g1", 0, "keep 3S", turn=1, status="live", result="")
        heard = [n.payload for n in conn.notifies(timeout=2.0)]
    assert heard == ["g1 1"]
    store.close()


def test_a_commit_of_several_actions_stores_each_at_its_ply(db_url: str) -> None:
    """``append_many`` (a declaration and the decision that ends it): every action at its
    place, or none of them when the game is not at the version the writer expected."""
    store = GameStore(db_url)
    store.insert(row(), "h", ["keep 9D"])
    store.append_many("g1", 1, ["attack 1:KS", "attack 1:QS", "done"], turn=2,
                      status="live", result="")
    with pytest.raises(StoreConflict):
        store.append_many("g1", 1, ["pass", "pass"], turn=2, status="live", result="")
    got = store.load("g1")
    assert got is not None and got.row.version == 4 and got.row.turn == 2
    assert got.actions == ["keep 9D", "attack 1:KS", "attack 1:QS", "done"]
    store.close()


@pytest.mark.slow
@pytest.mark.parametrize("announced", ["notify", "redis"])
def test_an_actions_transaction_on_postgresql_is_one_statement(pg_url: str,
                                                              announced: str) -> None:
    """Issue 38 (at most 5 statements an action): BEGIN, the version's UPDATE with the
    action's INSERT (and the NOTIFY, unless the wake-ups go to Redis), COMMIT; nothing is
    announced, by NOTIFY or otherwise, for a refused write."""
    from sqlalchemy import event

    store = GameStore(pg_url)
    heard: list[str] = []
    if announced == "redis":
        store.announce = heard.append
    store.insert(row(), "h")
    sent: list[str] = []
    event.listen(store.engine, "before_cursor_execute",
                 lambda _c, _cur, statement, *_a: sent.append(statement))
    event.listen(store.engine, "begin", lambda _c: sent.append("BEGIN"))
    event.listen(store.engine, "commit", lambda _c: sent.append("COMMIT"))
    with psycopg.connect(libpq_url(pg_url), autocommit=True) as conn:
        conn.execute(f"LISTEN {CHANNEL}")
        store.append("g1", 0, "keep 9D", turn=1, status="live", result="")
        assert len(sent) == 3 and sent[0] == "BEGIN" and sent[2] == "COMMIT", sent
        with pytest.raises(StoreConflict):
            store.append("g1", 0, "keep 3S", turn=1, status="live", result="")
        notified = [n.payload for n in conn.notifies(timeout=1.0)]
    assert (notified, heard) == ((["g1 1"], []) if announced == "notify" else ([], ["g1 1"]))
    got = store.load("g1")
    assert got is not None and got.actions == ["keep 9D"] and got.row.version == 1
    store.close()


@pytest.mark.slow
def test_a_commit_of_several_actions_is_announced_once(pg_url: str) -> None:
    """The NOTIFY rides on the game row's UPDATE: one per commit, however many actions."""
    store = GameStore(pg_url)
    store.insert(row(), "h")
    with psycopg.connect(libpq_url(pg_url), autocommit=True) as conn:
        conn.execute(f"LISTEN {CHANNEL}")
        store.append_many("g1", 0, ["keep 9D", "keep 3S"], turn=1, status="live", result="")
        heard = [n.payload for n in conn.notifies(timeout=1.0)]
    assert heard == ["g1 2"]
    with pytest.raises(ValueError):  # no action: nothing to commit
        store.append_many("g1", 2, [], turn=1, status="live", result="")
    store.close()
