"""A whole game from the keyboard alone, in Chromium: no mouse event reaches the page. It
includes a payment by hand (R3, R20), a block (R12), an ability (707-711), a split of damage
(R14) and a distribution of bonus points (905), and it is played to the end. Focus is never left
on the page body when a decision is yours."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from .ui import CHROMIUM, ROOT, SHOWCASE, Server, kind_of, showcase_choice

pytestmark = pytest.mark.slow  # `make check` leaves it out: Debian's chromium

OUT = ROOT / "test-output"
SEED, LEVEL, TURNS = 79, "novice", 60  # a deal where all of SHOWCASE arise (searched)

if not Path(CHROMIUM).exists():  # `make test` installs it; a bare pytest run may not have it
    pytest.skip(f"{CHROMIUM} is not installed (make test installs it)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")

from .keyboard import act_by_keyboard, focused, set_pay_by_hand, tab_to  # noqa: E402

_MICE = """() => { window.__mice = 0;
  for (const t of ['mousedown', 'mouseup', 'pointerdown', 'pointerup', 'mousemove', 'wheel'])
    document.addEventListener(t, () => { window.__mice++; }, true); }"""



def decision(page: Any) -> dict[str, Any]:
    page.wait_for_function(
        "() => { const s = window.parlor && window.parlor.snapshot();"
        " return s && (s.status === 'over' || (s.your_turn &&"
        " !document.getElementById('app').classList.contains('busy'))); }", timeout=30000)
    snap: dict[str, Any] = page.evaluate("window.parlor.snapshot()")
    return snap


def test_a_whole_game_from_the_keyboard(browser: Any, tmp_path: Path) -> None:
    OUT.mkdir(exist_ok=True)
    server = Server(tmp_path / "keys.db", pace=0.0).start()
    try:
        page = browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.url + "/")
        page.evaluate(_MICE)
        tab_to(page, "level")
        page.keyboard.press("n")  # novice
        tab_to(page, "seed")
        page.keyboard.type(str(SEED))
        tab_to(page, "max_turns")
        page.keyboard.press("m")  # Medium (60 turns)
        tab_to(page, "deal")
        page.keyboard.press("Enter")
        page.wait_for_url("**/g/*")
        page.evaluate(_MICE)
        rng, done = random.Random(SEED), set()
        lost_focus = 0
        shots = set()
        snap = decision(page)
        while snap["status"] == "live":
            if focused(page) in ("", "main") or page.evaluate(
                    "document.activeElement === document.body"):
                lost_focus += 1
            action = showcase_choice(snap["view"]["legal"], rng, done, snap["view"])
            kind = kind_of(action)
            if kind in SHOWCASE and kind not in shots:
                page.screenshot(path=str(OUT / f"keyboard-before-{kind}.png"))
            before = page.evaluate("window.parlor.moves()")  # sent or declared
            act_by_keyboard(page, action, snap["you"])
            page.wait_for_function(
                f"() => window.parlor.moves() > {before}", timeout=20000)
            if kind == "payment" and "payment" not in done:
                log = page.evaluate("[...document.querySelectorAll('#log li .text')]"
                                    ".map(e => e.title)")
                taxed = action.split(" tax ")[1].split()
                assert all(any(f"taxes {lnd}" in t for t in log) for lnd in taxed), log
                snap = decision(page)
                set_pay_by_hand(page, False)
            if kind in SHOWCASE and kind not in shots:
                shots.add(kind)
                page.screenshot(path=str(OUT / f"keyboard-after-{kind}.png"))
            done.add(kind)
            snap = decision(page)
        page.wait_for_selector("dialog#over[open]")
        page.screenshot(path=str(OUT / "keyboard-game-over.png"))
        assert done >= set(SHOWCASE), done
        assert page.evaluate("window.__mice") == 0
        assert lost_focus == 0
        assert page.inner_text("#over-title") in ("You won", "You lost", "A draw")
        assert errors == []
    finally:
        server.stop()
