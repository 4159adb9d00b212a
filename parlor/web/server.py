"""The server of ``parlor serve``: uvicorn with limits on every connection (issue 39), so
that no client holds the server by being slow or silent, and no flood of them fills the log.

uvicorn closes a keep-alive connection that stays idle (``timeout_keep_alive``) but times
nothing else: a connection that never finishes its request head, or sends its body a byte
a second, stays open for ever, and enough of them take every file descriptor. So the
server runs :class:`LimitedH11Protocol`, uvicorn's h11 protocol with:

- a **head timeout**: a request's head (request line and headers) must be complete within
  ``head_timeout`` seconds of the connection's start, or, on a kept-alive connection, of
  the first byte of its next request; otherwise the connection is closed. A silent new
  connection is one whose head never starts. An idle kept-alive connection is uvicorn's
  ``timeout_keep_alive`` (``--keep-alive``), not this: a balancer reuses its connections
  for longer than a head should take.
- a **body rate**: after ``body_grace`` seconds a body must have arrived at
  ``body_rate`` bytes a second on average since its head, or the request is answered 408
  and closed. Time the app is not reading (uvicorn stops reading above 64 KB unread, and a
  client that sent ``Expect: 100-continue`` waits for the app to ask) is not the client's,
  and restarts the count.
- a **connection cap**: at ``max_connections`` open connections (lowered to fit the file
  limit, :func:`connection_cap`), a new connection first closes the one that has waited
  longest for a request head (else the longest idle kept-alive one), and is answered 503
  only when every connection is busy with a request. Connections with no request in
  progress are the cheap ones to drop: they have asked for nothing yet, and a client opens
  a new one.

A request whose head and body are complete is never timed here: a long poll
(``GET /api/games/{id}?wait=30``) holds its request legitimately.

Connection events (timeouts, refusals, accept errors, clients gone mid-upload) are logged
at most once per ``log_interval`` per kind, with a count of the ones left out:
:class:`OncePerInterval`. And a client that disconnects while the app reads its body is one
short line (:func:`quiet_disconnects`), not a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import sys
import time
from typing import Any, ClassVar

import h11
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from parlor.web.limits import ACCEPT_BATCH, LISTEN_QUEUE, Limits, connection_cap

log = logging.getLogger(__name__)


def _answer(status: int, reason: str, code: str, message: str) -> bytes:
    body = json.dumps({"error": code, "message": message}).encode()
    return (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n").encode() + body


BUSY = _answer(503, "Service Unavailable", "busy",
               "the server has too many open connections; try again in a moment")
IDLE, HEAD, BODY, WORKING = "idle", "head", "body", "working"
#: Scope key of a request whose body the server cut off (408)
CUT = "parlor.cut_off"


class LimitedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with the head timeout, body rate and connection cap above.

    Each connection is in one phase: ``idle`` between two requests (kept alive: uvicorn's
    timer), waiting for a request ``head`` (timed), receiving a ``body`` (rate checked), or
    ``working`` (the request is complete: the app answers, at its own pace).
    :meth:`_track` moves it on after every event that can change the phase; one timer per
    connection fires when its phase's deadline passes."""

    limits: ClassVar[Limits] = Limits()
    cap: ClassVar[int] = Limits().max_connections

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._phase = WORKING  # nothing is timed before the connection is made
        self._since = 0.0  # loop time the phase began
        self._body_bytes = 0  # bytes received in the body phase
        self._timer: asyncio.TimerHandle | None = None
        self._answered = False  # a response was completed: the connection is kept alive

    # -- uvicorn's protocol events ----------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        if len(self.connections) >= self.cap and not self._close_longest_waiting():
            self.transport = transport  # connection_lost closes it
            transport.write(BUSY)
            transport.close()
            log.warning("refused connections: %d open, the most allowed (--max-connections)",
                        len(self.connections))
            return
        super().connection_made(transport)
        self._track()

    def data_received(self, data: bytes) -> None:
        if self._phase == BODY:
            self._body_bytes += len(data)
        super().data_received(data)
        self._track()

    def on_response_complete(self) -> None:
        self._answered = True
        super().on_response_complete()
        self._track()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_timer()
        super().connection_lost(exc)

    # -- phases -----------------------------------------------------------------------------

    def _track(self) -> None:
        if self.transport is None or self.transport.is_closing():
            self._cancel_timer()
            return
        theirs, ours = self.conn.their_state, self.conn.our_state
        if theirs is h11.IDLE and ours is h11.IDLE:
            phase = IDLE if self._answered and not self.conn.trailing_data[0] else HEAD
        else:
            phase = BODY if theirs is h11.SEND_BODY else WORKING
        if phase == self._phase:
            return
        self._cancel_timer()
        self._phase, self._since, self._body_bytes = phase, self.loop.time(), 0
        if phase == HEAD:
            self._timer = self.loop.call_later(self.limits.head_timeout, self._head_late)
        elif phase == BODY:
            self._timer = self.loop.call_later(self.limits.body_grace, self._check_body)

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _head_late(self) -> None:
        self._timer = None
        if self._phase != HEAD or self.transport.is_closing():
            return
        started = bool(self.conn.trailing_data[0])
        log.info("closed connections whose request head did not come within %g s%s",
                 self.limits.head_timeout, " (part of one had come)" if started else "")
        self._close()

    def _check_body(self) -> None:
        self._timer = None
        if self._phase != BODY or self.transport.is_closing():
            return
        now, rate, grace = self.loop.time(), self.limits.body_rate, self.limits.body_grace
        waiting = self.flow.read_paused or (  # the app has not read what came, or not
            self.cycle is not None and self.cycle.waiting_for_100_continue)  # asked for it
        if waiting:  # not the client's time
            self._since, self._body_bytes = now, 0
            self._timer = self.loop.call_later(grace, self._check_body)
            return
        if rate <= 0:
            return
        if self._body_bytes >= rate * (now - self._since - grace):
            # next look: when the bytes received so far stop being enough
            due = self._since + grace + (self._body_bytes + 1) / rate
            self._timer = self.loop.call_later(max(0.5, due - now), self._check_body)
            return
        log.info("cut off request bodies slower than %g bytes/s (408)", rate)
        if self.cycle is not None and not self.cycle.response_started:
            self.cycle.response_started = True  # the app answers nothing after this
            self.transport.write(_answer(
                408, "Request Timeout", "too_slow",
                f"the request body came slower than {rate:g} bytes a second"))
        if self.cycle is not None:
            self.cycle.scope[CUT] = True  # type: ignore[literal-required]
            self.cycle.disconnected = True
            self.cycle.message_event.set()
        self._close()

    def _close(self) -> None:
        self._cancel_timer()
        self._phase = WORKING
        self.connections.discard(self)  # no longer counted against the cap
        self.transport.close()

    def _close_longest_waiting(self) -> bool:
        """Close the connection that has waited longest for a request head, else the one
        idle longest; False if every connection is busy with a request."""
        for phase in (HEAD, IDLE):
            waiting = [c for c in self.connections
                       if isinstance(c, LimitedH11Protocol) and c._phase == phase]
            if waiting:
                min(waiting, key=lambda c: c._since)._close()
                log.info("closed connections with no request in progress to make room for new "
                         "ones (%d open)", len(self.connections))
                return True
        return False


