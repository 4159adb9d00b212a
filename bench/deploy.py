"""The commit path of a PostgreSQL deployment, measured (issue 38): what one action costs
the database, and how many a database commits per second against plain commits.

    .venv/bin/python bench/deploy.py [--threads 8] [--seconds 5] [--repeats 3]

Starts its own PostgreSQL from Debian's binaries (as the tests do: tests/pgserver.py), with
fsync and synchronous commit ON, as a deployment runs. Prints:

- statements per action: every SQL statement, BEGIN and COMMIT included, that the server
  sends for one human action (``Games.act``: the version check, the commit) and for one
  computer action (``Games.apply_computer``), counted on the engine;
- committed actions per second from ``--threads`` threads through the real commit path
  (``GameStore.append``: the versioned UPDATE, the action's INSERT and the NOTIFY that wakes
  other servers, one statement between BEGIN and COMMIT), through the same path without the
  NOTIFY (and without it with the UPDATE and the INSERT as two statements, as on SQLite:
  what the one statement saves), and plain one-row UPDATE
  commits (pgbench's simple case), interleaved, ``--repeats`` rounds; the ratios to the
  plain figure. A notifying commit holds PostgreSQL's global notify lock through its WAL
  flush, so commits stop sharing flushes: that ratio is the design's ceiling. The same path
  with ``PARLOR_REDIS_URL`` (no NOTIFY; a PUBLISH on a local Redis after each commit) shows
  what moving the wake-ups off PostgreSQL gives back;
- the same with the computer's turn queued after each action, as a server does when the
  computer is to act: on procrastinate (a job row whose insert fires procrastinate's NOTIFY
  trigger, wake-ups by NOTIFY: the deployment without Redis) and on the Redis queue
  (``parlor.web.redisqueue``: the enqueue script on Redis, nothing more in PostgreSQL, with
  the wake-ups on Redis: the deployment with ``PARLOR_REDIS_URL``). The job's later fetch
  and end by a worker (more statements on procrastinate, a BRPOP and a lease on Redis) are
  not in these figures;
- the web reply's cost at step 500 of a long game over its cost at step 5 (target 1.1,
  the replies rendering none of the history they do not send): the player's GET, the
  first reply at a position (what a move's reply pays once) and the POST of an action, as
  ``bench/web_reply.py`` measures them (process CPU, in this process, on SQLite: what a
  server does for a reply, not the database's share);
- CPU ms per stored action of each component (servers, workers, PostgreSQL, Redis,
  nginx) of a running deployment: one round of ``bench/capacity.py`` (its own nginx, two
  servers, two workers, Redis and PostgreSQL with fsync on, 20 players through nginx,
  ``--component-actions`` stored actions; capacity.py itself runs more rounds and the idle
  polls);
- what one hint costs, end to end (a server and its own worker in this process, asking the
  same decision's hint ``--hints`` times in a row): SQL statements in PostgreSQL per hint
  (the store's, counted on its engine, and procrastinate's, counted on its cursors; the
  worker's polling during the run included), procrastinate job rows written per hint, and
  Redis commands per hint (the BRPOP polling and the reconciler's rounds included), on
  procrastinate's queue (the deployment without Redis, and with Redis before hints moved
  to it) and on the Redis queue.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import logging
import os
import queue
import random
import statistics
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import event, text

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def count_statements(store: object) -> Callable[[], int]:
    """A counter of the statements (BEGIN and COMMIT included) sent through ``store``."""
    n = [0]
    engine = store.engine  # type: ignore[attr-defined]

    def one(*_args: object, **_kw: object) -> None:
        n[0] += 1

    event.listen(engine, "before_cursor_execute", one)
    event.listen(engine, "begin", one)
    event.listen(engine, "commit", one)
    event.listen(engine, "rollback", one)
    return lambda: n[0]


def statements_per_action(url: str, games_n: int = 4) -> tuple[float, float]:
    """(per human action, per computer action) over random games, as a server runs them."""
    from parlor.rules.engine import legal_actions
    from parlor.store import GameStore
    from parlor.web.games import Games

    store = GameStore(url)
    games = Games(store, 100)
    counted = count_statements(store)
    human = computer = 0
    human_n = computer_n = 0
    rng = random.Random(1)
    for seed in range(games_n):
        live, _token = games.create("random", seed, 60)
        while live.state.is_over is False and live.row.status == "live":
            legal = [str(a) for a in legal_actions(live.state)]
            choice = rng.choice(legal)
            before = counted()
            if live.state.actor == live.human:
                games.act(live, live.row.version, choice, 0, live.row.takebacks)
                human += counted() - before
                human_n += 1
            else:
                games.apply_computer(live, live.row.version, choice,
                                     takebacks=live.row.takebacks)
                computer += counted() - before
                computer_n += 1
    store.close()
    return human / max(1, human_n), computer / max(1, computer_n)


def rate(work: Callable[[int], Callable[[], None]], threads: int, seconds: float) -> float:
    """Operations per second from ``threads`` threads doing ``work(thread)()`` in a loop."""
    done = [0] * threads
    stop = threading.Event()

    def loop(i: int) -> None:
        step = work(i)
        while not stop.is_set():
            step()
            done[i] += 1

    pool = [threading.Thread(target=loop, args=(i,)) for i in range(threads)]
    for t in pool:
        t.start()
    time.sleep(seconds)
    stop.set()
    for t in pool:
        t.join()
    return sum(done) / seconds


def commit_rates(url: str, threads: int, seconds: float, repeats: int, redis_url: str
                 ) -> dict[str, list[float]]:
    from parlor.store import GameStore
    from parlor.store.db import GameRow
    from parlor.web.wakeups import attach

    store = GameStore(url, pool_size=threads + 2)
    quiet = GameStore(url, pool_size=threads + 2)
    quiet.announce = lambda _payload: None  # the same commit, without its NOTIFY
    # the same without the NOTIFY, its UPDATE and INSERT apart (SQLite's path, as PostgreSQL's
    # was before they became one statement): the statement saved, paired in one run
    apart = GameStore(url, pool_size=threads + 2)
    apart.is_postgres, apart.announce = False, quiet.announce
    redised = GameStore(url, pool_size=threads + 2)
    # no NOTIFY; the payload goes to Redis after the commit (issue 38)
    publisher = attach(redised, redis_url)
    assert publisher is not None
    ids = itertools.count()
    plies: dict[str, int] = {}

    def new_game() -> str:
        gid = f"bench{next(ids)}"
        store.insert(GameRow(id=gid, kind="play", human=0, level="random", seed=1,
                             settings="", created=time.time()), "hash")
        plies[gid] = 0
        return gid

    def appending(on: GameStore) -> Callable[[int], Callable[[], None]]:
        def work(_i: int) -> Callable[[], None]:
            gid = new_game()

            def step() -> None:
                on.append(gid, plies[gid], "pass", turn=1, status="live", result="")
                plies[gid] += 1
            return step
        return work

    def plain(_i: int) -> Callable[[], None]:
        gid = new_game()

        def step() -> None:
            with store.engine.begin() as conn:
                conn.execute(text("UPDATE games SET updated = :t WHERE id = :g"),
                             {"t": time.time(), "g": gid})
        return step

    def with_job(_i: int) -> Callable[[], None]:
        """An action, then its computer's turn deferred on procrastinate (a loop and a
        queue connection per thread, as each server has its own)."""
        from procrastinate import App, PsycopgConnector
        from procrastinate.tasks import configure_task

        from parlor.store import libpq_url
        from parlor.web import jobs

        logging.getLogger("procrastinate").setLevel(logging.ERROR)  # its "app in __main__"
        gid = new_game()
        loop = asyncio.new_event_loop()
        app = App(connector=PsycopgConnector(conninfo=libpq_url(url), min_size=1,
                                             max_size=1))
        loop.run_until_complete(app.open_async())
        opened.append((loop, app))

        async def defer(lock: str, ply: int) -> None:  # as jobs.defer_turn does
            await configure_task(name="parlor.computer_turn", job_manager=app.job_manager,
                                 lock=lock, queueing_lock=lock, queue=jobs.QUEUE,
                                 task_kwargs={"game_id": gid, "version": ply}).defer_async()

        def step() -> None:
            ply = plies[gid]
            store.append(gid, ply, "pass", turn=1, status="live", result="")
            plies[gid] += 1
            # a lock per turn: each defer inserts a row (a real game's would wait on the
            # previous turn's job, which a worker had ended by then)
            loop.run_until_complete(defer(jobs.game_lock(f"{gid}-{ply}"), ply))
        return step

    turns: queue.SimpleQueue[str | None] = queue.SimpleQueue()

    def enqueuer() -> None:
        """What a server's event loop does after the reply (QueueConductor._ask_redis): the
        enqueue script on Redis, off the committing thread; what has queued up goes in one
        pipeline."""
        import redis as sync_redis

        from parlor.web import redisqueue

        client = sync_redis.Redis.from_url(redis_url)
        enqueue = client.register_script(redisqueue._ENQUEUE)
        while True:
            batch = [turns.get()]
            with contextlib.suppress(queue.Empty):
                while batch[-1] is not None and len(batch) < 256:
                    batch.append(turns.get_nowait())
            pipe = client.pipeline(transaction=False)
            for turn in (t for t in batch if t is not None):
                enqueue(keys=[redisqueue.queued_key(turn), redisqueue.lease_key(turn),
                              redisqueue.QUEUE_KEY], args=[turn, 20000], client=pipe)
            pipe.execute()
            if batch[-1] is None:
                client.delete(redisqueue.QUEUE_KEY)
                client.close()
                return

    pushing = threading.Thread(target=enqueuer, daemon=True)
    pushing.start()

    def with_redis_queue(_i: int) -> Callable[[], None]:
        """An action (wake-ups on Redis), then its computer's turn on the Redis queue."""
        gid = new_game()

        def step() -> None:
            ply = plies[gid]
            redised.append(gid, ply, "pass", turn=1, status="live", result="")
            plies[gid] += 1
            turns.put(f"{gid}-{ply}")  # one entry per turn, as if a worker popped the last
        return step

    opened: list[tuple[asyncio.AbstractEventLoop, object]] = []
    kinds = {"plain UPDATE commits": plain, "actions, real commit path": appending(store),
             "actions without the NOTIFY": appending(quiet),
             "the same, UPDATE, INSERT apart": appending(apart),
             "actions, wake-ups on Redis": appending(redised),
             "actions + job (procrastinate)": with_job,
             "actions + turn on Redis queue": with_redis_queue}
    out: dict[str, list[float]] = {k: [] for k in kinds}
    for _ in range(repeats):  # interleaved: the machine's load falls on every kind alike
        for name, work in kinds.items():
            out[name].append(rate(work, threads, seconds))
    for loop, app in opened:
        loop.run_until_complete(app.close_async())  # type: ignore[attr-defined]
        loop.close()
    turns.put(None)
    pushing.join(30)
    for each in (store, quiet, apart, redised):
        each.close()
    publisher.close()
    return out


