"""The computer's work queue on Redis (``PARLOR_REDIS_URL``, issue 38): no job row and no
``NOTIFY`` in PostgreSQL per computer turn.

Three kinds of keys, for a game ``G``:

- ``parlor:computer:queue``, a list of game ids: servers and the reconciler push, workers
  pop (``BRPOP``);
- ``parlor:computer:queued:G``, set (``NX``, with an expiry) while ``G`` is in the list, so a
  game is in it once however often it is asked for;
- ``parlor:computer:lease:G``, the claim of the worker that plays ``G``'s computer now: set
  ``NX`` with an expiry (:attr:`RedisQueue.lease`) and renewed by a heartbeat while it
  thinks; a worker killed mid-think stops renewing, and the lease runs out.

A game is pushed only when it is neither queued nor leased (one script, atomic). The lease
holder plays until the human is to act, and after releasing the lease it looks once more
(a human move meanwhile was not queued: the game was leased). Redis holds no truth: a lost
list, marker or lease (Redis restarted empty, FLUSHALL, a worker killed) is re-derived from
PostgreSQL by the reconciler (:mod:`parlor.web.reconcile`) within a lease and a period; a
duplicate entry finds the lease taken, and a decision is stored only at the version it was
made at (``Games.apply_computer``), so a turn is never played twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, cast

import psycopg
import redis
import redis.asyncio as aredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from sqlalchemy.exc import DBAPIError

from parlor.web import jobs
from parlor.web.config import WebConfig
from parlor.web.games import Games, Unavailable
from parlor.web.reconcile import Reconciler

log = logging.getLogger("parlor.worker")

PREFIX = "parlor:computer"
QUEUE_KEY = f"{PREFIX}:queue"


def queued_key(game_id: str) -> str:
    return f"{PREFIX}:queued:{game_id}"


def lease_key(game_id: str) -> str:
    return f"{PREFIX}:lease:{game_id}"


def fails_key(game_id: str, takebacks: int, version: int) -> str:
    return f"{PREFIX}:fails:{game_id}:{takebacks}:{version}"


#: KEYS: queued, lease, queue; ARGV: game id, the marker's expiry (ms). 1 when pushed.
_ENQUEUE = """
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
if not redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[2]) then return 0 end
redis.call('LPUSH', KEYS[3], ARGV[1])
return 1
"""
#: KEYS: queued, lease; ARGV: token, the lease's expiry (ms). 1 when the lease is ours.
_CLAIM = """
redis.call('DEL', KEYS[1])
if redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
return 0
"""
#: KEYS: lease; ARGV: token, expiry (ms). 1 when still ours (and renewed).
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
"""
#: KEYS: lease; ARGV: token. Deleted only if ours.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

#: KEYS: the reconciler's role; ARGV: token, expiry (ms). 1 when the role is (still) ours.
_ROLE = """
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
if not v then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
return 0
"""
ROLE_KEY = f"{PREFIX}:reconciler"

#: Seconds a worker's BRPOP blocks before it looks again (and says it is alive).
POP_WAIT = 1
#: Pauses (seconds) between attempts to reach Redis again; the last repeats.
BACKOFF = (0.5, 1, 2, 4, 8)


