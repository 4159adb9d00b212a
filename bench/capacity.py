"""What one action costs each component of a real deployment (issue 38): the figures of
docs/deploy.md's "Capacity: 10,000 live games".

    .venv/bin/python bench/capacity.py [--players 20] [--actions 1500] [--repeats 3]

Starts the chaos test's deployment (tests/web/test_chaos.py: nginx with deploy/parlor.nginx
in front of two ``parlor serve``, two ``parlor worker``, Redis with the computer's queue and
the wake-ups) on a PostgreSQL with fsync and synchronous commit on, as a deployment runs.
``--players`` threads play games through nginx (the chaos test's players: a long poll until
their decision, then a random legal action). Each round waits until ``--actions`` more
actions (the humans' and the computer's) are stored, and prints per stored action:

- CPU ms of the servers, the workers (with their pools' processes), PostgreSQL (the
  postmaster and every backend: live ones read, ended ones in the postmaster's children
  time), Redis and nginx (master and workers): utime + stime from /proc/<pid>/stat, the
  process and its descendants, children reaped included (cutime + cstime);
- Redis commands (INFO commandstats) and PostgreSQL commits (pg_stat_database
  xact_commit) per action;

``--repeats`` rounds on the same deployment, with the machine's load average. Then, with
the players stopped, the idle phase: the deployment with no request for ``--idle-seconds``,
then ``--idle-games`` fresh games re-polled (``wait=30``, as a page does while its human
thinks) as long, and the CPU per poll answer from the difference. Then the
plain one-row UPDATE commits per second of this PostgreSQL (bench/deploy.py's pgbench-like
figure, 8 threads), the measure that the site's commits/s are held against.

The players run in this process on the same cores, so the figures are per action, not the
deployment's throughput; on a loaded machine they vary by the load (see the rounds).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import psycopg
import redis

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TICK = os.sysconf("SC_CLK_TCK")
COMPONENTS = ("servers", "workers", "postgresql", "redis", "nginx")


def _stat(pid: int) -> list[str] | None:
    """/proc/<pid>/stat's fields after the command (field 3 on), or None when it is gone."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return raw[raw.rindex(")") + 2:].split()


def _children() -> dict[int, list[int]]:
    """Every live process's children, by parent."""
    out: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields is not None:
                out.setdefault(int(fields[1]), []).append(int(entry.name))
    return out


def cpu_seconds(roots: list[int], tree: dict[int, list[int]]) -> float:
    """CPU seconds (user + system) of ``roots`` and all their live descendants, with the
    children each has reaped (a backend that ended is in the postmaster's cutime)."""
    total, todo = 0, list(roots)
    while todo:
        pid = todo.pop()
        fields = _stat(pid)
        if fields is None:
            continue
        # fields from state (3): utime 14, stime 15, cutime 16, cstime 17 -> 11..14
        total += sum(int(v) for v in fields[11:15])
        todo.extend(tree.get(pid, []))
    return total / TICK


class Meter:
    """The deployment's counters: CPU by component, Redis commands, PostgreSQL commits,
    stored actions."""

    def __init__(self, dep: object, players: object) -> None:
        self.dep, self.players = dep, players
        d = dep  # test_chaos.Deployment
        self.roots = {
            "servers": [p.pid for p in d.servers],  # type: ignore[attr-defined]
            "workers": [p.pid for p in d.workers],  # type: ignore[attr-defined]
            "postgresql": [int((d.pg.data / "postmaster.pid").read_text()  # type: ignore[attr-defined]
                               .split()[0])],
            "redis": [d.redis.proc.pid],  # type: ignore[attr-defined]
            "nginx": [d.site.proc.pid],  # type: ignore[attr-defined]
        }
        self.redis = redis.Redis.from_url(d.redis.url)  # type: ignore[attr-defined]
        from parlor.store import libpq_url
        self.pg = psycopg.connect(libpq_url(d.url), autocommit=True)  # type: ignore[attr-defined]

    def read(self) -> dict[str, float]:
        tree = _children()
        out = {name: cpu_seconds(roots, tree) for name, roots in self.roots.items()}
        stats = self.redis.info("commandstats")
        # this meter's own INFO calls left out
        out["redis commands"] = sum(v["calls"] for k, v in stats.items()
                                    if k != "cmdstat_info")
        # xact_commit counts every transaction, reads too; the transaction ids handed out
        # count those that wrote (each one a WAL flush to wait for); wal_sync the flushes
        row = self.pg.execute(
            "SELECT sum(xact_commit), (SELECT count(*) FROM actions), "
            "(SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'), "
            "(SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint), "
            "(SELECT wal_sync FROM pg_stat_wal) FROM pg_stat_database").fetchone()
        assert row is not None
        (out["pg commits"], out["actions"], out["pg connections"], out["pg writes"],
         out["wal flushes"]) = map(float, row)
        out["players"] = sum(os.times()[:2])  # this process: the players' threads
        rec = self.players.record  # type: ignore[attr-defined]
        with rec.lock:
            out["human actions"] = float(len(rec.acks))
            out["failures"] = float(len(rec.failures))
        return out

    def close(self) -> None:
        self.redis.close()
        self.pg.close()


