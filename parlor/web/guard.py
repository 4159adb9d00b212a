"""What every request passes before the app sees it (issue 13): a body size limit counted while
reading, same-origin writes, JSON on the API, and the security headers of every response.

A pure ASGI middleware (no ``BaseHTTPMiddleware``): it wraps ``receive`` to count body bytes
as they arrive, so a huge body is refused after ``max_body`` bytes instead of being read whole.

Cross-origin writes: a browser sends ``Origin`` with every POST (``Referer`` as a fallback);
a write whose origin is not this server's ``Host`` is refused (403), which stops a page on
another port of the same host (same-site, so SameSite cookies do not help). Requests with
neither header come from programs, which hold no victim's cookies. API writes must also be
``application/json``, which a cross-origin page cannot send without a CORS preflight, and
forms carry a CSRF token (:mod:`parlor.web.app`).

Behind a proxy (issue 38), the peer's ``X-Forwarded-*`` are believed only from the trusted
proxies, and writes are compared with the public origins: :mod:`parlor.web.proxy`.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
from collections.abc import Callable, Sequence
from typing import Any

from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from parlor.web.proxy import (
    FORWARDED_HOST,
    believe_proxy,
    origin_host,
    parse_origins,
    parse_proxies,
    plain_host,
)

#: Bytes a request body may have (a record is at most 256 KB; a form encodes it longer).
MAX_BODY = 1024 * 1024
log = logging.getLogger("parlor.web")
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

#: No inline script anywhere (templates load /static/js files); styles may be inline
#: attributes (cards are positioned with ``style``). ``frame-ancestors`` refuses framing.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
#: The API docs page (FastAPI's Swagger UI) is an inline script and files from a CDN.
DOCS_CSP = ("default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
            "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; img-src 'self' data: "
            "https://fastapi.tiangolo.com; frame-ancestors 'none'")
HEADERS = [
    (b"referrer-policy", b"same-origin"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
]


#: Levels of arrays and objects a JSON body may nest: the API's bodies need three at most.
MAX_JSON_DEPTH = 32
_NOT_JSON_SYNTAX = bytes(c for c in range(256) if c not in b'[]{}"')


def too_deep(raw: bytes, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether a JSON text nests arrays and objects deeper than ``limit`` (brackets inside
    strings do not count). A body with few brackets is answered by one count in C; the walk,
    linear and stopping at the limit, is only for a body with many."""
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return False
    # escaped backslashes, then escaped quotes, go first (left to right, as JSON reads
    # them), so every quote left opens or closes a string
    syntax = raw.replace(b"\\\\", b"").replace(b'\\"', b"").translate(None, _NOT_JSON_SYNTAX)
    depth = 0
    in_string = False
    for c in syntax:
        if c == 0x22:  # a quote
            in_string = not in_string
        elif in_string:
            continue
        elif c in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > limit:
                return True
        else:  # ] }
            depth -= 1
    return False


class _TooLarge(Exception):
    pass


_RID = re.compile(r"^[A-Za-z0-9._-]{8,64}$")


def _request_id(scope: Scope) -> str:
    """The request's id: a balancer's ``X-Request-Id`` when it looks like one (so one id
    follows a request through nginx and the server's log), else a new one."""
    given = _header(scope, b"x-request-id")
    return given if given is not None and _RID.match(given) else secrets.token_hex(8)


def _header(scope: Scope, name: bytes) -> str | None:
    for k, v in scope.get("headers", ()):
        if k == name:
            return str(v.decode("latin-1"))
    return None


def cross_origin(scope: Scope, origins: tuple[str, ...] = ()) -> str | None:
    """Why a state-changing request comes from another origin, or None if it does not.

    ``origins``: the hosts of the configured public origins; none: the request's host (the
    forwarded host of a trusted proxy, see :class:`Guard`, or ``Host``). The scheme is not
    compared: behind a TLS proxy the server sees http while the page is https; the host and
    port are what tell another site or another port apart."""
    if not origins:
        origins = (plain_host(scope.get(FORWARDED_HOST) or _header(scope, b"host") or ""),)
    origin = _header(scope, b"origin")
    if origin is not None:
        if origin_host(origin) not in origins:
            return f"a page at {origin[:100]} may not change games here"
        return None
    referer = _header(scope, b"referer")
    if referer is not None and origin_host(referer) not in origins:
        return "a page on another site may not change games here"
    return None


