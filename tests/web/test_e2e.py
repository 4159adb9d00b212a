"""End to end in real Chromium: a whole game against the computer through the page, an
illegal (stale) click refused with a message, a ``kill -9`` of the server mid-game and a
restart that continues the same game, and screenshots at desktop and phone widths."""

from __future__ import annotations

import random
import re
import shutil
import time
from pathlib import Path

import pytest

from .ui import (
    CHROMIUM,
    ROOT,
    Server,
    act_through_ui,
    choose,
    snapshot,
    wait_for_decision,
)

pytestmark = pytest.mark.slow  # `make check` leaves it out: Debian's chromium

OUT = ROOT / "test-output"

if not Path(CHROMIUM).exists():  # `make test` installs it; a bare pytest run may not have it
    pytest.skip(f"{CHROMIUM} is not installed (make test installs it)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")



def play_moves(page: object, n: int, rng: random.Random, keyboard_every: int = 5) -> dict:
    snap = wait_for_decision(page)  # type: ignore[arg-type]
    for i in range(n):
        if snap["status"] == "over":
            break
        legal = snap["view"]["legal"]
        action = choose(legal, rng)
        version = page.evaluate("window.parlor.moves()")  # type: ignore[attr-defined]
        act_through_ui(page, action, keyboard=(i % keyboard_every == keyboard_every - 1))  # type: ignore[arg-type]
        page.wait_for_function(  # type: ignore[attr-defined]
            f"() => window.parlor.moves() > {version} || "
            "window.parlor.snapshot().status === 'over'", timeout=20000)
        snap = wait_for_decision(page)  # type: ignore[arg-type]
    return snap


def test_a_whole_game_in_the_browser(browser: object, db_url: str) -> None:
    OUT.mkdir(exist_ok=True)
    db = db_url
    server = Server(db).start()
    try:
        ctx = browser.new_context(viewport={"width": 1280, "height": 800})  # type: ignore[attr-defined]
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.url + "/")
        page.screenshot(path=str(OUT / "home-desktop.png"))
        page.select_option("#level", "novice")
        page.fill("#seed", "7")
        page.select_option("#max_turns", "20")
        page.click("button[type=submit]")
        page.wait_for_url("**/g/*")
        gid = page.url.rsplit("/", 1)[1]
        rng = random.Random(5)

        snap = play_moves(page, 6, rng)
        assert snap["status"] == "live"

        # -- an illegal click: a second browser tab on an out-of-date table -----------------
        other = ctx.new_page()
        other.route("**/api/games/*?*wait=*", lambda route: None)  # it hears no news
        other.goto(f"{server.url}/g/{gid}")
        other.wait_for_function("() => window.parlor && window.parlor.snapshot().your_turn")
        stale_version = snapshot(other)["version"]
        snap = play_moves(page, 1, rng)  # the first tab moves on
        assert snap["version"] > stale_version
        legal = snapshot(other)["view"]["legal"]
        act_through_ui(other, choose(legal, rng))
        other.wait_for_selector("#message.error")
        message = other.inner_text("#message")
        assert "out-of-date" in message and "Nothing was done" in message
        other.wait_for_function(f"() => window.parlor.snapshot().version >= {snap['version']}")
        assert snapshot(page)["version"] == snap["version"]  # nothing changed
        # a click on a card that has no decision is refused on the page itself
        idle = page.evaluate(
            "() => [...document.querySelectorAll('.tcard[data-key], .hcard[data-key]')]"
            ".filter(e => !e.matches('.selectable, .target')).map(e => e.dataset.key)")
        if idle:
            page.locator(f'[data-key="{idle[0]}"]').click(position={"x": 6, "y": 6}, force=True)
            text = page.inner_text("#message")
            # the engine's reason when it has one ("Why not? …", issue 11)
            assert ("no legal action" in text or "computer's decision" in text
                    or text.startswith("Why not? ")), text
        other.close()

        # -- keyboard, focus, labels, hint, four-colour suits --------------------------------
        snap = wait_for_decision(page)
        for _ in range(60):  # Tab to a card that can be used
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.matches('[data-key][role=button]')"):
                break
        assert page.evaluate("document.activeElement.matches('[data-key][role=button]')")
        assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
        label = page.evaluate(  # a card is named by an aria-label or by its content (a button)
            "() => { const a = document.activeElement; return a.getAttribute('aria-label') ||"
            " [...a.querySelectorAll('.sr-only')].map(e => e.textContent).join(''); }")
        assert re.match(r"^(Ace|Jack|Queen|King|\d+) of (Clubs|Diamonds|Hearts|Spades)", label)
        page.keyboard.press("h")
        page.wait_for_selector("#hint:not([hidden]) >> text=The expert would")
        page.click(".settings summary")
        page.check("#four-colour")
        assert page.evaluate("document.documentElement.classList.contains('four-colour')")
        page.screenshot(path=str(OUT / "table-hint-four-colour.png"))
        page.uncheck("#four-colour")
        page.click(".settings summary")

        snap = play_moves(page, 4, rng)
        page.screenshot(path=str(OUT / "table-desktop.png"))
        phone = browser.new_context(viewport={"width": 390, "height": 844},  # type: ignore[attr-defined]
                                    storage_state=ctx.storage_state())
        ph = phone.new_page()
        ph.goto(f"{server.url}/g/{gid}")
        ph.wait_for_function("() => window.parlor && window.parlor.snapshot()")
        ph.screenshot(path=str(OUT / "table-phone.png"), full_page=True)
        phone.close()

        # -- kill -9 mid-game, restart on the same database, reload, continue -------------
        before = snapshot(page)
        log_before = page.locator("#log li").count()
        orphans = server.kill9()
        page.wait_for_timeout(300)
        server = Server(db, port=server.port).start()
        page.reload()
        page.wait_for_function("() => window.parlor && window.parlor.snapshot()")
        after = wait_for_decision(page)
        assert after["version"] >= before["version"]
        assert after["view"]["turn"] >= before["view"]["turn"]
        assert page.locator("#log li").count() >= log_before
        first_lines = page.locator("#log li .text").all_inner_texts()[:log_before]
        assert first_lines  # the same history, replayed from the record
        end = time.monotonic() + 10  # the killed server's workers end by themselves
        while any(Path(f"/proc/{pid}").exists() for pid in orphans) and time.monotonic() < end:
            time.sleep(0.2)
        assert not any(Path(f"/proc/{pid}").exists() for pid in orphans), orphans

        # -- to the end of the game ----------------------------------------------------------
        snap = play_moves(page, 400, rng)
        assert snap["status"] == "over"
        page.wait_for_selector("dialog#over[open]")
        assert page.inner_text("#over-result")
        page.screenshot(path=str(OUT / "over-desktop.png"))
        record = page.request.get(f"{server.url}/g/{gid}/record.txt")
        assert record.ok and record.text().startswith("# Parlor Magic game record")
        page.goto(f"{server.url}/replay/{gid}?step=5")
        page.wait_for_selector("#side-me .plate")
        page.keyboard.press("ArrowRight")
        page.wait_for_url("**step=6")
        page.screenshot(path=str(OUT / "replay-desktop.png"))
        page.goto(f"{server.url}/rules#r903")
        page.screenshot(path=str(OUT / "rules-desktop.png"))
        page.goto(f"{server.url}/g/nosuchgame")
        assert "No such game" in page.inner_text("main")
        assert errors == []
    finally:
        server.stop()


