"""End to end in real Chromium: a casual game takes back a move through the page; a match
game offers no takeback."""

from __future__ import annotations

from pathlib import Path

import pytest

from .ui import CHROMIUM, ROOT, Server, act_through_ui, wait_for_decision

pytestmark = pytest.mark.slow  # `make check` leaves it out: Debian's chromium

OUT = ROOT / "test-output"

if not Path(CHROMIUM).exists():  # `make test` installs it; a bare pytest run may not have it
    pytest.skip(f"{CHROMIUM} is not installed (make test installs it)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")



def deal(page: object, url: str, mode: str) -> dict:
    page.goto(url + "/")  # type: ignore[attr-defined]
    page.select_option("#level", "novice")  # type: ignore[attr-defined]
    page.fill("#seed", "11")  # type: ignore[attr-defined]
    page.select_option("#mode", mode)  # type: ignore[attr-defined]
    page.click("form.form-grid button[type=submit]")  # type: ignore[attr-defined]
    page.wait_for_url("**/g/*")  # type: ignore[attr-defined]
    return wait_for_decision(page)  # type: ignore[arg-type]


def test_a_casual_game_takes_back_a_move_and_a_match_game_offers_none(
        browser: object, tmp_path: Path) -> None:
    OUT.mkdir(exist_ok=True)
    server = Server(tmp_path / "tb.db").start()
    try:
        ctx = browser.new_context(viewport={"width": 1280, "height": 860})  # type: ignore[attr-defined]
        page = ctx.new_page()
        before = deal(page, server.url, "casual")
        act_through_ui(page, before["view"]["legal"][0])
        page.wait_for_function(f"() => window.parlor.snapshot().version > {before['version']}")
        after = wait_for_decision(page)
        assert after["takeback"]
        page.screenshot(path=str(OUT / "takeback-casual.png"))
        page.click('[data-act="takeback"]')
        page.wait_for_function(f"() => window.parlor.snapshot().version === {before['version']}")
        now = wait_for_decision(page)
        assert now["view"] == before["view"]
        assert "Taken back" in page.inner_text("#message")

        match = deal(page, server.url, "match")
        act_through_ui(page, match["view"]["legal"][0])
        page.wait_for_function(f"() => window.parlor.snapshot().version > {match['version']}")
        wait_for_decision(page)
        assert page.locator('[data-act="takeback"]').count() == 0
        page.screenshot(path=str(OUT / "takeback-match.png"))
        ctx.close()
    finally:
        server.stop()
