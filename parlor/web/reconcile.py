"""The reconciler: all of the computer's work is derived from the stored games (issue 38).

A game waits on the computer when it is a game against the computer, live (not over, not
stopped as failed) and the computer's seat is to act (:meth:`LiveGame.computer_to_act`, the
same rule that shows "thinking" on the page). Every few seconds, and when it starts, a
worker lists such games and queues each one that has no live claim (:class:`Claims`: a
lease on Redis, or a job ``todo``/``doing`` on procrastinate's queue). So a queue entry that
was lost (Redis flushed or restarted empty), a job that failed or was duplicated, or a
worker killed while it thought can hold a game up for a lease's expiry and one period at
most, never for good: PostgreSQL is the only truth, the queue is derived from it.

On Redis the rest of the work is derived the same way (:func:`other_work`, a
:class:`Work` each): a hint asked (its claim in ``hint_claims``, younger than the hint's
budget, with no answer yet), an analysis asked (``analyses`` says running, at the game's
line, with progress within :data:`parlor.web.analysis.STALLED`), and the next decision of
each live contest between computers (``kind = 'match'``) with no answer under its key
(:func:`match_key`, named by the position, so the server driving the tournament and the
reconciler name the same answer).

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
import time
from dataclasses import dataclass
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
#: Hints asked and not answered, whose asker still waits.
_HINTS = sa.text("SELECT h.game_id, h.takebacks, h.version, h.key FROM hint_claims h "
                 "WHERE h.since >= :since "
                 "AND NOT EXISTS (SELECT 1 FROM answers a WHERE a.key = h.key)")
#: Analyses asked (or running) at the game's line, whose progress is recent.
_ANALYSES = sa.text("SELECT a.game_id, a.seed, a.takebacks, a.version, a.player "
                    "FROM analyses a "
                    "JOIN games g ON g.id = a.game_id AND g.takebacks = a.takebacks "
                    "AND g.version = a.version "
                    "WHERE a.status = 'running' AND a.updated >= :since")
#: Live contests between computers whose next decision has no answer yet.
_MATCHES = sa.text("SELECT g.id, g.takebacks, g.version FROM games g "
                   "WHERE g.kind = 'match' AND g.status = 'live' AND NOT EXISTS ("
                   "SELECT 1 FROM answers a WHERE a.key = "
                   "'match-' || g.id || '-' || g.takebacks || '-' || g.version)")

KINDS = ("turn", "hint", "match", "analysis")


def match_key(game_id: str, takebacks: int, version: int) -> str:
    """The answer's key of a contest's decision at a position (any server, any round)."""
    return f"match-{game_id}-{takebacks}-{version}"


@dataclass(frozen=True, slots=True)
class Work:
    """One piece of the computer's work, as a queue entry names it: a computer's turn
    (``turn``, the game id alone), a hint (takebacks, version, the answer's key), a
    contest's decision (takebacks, version) or an analysis (seed, takebacks, version, the
    player whose decisions: an entry without it, from before each seat had its own, is of
    the game's ``human``)."""

    kind: str
    game_id: str
    args: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        """Its claim's name: one queue entry and one lease per name at a time."""
        if self.kind == "turn":
            return self.game_id
        if self.kind == "analysis":  # one analysis of a seat at a time, whatever its seed
            return ":".join(("analysis", self.game_id, *self.args[3:]))
        return ":".join((self.kind, self.game_id, *self.args[:2]))

    def entry(self) -> str:
        return self.game_id if self.kind == "turn" else " ".join(
            (self.kind, self.game_id, *self.args))

    @staticmethod
    def parse(entry: str) -> Work:
        """The work an entry names (ValueError for what no server writes)."""
        parts = entry.split(" ")
        if len(parts) == 1:
            return Work("turn", parts[0])
        arity = {"hint": (3,), "match": (2,), "analysis": (3, 4)}
        if parts[0] not in arity or len(parts) - 2 not in arity[parts[0]]:
            raise ValueError(f"not a queue entry: {entry!r}")
        return Work(parts[0], parts[1], tuple(parts[2:]))

    @staticmethod
    def hint(game_id: str, takebacks: int, version: int, key: str) -> Work:
        return Work("hint", game_id, (str(takebacks), str(version), key))

    @staticmethod
    def match(game_id: str, takebacks: int, version: int) -> Work:
        return Work("match", game_id, (str(takebacks), str(version)))

    @staticmethod
    def analysis(game_id: str, seed: int, takebacks: int, version: int, player: int) -> Work:
        return Work("analysis", game_id, (str(seed), str(takebacks), str(version),
                                          str(player)))


def other_work(conn: sa.Connection, hint_expiry: float, analysis_stalled: float,
               now: float | None = None) -> list[Work]:
    """The hints, contests' decisions and analyses the stored games ask for now."""
    at = time.time() if now is None else now
    out = [Work.hint(str(r.game_id), int(r.takebacks), int(r.version), str(r.key))
           for r in conn.execute(_HINTS, {"since": at - hint_expiry})]
    out += [Work.match(str(r.id), int(r.takebacks), int(r.version))
            for r in conn.execute(_MATCHES)]
    out += [Work.analysis(str(r.game_id), int(r.seed), int(r.takebacks), int(r.version),
                          int(r.player))
            for r in conn.execute(_ANALYSES, {"since": at - analysis_stalled})]
    return out


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

    async def enqueue_work(self, work: list[Work]) -> int:
        """Queue each of the other work (hints, contests, analyses) that has no live claim;
        returns how many were queued."""
        ...


@dataclass(frozen=True, slots=True)
class Others:
    """What the other work is derived with (on Redis; procrastinate keeps its own jobs):
    seconds a hint's asker waits, and an analysis may go without progress."""

    hint_expiry: float
    analysis_stalled: float


class Reconciler:
    def __init__(self, games: Games, claims: Claims, others: Others | None = None) -> None:
        self.games = games
        self.claims = claims
        self.others = others
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
        if self.others is not None:
            n += await self._other_work(self.others)
        return n

    async def _other_work(self, others: Others) -> int:
        def derive() -> list[Work]:
            with self.games.store.engine.connect() as conn:
                return other_work(conn, others.hint_expiry, others.analysis_stalled)

        work = await asyncio.to_thread(derive)
        n = await self.claims.enqueue_work(work) if work else 0
        if n:
            log.info("reconciler: %d of %d hints, contests' decisions and analyses asked "
                     "had no claim: queued (%s)", n, len(work),
                     ", ".join(sorted({w.kind for w in work})))
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


__all__ = ["KINDS", "Claims", "Others", "Reconciler", "Work", "match_key", "other_work"]
