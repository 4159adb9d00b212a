"""Issue 13 against a real server: a 300 MB body measured against a memory bound, and the
same-site forgery in Chromium from a page served on another port of 127.0.0.1."""

from __future__ import annotations

import http.server
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from .ui import CHROMIUM, CHROMIUM_ARGS, ROOT, Server, free_port

pytestmark = pytest.mark.slow  # `make check` leaves it out: Debian's chromium

OUT = ROOT / "test-output"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path / "harden.db").start()
    try:
        yield s
    finally:
        s.stop()


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM")


def test_a_300_mb_body_is_refused_while_reading_within_a_memory_bound(server: Server) -> None:
    """Chunked (no Content-Length, so only counting can stop it) and declared: the server's
    peak memory grows by far less than the body."""
    assert server.proc is not None
    httpx.get(server.url + "/healthz")
    before = peak_rss_mb(server.proc.pid)
    chunk = b"x" * (1 << 20)
    sent = 0
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.sendall(b"POST /api/records HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
        try:
            while sent < 300 << 20:
                sock.sendall(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
                sent += len(chunk)
        except OSError:
            pass  # the server answered and closed: it stopped reading
        sock.settimeout(10)
        reply = sock.recv(4096)
    assert reply.startswith(b"HTTP/1.1 413"), reply[:200]
    assert sent < 300 << 20  # refused long before the end
    with socket.create_connection(("127.0.0.1", server.port)) as sock:  # declared: not read
        sock.sendall(b"POST /api/records HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                     b"application/json\r\nContent-Length: %d\r\n\r\n{" % (300 << 20))
        sock.settimeout(10)
        assert sock.recv(4096).startswith(b"HTTP/1.1 413")
    grown = peak_rss_mb(server.proc.pid) - before
    assert grown < 40, f"the server's peak memory grew by {grown:.0f} MB"
    assert httpx.get(server.url + "/healthz").status_code == 200


ATTACK = """<!doctype html><html><body>
<form id="f" method="post" action="{target}/g/{gid}/rematch"></form>
<script src="/attack.js"></script></body></html>"""
ATTACK_JS = """
fetch("{target}/api/games/{gid}/actions", {{method: "POST", mode: "no-cors",
  credentials: "include", headers: {{"Content-Type": "text/plain"}},
  body: JSON.stringify({{action: "resign", version: {version}}})}})
  .finally(() => {{ document.title = "sent"; document.getElementById("f").submit(); }});
"""


def serve_attacker(pages: dict[str, str]) -> tuple[http.server.ThreadingHTTPServer, str]:
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = pages.get(self.path, "").encode()
            self.send_response(200 if body else 404)
            self.send_header("content-type", "application/javascript"
                             if self.path.endswith(".js") else "text/html")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            return

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}"


def test_a_same_site_page_on_another_port_cannot_play_or_rematch(server: Server) -> None:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed (make test installs it)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            ctx = browser.new_context()
            page = ctx.new_page()
            page.goto(server.url + "/")  # the victim starts a game in this browser
            page.select_option("#level", "novice")
            page.click("form[action='/games'] button[type=submit]")
            page.wait_for_url("**/g/*")
            gid = page.url.rsplit("/", 1)[1]
            page.wait_for_function("() => window.parlor.snapshot().your_turn", timeout=20000)
            snap = page.evaluate("() => window.parlor.snapshot()")
            api = ctx.request
            games_before = len(api.get(server.url + "/api/games").json()["games"])
            httpd, attacker = serve_attacker({
                "/": ATTACK.format(target=server.url, gid=gid),
                "/attack.js": ATTACK_JS.format(target=server.url, gid=gid,
                                               version=snap["version"]),
            })
            try:
                evil = ctx.new_page()
                evil.goto(attacker + "/")
                evil.wait_for_load_state("networkidle")
                time.sleep(0.5)
                OUT.mkdir(exist_ok=True)
                evil.screenshot(path=str(OUT / "csrf-refused.png"))
                body = evil.content()
            finally:
                httpd.shutdown()
            assert "cross_origin" in body  # the form's POST was refused with a 403
            now = api.get(f"{server.url}/api/games/{gid}").json()
            assert now["status"] == "live" and now["version"] == snap["version"]
            assert len(api.get(server.url + "/api/games").json()["games"]) == games_before
        finally:
            browser.close()
