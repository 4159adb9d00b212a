"""The computer's work queue on Redis (``PARLOR_REDIS_URL``, issue 38): no job row and no
``NOTIFY`` in PostgreSQL per computer turn, hint, contest decision or analysis.

Three kinds of keys, for a piece of work named ``W`` (:class:`parlor.web.reconcile.Work`: a
computer's turn is named by its game id ``G``; a hint ``hint:G:takebacks:version``, a
contest's decision ``match:G:takebacks:version``, an analysis ``analysis:G:player``):

- two lists of entries, ``parlor:computer:queue`` (turns, hints, contests' decisions) and
  ``parlor:analysis:queue`` (analyses, which a deployment may give workers of their own):
  servers and the reconciler push, workers pop (``BRPOP``, the computer's list first);
- ``parlor:computer:queued:W``, set (``NX``, with an expiry) while ``W`` is in a list, so a
  piece of work is in it once however often it is asked for; its value is the Redis clock
  (milliseconds) when it was pushed, which /metrics reads as the oldest entry's age;
- ``parlor:computer:lease:W``, the claim of the worker that does ``W`` now: set ``NX`` with
  an expiry (:attr:`RedisQueue.lease`) and renewed by a heartbeat while it works; a worker
  killed mid-think stops renewing, and the lease runs out.

A game is pushed only when it is neither queued nor leased (one script, atomic). The lease
holder plays until the human is to act, and after releasing the lease it looks once more
(a human move meanwhile was not queued: the game was leased). Redis holds no truth: a lost
list, marker or lease (Redis restarted empty, FLUSHALL, a worker killed) is re-derived from
PostgreSQL by the reconciler (:mod:`parlor.web.reconcile`) within a lease and a period; a
duplicate entry finds the lease taken, and a decision is stored only at the version it was
made at (``Games.apply_computer``), so a turn is never played twice. A hint, a contest's
decision or an analysis done twice stores the same answer twice (each is seeded by its
position).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import os
import secrets
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, cast

import psycopg
import redis
import redis.asyncio as aredis
from prometheus_client import Counter
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from sqlalchemy.exc import DBAPIError

from parlor.web import jobs
from parlor.web.analysis import STALLED
from parlor.web.backoff import Backoff
from parlor.web.config import WebConfig
from parlor.web.games import Games, Unavailable
from parlor.web.reconcile import Others, Reconciler, Work, match_key

log = logging.getLogger("parlor.worker")

PREFIX = "parlor:computer"
QUEUE_KEY = f"{PREFIX}:queue"
ANALYSIS_QUEUE_KEY = "parlor:analysis:queue"
#: The list of each of ``parlor worker``'s queues (``--queue``).
LISTS = {jobs.QUEUE: QUEUE_KEY, jobs.ANALYSIS_QUEUE: ANALYSIS_QUEUE_KEY}


JOBS = Counter("parlor_worker_other_jobs", "Hints, contests' decisions and analyses this "
               "worker ended on Redis", ["kind", "outcome"], registry=jobs.REGISTRY)


def list_of(work: Work) -> str:
    return ANALYSIS_QUEUE_KEY if work.kind == "analysis" else QUEUE_KEY


def queued_key(game_id: str) -> str:
    return f"{PREFIX}:queued:{game_id}"


def lease_key(game_id: str) -> str:
    return f"{PREFIX}:lease:{game_id}"


def fails_key(game_id: str, takebacks: int, version: int) -> str:
    return f"{PREFIX}:fails:{game_id}:{takebacks}:{version}"


#: A marker's time is at least this (ms since 1970: 2001): an older server set '1'.
MARKED_SINCE = 10**12
#: KEYS: queued, lease, queue; ARGV: game id, the marker's expiry (ms). 1 when pushed.
#: The marker holds the time of the push (Redis's clock, ms: one clock for every server).
_ENQUEUE = """
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
local now = redis.call('TIME')
local at = tostring(now[1] * 1000 + math.floor(now[2] / 1000))
if not redis.call('SET', KEYS[1], at, 'NX', 'PX', ARGV[2]) then return 0 end
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
        return await self.push(Work("turn", game_id))

    async def push(self, work: Work) -> bool:
        """Queue ``work`` unless it is queued or leased already."""
        return bool(await self._run("enqueue", self._keys(work),
                                    [work.entry(), self.marker_ms]))

    @staticmethod
    def _keys(work: Work) -> list[str]:
        return [queued_key(work.name), lease_key(work.name), list_of(work)]

    async def enqueue_unclaimed(self, waiting: list[tuple[str, int]]) -> int:
        """:class:`parlor.web.reconcile.Claims`: one round trip for all of them."""
        return await self.enqueue_work([Work("turn", gid) for gid, _version in waiting])

    async def enqueue_work(self, work: list[Work]) -> int:
        """:class:`parlor.web.reconcile.Claims`: one round trip for all of them."""
        script = self._scripts["enqueue"]
        try:
            async with self.client.pipeline(transaction=False) as pipe:
                for w in work:
                    await script(keys=self._keys(w), args=[w.entry(), self.marker_ms],
                                 client=pipe)
                results = await pipe.execute()
        except redis.RedisError:
            self.ok = False
            raise
        self.ok = True
        return sum(int(r) for r in results)

    async def depths(self) -> dict[str, tuple[int, float]]:
        """Entries waiting in each list and the seconds the oldest has waited (0: none), for
        /metrics: two round trips. The oldest is the list's tail (servers push at the head,
        workers pop the tail); its age is read from its marker (:data:`_ENQUEUE`). A marker
        gone while its entry still waits has outlived its expiry: the entry has waited at
        least that long, and that is the age given (a lower bound, never a made-up 0)."""
        async with self.client.pipeline(transaction=False) as pipe:
            for key in LISTS.values():
                pipe.llen(key)
                pipe.lindex(key, -1)
            got = await pipe.execute()
        lengths, tails = got[0::2], got[1::2]
        names = [_name_of(t) for t in tails]
        async with self.client.pipeline(transaction=False) as pipe:
            pipe.time()
            for name in names:
                pipe.get(queued_key(name or ""))
            clock, *marks = await pipe.execute()
        now_ms = clock[0] * 1000 + clock[1] / 1000
        out = {}
        for queue, n, name, mark in zip(LISTS, lengths, names, marks, strict=True):
            at = int(mark) if mark is not None and mark.isdigit() else 0
            if not n or name is None:
                age = 0.0
            elif at < MARKED_SINCE:  # expired, or set by an older server (its value: '1')
                age = self.marker_ms / 1000
            else:
                age = max(0.0, (now_ms - at) / 1000)
            out[queue] = (int(n), age)
        return out

    async def reconciler_role(self, token: str, period: float) -> bool:
        """:class:`parlor.web.reconcile.Claims`: one worker of the deployment reconciles at
        a time (each round reads every live game), and keeps the role while it does: its
        memo of whose turn it is stays warm. A worker gone hands it on after 3 periods."""
        return bool(await self._run("role", [ROLE_KEY],
                                    [token, max(1000, int(3000 * period))]))

    async def leave_role(self, token: str) -> None:
        await self._run("release", [ROLE_KEY], [token])

    async def pop(self, lists: Sequence[str] = (QUEUE_KEY,)) -> str | None:
        """The next entry of ``lists``, the first list first (None after :data:`POP_WAIT`
        s of nothing)."""
        try:
            got = await self.popper.brpop(list(lists), timeout=POP_WAIT)
        except redis.RedisError:
            self.ok = False
            raise
        self.ok = True
        if got is None:
            return None
        value = got[1]
        return value.decode() if isinstance(value, bytes) else str(value)

    async def claim(self, name: str, token: str) -> bool:
        """Lease the work named ``name`` (a game's id for its computer's turn)."""
        return bool(await self._run("claim", [queued_key(name), lease_key(name)],
                                    [token, self.lease_ms]))

    async def renew(self, name: str, token: str) -> bool:
        return bool(await self._run("renew", [lease_key(name)], [token, self.lease_ms]))

    async def release(self, name: str, token: str) -> None:
        await self._run("release", [lease_key(name)], [token])

    async def leased(self, game_id: str) -> bool:
        """A worker plays this game's computer now (its lease is live)."""
        return bool(await self.client.exists(lease_key(game_id)))

    async def failed_once_more(self, game_id: str, takebacks: int, version: int) -> int:
        """Count a failed turn at this decision (kept an hour); the count so far."""
        return await self.count(fails_key(game_id, takebacks, version))

    async def count(self, key: str) -> int:
        """Count once more under ``key`` (kept an hour); the count so far."""
        async with self.client.pipeline(transaction=True) as pipe:
            pipe.incr(key)
            pipe.expire(key, 3600)
            n, _ = await pipe.execute()
        return int(n)


