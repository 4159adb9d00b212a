"""A game is its row and its actions, read in one consistent snapshot (issue 38): a reader
loading a game beside a writer that appends moves and takes them back never sees a state
ahead of its version, nor actions of a line its row does not know."""

from __future__ import annotations

import threading
import time

import pytest

from parlor.store import GameStore
from parlor.store.db import GameRow, StoreConflict

LOADS = 3000


def consistent(row: GameRow, moves: list[str]) -> bool:
    """As one commit left it: one action per version, each of this line or an earlier one
    (an action is written ``t<takebacks>-<ply>`` by the writer below)."""
    if len(moves) != row.version:
        return False
    for ply, text in enumerate(moves):
        line, at = (int(x) for x in text[1:].split("-"))
        if at != ply or line > row.takebacks:
            return False
    return True


@pytest.mark.slow
def test_a_load_beside_appends_and_takebacks_is_one_commits_state(db_url: str) -> None:
    store, writer_store = GameStore(db_url), GameStore(db_url)  # two processes' pools
    store.insert(GameRow(id="race", kind="play", human=0, level="random", seed=1,
                         settings="", created=time.time()), "hash")
    stop = threading.Event()
    written = [0]

    def write() -> None:
        version, takebacks = 0, 0
        while not stop.is_set():
            try:
                if version >= 12:  # a takeback: back to 4, on a new line (R30)
                    writer_store.truncate("race", version, 4, turn=1, status="live",
                                          result="", takebacks=takebacks)
                    version, takebacks = 4, takebacks + 1
                else:
                    writer_store.append("race", version, f"t{takebacks}-{version}", turn=1,
                                        status="live", result="", takebacks=takebacks)
                    version += 1
                written[0] += 1
            except StoreConflict:  # never expected: one writer
                raise

    thread = threading.Thread(target=write)
    thread.start()
    bad = []
    try:
        for _ in range(LOADS):
            found = store.load("race")
            assert found is not None
            if not consistent(found.row, found.actions):
                bad.append((found.row.version, found.row.takebacks, found.actions))
            since = store.since("race", 2)
            assert since is not None
            if len(since[1]) != max(0, since[0].version - 2):
                bad.append((since[0].version, since[0].takebacks, since[1]))
    finally:
        stop.set()
        thread.join()
    assert written[0] > 100, "the writer wrote while the reader read"
    assert bad == [], f"{len(bad)} of {LOADS} loads mixed two commits, first: {bad[0]}"
