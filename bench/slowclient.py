#!/usr/bin/env python3
"""Slow and silent clients against an HTTP server (issue 39, item 2).

    python bench/slowclient.py --cmd 'python -m parlor.web --port {port} --db sqlite:///{tmp}/s.db'
                               [--limit 100] [--flood 900] [--nofile 1024] [--body-path /api/games]

Starts ``--cmd`` (``{port}``: a free port of 127.0.0.1, ``{tmp}``: a fresh directory) with
its file limit set to ``--nofile`` (``resource.setrlimit`` before exec), its stderr kept in
a file, then runs these probes with raw sockets and prints one line each:

- ``silent``: connects and sends nothing;
- ``half-sent``: sends the first line and one header of a GET, then nothing;
- ``header 1 B/s``: sends a GET's head one byte a second;
- ``body 1 B/s``: sends a whole POST head (Content-Length 100000), then the body one byte
  a second;
- ``keep-alive idle``: one whole request and its answer, then nothing;

each until the server closes the connection (or answers and closes), or ``--limit`` seconds;
then the flood: ``--flood`` half-sent connections at once, then ``GET /healthz`` (10 s to
answer), the log's growth during the flood, and how many flood connections the server had
closed by then.

``--app`` runs nothing: the module's own tiny ASGI app (``bench.slowclient:app``, a
``/healthz`` and a POST that reads its body) is what the candidate servers were measured
with, e.g. ``--cmd 'granian --interface asgi --port {port} bench.slowclient:app'``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import resource
import shlex
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HOST = "127.0.0.1"
HEAD = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slowclient\r\nAccept: */*\r\n\r\n"


async def app(scope: dict[str, Any], receive: Callable[..., Any],
              send: Callable[..., Any]) -> None:
    """A tiny ASGI app: 200 to anything, after reading the whole body."""
    if scope["type"] == "lifespan":
        while True:
            msg = await receive()
            if msg["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif msg["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    more = True
    while more:
        msg = await receive()
        if msg["type"] == "http.disconnect":
            return
        more = msg.get("more_body", False)
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"text/plain"), (b"content-length", b"2")]})
    await send({"type": "http.response.body", "body": b"ok"})


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def closed(sock: socket.socket, wait: float) -> tuple[bool, bytes]:
    """Whether the server closed the connection within ``wait`` seconds; what it sent."""
    sock.settimeout(wait)
    got = b""
    try:
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                return True, got
            got += chunk
    except TimeoutError:
        return False, got
    except OSError:
        return True, got


def status_of(data: bytes) -> str:
    return data.split(b"\r\n", 1)[0].decode("latin-1", "replace")[9:12] if data else ""


def probe(name: str, port: int, limit: float, before: bytes, drip: bytes) -> str:
    """Send ``before`` at once, then ``drip`` a byte a second; seconds until the server
    closes (or answers), or ``open`` after ``limit``."""
    start = time.monotonic()
    sock = socket.create_connection((HOST, port))
    try:
        if before:
            sock.sendall(before)
        i = 0
        while time.monotonic() - start < limit:
            try:
                if i < len(drip):
                    sock.send(drip[i:i + 1])
                    i += 1
            except OSError:
                return f"closed after {time.monotonic() - start:.1f} s (send failed)"
            done, got = closed(sock, 1.0)
            if done or got:
                what = f"answered {status_of(got)}" if got else "closed"
                return f"{what} after {time.monotonic() - start:.1f} s"
        return f"still open after {limit:.0f} s"
    finally:
        sock.close()


def keep_alive_idle(port: int, limit: float) -> str:
    sock = socket.create_connection((HOST, port))
    try:
        sock.sendall(HEAD)
        sock.settimeout(10)
        got = sock.recv(65536)
        start = time.monotonic()
        done, _ = closed(sock, limit)
        return (f"closed {time.monotonic() - start:.1f} s after the answer ({status_of(got)})"
                if done else f"still open after {limit:.0f} s")
    finally:
        sock.close()


def healthz(port: int, timeout: float) -> str:
    start = time.monotonic()
    try:
        sock = socket.create_connection((HOST, port), timeout=timeout)
    except OSError as e:
        return f"no connection ({e})"
    try:
        sock.settimeout(timeout)
        sock.sendall(HEAD)
        got = sock.recv(65536)
        return f"{status_of(got) or 'closed'} in {time.monotonic() - start:.2f} s"
    except OSError as e:
        return f"failed after {time.monotonic() - start:.1f} s ({e})"
    finally:
        sock.close()


def flood(port: int, n: int, log: Path | None) -> list[str]:
    size0 = log.stat().st_size if log else 0
    lines0 = log.read_bytes().count(b"\n") if log else 0
    socks: list[socket.socket] = []
    refused = 0
    start = time.monotonic()
    for _ in range(n):
        try:
            s = socket.create_connection((HOST, port), timeout=5)
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            socks.append(s)
        except OSError:
            refused += 1
    opened = time.monotonic() - start
    time.sleep(1)
    answer = healthz(port, 10)
    dead = 0
    for s in socks:
        s.setblocking(False)
        try:
            if s.recv(1) == b"":
                dead += 1
        except BlockingIOError:
            pass
        except OSError:
            dead += 1
    time.sleep(10)  # let the log show what the flood did
    out = [f"flood: {n} half-sent connections opened in {opened:.1f} s ({refused} failed)",
           f"flood: /healthz answered {answer}",
           f"flood: {dead} of {len(socks)} closed by the server by then"]
    for s in socks:
        s.close()
    if log:
        data = log.read_bytes()
        lines = data.count(b"\n") - lines0
        out.append(f"flood: log grew {len(data) - size0} bytes, {lines} lines in about 12 s")
    return out


def start_server(cmd: str, port: int, tmp: str, nofile: int, log: Path) -> subprocess.Popen[bytes]:
    argv = shlex.split(cmd.format(port=port, tmp=tmp))

    def limit() -> None:
        if nofile:
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

    proc = subprocess.Popen(argv, preexec_fn=limit, stdout=subprocess.DEVNULL,
                            stderr=log.open("wb"), env=dict(os.environ, PYTHONUNBUFFERED="1"))
    end = time.monotonic() + 90
    while time.monotonic() < end:
        with contextlib.suppress(OSError), socket.create_connection((HOST, port), timeout=0.2):
            time.sleep(2)  # let the app's startup finish
            return proc
        if proc.poll() is not None:
            raise SystemExit(f"the server died: {log.read_text()[-2000:]}")
        time.sleep(0.2)
    raise SystemExit("the server did not start")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cmd", help="server command ({port}, {tmp}); none: --port must listen")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--limit", type=float, default=100)
    ap.add_argument("--flood", type=int, default=900)
    ap.add_argument("--nofile", type=int, default=1024)
    ap.add_argument("--body-path", default="/api/games")
    ap.add_argument("--skip-timed", action="store_true", help="only the flood")
    args = ap.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < args.flood + 100:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, args.flood + 100), hard))
    tmp = tempfile.mkdtemp(prefix="slowclient-")
    log = Path(tmp) / "server.log"
    port = args.port or free_port()
    proc = start_server(args.cmd, port, tmp, args.nofile, log) if args.cmd else None
    try:
        body_head = (f"POST {args.body_path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     "Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n").encode()
        probes: dict[str, Callable[[], str]] = {
            "silent": lambda: probe("silent", port, args.limit, b"", b""),
            "half-sent": lambda: probe("half", port, args.limit,
                                       b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n", b""),
            "header 1 B/s": lambda: probe("header", port, args.limit, b"", HEAD * 10),
            "body 1 B/s": lambda: probe("body", port, args.limit, body_head, b"{" + b" " * 99999),
            "keep-alive idle": lambda: keep_alive_idle(port, args.limit),
        }
        results: dict[str, str] = {}
        if not args.skip_timed:
            threads = [threading.Thread(target=lambda k=k, f=f: results.__setitem__(k, f()))
                       for k, f in probes.items()]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            for k in probes:
                print(f"{k}: {results[k]}", flush=True)
        for line in flood(port, args.flood, log if proc else None):
            print(line, flush=True)
        print(f"after the flood: /healthz {healthz(port, 10)}", flush=True)
    finally:
        if proc:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
            print(f"server log: {log}", flush=True)


if __name__ == "__main__":
    main()
