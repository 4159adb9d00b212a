"""The coach forecasts the fight (issue 41), in real Chromium: an attack declared by clicking
the cards shows, under Done and beside each card still to declare, what the engine says
follows if nobody plays another card, and that is what then happens."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .ui import CHROMIUM, Server, wait_for_decision

pytestmark = pytest.mark.slow  # `make check` leaves it out: Debian's chromium

if not Path(CHROMIUM).exists():  # `make test` installs it; a bare pytest run may not have it
    pytest.skip(f"{CHROMIUM} is not installed (make test installs it)", allow_module_level=True)
pytest.importorskip("playwright.sync_api")

from axe_playwright_python.sync_playwright import Axe  # noqa: E402

from .a11y import low_contrast  # noqa: E402

WIDE = {"viewport": {"width": 1440, "height": 900}}
BOX = "el => { const r = el.getBoundingClientRect(); return {top: r.top, bottom: r.bottom," \
      " left: r.left, right: r.right}; }"
# The text of what describes an element (aria-describedby), as assistive technology reads it.
DESCRIPTION = """el => (el.getAttribute('aria-describedby') || '').split(/\\s+/).filter(Boolean)
  .map(id => document.getElementById(id).textContent).join(' ')"""
# Each log line: its kind (the class ev-<kind>) and its sentence.
LOG = """[...document.querySelectorAll('#log li')].map(li =>
  [[...li.classList].find(c => c.startsWith('ev-') && c !== 'ev-auto'),
   li.querySelector('.text').textContent])"""
LIFE_AFTER = re.compile(r"life after: you (\d+)(?: \([+−]\d+\))?, the computer (\d+)")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("forecast") / "forecast.db", pace=0.0).start()
    yield s
    s.stop()


def _page(browser: Any) -> Any:
    page = browser.new_context(**WIDE).new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def _axe(page: Any) -> list[str]:
    """axe's serious and critical violations in what the forecast adds to the table: the
    decisions (the note under Done), the cards described, the tip. (The rest of the table is
    the sweep's, tests/web/test_table_a11y.py.)"""
    found = Axe().run(page, context={"include": [["#controls"], ["section.table .side"],
                                                 ["#coach-tip"], ["#coach-notes"]]}).response
    return [f"{v['id']}: {[n['target'] for n in v['nodes']]}" for v in found["violations"]
            if v["impact"] in ("serious", "critical")]


def _beside(a: dict[str, float], b: dict[str, float], gap: float = 24) -> bool:
    """Whether two boxes touch or nearly (``gap`` px): one beside, above or under the other."""
    apart_x = max(a["left"] - b["right"], b["left"] - a["right"], 0)
    apart_y = max(a["top"] - b["bottom"], b["top"] - a["bottom"], 0)
    return apart_x <= gap and apart_y <= gap


def _fight_decision(page: Any, rng: random.Random) -> dict[str, Any] | None:
    """Plausible decisions through the page's own sender until the player may attack or
    block (None: the game ended first)."""
    for _ in range(600):
        snap = wait_for_decision(page)
        if snap["status"] != "live":
            return None
        legal = snap["view"]["legal"]
        if any(a.startswith(("attack", "block")) for a in legal):
            return snap
        plays = [a for a in legal if a.startswith(("play", "keep", "assign", "bonus"))
                 and " tax " not in a]
        bare = [a for a in ("pass", "done", "end") if a in legal]
        action = rng.choice(plays) if plays and rng.random() < 0.8 else (
            bare[0] if bare else rng.choice(legal))
        page.evaluate("a => window.parlor.send(a)", action)
        page.wait_for_function(f"() => window.parlor.snapshot().version > {snap['version']}")
    raise AssertionError("no attack or block was offered")


def _quietly_to_the_combats_end(page: Any, turn: int) -> dict[str, Any]:
    """The player's part of the rest of the combat, played quietly with the buttons: Done
    (no ability), Pass (no card), a point to the first Cre offered."""
    while True:
        snap = wait_for_decision(page)
        v = snap["view"]
        if snap["status"] != "live" or v["combat"] is None or v["turn"] != turn:
            return snap
        legal = v["legal"]
        quiet = next((a for a in ("done", "pass") if a in legal), None)
        if quiet:
            page.locator(f'#controls [data-act="{quiet}"]').click()
        else:
            page.evaluate("a => window.parlor.send(a)", legal[0])
        page.wait_for_function(f"() => window.parlor.snapshot().version > {snap['version']}")


def test_a_fight_declared_by_clicking_shows_its_forecast_beside_the_cards_and_done_and_it_holds(
        browser: Any, server: Server) -> None:
    page = _page(browser)
    r = page.request.post(f"{server.url}/api/games", data={
        "level": "novice", "seed": 7, "max_turns": 60, "mode": "casual"})
    assert r.status == 201, r.text()
    page.goto(f"{server.url}/g/{r.json()['id']}")
    rng = random.Random(7)
    checked = 0
    while checked < 2:
        snap = _fight_decision(page, rng)
        if snap is None:
            break
        seen = page.locator("#log li").count()  # the log before the fight's declaration
        said = _declare_by_clicking(page, snap)
        if _checked_against_the_log(page, snap, said, seen):
            checked += 1
    assert checked, "somebody played on in every fight: no forecast could be checked"
    assert page.errors == []


def _declare_by_clicking(page: Any, snap: dict[str, Any]) -> str:
    """An attacker, or a blocker and the attacker it blocks, by clicking the cards; the
    forecast beside the card clicked, then beside Done (the declaration so far: sent with
    Done), checked. Returns the forecast of what was sent."""
    me, v = snap["you"], snap["view"]
    move = next(a for a in v["legal"] if a.startswith(("attack", "block")))
    words = move.split()
    if words[0] == "block":
        page.locator(f'[data-key="{me + 1}:{words[1]}"]').click()  # the blocker, selected
        card = page.locator(f'[data-key="{words[2]}"]')
    else:
        card = page.locator(f'[data-key="{me + 1}:{words[1]}"]')
    # the card's own forecast is beside it: pointed at, the tip stands next to the card and
    # says what the card describes itself with
    card.hover()
    tip = page.locator("#coach-tip")
    tip.wait_for(state="visible")
    assert _beside(tip.evaluate(BOX), card.evaluate(BOX))
    assert snap["forecast"][move] in card.evaluate(DESCRIPTION)
    assert "Forecast:" in tip.inner_text()
    assert _axe(page) + low_contrast(page) == []  # the tip showing
    card.click()
    page.wait_for_function(f"() => window.parlor.staged().length === 1"
                           f" || window.parlor.snapshot().version > {snap['version']}")
    if not page.evaluate("window.parlor.staged().length"):
        return str(snap["forecast"][move])  # it was the whole declaration: sent at once
    staged = page.evaluate("window.parlor.snapshot()")
    done = page.locator('#controls [data-act="done"]')
    said = str(staged["forecast"]["done"])
    note = page.locator(".done-forecast")
    assert note.is_visible() and _beside(note.evaluate(BOX), done.evaluate(BOX))
    assert said in done.evaluate(DESCRIPTION) and said in (note.text_content() or "")
    assert _axe(page) + low_contrast(page) == []  # the note under Done
    done.click()
    return said


def _checked_against_the_log(page: Any, snap: dict[str, Any], said: str, seen: int) -> bool:
    """The player's part of the fight played quietly; when nobody played another card
    (nor blocked an attack the forecast took as unblocked), each Rlr's life after is the
    forecast's (the log from line ``seen`` on). False when the fight could not be checked."""
    me, v = snap["you"], snap["view"]
    life = LIFE_AFTER.search(said)
    assert life, said
    _quietly_to_the_combats_end(page, v["turn"])
    fight = page.evaluate(LOG)[seen:]
    blocks = said.startswith("If the computer blocks nothing")
    if any(kind in ("ev-play", "ev-expel", "ev-ability") or (blocks and kind == "ev-block")
           for kind, _ in fight):
        return False  # somebody played on: the forecast said "if nobody does"
    for who, n in (("The computer", life.group(2)), ("You", life.group(1))):
        lost = [t for kind, t in fight if kind == "ev-life" and t.startswith(who)]
        if lost:
            assert re.search(rf": {n}( left)?$", lost[-1]), (lost, said)
        else:
            q = 1 - me if who == "The computer" else me
            assert int(n) == v["sides"][q]["life"], (fight, said)
    return True