class Guard:
    """Body limit, same-origin writes, JSON on the API, security headers."""

    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY,
                 methods_of: Callable[[str], list[str] | None] = lambda _path: None,
                 trusted_proxies: str = "", public_origin: str = "") -> None:
        self.app = app
        self.max_body = max_body
        #: The methods an API path takes (None: no such path), so that a method it does not
        #: take is answered 405 before its body's type is looked at (issue 39).
        self.methods_of = methods_of
        self.proxies = parse_proxies(trusted_proxies)
        self.origins = parse_origins(public_origin)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        believe_proxy(scope, self.proxies)
        path: str = scope.get("path", "")
        reply = _Reply(send, path, _request_id(scope))
        refused = self._refused(scope)
        if refused is not None:
            await _answer(reply, *refused)
            return
        try:
            await self.app(scope, self._counting(receive), reply)
        except _TooLarge:
            if reply.started:
                raise
            await _answer(reply, 413, "too_large",
                          f"a request body is at most {self.max_body // 1024} KB")
        except ClientDisconnect:
            raise  # no fault of ours: the server logs it, briefly (server.quiet_disconnects)
        except Exception:
            # a fault of ours: logged once, with the id the client was given, and answered as
            # JSON with the headers of every reply (never the server's bare text "500")
            log.exception("request %s (%s %s) failed", reply.rid, scope.get("method"), path)
            if reply.started:
                return  # the reply was under way: the connection is closed short
            await _answer(reply, 500, "internal",
                          f"something went wrong on our side (request {reply.rid}); "
                          "nothing you did caused it. Try again in a moment")

    def _counting(self, receive: Receive) -> Receive:
        """``receive`` counting the body's bytes: past ``max_body`` it raises, so a huge body
        is refused as it arrives instead of being read whole."""
        seen = 0

        async def counting() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise _TooLarge
            return message

        return counting

    def _refused(self, scope: Scope) -> tuple[int, str, str, Sequence[tuple[bytes, bytes]]] | None:
        """The answer to a request refused before the app sees it (status, code, message,
        extra headers), else None."""
        allowed = self._allowed(scope)
        if allowed is not None:
            joined = ", ".join(allowed)
            return (405, "method_not_allowed", f"{scope.get('path', '')} takes {joined}",
                    [(b"allow", joined.encode())])
        refusal = self._refusal(scope)
        return None if refusal is None else (*refusal, ())

    def _allowed(self, scope: Scope) -> list[str] | None:
        """The methods an API path takes when the request's method is not one of them (a
        405, whatever its body), else None. Every route of the path counts: Starlette's own
        405 names only the first route's methods."""
        path = str(scope.get("path", ""))
        if not path.startswith("/api/"):
            return None
        methods = self.methods_of(path)
        return None if methods is None or scope.get("method") in methods else methods

    def _refusal(self, scope: Scope) -> tuple[int, str, str] | None:
        length = _header(scope, b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            return 413, "too_large", f"a request body is at most {self.max_body // 1024} KB"
        if scope.get("method", "GET") in SAFE_METHODS:
            return None
        why = cross_origin(scope, self.origins)
        if why is not None:
            return 403, "cross_origin", why
        path: str = scope.get("path", "")
        ctype = (_header(scope, b"content-type") or "").split(";", 1)[0].strip().lower()
        if path.startswith("/api/") and ctype != "application/json":
            return 415, "json_only", ("the API takes application/json bodies (send {} when "
                                      "there is nothing to say)")
        return None


class _Reply:
    """The ``send`` the app is given: every response's start gets the security headers and the
    request's id; ``started`` says whether a reply is under way (then no error reply can)."""

    def __init__(self, send: Send, path: str, rid: str) -> None:
        self._send = send
        self.policy = (DOCS_CSP if path.startswith("/api/docs") else CSP).encode()
        self.rid = rid
        self.started = False

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.started = True
            headers = list(message.get("headers", []))
            headers.append((b"content-security-policy", self.policy))
            headers.extend(HEADERS)
            headers.append((b"x-request-id", self.rid.encode()))
            message = {**message, "headers": headers}
        await self._send(message)


async def _answer(send: Send, status: int, code: str, message: str,
                  extra: Sequence[tuple[bytes, bytes]] = ()) -> None:
    body = json.dumps({"error": code, "message": message}).encode()
    headers: list[tuple[bytes, bytes]] = [(b"content-type", b"application/json"),
                                          (b"content-length", str(len(body)).encode()),
                                          (b"connection", b"close"), *extra]
    start: dict[str, Any] = {"type": "http.response.start", "status": status,
                             "headers": headers}
    await send(start)
    await send({"type": "http.response.body", "body": body})


__all__ = ["CSP", "MAX_BODY", "MAX_JSON_DEPTH", "Guard", "believe_proxy", "cross_origin",
           "parse_origins", "parse_proxies", "too_deep"]