def _name_of(entry: bytes | str | None) -> str | None:
    """The claim's name of a queue entry (None: no entry, or one no server writes)."""
    if entry is None:
        return None
    try:
        return Work.parse(entry.decode() if isinstance(entry, bytes) else entry).name
    except (ValueError, UnicodeDecodeError):
        return None


#: Starts of one hint, contest decision or analysis (one request) before it is given up: a
#: flush or a killed worker costs one start each.
MAX_STARTS = 4

#: Seconds one decision may take (on top of the think budget and the pace) before its
#: worker stops renewing the lease: a turn hung in a call that never returns must not hold
#: its game for good under a heartbeat that goes on.
DECISION_LIMIT = 120.0


@dataclass
class Lease:
    """A worker's claim on one piece of work (named ``name``), renewed every third of its
    expiry while it works, as long as the work makes progress (:meth:`still`, at each
    decision, within ``limit`` s)."""

    queue: RedisQueue
    name: str
    token: str
    limit: float = DECISION_LIMIT
    held: bool = True
    _ending: bool = False
    _progress: float = field(default_factory=time.monotonic)
    _task: asyncio.Task[None] | None = field(default=None, repr=False)

    def still(self) -> bool:
        """Before each decision: the lease holds (and the work makes progress)."""
        self._progress = time.monotonic()
        return self.held

    async def _keep(self) -> None:
        while self.held and not self._ending:
            await asyncio.sleep(self.queue.lease_ms / 3000)
            if self._ending:
                return
            if time.monotonic() - self._progress > self.limit:
                self.held = False
                log.error("%s: no progress for %.0f s: the lease is left to expire, so "
                          "another worker takes it", self.name, self.limit)
                return
            try:
                renewed = await self.queue.renew(self.name, self.token)
            except redis.RedisError as exc:  # Redis away: the decision may still commit
                log.warning("%s: the lease could not be renewed (%s)", self.name, exc)
                continue
            if not renewed and not self._ending:
                self.held = False
                log.warning("%s: the lease was lost (it expired, or Redis was emptied): "
                            "this worker stops after its decision", self.name)

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
            await asyncio.wait_for(self.queue.release(self.name, self.token), timeout=5)
        self.held = False


