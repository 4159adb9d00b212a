"""Post-game analysis in the background (``/g/{id}/analysis``).

An analysis runs in its own worker pool, apart from the pool where the computer thinks, and
its workers run at a lower scheduling priority (``os.nice``), so analysing never delays the
computer's moves in other games. Each decision is one job (:func:`parlor.ai.analysis.
analyse_decision`); the progress is kept in memory and in the store, and the finished
analysis is stored with the game, so it is computed once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import multiprocessing
import os
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import asdict
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from parlor.ai.analysis import ITERATIONS, THRESHOLDS, Decision, analyse_decision, decision_plies
from parlor.rules.state import Settings
from parlor.web.config import WebConfig
from parlor.web.games import (
    BadAction,
    GameBroken,
    GameError,
    GameOver,
    Games,
    LiveGame,
    seed_of,
)

log = logging.getLogger("parlor.web")
NICE = 10


class RecordBroken(GameError):
    status, code = 422, "record_broken"


def _background() -> None:
    """A worker's initializer: a lower priority than the computer's workers."""
    with contextlib.suppress(OSError):
        os.nice(NICE)


def decision_dict(d: Decision) -> dict[str, Any]:
    out = asdict(d)
    out["drop"] = round(d.drop, 4)
    out["mark"] = d.mark
    out["alternatives"] = [list(x) for x in d.alternatives]
    return out


class Analyst:
    """Starts, tracks and stores analyses."""

    def __init__(self, games: Games, config: WebConfig) -> None:
        self.games = games
        self.config = config
        self.pool: Executor | None = None
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.progress: dict[str, tuple[int, int]] = {}

    async def start(self) -> None:
        n = self.config.analysis_workers
        if self.config.worker_kind == "thread":
            self.pool = ThreadPoolExecutor(n, thread_name_prefix="parlor-analysis")
        else:
            self.pool = ProcessPoolExecutor(n, mp_context=multiprocessing.get_context("spawn"),
                                            initializer=_background)

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
        if live.is_play and not live.state.is_over:
            raise GameOver("the game is still being played: it can be analysed once it is "
                           "over", version=live.row.version)

    def status(self, live: LiveGame) -> dict[str, Any]:
        row = self.games.store.analysis(live.id)
        out: dict[str, Any] = {"id": live.id, "thresholds": dict(THRESHOLDS),
                               "player": live.human, "status": "none", "done": 0, "total": 0}
        if row is not None:
            out.update(status=row["status"], done=row["done"], total=row["total"],
                       seed=row["seed"], iterations=row["iterations"], player=row["player"])
            if row["status"] == "done":
                out["decisions"] = json.loads(row["result"])
            if row["error"]:
                out["error"] = row["error"]
        if live.id in self.progress:
            out["status"] = "running"
            out["done"], out["total"] = self.progress[live.id]
        return out

    def request(self, live: LiveGame, seed: int = 0) -> dict[str, Any]:
        """Start the analysis unless it is running or done (with this seed)."""
        self.check(live)
        current = self.status(live)
        if current["status"] == "running" or (current["status"] == "done"
                                              and current.get("seed") == seed):
            return current
        self.progress[live.id] = (0, 0)
        self.tasks[live.id] = asyncio.get_running_loop().create_task(self._run(live, seed))
        return self.status(live)

    # -- running --------------------------------------------------------------------------------

    async def _run(self, live: LiveGame, seed: int) -> None:
        gid = live.id
        store = self.games.store
        settings, deal_seed, player = live.row.settings, seed_of(live.row), live.human
        actions = list(live.actions)
        iterations = self.config.analysis_iterations
        try:
            plies = await asyncio.to_thread(decision_plies, Settings.parse(settings),
                                            deal_seed, actions, player)
            self.progress[gid] = (0, len(plies))
            await asyncio.to_thread(store.put_analysis, gid, seed=seed, iterations=iterations,
                                    player=player, status="running", done=0,
                                    total=len(plies), result="", error="")
            loop = asyncio.get_running_loop()
            assert self.pool is not None
            futures = [loop.run_in_executor(self.pool, analyse_decision, settings, deal_seed,
                                            actions, ply, player, seed, iterations)
                       for ply in plies]
            done = 0
            for f in asyncio.as_completed(futures):
                await f
                done += 1
                self.progress[gid] = (done, len(plies))
            decisions = [decision_dict(await f) for f in futures]
            await asyncio.to_thread(store.put_analysis, gid, status="done", done=done,
                                    result=json.dumps(decisions))
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.exception("the analysis of game %s failed", gid)
            with contextlib.suppress(Exception):
                await asyncio.to_thread(store.put_analysis, gid, seed=seed,
                                        iterations=iterations, player=player,
                                        status="failed", error=f"{type(exc).__name__}: {exc}")
        finally:
            self.progress.pop(gid, None)
            self.tasks.pop(gid, None)


def install(app: FastAPI, analyst: Analyst, page: Callable[..., Response],
            load: Callable[[Request, str], Awaitable[LiveGame]],
            json_of: Callable[[Request], Awaitable[dict[str, Any]]]) -> None:
    """``/g/{id}/analysis`` and its API on ``app``."""

    async def loaded(request: Request, game_id: str) -> LiveGame:
        try:
            return await load(request, game_id)
        except GameBroken as exc:  # a stored record that does not replay: the input's fault
            raise RecordBroken(f"this game's record does not replay, so it cannot be "
                               f"analysed: {exc.message}") from None

    @app.get("/g/{game_id}/analysis", response_class=HTMLResponse)
    async def analysis_page(request: Request, game_id: str) -> Response:
        live = await loaded(request, game_id)
        analyst.check(live)
        return page(request, "analysis.html", status_json=analyst.status(live),
                    game_id=game_id, title=f"Analysis — {live.row.title}",
                    game_title=live.row.title, thresholds=THRESHOLDS)

    @app.get("/api/games/{game_id}/analysis")
    async def api_analysis(request: Request, game_id: str) -> Response:
        live = await loaded(request, game_id)
        analyst.check(live)
        return JSONResponse(analyst.status(live))

    @app.post("/api/games/{game_id}/analysis", status_code=202)
    async def api_analyse(request: Request, game_id: str) -> Response:
        live = await loaded(request, game_id)
        data = await json_of(request)
        seed = data.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**31:
            raise BadAction("the analysis seed must be a whole number from 0 to 2147483647")
        return JSONResponse(analyst.request(live, seed), status_code=202)


__all__ = ["ITERATIONS", "Analyst", "RecordBroken", "install"]
