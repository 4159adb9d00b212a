"""Two people play each other in real Chromium (issue 45): one invites from the home page,
the other opens the link in another browser context and takes the seat, and they make
decisions in turn through the table's controls, each seeing the other's move arrive by the
long poll and what the other is doing in words; a third context follows as a spectator.
Every game reply each context received is checked, against the game replayed to that
version, for the other seat's hidden cards (none)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from parlor.rules.engine import apply, new_game
from parlor.rules.state import Settings
from parlor.store import GameStore
from parlor.web.games import seed_of

from .test_privacy import hidden_cards
from .ui import CHROMIUM, ROOT, Server, act_through_ui, snapshot, wait_for_decision

pytestmark = pytest.mark.slow  # Debian's chromium

if not Path(CHROMIUM).exists():  # `make test` installs it; a bare pytest run may not have it
    pytest.skip(f"{CHROMIUM} is not installed (make test installs it)", allow_module_level=True)
pytest.importorskip("playwright.sync_api")

OUT = ROOT / "test-output"
#: Decisions made through the pages, alternating between the two people as the game asks.
DECISIONS = 10


def simple(legal: list[str], rng: random.Random) -> str:
    """A decision made with one click on the player's own Hand or drawn cards, or a button:
    keep a card, trim, play a card on nothing, or pass, end, done (no attack, so no combat's
    point handing, whose keys name a seat)."""
    cards = [a for a in legal if a.split()[0] in ("keep", "trim")
             or (a.startswith("play ") and len(a.split()) == 2)]
    if cards and rng.random() < 0.8:
        return rng.choice(cards)
    for bare in ("pass", "end", "done"):
        if bare in legal:
            return bare
    assert cards, legal
    return rng.choice(cards)


def recorder(page: Any, into: list[tuple[str, dict[str, Any]]]) -> None:
    """Keep every game reply the page receives: API JSON and the table page's snapshot."""
    def keep(response: Any) -> None:
        url = response.url
        try:
            if "/api/friends/" in url or "/api/watch/" in url:
                into.append((url, response.json()))
            elif re.search(r"/(f|watch)/[^/?]+", url) and response.status == 200:
                m = re.search(r'<script type="application/json" id="snapshot">(.*?)</script>',
                              response.text(), re.S)
                if m:
                    into.append((url, json.loads(m.group(1))))
        except Exception:  # a reply the page dropped (a navigation): no body to check
            return
    page.on("response", keep)


def check_replies(db: str, gid: str, replies: list[tuple[str, dict[str, Any]]],
                  seat: int | None) -> int:
    """Each reply holds none of the other seat's hidden cards at its version (for a
    spectator: neither seat's)."""
    stored = GameStore(db).load(gid)
    assert stored is not None
    checked = 0
    for url, reply in replies:
        if "view" not in reply:  # a preview's {"final": true}, an error
            continue
        s = new_game(seed_of(stored.row), Settings.parse(stored.row.settings))
        for text in stored.actions[:reply["version"]]:
            apply(s, text)
        whole = json.dumps(reply)
        for q in ((0, 1) if seat is None else (1 - seat,)):
            side = json.dumps(reply["view"]["sides"][q])
            leaked = {c for c in hidden_cards(s, q)
                      if f'"{c}"' in side or f'"{q + 1}:{c}"' in whole}
            assert not leaked, (url, seat, q, leaked)
            assert reply["view"]["sides"][q]["hand"] is None, url
        checked += 1
    return checked


def seen_by(page: Any, replies: list[tuple[str, dict[str, Any]]], version: int) -> None:
    """Wait until ``page`` has received a reply at ``version`` or later (its long poll)."""
    for _ in range(300):  # 30 s: a bound for a stuck page, not a measured time
        if any(r.get("version", -1) >= version for _, r in replies):
            return
        page.wait_for_timeout(100)  # lets the page's events (its replies) be handled
    raise AssertionError(f"the spectator never saw version {version}")


