"""The one reconnect schedule of the web processes (issue 38): the pauses between attempts to
reach PostgreSQL or Redis again, used by every loop that rides out an outage (the servers'
subscription and ``LISTEN``, the workers' queue and database loops, the queueing of a
computer's turn).

The pause doubles from :data:`FIRST` up to :data:`MOST` and stays there; a success starts
it from :data:`FIRST` again. Short at first (a restarting Redis or PostgreSQL is usually
back within seconds), bounded later (a process never waits long after the outage ends)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

#: Seconds before the first retry.
FIRST = 0.5
#: Seconds between two retries at most.
MOST = 8.0


@dataclass
class Backoff:
    """The pauses of one retry loop: :meth:`pause` after each failure, :meth:`reset` after
    a success."""

    first: float = FIRST
    most: float = MOST
    attempts: int = 0  # failures since the last success

    def pause(self) -> float:
        """Seconds to wait before the next attempt (counts this failure)."""
        seconds = min(self.most, self.first * 2.0 ** min(self.attempts, 30))
        self.attempts += 1
        return seconds

    def reset(self) -> None:
        self.attempts = 0


def schedule(n: int, first: float = FIRST, most: float = MOST) -> list[float]:
    """The first ``n`` pauses (for a loop that tries a fixed number of times)."""
    b = Backoff(first, most)
    return [b.pause() for _ in range(n)]


async def waking(pause: float, wake: Callable[[], None]) -> None:
    """Sleep ``pause`` seconds, calling ``wake`` at once and then every second: a server
    whose wake-ups are down has its long polls re-check their games themselves."""
    left = pause
    while True:
        wake()
        if left <= 0:
            return
        step = min(1.0, left)
        await asyncio.sleep(step)
        left -= step


__all__ = ["FIRST", "MOST", "Backoff", "schedule", "waking"]