class RedisQueue:
    """The queue's operations, for servers (:meth:`enqueue`, :meth:`leased`) and workers."""

    def __init__(self, url: str, lease: float = 10.0) -> None:
        self.lease_ms = max(200, int(lease * 1000))
        # in the list for long enough for a busy deployment to reach it; a marker left by a
        # worker killed between its pop and its claim holds the game up this long at most
        self.marker_ms = 2 * self.lease_ms
        kw: dict[str, Any] = {"socket_connect_timeout": 2, "retry": Retry(NoBackoff(), 1)}
        self.client = aredis.Redis.from_url(url, socket_timeout=5, **kw)
        # BRPOP blocks: a connection of its own, whose timeout is longer than the block
        self.popper = aredis.Redis.from_url(url, socket_timeout=POP_WAIT + 5, **kw)
        self.ok = False  # Redis answered the last operation (a worker's /readyz)
        self._scripts = {name: self.client.register_script(src) for name, src in (
            ("enqueue", _ENQUEUE), ("claim", _CLAIM), ("renew", _RENEW),
            ("release", _RELEASE), ("role", _ROLE))}

    async def close(self) -> None:
        await self.client.aclose()
        await self.popper.aclose()

    async def _run(self, name: str, keys: list[str], args: list[Any]) -> int:
        try:
            result = await self._scripts[name](keys=keys, args=args)
        except redis.RedisError:
            self.ok = False
            raise
        self.ok = True
        return int(cast(int, result))

    async def enqueue(self, game_id: str) -> bool:
        """Queue ``game_id``'s computer unless it is queued or leased already."""
        return bool(await self._run("enqueue", [queued_key(game_id), lease_key(game_id),
                                                QUEUE_KEY], [game_id, self.marker_ms]))

    async def enqueue_unclaimed(self, waiting: list[tuple[str, int]]) -> int:
        """:class:`parlor.web.reconcile.Claims`: one round trip for all of them."""
        script = self._scripts["enqueue"]
        try:
            async with self.client.pipeline(transaction=False) as pipe:
                for game_id, _version in waiting:
                    await script(keys=[queued_key(game_id), lease_key(game_id), QUEUE_KEY],
                                 args=[game_id, self.marker_ms], client=pipe)
                results = await pipe.execute()
        except redis.RedisError:
            self.ok = False
            raise
        self.ok = True
        return sum(int(r) for r in results)

    async def reconciler_role(self, token: str, period: float) -> bool:
        """:class:`parlor.web.reconcile.Claims`: one worker of the deployment reconciles at
        a time (each round reads every live game), and keeps the role while it does: its
        memo of whose turn it is stays warm. A worker gone hands it on after 3 periods."""
        return bool(await self._run("role", [ROLE_KEY],
                                    [token, max(1000, int(3000 * period))]))

    async def leave_role(self, token: str) -> None:
        await self._run("release", [ROLE_KEY], [token])

    async def pop(self) -> str | None:
        """The next game to play (None after :data:`POP_WAIT` s of nothing)."""
        try:
            got = await self.popper.brpop([QUEUE_KEY], timeout=POP_WAIT)
        except redis.RedisError:
            self.ok = False
            raise
        self.ok = True
        if got is None:
            return None
        value = got[1]
        return value.decode() if isinstance(value, bytes) else str(value)

    async def claim(self, game_id: str, token: str) -> bool:
        return bool(await self._run("claim", [queued_key(game_id), lease_key(game_id)],
                                    [token, self.lease_ms]))

    async def renew(self, game_id: str, token: str) -> bool:
        return bool(await self._run("renew", [lease_key(game_id)], [token, self.lease_ms]))

    async def release(self, game_id: str, token: str) -> None:
        await self._run("release", [lease_key(game_id)], [token])

    async def leased(self, game_id: str) -> bool:
        """A worker plays this game's computer now (its lease is live)."""
        return bool(await self.client.exists(lease_key(game_id)))

    async def failed_once_more(self, game_id: str, takebacks: int, version: int) -> int:
        """Count a failed turn at this decision (kept an hour); the count so far."""
        key = fails_key(game_id, takebacks, version)
        async with self.client.pipeline(transaction=True) as pipe:
            pipe.incr(key)
            pipe.expire(key, 3600)
            n, _ = await pipe.execute()
        return int(n)


#: Seconds one decision may take (on top of the think budget and the pace) before its
#: worker stops renewing the lease: a turn hung in a call that never returns must not hold
#: its game for good under a heartbeat that goes on.
DECISION_LIMIT = 120.0


@dataclass
class Lease:
    """A worker's claim on one game, renewed every third of its expiry while it plays, as
    long as the turn makes progress (:meth:`still`, at each decision, within ``limit`` s)."""

    queue: RedisQueue
    game_id: str
    token: str
    limit: float = DECISION_LIMIT
    held: bool = True
    _ending: bool = False
    _progress: float = field(default_factory=time.monotonic)
    _task: asyncio.Task[None] | None = field(default=None, repr=False)

    def still(self) -> bool:
        """Before each decision: the lease holds (and the turn makes progress)."""
        self._progress = time.monotonic()
        return self.held

    async def _keep(self) -> None:
        while self.held and not self._ending:
            await asyncio.sleep(self.queue.lease_ms / 3000)
            if self._ending:
                return
            if time.monotonic() - self._progress > self.limit:
                self.held = False
                log.error("game %s: no decision for %.0f s: the lease is left to expire, so "
                          "another worker takes the game", self.game_id, self.limit)
                return
            try:
                renewed = await self.queue.renew(self.game_id, self.token)
            except redis.RedisError as exc:  # Redis away: the decision may still commit
                log.warning("game %s: the lease could not be renewed (%s)", self.game_id, exc)
                continue
            if not renewed and not self._ending:
                self.held = False
                log.warning("game %s: the lease was lost (it expired, or Redis was "
                            "emptied): this worker stops after its decision", self.game_id)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._keep())

    async def end(self) -> None:
        """Stop renewing and release. Never waits on the renewal for long: a renewal that
        ignored its cancellation would otherwise hold the game (and this turn) for good."""
        self._ending = True
        if self._task is not None:
            self._task.cancel()
            await asyncio.wait({self._task}, timeout=2)
        with contextlib.suppress(redis.RedisError, TimeoutError):
            await asyncio.wait_for(self.queue.release(self.game_id, self.token), timeout=5)
        self.held = False


def _outage(exc: BaseException) -> bool:
    """The database or Redis away: not the turn's fault (the reconciler queues it again)."""
    if isinstance(exc, DBAPIError):
        return exc.connection_invalidated or isinstance(exc.orig, psycopg.OperationalError)
    # Unavailable: a write the store could not make durable (Games.durable)
    return isinstance(exc, (Unavailable, redis.RedisError, psycopg.OperationalError))


