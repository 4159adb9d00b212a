"""The deployment survives every single fault (issue 38): a real nginx (deploy/parlor.nginx)
in front of two ``parlor serve`` servers, two ``parlor worker`` processes, a PostgreSQL and a
Redis (``PARLOR_REDIS_URL``: the wake-ups and the computer's work queue, with its leases and
the workers' reconciler) of this module's own, while 20 players play at
once through nginx. One fault per test, in order, on the same deployment: kill -9 a worker
while it plays a computer's turn, kill -9 a server with requests in flight, restart
PostgreSQL, restart nginx, restart Redis, flush Redis. After each:

* every live game advances again within :data:`ADVANCE` seconds of the recovery (each
  player keeps playing, so a game whose computer is to act must have acted by then);
* every action a player was told was taken (200) is stored at its place, and none it was
  told was not ("nothing was changed", 503);
* no game stopped as failed;
* no failure (5xx, a refused or cut connection, an unexpected refusal) outside the fault's
  window (from the fault to the recovery and :data:`SETTLE` seconds more);

and at the end no game waits on the computer.

The processes' logs are kept in a temporary folder when a test fails (named in its
assertion); with ``pytest -s`` the last test prints what the players met, by fault."""

from __future__ import annotations

import contextlib
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
import redis

from parlor.store import GameStore, libpq_url
from parlor.web.redisqueue import lease_key

from ..nginx import Nginx, deploy_site
from ..pgserver import PostgresServer, free_port
from ..redisserver import RedisServer
from .helpers import until
from .ui import stop_process

pytestmark = pytest.mark.slow  # `make check` leaves it out: servers in their own processes

ROOT = Path(__file__).resolve().parent.parent.parent
#: Players (threads), each with one game at a time through nginx.
PLAYERS = 20
#: Turns per game: short games, but not over before a fault is through.
MAX_TURNS = 10
#: Seconds within which every live game must move on after a fault's recovery (issue 38).
ADVANCE = 30.0
#: Seconds after a recovery that still count as the fault's window (connections of the
#: pools reopened, nginx's upstream marked failed tried again).
SETTLE = 5.0


# -- the deployment's processes ---------------------------------------------------------------


class Proc:
    """A ``python -m ...`` process of the deployment, its output appended to a log file
    (restarts append), ready when ``ready`` answers 200."""

    def __init__(self, name: str, args: list[str], env: dict[str, str], ready: str,
                 logs: Path) -> None:
        self.name, self.args, self.env, self.ready = name, args, env, ready
        self.log = logs / f"{name}.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Proc:
        env = dict(os.environ, PYTHONUNBUFFERED="1", **self.env)
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen([sys.executable, "-m", *self.args], cwd=ROOT, env=env,
                                         stdout=out, stderr=subprocess.STDOUT,
                                         start_new_session=True)
        end = time.monotonic() + 90  # a loaded machine starts Python slowly
        while time.monotonic() < end:
            assert self.proc.poll() is None, f"{self.name} died: see {self.log}"
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(self.ready, timeout=2).status_code == 200:
                    return self
            time.sleep(0.2)
        raise AssertionError(f"{self.name} did not become ready: see {self.log}")

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None:
            stop_process(self.proc, grace=10)