def round_of(meter: Meter, actions: int, timeout: float) -> dict[str, float]:
    """The counters' change while ``actions`` more actions are stored."""
    time.sleep(1.5)  # PostgreSQL's statistics reach pg_stat_database within a second
    before, start = meter.read(), time.monotonic()
    while meter.read()["actions"] - before["actions"] < actions:
        if time.monotonic() - start > timeout:
            break
        time.sleep(1.0)
    time.sleep(1.5)
    after = meter.read()
    delta = {k: after[k] - before[k] for k in after}
    delta["seconds"] = time.monotonic() - start - 1.5
    delta["pg connections"] = after["pg connections"]
    return delta


def idle_polls(meter: Meter, base: str, games: int, seconds: float) -> None:
    """What live games cost while their humans think: first the deployment with no request
    at all (its heartbeats, reconcilers, pools) for ``seconds``, then ``games`` fresh games
    each re-polled (``wait=30``, as a page does) for ``seconds``; prints both per second
    and the difference per poll request."""
    import threading

    import httpx

    with httpx.Client(base_url=base, timeout=40) as c:
        made = [c.post("/api/games", json={"level": "random", "seed": i, "max_turns": 10})
                for i in range(games)]
    polls = [(r.json()["id"], r.json()["token"]) for r in made if r.status_code == 201]
    refused = Counter(r.status_code for r in made if r.status_code != 201)
    time.sleep(5)  # the computer's first actions (where it starts) are made
    quiet = _window(meter, seconds)
    stop, answered, failed = threading.Event(), [0] * len(polls), Counter[int]()

    def poll(i: int) -> None:
        gid, token = polls[i]
        after = -1
        with httpx.Client(base_url=base, timeout=40) as c:
            while not stop.is_set():
                r = c.get(f"/api/games/{gid}", headers={"X-Parlor-Token": token},
                          params={"after": after, "wait": 30})
                if r.status_code != 200:  # counted and printed: the figure is then off
                    failed[r.status_code] += 1
                    time.sleep(1)
                    continue
                after = r.json()["version"]
                answered[i] += 1

    threads = [threading.Thread(target=poll, args=(i,), daemon=True)
               for i in range(len(polls))]
    for t in threads:
        t.start()
    time.sleep(35)  # every poll past its first answer, into its 30 s waits
    first = sum(answered)
    busy = _window(meter, seconds)
    n = max(1, sum(answered) - first)
    stop.set()
    print(f"idle: {len(polls)} games re-polled (wait=30), {n} poll answers in {seconds:g} s "
          f"(load {os.getloadavg()[0]:.1f}); games refused {dict(refused)}, "
          f"polls failed {dict(failed)}")
    for c in COMPONENTS:
        print(f"  {c:10} CPU ms/s: no request {1000 * quiet[c] / seconds:6.2f}, "
              f"polled {1000 * busy[c] / seconds:6.2f}; per poll answer "
              f"{1000 * (busy[c] - quiet[c]) / n:.2f} ms")
    print(f"  per second: Redis commands no request {quiet['redis commands'] / seconds:.1f}, "
          f"polled {busy['redis commands'] / seconds:.1f}; PostgreSQL transactions "
          f"{quiet['pg commits'] / seconds:.1f}, polled {busy['pg commits'] / seconds:.1f}")
    for t in threads:
        t.join(35)


def _window(meter: Meter, seconds: float) -> dict[str, float]:
    before = meter.read()
    time.sleep(seconds)
    after = meter.read()
    return {k: after[k] - before[k] for k in after}


def plain_commits(url: str, threads: int = 8, seconds: float = 5.0) -> float:
    """bench/deploy.py's plain one-row UPDATE commits per second on this PostgreSQL."""
    from sqlalchemy import text

    from bench.deploy import rate
    from parlor.store import GameStore
    from parlor.store.db import GameRow

    store = GameStore(url, pool_size=threads + 2)

    def work(i: int):  # type: ignore[no-untyped-def]
        gid = f"plain{i}"
        store.insert(GameRow(id=gid, kind="play", human=0, level="random", seed=1,
                             settings="", created=time.time()), "hash")

        def step() -> None:
            with store.engine.begin() as conn:
                conn.execute(text("UPDATE games SET updated = :t WHERE id = :g"),
                             {"t": time.time(), "g": gid})
        return step

    try:
        return rate(work, threads, seconds)
    finally:
        store.close()