def per_hint(url: str, redis_url: str, n: int) -> dict[str, tuple[float, float, float]]:
    """(SQL statements, procrastinate job rows, Redis commands) per hint, by queue."""
    import psycopg
    import redis as sync_redis
    from fastapi.testclient import TestClient

    from parlor.web.app import create_app
    from parlor.web.config import WebConfig

    calls = [0]
    original = psycopg.AsyncCursor.execute

    async def counted(self: psycopg.AsyncCursor[object], *args: object,
                      **kw: object) -> psycopg.AsyncCursor[object]:
        calls[0] += 1
        return await original(self, *args, **kw)  # type: ignore[arg-type]

    psycopg.AsyncCursor.execute = counted  # type: ignore[assignment,method-assign]
    watcher = sync_redis.Redis.from_url(redis_url)
    out: dict[str, tuple[float, float, float]] = {}
    try:
        for name, on_redis in (("procrastinate", ""), ("redis", redis_url)):
            config = WebConfig(database_url=url, redis_url=on_redis, pace=0.0,
                               worker_kind="thread", embedded_worker=True,
                               hint_rate=1e6, hint_burst=10**6)
            app = create_app(config)
            with TestClient(app) as c:
                store = app.state.games.store  # type: ignore[attr-defined]
                statements = count_statements(store)
                gid, token, version = _human_to_act(c)

                def hint(gid: str = gid, token: str = token, version: int = version) -> None:
                    r = c.get(f"/api/games/{gid}/hint", params={"version": version},
                              headers={"X-Parlor-Token": token})
                    assert r.status_code == 200, r.text

                hint()  # warm: the game cached by server and worker
                jobs_before = _jobs_written(url)
                sql, aio = statements(), calls[0]
                cmds = int(watcher.info("stats")["total_commands_processed"])
                for _ in range(n):
                    hint()
                out[name] = ((statements() - sql + calls[0] - aio) / n,
                             (_jobs_written(url) - jobs_before) / n,
                             (int(watcher.info("stats")["total_commands_processed"])
                              - cmds - 1) / n)
    finally:
        psycopg.AsyncCursor.execute = original  # type: ignore[method-assign]
        watcher.close()
    return out


