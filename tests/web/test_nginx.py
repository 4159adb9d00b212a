"""Ready for a balancer (issue 38): games played in Chromium through a real nginx to two
``parlor serve`` processes on one PostgreSQL, once through nginx as most people first write
it (``proxy_pass`` to a named upstream: the servers see ``Host: parlor``), once through the
repository's deploy/parlor.nginx; the hint quota per player through it; keep-alive."""

from __future__ import annotations

import random
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from ..nginx import Nginx, default_site, deploy_site
from ..pgserver import PostgresServer, free_port
from .ui import CHROMIUM, Server, act_through_ui, choose, wait_for_decision

pytestmark = pytest.mark.slow  # `make check` leaves it out: nginx, Debian's chromium, PostgreSQL

if not Path(CHROMIUM).exists():  # `make test` installs it; a bare pytest run may not have it
    pytest.skip(f"{CHROMIUM} is not installed (make test installs it)", allow_module_level=True)
pytest.importorskip("playwright.sync_api")

#: The expert thinks briefly for a hint: the hint test asks for eight.
QUICK_HINTS = {"PARLOR_HINT": "0.2"}


class Site:
    """nginx in front of two servers on one database."""

    def __init__(self, url: str, site: Any, server_args: tuple[str, ...]) -> None:
        self.port = free_port()
        args = tuple(a.replace("{port}", str(self.port)) for a in server_args)
        self.servers = [Server(url, args=args, env=QUICK_HINTS) for _ in range(2)]
        self.nginx = Nginx(site(self.port, [s.port for s in self.servers]), port=self.port)

    def start(self) -> Site:
        for s in self.servers:
            s.start()
        self.nginx.start()
        return self

    def stop(self) -> None:
        self.nginx.stop()
        for s in self.servers:
            s.stop()

    @property
    def url(self) -> str:
        return self.nginx.url

    def upstreams_used(self) -> set[str]:
        return set(self.nginx.upstreams()) & {f"127.0.0.1:{s.port}" for s in self.servers}


@pytest.fixture(scope="module")
def database(postgres: PostgresServer) -> Iterator[str]:
    name = postgres.new_database()
    try:
        yield postgres.url(name)
    finally:
        postgres.drop_database(name)


@pytest.fixture(scope="module")
def default_nginx(database: str) -> Iterator[Site]:
    """nginx's default Host rewriting; the servers know the site's origin."""
    site = Site(database, default_site, ("--public-origin", "http://127.0.0.1:{port}")).start()
    try:
        yield site
    finally:
        site.stop()


@pytest.fixture(scope="module")
def deploy_nginx(database: str) -> Iterator[Site]:
    """deploy/parlor.nginx; the servers trust its address (and know no origin)."""
    site = Site(database, deploy_site, ("--trusted-proxies", "127.0.0.1")).start()
    try:
        yield site
    finally:
        site.stop()


def play_in_browser(browser: Any, base: str, moves: int = 6) -> None:
    """A new game from the home page's form, then ``moves`` of the player's moves through
    the page's controls; each one must be taken (no refusal on the page)."""
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(base + "/")
        page.select_option("#level", "novice")
        page.fill("#seed", "11")
        page.click("button[type=submit]")
        page.wait_for_url("**/g/*")
        rng = random.Random(3)
        snap = wait_for_decision(page)
        for _ in range(moves):
            if snap["status"] == "over":
                break
            version = page.evaluate("window.parlor.moves()")
            act_through_ui(page, choose(snap["view"]["legal"], rng))
            page.wait_for_function(
                f"() => window.parlor.moves() > {version} || "
                "window.parlor.snapshot().status === 'over' || "
                "document.querySelector('#message.error')", timeout=30000)
            assert not page.locator("#message.error").count(), page.inner_text("#message")
            snap = wait_for_decision(page)
            assert snap["version"] > version
        assert not errors
    finally:
        ctx.close()


def test_moves_in_chromium_through_an_nginx_that_rewrites_host(
        browser: Any, default_nginx: Site) -> None:
    play_in_browser(browser, default_nginx.url)
    assert len(default_nginx.upstreams_used()) == 2  # both servers took requests


def test_moves_in_chromium_through_the_deploy_nginx_config(
        browser: Any, deploy_nginx: Site) -> None:
    play_in_browser(browser, deploy_nginx.url)
    assert len(deploy_nginx.upstreams_used()) == 2