class Deployment:
    """PostgreSQL, Redis, two servers, two workers, nginx with deploy/parlor.nginx in
    front."""

    def __init__(self, logs: Path) -> None:
        self.logs = logs
        self.pg = PostgresServer()
        self.redis = RedisServer()
        self.url = ""
        self.servers: list[Proc] = []
        self.workers: list[Proc] = []
        self.nginx: Nginx | None = None

    def _server(self, i: int) -> Proc:
        port = free_port()
        return Proc(f"server{i}", ["parlor.web", "--port", str(port), "--db", self.url,
                                   "--pace", "0.05", "--trusted-proxies", "127.0.0.1"],
                    {"PARLOR_COMPUTER": "queue", "PARLOR_EMBEDDED_WORKER": "0",
                     "PARLOR_AI_WORKERS": "1", "PARLOR_REDIS_URL": self.redis.url},
                    f"http://127.0.0.1:{port}/readyz", self.logs)

    def _worker(self, i: int) -> Proc:
        port = free_port()
        return Proc(f"worker{i}", ["parlor.cli", "worker", "--db", self.url, "--health-port",
                                   str(port)],
                    # the computer's turns on Redis: a killed worker's lease runs out after
                    # 3 s, and a reconciler's round (1 s) queues its game again; a turn
                    # takes long enough (the pace between its actions) to be killed in one
                    {"PARLOR_WORKER_HEARTBEAT": "1", "PARLOR_WORKER_STALLED": "3",
                     "PARLOR_WORKER_LEASE": "3", "PARLOR_WORKER_RECONCILE": "1",
                     "PARLOR_PACE": "0.5", "PARLOR_REDIS_URL": self.redis.url},
                    f"http://127.0.0.1:{port}/readyz", self.logs)

    def start(self) -> Deployment:
        self.pg.start()
        self.redis.start()
        self.url = self.pg.url(self.pg.new_database())
        self.servers = [self._server(i) for i in range(2)]
        self.workers = [self._worker(i) for i in range(2)]
        for p in (*self.servers, *self.workers):
            p.start()
        port = free_port()
        self.nginx = Nginx(deploy_site(port, [int(s.args[2]) for s in self.servers]),
                           port=port).start()
        return self

    @property
    def site(self) -> Nginx:
        assert self.nginx is not None
        return self.nginx

    def stop(self) -> None:
        if self.nginx is not None:
            with contextlib.suppress(Exception):
                self.nginx.stop()
        for p in (*self.servers, *self.workers):
            with contextlib.suppress(Exception):
                p.stop()
        self.redis.stop()
        self.pg.stop()


# -- the players ------------------------------------------------------------------------------


@dataclass
class Seen:
    """What a player last saw of its game."""

    version: int = 0
    over: bool = False
    your_turn: bool = False  # at ``version``: the player's decision, not the computer's


