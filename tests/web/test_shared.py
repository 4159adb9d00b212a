"""Two server processes' caches of one game on PostgreSQL (two :class:`Games` over one
database): a cache is trusted only at the version it was read at, and a decision made at a
version the game has left is never applied."""

from __future__ import annotations

import pytest

from parlor.rules.engine import new_game
from parlor.store import GameStore
from parlor.web.games import Games, StaleVersion


def computer_first() -> int:
    """A deal whose first decision is the computer's (Rlr 2's)."""
    return next(seed for seed in range(100) if new_game(seed).actor == 1)


def test_a_decision_made_at_an_old_version_is_never_applied(pg_url: str) -> None:
    a, b = Games(GameStore(pg_url)), Games(GameStore(pg_url))
    live_a, _ = a.create("random", computer_first())
    live_b = b.get(live_a.id)
    job = b.computer_job(live_b)
    assert job is not None and len(job.legal) > 1
    assert a.apply_computer(live_a, job.version, job.legal[0])  # the other process is first
    assert not b.apply_computer(live_b, job.version, job.legal[1])  # stale: dropped
    stored = a.store.load(live_a.id)
    assert stored is not None and stored.actions == [job.legal[0]]
    assert live_b.row.version == job.version + 1  # and the cache caught up
    assert live_b.actions == stored.actions


def test_a_cached_game_is_brought_to_the_stored_version(pg_url: str) -> None:
    a, b = Games(GameStore(pg_url)), Games(GameStore(pg_url))
    live_a, _ = a.create("random", computer_first())
    live_b = b.get(live_a.id)
    for _ in range(5):  # the computer's decisions, made on "server" a
        job = a.computer_job(live_a)
        if job is None:
            break
        assert a.apply_computer(live_a, job.version, job.legal[-1])
    assert live_b.row.version < live_a.row.version
    again = b.get(live_a.id)  # the same cached object, refreshed from the store
    assert again is live_b and live_b.row.version == live_a.row.version
    assert b.snapshot(live_b) == a.snapshot(live_a)


def test_a_click_on_a_stale_cache_is_judged_at_the_stored_version(pg_url: str) -> None:
    a, b = Games(GameStore(pg_url)), Games(GameStore(pg_url))
    live_a, _ = a.create("random", computer_first())
    live_b = b.get(live_a.id)
    while (job := a.computer_job(live_a)) is not None:  # to the human's decision, on a
        assert a.apply_computer(live_a, job.version, job.legal[0])
    snap = a.snapshot(live_a)
    action = snap["view"]["legal"][0]
    # b's cache is behind, but the player's click names the current version: accepted
    done = b.act(live_b, snap["version"], action)
    assert done["version"] == snap["version"] + 1
    with pytest.raises(StaleVersion) as refused:  # the same click again, on a: refused
        a.act(live_a, snap["version"], action)
    assert refused.value.extra["version"] == snap["version"] + 1
    assert len(a.store.load(live_a.id).actions) == snap["version"] + 1  # type: ignore[union-attr]
