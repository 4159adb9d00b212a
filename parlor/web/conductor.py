"""The computer's turns, off the request path, and the waiting room for changes.

The conductor runs on the server's event loop. For each game where the computer is to act
it keeps one *driver* task, which takes a :class:`~parlor.web.games.ComputerJob` (the
computer's view and legal actions, nothing else), sends it to a worker pool where the agent
thinks, waits so that the computer's actions come at a readable pace, and applies the answer
through :class:`~parlor.web.games.Games` (which commits it). Other games stay responsive:
thinking happens in other processes, and applying takes a thread for a few milliseconds.

Clients wait for a change with :meth:`Conductor.changed_event` (long polling).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from parlor.ai.failure import AgentFailed
from parlor.web.computer import Advice, advise, think
from parlor.web.config import WebConfig
from parlor.web.games import Games, LiveGame

log = logging.getLogger("parlor.web")


def _warm() -> int:
    """Imported in each worker at start, so the first decision is not slowed by imports."""
    return 0


def _watch_parent(parent: int) -> None:
    """A worker's initializer: end the worker when the server is gone (even after a
    ``kill -9``, which leaves the pool no chance to stop its workers)."""

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="parlor-parent-watch", daemon=True).start()


class Conductor:
    def __init__(self, games: Games, config: WebConfig) -> None:
        self.games = games
        self.config = config
        self.loop: asyncio.AbstractEventLoop | None = None
        self.pool: Executor | None = None
        self._events: dict[str, asyncio.Event] = {}
        self._drivers: dict[str, asyncio.Task[None]] = {}
        self._pending: set[str] = set()
        self.thinking: set[str] = set()

    # -- life cycle -----------------------------------------------------------------------------

    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.pool = self._new_pool()

    def _new_pool(self) -> Executor:
        if self.config.worker_kind == "thread":
            return ThreadPoolExecutor(self.config.workers, thread_name_prefix="parlor-ai")
        ctx = multiprocessing.get_context("spawn")  # no fork of a threaded server
        pool = ProcessPoolExecutor(self.config.workers, mp_context=ctx,
                                   initializer=_watch_parent, initargs=(os.getpid(),))
        for _ in range(self.config.workers):
            pool.submit(_warm)
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

    async def readiness(self) -> dict[str, str]:
        """Checks for ``/readyz`` beyond the database: here, the computer's pool."""
        return {"computer": "ok" if self.pool is not None else "stopped"}

    # -- changes --------------------------------------------------------------------------------

    def changed_event(self, game_id: str) -> asyncio.Event:
        """An event set at the game's next change (call it before reading the state)."""
        ev = self._events.get(game_id)
        if ev is None:
            ev = self._events[game_id] = asyncio.Event()
        return ev

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
                    applied = self.games.apply_computer(found, job.version, text)  # one commit
                except AgentFailed as exc:  # a bug: the game stops, never another player
                    applied = await asyncio.to_thread(self.games.computer_failed, found,
                                                      job.version, exc)
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

    async def think(self, level: str, seed: int, view: Any, legal: list[str]) -> str:
        """One decision of a computer at ``level`` in the worker pool (a tournament's contests
        between computers use it too)."""
        return await self._think(level, seed, view, legal)

    async def _think(self, level: str, seed: int, view: Any, legal: list[str]) -> str:
        assert self.loop is not None
        for _attempt in range(2):
            if self.pool is None:
                break
            try:
                return await self.loop.run_in_executor(
                    self.pool, think, level, seed, view, legal, self.config.think_budget or None)
            except BrokenProcessPool:
                log.warning("the computer's worker pool broke; starting a new one")
                self.pool = self._new_pool()
        raise RuntimeError("the computer's worker pool is gone or broke twice: the game "
                           "waits for the next request")

    async def hint(self, live: LiveGame, version: int | None) -> Advice:
        """What the expert would do at the human's decision (the human's view only);
        ComputerFailed (logged with the record) when the expert fails."""
        job = self.games.hint_job(live, version)
        assert self.loop is not None
        for _attempt in range(2):  # the expert's own budget, in a new pool if it broke
            if self.pool is None:
                break
            try:
                return await asyncio.wait_for(
                    self.loop.run_in_executor(self.pool, advise, job.seed, job.view, job.legal,
                                              self.config.hint_budget or None),
                    timeout=(self.config.hint_budget or 2.0) + 30)
            except BrokenProcessPool:
                log.warning("the computer's worker pool broke; starting a new one")
                self.pool = self._new_pool()
            except AgentFailed as exc:
                raise self.games.hint_failed(live, exc) from exc
        raise RuntimeError("the computer's worker pool is gone or broke twice: no hint")


__all__ = ["Conductor"]
