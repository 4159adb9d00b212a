"""Wake-ups on Redis (``PARLOR_REDIS_URL``, docs/deploy.md): "game changed" and "answer
ready" leave PostgreSQL, so no action's commit holds PostgreSQL's global notify lock through
its WAL flush (issue 38: notifying commits stop sharing flushes).

The store commits without ``NOTIFY`` and, after the commit, :class:`Publisher` publishes the
same payload (``"<game id> <version>"``, ``"answer <key>"``; several in one message, a line
each) on the Redis channel :data:`parlor.store.CHANNEL`; every server subscribes
(:func:`subscribe`). Redis holds no truth: a publish that fails leaves the action committed
(one warning per :data:`WARN_EVERY` seconds), and a server whose subscription is down
re-checks its waiters every second until it is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable

import redis
import redis.asyncio as aredis
from redis.asyncio.retry import Retry as AsyncRetry
from redis.backoff import NoBackoff
from redis.retry import Retry

from parlor.store import CHANNEL, GameStore
from parlor.web.backoff import Backoff, waking

log = logging.getLogger("parlor.web")

#: Seconds between two warnings of failed publishes (a warning per action would flood the
#: log of a busy server while Redis is down).
WARN_EVERY = 10.0
#: Seconds a publish may take to connect or answer: it runs after the commit, on the
#: request's thread, so a Redis that does not answer must not hold the reply long.
PUBLISH_TIMEOUT = 0.5
#: Seconds the publishing thread gathers payloads into one message after the first.
GATHER = 0.002


class Publisher:
    """The store's ``announce``: thread-safe, and it never waits for Redis. A payload is
    queued, and a thread of its own publishes what has queued up as one message, a payload
    a line, so the committing thread goes on at once (a publish per action on the
    committing thread gave back only a third of what dropping the NOTIFY saves,
    bench/deploy.py), one ``PUBLISH`` carries many actions on a busy server, and a Redis
    that does not answer holds up no reply."""

    def __init__(self, url: str) -> None:
        self.client = redis.Redis.from_url(
            url, socket_timeout=PUBLISH_TIMEOUT, socket_connect_timeout=PUBLISH_TIMEOUT,
            # one retry, at once: a pooled connection Redis dropped (a restart) fails once
            # and is replaced; no backoff, the actions are already committed
            retry=Retry(NoBackoff(), 1))
        self._queue: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._warned = 0.0  # monotonic time of the last warning
        self.failed = 0  # publishes lost since the last warning
        self._thread = threading.Thread(target=self._run, name="parlor-redis-publish",
                                        daemon=True)
        self._thread.start()

    def __call__(self, payload: str) -> None:
        self._queue.put(payload)

    def _run(self) -> None:
        while True:
            batch = [self._queue.get()]
            time.sleep(GATHER)  # what other threads commit meanwhile goes in the same message
            with contextlib.suppress(queue.Empty):
                while batch[-1] is not None:
                    batch.append(self._queue.get_nowait())
            payloads = [p for p in batch if p is not None]
            if payloads:
                self._publish(payloads)
            if batch[-1] is None:  # close()
                return

    def _publish(self, payloads: list[str]) -> None:
        try:
            self.client.publish(CHANNEL, "\n".join(payloads))
        except redis.RedisError as exc:
            self.failed += len(payloads)
            now = time.monotonic()
            if now - self._warned >= WARN_EVERY:
                log.warning("Redis publish failed (%s): %d wake-up(s) lost since the last "
                            "warning; the changes are committed, servers re-check every "
                            "second", exc, self.failed)
                self._warned, self.failed = now, 0

    def close(self) -> None:
        """Publish what is queued, then stop."""
        self._queue.put(None)
        self._thread.join(timeout=5)
        self.client.close()


def attach(store: GameStore, url: str) -> Publisher | None:
    """Announce the store's committed changes on Redis instead of ``NOTIFY`` (PostgreSQL
    with ``PARLOR_REDIS_URL``); None, and the store untouched, otherwise."""
    if not url or not store.is_postgres:
        return None
    publisher = Publisher(url)
    store.announce = publisher
    return publisher


async def subscribe(url: str, heard: Callable[[str], None], wake_all: Callable[[], None],
                    listening: asyncio.Event) -> None:
    """Subscribe to :data:`CHANNEL` until cancelled, handing each payload to ``heard``. On
    each (re)connect ``wake_all``: a change may have been published while away. While not
    subscribed, ``wake_all`` every second, so long polls re-check the version themselves."""
    backoff = Backoff()
    while True:
        client = aredis.Redis.from_url(url, socket_connect_timeout=2,
                                       health_check_interval=5,
                                       retry=AsyncRetry(NoBackoff(), 0))
        try:
            async with client.pubsub(ignore_subscribe_messages=True) as pubsub:
                await pubsub.subscribe(CHANNEL)
                listening.set()
                backoff.reset()
                wake_all()
                while True:
                    message = await pubsub.get_message(timeout=5.0)
                    if message is not None and message["type"] == "message":
                        for payload in message["data"].decode().split("\n"):
                            heard(payload)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            listening.clear()
            pause = backoff.pause()
            log.warning("Redis subscription to %s lost (%s); again in %.1f s", CHANNEL, exc,
                        pause)
            await waking(pause, wake_all)
        finally:
            await client.aclose()
