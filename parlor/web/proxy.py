"""Behind a proxy (issue 38): who is believed about ``X-Forwarded-*``, and the site's public
origins.

A proxy that rewrites ``Host`` (nginx's default sends the upstream's name) would make every
browser write look cross-origin. The origin a write is compared with
(:func:`parlor.web.guard.cross_origin`) is then, in this order: the configured public origins
(``PARLOR_PUBLIC_ORIGIN``); the ``X-Forwarded-Host`` a trusted proxy sent; the ``Host``. Only
a peer in the trusted proxies (``PARLOR_TRUSTED_PROXIES``) is believed about
``X-Forwarded-Host``, ``X-Forwarded-For`` (the client's address) and ``X-Forwarded-Proto``:
from anyone else those headers are ignored, since any client can write them.
"""

from __future__ import annotations

import ipaddress
import urllib.parse
from collections.abc import Iterable

from starlette.types import Scope

from parlor.settings import SettingError

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
#: The scope key where the Guard keeps the host a trusted proxy forwarded.
FORWARDED_HOST = "parlor.forwarded_host"


def origin_host(value: str) -> str | None:
    """The ``host[:port]`` of an http(s) origin or URL (see :func:`plain_host`), else None."""
    parsed = urllib.parse.urlsplit(value)
    return plain_host(parsed.netloc) if parsed.scheme in ("http", "https") and parsed.netloc \
        else None


def plain_host(netloc: str) -> str:
    """``host[:port]`` lowercased, without a default port (80, 443), as browsers write it."""
    netloc = netloc.lower()
    for default in (":80", ":443"):
        netloc = netloc.removesuffix(default)
    return netloc


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
            host = origin_host(word)
            if host is None or urllib.parse.urlsplit(word).path not in ("", "/"):
                raise SettingError(f"public origin: {word!r} is not an origin such as "
                                   "https://parlor.example (docs/deploy.md)")
            found.append(host)
    return tuple(found)


def _listed(scope: Scope, name: bytes) -> list[str]:
    """The comma-separated values of every ``name`` header, in order (a proxy appends)."""
    values = [v.decode("latin-1") for k, v in scope.get("headers", ()) if k == name]
    return [w.strip() for w in ",".join(values).split(",") if w.strip()]


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


__all__ = ["FORWARDED_HOST", "Network", "believe_proxy", "origin_host", "parse_origins",
           "parse_proxies", "plain_host"]
