"""The computer's turns, off the request path, and the waiting room for changes.

The conductor runs on the server's event loop. For each game where the computer is to act
it keeps one *driver* task, which takes a :class:`~parlor.web.games.ComputerJob` (the
computer's view and legal actions, nothing else), sends it to a worker pool where the agent
thinks, waits so that the computer's actions come at a readable pace, and applies the answer
through :class:`~parlor.web.games.Games` (which commits it). Other games stay responsive:
thinking happens in other processes, and applying takes a thread for a few milliseconds.

Clients wait for a change with :meth:`Conductor.changed_event` (long polling).

Hints have their own share of the machine (issue 13), so no number of hint requests delays
a computer move: their own pool of ``hint_workers`` processes at nice 19, started with the
server; at most one hint in flight per game (asking again for the same decision waits for
the same answer); at most ``hint_queue`` hints waiting for a hint worker; and a per-player
rate limit, keyed on the game (its player), not the client address, which behind a balancer
is the balancer's. A refused hint answers 429 with when to ask again, after a short pause, so
a client that asks again at once makes a trickle, not a flood.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from parlor.ai.failure import AgentFailed
from parlor.web.computer import Advice, advise, counted, tally, think
from parlor.web.config import WebConfig
from parlor.web.games import ComputerJob, GameError, Games, LiveGame

log = logging.getLogger("parlor.web")


def _warm() -> int:
    """Imported in each worker at start, so the first decision is not slowed by imports."""
    return 0


def watch_parent(parent: int) -> None:
    """A worker's initializer: end the worker when the server is gone (even after a
    ``kill -9``, which leaves the pool no chance to stop its workers)."""

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="parlor-parent-watch", daemon=True).start()


#: The hint workers' nice value (the computer's workers run at 0).
HINT_NICE = 19


def _lower_priority(tid: int = 0) -> None:
    """Nice 19 for a hint worker: when the CPU is short the computer's workers (nice 0) get
    nearly all of it, yet a hint still moves on a busy machine (Linux's idle class would
    starve it whenever anything else runs)."""
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, tid, HINT_NICE)


def _hint_worker(parent: int) -> None:
    """A hint worker process's initializer: a lower priority, and the same watch for the
    server's end as the computer's workers."""
    _lower_priority()
    watch_parent(parent)


def _lower_thread_priority() -> None:
    """A hint thread's initializer (thread pools): on Linux a thread has its own nice value."""
    _lower_priority(threading.get_native_id())


class HintRefused(GameError):
    """Too many hints: for this game, from this player, or waiting in all."""

    status, code = 429, "hint_busy"


class RateLimit:
    """A token bucket per key: ``burst`` at once, then ``per_minute`` (monotonic clock)."""

    def __init__(self, per_minute: float, burst: int) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(burst)
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, at)

    def take(self, key: str, now: float | None = None) -> float:
        """0.0 if ``key`` may go now (one token taken), else seconds until it may."""
        at = time.monotonic() if now is None else now
        if len(self._buckets) > 10_000:  # forget full buckets, so the table stays small
            self._buckets = {k: v for k, v in self._buckets.items()
                             if v[0] + (at - v[1]) * self.rate < self.burst}
        tokens, last = self._buckets.get(key, (self.burst, at))
        tokens = min(self.burst, tokens + (at - last) * self.rate)
        if tokens < 1.0:
            self._buckets[key] = (tokens, at)
            return (1.0 - tokens) / self.rate if self.rate > 0 else 3600.0
        self._buckets[key] = (tokens - 1.0, at)
        return 0.0