def test_behind_a_host_rewriting_nginx_an_unconfigured_server_refuses_writes(
        deploy_nginx: Site) -> None:
    """The servers of deploy_nginx know no public origin: reached through a default nginx
    (Host: parlor, no X-Forwarded-Host) they cannot tell the page's origin is theirs, and
    refuse, as they must for a real cross-origin write (issue 38 found this 403)."""
    port = free_port()
    plain = Nginx(default_site(port, [s.port for s in deploy_nginx.servers]), port=port).start()
    try:
        for origin in (plain.url, "http://evil.example"):
            r = httpx.post(plain.url + "/api/games", timeout=30, headers={"origin": origin},
                           json={"level": "random", "seed": 1})
            assert r.status_code == 403 and r.json()["error"] == "cross_origin", r.text
    finally:
        plain.stop()


def test_x_forwarded_host_from_a_trusted_nginx_is_the_sites_host(deploy_nginx: Site) -> None:
    """nginx rewrites Host but says the browser's host in X-Forwarded-Host; the servers
    trust its address (127.0.0.1): the page's own write is accepted, another site's not."""
    port = free_port()
    site = default_site(port, [s.port for s in deploy_nginx.servers],
                        "proxy_set_header X-Forwarded-Host $http_host;")
    fwd = Nginx(site, port=port).start()
    try:
        for origin, status in ((fwd.url, 201), ("http://evil.example", 403)):
            r = httpx.post(fwd.url + "/api/games", timeout=30, headers={"origin": origin},
                           json={"level": "random", "seed": 1})
            assert r.status_code == status, r.text
    finally:
        fwd.stop()


def test_x_forwarded_host_from_a_client_that_is_no_proxy_is_ignored(
        default_nginx: Site) -> None:
    """default_nginx's servers trust no proxy: a client reaching one directly cannot make
    another site's page its own by saying X-Forwarded-Host."""
    server = default_nginx.servers[0]
    r = httpx.post(server.url + "/api/games", timeout=30, json={"level": "random", "seed": 1},
                   headers={"origin": "http://evil.example", "x-forwarded-host": "evil.example",
                            "x-forwarded-for": "127.0.0.1"})
    assert r.status_code == 403 and r.json()["error"] == "cross_origin", r.text


def test_players_behind_one_balancer_each_have_their_own_hints(deploy_nginx: Site) -> None:
    """Four players x two hints through nginx, spread over two servers: with the quota
    keyed on the client address (nginx's, for every player) at most 2 x 3 (each server's
    burst) would be answered; keyed on the player, all are."""
    base, codes = deploy_nginx.url, []
    for seed in (21, 22, 23, 24):
        r = httpx.post(base + "/api/games", timeout=30,
                       json={"level": "random", "seed": seed, "max_turns": 12})
        assert r.status_code == 201, r.text
        gid, auth = r.json()["id"], {"X-Parlor-Token": r.json()["token"]}
        snap: dict[str, Any] = {"version": -1}
        while True:  # to the player's decision
            snap = httpx.get(f"{base}/api/games/{gid}", headers=auth, timeout=40,
                             params={"after": snap["version"], "wait": 5}).json()
            assert snap["status"] == "live", snap["status"]
            if snap["your_turn"]:
                break
        for _ in range(2):
            r = httpx.get(f"{base}/api/games/{gid}/hint", headers=auth, timeout=60,
                          params={"version": snap["version"]})
            codes.append(r.status_code)
    assert codes == [200] * 8


def read_response(s: socket.socket) -> bytes:
    """One whole HTTP response (headers and a Content-Length body) from the socket."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += s.recv(4096)
    head, body = data.split(b"\r\n\r\n", 1)
    length = next(int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                  if line.lower().startswith(b"content-length:"))
    while len(body) < length:
        body += s.recv(4096)
    return head


def test_a_server_keeps_an_idle_connection_beyond_uvicorns_five_seconds(
        deploy_nginx: Site) -> None:
    """A second request on a connection idle for 6 s is answered (uvicorn's own 5 s
    closed it, and nginx reusing it just then gave 502s)."""
    server = deploy_nginx.servers[0]
    request = b"GET /healthz HTTP/1.1\r\nHost: parlor\r\n\r\n"
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as s:
        s.sendall(request)
        assert read_response(s).startswith(b"HTTP/1.1 200")
        s.settimeout(6)
        with pytest.raises(TimeoutError):  # nothing comes, not even a close (b"")
            s.recv(4096)
        s.settimeout(30)
        s.sendall(request)
        assert read_response(s).startswith(b"HTTP/1.1 200")