class ComputerRunner:
    """A worker's computer on Redis: pops games, claims them, plays them under a lease; and
    the reconciler, every ``reconcile`` seconds."""

    def __init__(self, queue: RedisQueue, games: Games, config: WebConfig,
                 settings: jobs.WorkerSettings, name: str = "") -> None:
        self.queue, self.games, self.config, self.settings = queue, games, config, settings
        self.name = name or f"parlor-worker-{os.getpid()}"
        self.reconciler = Reconciler(games, queue)
        self._slots = asyncio.Semaphore(settings.concurrency)
        self._turns: set[asyncio.Task[None]] = set()

    async def run(self) -> None:
        """Until cancelled: the consumer and the reconciler; a Redis outage is waited out."""
        reconciling = asyncio.get_running_loop().create_task(
            self.reconciler.run(self.settings.reconcile))
        try:
            await self._consume()
        finally:
            reconciling.cancel()
            for task in list(self._turns):
                task.cancel()
            # bounded: what ignores its cancellation is left behind, the process ends anyway
            await asyncio.wait({reconciling, *self._turns}, timeout=5)

    async def _consume(self) -> None:
        attempt = 0
        while True:
            await self._slots.acquire()
            try:
                game_id = await self.queue.pop()
            except redis.RedisError as exc:
                self._slots.release()
                pause = BACKOFF[min(attempt, len(BACKOFF) - 1)]
                attempt += 1
                jobs.RECONNECTS.inc()
                log.warning("the computer's queue on Redis is away (%s): again in %.1f s",
                            exc, pause)
                await asyncio.sleep(pause)
                continue
            attempt = 0
            if game_id is None:
                self._slots.release()
                continue
            task = asyncio.get_running_loop().create_task(self._turn(game_id))
            self._turns.add(task)
            task.add_done_callback(self._ended)

    def _ended(self, task: asyncio.Task[None]) -> None:
        self._turns.discard(task)
        self._slots.release()

    async def _turn(self, game_id: str) -> None:
        """Play ``game_id``'s computer under a lease, if no one else holds it."""
        token = f"{self.name}:{secrets.token_hex(6)}"
        try:
            if not await self.queue.claim(game_id, token):
                log.info("game %s is leased by another worker: this entry is dropped", game_id)
                return
        except redis.RedisError as exc:
            log.warning("game %s: no lease (%s); the reconciler queues it again", game_id, exc)
            return
        lease = Lease(self.queue, game_id, token,
                      DECISION_LIMIT + self.config.think_budget + self.config.pace)
        lease.start()
        log.info("game %s: the computer's turn under lease %s", game_id, token)
        outcome = "failed"
        try:
            await jobs._play(game_id, held=lease.still)
            outcome = "done"
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            await self._failed(game_id, exc)
        finally:
            jobs.TURNS.labels(outcome).inc()
            await lease.end()
            log.info("game %s: the computer's turn ended (%s)", game_id, outcome)
        await self._again(game_id)

    async def _failed(self, game_id: str, exc: Exception) -> None:
        """A turn that raised: an outage waits for the reconciler; anything else counts, and
        the :data:`jobs.RETRIES`-th retry that fails stops the game as failed."""
        if _outage(exc):
            log.warning("game %s: the computer's turn met an outage (%s); the reconciler "
                        "queues it again", game_id, jobs.short_error(exc))
            return
        try:
            live = await asyncio.to_thread(self.games.get, game_id)
            n = await self.queue.failed_once_more(game_id, live.row.takebacks,
                                                  live.row.version)
            if n <= jobs.RETRIES:
                log.warning("game %s: the computer's turn failed (%s), attempt %d: it is "
                            "queued again", game_id, jobs.short_error(exc), n)
                await asyncio.sleep(1.0)
                return
            log.error("the computer's turn in game %s failed %d times: the game stops as "
                      "failed", game_id, n, exc_info=exc)
            await asyncio.to_thread(self.games.computer_lost, live,
                                    f"its job failed {n} times ({type(exc).__name__})")
        except Exception as again:  # the next round of the reconciler tries again
            if not _outage(again):  # a bug is said with its traceback, not hidden
                log.exception("game %s: its failure could not be counted", game_id)
                return
            log.warning("game %s: its failure could not be counted (%s)", game_id,
                        jobs.short_error(again))

    async def _again(self, game_id: str) -> None:
        """After the lease: a change made while it was held was not queued (the game was
        leased), so look once more."""
        try:
            live = await asyncio.to_thread(self.games.get, game_id)
            if live.computer_to_act():
                await self.queue.enqueue(game_id)
        except Exception as exc:  # the reconciler looks later; a bug is said, not hidden
            if not _outage(exc):
                log.exception("game %s: not looked at once more after its turn", game_id)
                return
            log.warning("game %s: not looked at once more after its turn (%s); the "
                        "reconciler will", game_id, jobs.short_error(exc))


__all__ = ["ComputerRunner", "Lease", "RedisQueue", "lease_key", "queued_key"]
