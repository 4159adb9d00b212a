"""The computer's work on a PostgreSQL deployment: jobs on procrastinate's queue, run by
``parlor worker`` processes on any machine (docs/deploy.md).

Three tasks: two on the queue ``computer``, one on the queue ``analysis``:

- :func:`computer_turn` plays the computer's decisions in one game until it is the human's
  turn (or the game is over). Each job carries the ``lock`` ``game:<id>``, so at most one
  computer job runs per game at a time, and the ``queueing_lock`` of the same name, so at
  most one more waits. A job reads the game from the store, thinks, waits for the readable
  pace, and commits with a version check: if the game moved on meanwhile (the human
  resigned, another worker got there first) the decision is dropped, never applied.
- :func:`hint` answers a human's "what would the expert do?": the answer is written to the
  store (table ``answers``) and announced on ``NOTIFY``, where the asking servers wait.
- :func:`analysis` analyses a finished game (issue 11) in the worker's own low-priority
  pool; progress and result go to the store, where every server reads them.

A worker that dies (even ``kill -9``) stops its heartbeat; every worker looks for such
stalled jobs every few seconds and puts them back on the queue (:func:`retry_stalled`), so
another worker finishes the move. Nothing is lost by running a job twice: a decision is
committed only at the version it was made at.

The SQLite default (``make run``) does not use this module: there the server's own pool
thinks (:mod:`parlor.web.conductor`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import os
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

from procrastinate import App, JobContext, PsycopgConnector, RetryStrategy
from procrastinate.exceptions import AlreadyEnqueued, ConnectorException
from procrastinate.jobs import Status
from procrastinate.worker import Worker
from prometheus_client import CollectorRegistry, Counter

from parlor.ai.failure import AgentFailed
from parlor.settings import env_number
from parlor.store import libpq_url
from parlor.web.analysis import new_pool, run_analysis
from parlor.web.computer import Advice, advise, think
from parlor.web.config import WebConfig
from parlor.web.games import GameError, Games
from parlor.web.metrics import CapCollector

if TYPE_CHECKING:
    from parlor.web.reconcile import Work

log = logging.getLogger("parlor.worker")

QUEUE = "computer"
#: Post-game analyses: a queue of their own, so a deployment may give them their own workers
#: (``parlor worker --queue analysis``); a worker takes both by default.
ANALYSIS_QUEUE = "analysis"


#: The tasks and the queue. A process works on one database: it gives this app that
#: database's connector with :func:`connect` (procrastinate's ``replace_connector``).
tasks = App(connector=PsycopgConnector(conninfo=""), import_paths=["parlor.web.jobs"])


@contextlib.contextmanager
def connect(database_url: str, pool_size: int = 4) -> Iterator[App]:
    """:data:`tasks` on the games database (whose migrations made procrastinate's tables);
    open it with ``async with app.open_async()``."""
    connector = PsycopgConnector(conninfo=libpq_url(database_url), min_size=1,
                                 max_size=pool_size)
    with tasks.replace_connector(connector) as app:
        yield app


@dataclass
class Runtime:
    """What the tasks of this process work with: the games, the settings and (made at the
    first analysis) the analyses' own low-priority pool."""

    games: Games
    config: WebConfig
    analysis_pool: Executor | None = None

    def analyses(self) -> Executor:
        if self.analysis_pool is None:
            self.analysis_pool = new_pool(self.config)
        return self.analysis_pool

    def close(self) -> None:
        if self.analysis_pool is not None:
            self.analysis_pool.shutdown(wait=False, cancel_futures=True)
            self.analysis_pool = None


_runtime: Runtime | None = None


def install(games: Games, config: WebConfig) -> None:
    """Give this process's tasks their games and settings (before a worker starts)."""
    global _runtime
    _runtime = Runtime(games, config)


def runtime() -> Runtime:
    if _runtime is None:
        raise RuntimeError("parlor.web.jobs.install() was not called in this process")
    return _runtime


def game_lock(game_id: str) -> str:
    return f"game:{game_id}"


async def defer_turn(app: App, game_id: str, version: int) -> bool:
    """Queue the computer's turn in ``game_id`` (asked at ``version``): at most one job per
    game runs (``lock``) and one more waits (``queueing_lock``). False when one waits
    already: it will see the newest version."""
    lock = game_lock(game_id)
    try:
        await app.configure_task("parlor.computer_turn", lock=lock,
                                 queueing_lock=lock).defer_async(game_id=game_id,
                                                                 version=version)
    except AlreadyEnqueued:
        return False
    return True


#: A computer job that raises is run again this many times; when the last run raises too,
#: the game stops as failed (its player reads why), never a computer that silently never moves.
RETRIES = 2


#: What ``parlor worker --health-port`` shows Prometheus (parlor.web.health).
REGISTRY = CollectorRegistry()
TURNS = Counter("parlor_worker_computer_jobs", "The computer's jobs this worker ended",
                ["outcome"], registry=REGISTRY)
REAPED = Counter("parlor_worker_orphans_reaped", "Computer jobs found left 'doing' by nobody "
                 "and ended (reap_orphans)", registry=REGISTRY)
RECONNECTS = Counter("parlor_worker_reconnects", "Times the worker lost its database and "
                     "connected again", registry=REGISTRY)
# parlor_search_capped_total: this worker's searches cut short by their cap (issue 46)
REGISTRY.register(CapCollector())

#: The computer jobs this process runs now (procrastinate's job ids), and the worker ids its
#: jobs were fetched under: what :func:`reap_orphans` compares the queue's ``doing`` with.
_running: set[int] = set()
_worker_ids: set[int] = set()


@tasks.task(name="parlor.computer_turn", queue=QUEUE, pass_context=True,
            retry=RetryStrategy(max_attempts=RETRIES, wait=1))
async def computer_turn(context: JobContext, game_id: str, version: int) -> None:
    """Play the computer's decisions of ``game_id`` (asked at ``version``) until it is the
    human's turn or the game is over."""
    job_id, worker_id = context.job.id, context.job.worker_id
    if worker_id is not None:
        _worker_ids.add(worker_id)
    if job_id is not None:
        _running.add(job_id)
    outcome = "failed"
    try:
        await _turn(context, game_id)
        outcome = "done"
    finally:
        TURNS.labels(outcome).inc()
        if job_id is not None:
            _running.discard(job_id)


async def _turn(context: JobContext, game_id: str) -> None:
    try:
        await _play(game_id)
    except Exception as exc:
        if context.job.attempts < RETRIES:
            raise  # procrastinate runs it again
        log.exception("the computer's job for game %s failed %d times: the game stops as "
                      "failed", game_id, RETRIES + 1)
        games = runtime().games
        live = await asyncio.to_thread(games.get, game_id)
        await asyncio.to_thread(games.computer_lost, live,
                                f"its job failed {RETRIES + 1} times ({type(exc).__name__})")


async def _play(game_id: str, held: Callable[[], bool] | None = None) -> None:
    """The computer's decisions in ``game_id`` until the human is to act; with ``held``
    (a lease on Redis, :mod:`parlor.web.redisqueue`), only while it says the lease holds."""
    rt = runtime()
    games, config = rt.games, rt.config
    live = await asyncio.to_thread(games.get, game_id)  # brought to the stored version
    while held is None or held():
        job = games.computer_job(live)
        if job is None:
            return
        try:
            text = await asyncio.to_thread(think, job.level, job.seed, job.view, job.legal,
                                           config.think_budget or None)
            # the readable pace counts from the game's last change, whoever made it
            wait = config.pace - (time.time() - live.row.updated)
            if wait > 0:
                await asyncio.sleep(wait)
            applied = await asyncio.to_thread(functools.partial(
                games.apply_computer, live, job.version, text, takebacks=job.takebacks))
        except AgentFailed as exc:  # a bug: the game stops where it failed, never retried
            applied = await asyncio.to_thread(functools.partial(
                games.computer_failed, live, job.version, exc, takebacks=job.takebacks))
        if not applied:
            log.info("game %s moved on from version %d: the decision is dropped", game_id,
                     job.version)
            await asyncio.to_thread(games.refresh, live)


@tasks.task(name="parlor.match_move", queue=QUEUE, retry=RetryStrategy(max_attempts=2, wait=1))
async def match_move(game_id: str, version: int, key: str) -> None:
    """:func:`answer_match` as a job of procrastinate's queue."""
    await answer_match(game_id, version, key)


async def answer_match(game_id: str, version: int, key: str,
                       takebacks: int | None = None) -> None:
    """A decision of a tournament's contest between computers at ``version`` (and
    ``takebacks``, when given), answered to the server that drives the tournament under
    ``key``: ``{"action": ...}`` (None when the game has moved on), or ``{"failed": reason,
    "level": ...}`` when the computer failed."""
    rt = runtime()
    games = rt.games
    live = await asyncio.to_thread(games.get, game_id)
    job = games.match_job(live)
    answer: dict[str, object] = {"action": None}
    if job is not None and job.version == version and takebacks in (None, job.takebacks):
        try:
            answer["action"] = await asyncio.to_thread(
                think, job.level, job.seed, job.view, job.legal, rt.config.think_budget or None)
        except AgentFailed as exc:  # reported on the tournament's page, never replaced
            answer = {"failed": exc.reason, "level": exc.level}
    await asyncio.to_thread(games.store.put_answer, key, json.dumps(answer))


@dataclass(frozen=True, slots=True)
class HintAnswer:
    """A hint as a worker stores it: the advice, or the refusal the server should raise."""

    advice: dict[str, object] | None = None
    error: str | None = None
    status: int = 0
    message: str = ""
    version: int | None = None


@tasks.task(name="parlor.hint", queue=QUEUE, retry=RetryStrategy(max_attempts=2, wait=1))
async def hint(game_id: str, version: int | None, key: str,
               takebacks: int | None = None) -> None:
    """:func:`answer_hint` as a job of procrastinate's queue."""
    await answer_hint(game_id, version, key, takebacks)


async def answer_hint(game_id: str, version: int | None, key: str,
                      takebacks: int | None = None) -> None:
    """What the expert would do at the human's decision at (``takebacks``, ``version``);
    the answer goes to ``answers``."""
    rt = runtime()
    games, config = rt.games, rt.config
    try:
        live = await asyncio.to_thread(games.get, game_id)
        job = games.hint_job(live, version, takebacks)
        try:
            advice = await asyncio.to_thread(advise, job.seed, job.view, job.legal,
                                             config.hint_budget or None)
        except AgentFailed as exc:  # logged with the record; the player is told
            raise games.hint_failed(live, exc) from exc
    except GameError as exc:
        answer = HintAnswer(error=exc.code, status=exc.status, message=exc.message,
                            version=exc.extra.get("version"))
    else:
        answer = HintAnswer(advice=asdict(advice))
    await asyncio.to_thread(games.store.put_answer, key, json.dumps(asdict(answer)))


@tasks.task(name="parlor.analysis", queue=ANALYSIS_QUEUE,
            retry=RetryStrategy(max_attempts=1, wait=5))
async def analysis(game_id: str, seed: int, takebacks: int, version: int,
                   player: int | None = None) -> None:
    """:func:`analyse` as a job of procrastinate's queue (a job deferred before each seat
    had its own analysis has no ``player``: the game's ``human``)."""
    await analyse(game_id, seed, takebacks, version, player)


async def analyse(game_id: str, seed: int, takebacks: int, version: int, player: int | None,
                  progress: Callable[[], object] | None = None) -> None:
    """The post-game analysis of ``player``'s decisions in ``game_id`` (None: its human's)
    as it was asked, at (``takebacks``, ``version``): progress and result go to the store
    (:func:`parlor.web.analysis.run_analysis`; ``progress`` is called at each decision
    analysed). A game taken back since (R30) is not analysed: its own request comes; nor
    one whose analysis is done or asked anew (another seed) since."""
    rt = runtime()
    live = await asyncio.to_thread(rt.games.get, game_id)
    seat = live.human if player is None else player
    if (live.row.takebacks, live.row.version) != (takebacks, version):
        log.info("game %s moved on since its analysis was asked: not analysed", game_id)
        return
    row = await asyncio.to_thread(rt.games.store.analysis, game_id, seat)
    if row is None or row["status"] != "running" or \
            (row["seed"], row["takebacks"], row["version"]) != (seed, takebacks, version):
        # a second request for the same analysis (a queue entry derived again while the
        # first ran) finds it done: analysing again would show it running anew
        log.info("game %s: its analysis is no longer asked as this request says (%s): "
                 "not analysed again", game_id, "none" if row is None else row["status"])
        return
    await run_analysis(rt.games.store, rt.analyses(), live, seat, seed,
                       rt.config.analysis_iterations, progress)


def analysis_lock(game_id: str, player: int) -> str:
    return f"analysis:{game_id}:{player}"


def read_hint(payload: str) -> Advice:
    """The server's side of :func:`hint`: the advice, or the worker's refusal raised."""
    data = json.loads(payload)
    if data.get("advice") is None:
        exc = GameError(str(data.get("message", "")), **(
            {"version": data["version"]} if data.get("version") is not None else {}))
        exc.status, exc.code = int(data.get("status") or 500), str(data.get("error"))
        raise exc
    a = data["advice"]
    return Advice(a["action"], list(a["alternatives"]), str(a["source"]), float(a["seconds"]),
                  str(a.get("budget", "")))


async def retry_stalled(app: App, stalled_after: float) -> int:
    """Put back on the queue the jobs of workers whose heartbeat stopped (a worker killed
    while thinking); returns how many."""
    stalled = await app.job_manager.get_stalled_jobs(seconds_since_heartbeat=stalled_after)
    n = 0
    for job in stalled:
        assert job.id is not None
        try:
            await app.job_manager.retry_job(job)
            log.warning("job %s (%s) of a stalled worker is retried", job.id, job.task_name)
        except ConnectorException:
            # a newer job of the same game already waits (its queueing lock forbids a
            # second): end the stalled one, whose lock held that one back; it does the work
            await app.job_manager.finish_job_by_id_async(job.id, Status.FAILED,
                                                          delete_job=False)
            log.warning("job %s (%s) of a stalled worker is ended: a newer job of the "
                        "same game takes over", job.id, job.task_name)
        n += 1
    return n


async def reap_orphans(app: App, seen: dict[int, float], grace: float,
                       now: float | None = None) -> int:
    """End the computer jobs the queue says this process runs and it does not (returns how
    many), and queue their games again.

    Such an orphan stays ``doing`` under a worker whose heartbeat goes on, so
    :func:`retry_stalled` never sees it, and its ``lock`` holds back every later job of its
    game: the game would wait on the computer for good. It is left behind when the job's end
    could not be written (the database restarting just then) or its retry clashed with a
    newer job of the same game (procrastinate's queueing lock). A job is an orphan only
    after ``grace`` seconds seen so (``seen``: job id -> first seen, kept by the caller), as
    one just fetched may not have begun yet."""
    if not _worker_ids:
        return 0  # no job has run here yet: none can be orphaned
    at = time.monotonic() if now is None else now
    rows = await app.connector.execute_query_all_async(
        "SELECT id, args FROM procrastinate_jobs WHERE status = 'doing' "
        "AND task_name = 'parlor.computer_turn' AND worker_id = ANY(%(workers)s)",
        workers=sorted(_worker_ids))
    doing = {int(r["id"]): r["args"] for r in rows if int(r["id"]) not in _running}
    for job_id in list(seen):
        if job_id not in doing:
            del seen[job_id]
    reaped = 0
    for job_id, kwargs in doing.items():
        first = seen.setdefault(job_id, at)
        if at - first < grace:
            continue
        del seen[job_id]
        game_id = str(kwargs.get("game_id", ""))
        with contextlib.suppress(ConnectorException):  # ended meanwhile: nothing to do
            await app.job_manager.finish_job_by_id_async(job_id, Status.FAILED,
                                                         delete_job=False)
        log.warning("job %s of game %s was left running by nobody (its end was never "
                    "written): ended, and the game's computer asked again", job_id, game_id)
        if game_id:  # (a newer job may wait already: then that one plays)
            await defer_turn(app, game_id, int(kwargs.get("version", -1)))
        reaped += 1
        REAPED.inc()
    return reaped


@dataclass
class Settling:
    """After the database was away, every worker's heartbeat is stale for a while although
    the workers live on: their jobs are not stalled, and retrying them would run each twice
    (the version check keeps the game right, but the first run's end then fails). So no
    worker is called dead until ``wait`` seconds after this worker last failed to reach the
    database: time for the live ones to beat again."""

    wait: float
    failed_at: float | None = None

    def failed(self, now: float) -> None:
        self.failed_at = now

    def settled(self, now: float) -> bool:
        return self.failed_at is None or now - self.failed_at >= self.wait


@dataclass(frozen=True, slots=True)
class WorkerSettings:
    """``parlor worker``'s settings (docs/deploy.md)."""

    concurrency: int = 32  # jobs at once; most of a job's time is the readable pace
    heartbeat: float = 5.0  # seconds between two heartbeats of a worker
    stalled_after: float = 20.0  # a worker silent this long is dead: its jobs are retried
    graceful: float = 10.0  # on SIGTERM, seconds the running jobs may take to finish
    # seconds between two looks for jobs that no notice announced: a computer job queued
    # while the game's previous one still held its lock waits until then (procrastinate's
    # own 5 s is too long for a player watching the table)
    poll: float = 1.0
    name: str = ""
    queues: Sequence[str] = (QUEUE, ANALYSIS_QUEUE)
    # seconds between two rounds of the reconciler (parlor.web.reconcile): a game waiting
    # on the computer with no claim is queued again within a round
    reconcile: float = 3.0
    # seconds a worker's lease on a game lasts unless renewed (the computer's queue on
    # Redis): a worker killed mid-think holds its game up this long, plus a round
    lease: float = 10.0

    @staticmethod
    def from_env() -> WorkerSettings:
        return WorkerSettings(
            concurrency=max(1, int(env_number("PARLOR_WORKER_CONCURRENCY", 32))),
            heartbeat=max(0.2, env_number("PARLOR_WORKER_HEARTBEAT", 5.0)),
            stalled_after=max(1.0, env_number("PARLOR_WORKER_STALLED", 20.0)),
            graceful=max(0.0, env_number("PARLOR_WORKER_GRACEFUL", 10.0)),
            poll=max(0.05, env_number("PARLOR_WORKER_POLL", 1.0)),
            name=os.environ.get("PARLOR_WORKER_NAME", ""),
            queues=tuple(q for q in os.environ.get(
                "PARLOR_WORKER_QUEUES", f"{QUEUE},{ANALYSIS_QUEUE}").split(",") if q),
            reconcile=max(0.1, env_number("PARLOR_WORKER_RECONCILE", 3.0)),
            lease=max(1.0, env_number("PARLOR_WORKER_LEASE", 10.0)),
        )


class ProcrastinateClaims:
    """:class:`parlor.web.reconcile.Claims` on procrastinate's queue (no Redis): a game's
    claim is a computer job of it ``todo`` or ``doing`` (a dead worker's is retried by
    :func:`retry_stalled`, an orphan ended by :func:`reap_orphans`)."""

    def __init__(self, app: App) -> None:
        self.app = app

    async def reconciler_role(self, token: str, period: float) -> bool:
        return True  # each worker reconciles: deferring is idempotent (the queueing lock)

    async def leave_role(self, token: str) -> None:
        pass

    async def enqueue_work(self, work: list[Work]) -> int:
        """Hints, contests and analyses are procrastinate's own jobs here (retried by it):
        the reconciler derives none of them."""
        return 0

    async def enqueue_unclaimed(self, waiting: list[tuple[str, int]]) -> int:
        rows = await self.app.connector.execute_query_all_async(
            "SELECT DISTINCT lock FROM procrastinate_jobs WHERE status IN ('todo', 'doing') "
            "AND task_name = 'parlor.computer_turn'")
        claimed = {str(r["lock"]) for r in rows}
        n = 0
        for game_id, version in waiting:
            if game_lock(game_id) not in claimed:
                n += await defer_turn(self.app, game_id, version)
        return n


class WorkerPruned(RuntimeError):
    """This live worker's row in ``procrastinate_workers`` is gone: another worker pruned it
    after a heartbeat came late (a loaded machine). Its jobs were counted stalled and handed
    on, and what it fetches under that id no longer reaches the queue: it must register
    again (:func:`run_worker` raises this; ``parlor worker`` starts a new registration, and
    a caller that cannot ends with it, so its supervisor restarts it)."""


async def registered(app: App, worker_id: int) -> bool:
    """The worker ``worker_id`` still has its row (one indexed read)."""
    row = await app.connector.execute_query_one_async(
        "SELECT count(*) AS n FROM procrastinate_workers WHERE id = %(id)s", id=worker_id)
    return bool(row["n"])


async def _watch(app: App, settings: WorkerSettings, worker_id: int) -> None:
    """Every heartbeat: this worker's own row is still there (else :class:`WorkerPruned`),
    the stalled jobs of dead workers are retried and orphans reaped."""
    orphans: dict[int, float] = {}
    settling = Settling(settings.stalled_after + settings.heartbeat)
    while True:
        await asyncio.sleep(settings.heartbeat)
        try:
            if not await registered(app, worker_id):
                raise WorkerPruned(f"procrastinate's worker {worker_id} was pruned while "
                                   "alive (a heartbeat came late)")
            if settling.settled(time.monotonic()):
                await retry_stalled(app, settings.stalled_after)
            await reap_orphans(app, orphans, settings.stalled_after)
        except WorkerPruned:
            raise
        except Exception as exc:  # the database away for a moment: try again next round
            settling.failed(time.monotonic())
            log.warning("looking for stalled and orphaned jobs failed (%s): again in "
                        "%s s", short_error(exc), settings.heartbeat)


async def _registration(worker: Worker, running: asyncio.Task[None]) -> int | None:
    """The worker's id once it has registered (None if it ended before)."""
    while worker.worker_id is None and not running.done():
        await asyncio.sleep(0.01)
    return worker.worker_id


async def run_worker(app: App, settings: WorkerSettings, *,
                     install_signal_handlers: bool = True, reconcile: bool = True) -> None:
    """Run jobs of the ``computer`` and ``analysis`` queues (or ``settings.queues``) until
    cancelled (or SIGTERM/SIGINT), and retry the stalled jobs of dead workers meanwhile.
    With ``reconcile`` the reconciler queues every game waiting on the computer with no job
    (:mod:`parlor.web.reconcile`). Raises :class:`WorkerPruned` (after its running jobs
    had ``settings.graceful`` seconds to end) when this worker's registration is gone."""
    from parlor.web.reconcile import Reconciler

    app.perform_import_paths()  # type: ignore[no-untyped-call]
    worker = Worker(
        app=app, queues=list(settings.queues), concurrency=settings.concurrency,
        name=settings.name or f"parlor-worker-{os.getpid()}",
        install_signal_handlers=install_signal_handlers, delete_jobs="successful",
        update_heartbeat_interval=settings.heartbeat,
        stalled_worker_timeout=settings.stalled_after,
        shutdown_graceful_timeout=settings.graceful,
        fetch_job_polling_interval=settings.poll)
    loop = asyncio.get_running_loop()
    running = loop.create_task(worker.run())  # type: ignore[no-untyped-call]
    side: list[asyncio.Task[None]] = []
    try:
        worker_id = await _registration(worker, running)
        if worker_id is not None:
            _worker_ids.add(worker_id)
            side.append(loop.create_task(_watch(app, settings, worker_id)))
        if reconcile and QUEUE in settings.queues:
            side.append(loop.create_task(Reconciler(
                runtime().games, ProcrastinateClaims(app)).run(settings.reconcile)))
        await _until_pruned(app, worker, running, side[:1], worker_id, settings.graceful)
    finally:
        for task in (*side, running):
            task.cancel()
        # the worker's own shutdown (its running jobs, its unregistering) needs the app
        # still open: waited for here, before the caller closes it
        await asyncio.wait({*side, running}, timeout=settings.graceful + 5)
        for task in (*side, running):
            if task.done() and not task.cancelled():
                task.exception()  # retrieved: already raised above, or a side task's end
        if _runtime is not None:
            _runtime.close()


async def _until_pruned(app: App, worker: Worker, running: asyncio.Task[None],
                        watcher: list[asyncio.Task[None]], worker_id: int | None,
                        graceful: float) -> None:
    """Wait for the worker's end (SIGTERM or SIGINT: returns; its error: raised), or for
    the watcher to find it pruned: then stop it (its running jobs get ``graceful``
    seconds) and raise :class:`WorkerPruned`. A worker that failed after its row was
    pruned (its fetch names a worker that is gone) is pruned too."""
    await asyncio.wait({running, *watcher}, return_when=asyncio.FIRST_COMPLETED)
    if running.done():
        exc = running.exception()
        if exc is not None and worker_id is not None and await _gone(app, worker_id):
            raise WorkerPruned(f"procrastinate's worker {worker_id} was pruned while "
                               f"alive ({short_error(exc)})") from exc
        await running  # SIGTERM or SIGINT: the running jobs ended (or its error)
        return
    pruned = watcher[0].exception()
    log.error("%s: this worker stops its jobs and registers again", pruned)
    worker.stop()  # type: ignore[no-untyped-call]
    await asyncio.wait({running}, timeout=graceful + 10)
    raise WorkerPruned(str(pruned)) from pruned


async def _gone(app: App, worker_id: int) -> bool:
    """The worker's row is known to be gone (False when the database cannot tell)."""
    try:
        return not await registered(app, worker_id)
    except Exception:  # the database away: the worker's own error is said as it is
        return False


async def serve_queue(app: App, settings: WorkerSettings, *,
                      install_signal_handlers: bool = True) -> None:
    """:func:`run_worker`, registered again whenever its registration was pruned (a
    server's own worker: it never goes on alive doing nothing)."""
    while True:
        try:
            await run_worker(app, settings, install_signal_handlers=install_signal_handlers)
            return
        except WorkerPruned as exc:
            log.error("%s: registering again (PARLOR_WORKER_HEARTBEAT may be short for this "
                      "machine)", exc)


def short_error(exc: BaseException) -> str:
    """An error in one line (a database going away says several)."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"[:200]


__all__ = [
    "ANALYSIS_QUEUE",
    "QUEUE",
    "RETRIES",
    "HintAnswer",
    "ProcrastinateClaims",
    "Settling",
    "WorkerPruned",
    "WorkerSettings",
    "analyse",
    "analysis",
    "analysis_lock",
    "answer_hint",
    "answer_match",
    "computer_turn",
    "connect",
    "defer_turn",
    "game_lock",
    "hint",
    "install",
    "match_move",
    "read_hint",
    "reap_orphans",
    "registered",
    "retry_stalled",
    "run_worker",
    "serve_queue",
    "short_error",
    "tasks",
]
