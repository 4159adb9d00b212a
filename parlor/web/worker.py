"""``parlor worker``: runs the computer's moves, hints and post-game analyses of a
PostgreSQL deployment.

    parlor worker [--db URL] [--concurrency N] [--queue computer|analysis ...]

Any number of workers, on any machines, may serve one database; each takes jobs from the
queues ``computer`` and ``analysis`` (:mod:`parlor.web.jobs`), or only those named.
Settings: ``PARLOR_DATABASE_URL``, ``PARLOR_THINK``, ``PARLOR_HINT``, ``PARLOR_PACE``,
``PARLOR_ANALYSIS_WORKERS``, ``PARLOR_ANALYSIS_ITERATIONS`` as for the servers, and
``PARLOR_WORKER_CONCURRENCY``, ``PARLOR_WORKER_HEARTBEAT``, ``PARLOR_WORKER_STALLED``,
``PARLOR_WORKER_QUEUES``, ``PARLOR_WORKER_HEALTH_PORT``, ``PARLOR_WORKER_RECONCILE``,
``PARLOR_WORKER_LEASE`` (docs/deploy.md). SIGTERM or SIGINT ends it after the jobs it runs.

With ``PARLOR_REDIS_URL`` all of the work (the computer's turns, hints, contests' decisions,
analyses) comes from Redis (:mod:`parlor.web.redisqueue`) and procrastinate's queue is not
used; without it, from procrastinate's queue. Either way the worker runs the reconciler
(:mod:`parlor.web.reconcile`), so no game waits on the computer for good.

A worker never keeps running doing nothing: on procrastinate, a worker whose registration
was pruned while it lived (a late heartbeat on a loaded machine) registers again
(:class:`parlor.web.jobs.WorkerPruned`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
from dataclasses import replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the worker's modules load when it runs, not when ``parlor`` parses args
    from procrastinate import App

    from parlor.store import GameStore
    from parlor.web.config import WebConfig
    from parlor.web.jobs import WorkerSettings
    from parlor.web.redisqueue import ComputerRunner

log = logging.getLogger("parlor.worker")


def add_parser(sub: Any) -> None:
    """Register ``parlor worker`` on the subparsers of the ``parlor`` command."""
    p = sub.add_parser("worker", help="run the computer's jobs of a PostgreSQL deployment",
                       description="Run the computer's moves, hints and analyses from the "
                                   "work queue of a PostgreSQL deployment (docs/deploy.md).")
    add_arguments(p)
    p.set_defaults(func=run)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", default=None, metavar="URL",
                        help="the games database, postgresql://... (default: "
                             "PARLOR_DATABASE_URL)")
    parser.add_argument("--concurrency", type=int, default=None, metavar="N",
                        help="jobs at once (default 32: most of a job is the readable pace)")
    parser.add_argument("--health-port", type=int, default=None, metavar="PORT",
                        help="answer /healthz, /readyz and /metrics on this port (default: "
                             "PARLOR_WORKER_HEALTH_PORT, or none)")
    parser.add_argument("--health-host", default="127.0.0.1", metavar="ADDRESS",
                        help="address of the health port (default 127.0.0.1)")
    parser.add_argument("--queue", action="append", choices=["computer", "analysis"],
                        default=None, dest="queues",
                        help="take jobs only from this queue (repeat for both; default: "
                             "both, or PARLOR_WORKER_QUEUES)")


def run(args: argparse.Namespace) -> int:
    from parlor.settings import log_level
    from parlor.store import GameStore
    from parlor.web import jobs
    from parlor.web.games import Games
    from parlor.web.wakeups import attach

    config, settings = _settings(args)
    if not config.database_url.startswith(("postgresql", "postgres:")):
        print("parlor worker: the work queue needs PostgreSQL (--db postgresql://...); with "
              "SQLite the server thinks in its own processes", file=sys.stderr)
        return 2
    logging.basicConfig(level=(log_level() or "info").upper(),
                        format="%(levelname)s %(name)s: %(message)s")
    store = GameStore(config.database_url)
    publisher = attach(store, config.redis_url)  # PARLOR_REDIS_URL: Redis, not NOTIFY
    jobs.install(Games(store, config.max_cached), config)
    try:
        asyncio.run(_Worker(args, config, settings, store).main())
    finally:
        store.close()
        if publisher is not None:
            publisher.close()  # what was committed last is announced too
    return 0


def _settings(args: argparse.Namespace) -> tuple[WebConfig, WorkerSettings]:
    """The environment's settings with the command line's over them."""
    from parlor.web import jobs
    from parlor.web.config import WebConfig

    config = WebConfig.from_env()
    settings = jobs.WorkerSettings.from_env()
    if args.db:
        config = replace(config, database_url=args.db)
    if args.concurrency is not None:
        settings = replace(settings, concurrency=max(1, args.concurrency))
    if args.queues:
        settings = replace(settings, queues=tuple(args.queues))
    return config, settings


class _Worker:
    """One worker process's loops: the health port, the computer on Redis (when
    ``PARLOR_REDIS_URL`` is set) and the database's work queue, reconnected when it is away."""

    def __init__(self, args: argparse.Namespace, config: WebConfig, settings: WorkerSettings,
                 store: GameStore) -> None:

        self.args = args
        self.config = config
        self.settings = settings
        self.store = store
        self.current: list[App] = []  # the queue's app while connected (for /readyz)
        self.on_redis = bool(config.redis_url)
        #: The work on Redis (parlor.web.redisqueue), once started.
        self.runner: ComputerRunner | None = None

    async def ready(self) -> str | None:
        if self.runner is not None:
            if not self.runner.queue.ok:
                return "the computer's queue on Redis is away"
            try:
                await asyncio.wait_for(asyncio.to_thread(self.store.ping), timeout=3)
            except Exception as exc:
                return f"the database: {type(exc).__name__}"
            return None
        if not self.current:
            return "connecting"
        try:
            ok = await asyncio.wait_for(self.current[0].check_connection_async(), timeout=3)
        except Exception as exc:
            return f"failed: {type(exc).__name__}"
        return None if ok else "procrastinate's tables are missing"

    async def main(self) -> None:
        await self.serve_health()
        if self.on_redis:
            await self.with_redis()
        else:
            await self.with_database()

    async def with_redis(self) -> None:
        """All of the work from Redis until SIGTERM or SIGINT; the work running then may
        end within ``PARLOR_WORKER_GRACEFUL`` seconds, and is then stopped, its leases
        released (another worker takes it at once)."""
        from parlor.web import jobs
        from parlor.web.redisqueue import ComputerRunner, RedisQueue

        self.runner = ComputerRunner(RedisQueue(self.config.redis_url, self.settings.lease),
                                     jobs.runtime().games, self.config, self.settings,
                                     self.settings.name)
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, self.runner.stop)
        running = loop.create_task(self.runner.run())
        print(f"parlor worker {os.getpid()}: work of {self.store.engine.url.database} "
              "from Redis", flush=True)
        try:
            await running  # until SIGTERM or SIGINT, and the running work's end
        finally:
            running.cancel()
            await asyncio.wait({running}, timeout=10)
            with contextlib.suppress(Exception):
                await self.runner.queue.close()
            jobs.runtime().close()

    async def serve_health(self) -> None:
        from prometheus_client import generate_latest

        from parlor.settings import env_number
        from parlor.web import jobs
        from parlor.web.health import serve_health

        port = self.args.health_port if self.args.health_port is not None \
            else int(env_number("PARLOR_WORKER_HEALTH_PORT", 0))
        if port:
            await asyncio.start_server(
                serve_health(self.ready, lambda: generate_latest(jobs.REGISTRY)),
                self.args.health_host, port)

    async def with_database(self) -> None:
        import psycopg
        from procrastinate.exceptions import ConnectorException

        from parlor.web import jobs
        from parlor.web.backoff import Backoff

        backoff = Backoff()
        while True:
            try:
                with jobs.connect(self.config.database_url, self.config.queue_pool) as app:
                    async with app.open_async():
                        self.current[:] = [app]
                        backoff.reset()  # connected: the next outage starts short
                        print(f"parlor worker {os.getpid()}: jobs of "
                              f"{self.store.engine.url.database}", flush=True)
                        await jobs.run_worker(app, self.settings)
                return  # SIGTERM or SIGINT: the running jobs ended
            except jobs.WorkerPruned as exc:
                # alive but no longer registered: no job would reach it, so it registers
                # anew at once (said as an error: the heartbeat interval may be too short
                # for this machine's load)
                self.current.clear()
                log.error("%s: registering again (PARLOR_WORKER_HEARTBEAT may be short "
                          "for this machine)", exc)
            except (OSError, ConnectorException, psycopg.Error) as exc:
                # the database restarting or away: a worker rides it out, never exits (its
                # unfinished jobs are another worker's, or its own, once it is back)
                self.current.clear()
                jobs.RECONNECTS.inc()
                pause = backoff.pause()
                log.warning("the work queue's database is away (%s): again in %.1f s",
                            jobs.short_error(exc), pause)
                await asyncio.sleep(pause)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="parlor worker", description="Run the computer's jobs.")
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
