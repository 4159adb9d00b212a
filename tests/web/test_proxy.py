"""Behind a proxy (issue 38), in process: which origin a write is compared with, and who is
believed about ``X-Forwarded-*``. The same through a real nginx: tests/web/test_nginx.py."""

from __future__ import annotations

import asyncio
import configparser
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.types import Receive, Scope, Send

from parlor.settings import SettingError
from parlor.web.app import create_app
from parlor.web.guard import Guard
from parlor.web.proxy import parse_origins, parse_proxies
from parlor.web.serve import KEEP_ALIVE

from ..nginx import DEPLOY_SITE
from .helpers import config_for, new_game, wait_for_human

GAME = {"level": "random", "seed": 7, "max_turns": 12}


def client_at(db: Path, peer: str, **settings: Any) -> TestClient:
    """A client whose requests come from ``peer`` (a proxy's address, or a browser's)."""
    return TestClient(create_app(config_for(db, **settings)), client=(peer, 40000))


def test_a_trusted_proxys_forwarded_host_is_the_origin_writes_are_compared_with(
        db_path: Path) -> None:
    """nginx rewrote Host to its upstream's name and said the browser's host in
    X-Forwarded-Host: the page's own write is accepted, another site's refused."""
    with client_at(db_path, "10.0.0.5", trusted_proxies="10.0.0.0/24") as c:
        proxied = {"host": "parlor", "x-forwarded-host": "play.example:8443"}
        r = c.post("/api/games", json=GAME,
                   headers={**proxied, "origin": "https://play.example:8443"})
        assert r.status_code == 201, r.text
        r = c.post("/api/games", json=GAME,
                   headers={**proxied, "origin": "https://evil.example"})
        assert r.status_code == 403 and r.json()["error"] == "cross_origin"


@pytest.mark.parametrize("trusted", ["", "10.0.0.0/24"])
def test_an_untrusted_client_cannot_make_its_origin_ours_with_x_forwarded_host(
        db_path: Path, trusted: str) -> None:
    """A client that is no trusted proxy writes X-Forwarded-Host itself: ignored, so a page
    of another site is still refused (as if the header were not there)."""
    with client_at(db_path, "192.0.2.7", trusted_proxies=trusted) as c:
        r = c.post("/api/games", json=GAME,
                   headers={"origin": "https://evil.example",
                            "x-forwarded-host": "evil.example",
                            "x-forwarded-for": "10.0.0.5"})
        assert r.status_code == 403 and r.json()["error"] == "cross_origin"
        r = c.post("/api/games", json=GAME, headers={"origin": "http://testserver"})
        assert r.status_code == 201, r.text  # its own Host still counts


def test_with_a_public_origin_writes_come_from_that_origin_whatever_the_host(
        db_path: Path) -> None:
    with client_at(db_path, "127.0.0.1",
                   public_origin="https://parlor.example, http://parlor.example:8080") as c:
        for origin in ("https://parlor.example", "http://parlor.example:8080"):
            r = c.post("/api/games", json=GAME, headers={"host": "parlor", "origin": origin})
            assert r.status_code == 201, r.text
        for origin in ("http://parlor", "http://127.0.0.1:8000", "https://evil.example"):
            r = c.post("/api/games", json=GAME, headers={"host": "parlor", "origin": origin})
            assert r.status_code == 403, origin
        r = c.post("/api/games", json=GAME, headers={
            "host": "parlor", "referer": "https://evil.example/page"})
        assert r.status_code == 403 and r.json()["error"] == "cross_origin"
        r = c.post("/api/games", json=GAME, headers={
            "host": "parlor", "referer": "https://parlor.example/g/abc"})
        assert r.status_code == 201, r.text