def test_two_people_play_each_other_in_two_browsers(browser: Any, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'games.db'}"
    server = Server(db).start()
    try:
        contexts = [browser.new_context(viewport={"width": 1280, "height": 800})
                    for _ in range(3)]
        pages = [ctx.new_page() for ctx in contexts]
        replies: list[list[tuple[str, dict[str, Any]]]] = [[], [], []]
        errors: list[str] = []
        for page, into in zip(pages, replies, strict=True):
            recorder(page, into)
            page.on("pageerror", lambda e: errors.append(str(e)))
        host, guest, watcher = pages

        # -- the invitation -------------------------------------------------------------------
        host.goto(server.url + "/")
        host.select_option("#friend-seat", "1")
        host.select_option("#friend-turns", "20")
        host.click("#invite")
        host.wait_for_url("**/f/*")
        gid = host.url.split("/f/", 1)[1].split("#", 1)[0]
        link = host.input_value("#invite-link")
        assert "/i/" in link and host.is_visible("#friend-invite")
        assert "Waiting for your friend" in host.inner_text("#friend-status")
        # nobody decides before the other seat is taken, whichever seat moves first
        host.wait_for_selector("#phase:has-text('Waiting for your friend to take the other seat')")
        assert "is deciding" not in host.inner_text("#phase")
        guest.goto(link)
        assert "You would be <strong>Rlr 2</strong>" in guest.content()
        guest.click("#take-seat")
        guest.wait_for_url(f"**/f/{gid}")
        # the inviter's table hears that the friend sat down
        host.wait_for_function("() => window.parlor.snapshot().friend.seated")
        host.wait_for_selector("#friend-invite", state="hidden")
        watcher.goto(server.url + host.get_attribute("#watch", "href"))

        seats = {0: host, 1: guest}
        rng = random.Random(45)
        for _ in range(DECISIONS):
            actor = snapshot(host)["friend"]["to_decide"]
            if actor is None:
                break
            me, other = seats[actor], seats[1 - actor]
            snap = wait_for_decision(me)
            assert snap["you"] == actor
            other.wait_for_function(f"() => window.parlor.snapshot().version >= "
                                    f"{snap['version']}")
            assert not snapshot(other)["your_turn"]
            assert re.match(rf"Rlr {actor + 1} is \w+", other.inner_text("#friend-status"))
            assert me.inner_text("#friend-status").startswith("Your decision")
            # no computer's advice between two people: no Hint button, and H asks nothing
            assert me.locator("#controls [data-act=hint]").count() == 0
            me.keyboard.press("h")
            assert me.locator("#hint").is_hidden()
            act_through_ui(me, simple(snap["view"]["legal"], rng))
            me.wait_for_function(f"() => window.parlor.snapshot().version > {snap['version']}")
            moved = snapshot(me)["version"]
            # the other seat's table sees the move (its log grew with it), and so does the
            # spectator's
            other.wait_for_function(f"() => window.parlor.snapshot().version >= {moved}")
            seen_by(watcher, replies[2], moved)
        assert snapshot(host)["version"] >= DECISIONS
        OUT.mkdir(exist_ok=True)
        for name, page in (("host", host), ("guest", guest), ("spectator", watcher)):
            page.screenshot(path=str(OUT / f"friend-{name}.png"))
        assert snapshot(guest)["version"] == snapshot(host)["version"]
        assert not errors, errors

        checked = sum(check_replies(db, gid, replies[p], p) for p in (0, 1))
        checked += check_replies(db, gid, replies[2], None)
        assert checked > 2 * DECISIONS
        assert any("/api/watch/" in url for url, _ in replies[2])
        for ctx in contexts:
            ctx.close()
    finally:
        server.stop()


