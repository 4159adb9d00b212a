"""Two server processes' caches of one game on PostgreSQL (two :class:`Games` over one
database): a cache is trusted only at the version it was read at, and a decision made at a
version the game has left is never applied."""

from __future__ import annotations

import pytest

from parlor.rules.engine import new_game
from parlor.store import GameStore, StoreConflict
from parlor.web.games import Games, LiveGame, StaleVersion

pytestmark = pytest.mark.slow  # `make check` leaves it out: PostgreSQL


def computer_first() -> int:
    """A deal whose first decision is the computer's (Rlr 2's)."""
    return next(seed for seed in range(100) if new_game(seed).actor == 1)


def test_a_decision_made_at_an_old_version_is_never_applied(pg_url: str) -> None:
    a, b = Games(GameStore(pg_url)), Games(GameStore(pg_url))
    live_a, _ = a.create("random", computer_first())
    live_b = b.get(live_a.id)
    job = b.computer_job(live_b)
    assert job is not None and len(job.legal) > 1
    assert a.apply_computer(live_a, job.version, job.legal[0],
                            takebacks=job.takebacks)  # the other process is first
    assert not b.apply_computer(live_b, job.version, job.legal[1],
                                takebacks=job.takebacks)  # stale: dropped
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
        assert a.apply_computer(live_a, job.version, job.legal[-1], takebacks=job.takebacks)
    assert live_b.row.version < live_a.row.version
    again = b.get(live_a.id)  # the same cached object, refreshed from the store
    assert again is live_b and live_b.row.version == live_a.row.version
    assert b.snapshot(live_b) == a.snapshot(live_a)


def test_a_click_on_a_stale_cache_is_judged_at_the_stored_version(pg_url: str) -> None:
    a, b = Games(GameStore(pg_url)), Games(GameStore(pg_url))
    live_a, _ = a.create("random", computer_first())
    live_b = b.get(live_a.id)
    while (job := a.computer_job(live_a)) is not None:  # to the human's decision, on a
        assert a.apply_computer(live_a, job.version, job.legal[0], takebacks=job.takebacks)
    snap = a.snapshot(live_a)
    action = snap["view"]["legal"][0]
    # b's cache is behind, but the player's click names the current version: accepted
    done = b.act(live_b, snap["version"], action)
    assert done["version"] == snap["version"] + 1
    with pytest.raises(StaleVersion) as refused:  # the same click again, on a: refused
        a.act(live_a, snap["version"], action)
    assert refused.value.extra["version"] == snap["version"] + 1
    assert len(a.store.load(live_a.id).actions) == snap["version"] + 1  # type: ignore[union-attr]


#: A casual deal where the human (Rlr 1) decides first, twice, and then the computer.
HUMAN_FIRST = 2


def to_the_computer(g: Games, live: LiveGame) -> None:
    """The human's first legal action until the computer is to act."""
    while not live.computer_to_act():
        snap = g.snapshot(live)
        g.act(live, snap["version"], snap["view"]["legal"][0])


def test_a_cache_of_a_line_taken_back_elsewhere_is_not_trusted_at_the_same_version(
        pg_url: str) -> None:
    """R30 takeback lowers the version; new moves raise it again on another line. A cache
    of the old line at that version is rebuilt, never trusted."""
    a, b = Games(GameStore(pg_url)), Games(GameStore(pg_url))
    live_a, _ = a.create("random", HUMAN_FIRST, max_turns=20)
    first = a.snapshot(live_a)["view"]["legal"]
    a.act(live_a, 0, first[0])
    live_b = b.get(live_a.id)
    assert live_b.actions == [first[0]]
    a.takeback(live_a, 1)  # version 0 again, then another first decision: version 1
    a.act(live_a, 0, first[1])
    assert live_a.row.version == live_b.row.version == 1  # the same version, two lines
    again = b.get(live_a.id)
    assert again.actions == [first[1]] and again.row.takebacks == 1
    assert b.snapshot(again) == a.snapshot(live_a)


def test_a_decision_made_before_a_takeback_is_never_applied_after_it(pg_url: str) -> None:
    a, b = Games(GameStore(pg_url)), Games(GameStore(pg_url))
    live_a, _ = a.create("random", HUMAN_FIRST, max_turns=20)
    to_the_computer(a, live_a)
    human_last = live_a.actions[-1]
    live_b = b.get(live_a.id)
    job = b.computer_job(live_b)  # the computer's decision, on "server" b's worker
    assert job is not None
    while (reply := a.computer_job(live_a)) is not None:  # meanwhile a replies itself
        assert a.apply_computer(live_a, reply.version, reply.legal[0],
                                takebacks=reply.takebacks)
    a.takeback(live_a, live_a.row.version)  # back to the human's last decision
    other = next(x for x in a.snapshot(live_a)["view"]["legal"] if x != human_last)
    a.act(live_a, live_a.row.version, other)
    if live_a.row.version != job.version or not live_a.computer_to_act():
        pytest.skip("this deal no longer brings the computer back at the same version")
    kept = a.store.load(live_a.id)
    assert kept is not None
    # b's cache still holds the old line at the same version: the stale decision is dropped
    assert not b.apply_computer(live_b, job.version, job.legal[0], takebacks=job.takebacks)
    after = a.store.load(live_a.id)
    assert after is not None and after.actions == kept.actions
    assert live_b.actions == kept.actions and live_b.row.takebacks == 1  # caught up
    with pytest.raises(StoreConflict):  # and the store itself refuses the old line
        a.store.append(live_a.id, job.version, job.legal[0], turn=1, status="live",
                       result="", takebacks=0)
