"""Post-game analysis in the background (its routes: :mod:`parlor.web.routes.analysis`).

An analysis runs in its own worker pool, apart from the pool where the computer thinks, and
its workers run at a lower scheduling priority (``os.nice``), so analysing never delays the
computer's moves in other games. Each decision is one job (:func:`parlor.ai.analysis.
analyse_decision`); the progress and the finished analysis are stored with the game (and
the line analysed), so any server shows them and an analysis is computed once.

With SQLite the pool is the server's own; on PostgreSQL the analysis is a job of
``parlor worker`` (:func:`parlor.web.jobs.analysis`), which runs the same code in its pool.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import multiprocessing
import os
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import asdict
from typing import Any, TypeVar

from parlor.ai.analysis import ITERATIONS, THRESHOLDS, Decision, analyse_decision, decision_plies
from parlor.rules.state import Settings
from parlor.store import GameStore
from parlor.web.computer import counted, tally
from parlor.web.conductor import watch_parent
from parlor.web.config import WebConfig
from parlor.web.games import (
    STOPPED,
    GameError,
    GameOver,
    Games,
    LiveGame,
    seed_of,
)

log = logging.getLogger("parlor.web")
T = TypeVar("T")
NICE = 10
#: Seconds an analysis may go without progress before it counts as stopped.
STALLED = 300.0


class RecordBroken(GameError):
    status, code = 422, "record_broken"


class AnalysesBusy(GameError):
    """Every place in the analyses' queue is taken: the player is told to come back."""

    status, code = 503, "analyses_busy"


def _background(parent: int) -> None:
    """A worker's initializer: a lower priority than the computer's workers, and the end of
    the worker when its server or ``parlor worker`` is gone (a ``kill -9`` leaves the pool
    no chance to stop it: it would wait for work forever)."""
    with contextlib.suppress(OSError):
        os.nice(NICE)
    watch_parent(parent)


def decision_dict(d: Decision) -> dict[str, Any]:
    out = asdict(d)
    out["drop"] = round(d.drop, 4)
    out["mark"] = d.mark
    out["estimated"] = d.estimated  # False: "no estimate" (before and after are null)
    out["alternatives"] = [list(x) for x in d.alternatives]
    return out


def new_pool(config: WebConfig) -> Executor:
    """The analyses' own pool of ``analysis_workers`` (threads, or processes at a lower
    priority), in a server (SQLite) or in a ``parlor worker`` (PostgreSQL)."""
    n = config.analysis_workers
    if config.worker_kind == "thread":
        return ThreadPoolExecutor(n, thread_name_prefix="parlor-analysis")
    return ProcessPoolExecutor(n, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_background, initargs=(os.getpid(),))


async def run_analysis(store: GameStore, pool: Executor, live: LiveGame, player: int,
                       seed: int, iterations: int,
                       progress: Callable[[], object] | None = None) -> None:
    """Analyse every decision of ``player`` in ``live`` as it is now (its line: takebacks
    and version, recorded with the analysis), one job per decision in ``pool``; progress
    and result go to the store, so any server shows them (and to ``progress``, called at
    each decision analysed: a worker's lease on the analysis, parlor.web.redisqueue)."""
    gid = live.id
    with live.lock:
        settings, deal_seed = live.row.settings, seed_of(live.row)
        actions = list(live.actions)
        line = {"takebacks": live.row.takebacks, "version": live.row.version}
    futures: list[asyncio.Future[Decision]] = []
    try:
        plies = await asyncio.to_thread(decision_plies, Settings.parse(settings), deal_seed,
                                        actions, player)
        await asyncio.to_thread(functools.partial(
            store.put_analysis, gid, player, seed=seed, iterations=iterations,
            status="running", done=0, total=len(plies), result="", error="", **line))
        loop = asyncio.get_running_loop()
        futures = [asyncio.ensure_future(_counted_in(
            loop, pool, analyse_decision, settings, deal_seed, actions, ply, player, seed,
            iterations)) for ply in plies]
        done = 0
        for f in asyncio.as_completed(futures):
            await f
            done += 1
            if progress is not None:
                progress()
            await asyncio.to_thread(store.put_analysis, gid, player, done=done)
        decisions = [decision_dict(await f) for f in futures]
        await asyncio.to_thread(store.put_analysis, gid, player, status="done", done=done,
                                result=json.dumps(decisions))
    except asyncio.CancelledError:
        for f in futures:  # the decisions not yet started leave the pool's queue
            f.cancel()
        raise
    except Exception as exc:
        log.exception("the analysis of game %s failed", gid)
        with contextlib.suppress(Exception):
            await asyncio.to_thread(functools.partial(
                store.put_analysis, gid, player, seed=seed, iterations=iterations,
                status="failed", error=f"{type(exc).__name__}: {exc}", **line))


