"""The async runner of tournaments: one driver task per live tournament, on the server's event
loop, moves it on (a round begins, its contests end, the round ends; while the person answers a
ransom it waits), and one task per contest between computers plays it move by move, each
decision thought in the conductor's worker pool (on PostgreSQL: a ``parlor.match_move`` job of
``parlor worker``), at the table's pace so that it can be watched. The steps themselves are
:class:`parlor.web.tournaments.state.Tournaments`'s; a driver is started again for every live
tournament when the server starts."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING

from parlor.ai.failure import AgentFailed

if TYPE_CHECKING:
    from parlor.web.tournaments.state import Tournaments

log = logging.getLogger("parlor.web")


class ContestFailed(RuntimeError):
    """A computer player of a contest failed (a bug): the tournament stops and says so."""


class Driver:
    """The tasks that move the tournaments of one server on, and the events that wake the
    requests waiting for a tournament to change."""

    def __init__(self, tournaments: Tournaments) -> None:
        self.tournaments = tournaments
        self._drivers: dict[str, asyncio.Task[None]] = {}
        self._matches: dict[str, asyncio.Task[None]] = {}
        self._events: dict[str, asyncio.Event] = {}

    def notify(self, tid: str) -> None:
        """Tournament ``tid`` changed (from any thread): wake whoever waits for it."""
        loop = self.tournaments.conductor.loop
        if loop is not None:
            loop.call_soon_threadsafe(self._changed, tid)

    def _changed(self, tid: str) -> None:
        ev = self._events.pop(tid, None)
        if ev is not None:
            ev.set()

    def changed_event(self, tid: str) -> asyncio.Event:
        ev = self._events.get(tid)
        if ev is None:
            ev = self._events[tid] = asyncio.Event()
        return ev

    async def start(self) -> None:
        """Resume every live tournament (after a restart)."""
        for tid in await asyncio.to_thread(self.tournaments.store.live_ids):
            self.kick(tid)

    async def stop(self) -> None:
        tasks = [*self._drivers.values(), *self._matches.values()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def kick(self, tid: str) -> None:
        task = self._drivers.get(tid)
        loop = self.tournaments.conductor.loop
        if (task is None or task.done()) and loop is not None:
            self._drivers[tid] = loop.create_task(self._drive(tid))

    async def _drive(self, tid: str) -> None:
        tours = self.tournaments
        try:
            while True:
                lt = await asyncio.to_thread(tours.get, tid)
                if lt.over or tid in tours.failures:
                    return
                if lt.t.asked:  # the person answers (1308.2)
                    ev = self.changed_event(tid)
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(ev.wait(), timeout=30)
                    continue
                if lt.round is None:
                    await asyncio.to_thread(tours.begin_round, lt)
                    continue
                if await asyncio.to_thread(tours.record_results, lt):
                    await asyncio.to_thread(tours.close_round, lt)
                    continue
                for table, gid in list(lt.games.items()):
                    if table in lt.done:
                        continue
                    live = await asyncio.to_thread(tours.games.get, gid)
                    if live.row.kind == "play":
                        tours.conductor.kick(gid)
                    else:
                        self._ensure_match(tid, gid)
                await asyncio.sleep(0.25)
        except asyncio.CancelledError:
            raise
        except ContestFailed as exc:
            tours.failures[tid] = str(exc)
            self.notify(tid)
        except Exception as exc:  # reported on the tournament's page, never hidden
            log.exception("the driver of tournament %s failed", tid)
            tours.failures[tid] = f"{type(exc).__name__}: {exc}"
            self.notify(tid)

    def _ensure_match(self, tid: str, gid: str) -> None:
        task = self._matches.get(gid)
        if task is None or task.done():
            loop = self.tournaments.conductor.loop
            assert loop is not None
            self._matches[gid] = loop.create_task(self._play_match(tid, gid))

    async def _play_match(self, tid: str, gid: str) -> None:
        """Two computers play a contest, at the table's pace so that it can be watched."""
        games, conductor = self.tournaments.games, self.tournaments.conductor
        try:
            while True:
                found = games.cached(gid)
                live = found if found is not None else await asyncio.to_thread(games.get, gid)
                job = games.match_job(live)
                if job is None:
                    return
                text = await conductor.think_match(job)
                if text is None:  # the game moved on meanwhile: look again
                    continue
                wait = self.tournaments.config.pace - (time.monotonic() - live.changed_at)
                if wait > 0:
                    await asyncio.sleep(wait)
                if await asyncio.to_thread(games.apply_match, live, job.version, text):
                    conductor.notify(gid)
        except asyncio.CancelledError:
            raise
        except AgentFailed as exc:  # a bug: the contest stops, never another player
            log.error("contest %s of tournament %s: %s", gid, tid, exc)
            self.tournaments.failures[tid] = f"contest {gid}: {exc}"
            self.notify(tid)
        except Exception as exc:  # reported on the tournament's page; the driver stops
            log.exception("the contest %s between computers failed", gid)
            self.tournaments.failures[tid] = f"contest {gid}: {type(exc).__name__}: {exc}"
            self.notify(tid)
        finally:
            if self._matches.get(gid) is asyncio.current_task():
                del self._matches[gid]