def test_clocks_an_offer_and_a_rematch_in_two_browsers_by_keyboard(browser: Any,
                                                                    tmp_path: Path) -> None:
    """The clock chosen on the home page is on both tables, the running one counting down
    in the page; a draw offered from the Game menu and accepted with the keyboard ends the
    game drawn on both tables; the rematch (seats swapped) is opened by both. Screenshots of
    the table with the clocks and the offer at a phone's, a tablet's and a desktop's width."""
    db = f"sqlite:///{tmp_path / 'games.db'}"
    server = Server(db).start()
    try:
        contexts = [browser.new_context(viewport={"width": 1024, "height": 800})
                    for _ in range(2)]
        host, guest = (ctx.new_page() for ctx in contexts)
        errors: list[str] = []
        for page in (host, guest):
            page.on("pageerror", lambda e: errors.append(str(e)))
        host.goto(server.url + "/")
        host.select_option("#friend-seat", "1")
        host.select_option("#friend-clock", "300+3")
        host.click("#invite")
        host.wait_for_url("**/f/*")
        gid = host.url.split("/f/", 1)[1].split("#", 1)[0]
        assert host.is_visible("#friend-clocks")
        guest.goto(host.input_value("#invite-link"))
        guest.click("#take-seat")
        guest.wait_for_url(f"**/f/{gid}")
        host.wait_for_function("() => window.parlor.snapshot().friend.seated")
        guest.wait_for_function("() => window.parlor && window.parlor.snapshot()")
        actor = snapshot(guest)["friend"]["to_decide"]
        seats = {0: host, 1: guest}
        # the running clock is the decider's, on both tables, and it counts down in the page
        for page in (host, guest):
            page.wait_for_selector(f"#clock-{actor}.running")
            assert not page.locator(f"#clock-{1 - actor}.running").count()
        first = seats[actor].inner_text(f"#clock-{actor} .left")
        seats[actor].wait_for_function(
            f"() => document.querySelector('#clock-{actor} .left').textContent !== "
            f"{json.dumps(first)}")
        assert guest.inner_text(f"#clock-{1 - actor} .left") == "5:00"

        # a draw offered from the Game menu, by keyboard
        offerer, answerer = seats[1 - actor], seats[actor]
        offerer.focus(".sidebar-head summary")
        offerer.keyboard.press("Enter")
        offerer.focus("#offer-draw")
        offerer.keyboard.press("Enter")
        offerer.wait_for_selector("#offer-words:has-text('You offered a draw')")
        answerer.wait_for_selector("#offer-accept", state="visible")
        assert f"Rlr {2 - actor} offers a draw" in answerer.inner_text("#offer-words")
        OUT.mkdir(exist_ok=True)
        for width in (390, 1024, 1440):
            answerer.set_viewport_size({"width": width, "height": 844 if width == 390 else 900})
            answerer.screenshot(path=str(OUT / f"friend-clocks-offer-{width}.png"))
        answerer.focus("#offer-accept")
        answerer.keyboard.press("Enter")
        for page in (host, guest):
            page.wait_for_function("() => window.parlor.snapshot().status === 'drawn'")
            page.wait_for_selector("#over[open]")
            assert "Drawn by agreement" in page.inner_text("#over-result")
        host.screenshot(path=str(OUT / "friend-drawn-1024.png"))
        # a spectator reads the draw and who agreed to it, not a bare "the game is over"
        watcher = browser.new_page()
        watcher.goto(server.url + host.get_attribute("#watch", "href"))
        watcher.wait_for_selector("#phase:has-text('Drawn by agreement')")
        assert f"Rlr {2 - actor} offered a draw" in watcher.inner_text("#phase")
        watcher.close()

        # the rematch: seats swapped, each opens it from their dialog
        host.focus("#rematch")
        host.keyboard.press("Enter")
        host.wait_for_url(re.compile(r".*/f/(?!" + gid + r")[\w-]+$"))  # ids are base64url
        new = host.url.rsplit("/", 1)[1]
        host.wait_for_function("() => window.parlor && window.parlor.snapshot()")
        assert snapshot(host)["you"] == 1  # Rlr 1 before
        guest.wait_for_selector("#rematch:has-text('Play the rematch')")
        guest.focus("#rematch")
        guest.keyboard.press("Enter")
        guest.wait_for_url(f"**/f/{new}")
        guest.wait_for_function("() => window.parlor && window.parlor.snapshot()")
        assert snapshot(guest)["you"] == 0 and snapshot(guest)["friend"]["seated"]
        host.wait_for_function("() => window.parlor.snapshot().friend.seated")
        assert not errors, errors
        for ctx in contexts:
            ctx.close()
    finally:
        server.stop()