def seen_by_app(peer: str, trusted: str, headers: dict[str, str]) -> dict[str, Any]:
    """The client address and scheme an app behind the Guard sees for one request."""
    seen: dict[str, Any] = {}

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        seen.update(client=scope["client"][0], scheme=scope["scheme"])

    scope = {"type": "http", "method": "GET", "path": "/", "scheme": "http",
             "client": (peer, 5000),
             "headers": [(k.encode(), v.encode()) for k, v in headers.items()]}

    async def nothing() -> dict[str, Any]:
        return {"type": "http.request", "body": b""}

    async def ignore(message: Any) -> None:
        pass

    asyncio.run(Guard(app, trusted_proxies=trusted)(scope, nothing, ignore))
    return seen


def test_the_client_address_and_scheme_are_a_trusted_proxys_word_only() -> None:
    spoofed = {"x-forwarded-for": "6.6.6.6", "x-forwarded-proto": "https"}
    assert seen_by_app("192.0.2.7", "10.0.0.5", spoofed) == {
        "client": "192.0.2.7", "scheme": "http"}
    assert seen_by_app("10.0.0.5", "10.0.0.5", spoofed) == {
        "client": "6.6.6.6", "scheme": "https"}
    # nginx appends the address it saw to the client's own header: that one is believed
    appended = {"x-forwarded-for": "6.6.6.6, 198.51.100.4"}
    assert seen_by_app("10.0.0.5", "10.0.0.5", appended)["client"] == "198.51.100.4"
    # a server listening on "::" sees an IPv4 proxy as an IPv4-mapped address
    assert seen_by_app("::ffff:10.0.0.5", "10.0.0.5", spoofed)["client"] == "6.6.6.6"
    # two proxies deep: the right-most address that is not a trusted proxy
    chained = {"x-forwarded-for": "6.6.6.6, 198.51.100.4, 10.0.0.9"}
    assert seen_by_app("10.0.0.5", "10.0.0.0/24", chained)["client"] == "198.51.100.4"


def test_a_setting_that_names_no_address_or_origin_stops_the_server() -> None:
    assert len(parse_proxies("10.0.0.5, 10.1.0.0/16, ::1")) == 3
    assert parse_origins("https://parlor.example:443, http://a.example:8080/") == (
        "parlor.example", "a.example:8080")
    for bad in ("localhost", "10.0.0.300", "10.0.0.5;10.0.0.6"):
        with pytest.raises(SettingError, match="trusted proxies"):
            parse_proxies(bad)
    for bad in ("parlor.example", "https://parlor.example/play", "ftp://parlor.example"):
        with pytest.raises(SettingError, match="public origin"):
            parse_origins(bad)


def test_the_servers_keep_alive_outlasts_the_deploy_nginx_upstream_keep_alive() -> None:
    """nginx must close an idle upstream connection first, or it may reuse one the server is
    closing (a 502 for the player): deploy/parlor.nginx's keepalive_timeout stays below."""
    text = DEPLOY_SITE.read_text()
    assert "keepalive_timeout 30s;" in text and KEEP_ALIVE > 30


@pytest.mark.slow
def test_the_hint_quota_is_the_players_not_the_client_address(db_path: Path) -> None:
    """Two players behind one address (a balancer, a NAT): each has his own hints."""
    with client_at(db_path, "10.0.0.5", hint_burst=2, hint_rate=0.01) as c:
        games = [new_game(c, seed=s) for s in (7, 8)]
        for g in games:
            snap = wait_for_human(c, g["id"], g["token"])
            codes = [c.get(f"/api/games/{g['id']}/hint", params={"version": snap["version"]},
                           headers={"X-Parlor-Token": g["token"]}).status_code
                     for _ in range(3)]
            assert codes == [200, 200, 429]


@pytest.mark.parametrize("unit", ["parlor-serve@.service", "parlor-worker@.service"])
def test_the_systemd_units_restart_always_and_allow_65536_files(unit: str) -> None:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(DEPLOY_SITE.parent / unit)
    service = parser["Service"]
    assert service["Restart"] == "always" and service["LimitNOFILE"] == "65536"
    assert parser["Unit"]["StartLimitIntervalSec"] == "0"  # a [Unit] setting, not [Service]
    assert service["ExecStart"].split()[1] == ("serve" if "serve" in unit else "worker")