@dataclass
class Record:
    """Everything the players did and met, shared by their threads."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    games: dict[str, Seen] = field(default_factory=dict)
    current: dict[int, str] = field(default_factory=dict)  # player -> its game now
    tokens: dict[str, str] = field(default_factory=dict)  # game -> its player's token
    acks: list[tuple[str, int, str]] = field(default_factory=list)  # game, version, action
    failures: list[tuple[float, str]] = field(default_factory=list)  # when, what
    broken: dict[str, str] = field(default_factory=dict)  # game -> why it stopped
    posting: int = 0  # players' actions on their way now
    # actions answered "nothing was changed" (a 503), and those of unknown fate (a 502, a
    # connection cut): game, version, action
    unchanged: list[tuple[str, int, str]] = field(default_factory=list)
    unknown: list[tuple[str, int, str]] = field(default_factory=list)

    def fail(self, what: str) -> None:
        with self.lock:
            self.failures.append((time.monotonic(), what))

    def saw(self, gid: str, snap: dict[str, Any]) -> None:
        with self.lock:
            seen = self.games.setdefault(gid, Seen())
            if int(snap["version"]) >= seen.version:
                seen.your_turn = bool(snap.get("your_turn"))
            seen.version = max(seen.version, int(snap["version"]))
            seen.over = seen.over or snap["status"] != "live"
            if snap["status"] not in ("live", "over") and gid not in self.broken:
                # stopped as failed: the player's game is lost, whenever that happens
                self.broken[gid] = f"{snap['status']}: {snap.get('failure')}"


class Players:
    """:data:`PLAYERS` threads, each playing games one after the other through nginx: a
    long poll until its decision, then a random legal action."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.record = Record()
        self.stopping = threading.Event()
        self.threads = [threading.Thread(target=self._play, args=(i,), daemon=True)
                        for i in range(PLAYERS)]

    def start(self) -> Players:
        for t in self.threads:
            t.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        for t in self.threads:
            t.join(60)
        assert not any(t.is_alive() for t in self.threads), "a player hangs"

    def _request(self, c: httpx.Client, method: str, path: str,
                 **kw: Any) -> httpx.Response | None:
        """The response, or None when there is none (a connection refused or cut); failures
        are recorded (those, a 5xx, a refusal other than a stale version)."""
        try:
            r = c.request(method, path, **kw)
        except httpx.TransportError as exc:
            self.record.fail(f"{method} {path}: {type(exc).__name__}: {exc}")
            return None
        if r.status_code >= 500 or (r.status_code >= 400 and r.status_code != 409):
            self.record.fail(f"{method} {path}: {r.status_code} {r.text[:200]}")
        return r

    def _play(self, me: int) -> None:
        rng = random.Random(me)
        with httpx.Client(base_url=self.base, timeout=20) as c:
            while not self.stopping.is_set():
                r = self._request(c, "POST", "/api/games", json={
                    "level": "random", "seed": rng.randrange(10**6), "max_turns": MAX_TURNS})
                if r is None or r.status_code != 201:
                    time.sleep(0.3)
                    continue
                gid, token = r.json()["id"], r.json()["token"]
                with self.record.lock:
                    self.record.current[me] = gid
                    self.record.tokens[gid] = token
                self.record.saw(gid, r.json()["snapshot"])
                self._game(c, rng, gid, {"X-Parlor-Token": token})

    def _game(self, c: httpx.Client, rng: random.Random, gid: str,
              auth: dict[str, str]) -> None:
        after, snap = -1, None  # snap: the game as last seen (None: to be read)
        while not self.stopping.is_set():
            if snap is None or not snap["your_turn"]:
                r = self._request(c, "GET", f"/api/games/{gid}", headers=auth,
                                  params={"after": after, "wait": 5})
                if r is None or r.status_code != 200:
                    time.sleep(0.3)
                    continue
                snap = r.json()
                self.record.saw(gid, snap)
                if snap["status"] != "live":
                    return
                after = snap["version"]
                if not snap["your_turn"]:
                    continue
            snap = self._act(c, rng, gid, auth, snap)
            if snap is None:
                after = -1  # read it again: the action may or may not have been taken
            elif snap["status"] != "live":
                return
            else:
                after = snap["version"]

    def _act(self, c: httpx.Client, rng: random.Random, gid: str, auth: dict[str, str],
             snap: dict[str, Any]) -> dict[str, Any] | None:
        """A random legal action; the game after it, or None when it was refused (409:
        the game moved on, or was taken back, meanwhile) or failed."""
        action = rng.choice(snap["view"]["legal"])
        with self.record.lock:
            self.record.posting += 1
        try:
            r = self._request(c, "POST", f"/api/games/{gid}/actions", headers=auth,
                              json={"action": action, "version": snap["version"],
                                    "takebacks": snap["takebacks"]})
        finally:
            with self.record.lock:
                self.record.posting -= 1
        post = (gid, snap["version"], action)
        if r is None or r.status_code != 200:
            with self.record.lock:
                if r is not None and r.status_code == 503 and \
                        "nothing was changed" in r.text:
                    self.record.unchanged.append(post)
                elif r is None or r.status_code >= 500:
                    self.record.unknown.append(post)
            if r is None or r.status_code != 409:
                time.sleep(0.3)
            return None
        with self.record.lock:
            self.record.acks.append((gid, snap["version"], action))
        after: dict[str, Any] = r.json()
        self.record.saw(gid, after)
        return after


# -- the checks -------------------------------------------------------------------------------


