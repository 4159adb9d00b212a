"""The table for every player, measured in real Chromium: axe-core finds no serious or
critical violation and no text under 4.5:1 on any page at a phone, a small laptop and a desktop
width; no page scrolls sideways from 320 px up; the controls never cover your life or pool;
every card of your Hand, Field and Home and every suit of your pool is announced by name.
Screenshots of each page and width are saved under test-output/."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from parlor.learn.lessons import load_all

from .ui import CHROMIUM, ROOT, Server, kind_of, showcase_choice

pytestmark = pytest.mark.slow  # `make check` leaves it out: Debian's chromium

OUT = ROOT / "test-output"

if not Path(CHROMIUM).exists():  # `make test` installs it; a bare pytest run may not have it
    pytest.skip(f"{CHROMIUM} is not installed (make test installs it)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")

from .a11y import VIEWPORTS, axe_problems, covered, low_contrast, overflow  # noqa: E402

SUITS = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}
RANKS = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King", "T": "10"}


def card_name(card: str) -> str:
    return f"{RANKS.get(card[:-1], card[:-1])} of {SUITS[card[-1]]}"


class Site:
    """A server with two games made through the API: one in the middle, one finished."""

    def __init__(self, browser: Any, tmp: Path) -> None:
        self.server = Server(tmp / "a11y.db").start()
        self.url = self.server.url
        self.ctx = browser.new_context()
        req = self.ctx.request
        mid = self._play(req, seed=51, max_turns=60, moves=45)
        over = self._play(req, seed=4, max_turns=8, moves=2000)
        assert mid and over
        self.mid, self.over = mid, over
        self.watch = re.search(r'href="(/watch/[^"]+)"',
                               req.get(f"{self.url}/g/{self.mid}").text()).group(1)  # type: ignore[union-attr]
        lessons = [x["id"] for x in req.get(f"{self.url}/api/lessons").json()["lessons"]]
        self.pages = {
            "home": "/", "table": f"/g/{self.mid}", "over": f"/g/{self.over}",
            "replay": f"/replay/{self.over}?step=30", "rules": "/rules", "notation": "/notation",
            "watch": self.watch, "learn": "/learn", "lesson": f"/learn/{lessons[0]}",
            "stepped-back": f"/g/{self.mid}",  # the move list shows an earlier position
            "analysis": f"/g/{self.over}/analysis", "tournaments": "/tournaments",
        }
        self.pages.update({f"lesson-{x}": f"/learn/{x}" for x in lessons[1:]})
        page = self.ctx.new_page()  # a tournament, and an account with its profile
        page.goto(self.url + "/tournaments")
        page.fill("#t-seed", "5")
        page.click("#t-start")
        page.wait_for_url("**/t/*")
        self.pages["tournament"] = page.url.removeprefix(self.url)
        page.goto(self.url + "/account")
        page.fill("#signup-name", "axe")
        page.fill("#signup-password", "a long enough password 41")
        page.click("#signup")
        page.wait_for_url("**/profile")
        self.pages.update({"account": "/account", "profile": "/profile"})
        page.close()
        self.state = self.ctx.storage_state()  # its games, tournament and account

    def _play(self, req: Any, seed: int, max_turns: int, moves: int,
              until: str | None = None) -> str | None:
        """A game played by the showcase's choices for ``moves`` decisions (or until the
        person decides in phase ``until``: None if it never comes)."""
        r = req.post(f"{self.url}/api/games", data={"level": "novice", "seed": seed,
                                                     "max_turns": max_turns})
        assert r.status == 201, r.text()
        gid: str = r.json()["id"]
        rng, done = random.Random(seed), set()
        for _ in range(moves):
            snap = req.get(f"{self.url}/api/games/{gid}?wait=5&after=-1").json()
            while not snap["your_turn"] and snap["status"] == "live":
                snap = req.get(f"{self.url}/api/games/{gid}?wait=5&after={snap['version']}").json()
            if snap["status"] == "over":
                return None if until else gid
            if until and snap["view"]["phase"] == until:
                return gid
            action = showcase_choice(snap["view"]["legal"], rng, done, snap["view"])
            done.add(kind_of(action))
            req.post(f"{self.url}/api/games/{gid}/actions",
                     data={"action": action, "version": snap["version"]})
        if moves < 2000:  # leave it at the human's decision
            snap = req.get(f"{self.url}/api/games/{gid}?wait=5&after=-1").json()
            while not snap["your_turn"] and snap["status"] == "live":
                snap = req.get(f"{self.url}/api/games/{gid}?wait=5&after={snap['version']}").json()
        return gid

    def phase_game(self, phase: str) -> str | None:
        """A game at the person's decision in ``phase`` (made when first asked for): the
        table in each phase of a fight."""
        if f"table-{phase}" not in self.pages:
            gid = next(filter(None, (self._play(self.ctx.request, seed, 60, 2000, until=phase)
                                     for seed in FIGHTS[phase])), None)
            if gid is None:
                return None
            self.pages[f"table-{phase}"] = f"/g/{gid}"
            self.state = self.ctx.storage_state()
        return self.pages[f"table-{phase}"]

    def open(self, browser: Any, name: str, width: int, height: int) -> Any:
        ctx = browser.new_context(viewport={"width": width, "height": height},
                                  storage_state=self.state)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(self.url + self.pages[name])
        if name in ("table", "over", "watch", "stepped-back") or name.startswith("table-"):
            page.wait_for_function("() => document.querySelector('#side-me .plate')")
        if name == "stepped-back":  # two moves back by the move list (issue 41)
            page.wait_for_function("() => window.parlorMoves.moves().length > 2")
            page.click("#ml-prev")
            page.click("#ml-prev")
            page.wait_for_function("() => window.parlorMoves.at() !== null"
                                   " && !window.parlorMoves.busy()")
        if name == "analysis":
            page.wait_for_function("() => window.parlorAnalysis.status().status === 'done'",
                                   timeout=300_000)
        if name == "over":
            page.wait_for_selector("dialog#over[open]")
        if name == "replay" or name.startswith("lesson"):
            page.wait_for_selector("#side-me .plate")
        page.wait_for_timeout(150)
        # the cards' moves (a glide, a fade-in) finished: measured where they come to rest
        page.evaluate("() => Promise.all(document.getAnimations().filter(a => a.effect &&"
                      " a.effect.getTiming().iterations !== Infinity).map(a => a.finished))")
        page.errors = errors  # type: ignore[attr-defined]
        return page

    def close(self) -> None:
        self.ctx.close()
        self.server.stop()



@pytest.fixture(scope="module")
def site(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    s = Site(browser, tmp_path_factory.mktemp("a11y"))
    yield s
    s.close()


#: Deals that reach each phase of a fight at the person's decision, by the showcase's choices.
#: The first of each that reaches the phase first: 11 for a split (5 never reaches one, and
#: played a whole game to find that out).
FIGHTS = {"attack": (7, 11), "block": (5, 11, 7), "split": (11, 5, 7, 21)}
#: Every page a person reaches (issue 41: home, /learn, each lesson, the table early, mid-game,
#: in each phase of a fight and over, replay, analysis, tournaments, spectator, rules, account).
#: The lessons after the first are in test_table_a11y_lessons.py: a file of their own, so that
#: the suite's two processes (pytest -n 2 --dist loadfile) share these pages.
PAGES = ("home", "table", "stepped-back", "over", "replay", "rules", "notation", "watch", "learn",
         "lesson", "analysis", "tournaments", "tournament", "account", "profile",
         *(f"table-{p}" for p in FIGHTS))
LESSON_PAGES = tuple(f"lesson-{x.id}" for x in load_all()[1:])


@pytest.mark.parametrize("name", PAGES)
def test_axe_and_contrast_on_every_page_at_three_widths(browser: Any, site: Site,
                                                        name: str) -> None:
    axe_and_contrast_at_three_widths(browser, site, name)


def axe_and_contrast_at_three_widths(browser: Any, site: Site, name: str) -> None:
    """axe-core and the contrast check on page ``name`` at each of VIEWPORTS, a screenshot
    of each, and no error in the page."""
    OUT.mkdir(exist_ok=True)
    problems: list[str] = []
    if name.startswith("table-") and site.phase_game(name.removeprefix("table-")) is None:
        pytest.skip(f"no deal of {FIGHTS[name.removeprefix('table-')]} reached {name}")
    for width, height in VIEWPORTS:
        page = site.open(browser, name, width, height)
        page.screenshot(path=str(OUT / f"a11y-{name}-{width}.png"))
        found = axe_problems(page) + low_contrast(page)
        problems += [f"{name} at {width}px: {p}" for p in found]
        assert page.errors == [], page.errors
        page.context.close()
    assert problems == []


@pytest.mark.parametrize("width", [320, 390, 768, 1024, 1440])
def test_no_page_scrolls_sideways(browser: Any, site: Site, width: int) -> None:
    for name in ("home", "table", "stepped-back", "over", "replay", "rules", "watch"):
        page = site.open(browser, name, width, 800)
        if name == "over":
            page.click("#over-close")
        if width == 320 and name == "table":
            page.screenshot(path=str(OUT / "table-320-full.png"), full_page=True)
        got = overflow(page)
        assert got["scroll"] <= got["client"], (name, width, got)
        page.context.close()


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1024, 768), (1440, 900), (320, 640)])
def test_the_controls_never_cover_your_life_or_pool(browser: Any, site: Site, width: int,
                                                    height: int) -> None:
    page = site.open(browser, "table", width, height)
    mine = "#side-me .plate .life, #side-me .plate .pool"
    for y in range(0, 2400, 200):  # wherever the page is scrolled
        page.evaluate(f"window.scrollTo(0, {y})")
        boxes = page.evaluate(
            """sel => { const c = document.getElementById('controls').getBoundingClientRect();
               return [...document.querySelectorAll(sel)].map(e => {
                 const r = e.getBoundingClientRect();
                 return !(r.right <= c.left || r.left >= c.right || r.bottom <= c.top ||
                          r.top >= c.bottom); }); }""", mine)
        assert not any(boxes), (width, y)
    assert covered(page, mine) == []
    assert covered(page, "#controls button") == []
    page.context.close()


def test_every_card_and_pool_suit_is_announced_by_name(browser: Any, site: Site) -> None:
    page = site.open(browser, "table", 1024, 768)
    snap = page.evaluate("window.parlor.snapshot()")
    me = snap["you"]
    side = snap["view"]["sides"][me]
    hand = page.get_by_role("group", name=re.compile(r"^Your Hand"))
    assert side["hand"], "a mid-game Hand"
    for card in side["hand"]:
        named = [hand.get_by_role(r, name=re.compile("^" + card_name(card)))  # type: ignore[arg-type]
                 for r in ("img", "button")]
        assert sum(x.count() for x in named) >= 1, card
    for zone, cards in (("Field", side["field"]), ("Home", side["home"])):
        group = page.get_by_role("group", name=re.compile(f"^Your {zone}"))
        assert group.count() == 1
        for tc in cards:
            names = [group.get_by_role(r, name=re.compile("^" + card_name(tc["card"])))  # type: ignore[arg-type]
                     for r in ("img", "button")]
            assert sum(x.count() for x in names) >= 1, (zone, tc["card"])
    assert side["home"], "a mid-game Home"
    pool = page.get_by_role("group", name="Your mnr pool")
    for i, suit in enumerate("CDHS"):
        n = side["pool"][i]
        chips = [pool.get_by_role(r, name=re.compile(f"^{SUITS[suit]}: {n} mnr"))  # type: ignore[arg-type]
                 for r in ("img", "button")]
        assert sum(x.count() for x in chips) == 1, suit
    opp = page.get_by_role("group", name=re.compile(r"^The computer's Field"))
    assert opp.count() == 1
    life = page.get_by_role("group", name=re.compile(rf"^You: {side['life']} life"))
    assert life.count() == 1
    # the same names in the accessibility tree as a whole
    tree = page.locator("#side-me").aria_snapshot()
    for card in side["hand"]:
        assert card_name(card) in tree
    for s in SUITS.values():
        assert f"{s}: " in tree
    page.context.close()
