"""What requests for games that do not exist leave in a server (issue 39): a real
``parlor serve`` process on a fresh SQLite file, asked about random unknown ids on every game
route, its resident memory read from /proc before and after.

    .venv/bin/python bench/memory.py [-n 40000]

Prints the growth in MB and in bytes per request (after a warm-up, so the allocator's
pools and the server's caches are already full). Before issue 39 every unknown id left
about 1.1 KB for good (40,000 requests: +44 MB)."""

from __future__ import annotations

import argparse
import http.client
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROUTES = ("/api/games/{}", "/api/games/{}?wait=0&after=3", "/api/watch/{}?k=x",
          "/api/games/{}/record", "/api/games/{}/hint", "/g/{}")


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def ask_unknown(port: int, n: int, seed: int = 1, routes: tuple[str, ...] = ROUTES) -> None:
    """``n`` requests for random unknown ids, round the routes, on one kept-alive
    connection; every answer must be a refusal (403/404), never a 5xx."""
    rng = random.Random(seed)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    alphabet = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ0123456789"
    for i in range(n):
        gid = "".join(rng.choice(alphabet) for _ in range(12))
        route = routes[i % len(routes)]
        conn.request("GET", route.format(gid))
        r = conn.getresponse()
        r.read()
        if r.status not in (403, 404):
            raise RuntimeError(f"{route}: {r.status}")
    conn.close()


def start_server(db: Path, port: int) -> subprocess.Popen[bytes]:
    env = dict(os.environ, PARLOR_AI_WORKERS="1")
    proc = subprocess.Popen([sys.executable, "-m", "parlor.web", "--port", str(port),
                             "--db", f"sqlite:///{db}"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    end = time.monotonic() + 90
    while time.monotonic() < end:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


def growth(port: int, pid: int, n: int, warmup: int,
           routes: tuple[str, ...] = ROUTES) -> tuple[float, float]:
    """The server's growth over ``n`` requests after ``warmup`` of them: (MB, bytes/request)."""
    ask_unknown(port, warmup, seed=0, routes=routes)
    before = rss_kb(pid)
    ask_unknown(port, n, seed=1, routes=routes)
    after = rss_kb(pid)
    return (after - before) / 1024, (after - before) * 1024 / n


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=40_000)
    parser.add_argument("--warmup", type=int, default=4_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = start_server(Path(tmp) / "games.db", port)
        try:
            start = time.monotonic()
            mb, per = growth(port, proc.pid, args.n, args.warmup)
            took = time.monotonic() - start
        finally:
            proc.terminate()
            proc.wait(30)
    print(f"{args.n} requests for unknown ids ({len(ROUTES)} routes, after {args.warmup} "
          f"to warm up) in {took:.1f} s: server memory {mb:+.1f} MB, {per:.0f} bytes a request")


if __name__ == "__main__":
    main()