@dataclass
class Chaos:
    deployment: Deployment
    players: Players
    windows: list[tuple[float, float]] = field(default_factory=list)
    advanced: list[float] = field(default_factory=list)  # s until every game moved on
    # s until every game moved on while Redis was down (no wake-up but the 1 s re-check)
    advanced_without_redis: list[float] = field(default_factory=list)

    def fault(self, do: Callable[[], None]) -> None:
        """Run a fault and its recovery (``do`` returns once the deployment is whole again:
        its processes started and answering); the window lasts :data:`SETTLE` s more. One
        fault at a time: it starts once the previous one's window is over."""
        if self.windows:
            time.sleep(max(0.0, self.windows[-1][1] - time.monotonic()))
        start = time.monotonic()
        do()
        self.windows.append((start, time.monotonic() + SETTLE))

    def live_games(self) -> dict[str, int]:
        r = self.players.record
        with r.lock:
            # a player names its new game (current) just before it records what it saw
            return {gid: r.games[gid].version for gid in r.current.values()
                    if gid in r.games and not r.games[gid].over}

    def wait_for_every_player(self, timeout: float = 60.0) -> None:
        end = time.monotonic() + timeout
        while len(self.live_games()) < PLAYERS:
            assert time.monotonic() < end, f"the players did not all start: " \
                                           f"{self.players.record.failures[:5]}"
            time.sleep(0.2)

    def assert_every_game_advances(self, into: list[float] | None = None,
                                   players_only: bool = False) -> None:
        """Each game live now moves on (or ends) within :data:`ADVANCE` seconds; the
        seconds it took go to ``into`` (:attr:`advanced` by default). ``players_only``: only
        the games whose decision is the player's now (the computer's work waits for a
        queue that is down)."""
        before, end = self.live_games(), time.monotonic() + ADVANCE
        assert len(before) >= PLAYERS // 2, f"only {len(before)} games live"
        if players_only:
            with self.players.record.lock:
                before = {g: v for g, v in before.items()
                          if self.players.record.games[g].your_turn}
        r = self.players.record
        while True:
            with r.lock:
                stuck = {gid: v for gid, v in before.items()
                         if r.games[gid].version <= v and not r.games[gid].over}
            if not stuck:
                took = round(ADVANCE - (end - time.monotonic()), 1)
                (self.advanced if into is None else into).append(took)
                return
            assert time.monotonic() < end, \
                f"{len(stuck)} games did not move on within {ADVANCE} s: {stuck}; " \
                f"logs in {self.deployment.logs}"
            time.sleep(0.2)

    def assert_no_failure_outside_the_windows(self) -> None:
        with self.players.record.lock:
            failures = list(self.players.record.failures)
        outside = [(round(t, 1), what) for t, what in failures
                   if not any(a <= t <= b for a, b in self.windows)]
        assert not outside, f"failures outside the faults' windows {self.windows}: " \
                            f"{outside[:10]}; logs in {self.deployment.logs}"

    def assert_acknowledged_actions_stored(self) -> None:
        with self.players.record.lock:
            acks = list(self.players.record.acks)
        store = GameStore(self.deployment.url, pool_size=2)
        try:
            wrong = []
            for gid, version, action in acks:
                got = store.load(gid)
                stored = got.actions[version] if got and len(got.actions) > version else None
                if stored != action:
                    wrong.append((gid, version, action, stored))
        finally:
            store.close()
        assert acks and not wrong, f"acknowledged but not stored so: {wrong[:10]}"

    def assert_nothing_changed_when_so_answered(self) -> None:
        """An action answered "nothing was changed" (503) is not stored, unless the same
        action at the same place was also acknowledged or met a failure of unknown fate."""
        r = self.players.record
        with r.lock:
            unchanged, maybe = list(r.unchanged), {*r.unknown, *r.acks}
        store = GameStore(self.deployment.url, pool_size=2)
        try:
            wrong = []
            for gid, version, action in unchanged:
                got = store.load(gid)
                if got and len(got.actions) > version and got.actions[version] == action \
                        and (gid, version, action) not in maybe:
                    wrong.append((gid, version, action))
        finally:
            store.close()
        assert not wrong, f"answered 'nothing was changed', but stored: {wrong}"

    def summary(self) -> str:
        """Counts of what the players met, by fault (the game ids left out)."""
        r = self.players.record
        kinds: Counter[tuple[int, str]] = Counter()
        for t, what in r.failures:
            fault = next((i for i, (a, b) in enumerate(self.windows) if a <= t <= b), -1)
            kinds[fault, re.sub(r"/api/games/[^/ ]+", "/api/games/ID", what)[:120]] += 1
        lines = [f"{len(r.games)} games, {len(r.acks)} actions acknowledged, "
                 f"{len(r.unchanged)} answered 'nothing was changed', {len(r.unknown)} of "
                 f"unknown fate, "
                 f"{len(r.failures)} failures; windows (s): "
                 f"{[round(b - a, 1) for a, b in self.windows]}; every game moved on "
                 f"after (s): {self.advanced}, while Redis was down (s): "
                 f"{self.advanced_without_redis}"]
        lines += [f"  fault {i}: {n} x {what}" for (i, what), n in sorted(kinds.items())]
        return "\n".join(lines)

    def assert_no_game_stopped(self) -> None:
        with self.players.record.lock:
            broken = dict(self.players.record.broken)
        assert not broken, f"games stopped as failed: {broken}; logs in {self.deployment.logs}"

    def check(self) -> None:
        self.assert_every_game_advances()
        self.assert_no_game_stopped()
        self.assert_no_failure_outside_the_windows()
        self.assert_acknowledged_actions_stored()


