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

Behind a proxy (issue 38): a proxy that rewrites ``Host`` (nginx's default sends the upstream's
name) would make every browser write look cross-origin. The origin a write is compared with is
then, in this order: the configured public origins (``PARLOR_PUBLIC_ORIGIN``); the
``X-Forwarded-Host`` a trusted proxy sent; the ``Host``. Only a peer in the trusted proxies
(``PARLOR_TRUSTED_PROXIES``) is believed about ``X-Forwarded-Host``, ``X-Forwarded-For`` (the
client's address) and ``X-Forwarded-Proto``: from anyone else those headers are ignored, since
any client can write them.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import re
import secrets
import urllib.parse
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from parlor.settings import SettingError

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


def _listed(scope: Scope, name: bytes) -> list[str]:
    """The comma-separated values of every ``name`` header, in order (a proxy appends)."""
    values = [v.decode("latin-1") for k, v in scope.get("headers", ()) if k == name]
    return [w.strip() for w in ",".join(values).split(",") if w.strip()]


def _origin_host(value: str) -> str | None:
    parsed = urllib.parse.urlsplit(value)
    return _plain_host(parsed.netloc) if parsed.scheme in ("http", "https") and parsed.netloc \
        else None


def _plain_host(netloc: str) -> str:
    """``host[:port]`` lowercased, without a default port (80, 443), as browsers write it."""
    netloc = netloc.lower()
    for default in (":80", ":443"):
        netloc = netloc.removesuffix(default)
    return netloc


Network = ipaddress.IPv4Network | ipaddress.IPv6Network
#: The scope key where the Guard keeps the host a trusted proxy forwarded.
FORWARDED_HOST = "parlor.forwarded_host"


def parse_proxies(text: str) -> tuple[Network, ...]:
    """The trusted proxies of ``PARLOR_TRUSTED_PROXIES`` / ``--trusted-proxies``: addresses
    or networks (``10.0.0.5, 10.1.0.0/16, ::1``), comma-separated; "" trusts no one. A
    word that is neither is refused, not skipped: a typo must not quietly trust no one."""
    found = []
    for word in (w.strip() for w in text.split(",")):
        if word:
            try:
                found.append(ipaddress.ip_network(word, strict=False))
            except ValueError:
                raise SettingError(f"trusted proxies: {word!r} is not an IP address or "
                                   "network (docs/deploy.md)") from None
    return tuple(found)


def parse_origins(text: str) -> tuple[str, ...]:
    """The public origins of ``PARLOR_PUBLIC_ORIGIN`` / ``--public-origin``
    (``https://parlor.example``, comma-separated), as the hosts writes are compared with."""
    found = []
    for word in (w.strip() for w in text.split(",")):
        if word:
            host = _origin_host(word)
            if host is None or urllib.parse.urlsplit(word).path not in ("", "/"):
                raise SettingError(f"public origin: {word!r} is not an origin such as "
                                   "https://parlor.example (docs/deploy.md)")
            found.append(host)
    return tuple(found)


def _trusted(peer: str, proxies: Iterable[Network]) -> bool:
    try:
        ip = ipaddress.ip_address(peer)
    except ValueError:  # not an address (a unix socket, "host:port"): no proxy of ours
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped  # a server on "::" sees an IPv4 proxy as ::ffff:a.b.c.d
    return any(ip in net for net in proxies)


def _forwarded_client(scope: Scope, proxies: tuple[Network, ...]) -> str | None:
    """The client's address by ``X-Forwarded-For``: the right-most address that is not a
    trusted proxy (each proxy appends the address it saw; what stands left of a trusted
    proxy's entry was written by whoever connected to it, so only that entry is believed)."""
    hops = _listed(scope, b"x-forwarded-for")
    for hop in reversed(hops):
        if not _trusted(hop, proxies):
            return hop
    return hops[0] if hops else None


def cross_origin(scope: Scope, origins: tuple[str, ...] = ()) -> str | None:
    """Why a state-changing request comes from another origin, or None if it does not.

    ``origins``: the hosts of the configured public origins; none: the request's host (the
    forwarded host of a trusted proxy, see :class:`Guard`, or ``Host``). The scheme is not
    compared: behind a TLS proxy the server sees http while the page is https; the host and
    port are what tell another site or another port apart."""
    if not origins:
        origins = (_plain_host(scope.get(FORWARDED_HOST) or _header(scope, b"host") or ""),)
    origin = _header(scope, b"origin")
    if origin is not None:
        if _origin_host(origin) not in origins:
            return f"a page at {origin[:100]} may not change games here"
        return None
    referer = _header(scope, b"referer")
    if referer is not None and _origin_host(referer) not in origins:
        return "a page on another site may not change games here"
    return None


def believe_proxy(scope: Scope, proxies: tuple[Network, ...]) -> None:
    """When the peer is a trusted proxy: the client's address (``X-Forwarded-For``), the
    scheme (``X-Forwarded-Proto``) and the host (``X-Forwarded-Host``, the last one: the one
    this proxy wrote) into ``scope``; from any other peer, nothing (see the module)."""
    peer = scope.get("client")
    if not proxies or not peer or not _trusted(str(peer[0]), proxies):
        return
    client = _forwarded_client(scope, proxies)
    if client is not None:
        scope["client"] = (client, 0)
    proto = _listed(scope, b"x-forwarded-proto")
    if proto and proto[-1].lower() in ("http", "https"):
        scope["scheme"] = proto[-1].lower()
    host = _listed(scope, b"x-forwarded-host")
    if host:
        scope[FORWARDED_HOST] = host[-1]


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
        policy = (DOCS_CSP if path.startswith("/api/docs") else CSP).encode()
        started = False

        rid = _request_id(scope)

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = list(message.get("headers", []))
                headers.append((b"content-security-policy", policy))
                headers.extend(HEADERS)
                headers.append((b"x-request-id", rid.encode()))
                message = {**message, "headers": headers}
            await send(message)

        allowed = self._allowed(scope)
        if allowed is not None:
            await _answer(send_with_headers, 405, "method_not_allowed",
                          f"{path} takes {', '.join(allowed)}", [(b"allow", ", ".join(
                              allowed).encode())])
            return
        refusal = self._refusal(scope)
        if refusal is not None:
            await _answer(send_with_headers, *refusal)
            return
        seen = 0

        async def counting() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise _TooLarge
            return message

        try:
            await self.app(scope, counting, send_with_headers)
        except _TooLarge:
            if started:
                raise
            await _answer(send_with_headers, 413, "too_large",
                          f"a request body is at most {self.max_body // 1024} KB")
        except ClientDisconnect:
            raise  # no fault of ours: the server logs it, briefly (server.quiet_disconnects)
        except Exception:
            # a fault of ours: logged once, with the id the client was given, and answered as
            # JSON with the headers of every reply (never the server's bare text "500")
            log.exception("request %s (%s %s) failed", rid, scope.get("method"), path)
            if started:
                return  # the reply was under way: the connection is closed short
            await _answer(send_with_headers, 500, "internal",
                          f"something went wrong on our side (request {rid}); "
                          "nothing you did caused it. Try again in a moment")

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
