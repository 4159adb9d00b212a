"""Settings of the web app, from the environment or ``parlor serve`` options."""

from __future__ import annotations

import os
from dataclasses import dataclass

from parlor.settings import env_number
from parlor.store import default_url


@dataclass(frozen=True, slots=True)
class WebConfig:
    database_url: str = "sqlite:///parlor.db"
    pace: float = 0.9  # at least this many seconds between two of the computer's actions
    think_budget: float = 0.0  # seconds per decision; 0: the level's own budget
    hint_budget: float = 0.0  # seconds the expert may think for a hint; 0: its own
    workers: int = 2  # processes (or threads) where the computer thinks
    worker_kind: str = "process"  # "process" or "thread"
    max_cached: int = 500  # live games kept in memory
    default_level: str = ""
    analysis_workers: int = 1  # background processes for post-game analyses (low priority)
    analysis_iterations: int = 400  # search iterations per analysed decision
    analysis_queue: int = 8  # analyses running or waiting at once; more are refused (503)

    # signs CSRF tokens (PARLOR_SECRET); "": the database's own, stored at the first start and
    # shared by every server on it (parlor.store.keys.shared_secret, as create_app reads it)
    secret: str = ""
    max_body: int = 1024 * 1024  # bytes a request body may have, counted while reading
    hint_workers: int = 1  # processes for hints, apart from the computer's (at low priority)
    hint_queue: int = 4  # hints that may wait for a hint worker; more are refused (429)
    hint_rate: float = 10.0  # hints per minute a player (a game) may ask for
    hint_burst: int = 3  # hints a player may ask for at once before the rate applies
    # where the computer thinks: "pool" (this server's processes, the SQLite default) or
    # "queue" (jobs for `parlor worker`, the PostgreSQL default); "" chooses by database
    computer: str = ""
    embedded_worker: bool = False  # with "queue": this server also runs a worker
    queue_pool: int = 4  # connections of the queue's pool (per process)
    # behind a proxy (parlor.web.proxy): who may say X-Forwarded-*, and the site's origins
    trusted_proxies: str = ""  # addresses / networks, comma-separated; "": no one
    public_origin: str = ""  # e.g. "https://parlor.example"; "": the request's host
    # PostgreSQL: wake-ups ("game changed", "answer ready") on this Redis instead of NOTIFY,
    # which holds PostgreSQL's global notify lock through each commit (parlor.web.wakeups)
    redis_url: str = ""  # e.g. "redis://127.0.0.1:6379/0"; "": NOTIFY / LISTEN
    puzzles_file: str = ""  # the puzzles' JSON-lines file; "": the shipped set (issue 44)

    @property
    def uses_queue(self) -> bool:
        if self.computer:
            return self.computer == "queue"
        return self.database_url.startswith(("postgresql", "postgres:"))

    @staticmethod
    def from_env() -> WebConfig:
        """``PARLOR_DATABASE_URL``, ``PARLOR_PACE``, ``PARLOR_THINK``, ``PARLOR_HINT``,
        ``PARLOR_AI_WORKERS``, ``PARLOR_AI_KIND``, ``PARLOR_COMPUTER``,
        ``PARLOR_EMBEDDED_WORKER``, ``PARLOR_QUEUE_POOL``, ``PARLOR_ANALYSIS_WORKERS``,
        ``PARLOR_ANALYSIS_ITERATIONS``, ``PARLOR_ANALYSIS_QUEUE``, ``PARLOR_TRUSTED_PROXIES``,
        ``PARLOR_PUBLIC_ORIGIN``, ``PARLOR_REDIS_URL``, ``PARLOR_PUZZLES`` (docs/deploy.md)."""
        return WebConfig(
            database_url=default_url(),
            pace=env_number("PARLOR_PACE", 0.9),
            think_budget=env_number("PARLOR_THINK", 0.0),
            hint_budget=env_number("PARLOR_HINT", 0.0),
            workers=max(1, int(env_number("PARLOR_AI_WORKERS", min(4, os.cpu_count() or 2)))),
            worker_kind=os.environ.get("PARLOR_AI_KIND", "process"),
            computer=os.environ.get("PARLOR_COMPUTER", ""),
            embedded_worker=os.environ.get("PARLOR_EMBEDDED_WORKER", "") not in ("", "0"),
            queue_pool=max(1, int(env_number("PARLOR_QUEUE_POOL", 4))),
            analysis_workers=max(1, int(env_number("PARLOR_ANALYSIS_WORKERS", 1))),
            analysis_iterations=max(1, int(env_number("PARLOR_ANALYSIS_ITERATIONS", 400))),
            analysis_queue=max(1, int(env_number("PARLOR_ANALYSIS_QUEUE", 8))),
            secret=os.environ.get("PARLOR_SECRET", ""),
            trusted_proxies=os.environ.get("PARLOR_TRUSTED_PROXIES", ""),
            public_origin=os.environ.get("PARLOR_PUBLIC_ORIGIN", ""),
            redis_url=os.environ.get("PARLOR_REDIS_URL", ""),
            puzzles_file=os.environ.get("PARLOR_PUZZLES", ""),
        )


__all__ = ["WebConfig"]