@pytest.fixture(scope="module")
def chaos(request: pytest.FixtureRequest) -> Iterator[Chaos]:
    logs = Path(tempfile.mkdtemp(prefix="parlor-chaos-"))
    failed = request.session.testsfailed
    deployment = Deployment(logs)
    try:
        deployment.start()
        players = Players(deployment.site.url).start()
        try:
            c = Chaos(deployment, players)
            c.wait_for_every_player()
            c.assert_every_game_advances()  # all playing before the first fault
            yield c
        finally:
            players.stop()
    finally:
        deployment.stop()
    if request.session.testsfailed == failed:  # the logs are kept for a failure only
        shutil.rmtree(logs, ignore_errors=True)


def thinking_worker(chaos: Chaos, timeout: float = 30.0) -> tuple[Proc, str, str]:
    """A worker playing a computer's turn now, the game and the worker's lease on it: the
    leases on Redis name their worker (parlor.web.redisqueue)."""
    d = chaos.deployment
    client = redis.Redis.from_url(d.redis.url)
    end = time.monotonic() + timeout
    try:
        while time.monotonic() < end:
            for key in client.scan_iter(match=lease_key("*"), count=1000):
                token = client.get(key)
                for w in d.workers:
                    if token is not None and token.decode().startswith(
                            f"parlor-worker-{w.pid}:"):
                        return w, key.decode(), token.decode()
            time.sleep(0.02)
    finally:
        client.close()
    raise AssertionError("no worker played a computer's turn")


def kill_while_thinking(chaos: Chaos, attempts: int = 20) -> None:
    """kill -9 a worker that holds a game's lease; tried again if the lease had been
    released by the time the signal came (the turn was over)."""
    client = redis.Redis.from_url(chaos.deployment.redis.url)
    try:
        for _ in range(attempts):
            worker, key, token = thinking_worker(chaos)
            worker.kill9()
            held = client.get(key)
            worker.start()  # as systemd would; the lease runs out, the reconciler queues it
            if held is not None and held.decode() == token:
                return
    finally:
        client.close()
    raise AssertionError(f"no worker was killed during a computer's turn in {attempts} tries")


def test_a_worker_killed_while_it_plays_the_computer(chaos: Chaos) -> None:
    chaos.fault(lambda: kill_while_thinking(chaos))
    chaos.check()


def test_a_server_killed_with_requests_in_flight(chaos: Chaos) -> None:
    server = chaos.deployment.servers[0]  # long polls of its players are always there
    address = f"127.0.0.1:{server.args[2]}"

    def kill() -> None:
        # best when several actions are on their way (likely one of them to this server);
        # long polls are in flight in any case
        with contextlib.suppress(AssertionError):
            until(lambda: chaos.players.record.posting >= 2, timeout=10, every=0.005)
        server.kill9()
        server.start()  # on the same port: nginx's upstream is whole again

    chaos.fault(kill)
    chaos.check()
    # nginx's log names the upstreams a request went to: one cut by the kill went on to the
    # other server (so the kill did come mid-request)
    log = (chaos.deployment.site.dir / "access.log").read_text()
    assert f" {address}, " in log, "no request was in flight on the killed server"