def protocol_class(limits: Limits) -> type[LimitedH11Protocol]:
    """The protocol class to give uvicorn (``Config(http=...)``) for these limits."""
    return type("ParlorH11Protocol", (LimitedH11Protocol,),
                {"limits": limits, "cap": connection_cap(limits.max_connections)})


# -- the log ------------------------------------------------------------------------------------

#: Messages of a flood: the first line of each is logged once per interval.
FLOOD_MESSAGES = (
    ("asyncio", "socket.accept() out of system resource"),
    ("uvicorn.error", "Invalid HTTP request received."),
    ("uvicorn.error", "Exceeded concurrency limit."),
)


class OncePerInterval(logging.Filter):
    """Lets one record of each kind through per ``interval`` seconds, with the number left
    out since; a kind is a logger and its message's first line. Applies to every record of
    this module's logger and to :data:`FLOOD_MESSAGES`. A record let through loses its
    traceback: the kinds are events of the network, and one line says what happened."""

    def __init__(self, interval: float) -> None:
        super().__init__()
        self.interval = interval
        self._last: dict[tuple[str, str], tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        first = str(record.msg).split("\n", 1)[0]
        if record.name != __name__ and (record.name, first) not in FLOOD_MESSAGES:
            return True
        key, now = (record.name, first), time.monotonic()
        last, left_out = self._last.get(key, (-self.interval, 0))
        if now - last < self.interval:
            self._last[key] = (last, left_out + 1)
            return False
        self._last[key] = (now, 0)
        if record.exc_info and record.exc_info[1] is not None:
            first = f"{first}: {record.exc_info[1]}"
        record.exc_info, record.exc_text = None, None
        if record.name != __name__:
            record.msg, record.args = first, None
        if left_out:
            record.msg = f"{record.msg} (and {left_out} more in the last {now - last:.0f} s)"
        return True


def throttle_logs(interval: float) -> None:
    """Install :class:`OncePerInterval` on the loggers of connection events (after uvicorn
    configured its logging, which would replace the filters of its own loggers)."""
    f = OncePerInterval(interval)
    for name in {__name__, *(n for n, _ in FLOOD_MESSAGES)}:
        logging.getLogger(name).addFilter(f)


def quiet_disconnects(app: ASGIApp) -> ASGIApp:
    """``app``, where a client that goes away while its body is read is one log line (the
    kind, throttled), not "Exception in ASGI application" and a traceback: an aborted
    upload is the client's choice, and there is nobody left to answer."""

    async def wrapped(scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await app(scope, receive, send)
        except ClientDisconnect:
            if scope.get(CUT):
                return  # the server cut it off, and said so
            log.info("clients went away before their request body was read (%s %s)",
                     scope.get("method"), scope.get("path"))

    return wrapped


def serve(app: ASGIApp, limits: Limits, **options: Any) -> None:
    """Run ``app`` on uvicorn as ``uvicorn.run(app, **options)`` does (one process), with
    :class:`LimitedH11Protocol`, the throttled log and quiet client disconnects."""
    import uvicorn

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            for listening in getattr(self, "servers", ()):
                for sock in listening.sockets:  # a second listen() only resizes the queue
                    with socket.socket(fileno=os.dup(sock.fileno())) as same:
                        same.listen(LISTEN_QUEUE)

    config = uvicorn.Config(quiet_disconnects(app), http=protocol_class(limits),
                            backlog=ACCEPT_BATCH, **options)
    throttle_logs(limits.log_interval)  # after Config: it configures uvicorn's loggers
    server = Server(config)
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    if not server.started:
        sys.exit(3)  # uvicorn's STARTUP_FAILURE


__all__ = ["LimitedH11Protocol", "OncePerInterval", "protocol_class", "quiet_disconnects",
           "serve", "throttle_logs"]
