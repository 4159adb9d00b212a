"""The table's smaller promises (issue 12), in real Chromium: a declaration can be taken back
before it is final (R8, R10) with Cancel or Esc; the log says "N new events below" when you
have scrolled up; a crowded Home never overlaps its taxed Lnds; the Hand's cost labels keep
clear of the log on a phone; the tab title says "Your move"; the replay keeps every key pressed
while a step loads; an imported game is titled once; a refused import keeps the pasted text."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .ui import CHROMIUM, ROOT, Server

pytestmark = pytest.mark.slow  # `make check` leaves it out: Debian's chromium

OUT = ROOT / "test-output"

if not Path(CHROMIUM).exists():  # `make test` installs it; a bare pytest run may not have it
    pytest.skip(f"{CHROMIUM} is not installed (make test installs it)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")

DECIDED = ("() => { const s = window.parlor && window.parlor.snapshot(); return s &&"
           " (s.status === 'over' || (s.your_turn && !document.getElementById('app')"
           ".classList.contains('busy'))); }")

# Ten Lnds in each Home, most taxed, some with an Enh: drawn by the page's own renderTable.
CROWD = """async () => {
  const { renderTable, emptyMarks } = await import('/static/js/table.js');
  const s = window.parlor.snapshot();
  const v = JSON.parse(JSON.stringify(s.view));
  const me = s.you;
  const lnds = ['7C', '8C', '9C', 'TC', '7D', '8D', '9D', 'TD', '7H', '8H'];
  for (const p of [me, 1 - me]) {
    v.sides[p].home = lnds.map((c, i) => ({ card: c, ref: `${p + 1}:${c}`,
      enhs: i % 3 ? [] : [`${p + 1}:5H`], taxed_on: i % 4 === 3 ? 0 : p + 1, inactive: false,
      damage: 0, terminal: false, pwr: 0, tgh: 0 }));
  }
  renderTable({ view: v, me, names: me === 0 ? ['You', 'Computer'] : ['Computer', 'You'],
                marks: emptyMarks(), costs: s.costs, whyNot: null });
}"""

OVERLAPS = """sel => {
  const boxes = [...document.querySelectorAll(sel)].map(e => e.getBoundingClientRect());
  const hits = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i], b = boxes[j];
    const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (w > 0.5 && h > 0.5) hits.push([i, j, w, h]);
  }
  return hits; }"""


class Site:
    def __init__(self, browser: Any, tmp: Path) -> None:
        self.server = Server(tmp / "details.db", pace=0.0).start()
        self.url = self.server.url
        self.browser = browser

    def page(self, width: int = 1024, height: int = 768) -> Any:
        ctx = self.browser.new_context(viewport={"width": width, "height": height})
        page = ctx.new_page()
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        return page

    def new_game(self, page: Any, seed: int, level: str = "novice", turns: str = "60") -> str:
        """A game made through the API in the page's own browser (its cookie), then opened."""
        r = page.request.post(f"{self.url}/api/games",
                              data={"level": level, "seed": seed, "max_turns": int(turns)})
        assert r.status == 201, r.text()
        gid = str(r.json()["id"])
        page.goto(f"{self.url}/g/{gid}")
        page.wait_for_function(DECIDED)
        return gid