def test_a_postgresql_restart(chaos: Chaos) -> None:
    def restart() -> None:
        chaos.deployment.pg.halt()
        time.sleep(3)
        chaos.deployment.pg.resume()

    chaos.fault(restart)
    chaos.check()


def test_an_nginx_restart(chaos: Chaos) -> None:
    def restart() -> None:
        chaos.deployment.site.halt()
        time.sleep(1)
        chaos.deployment.site.start()

    chaos.fault(restart)
    chaos.check()


def until_servers_listen(chaos: Chaos, timeout: float = 30.0) -> None:
    """Both servers ready again: /readyz answers 200 once a server is subscribed to Redis
    again (its check "listen"), so the deployment is whole again."""
    def ready(server: Proc) -> bool:
        with contextlib.suppress(httpx.TransportError):
            return httpx.get(server.ready, timeout=2).status_code == 200
        return False

    until(lambda: all(ready(s) for s in chaos.deployment.servers), timeout, every=0.005)


def test_a_redis_restart(chaos: Chaos) -> None:
    """Redis gone (its subscriptions and pooled connections dropped) until every game
    whose decision is the player's has moved on since, two seconds at least, then back on
    the same port: long polls re-check every second meanwhile, and the wake-ups published
    while it was down are lost (the changes are committed all the same). The computer's
    work that was still queued waits for Redis: the reconciler queues it again after."""
    def restart() -> None:
        chaos.deployment.redis.kill()
        down = time.monotonic()
        try:
            # the players still play (their actions commit to PostgreSQL); a computer's
            # move that no worker had taken off the queue waits for Redis, and check()
            # below holds that every game moves on once it is back (the reconciler)
            chaos.assert_every_game_advances(into=chaos.advanced_without_redis,
                                             players_only=True)
            time.sleep(max(0.0, down + 2 - time.monotonic()))
        finally:  # never leave the next tests without Redis
            chaos.deployment.redis.start()
            until_servers_listen(chaos)

    chaos.fault(restart)
    chaos.check()
    # each server's log says it lost its subscription (so the fault did reach it)
    for server in chaos.deployment.servers:
        assert "Redis subscription to" in server.log.read_text(), \
            f"{server.name} never lost Redis: see {server.log}"


def test_a_redis_flush(chaos: Chaos) -> None:
    """FLUSHALL while the players play: Redis holds no truth, so nothing is lost."""
    def flush() -> None:
        client = redis.Redis.from_url(chaos.deployment.redis.url)
        try:
            assert client.flushall()
        finally:
            client.close()

    chaos.fault(flush)
    chaos.check()


def test_at_the_end_no_game_waits_on_the_computer(chaos: Chaos) -> None:
    """The players stop; every game's computer (asked by a page's poll, as a player's page
    would) has acted within :data:`ADVANCE` seconds."""
    chaos.players.stop()
    record = chaos.players.record
    end = time.monotonic() + ADVANCE
    with httpx.Client(base_url=chaos.deployment.site.url, timeout=20) as c:
        while True:
            waiting = [gid for gid in record.current.values()
                       if c.get(f"/api/games/{gid}", headers={
                           "X-Parlor-Token": record.tokens[gid]}).json()["thinking"]]
            if not waiting:
                break
            assert time.monotonic() < end, f"games wait on the computer: {waiting}; " \
                                           f"logs in {chaos.deployment.logs}"
            time.sleep(0.5)
    chaos.assert_no_game_stopped()
    chaos.assert_no_failure_outside_the_windows()
    chaos.assert_acknowledged_actions_stored()
    chaos.assert_nothing_changed_when_so_answered()
    with psycopg.connect(libpq_url(chaos.deployment.url)) as conn:  # all on Redis
        row = conn.execute("SELECT count(*) FROM procrastinate_jobs "
                           "WHERE task_name = 'parlor.computer_turn'").fetchone()
    assert row == (0,), f"computer turns as job rows: {row}"
    print(chaos.summary())  # with pytest -s: what the players met
