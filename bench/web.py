#!/usr/bin/env python3
"""Web app targets: a move's round trip with many games at once, and the first page's weight.

    python bench/web.py [--games 50] [--seconds 60] [--think 0.3,1.5] [--pace 0.9]
                        [--level novice] [--workers 2] [--stress]

Starts ``python -m parlor.web`` on a free port of 127.0.0.1 with a fresh SQLite file,
creates ``--games`` games, then plays them all at once: one asyncio client per game waits
for its decision (long polling, as the page does), thinks a random time in ``--think``
seconds, picks a random legal action and POSTs it. The computer plays at the server's
readable pace (``--pace``, the default 0.9 s between its actions). The round trip timed is
the POST, from the request to the reply: the action checked, applied and committed to SQLite,
and the new view returned (the computer's answer is not in it: it comes later, from the
worker pool). ``--stress`` removes both the players' thinking and the pace, to measure the
saturated throughput (then the latency is mostly the queue of 50 players all waiting).

Targets: median < 50 ms with 50 games; first page load < 300 KB (the HTML, the stylesheet,
every JS module and the icon; compressed as sent, and uncompressed).

``--scale`` measures a deployment (docs/deploy.md) instead: a PostgreSQL started here (as
the tests start it), then for each number of games in ``--scale-games`` (default 50,500)
and each of 1/2 server processes x 1/2 ``parlor worker`` processes, the same human-paced
play for ``--seconds``, the games spread over the servers as a load balancer would; and one
SQLite server (its own worker pool) beside it. It prints moves/s (the players' moves, and
every action committed) and the move round trip (median, p99), side by side.

``--friends N`` measures games between two people instead (issue 45): N friend games at
once, each player an asyncio client that long polls its seat's table (``GET
/api/friends/{id}?after=V&wait=20``, as the page does), thinks a random time in ``--think``
and plays a random legal decision when it is its own. Timed: from the start of one player's
POST to the other player's long poll returning with the new version (the move on the other's
table), median and p95. On one server with a SQLite file by default; with ``--servers 2`` on
a PostgreSQL and a Redis started here (as the tests start them: the wake-ups between servers
on Redis, or PostgreSQL's ``NOTIFY`` with ``--fanout notify``), the inviter on the first
server and the friend on the second, so each move crosses servers. A game that ends is
followed by a new one at its table. The machine's load (``uptime``) is printed before and
after. Target (issue 45): median < 1 s with 20 games.

    python bench/web.py --friends 20 [--servers 2] [--seconds 60] [--think 0.3,1.5]

Only loopback addresses are used, and the run stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(db: Path, port: int, workers: int, pace: float) -> subprocess.Popen[bytes]:
    env = dict(os.environ, PARLOR_AI_WORKERS=str(workers))
    proc = subprocess.Popen(
        [sys.executable, "-m", "parlor.web", "--port", str(port), "--db", f"sqlite:///{db}",
         "--pace", str(pace)], cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    end = time.monotonic() + 30
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


async def play(client: httpx.AsyncClient, gid: str, token: str, moves: int, seed: int,
               times: list[float], deadline: float, think: tuple[float, float],
               versions: dict[str, int] | None = None) -> int:
    rng = random.Random(seed)
    headers = {"X-Parlor-Token": token}
    after, done = -1, 0
    snap: dict[str, Any] | None = None
    while done < moves and time.monotonic() < deadline:
        if snap is None or not snap["your_turn"]:  # wait for the computer (long polling)
            try:
                r = await client.get(f"/api/games/{gid}", headers=headers,
                                     params={"after": after, "wait": 10, "log_from": 10**6})
            except httpx.TransportError:  # a connection the server closed: ask again
                continue
            snap = r.json()
            after = snap["version"]
        if snap["status"] != "live":
            break
        if not snap["your_turn"]:
            continue
        if think[1] > 0:
            await asyncio.sleep(rng.uniform(*think))
        action = rng.choice(snap["view"]["legal"])
        start = time.perf_counter()
        try:
            r = await client.post(f"/api/games/{gid}/actions", headers=headers,
                                  json={"action": action, "version": snap["version"],
                                        "log_from": 10**6})
        except httpx.TransportError as exc:  # reported, and this game stops
            print(f"game {gid}: {type(exc).__name__} after {done} moves", file=sys.stderr)
            break
        elapsed = time.perf_counter() - start
        if r.status_code != 200:
            raise SystemExit(f"move refused: {r.status_code} {r.text}")
        times.append(elapsed)
        snap = r.json()
        after = snap["version"]
        if versions is not None:
            versions[gid] = after
        done += 1
    return done


async def round_trips(base: str, games: int, moves: int, level: str, seconds: float,
                      think: tuple[float, float] = (0.0, 0.0)) -> tuple[list[float], float, int]:
    limits = httpx.Limits(max_connections=games * 2 + 10, max_keepalive_connections=games * 2)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as client:
        made = []
        for i in range(games):
            r = await client.post("/api/games", json={"level": level, "seed": 1000 + i})
            r.raise_for_status()
            made.append((r.json()["id"], r.json()["token"]))
        client.cookies.clear()
        times: list[float] = []
        start = time.perf_counter()
        deadline = time.monotonic() + seconds
        counts = await asyncio.gather(*(play(client, gid, tok, moves, i, times, deadline, think)
                                        for i, (gid, tok) in enumerate(made)))
        return times, time.perf_counter() - start, sum(counts)


def page_weight(base: str) -> tuple[int, int, list[tuple[str, int, int]]]:
    """Bytes of the first load of a game page and everything it pulls in: (sent, raw, rows)."""
    rows: list[tuple[str, int, int]] = []
    with httpx.Client(base_url=base, headers={"Accept-Encoding": "gzip"}) as c:
        r = c.post("/games", content=b"level=novice&max_turns=200",
                   headers={"content-type": "application/x-www-form-urlencoded"},
                   follow_redirects=True)
        r.raise_for_status()
        rows.append((str(r.url.path), r.num_bytes_downloaded, len(r.content)))
        html = r.text
        todo = re.findall(r'(?:href|src)="(/static/[^"]+)"', html)
        seen: set[str] = set()
        while todo:
            path = todo.pop()
            if path in seen:
                continue
            seen.add(path)
            a = c.get(path)
            a.raise_for_status()
            rows.append((path, a.num_bytes_downloaded, len(a.content)))
            if path.endswith(".js"):
                folder = path.rsplit("/", 1)[0]
                for mod in re.findall(r'from "\./([^"]+)"', a.text):
                    todo.append(f"{folder}/{mod}")
    return sum(x[1] for x in rows), sum(x[2] for x in rows), rows


async def spread_play(bases: list[str], games: int, level: str, seconds: float,
                      think: tuple[float, float]) -> tuple[list[float], float, int, int]:
    """Games made and played round-robin over ``bases``: (round trips, wall, the players'
    moves, every action committed meanwhile)."""
    # idle connections are dropped before uvicorn's 5 s keep-alive closes them under us
    limits = httpx.Limits(max_connections=games * 2 + 10, max_keepalive_connections=games * 2,
                          keepalive_expiry=2.0)
    clients = [httpx.AsyncClient(base_url=b, timeout=120, limits=limits) for b in bases]
    try:
        made = []
        for i in range(games):
            c = clients[i % len(clients)]
            r = await c.post("/api/games", json={"level": level, "seed": 1000 + i})
            r.raise_for_status()
            made.append((c, r.json()["id"], r.json()["token"], r.json()["snapshot"]["version"]))
        for c in clients:
            c.cookies.clear()
        times: list[float] = []
        versions = {gid: v for _, gid, _, v in made}
        first = sum(versions.values())
        start = time.perf_counter()
        deadline = time.monotonic() + seconds
        counts = await asyncio.gather(*(
            play(c, gid, tok, 10**6, i, times, deadline, think, versions)
            for i, (c, gid, tok, _) in enumerate(made)))
        return times, time.perf_counter() - start, sum(counts), sum(versions.values()) - first
    finally:
        for c in clients:
            await c.aclose()


def start_proc(args: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, *args], cwd=ROOT, env=dict(os.environ, **env),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def wait_ready(port: int, proc: subprocess.Popen[bytes]) -> None:
    end = time.monotonic() + 120
    while time.monotonic() < end:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if proc.poll() is not None:
            raise SystemExit("a server died at start")
        time.sleep(0.2)
    raise SystemExit("a server did not become ready")


def scale(args: argparse.Namespace, think: tuple[float, float], pace: float) -> int:
    sys.path.insert(0, str(ROOT))
    from tests.pgserver import PostgresServer  # the tests' own PostgreSQL starter

    env = {"PARLOR_PACE": str(pace), "PARLOR_LOG_LEVEL": "WARNING",
           "PARLOR_AI_WORKERS": str(args.workers)}
    rows: list[tuple[str, int, int, int, list[float], float, int, int]] = []
    pg = PostgresServer().start()
    try:
        for games in (int(x) for x in args.scale_games.split(",")):
            configs: list[tuple[str, int, int]] = [("sqlite", 1, 0)]
            configs += [("postgresql", s, w) for s in (1, 2) for w in (1, 2)]
            for db, n_servers, n_workers in configs:
                if db == "sqlite":
                    tmp = tempfile.mkdtemp()
                    url = f"sqlite:///{tmp}/bench.db"
                else:
                    url = pg.url(pg.new_database())
                procs: list[subprocess.Popen[bytes]] = []
                try:
                    ports = [free_port() for _ in range(n_servers)]
                    for port in ports:
                        procs.append(start_proc(["-m", "parlor.web", "--port", str(port),
                                                 "--db", url, "--pace", str(pace)], env))
                    for _ in range(n_workers):
                        procs.append(start_proc(["-m", "parlor.web.worker", "--db", url], env))
                    for port, proc in zip(ports, procs, strict=False):
                        wait_ready(port, proc)
                    times, wall, moves, actions = asyncio.run(spread_play(
                        [f"http://127.0.0.1:{p}" for p in ports], games, args.level,
                        args.seconds, think))
                finally:
                    for proc in procs:
                        proc.terminate()
                    for proc in procs:
                        try:
                            proc.wait(30)
                        except subprocess.TimeoutExpired:
                            proc.kill()
                rows.append((db, games, n_servers, n_workers, times, wall, moves, actions))
                print(report_row(rows[-1]), flush=True)
    finally:
        pg.stop()
    print(f"\nmachine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end,"
          f" Python {sys.version.split()[0]}; players think {think[0]}-{think[1]} s,"
          f" computer pace {pace} s, level {args.level}, {args.seconds:.0f} s per row")
    return 0


# -- games between two people (--friends) ------------------------------------------------------


class Table:
    """One friend game's moves in flight: the version each was made at, and when it was
    sent (the other seat's long poll ends the wait)."""

    def __init__(self) -> None:
        self.sent: dict[int, float] = {}
        self.decisions = 0


async def friend_seat(client: httpx.AsyncClient, gid: str, token: str, rng: random.Random,
                      table: Table, lags: list[float], deadline: float,
                      think: tuple[float, float]) -> None:
    """One player: long poll the table; on one's own decision think, then play a random
    legal decision; when the poll brings the other's move, time its way here."""
    headers = {"X-Parlor-Token": token}
    r = await client.get(f"/api/friends/{gid}", headers=headers, params={"log_from": 10**6})
    snap = r.json()
    while snap["status"] == "live" and time.monotonic() < deadline:
        if snap["your_turn"]:
            await asyncio.sleep(rng.uniform(*think))
            legal = [a for a in snap["view"]["legal"] if not a.startswith("resign")]
            table.sent[snap["version"]] = time.perf_counter()
            r = await client.post(f"/api/friends/{gid}/actions", headers=headers, json={
                "action": rng.choice(legal), "version": snap["version"], "log_from": 10**6})
            if r.status_code != 200:
                raise SystemExit(f"move refused: {r.status_code} {r.text}")
            table.decisions += 1
            snap = r.json()
            continue
        before = snap["version"]
        try:
            wait = max(1, min(20, round(deadline - time.monotonic())))  # 20 s, as the page
            r = await client.get(f"/api/friends/{gid}", headers=headers, params={
                "after": before, "wait": wait, "log_from": 10**6})
        except httpx.TransportError:  # a connection the server closed: ask again
            continue
        arrived = time.perf_counter()
        if r.status_code != 200:
            raise SystemExit(f"poll refused: {r.status_code} {r.text}")
        snap = r.json()
        if snap["version"] > before and before in table.sent:
            lags.append(arrived - table.sent.pop(before))


async def friend_table(i: int, host: httpx.AsyncClient, guest: httpx.AsyncClient,
                       lags: list[float], tables: list[Table], deadline: float,
                       think: tuple[float, float]) -> None:
    """Friend games one after another at one table until ``deadline``: invited on the
    host's server, taken on the guest's."""
    rng = random.Random(i)
    while time.monotonic() < deadline:
        r = await host.post("/api/friends", json={"seat": 1, "max_turns": 200})
        r.raise_for_status()
        inv = r.json()
        code = inv["invitation_url"].rsplit("/", 1)[1]
        r = await guest.post(f"/api/invitations/{code}", json={})
        r.raise_for_status()
        host.cookies.clear()  # the tokens go as headers: no jar of cookies on every request
        guest.cookies.clear()
        table = Table()
        tables.append(table)
        await asyncio.gather(
            friend_seat(host, inv["id"], inv["token"], rng, table, lags, deadline, think),
            friend_seat(guest, inv["id"], r.json()["token"], random.Random(rng.random()),
                        table, lags, deadline, think))


async def friend_play(bases: list[str], games: int, seconds: float,
                      think: tuple[float, float]) -> tuple[list[float], int]:
    limits = httpx.Limits(max_connections=games * 2 + 10, max_keepalive_connections=games * 2,
                          keepalive_expiry=2.0)
    # one client per seat (its own connections), the host's on the first server, the
    # guest's on the last
    hosts = [httpx.AsyncClient(base_url=bases[0], timeout=60, limits=limits)
             for _ in range(games)]
    guests = [httpx.AsyncClient(base_url=bases[-1], timeout=60, limits=limits)
              for _ in range(games)]
    lags: list[float] = []
    tables: list[Table] = []
    deadline = time.monotonic() + seconds
    try:
        await asyncio.gather(*(friend_table(i, hosts[i], guests[i], lags, tables, deadline,
                                            think) for i in range(games)))
    finally:
        for c in (*hosts, *guests):
            await c.aclose()
    return lags, sum(t.decisions for t in tables)


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def friends(args: argparse.Namespace, think: tuple[float, float]) -> int:
    sys.path.insert(0, str(ROOT))
    from tests.pgserver import PostgresServer  # the tests' own PostgreSQL and Redis starters
    from tests.redisserver import RedisServer

    pg = redis = None
    env = {"PARLOR_LOG_LEVEL": "WARNING", "PARLOR_AI_WORKERS": "1"}
    procs: list[subprocess.Popen[bytes]] = []
    print(f"load before: {uptime()}", flush=True)
    try:
        if args.servers == 1:
            url = f"sqlite:///{tempfile.mkdtemp()}/bench.db"
        else:
            pg = PostgresServer().start()
            url = pg.url(pg.new_database())
            env["PARLOR_EMBEDDED_WORKER"] = "0"
            if args.fanout == "redis":
                redis = RedisServer().start()
                env["PARLOR_REDIS_URL"] = redis.url
        ports = [free_port() for _ in range(args.servers)]
        for port in ports:
            procs.append(start_proc(["-m", "parlor.web", "--port", str(port), "--db", url],
                                    env))
        for port, proc in zip(ports, procs, strict=True):
            wait_ready(port, proc)
        lags, decisions = asyncio.run(friend_play(
            [f"http://127.0.0.1:{p}" for p in ports], args.friends, args.seconds, think))
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
        if redis is not None:
            redis.stop()
        if pg is not None:
            pg.stop()
    print(f"load after:  {uptime()}")
    where = "1 server, SQLite" if args.servers == 1 else \
        f"2 servers on PostgreSQL, wake-ups by {'Redis' if args.fanout == 'redis' else 'NOTIFY'}" \
        ", each game's players on different servers"
    ms = sorted(t * 1000 for t in lags) or [float("nan")]
    q = statistics.quantiles(ms, n=100) if len(ms) > 1 else ms * 99
    print(f"\nA move to the other's table, {args.friends} friend games at once ({where});"
          f"\nplayers think {think[0]}-{think[1]} s; {decisions} decisions in {args.seconds:.0f} s,"
          f" {len(lags)} timed:")
    print(f"  median {statistics.median(ms):6.1f} ms   p95 {q[94]:6.1f} ms   "
          f"max {ms[-1]:6.1f} ms   (target: median < 1000 ms)")
    print(f"  machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    return 0


def report_row(row: tuple[str, int, int, int, list[float], float, int, int]) -> str:
    db, games, n_servers, n_workers, times, wall, moves, actions = row
    ms = sorted(t * 1000 for t in times) or [float("nan")]
    q = statistics.quantiles(ms, n=100) if len(ms) > 1 else ms * 99
    who = "1 server, its own pool" if db == "sqlite" else \
        f"{n_servers} server{'s' * (n_servers > 1)}, {n_workers} worker{'s' * (n_workers > 1)}"
    return (f"{db:<10} {games:>4} games  {who:<24} {moves / wall:6.1f} moves/s  "
            f"{actions / wall:6.1f} actions/s  round trip median {statistics.median(ms):7.1f} "
            f"ms  p99 {q[98]:7.1f} ms")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--moves", type=int, default=1000, help="most moves per game")
    ap.add_argument("--seconds", type=float, default=60, help="play this long (default 60)")
    ap.add_argument("--think", default="0.3,1.5",
                    help="a player's thinking time, LOW,HIGH seconds (default 0.3,1.5)")
    ap.add_argument("--pace", type=float, default=0.9,
                    help="the server's pace for the computer (default 0.9 s)")
    ap.add_argument("--stress", action="store_true", help="no thinking and no pace")
    ap.add_argument("--level", default="novice", help="the computer's level (default novice)")
    ap.add_argument("--workers", type=int, default=2, help="the computer's worker processes")
    ap.add_argument("--scale", action="store_true",
                    help="PostgreSQL with 1/2 servers x 1/2 workers, and SQLite beside it")
    ap.add_argument("--scale-games", default="50,500", help="games at once (default 50,500)")
    ap.add_argument("--friends", type=int, default=0,
                    help="N games between two people: a move's way to the other's table")
    ap.add_argument("--servers", type=int, choices=(1, 2), default=1,
                    help="with --friends: 2 servers on PostgreSQL, the players on both")
    ap.add_argument("--fanout", choices=("redis", "notify"), default="redis",
                    help="with --servers 2: wake-ups between servers on Redis or NOTIFY")
    args = ap.parse_args()
    lo, _, hi = args.think.partition(",")
    think = (0.0, 0.0) if args.stress else (float(lo), float(hi or lo))
    pace = 0.0 if args.stress else args.pace
    if args.scale:
        return scale(args, think, pace)
    if args.friends:
        return friends(args, think)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        proc = start_server(Path(tmp) / "bench.db", port, args.workers, pace)
        try:
            sent, raw, rows = page_weight(base)
            print("First page load (a new game's table):")
            for path, s, r in rows:
                print(f"  {path:<28} {s / 1024:7.1f} KB sent  {r / 1024:7.1f} KB raw")
            print(f"  {'total':<28} {sent / 1024:7.1f} KB sent  {raw / 1024:7.1f} KB raw"
                  f"   (target < 300 KB)")
            times, wall, total = asyncio.run(
                round_trips(base, args.games, args.moves, args.level, args.seconds, think))
        finally:
            proc.terminate()
            proc.wait(10)
    ms = sorted(t * 1000 for t in times)
    q = statistics.quantiles(ms, n=100) if len(ms) > 1 else ms * 99
    how = "stress: no thinking, no pace" if args.stress else \
        f"players think {think[0]}-{think[1]} s, computer pace {pace} s"
    print(f"\nMove round trip, {args.games} concurrent games against '{args.level}', {how}"
          f"\n({total} moves in {wall:.1f} s, {total / wall:.0f} moves/s):")
    print(f"  median {statistics.median(ms):6.1f} ms   p90 {q[89]:6.1f} ms   "
          f"p99 {q[98]:6.1f} ms   max {ms[-1]:6.1f} ms   (target: median < 50 ms)")
    print(f"  machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