@pytest.fixture(scope="module")
def site(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    s = Site(browser, tmp_path_factory.mktemp("details"))
    yield s
    s.server.stop()


def _until_two_attackers(page: Any, seed: int) -> dict[str, Any]:
    """Play Lnds and Cres through the page's own sender until two attackers are offered."""
    rng = random.Random(seed)
    for _ in range(300):
        snap: dict[str, Any] = page.evaluate("window.parlor.snapshot()")
        assert snap["status"] == "live"
        legal = snap["view"]["legal"]
        if sum(a.startswith("attack ") for a in legal) >= 2:
            return snap
        plays = [a for a in legal if a.startswith(("play", "keep")) and " tax " not in a]
        bare = [a for a in ("end", "done", "pass") if a in legal]
        action = rng.choice(plays) if plays and rng.random() < 0.9 else (
            bare[0] if bare else rng.choice(legal))
        page.evaluate("a => window.parlor.send(a)", action)
        page.wait_for_function(f"() => window.parlor.snapshot().version > {snap['version']}")
        page.wait_for_function(DECIDED)
    raise AssertionError("no turn with two attackers")


def test_R8_declared_attackers_are_taken_back_with_cancel_or_escape(site: Site) -> None:
    page = site.page()
    site.new_game(page, seed=11, level="random")
    assert page.title().startswith("Your move")  # the tab says whose decision it is
    snap = _until_two_attackers(page, 11)
    version = snap["version"]
    first, second = [a.split()[1] for a in snap["view"]["legal"] if a.startswith("attack ")][:2]
    me = snap["you"] + 1
    # declare the first attacker from the keyboard: shown as attacking, nothing sent
    page.locator(f'[data-key="{me}:{first}"]').focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.parlor.staged().length === 1")
    assert page.locator(f'[data-key="{me}:{first}"].attacking').count() == 1
    assert "Not sent yet" in page.inner_text("#message")  # role=status: announced
    cancel = page.get_by_role("button", name=re.compile("^Cancel declarations"))
    assert cancel.count() == 1
    page.screenshot(path=str(OUT / "declare-staged.png"))
    assert page.evaluate("window.parlor.snapshot().version") == version
    # Esc takes it back, and says so; the focus stays on the table
    page.keyboard.press("Escape")
    page.wait_for_function("() => window.parlor.staged().length === 0")
    assert "taken back" in page.inner_text("#message")
    assert page.locator(f'[data-key="{me}:{first}"].attacking').count() == 0
    assert page.evaluate("document.activeElement !== document.body")
    # the Cancel button does the same
    page.locator(f'[data-key="{me}:{first}"]').click()
    page.wait_for_function("() => window.parlor.staged().length === 1")
    page.get_by_role("button", name=re.compile("^Cancel declarations")).click()
    page.wait_for_function("() => window.parlor.staged().length === 0")
    # the second attacker alone, then Done: sent whole
    page.locator(f'[data-key="{me}:{second}"]').click()
    page.wait_for_function("() => window.parlor.staged().length === 1")
    page.keyboard.press("d")
    page.wait_for_function(f"() => window.parlor.snapshot().version >= {version + 2}")
    log = page.inner_text("#log")
    assert re.search(r"You attack with", log)
    assert page.errors == []
    page.context.close()


def test_new_events_below_marker_when_the_log_is_scrolled_up(site: Site) -> None:
    page = site.page(1024, 768)
    site.new_game(page, seed=5, level="random")
    rng = random.Random(5)
    for _ in range(200):  # a log longer than its panel
        if page.evaluate("(() => { const l = document.getElementById('log');"
                         " return l.scrollHeight > l.clientHeight * 1.5; })()"):
            break
        snap = page.evaluate("window.parlor.snapshot()")
        page.evaluate("a => window.parlor.send(a)", rng.choice(snap["view"]["legal"]))
        page.wait_for_function(f"() => window.parlor.snapshot().version > {snap['version']}")
        page.wait_for_function(DECIDED)
    marker = page.locator("button.log-new")
    assert marker.count() == 0 or marker.is_hidden()
    page.evaluate("document.getElementById('log').scrollTop = 0")
    snap = page.evaluate("window.parlor.snapshot()")
    page.evaluate("a => window.parlor.send(a)", snap["view"]["legal"][0])
    page.wait_for_function("() => { const b = document.querySelector('button.log-new');"
                           " return b && !b.hidden; }")
    assert re.match(r"\d+ new events? below", marker.inner_text())
    assert page.evaluate("document.getElementById('log').scrollTop") == 0  # it did not jump
    page.screenshot(path=str(OUT / "log-new-events.png"))
    marker.focus()  # a real button: Tab reaches it, Enter uses it
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('button.log-new').hidden")
    assert page.evaluate("(() => { const l = document.getElementById('log');"
                         " return l.scrollHeight - l.scrollTop - l.clientHeight < 80; })()")
    assert page.evaluate("document.activeElement.id") == "log"
    page.context.close()


@pytest.mark.parametrize(("width", "height"), [(1024, 768), (390, 844), (1440, 900)])
def test_taxed_lnds_never_overlap_in_a_crowded_home(site: Site, width: int, height: int) -> None:
    page = site.page(width, height)
    site.new_game(page, seed=51)
    page.evaluate(CROWD)
    page.wait_for_timeout(100)
    page.screenshot(path=str(OUT / f"crowded-home-{width}.png"), full_page=True)
    for side in ("#side-me", "#side-opp"):
        faces = f"{side} .zone.home .tcard .face"
        assert page.locator(f"{side} .zone.home .tcard.taxed").count() >= 6
        assert page.evaluate(OVERLAPS, faces) == [], (side, width)
    page.context.close()


def test_the_hands_cost_labels_keep_clear_of_the_log_on_a_phone(site: Site) -> None:
    page = site.page(390, 844)
    site.new_game(page, seed=51)
    page.screenshot(path=str(OUT / "phone-hand-and-log.png"), full_page=True)
    gap = page.evaluate("""() => {
      const costs = [...document.querySelectorAll('#side-me .badge.cost')]
        .map(e => e.getBoundingClientRect());
      const table = document.querySelector('.table').getBoundingClientRect();
      const first = document.querySelector('#log li').getBoundingClientRect();
      return { n: costs.length, lowest: Math.max(...costs.map(r => r.bottom)), table: table.bottom,
               log: first.top }; }""")
    assert gap["n"] > 0
    assert gap["lowest"] <= gap["table"], gap  # inside the table, above its border
    assert gap["log"] - gap["lowest"] >= 12, gap  # and clear of the first log line
    page.context.close()


def _finished(site: Site, page: Any, seed: int, moves: int = 12) -> str:
    """A short game: some moves through the page, then a resignation."""
    gid = site.new_game(page, seed=seed, level="random", turns="8")
    for _ in range(moves):
        snap = page.evaluate("window.parlor.snapshot()")
        if snap["status"] != "live":
            return gid
        page.evaluate("a => window.parlor.send(a)", snap["view"]["legal"][0])
        page.wait_for_function(f"() => window.parlor.snapshot().version > {snap['version']}")
        page.wait_for_function(DECIDED)
    page.evaluate("window.parlor.send('resign')")
    page.wait_for_function("() => window.parlor.snapshot().status === 'over'")
    return gid


def test_the_replay_keeps_every_key_pressed_while_a_step_loads(site: Site) -> None:
    page = site.page()
    gid = _finished(site, page, seed=4)
    page.goto(f"{site.url}/replay/{gid}?step=0")
    page.wait_for_selector("#side-me .plate")
    # five presses in one go: all but the first arrive while a step is loading
    page.evaluate("""() => { for (let i = 0; i < 5; i++)
      document.body.dispatchEvent(
        new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true })); }""")
    page.wait_for_function("() => document.getElementById('step').value === '5'", timeout=15000)
    page.wait_for_timeout(400)
    assert page.evaluate("document.getElementById('step').value") == "5"
    assert "Step 5 of" in page.inner_text("#phase")
    page.context.close()


def test_an_imported_game_is_titled_once_and_a_refused_import_keeps_the_text(site: Site) -> None:
    page = site.page()
    gid = _finished(site, page, seed=4)
    record = page.request.get(f"{site.url}/g/{gid}/record.txt").text()
    page.goto(site.url + "/")
    page.fill("#record", record)
    page.click(".import-form button[type=submit]")
    page.wait_for_url("**/replay/*")
    head = page.inner_text(".sidebar")
    assert len(re.findall(r"seed 4\b", head, flags=re.I)) == 1, head
    page.goto(site.url + "/")
    row = page.locator("table.games tr", has_text="Imported record").first.inner_text()
    assert len(re.findall(r"seed 4\b", row, flags=re.I)) <= 1, row
    # a refused record: the error page, then back home: the pasted text is still there
    bad = "# Parlor Magic game record\nseed: 1\nthis is not an action\n"
    page.fill("#record", bad)
    page.click(".import-form button[type=submit]")
    page.wait_for_selector(".error-page")
    page.get_by_role("link", name="Back to your games").click()
    page.wait_for_selector("#record")
    assert page.input_value("#record") == bad
    page.context.close()
