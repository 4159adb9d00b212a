"""A deployment in small: two server processes and two ``parlor worker`` processes on one
real PostgreSQL. A game is played to its end with its moves sent alternately to the two
servers; twenty copies of one move sent at once across both servers are accepted exactly
once; a worker killed with SIGKILL while it thinks is replaced by the other, which finishes
the move; a server killed mid-game and restarted has lost nothing it acknowledged."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text

from .ui import ROOT, free_port, stop_process

pytestmark = pytest.mark.slow  # `make check` leaves it out: servers in their own processes

# Quick levels and a short pace keep this test short; the expert thinks for a fixed time
# so that a worker can be caught thinking.
ENV = {"PYTHONUNBUFFERED": "1", "PARLOR_COMPUTER": "queue", "PARLOR_THINK": "1.5",
       "PARLOR_PACE": "0.05", "PARLOR_HINT": "1.0",
       "PARLOR_WORKER_HEARTBEAT": "0.5", "PARLOR_WORKER_STALLED": "2",
       "PARLOR_WORKER_CONCURRENCY": "4", "PARLOR_LOG_LEVEL": "WARNING"}


class Proc:
    """A server (``python -m parlor.web``) or a worker (``python -m parlor.web.worker``)."""

    def __init__(self, url: str, kind: str, port: int | None = None) -> None:
        self.db, self.kind = url, kind
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Proc:
        if self.kind == "server":
            args = ["-m", "parlor.web", "--port", str(self.port), "--db", self.db,
                    "--pace", "0.05"]
        else:
            args = ["-m", "parlor.web.worker", "--db", self.db]
        self.proc = subprocess.Popen([sys.executable, *args], cwd=ROOT,
                                     env=dict(os.environ, **ENV),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     start_new_session=True)
        if self.kind == "server":
            end = time.monotonic() + 60
            while time.monotonic() < end:
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(self.base + "/readyz", timeout=2).status_code == 200:
                        return self
                assert self.proc.poll() is None, "the server died at start"
                time.sleep(0.2)
            raise AssertionError("the server did not become ready")
        return self

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None:
            stop_process(self.proc)


class Cluster:
    def __init__(self, url: str) -> None:
        self.url = url
        self.servers = [Proc(url, "server"), Proc(url, "server")]
        self.workers = [Proc(url, "worker"), Proc(url, "worker")]
        self.engine = create_engine(url, pool_size=1)

    def start(self) -> Cluster:
        for p in (*self.workers, *self.servers):
            p.start()
        self.wait_for_workers(2)
        return self

    def wait_for_workers(self, n: int) -> None:
        end = time.monotonic() + 60
        while self.sql("SELECT count(*) FROM procrastinate_workers") < n:
            assert time.monotonic() < end, "the workers did not register"
            time.sleep(0.2)

    def sql(self, query: str, **params: Any) -> Any:
        with self.engine.connect() as conn:
            return conn.execute(text(query), params).scalar()

    def stop(self) -> None:
        for p in (*self.servers, *self.workers):
            p.stop()
        self.engine.dispose()


@pytest.fixture(scope="module")
def cluster(postgres: Any) -> Iterator[Cluster]:
    name = postgres.new_database()
    c = Cluster(postgres.url(name)).start()
    try:
        yield c
    finally:
        c.stop()
        postgres.drop_database(name)


def new_game(server: Proc, level: str = "random", seed: int = 3,
             max_turns: int = 8) -> tuple[str, dict[str, str]]:
    r = httpx.post(server.base + "/api/games", timeout=30,
                   json={"level": level, "seed": seed, "max_turns": max_turns})
    assert r.status_code == 201, r.text
    data = r.json()
    return data["id"], {"X-Parlor-Token": data["token"]}


def wait_for_human(server: Proc, gid: str, auth: dict[str, str],
                   timeout: float = 60.0) -> dict[str, Any]:
    end, after = time.monotonic() + timeout, -1
    while True:
        r = httpx.get(f"{server.base}/api/games/{gid}", headers=auth, timeout=40,
                      params={"after": after, "wait": 5})
        assert r.status_code == 200, r.text
        snap: dict[str, Any] = r.json()
        if snap["your_turn"] or snap["status"] == "over":
            return snap
        after = snap["version"]
        assert time.monotonic() < end, "the computer did not answer"


def act(server: Proc, gid: str, auth: dict[str, str], action: str,
        version: int) -> httpx.Response:
    return httpx.post(f"{server.base}/api/games/{gid}/actions", headers=auth, timeout=30,
                      json={"action": action, "version": version})


def cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def busiest(pids: list[int], seconds: float = 0.4) -> tuple[int, int]:
    """The process that used the most CPU over a short while (a worker thinking), and its
    CPU time then, in ticks (1/100 s)."""
    before = {p: cpu_ticks(p) for p in pids}
    time.sleep(seconds)
    used = {p: cpu_ticks(p) - before[p] for p in pids}
    pid = max(pids, key=lambda p: used[p])
    return pid, used[pid]


def record(c: Cluster, gid: str) -> list[str]:
    with c.engine.connect() as conn:
        rows = conn.execute(text("SELECT action FROM actions WHERE game_id = :g ORDER BY ply"),
                            {"g": gid})
        return [r[0] for r in rows]


def test_a_game_to_its_end_with_moves_alternately_to_two_servers(cluster: Cluster) -> None:
    a, b = cluster.servers
    gid, auth = new_game(a, seed=11)
    rng = random.Random(11)
    snap = wait_for_human(a, gid, auth)
    sent = 0
    while snap["status"] == "live":
        server = cluster.servers[sent % 2]
        snap = wait_for_human(server, gid, auth)  # this server sees the other's commits
        if snap["status"] != "live":
            break
        r = act(server, gid, auth, rng.choice(snap["view"]["legal"]), snap["version"])
        assert r.status_code == 200, r.text
        sent += 1
        assert sent < 500
    assert sent >= 4
    ends = [httpx.get(f"{s.base}/api/games/{gid}", headers=auth, timeout=30).json()
            for s in (a, b)]
    assert ends[0]["version"] == ends[1]["version"] == len(record(cluster, gid))
    assert ends[0]["status"] == ends[1]["status"] == "over"


def test_twenty_copies_of_one_move_across_two_servers_are_accepted_once(
        cluster: Cluster) -> None:
    gid, auth = new_game(cluster.servers[0], seed=12, max_turns=20)
    snap = wait_for_human(cluster.servers[0], gid, auth)
    action, version = snap["view"]["legal"][0], snap["version"]
    wait_for_human(cluster.servers[1], gid, auth)  # both servers hold the game in memory
    codes: list[int] = []
    start = threading.Barrier(20)

    def send(i: int) -> None:
        start.wait()
        codes.append(act(cluster.servers[i % 2], gid, auth, action, version).status_code)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(codes) == [200] + [409] * 19, codes
    moves = record(cluster, gid)
    assert moves[version] == action
    for s in cluster.servers:
        seen = httpx.get(f"{s.base}/api/games/{gid}", headers=auth, timeout=30).json()
        assert seen["version"] >= version + 1


def test_a_worker_killed_while_thinking_is_replaced(cluster: Cluster) -> None:
    # the expert searches up to 1.5 s (PARLOR_THINK caps its fixed iterations) per decision
    gid, auth = new_game(cluster.servers[0], level="expert", seed=13, max_turns=60)
    pid, seen = 0, []
    for _ in range(60):  # the human acts until a worker is caught searching a decision
        snap = wait_for_human(cluster.servers[0], gid, auth, timeout=120)
        assert snap["status"] == "live", "the game ended before a worker was caught thinking"
        r = act(cluster.servers[0], gid, auth, snap["view"]["legal"][0], snap["version"])
        assert r.status_code == 200
        before = r.json()["version"]
        if r.json()["your_turn"]:
            continue
        # the expert searches a fixed 2,000 iterations (under the 1.5 s cap), a fraction of
        # a second when the machine is quiet: watch it in short windows until its move is made
        pid, windows = 0, 0
        while windows < 60 and cluster.sql("SELECT version FROM games WHERE id = :g",
                                           g=gid) == before:
            windows += 1
            pid, used = busiest([w.proc.pid for w in cluster.workers if w.proc], 0.15)
            seen.append(used)
            if used >= 4 and cluster.sql("SELECT version FROM games WHERE id = :g",
                                         g=gid) == before:
                break  # busy (even on a loaded machine), the move not made: it is searching
            pid = 0
        if pid:
            break
    assert pid, f"no worker was caught thinking (CPU ticks seen: {seen})"
    victim = next(w for w in cluster.workers if w.proc and w.proc.pid == pid)
    os.kill(pid, signal.SIGKILL)
    victim.proc.wait(10)  # type: ignore[union-attr]
    snap = wait_for_human(cluster.servers[1], gid, auth, timeout=90)
    assert snap["version"] > before  # the other worker finished the move
    assert len(record(cluster, gid)) == snap["version"]
    victim.start()  # back to two workers for the next test
    cluster.wait_for_workers(2)


def test_a_server_killed_mid_game_loses_nothing_it_acknowledged(cluster: Cluster) -> None:
    a, b = cluster.servers
    gid, auth = new_game(a, seed=14, max_turns=30)
    rng = random.Random(14)
    acknowledged: list[tuple[int, str]] = []  # (ply, action) of every 200
    snap = wait_for_human(a, gid, auth)
    for _ in range(4):
        if snap["status"] != "live":
            break
        action = rng.choice(snap["view"]["legal"])
        r = act(a, gid, auth, action, snap["version"])
        assert r.status_code == 200
        acknowledged.append((snap["version"], action))
        snap = wait_for_human(a, gid, auth)
    a.kill9()  # right after its last reply: no shutdown, no flush
    moves = record(cluster, gid)
    for ply, action in acknowledged:
        assert moves[ply] == action
    snap = wait_for_human(b, gid, auth)  # the game goes on at the other server meanwhile
    if snap["status"] == "live":
        r = act(b, gid, auth, rng.choice(snap["view"]["legal"]), snap["version"])
        assert r.status_code == 200
    a.start()  # restarted on its port: it replays the game from the store
    again = wait_for_human(a, gid, auth)
    assert again["version"] >= snap["version"] + (snap["status"] == "live")
    assert record(cluster, gid)[:len(moves)] == moves


def takeback(server: Proc, gid: str, auth: dict[str, str], version: int) -> httpx.Response:
    return httpx.post(f"{server.base}/api/games/{gid}/takeback", headers=auth, timeout=30,
                      json={"version": version})


def test_a_takeback_on_one_server_is_seen_by_the_other_at_the_same_version(
        cluster: Cluster) -> None:
    """R30: a takeback on server a, another first decision there (the same version, another
    line), then a move on server b that is legal only on the line taken back: b judges it
    on the game's line, so it is refused and the record still replays."""
    a, b = cluster.servers
    gid, auth = new_game(a, seed=2, max_turns=20)  # Rlr 1 decides first, twice
    first = wait_for_human(a, gid, auth)
    assert first["version"] == 0
    wait_for_human(b, gid, auth)  # b holds the game in memory
    keep, other = first["view"]["legal"][0], first["view"]["legal"][1]
    assert act(a, gid, auth, keep, 0).status_code == 200
    old_line = wait_for_human(b, gid, auth)  # b's cache: version 1 on the first line
    assert old_line["version"] == 1
    assert takeback(a, gid, auth, 1).status_code == 200
    assert act(a, gid, auth, other, 0).status_code == 200  # version 1 again, another line
    new_line = wait_for_human(a, gid, auth)
    only_old = sorted(set(old_line["view"]["legal"]) - set(new_line["view"]["legal"]))
    assert only_old, "the two lines should differ in what Rlr 1 may do next"
    r = act(b, gid, auth, only_old[0], 1)
    assert r.status_code == 422, r.text  # illegal on the game's line: nothing stored
    assert record(cluster, gid) == [other]
    seen = httpx.get(f"{b.base}/api/games/{gid}", headers=auth, timeout=30).json()
    assert seen["view"] == new_line["view"] and seen["version"] == 1
    assert act(b, gid, auth, new_line["view"]["legal"][0], 1).status_code == 200
    assert record(cluster, gid) == [other, new_line["view"]["legal"][0]]


def test_one_hint_in_flight_per_game_across_two_servers(cluster: Cluster) -> None:
    """The same decision's hint asked on both servers at once: one worker job, one answer,
    the same advice for both."""
    a, b = cluster.servers
    gid, auth = new_game(a, level="random", seed=15, max_turns=20)
    snap = wait_for_human(a, gid, auth)
    wait_for_human(b, gid, auth)
    answers = cluster.sql("SELECT count(*) FROM answers")
    got: dict[int, httpx.Response] = {}
    start = threading.Barrier(4)

    def ask(i: int) -> None:
        start.wait()
        got[i] = httpx.get(f"{cluster.servers[i % 2].base}/api/games/{gid}/hint",
                           headers=auth, params={"version": snap["version"]}, timeout=60)

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(90)
    assert [got[i].status_code for i in range(4)] == [200] * 4, [r.text for r in got.values()]
    assert len({got[i].json()["action"] for i in range(4)}) == 1
    assert cluster.sql("SELECT count(*) FROM answers") == answers + 1  # one job answered
    assert cluster.sql("SELECT count(*) FROM hint_claims WHERE game_id = :g", g=gid) == 0