def component_costs(players: int = 20, actions: int = 600, warmup: float = 10.0,
                    timeout: float = 300.0) -> dict[str, float]:
    """One round of :func:`main`'s on a deployment of its own: CPU ms per stored action of
    each of :data:`COMPONENTS`, and the round's actions, seconds and failures (for
    bench/deploy.py, which prints them beside its commit figures)."""
    from tests.pgserver import PostgresServer
    from tests.web import test_chaos as chaos

    chaos.PLAYERS = players  # the Players class reads it when made
    logs = Path(tempfile.mkdtemp(prefix="parlor-capacity-"))
    dep = chaos.Deployment(logs)
    dep.pg = PostgresServer(durable=True)  # fsync on: a deployment's commits
    team = None
    try:
        dep.start()
        team = chaos.Players(dep.site.url).start()
        meter = Meter(dep, team)
        time.sleep(warmup)
        d = round_of(meter, actions, timeout)
        meter.close()
    finally:
        if team is not None:
            team.stop()
        dep.stop()
    n = max(1.0, d["actions"])
    out = {c: 1000 * d[c] / n for c in COMPONENTS}
    out.update(actions=d["actions"], seconds=d["seconds"], failures=d["failures"])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--actions", type=int, default=1500)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=300.0,
                        help="seconds a round may take (a slow round ends with fewer actions)")
    parser.add_argument("--warmup", type=float, default=15.0)
    parser.add_argument("--idle-games", type=int, default=60,
                        help="games re-polled while nobody acts (0: no idle measure); "
                             "deploy/parlor.nginx allows 64 connections per address")
    parser.add_argument("--idle-seconds", type=float, default=60.0)
    args = parser.parse_args()
    from tests.pgserver import PostgresServer
    from tests.web import test_chaos as chaos

    chaos.PLAYERS = args.players  # the Players class reads it when made
    logs = Path(tempfile.mkdtemp(prefix="parlor-capacity-"))
    dep = chaos.Deployment(logs)
    dep.pg = PostgresServer(durable=True)  # fsync on: a deployment's commits
    players = None
    try:
        dep.start()
        players = chaos.Players(dep.site.url).start()
        meter = Meter(dep, players)
        print(f"{len(dep.servers)} servers, {len(dep.workers)} workers, nginx, Redis, "
              f"PostgreSQL (fsync on); {args.players} players, random legal moves, computer "
              f"level random; {os.cpu_count()} cores; logs in {logs}")
        time.sleep(args.warmup)  # every player in a game, the processes' caches warm
        rounds = []
        for i in range(args.repeats):
            load = os.getloadavg()
            d = round_of(meter, args.actions, args.timeout)
            rounds.append(d)
            n = max(1.0, d["actions"])
            cpu = "  ".join(f"{c} {1000 * d[c] / n:.2f}" for c in COMPONENTS)
            print(f"round {i + 1}: {d['actions']:.0f} actions ({d['human actions']:.0f} human) "
                  f"in {d['seconds']:.0f} s = {d['actions'] / d['seconds']:.1f}/s; load "
                  f"{load[0]:.1f} before, {os.getloadavg()[0]:.1f} after; "
                  f"failures {d['failures']:.0f}; PG client connections "
                  f"{d['pg connections']:.0f}")
            print(f"  CPU ms per action: {cpu}  (sum "
                  f"{1000 * sum(d[c] for c in COMPONENTS) / n:.2f})")
            print(f"  per action: Redis commands {d['redis commands'] / n:.2f}, "
                  f"PostgreSQL commits {d['pg commits'] / n:.2f} (writing "
                  f"{d['pg writes'] / n:.2f}, WAL flushes {d['wal flushes'] / n:.2f}); "
                  f"the players' own CPU {1000 * d['players'] / n:.2f} ms")
        print("median over the rounds, per action:")
        for key in (*COMPONENTS, "redis commands", "pg commits", "pg writes", "wal flushes"):
            vals = [r[key] / max(1.0, r["actions"]) * (1000 if key in COMPONENTS else 1)
                    for r in rounds]
            unit = "CPU ms" if key in COMPONENTS else ""
            print(f"  {key:15} {unit:6} median {statistics.median(vals):7.2f}  "
                  f"(min {min(vals):.2f}, max {max(vals):.2f})")
        human = sum(r["human actions"] for r in rounds) / max(1.0, sum(r["actions"]
                                                                       for r in rounds))
        print(f"  human share of the actions: {human:.2f}")
        players.stop()
        players = None
        if args.idle_games:
            idle_polls(meter, dep.site.url, args.idle_games, args.idle_seconds)
        meter.close()
        load = os.getloadavg()[0]
        print(f"plain one-row UPDATE commits, 8 threads, 5 s (fsync on, load {load:.1f}): "
              f"{plain_commits(dep.url):.0f}/s")
    finally:
        if players is not None:
            players.stop()
        dep.stop()


if __name__ == "__main__":
    main()
