"""A worker's health on a port of its own (``parlor worker --health-port``, issue 38): a
worker answers no HTTP otherwise, so a supervisor or an orchestrator could not tell a worker
that waits for its database from one that works.

    GET /healthz   200 while the process runs (liveness)
    GET /readyz    200 when its queue's database answers, else 503 with the reason
    GET /metrics   Prometheus's text: jobs run and failed by task, the database's state

A few lines of HTTP/1.0 on asyncio: one request per connection, a two-second read limit, no
body read, so a slow or silent client holds nothing for long."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable

#: Readiness: None when ready, else why not (the check has its own time limit).
Check = Callable[[], Awaitable[str | None]]
Exposition = Callable[[], bytes]


async def _answer(writer: asyncio.StreamWriter, status: int, body: bytes,
                  ctype: str = "application/json") -> None:
    reason = {200: "OK", 404: "Not Found", 405: "Method Not Allowed",
              503: "Service Unavailable"}[status]
    writer.write(f"HTTP/1.0 {status} {reason}\r\nContent-Type: {ctype}\r\n"
                 f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body)
    with contextlib.suppress(ConnectionError):
        await writer.drain()


def serve_health(ready: Check, metrics: Exposition) -> Callable[
        [asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]:
    """The connection handler for :func:`asyncio.start_server`."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            line = await asyncio.wait_for(reader.readline(), timeout=2)
            method, _, rest = line.decode("latin-1").partition(" ")
            path = rest.split(" ", 1)[0].split("?", 1)[0]
            if method not in ("GET", "HEAD"):
                await _answer(writer, 405, b'{"error": "method_not_allowed"}')
            elif path == "/healthz":
                await _answer(writer, 200, b'{"ok": true}')
            elif path == "/readyz":
                why = await ready()
                body = json.dumps({"ok": why is None, "checks": {
                    "database": why or "ok"}}).encode()
                await _answer(writer, 200 if why is None else 503, body)
            elif path == "/metrics":
                await _answer(writer, 200, await asyncio.to_thread(metrics),
                              "text/plain; version=0.0.4; charset=utf-8")
            else:
                await _answer(writer, 404, b'{"error": "not_found"}')
        except (TimeoutError, ConnectionError, UnicodeDecodeError):
            pass
        finally:
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()

    return handle


__all__ = ["Check", "Exposition", "serve_health"]