def test_chromium_is_debian_s() -> None:
    assert shutil.which("chromium") or Path(CHROMIUM).exists()


def test_a_game_whose_computer_failed_says_so_in_the_page(browser: object,
                                                          tmp_path: Path) -> None:
    """A game stored as failed (Games.computer_failed) shows the server's sentence where the
    decision would be, offers a new game, and never plays on."""
    from parlor.present.failure import computer_failed
    from parlor.rules.engine import new_game
    from parlor.store import GameRow, GameStore
    from parlor.web.games import FAILED, hash_token

    OUT.mkdir(exist_ok=True)
    db = tmp_path / "failed.db"
    seed = next(n for n in range(100) if new_game(n).actor == 1)  # the computer acts first
    store = GameStore(f"sqlite:///{db}")
    store.insert(GameRow("failedgame", "play", 0, "expert", seed, "max_turns=200",
                         time.time()), hash_token("secret-token"))
    sentence = computer_failed("expert", "raised RuntimeError('bug in the search')")
    store.mark("failedgame", 0, status=FAILED, result=sentence)
    store.close()
    server = Server(db).start()
    try:
        page = browser.new_page()  # type: ignore[attr-defined]
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        # the player's token as its cookie (a token is never taken from an address)
        page.context.add_cookies([{"name": "pm_failedgame", "value": "secret-token",
                                   "url": server.url}])
        page.goto(f"{server.url}/g/failedgame")
        page.wait_for_selector("#phase .failed")
        assert sentence in " ".join(page.inner_text("#phase").split())
        assert page.locator("#controls a[href='/']").count() == 1
        page.screenshot(path=str(OUT / "table-computer-failed.png"))
        page.goto(server.url + "/")
        assert "The expert computer failed" in page.inner_text("main")
        assert errors == []
    finally:
        server.stop()
