"""The one reconnect schedule of the web processes (parlor.web.backoff, issue 38): pauses
that double from a short first one to a bound, start short again after a success, and a
wait that wakes the long polls every second meanwhile."""

from __future__ import annotations

import asyncio

from parlor.web import backoff
from parlor.web.backoff import Backoff, schedule, waking


def test_the_pause_doubles_up_to_its_bound_and_stays_there() -> None:
    b = Backoff()
    assert [b.pause() for _ in range(7)] == [0.5, 1.0, 2.0, 4.0, 8.0, 8.0, 8.0]
    assert (backoff.FIRST, backoff.MOST) == (0.5, 8.0)


def test_a_success_starts_the_pauses_short_again() -> None:
    b = Backoff(first=1.0, most=30.0)
    for _ in range(10):
        b.pause()
    b.reset()
    assert b.pause() == 1.0


def test_a_long_outage_never_overflows_the_pause() -> None:
    b = Backoff()
    for _ in range(10_000):
        assert b.pause() <= backoff.MOST


def test_a_fixed_number_of_attempts_takes_the_same_schedule() -> None:
    assert schedule(2) == [0.5, 1.0]
    assert schedule(3, first=0.01) == [0.01, 0.02, 0.04]


def test_waiting_out_a_pause_wakes_the_waiters_at_once_and_every_second() -> None:
    woken: list[int] = []
    asyncio.run(waking(2.5, lambda: woken.append(1)))
    assert len(woken) == 4  # at 0, 1, 2 and 2.5 s
    woken.clear()
    asyncio.run(waking(0.0, lambda: woken.append(1)))
    assert len(woken) == 1