def table_of(page: Any) -> dict[str, Any]:
    """What a player's table shows: the position, whose decision, the log, the status line."""
    snap = snapshot(page)
    return {"version": snap["version"], "view": snap["view"], "you": snap["you"],
            "your_turn": snap["your_turn"], "to_decide": snap["friend"]["to_decide"],
            "log": page.inner_text("#log"), "status": page.inner_text("#friend-status")}


def test_a_player_who_reloads_or_continues_on_another_device_resumes_exactly(
        browser: Any, tmp_path: Path) -> None:
    """A reload shows the same table; "Continue elsewhere" (a one-time link, as in a game
    against the computer) opens it at the same seat in another browser, which then plays
    for that seat, and the first browser follows; the link works once."""
    server = Server(f"sqlite:///{tmp_path / 'games.db'}").start()
    try:
        contexts = [browser.new_context(viewport={"width": 1024, "height": 800})
                    for _ in range(3)]
        host, guest, device = (ctx.new_page() for ctx in contexts)
        errors: list[str] = []
        for page in (host, guest, device):
            page.on("pageerror", lambda e: errors.append(str(e)))
        host.goto(server.url + "/")
        host.select_option("#friend-seat", "1")
        host.click("#invite")
        host.wait_for_url("**/f/*")
        gid = host.url.split("/f/", 1)[1].split("#", 1)[0]
        guest.goto(host.input_value("#invite-link"))
        guest.click("#take-seat")
        guest.wait_for_url(f"**/f/{gid}")
        host.wait_for_function("() => window.parlor.snapshot().friend.seated")
        seats, rng = {0: host, 1: guest}, random.Random(7)
        for _ in range(3):
            actor = snapshot(host)["friend"]["to_decide"]
            snap = wait_for_decision(seats[actor])
            act_through_ui(seats[actor], simple(snap["view"]["legal"], rng))
            for page in (host, guest):
                page.wait_for_function(
                    f"() => window.parlor.snapshot().version > {snap['version']}")
        guest.wait_for_function("() => document.querySelector('#log').children.length > 0")
        before = table_of(guest)
        guest.reload()
        guest.wait_for_function("() => window.parlor && window.parlor.snapshot()")
        guest.wait_for_function("() => document.querySelector('#log').children.length > 0")
        assert table_of(guest) == before
        # another device: the guest's one-time link, opened in a browser holding no token
        guest.click(".sidebar-head summary")
        guest.click("#share")
        link = guest.input_value("#handover-link")
        device.goto(link)
        device.wait_for_url(f"**/f/{gid}")
        device.wait_for_function("() => window.parlor && window.parlor.snapshot()")
        device.wait_for_function("() => document.querySelector('#log').children.length > 0")
        assert table_of(device) == before
        # the device plays for the guest's seat when it is theirs; the host's table follows
        seats[1] = device
        actor = snapshot(host)["friend"]["to_decide"]
        snap = wait_for_decision(seats[actor])
        act_through_ui(seats[actor], simple(snap["view"]["legal"], rng))
        if actor == 0:  # the host moved: the device's turn now
            device.wait_for_function(
                f"() => window.parlor.snapshot().version > {snap['version']}")
            snap = wait_for_decision(device)
            act_through_ui(device, simple(snap["view"]["legal"], rng))
        host.wait_for_function(f"() => window.parlor.snapshot().version > {snap['version']}")
        # the link is spent: a second browser opening it gets nothing
        again = contexts[0].browser.new_page()
        response = again.goto(link)
        assert response is not None and response.status == 403
        assert "used already" in again.inner_text("body")
        again.close()
        assert not errors, errors
        for ctx in contexts:
            ctx.close()
    finally:
        server.stop()