def _human_to_act(c: object) -> tuple[str, str, int]:
    """A new game against the computer, once the human is to act: (id, token, version)."""
    r = c.post("/api/games", json={"level": "random", "seed": 7,  # type: ignore[attr-defined]
                                   "max_turns": 12})
    g = r.json()
    while True:
        snap = c.get(f"/api/games/{g['id']}", params={"wait": 2},  # type: ignore[attr-defined]
                     headers={"X-Parlor-Token": g["token"]}).json()
        if not snap["thinking"]:
            return str(g["id"]), str(g["token"]), int(snap["version"])


def _jobs_written(url: str) -> int:
    """procrastinate job rows written so far (its sequence: deleted rows count too)."""
    import psycopg

    from parlor.store import libpq_url

    with psycopg.connect(libpq_url(url)) as conn:
        row = conn.execute("SELECT last_value, is_called FROM procrastinate_jobs_id_seq"
                           ).fetchone()
    assert row is not None
    return int(row[0]) if row[1] else 0


def web_replies(seconds: float) -> None:
    """Prints bench/web_reply.py's replies at step 5 and step 500, and their ratio."""
    sys.path.insert(0, str(ROOT / "bench"))
    from web_reply import RATIO_TARGET, reply_ratios

    load = os.getloadavg()[0]
    early, late, replies = reply_ratios(seconds=seconds)
    print(f"web replies late over early in one game, like with like: the human's first "
          f"'keep' decisions from step 5 (steps {', '.join(map(str, early))}) and from step "
          f"500 (steps {', '.join(map(str, late))}) (process CPU, each position's median of "
          f"3 interleaved rounds, the mean of the positions; load average {load:.1f} at the "
          f"start; target <= {RATIO_TARGET}):")
    for name, (lo, hi) in replies.items():
        print(f"  {name:32} {lo:6.0f} us  {hi:6.0f} us  ratio {hi / lo:.2f}")


