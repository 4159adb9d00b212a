"""502s behind nginx from the keep-alive race (issue 38, docs/deploy.md "Behind nginx").

nginx keeps idle connections to the servers (deploy/parlor.nginx: ``keepalive 32``). When a
server closes an idle one at the moment nginx sends a request on it, that request fails with
a 502 (a POST is never retried on another server). This runs deploy/parlor.nginx in front of
two ``parlor serve`` processes (SQLite, no computer play: the requests are refused quickly)
and ``--clients`` clients that each POST, wait an idle gap around the servers' keep-alive,
and POST again, for ``--seconds``; it prints the 502s.

    .venv/bin/python bench/keepalive.py --keep-alive 5     # uvicorn's fixed 5 s of before
    .venv/bin/python bench/keepalive.py                    # parlor serve's default, 75 s

The gaps are 4.9-5.1 s whatever ``--keep-alive`` says: the moment the old 5 s closed.
Needs nginx (``make nginx``). The race is rare: with 5 s, one 502 in 9,838 POSTs over three
runs here (docs/deploy.md), so a run without 502s proves little either way.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent


def start_server(port: int, db: Path, keep_alive: int | None) -> subprocess.Popen[bytes]:
    args = ["--keep-alive", str(keep_alive)] if keep_alive else []
    proc = subprocess.Popen([sys.executable, "-m", "parlor.web", "--port", str(port), "--db",
                             f"sqlite:///{db}", *args], cwd=ROOT,
                            env=dict(os.environ, PARLOR_AI_WORKERS="1"),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    end = time.monotonic() + 90
    while time.monotonic() < end:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return proc
        time.sleep(0.1)
    raise SystemExit("a server did not start")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep-alive", type=int, default=None, metavar="SECONDS",
                        help="the servers' --keep-alive (default: parlor serve's own)")
    parser.add_argument("--seconds", type=float, default=180.0)
    parser.add_argument("--clients", type=int, default=64)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from tests.nginx import Nginx, deploy_site  # the tests' own nginx starter
    from tests.pgserver import free_port

    tmp = Path(tempfile.mkdtemp(prefix="parlor-keepalive-"))
    ports = [free_port(), free_port()]
    servers = [start_server(p, tmp / f"s{p}.db", args.keep_alive) for p in ports]
    port = free_port()
    nginx = Nginx(deploy_site(port, ports), port=port).start()
    counts = {"posts": 0, "502": 0}
    lock = threading.Lock()
    end = time.monotonic() + args.seconds

    def client(seed: int) -> None:
        rng = random.Random(seed)
        with httpx.Client(base_url=nginx.url, timeout=30) as c:
            while time.monotonic() < end:
                status = c.post("/api/games/none/preview", json={}).status_code
                with lock:
                    counts["posts"] += 1
                    counts["502"] += status == 502
                time.sleep(rng.uniform(4.9, 5.1))

    try:
        threads = [threading.Thread(target=client, args=(i,)) for i in range(args.clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        nginx.stop()
        for s in servers:
            s.terminate()
        for s in servers:
            s.wait(20)
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"keep-alive {args.keep_alive or 'default'}: {counts['502']} x 502 of "
          f"{counts['posts']} POSTs ({args.clients} clients, idle gaps 4.9-5.1 s, "
          f"{args.seconds:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