class Conductor:
    def __init__(self, games: Games, config: WebConfig) -> None:
        self.games = games
        self.config = config
        self.loop: asyncio.AbstractEventLoop | None = None
        self.pool: Executor | None = None
        self.hint_pool: Executor | None = None
        # game -> the decision its hint is for (takebacks, version), and the hint
        self._hinting: dict[str, tuple[tuple[int, int], asyncio.Future[Advice]]] = {}
        self._hints_open = 0  # hints running or waiting for a hint worker
        self._held: dict[str, int] = {}  # quota key (a game) -> refusals held back
        self._hint_rate = RateLimit(config.hint_rate, config.hint_burst)
        self._events: dict[str, asyncio.Event] = {}
        self._watchers: dict[str, int] = {}  # game -> requests inside watch() now
        self._drivers: dict[str, asyncio.Task[None]] = {}
        self._pending: set[str] = set()
        self.thinking: set[str] = set()

    # -- life cycle -----------------------------------------------------------------------------

    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.pool = self._new_pool()
        self.hint_pool = self._new_hint_pool()

    def _new_pool(self) -> Executor:
        if self.config.worker_kind == "thread":
            return ThreadPoolExecutor(self.config.workers, thread_name_prefix="parlor-ai")
        ctx = multiprocessing.get_context("spawn")  # no fork of a threaded server
        pool = ProcessPoolExecutor(self.config.workers, mp_context=ctx,
                                   initializer=watch_parent, initargs=(os.getpid(),))
        for _ in range(self.config.workers):
            pool.submit(_warm)
        return pool

    def _new_hint_pool(self) -> Executor:
        n = max(1, self.config.hint_workers)
        if self.config.worker_kind == "thread":
            return ThreadPoolExecutor(n, thread_name_prefix="parlor-hint",
                                      initializer=_lower_thread_priority)
        ctx = multiprocessing.get_context("spawn")
        pool = ProcessPoolExecutor(n, mp_context=ctx, initializer=_hint_worker,
                                   initargs=(os.getpid(),))
        for _ in range(n):
            pool.submit(_warm)  # the first hint does not wait for a process to start
        return pool

    async def stop(self) -> None:
        for task in list(self._drivers.values()):
            task.cancel()
        for task in list(self._drivers.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None
        if self.hint_pool is not None:
            self.hint_pool.shutdown(wait=True, cancel_futures=True)
            self.hint_pool = None

    async def readiness(self) -> dict[str, str]:
        """Checks for ``/readyz`` beyond the database: here, the computer's pool."""
        return {"computer": "ok" if self.pool is not None else "stopped"}

    # -- changes --------------------------------------------------------------------------------

    @contextlib.contextmanager
    def watch(self, game_id: str) -> Iterator[None]:
        """The span of a request that may wait for this game's changes: inside it,
        :meth:`changed_event` gives the game's event; when the last watcher leaves, the event
        goes too. So nothing stays behind for a game nobody waits on (an unknown id, a game
        whose request failed), however many requests name it."""
        self._watchers[game_id] = self._watchers.get(game_id, 0) + 1
        try:
            yield
        finally:
            left = self._watchers[game_id] - 1
            if left:
                self._watchers[game_id] = left
            else:
                del self._watchers[game_id]
                self._events.pop(game_id, None)

    def changed_event(self, game_id: str) -> asyncio.Event:
        """An event set at the game's next change (call it before reading the state, inside
        :meth:`watch`)."""
        if game_id not in self._watchers:
            raise RuntimeError(f"changed_event({game_id!r}) outside watch(): it would stay "
                               "behind for good")
        ev = self._events.get(game_id)
        if ev is None:
            ev = self._events[game_id] = asyncio.Event()
        return ev

    def retained(self) -> int:
        """Per-game objects held for waiters (tests: zero once no request waits)."""
        return len(self._events) + len(self._watchers)

    def _changed(self, game_id: str) -> None:
        ev = self._events.pop(game_id, None)
        if ev is not None:
            ev.set()

    def notify(self, game_id: str) -> None:
        """Thread-safe: wake whoever waits for this game."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self._changed, game_id)

    # -- the computer's turns ----------------------------------------------------------------------

    def kick(self, game_id: str) -> None:
        """Thread-safe: make sure a driver runs for this game if the computer is to act."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self._ensure_driver, game_id)

    def _ensure_driver(self, game_id: str) -> None:
        self._pending.add(game_id)
        task = self._drivers.get(game_id)
        if task is None or task.done():
            assert self.loop is not None
            self._drivers[game_id] = self.loop.create_task(self._drive(game_id))

    async def _drive(self, game_id: str) -> None:
        live: LiveGame | None = None
        try:
            while True:
                self._pending.discard(game_id)
                found = self.games.cached(game_id)
                if found is None:
                    found = await asyncio.to_thread(self.games.get, game_id)
                live = found
                live.driving = True
                job = self.games.computer_job(found)  # short: on the loop
                if job is None:
                    if game_id in self._pending:
                        continue  # a change came while we looked: look again
                    return
                self.thinking.add(game_id)
                try:
                    text = await self._think(job.level, job.seed, job.view, job.legal)
                    wait = self.config.pace - (time.monotonic() - found.changed_at)
                    if wait > 0:
                        await asyncio.sleep(wait)
                    self.thinking.discard(game_id)
                    applied = self.games.apply_computer(  # one commit
                        found, job.version, text, takebacks=job.takebacks)
                except AgentFailed as exc:  # a bug: the game stops, never another player
                    applied = await asyncio.to_thread(functools.partial(
                        self.games.computer_failed, found, job.version, exc,
                        takebacks=job.takebacks))
                if applied:
                    self._changed(game_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the computer's driver for game %s failed", game_id)
        finally:
            self.thinking.discard(game_id)
            if live is not None:
                live.driving = False
            if self._drivers.get(game_id) is asyncio.current_task():
                del self._drivers[game_id]

    async def thinking_now(self, game_id: str) -> bool:
        """The computer searches (or waits for its readable pace) in this game now."""
        return game_id in self.thinking

    def waiting(self) -> list[tuple[str, str, int, float]]:
        """The computer's work in this server, for /metrics: (queue, state, games, seconds
        the oldest has waited); here the games whose driver runs (no ages are kept)."""
        doing = len(self.thinking)
        return [("computer", "doing", doing, 0.0),
                ("computer", "todo", max(0, len(self._drivers) - doing), 0.0)]

    async def think_match(self, job: ComputerJob) -> str | None:
        """One decision of a tournament's contest between computers (``job`` from
        :meth:`~parlor.web.games.Games.match_job`), in the worker pool; None when the game
        has moved on (here: never)."""
        return await self._think(job.level, job.seed, job.view, job.legal)

    async def _think(self, level: str, seed: int, view: Any, legal: list[str]) -> str:
        assert self.loop is not None
        for _attempt in range(2):
            if self.pool is None:
                break
            try:
                return tally(await self.loop.run_in_executor(
                    self.pool, counted, think, level, seed, view, legal,
                    self.config.think_budget or None))
            except BrokenProcessPool:
                log.warning("the computer's worker pool broke; starting a new one")
                self.pool = self._new_pool()
        raise RuntimeError("the computer's worker pool is gone or broke twice: the game "
                           "waits for the next request")

    async def hint(self, live: LiveGame, version: int | None, quota_key: str = "") -> Advice:
        """What the expert would do at the human's decision (the human's view only), in the
        hints' own pool; HintRefused (429) beyond the hints' share (see the module);
        ComputerFailed (logged with the record) when the expert fails.

        ``quota_key``: whose hint rate this counts against. The routes pass the game's id (one
        human per game), not the client's address: behind a balancer that is every player's."""
        job = self.games.hint_job(live, version)
        assert self.loop is not None and self.hint_pool is not None
        timeout = (self.config.hint_budget or 2.0) + 30
        running = self._hinting.get(live.id)
        decision = (job.takebacks, job.version)
        owner = running is None or running[0] != decision
        if running is not None and owner:
            await self._refuse(quota_key, "a hint for this game is still being worked out", 2)
        if owner:
            if self._hints_open >= max(1, self.config.hint_workers) + self.config.hint_queue:
                await self._refuse(quota_key, "hints are busy right now", 5)
            wait = self._hint_rate.take(quota_key)
            if wait > 0:
                await self._refuse(quota_key, "that is many hints in a short time", round(wait))
            future: asyncio.Future[Advice] = asyncio.ensure_future(
                self._advise(job.seed, job.view, job.legal))
            self._hinting[live.id] = (decision, future)
            self._hints_open += 1
        else:  # the same decision asked again: wait for the same answer
            assert running is not None
            future = running[1]
        try:
            return await asyncio.wait_for(asyncio.shield(future), timeout)
        except BrokenProcessPool:
            if owner:
                log.warning("the hint worker pool broke; starting a new one")
                self.hint_pool = self._new_hint_pool()
            raise HintRefused("the hint worker had to restart: ask again",
                              retry_after=1) from None
        except AgentFailed as exc:
            raise self.games.hint_failed(live, exc) from exc
        finally:
            if owner:
                if self._hinting.get(live.id, ((0, 0), None))[1] is future:
                    del self._hinting[live.id]
                self._hints_open -= 1

    async def _advise(self, seed: int, view: Any, legal: list[str]) -> Advice:
        """The expert's hint from the hints' pool, its capped searches counted here (once,
        however many requests wait for the same hint)."""
        assert self.loop is not None and self.hint_pool is not None
        return tally(await self.loop.run_in_executor(
            self.hint_pool, counted, advise, seed, view, legal, self.config.hint_budget or None))

    async def _refuse(self, quota_key: str, why: str, retry_after: int) -> None:
        """Refuse a hint (429) after a pause of up to two seconds: a client asking again at
        once then sends a trickle, not a flood, and the pause costs no CPU."""
        retry_after = max(1, retry_after)
        held = self._held.get(quota_key, 0)
        if held < 64:  # beyond that, answer at once: the held requests are bounded
            self._held[quota_key] = held + 1
            try:
                await asyncio.sleep(min(2.0, float(retry_after)))
            finally:
                left = self._held[quota_key] - 1
                if left:
                    self._held[quota_key] = left
                else:
                    del self._held[quota_key]
        raise HintRefused(f"{why}: ask again in {retry_after} s", retry_after=retry_after)


__all__ = ["Conductor"]
