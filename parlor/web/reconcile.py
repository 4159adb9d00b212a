"""The reconciler: all of the computer's work is derived from the stored games (issue 38).

A game waits on the computer when it is a game against the computer, live (not over, not
stopped as failed) and the computer's seat is to act (:meth:`LiveGame.computer_to_act`, the
same rule that shows "thinking" on the page). Every few seconds, and when it starts, a
worker lists such games and queues each one that has no live claim (:class:`Claims`: a
lease on Redis, or a job ``todo``/``doing`` on procrastinate's queue). So a queue entry that
was lost (Redis flushed or restarted empty), a job that failed or was duplicated, or a
worker killed while it thought can hold a game up for a lease's expiry and one period at
most, never for good: PostgreSQL is the only truth, the queue is derived from it.

Whose turn it is at a given (version, takebacks) of a game never changes, so a game is
replayed only when its version or line changed since the last round: a round costs one
read of the live games' heads, the replay of the games that moved, and one batch of
enqueues.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
from typing import Protocol

import sqlalchemy as sa
from prometheus_client import Counter

from parlor.web.games import GameError, Games
from parlor.web.jobs import REGISTRY, short_error

log = logging.getLogger("parlor.worker")

RECONCILED = Counter("parlor_worker_reconciled", "Games the reconciler found waiting on the "
                     "computer with no claim, and queued", registry=REGISTRY)
#: The live games against the computer, with the head that decides whose turn it is.
_LIVE = sa.text("SELECT id, version, takebacks FROM games "
                "WHERE kind = 'play' AND status = 'live'")


class Claims(Protocol):
    """A work queue as the reconciler sees it."""

    async def enqueue_unclaimed(self, waiting: list[tuple[str, int]]) -> int:
        """Queue each (game, version) that has no live claim; returns how many were queued."""
        ...

    async def reconciler_role(self, token: str, period: float) -> bool:
        """This reconciler (``token``) is the one to run this round."""
        ...

    async def leave_role(self, token: str) -> None:
        """Hand the role on (this reconciler's round failed)."""
        ...


class Reconciler:
    def __init__(self, games: Games, claims: Claims) -> None:
        self.games = games
        self.claims = claims
        # game -> ((version, takebacks) it was read at, the computer to act there)
        self._memo: dict[str, tuple[tuple[int, int], bool]] = {}
        self.token = f"{os.getpid()}:{secrets.token_hex(6)}"
        self._resting = 0  # rounds left out after a failed one

    def waiting(self) -> list[tuple[str, int]]:
        """The stored games that wait on the computer now: (game, version). Blocking."""
        with self.games.store.engine.connect() as conn:
            heads = [(str(r.id), int(r.version), int(r.takebacks)) for r in conn.execute(_LIVE)]
        memo: dict[str, tuple[tuple[int, int], bool]] = {}
        out = []
        for gid, version, takebacks in heads:
            known = self._memo.get(gid)
            if known is None or known[0] != (version, takebacks):
                try:
                    live = self.games.get(gid)  # replayed, or refreshed by version
                except GameError as exc:  # a game that does not replay: said, skipped
                    log.error("the reconciler cannot read game %s: %s", gid, exc)
                    continue
                with live.lock:
                    known = ((live.row.version, live.row.takebacks), live.computer_to_act())
            memo[gid] = known
            if known[1]:
                out.append((gid, known[0][0]))
        self._memo = memo  # games no longer live are forgotten
        return out

    async def once(self, period: float = 3.0) -> int:
        """One round, if this reconciler has the role: queue the waiting games with no
        claim; returns how many."""
        if self._resting > 0:  # its last round failed: the role goes to another worker
            self._resting -= 1
            return 0
        if not await self.claims.reconciler_role(self.token, period):
            self._memo.clear()  # another has the role: this memo would only grow stale
            return 0
        waiting = await asyncio.to_thread(self.waiting)
        n = await self.claims.enqueue_unclaimed(waiting) if waiting else 0
        if n:
            log.info("reconciler: %d of %d games waiting on the computer had no claim: "
                     "queued", n, len(waiting))
            RECONCILED.inc(n)
        return n

    async def run(self, period: float) -> None:
        """A round at once, then every ``period`` seconds, until cancelled; a round that
        fails (the database or the queue away) is logged and tried again next period."""
        while True:
            try:
                await self.once(period)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                # a worker whose database is away must not keep the role meanwhile: it
                # hands it on and sits the next round out
                self._resting = 1
                self._memo.clear()
                with contextlib.suppress(Exception):
                    await self.claims.leave_role(self.token)
                log.warning("reconciler: a round failed (%s); again in %.1f s",
                            short_error(exc), period)
            await asyncio.sleep(period)


__all__ = ["Claims", "Reconciler"]