def components(actions: int) -> None:
    """Prints one round of bench/capacity.py: each component's CPU per stored action."""
    sys.path.insert(0, str(ROOT / "bench"))
    from capacity import COMPONENTS, component_costs

    load = os.getloadavg()[0]
    got = component_costs(actions=actions)
    print(f"CPU per stored action, a deployment of 2 servers and 2 workers behind nginx, "
          f"20 players, {got['actions']:.0f} actions in {got['seconds']:.0f} s, "
          f"{got['failures']:.0f} failed requests (load average {load:.1f} at the start; "
          f"bench/capacity.py for more rounds):")
    print("  " + "  ".join(f"{c} {got[c]:.2f} ms" for c in COMPONENTS))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--hints", type=int, default=30,
                        help="hints asked on each queue for the per-hint figures")
    parser.add_argument("--reply-seconds", type=float, default=1.0,
                        help="CPU seconds per round of each web reply timed (0: none)")
    parser.add_argument("--component-actions", type=int, default=600,
                        help="stored actions of the CPU per component round (0: none)")
    args = parser.parse_args()
    from tests.pgserver import PostgresServer  # the tests' own PostgreSQL starter
    from tests.redisserver import RedisServer  # and Redis starter

    pg = PostgresServer(durable=True).start()
    rd = RedisServer().start()
    try:
        url = pg.url(pg.new_database())
        per_human, per_computer = statements_per_action(url)
        print(f"statements per action (BEGIN and COMMIT included): human "
              f"{per_human:.1f}, computer {per_computer:.1f}")
        load = os.getloadavg()[0]
        rates = commit_rates(url, args.threads, args.seconds, args.repeats, rd.url)
        base = statistics.median(rates["plain UPDATE commits"])
        print(f"commits per second, {args.threads} threads, {args.repeats} interleaved "
              f"rounds of {args.seconds:g} s (load average {load:.1f} at the start; fsync on):")
        for name, values in rates.items():
            med = statistics.median(values)
            print(f"  {name:30} median {med:7.0f}/s  ({', '.join(f'{v:.0f}' for v in values)})"
                  f"  ratio to plain {med / base:.2f}")
        if args.reply_seconds > 0:
            web_replies(args.reply_seconds)
        if args.component_actions > 0:
            components(args.component_actions)
        if args.hints > 0:
            print(f"per hint, {args.hints} hints, server and worker in this process:")
            # a database of its own: the commit figures' games are not real games (their
            # actions do not replay), and the workers' reconciler reads every live game
            fresh = pg.url(pg.new_database())
            for name, (sql, rows, cmds) in per_hint(fresh, rd.url, args.hints).items():
                print(f"  on {name:14} SQL statements {sql:5.1f}  job rows {rows:4.1f}  "
                      f"Redis commands {cmds:5.1f}")
    finally:
        rd.stop()
        pg.stop()


if __name__ == "__main__":
    main()