def _outage(exc: BaseException) -> bool:
    """The database or Redis away: not the turn's fault (the reconciler queues it again)."""
    if isinstance(exc, DBAPIError):
        return exc.connection_invalidated or isinstance(exc.orig, psycopg.OperationalError)
    # Unavailable: a write the store could not make durable (Games.durable)
    return isinstance(exc, (Unavailable, redis.RedisError, psycopg.OperationalError))


class ComputerRunner:
    """A worker on Redis: pops the work of its queues (``settings.queues``), claims it and
    does it under a lease; and the reconciler, every ``reconcile`` seconds."""

    def __init__(self, queue: RedisQueue, games: Games, config: WebConfig,
                 settings: jobs.WorkerSettings, name: str = "") -> None:
        self.queue, self.games, self.config, self.settings = queue, games, config, settings
        self.name = name or f"parlor-worker-{os.getpid()}"
        self.lists = [LISTS[q] for q in (jobs.QUEUE, jobs.ANALYSIS_QUEUE)
                      if q in settings.queues]
        self.reconciler = Reconciler(games, queue, Others(
            hint_expiry=(config.hint_budget or 2.0) + 30, analysis_stalled=STALLED))
        self._slots = asyncio.Semaphore(settings.concurrency)
        self._turns: set[asyncio.Task[None]] = set()
        # analyses running here: at most the analyses' pool's size, so that none waits in
        # the pool under a lease (its progress limit would run out) nor takes every slot
        self._analyses = 0
        self._stopping = asyncio.Event()

    def stop(self) -> None:
        """Take no more work; :meth:`run` returns once the running work has ended (or
        ``settings.graceful`` seconds have passed: then it is stopped, and its leases
        released, so another worker takes it at once)."""
        self._stopping.set()

    async def run(self) -> None:
        """Until cancelled or :meth:`stop`: the consumer and the reconciler; a Redis outage
        is waited out."""
        reconciling = asyncio.get_running_loop().create_task(
            self.reconciler.run(self.settings.reconcile))
        try:
            await self._consume()
            if self._turns:
                log.info("stopping: %d pieces of work may end within %.0f s",
                         len(self._turns), self.settings.graceful)
                await asyncio.wait(set(self._turns), timeout=self.settings.graceful)
        finally:
            reconciling.cancel()
            for task in list(self._turns):
                task.cancel()
            # bounded: what ignores its cancellation is left behind, the process ends anyway
            await asyncio.wait({reconciling, *self._turns}, timeout=5)

    async def _consume(self) -> None:
        backoff = Backoff()
        while not self._stopping.is_set():
            await self._slots.acquire()
            lists = self._open_lists()
            if not lists:  # an analyses-only worker analysing its fill: wait for one's end
                self._slots.release()
                await asyncio.sleep(0.2)
                continue
            try:
                entry = await self.queue.pop(lists)
            except redis.RedisError as exc:
                self._slots.release()
                pause = backoff.pause()
                jobs.RECONNECTS.inc()
                log.warning("the computer's queue on Redis is away (%s): again in %.1f s",
                            exc, pause)
                await asyncio.sleep(pause)
                continue
            backoff.reset()
            if entry is not None and self._stopping.is_set():
                await self._put_back(entry)
                entry = None
            if entry is None:
                self._slots.release()
                continue
            if entry.startswith("analysis "):
                self._analyses += 1  # (now: the next pop must see it)
            task = asyncio.get_running_loop().create_task(self._work(entry))
            self._turns.add(task)
            task.add_done_callback(self._ended)

    async def _put_back(self, entry: str) -> None:
        """An entry popped as the worker stops: back on its list for another worker (lost
        if Redis is away just then: the reconciler derives it again)."""
        with contextlib.suppress(redis.RedisError, ValueError):
            work = Work.parse(entry)
            await self.queue.client.rpush(list_of(work), entry)

    def _open_lists(self) -> list[str]:
        """The lists to pop now: not the analyses' while this worker analyses its fill."""
        full = self._analyses >= max(1, self.config.analysis_workers)
        return [k for k in self.lists if not (full and k == ANALYSIS_QUEUE_KEY)]

    def _ended(self, task: asyncio.Task[None]) -> None:
        self._turns.discard(task)
        self._slots.release()

    async def _work(self, entry: str) -> None:
        try:
            try:
                work = Work.parse(entry)
            except ValueError:
                log.error("a queue entry no server writes is dropped: %r", entry)
                return
            if work.kind == "turn":
                await self._turn(work.game_id)
            else:
                await self._other(work)
        finally:
            if entry.startswith("analysis "):  # counted when popped (_consume)
                self._analyses -= 1

    async def _claimed(self, work: Work, token: str) -> bool:
        try:
            if await self.queue.claim(work.name, token):
                return True
            log.info("%s is leased by another worker: this entry is dropped",
                     "game " + work.game_id if work.kind == "turn" else work.name)
        except redis.RedisError as exc:
            log.warning("%s: no lease (%s); the reconciler queues it again", work.name, exc)
        return False

    async def _turn(self, game_id: str) -> None:
        """Play ``game_id``'s computer under a lease, if no one else holds it."""
        token = f"{self.name}:{secrets.token_hex(6)}"
        if not await self._claimed(Work("turn", game_id), token):
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

    def _limit(self, work: Work) -> float:
        """Seconds ``work`` may go without progress before its lease is let go."""
        if work.kind == "analysis":  # progress: each decision analysed
            return STALLED
        return DECISION_LIMIT + (self.config.hint_budget if work.kind == "hint"
                                 else self.config.think_budget)

    async def _other(self, work: Work) -> None:
        """A hint, a contest's decision or an analysis, under a lease on its name."""
        token = f"{self.name}:{secrets.token_hex(6)}"
        if not await self._claimed(work, token):
            return
        lease = Lease(self.queue, work.name, token, self._limit(work))
        lease.start()
        log.info("%s under lease %s", work.name, token)
        outcome, again = "failed", False
        try:
            if await self._started_too_often(work):
                return
            await self._do(work, lease)
            outcome = "done"
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            again = await self._other_failed(work, exc)
        finally:
            JOBS.labels(work.kind, outcome).inc()
            await lease.end()
            log.info("%s ended (%s)", work.name, outcome)
        if again:  # (once the lease is gone: a leased name is not queued)
            with contextlib.suppress(redis.RedisError):  # else the reconciler queues it
                await self.queue.push(work)

    async def _started_too_often(self, work: Work) -> bool:
        """Count this start of ``work`` (its exact request: kept an hour); past
        :data:`MAX_STARTS` its asker is told it failed. A request whose workers die while
        doing it (killed for its memory, say) is otherwise derived and started again for
        good: its failure is never counted by the worker that dies."""
        n = await self.queue.count(f"{PREFIX}:starts:{work.entry()}")
        if n <= MAX_STARTS:
            return False
        log.error("%s was started %d times without ending: its asker is told", work.name, n)
        await self._give_up(work, f"its workers stopped {n - 1} times before its end")
        return True

    async def _do(self, work: Work, lease: Lease) -> None:
        gid, args = work.game_id, work.args
        if work.kind == "hint":
            await jobs.answer_hint(gid, int(args[1]), args[2], int(args[0]))
        elif work.kind == "match":
            takebacks, version = int(args[0]), int(args[1])
            await jobs.answer_match(gid, version, match_key(gid, takebacks, version),
                                    takebacks)
        else:
            await jobs.analyse(gid, int(args[0]), int(args[1]), int(args[2]),
                               int(args[3]) if len(args) > 3 else None, lease.still)

    async def _other_failed(self, work: Work, exc: Exception) -> bool:
        """As :meth:`_failed`: an outage waits for the reconciler (the work is derived
        again from the stored state); anything else counts, and once it has failed more
        than :data:`jobs.RETRIES` times its asker is answered with the failure. True when
        it is to be queued again at once."""
        if _outage(exc):
            log.warning("%s met an outage (%s); the reconciler queues it again", work.name,
                        jobs.short_error(exc))
            return False
        try:
            n = await self.queue.count(f"{PREFIX}:fails:{work.name}")
            if n <= jobs.RETRIES:
                log.warning("%s failed (%s), attempt %d: it is queued again", work.name,
                            jobs.short_error(exc), n)
                await asyncio.sleep(1.0)
                return True
            log.error("%s failed %d times: its asker is told", work.name, n, exc_info=exc)
            await self._give_up(work, f"its job failed {n} times ({type(exc).__name__})")
        except Exception as again:  # the next round of the reconciler tries again
            if not _outage(again):
                log.exception("%s: its failure could not be counted", work.name)
                return False
            log.warning("%s: its failure could not be counted (%s)", work.name,
                        jobs.short_error(again))
        return False

    async def _give_up(self, work: Work, reason: str) -> None:
        """Store the failure where the asker reads it (and the reconciler stops deriving
        the work): a hint's refusal, a contest's failed computer, a failed analysis."""
        store, gid, args = self.games.store, work.game_id, work.args
        if work.kind == "hint":
            answer = jobs.HintAnswer(error="unavailable", status=503,
                                     message=f"the hint could not be worked out: {reason}")
            await asyncio.to_thread(store.put_answer, args[2], json.dumps(asdict(answer)))
        elif work.kind == "match":
            key = match_key(gid, int(args[0]), int(args[1]))
            await asyncio.to_thread(store.put_answer, key, json.dumps(
                {"failed": reason, "level": "the worker"}))
        else:
            player = int(args[3]) if len(args) > 3 else \
                (await asyncio.to_thread(self.games.get, gid)).human
            await asyncio.to_thread(functools.partial(
                store.put_analysis, gid, player, status="failed", error=reason))

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


__all__ = ["ANALYSIS_QUEUE_KEY", "QUEUE_KEY", "ComputerRunner", "Lease", "RedisQueue",
           "lease_key", "queued_key"]
