"""The conductor of a server on PostgreSQL: the computer's turns and hints go to the work
queue (:mod:`parlor.web.jobs`, run by ``parlor worker``; the computer's turns on Redis with
``PARLOR_REDIS_URL``, :mod:`parlor.web.redisqueue`), and every server learns of every
committed change through ``LISTEN parlor_games`` (or on Redis, :mod:`parlor.web.wakeups`), so
a long poll on one server returns when a worker or another server moves the game on.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import secrets
import time
from typing import TYPE_CHECKING

import psycopg
import redis
import sqlalchemy as sa
from procrastinate import App
from procrastinate.exceptions import AlreadyEnqueued

from parlor.ai.failure import AgentFailed
from parlor.store import CHANNEL, libpq_url
from parlor.web import jobs
from parlor.web.backoff import Backoff, schedule, waking
from parlor.web.computer import Advice
from parlor.web.conductor import Conductor
from parlor.web.config import WebConfig
from parlor.web.games import ComputerJob, GameError, Games, LiveGame
from parlor.web.reconcile import Work, match_key

if TYPE_CHECKING:
    from parlor.web.redisqueue import RedisQueue

log = logging.getLogger("parlor.web")

#: A computer job asked for the same game at the same version is not asked again sooner
#: (a page polling a thinking game would ask at every poll).
REASK_AFTER = 15.0
#: Pauses (seconds) between the attempts to queue a computer job: a queue that refuses it
#: once more after them stops the game as failed.
QUEUE_RETRY = tuple(schedule(2))


class QueueConductor(Conductor):
    def __init__(self, games: Games, config: WebConfig) -> None:
        super().__init__(games, config)
        self.app: App | None = None
        self._stack = contextlib.ExitStack()
        self._tasks: list[asyncio.Task[None]] = []
        self._asked: dict[str, tuple[int, float]] = {}
        self._answers: dict[str, asyncio.Event] = {}
        self.listening = asyncio.Event()
        self.redis_queue: RedisQueue | None = None

    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        settings = jobs.WorkerSettings.from_env()
        if self.config.redis_url:  # wake-ups on Redis: no NOTIFY on the commit path
            from parlor.web.redisqueue import RedisQueue
            from parlor.web.wakeups import subscribe

            # and all of the computer's work: no job row, no NOTIFY per turn, hint,
            # contest's decision or analysis (procrastinate's queue is not opened)
            self.redis_queue = RedisQueue(self.config.redis_url, settings.lease)
            self._tasks.append(self.loop.create_task(subscribe(
                self.config.redis_url, self._heard, self._wake_all, self.listening)))
        else:
            self.app = self._stack.enter_context(
                jobs.connect(self.config.database_url, self.config.queue_pool))
            await self.app.open_async()
            self._tasks.append(self.loop.create_task(self._listen()))
        if self.config.embedded_worker:  # a small deployment, or the tests: no `parlor worker`
            jobs.install(self.games, self.config)
            if self.redis_queue is not None:
                from parlor.web.redisqueue import ComputerRunner

                self._tasks.append(self.loop.create_task(ComputerRunner(
                    self.redis_queue, self.games, self.config, settings).run()))
            else:
                assert self.app is not None
                self._tasks.append(self.loop.create_task(jobs.serve_queue(
                    self.app, settings, install_signal_handlers=False)))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()
        if self.app is not None:
            await self.app.close_async()
            self.app = None
        if self.redis_queue is not None:
            await self.redis_queue.close()
            self.redis_queue = None
        self._stack.close()

    async def readiness(self) -> dict[str, str]:
        """The queue's tables answer, and this server hears other processes' changes."""
        checks = {"listen": "ok" if self.listening.is_set() else "not listening"}
        if self.redis_queue is None:
            try:
                ok = self.app is not None and await asyncio.wait_for(
                    self.app.check_connection_async(), timeout=5)
                checks["queue"] = "ok" if ok else "procrastinate's tables are missing"
            except Exception as exc:
                checks["queue"] = f"failed: {type(exc).__name__}"
        else:
            try:
                await asyncio.wait_for(self.redis_queue.client.ping(), timeout=3)
                checks["computer_queue"] = "ok"
            except Exception as exc:
                checks["computer_queue"] = f"failed: {type(exc).__name__}"
        return checks

    # -- changes of other processes --------------------------------------------------------------

    async def _listen(self) -> None:
        """``LISTEN parlor_games`` on a connection of its own, reconnecting after a loss
        (while away, every waiter re-checks its game each second)."""
        backoff = Backoff()
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                        libpq_url(self.config.database_url), autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    backoff.reset()
                    self._wake_all()  # a change may have come while we were away
                    async for note in conn.notifies():
                        self._heard(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.listening.clear()
                pause = backoff.pause()
                log.warning("LISTEN %s lost (%s); again in %.1f s", CHANNEL, exc, pause)
                await waking(pause, self._wake_all)

    def _wake_all(self) -> None:
        """Every long poll re-checks its game (answers are read every second anyway)."""
        for gid in list(self._events):
            self._changed(gid)

    def _heard(self, payload: str) -> None:
        head, _, rest = payload.partition(" ")
        if head == "answer":
            ev = self._answers.get(rest)
            if ev is not None:
                ev.set()
        else:
            self._changed(head)

    # -- the computer's turns ----------------------------------------------------------------------

    def _ensure_driver(self, game_id: str) -> None:
        live = self.games.cached(game_id)
        version = live.row.version if live is not None else -1
        asked = self._asked.get(game_id)
        now = time.monotonic()
        if asked is not None and asked[0] == version and now - asked[1] < REASK_AFTER:
            return
        self._asked.pop(game_id, None)  # to the end: the dict is oldest first
        self._asked[game_id] = (version, now)
        if len(self._asked) > 10_000:
            # only entries younger than REASK_AFTER guard anything; the oldest go (clearing
            # them all would let every game be asked again at once)
            for gid, (_v, at) in list(self._asked.items()):
                if now - at < REASK_AFTER and len(self._asked) <= 10_000:
                    break
                del self._asked[gid]
        assert self.loop is not None
        self.loop.create_task(self._ask(game_id, version))

    async def _ask(self, game_id: str, version: int) -> None:
        """Queue the computer's job for this game. A queue that refuses it three times
        stops the game as failed, with the sentence the player reads (never a computer that
        silently never moves); the log has the error."""
        if self.redis_queue is not None:
            await self._ask_redis(game_id)
            return
        assert self.app is not None
        error: Exception | None = None
        for pause in (*QUEUE_RETRY, None):
            try:
                await jobs.defer_turn(self.app, game_id, version)
                return
            except Exception as exc:
                error = exc
                log.warning("the computer's job for game %s could not be queued: %r",
                            game_id, exc)
                if pause is not None:
                    await asyncio.sleep(pause)
        log.error("the computer's job for game %s was refused %d times: the game stops as "
                  "failed", game_id, len(QUEUE_RETRY) + 1, exc_info=error)
        # (still "asked": a poll meanwhile does not start another round of attempts)
        await self._lost(game_id, version, "the work queue refused its job")

    async def _ask_redis(self, game_id: str) -> None:
        """Queue the computer's turn on Redis. Redis away: the game is not stopped, the
        workers' reconciler queues it once Redis is back (PostgreSQL says it waits)."""
        assert self.redis_queue is not None
        try:
            await self.redis_queue.enqueue(game_id)
        except redis.RedisError as exc:
            log.warning("the computer's turn in game %s could not be queued on Redis (%r): "
                        "the workers' reconciler queues it once Redis answers", game_id, exc)

    async def _push(self, work: Work) -> None:
        """Queue ``work`` on Redis; Redis away: the workers' reconciler queues it once
        Redis answers (the stored games say it is asked)."""
        assert self.redis_queue is not None
        try:
            await self.redis_queue.push(work)
        except redis.RedisError as exc:
            log.warning("%s could not be queued on Redis (%r): the workers' reconciler "
                        "queues it once Redis answers", work.name, exc)

    async def _lost(self, game_id: str, version: int, reason: str) -> None:
        """Stop the game as failed if the computer is still to act at ``version``."""
        try:
            live = await asyncio.to_thread(self.games.get, game_id)
            if version >= 0 and live.row.version != version:
                return  # the game moved on meanwhile: its computer did play
            if await asyncio.to_thread(self.games.computer_lost, live, reason):
                self._changed(game_id)
        except Exception:
            log.exception("game %s could not be stopped as failed either", game_id)

    async def defer_analysis(self, game_id: str, seed: int, takebacks: int,
                             version: int, player: int) -> None:
        """Ask a worker to analyse ``player``'s decisions in a finished game (one analysis
        job per game and player at a time).
        On Redis, a Redis away leaves it to the workers' reconciler (the analysis's row
        says it is asked)."""
        if self.redis_queue is not None:
            await self._push(Work.analysis(game_id, seed, takebacks, version, player))
            return
        assert self.app is not None
        lock = jobs.analysis_lock(game_id, player)
        with contextlib.suppress(AlreadyEnqueued):  # one waits already: it analyses anew
            await self.app.configure_task("parlor.analysis", lock=lock,
                                          queueing_lock=lock).defer_async(
                game_id=game_id, seed=seed, takebacks=takebacks, version=version, player=player)

    async def thinking_now(self, game_id: str) -> bool:
        """A worker runs this game's computer job now (procrastinate's job is ``doing``:
        one indexed read, its lock index; or its lease on Redis)."""
        if self.redis_queue is not None:  # a worker's lease on the game is live
            try:
                return await self.redis_queue.leased(game_id)
            except redis.RedisError:
                return False  # Redis away: no one can tell
        if self.app is None:
            return False
        row = await self.app.connector.execute_query_one_async(
            "SELECT count(*) AS n FROM procrastinate_jobs "
            "WHERE lock = %(lock)s AND status = 'doing'", lock=jobs.game_lock(game_id))
        return bool(row["n"])

    def waiting(self) -> list[tuple[str, str, int, float]]:
        """The work waiting or running, for /metrics (called in a thread): (queue, state,
        jobs, seconds since the oldest was queued). On Redis, the entries waiting in each
        list and the oldest one's age (:meth:`RedisQueue.depths`), read with this process's
        own client; else one grouped read of procrastinate's queue."""
        if self.redis_queue is not None:
            assert self.loop is not None
            try:
                depths = asyncio.run_coroutine_threadsafe(
                    self.redis_queue.depths(), self.loop).result(timeout=3)
            except (redis.RedisError, TimeoutError):
                return []  # Redis away: no figure rather than a wrong one
            return [(queue, "todo", n, age) for queue, (n, age) in depths.items()]
        sql = sa.text(
            "SELECT j.queue_name AS queue, j.status AS state, count(*) AS n, "
            "coalesce(extract(epoch FROM now() - min(e.at)), 0) AS age "
            "FROM procrastinate_jobs j LEFT JOIN procrastinate_events e "
            "ON e.job_id = j.id AND e.type = 'deferred' "
            "WHERE j.status IN ('todo', 'doing') GROUP BY j.queue_name, j.status")
        with self.games.store.engine.connect() as conn:
            return [(str(r.queue), str(r.state), int(r.n), float(r.age))
                    for r in conn.execute(sql)]

    async def think_match(self, job: ComputerJob) -> str | None:
        """A decision of a tournament's contest between computers, by a worker (a
        ``parlor.match_move`` job, answered through the store like a hint); None when the
        game moved on meanwhile. AgentFailed as the worker met it; ComputerAway when no
        worker answers in time."""
        if self.redis_queue is not None:  # the answer's key is the position's
            key = match_key(job.game_id, job.takebacks, job.version)
            await self._push(Work.match(job.game_id, job.takebacks, job.version))
        else:
            assert self.app is not None
            key = secrets.token_hex(12)
            await self.app.configure_task("parlor.match_move").defer_async(
                game_id=job.game_id, version=job.version, key=key)
        payload = await self._answer(key, (self.config.think_budget or 10.0) + 30)
        data = json.loads(payload)
        if data.get("failed"):
            raise AgentFailed(str(data["level"]), str(data["failed"]))
        action = data.get("action")
        return None if action is None else str(action)

    async def hint(self, live: LiveGame, version: int | None, quota_key: str = "") -> Advice:
        """Ask a worker; wait for its answer (announced by NOTIFY or on Redis, read from the
        store). One hint in flight per game across every server (claimed in the database): asking
        again for the same decision, on any server, waits for the same answer; asking for
        another decision meanwhile is refused (HintRefused, 429), as is a player's hint
        beyond their rate (per server).

        ``quota_key``: whose hint rate this counts against. The routes pass the game's id (one
        human per game), not the client's address: behind a balancer that is every player's."""
        job = self.games.hint_job(live, version)  # refusals (stale, not your turn) at once
        budget = (self.config.hint_budget or 2.0) + 30
        key = secrets.token_hex(12)
        store = self.games.store
        held = await asyncio.to_thread(functools.partial(
            store.claim_hint, live.id, job.takebacks, job.version, key, expire_after=budget))
        if held is None:
            await self._refuse(quota_key, "a hint for this game is still being worked out", 2)
        owner = held == key
        try:
            if owner:
                wait = self._hint_rate.take(quota_key)
                if wait > 0:
                    await self._refuse(quota_key, "that is many hints in a short time",
                                       round(wait))
                await self._ask_hint(live.id, job.takebacks, job.version, key)
            assert held is not None
            return jobs.read_hint(await self._answer(held, budget))
        finally:
            if owner:
                await asyncio.to_thread(store.release_hint, live.id, key)

    async def _ask_hint(self, game_id: str, takebacks: int, version: int, key: str) -> None:
        """Queue the hint claimed under ``key`` (on Redis: derived again by the workers'
        reconciler from its claim if the entry is lost)."""
        if self.redis_queue is not None:
            await self._push(Work.hint(game_id, takebacks, version, key))
            return
        assert self.app is not None
        await self.app.configure_task("parlor.hint").defer_async(
            game_id=game_id, version=version, key=key, takebacks=takebacks)

    async def _answer(self, key: str, budget: float) -> str:
        """Wait for the answer stored under ``key`` (woken by its NOTIFY; read every second
        in case a notification was lost); ComputerAway after ``budget`` seconds."""
        ready = self._answers.setdefault(key, asyncio.Event())
        try:
            end = time.monotonic() + budget
            while True:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(ready.wait(), timeout=1.0)
                payload = await asyncio.to_thread(self.games.store.answer, key)
                if payload is not None:
                    return payload
                if time.monotonic() > end:
                    raise ComputerAway("no worker answered in time; try again in a moment")
                if ready.is_set():
                    await asyncio.sleep(0.2)
        finally:
            self._answers.pop(key, None)


class ComputerAway(GameError):
    """No worker answered in time (none runs, or all are busy)."""

    status, code = 503, "unavailable"


__all__ = ["ComputerAway", "QueueConductor"]
