"""What several server processes on one database share (issue 13), on SQLite and
PostgreSQL: "continue elsewhere" codes, redeemed once by whichever server gets them, and the
secret that signs forms, drawn once."""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from typing import TypeVar

import sqlalchemy as sa

from parlor.store import GameStore
from parlor.store.handovers import Handovers
from parlor.store.keys import shared_secret

T = TypeVar("T")


def at_once(calls: list[Callable[[], T]]) -> list[T]:
    """Run ``calls`` in threads released together; their results in order."""
    gate = threading.Barrier(len(calls))
    out: list[T | None] = [None] * len(calls)

    def run(i: int) -> None:
        gate.wait()
        out[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out  # type: ignore[return-value]


def test_a_code_made_by_one_server_is_redeemed_by_another_once(db_url: str) -> None:
    one, other = GameStore(db_url), GameStore(db_url)  # as two server processes would
    code = Handovers(one).make("g1", "token-1", seconds=600)
    assert Handovers(other).take(code) == ("g1", "token-1")
    assert Handovers(one).take(code) is None and Handovers(other).take(code) is None
    one.close()
    other.close()


def test_of_servers_racing_for_one_code_exactly_one_gets_it(db_url: str) -> None:
    stores = [GameStore(db_url) for _ in range(4)]
    for n in range(5):
        code = Handovers(stores[0]).make(f"g{n}", f"token-{n}", seconds=600)
        got = at_once([partial(Handovers(s).take, code) for s in stores for _ in range(2)])
        assert sorted(map(str, got)) == sorted([str((f"g{n}", f"token-{n}"))] + ["None"] * 7)
    for s in stores:
        s.close()


def test_a_code_runs_out_and_the_table_holds_neither_code_nor_token(db_url: str) -> None:
    store = GameStore(db_url)
    codes = Handovers(store)
    old = codes.make("g1", "the-secret-token", seconds=600, now=1000.0)
    assert codes.take(old, now=1601.0) is None  # ten minutes and a second later
    kept = codes.make("g2", "the-secret-token", seconds=600)
    with store.engine.connect() as conn:
        rows = [tuple(map(str, r)) for r in conn.execute(sa.text("SELECT * FROM handovers"))]
    assert len(rows) == 1 and not any(kept in v or "the-secret-token" in v
                                      for v in rows[0])
    assert codes.take(kept) == ("g2", "the-secret-token")
    store.close()


def test_servers_started_at_once_share_one_secret(db_url: str) -> None:
    stores = [GameStore(db_url) for _ in range(4)]
    got = at_once([partial(shared_secret, s, "csrf") for s in stores])
    assert len(set(got)) == 1 and len(got[0]) == 64
    again = GameStore(db_url)  # and a server started later (or restarted) reads it
    assert shared_secret(again, "csrf") == got[0] != shared_secret(again, "other")
    for s in [*stores, again]:
        s.close()
