"""What a server tells Prometheus (``GET /metrics``, issue 38): the actions it took, how
long its replies took, and, read at each scrape, the games waiting on the computer.

    parlor_actions_total{by}           actions committed through this server (by: human)
    parlor_reply_seconds{route,kind}   time to answer, by route template; a long poll
                                       (``?wait=``) is its own kind, as its time is waiting
    parlor_games_cached                games this server holds in memory
    parlor_computer_jobs{queue,state}  work waiting (todo) or running (doing): the queue's
                                       jobs on PostgreSQL, this server's own on SQLite
    parlor_computer_wait_seconds{queue} the oldest such job's age (0: none); on Redis the
                                       oldest entry's in each list (RedisQueue.depths)
    parlor_search_capped_total{result} searches under a wall-clock cap, this process's and
                                       its worker pools' (result: capped, the cap cut it
                                       short; or full); a ``parlor worker`` shows its own
                                       on its health port's /metrics

The numbers carry no game id and no card: nothing a scrape shows is anyone's secret. Still,
a deployment keeps the endpoint to its own network (deploy/: the nginx file refuses it)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from starlette.types import ASGIApp, Receive, Scope, Send

from parlor.ai.search import cap_stats

#: (queue, state, jobs, seconds the oldest has waited)
Waiting = Callable[[], list[tuple[str, str, int, float]]]

#: Reply-time buckets: a move is answered in milliseconds; a hint or a cold load in seconds.
BUCKETS = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


class _Live(Collector):
    """Gauges read when Prometheus scrapes (in a thread: the queue's are a SQL query)."""

    def __init__(self, cached: Callable[[], int], waiting: Waiting) -> None:
        self.cached, self.waiting = cached, waiting

    def collect(self) -> Iterable[Metric]:
        games = GaugeMetricFamily("parlor_games_cached", "Games held in this server's memory")
        games.add_metric([], self.cached())
        yield games
        jobs = GaugeMetricFamily("parlor_computer_jobs",
                                 "The computer's work waiting (todo) or running (doing)",
                                 labels=["queue", "state"])
        oldest = GaugeMetricFamily("parlor_computer_wait_seconds",
                                   "Seconds the oldest waiting or running job has waited",
                                   labels=["queue"])
        ages: dict[str, float] = {}
        for queue, state, n, age in self.waiting():
            jobs.add_metric([queue, state], n)
            ages[queue] = max(ages.get(queue, 0.0), age)
        for queue, age in sorted(ages.items()):
            oldest.add_metric([queue], age)
        yield jobs
        yield oldest
        yield from CapCollector().collect()


class CapCollector(Collector):
    """The levels' searches that their wall-clock cap cut short (issue 46, parlor.ai.search):
    this process's own and those its worker pools ran (parlor.web.computer.counted). A
    ``parlor worker`` registers one on its health port's /metrics."""

    def collect(self) -> Iterable[Metric]:
        searches, capped = cap_stats()
        family = CounterMetricFamily("parlor_search_capped", "Searches under a wall-clock "
                                     "cap: cut short by it (capped) or run in full",
                                     labels=["result"])
        family.add_metric(["capped"], capped)
        family.add_metric(["full"], searches - capped)
        yield family


class Metrics:
    """One server's metrics, in a registry of its own (several apps may share a process)."""

    def __init__(self, cached: Callable[[], int], waiting: Waiting) -> None:
        self.registry = CollectorRegistry()
        self.actions = Counter("parlor_actions", "Actions committed through this server",
                               ["by"], registry=self.registry)
        self.replies = Histogram("parlor_reply_seconds", "Seconds to answer a request",
                                 ["route", "kind"], buckets=BUCKETS, registry=self.registry)
        self.registry.register(_Live(cached, waiting))

    def exposition(self) -> bytes:
        """The text Prometheus reads (runs the live collectors: call it off the loop)."""
        return generate_latest(self.registry)


class Timing:
    """ASGI middleware: each HTTP request's time, under its route's template (an unknown
    address counts as "unmatched", so an id never becomes a label value)."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app, self.metrics = app, metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        try:
            await self.app(scope, receive, send)
        finally:
            route = scope.get("route")  # set by the router on this scope
            template = getattr(route, "path", None) or "unmatched"
            kind = "long_poll" if b"wait=" in scope.get("query_string", b"") else "reply"
            self.metrics.replies.labels(template, kind).observe(time.perf_counter() - start)


__all__ = ["CapCollector", "Metrics", "Timing", "Waiting"]