async def _counted_in(loop: asyncio.AbstractEventLoop, pool: Executor,
                     task: Callable[..., T], *args: Any) -> T:
    """``task(*args)`` in ``pool``, the searches it ran counted in this process (issue 46)."""
    return tally(await loop.run_in_executor(pool, counted, task, *args))


#: Asks a ``parlor worker`` to analyse a game (PostgreSQL): game id, seed, takebacks, version,
#: the player whose decisions.
Defer = Callable[[str, int, int, int, int], Awaitable[None]]


class Analyst:
    """Starts, tracks and stores analyses: in this server's own pool (SQLite), or as jobs of
    ``parlor worker`` (``defer``, PostgreSQL: :func:`parlor.web.jobs.analysis`)."""

    def __init__(self, games: Games, config: WebConfig, defer: Defer | None = None) -> None:
        self.games = games
        self.config = config
        self.defer = defer
        self.pool: Executor | None = None
        #: this server's analyses running or waiting, by (game id, player)
        self.tasks: dict[tuple[str, int], asyncio.Task[None]] = {}

    async def start(self) -> None:
        if self.defer is None:
            self.pool = new_pool(self.config)

    async def stop(self) -> None:
        for task in list(self.tasks.values()):
            task.cancel()
        for task in list(self.tasks.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None

    # -- asking ---------------------------------------------------------------------------------

    @staticmethod
    def check(live: LiveGame) -> None:
        # a friend game drawn or aborted beside the rules is over too (its routes let no
        # live friend game through: routes.friends.reader)
        if (live.is_play or live.is_friend) and not live.state.is_over \
                and live.row.status not in STOPPED:
            raise GameOver("the game is still being played: it can be analysed once it is "
                           "over", version=live.row.version)

    def status(self, live: LiveGame, player: int) -> dict[str, Any]:
        """The analysis of ``player``'s decisions in the game as stored. One of a line later
        taken back (R30) is not this game's; one "running" without progress for
        :data:`STALLED` seconds (its server or worker stopped) is reported failed, and may
        be asked again."""
        row = self.games.store.analysis(live.id, player)
        key = (live.id, player)
        out: dict[str, Any] = {"id": live.id, "thresholds": dict(THRESHOLDS),
                               "player": player, "status": "none", "done": 0, "total": 0}
        if row is None or (row["takebacks"], row["version"]) != (live.row.takebacks,
                                                                 live.row.version):
            return out
        out.update(status=row["status"], done=row["done"], total=row["total"],
                   seed=row["seed"], iterations=row["iterations"])
        if row["status"] == "done":
            out["decisions"] = json.loads(row["result"])
        if row["error"]:
            out["error"] = row["error"]
        if row["status"] == "running" and key in self.tasks:
            # this server's own queue: how many analyses go first (0: this one runs now)
            out["ahead"] = max(0, list(self.tasks).index(key)
                               - self.config.analysis_workers + 1)
        if row["status"] == "running" and row["updated"] < time.time() - STALLED \
                and key not in self.tasks:
            out["status"] = "failed"
            out["error"] = ("the analysis stopped before its end (its server or worker "
                            "stopped): ask again")
        return out

    async def request(self, live: LiveGame, player: int, seed: int = 0) -> dict[str, Any]:
        """Start the analysis of ``player``'s decisions unless it is running or done (with
        this seed)."""
        self.check(live)
        current = await asyncio.to_thread(self.status, live, player)
        if current["status"] == "running" or (current["status"] == "done"
                                              and current.get("seed") == seed):
            return current
        waiting = await asyncio.to_thread(self.games.store.analyses_running,
                                          time.time() - STALLED)
        if waiting >= self.config.analysis_queue:
            raise AnalysesBusy(f"the computer is busy analysing {waiting} other games: ask "
                               "again in a minute", retry_after=60)
        await asyncio.to_thread(functools.partial(  # shown as running from now on
            self.games.store.put_analysis, live.id, player, seed=seed,
            iterations=self.config.analysis_iterations, status="running",
            done=0, total=0, result="", error="", takebacks=live.row.takebacks,
            version=live.row.version))
        if self.defer is not None:
            await self.defer(live.id, seed, live.row.takebacks, live.row.version, player)
        else:
            self.tasks[live.id, player] = asyncio.get_running_loop().create_task(
                self._run(live, player, seed))
        return await asyncio.to_thread(self.status, live, player)

    async def _run(self, live: LiveGame, player: int, seed: int) -> None:
        assert self.pool is not None
        try:
            await run_analysis(self.games.store, self.pool, live, player, seed,
                               self.config.analysis_iterations)
        finally:
            self.tasks.pop((live.id, player), None)


__all__ = ["ITERATIONS", "AnalysesBusy", "Analyst", "RecordBroken"]
