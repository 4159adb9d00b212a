"""End to end in real Chromium: a tournament of two teams of two, one round. The person
creates it on the page, watches the computers' contest with public information only, plays
its own contest on the usual table to its end, and sees the standings and the report."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from .ui import CHROMIUM, ROOT, Server, act_through_ui, choose, wait_for_decision

pytestmark = pytest.mark.slow  # `make check` leaves it out: Debian's chromium

OUT = ROOT / "test-output"

if not Path(CHROMIUM).exists():  # `make test` installs it; a bare pytest run may not have it
    pytest.skip(f"{CHROMIUM} is not installed (make test installs it)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")



def test_a_tournament_in_the_browser(browser: object, tmp_path: Path) -> None:
    OUT.mkdir(exist_ok=True)
    server = Server(tmp_path / "t.db", pace=0.2).start()
    try:
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.url + "/tournaments")
        for select in page.locator(".t-level").all():  # you + random, random + random
            if select.input_value() != "human":
                select.select_option("random")
        page.fill("#t-rounds", "1")
        page.select_option("#t-turns", "8")
        page.fill("#t-seed", "7")
        page.screenshot(path=str(OUT / "tournament-new.png"), full_page=True)
        page.click("#t-start")
        page.wait_for_url("**/t/*")
        tid = page.url.rsplit("/", 1)[1]
        page.wait_for_selector("text=Play your contest")
        rows = page.locator("#t-standings-table tbody tr")
        assert rows.count() == 4
        assert "A1 (you)" in page.inner_text("#t-standings-table")
        page.screenshot(path=str(OUT / "tournament-round1.png"), full_page=True)

        # the computers' contest, watched: no Hand is shown, only backs
        watch = ctx.new_page()
        watch.on("pageerror", lambda e: errors.append(str(e)))
        href = page.locator("a:text('Watch')").first.get_attribute("href")
        watch.goto(server.url + str(href))
        watch.wait_for_selector("#side-me .plate")
        assert watch.locator(".hcard").count() == 0
        assert "public information only" in watch.inner_text(".sidebar-head")
        watch.screenshot(path=str(OUT / "tournament-watch.png"))
        watch.close()

        # a kill -9 of the server in the middle of the tournament, and a restart: nothing lost
        before = page.inner_text("#t-standings-table")
        server.kill9()
        server = Server(server.db, port=server.port, pace=0.2).start()
        page.reload()
        page.wait_for_selector("text=Play your contest")
        assert page.inner_text("#t-standings-table") == before

        # the person's contest on the usual table, to its end
        page.click("text=Play your contest")
        page.wait_for_url("**/g/*")
        assert "Tournament contest" in page.inner_text("#t-banner")
        rng = random.Random(3)
        snap = wait_for_decision(page)
        for _ in range(400):
            if snap["status"] == "over":
                break
            version = page.evaluate("window.parlor.moves()")  # sent or declared
            act_through_ui(page, choose(snap["view"]["legal"], rng))
            # a minute: once, in `make test` at load 6, 20 s passed before the move counted
            page.wait_for_function(
                f"() => window.parlor.moves() > {version} || "
                "window.parlor.snapshot().status === 'over'", timeout=60000)
            snap = wait_for_decision(page)
        assert snap["status"] == "over"
        page.screenshot(path=str(OUT / "tournament-contest-over.png"))
        page.click("#over a:text('Back to the tournament')")
        page.wait_for_url(f"**/t/{tid}")
        page.wait_for_selector("#t-export:not([hidden])", timeout=60000)
        status = page.inner_text("#t-status")
        assert "The tournament is over" in status
        assert "wins the tournament" in status or "share the win" in status
        assert page.locator("#t-results tbody tr").count() == 2
        talents = [int(x) for x in page.locator("#t-standings-table td.num:nth-child(5)")
                   .all_inner_texts()]
        assert sum(talents) == 16
        records = page.locator("#t-standings-table td.num:nth-child(6)").all_inner_texts()
        assert all(sum(int(n) for n in wld.split("-")) == 1 for wld in records)  # updated
        page.screenshot(path=str(OUT / "tournament-over.png"), full_page=True)
        page.click("#t-results a:text('Replay') >> nth=0")
        page.wait_for_url("**/replay/*")
        page.go_back()
        with page.expect_download() as dl:
            page.click("#t-export")
        assert '"rounds_played": 1' in Path(dl.value.path()).read_text() or \
            '"rounds_played":1' in Path(dl.value.path()).read_text()
        assert errors == []
        ctx.close()
    finally:
        server.stop()
