"""The move list beside the log (issue 41, "alive"): during a casual game against the computer
the player steps back through the game's positions without leaving the table, by click, key
and tap, in real Chromium. Each position shown is the engine's view of the record replayed to
that step for the player's seat (compared here with the record the server stored, replayed by
the engine), no reply names a card hidden from the player, the live game goes on underneath
without yanking the view, and a match game refuses."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from parlor.rules.engine import apply, new_game
from parlor.rules.state import Settings, State, card_text
from parlor.store import GameStore
from parlor.web.games import seed_of, table_view, view_payload

from .test_privacy import hidden_cards
from .test_table_person import FIT, SETTLED, page_of, play_until, tab_stops, version
from .test_table_person import new_game as open_game
from .ui import CHROMIUM, ROOT, Server

pytestmark = pytest.mark.slow  # Debian's chromium

if not Path(CHROMIUM).exists():  # `make test` installs it; a bare pytest run may not have it
    pytest.skip(f"{CHROMIUM} is not installed (make test installs it)", allow_module_level=True)
pytest.importorskip("playwright.sync_api")

OUT = ROOT / "test-output"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
AT = "() => window.parlorMoves.at()"
LIVE = "() => window.parlorMoves.at() === null"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("movelist") / "movelist.db", pace=0.0).start()
    yield s
    s.stop()


def record_replies(page: Any) -> list[tuple[str, dict[str, Any]]]:
    """Every JSON reply the page receives from the API, kept as it arrives."""
    replies: list[tuple[str, dict[str, Any]]] = []

    def keep(resp: Any) -> None:
        if "/api/" in resp.url and "json" in (resp.headers.get("content-type") or ""):
            try:
                replies.append((resp.url, resp.json()))
            except Exception:  # a long poll cut by the page's close has no body
                return

    page.on("response", keep)
    return replies


def state_at(db: Path, gid: str, step: int) -> State:
    """The game after its first ``step`` actions, replayed by the engine from the stored
    record (the server's own store, read as a test may)."""
    stored = GameStore(f"sqlite:///{db}").load(gid)
    assert stored is not None
    s = new_game(seed_of(stored.row), Settings.parse(stored.row.settings))
    for text in stored.actions[:step]:
        apply(s, text)
    return s


def stepped(page: Any, step: int) -> dict[str, Any]:
    """Wait until the table shows the position after ``step`` moves; its reply."""
    page.wait_for_function(f"() => window.parlorMoves.at() === {step}"
                           " && !window.parlorMoves.busy()")
    past: dict[str, Any] = page.evaluate("() => window.parlorMoves.past()")
    return past


def hand_on_table(page: Any) -> list[str]:
    keys: list[str] = page.evaluate(
        "() => [...document.querySelectorAll('#side-me [data-key^=\"h:\"]')]"
        ".map(e => e.dataset.key.slice(2))")
    return keys


def assert_the_engines_view(server: Server, page: Any, gid: str, past: dict[str, Any]) -> None:
    """The position shown is the engine's view of the record at that step, for seat 0, and
    the table drawn is that view (the player's Hand card by card)."""
    s = state_at(server.db, gid, past["step"])
    assert json.loads(json.dumps(past["view"])) == json.loads(
        json.dumps(view_payload(table_view(s, 0))))
    assert hand_on_table(page) == [card_text(c) for c in s.hand[0]]


def assert_nothing_hidden(server: Server, gid: str,
                          replies: list[tuple[str, dict[str, Any]]]) -> int:
    """No past position names a card of the computer's it hid at that step (Hand, Draw
    pile, drawn and face-down Recycle cards), nor the player's own Draw pile, nor the deal's
    seed or the record's actions; no move of the list names the card of a hidden decision
    of the computer's (its keep, trim or Redraw)."""
    checked = 0
    stored = GameStore(f"sqlite:///{server.db}").load(gid)
    assert stored is not None
    for url, reply in replies:
        if f"/api/replays/{gid}/moves" in url:
            for m in reply["moves"]:
                action = stored.actions[m["step"] - 1].split()
                if m["by"] == 1 and action[0] in ("keep", "trim", "redraw") and len(action) > 1:
                    assert action[1] not in m["text"], (m, action)
                    s = state_at(server.db, gid, m["step"])
                    assert not {c for c in hidden_cards(s, 1) if c in m["text"]}
            checked += 1
        elif f"/api/replays/{gid}" in url:
            assert reply["in_play"] is True
            assert not {"seed", "last", "next", "log"} & set(reply), sorted(reply)
            s = state_at(server.db, gid, reply["step"])
            assert reply["view"]["sides"][1]["hand"] is None
            whole = json.dumps(reply)
            theirs = json.dumps(reply["view"]["sides"][1])
            leaked = {c for c in hidden_cards(s, 1) if f'"{c}"' in theirs or f'"2:{c}"' in whole}
            own_draw = {card_text(c) for c in s.draw[0]}
            leaked |= {c for c in own_draw if f'"{c}"' in json.dumps(reply["view"]["sides"][0])}
            assert not leaked, (url, leaked)
            checked += 1
    return checked


def test_stepping_back_and_forward_by_click_and_key_then_live_again(
        browser: Any, server: Server) -> None:
    page = page_of(browser, viewport={"width": 1440, "height": 900})
    replies = record_replies(page)
    snap = open_game(page, server.url, seed=7)
    gid = snap["id"]
    snap = play_until(page, 7, lambda s: s["view"]["turn"] >= 8)
    live = snap["version"]
    page.wait_for_function(f"() => window.parlorMoves.moves().length === {live}")
    assert page.locator("#ml-list > li[role=option]").count() == live + 1  # and the deal
    # the list is one Tab stop, whatever its length, and the log stays one too
    stops = tab_stops(page)
    assert len([s for s in stops if ":ml-list:" in s]) == 1, stops
    assert len([s for s in stops if s.startswith("log:")]) == 1, stops
    # one click back: the position before the last move, as the engine replays the record
    page.click("#ml-prev")
    past = stepped(page, live - 1)
    assert_the_engines_view(server, page, gid, past)
    assert page.locator(".app.looking-back").count() == 1
    assert "Looking back" in page.inner_text("#phase")
    assert page.locator("#ml-list [aria-selected=true]").get_attribute("data-step") == str(live - 1)
    # the strip's own Back, then a move of the list clicked
    page.locator('#controls [data-ml="prev"]').click()
    assert_the_engines_view(server, page, gid, stepped(page, live - 2))
    page.locator('#ml-list > li[data-step="3"]').click()
    assert_the_engines_view(server, page, gid, stepped(page, 3))
    # nothing on an earlier table can be chosen, and nothing was sent
    page.locator("#side-me [data-key]").first.click()
    assert version(page) == live
    # the keyboard: the list is one Tab stop, ↓ → step forward, ↑ back, Home to the deal
    page.locator("#ml-list").focus()
    page.keyboard.press("ArrowDown")
    assert_the_engines_view(server, page, gid, stepped(page, 4))
    page.keyboard.press("ArrowUp")
    stepped(page, 3)
    page.keyboard.press("Home")
    assert_the_engines_view(server, page, gid, stepped(page, 0))
    page.locator("body").focus()
    page.keyboard.press("ArrowRight")  # on the page too
    stepped(page, 1)
    page.locator('#controls [data-ml="next"]').click()  # and by the strip's Forward
    assert_the_engines_view(server, page, gid, stepped(page, 2))
    # back to the live position: the live table and its decisions, the log undimmed
    page.locator('#controls [data-ml="live"]').click()
    page.wait_for_function(LIVE)
    assert page.locator(".app.looking-back").count() == 0
    assert page.locator("#log > li.later").count() == 0
    live_hand = page.evaluate("() => window.parlor.snapshot().view.sides[0].hand")
    assert hand_on_table(page) == live_hand
    assert page.locator("#controls [data-ml]").count() == 0
    assert version(page) == live  # looking back changed nothing
    # Esc from an earlier position comes back too
    page.keyboard.press("ArrowLeft")
    stepped(page, live - 1)
    page.keyboard.press("Escape")
    page.wait_for_function(LIVE)
    assert assert_nothing_hidden(server, gid, replies) >= 9
    assert page.errors == []


def test_a_new_move_while_looking_back_is_counted_not_shown(
        browser: Any, server: Server) -> None:
    page = page_of(browser, viewport={"width": 1024, "height": 768})
    replies = record_replies(page)
    snap = open_game(page, server.url, seed=11)
    gid = snap["id"]
    snap = play_until(page, 11, lambda s: s["view"]["turn"] >= 6
                      and any(a in s["view"]["legal"] for a in ("pass", "end", "redraw")))
    live = snap["version"]
    page.wait_for_function(f"() => window.parlorMoves.moves().length === {live}")
    page.click("#ml-prev")
    page.click("#ml-prev")
    shown = stepped(page, live - 2)
    # the game goes on elsewhere (this browser's cookie, another tab): the player's decision
    # and the computer's replies reach the page by its long poll
    action = next(a for a in ("pass", "end", "redraw") if a in snap["view"]["legal"])
    r = page.request.post(f"{server.url}/api/games/{gid}/actions",
                          data={"action": action, "version": live})
    assert r.status == 200, r.text()
    page.wait_for_function(f"() => window.parlor.snapshot().version > {live}"
                           f" && window.parlorMoves.moves().length > {live}")
    page.evaluate(SETTLED)
    assert page.evaluate(AT) == live - 2  # not yanked to the live table
    assert page.evaluate("() => window.parlorMoves.past()") == shown
    assert_the_engines_view(server, page, gid, shown)
    news = page.inner_text("#controls .ml-new")
    assert "new move" in news and page.inner_text("#ml-note").endswith("new")
    OUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUT / "movelist-back-1024.png"))
    # 1024x768: the table, the strip and the list fit the window, stepped back too
    assert page.evaluate(FIT)["page"] == 0
    assert page.evaluate("() => { const t = document.querySelector('section.table');"
                         " return t.scrollHeight - t.clientHeight; }") == 0
    page.locator('#controls [data-ml="live"]').click()
    page.wait_for_function(LIVE)
    now = page.evaluate("() => window.parlor.snapshot()")
    assert now["version"] > live and hand_on_table(page) == now["view"]["sides"][0]["hand"]
    assert assert_nothing_hidden(server, gid, replies) >= 3
    assert page.errors == []


def test_a_match_game_shows_no_earlier_position_during_play(
        browser: Any, server: Server) -> None:
    page = page_of(browser, viewport={"width": 1440, "height": 900})
    snap = open_game(page, server.url, seed=7, mode="match")
    gid = snap["id"]
    assert page.locator("#movelist.closed").count() == 1
    assert "match game" in page.inner_text("#ml-note")
    assert not page.locator("#ml-prev").is_visible()
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(AT) is None and page.locator(".app.looking-back").count() == 0
    for path in (f"/api/replays/{gid}?step=0", f"/api/replays/{gid}/moves"):
        r = page.request.get(server.url + path)
        assert r.status == 409, path
        body = r.json()
        assert body["error"] == "no_look_back" and "match game" in body["message"]
        assert "view" not in body and "moves" not in body
    assert page.errors == []


def test_on_a_phone_the_move_list_is_tapped_back_and_to_the_live_table(
        browser: Any, server: Server) -> None:
    page = page_of(browser, **PHONE)
    replies = record_replies(page)
    snap = open_game(page, server.url, seed=5)
    gid = snap["id"]
    snap = play_until(page, 5, lambda s: s["view"]["turn"] >= 6)
    live = snap["version"]
    page.wait_for_function(f"() => window.parlorMoves.moves().length === {live}")
    page.locator("#ml-prev").tap()
    past = stepped(page, live - 1)
    assert_the_engines_view(server, page, gid, past)
    # the table's middle, with its buttons, is on the screen after a tap below the table
    strip = page.locator('#controls [data-ml="prev"]')
    box = strip.evaluate("el => el.getBoundingClientRect().toJSON()")
    assert box["top"] >= 0 and box["bottom"] <= 844
    strip.tap()
    assert_the_engines_view(server, page, gid, stepped(page, live - 2))
    OUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUT / "movelist-back-390.png"))
    page.screenshot(path=str(OUT / "movelist-back-390-full.png"), full_page=True)
    # every target of the move list and of the strip is 44x44 px to a finger
    sizes = page.evaluate("""() => [...document.querySelectorAll(
        '#movelist button:not([hidden]), #ml-list > li, #controls [data-ml]')]
        .map(e => { const r = e.getBoundingClientRect();
                    return [e.id || e.dataset.ml || e.dataset.step, r.width, r.height]; })""")
    small = [s for s in sizes if s[1] < 44 or s[2] < 44]
    assert sizes and small == [], small
    # nothing wider than the phone
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    page.locator('#controls [data-ml="live"]').tap()
    page.wait_for_function(LIVE)
    assert hand_on_table(page) == page.evaluate("() => window.parlor.snapshot().view.sides[0].hand")
    assert assert_nothing_hidden(server, gid, replies) >= 2
    assert page.errors == []


def test_screenshots_of_the_table_stepped_back_at_1440(browser: Any, server: Server) -> None:
    page = page_of(browser, viewport={"width": 1440, "height": 900})
    open_game(page, server.url, seed=21)
    snap = play_until(page, 21, lambda s: s["view"]["turn"] >= 10)
    page.wait_for_function(f"() => window.parlorMoves.moves().length === {snap['version']}")
    OUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUT / "movelist-live-1440.png"))
    page.click("#ml-prev")
    page.click("#ml-prev")
    page.click("#ml-prev")
    stepped(page, snap["version"] - 3)
    page.evaluate(SETTLED)
    page.screenshot(path=str(OUT / "movelist-back-1440.png"))
    assert page.evaluate("() => document.documentElement.scrollHeight - window.innerHeight") <= 0
    assert page.errors == []


def test_after_a_takeback_the_list_holds_the_line_kept(browser: Any, server: Server) -> None:
    page = page_of(browser, viewport={"width": 1440, "height": 900})
    snap = open_game(page, server.url, seed=13)
    gid = snap["id"]
    snap = play_until(page, 13, lambda s: s["view"]["turn"] >= 5 and s["takeback"])
    page.wait_for_function(f"() => window.parlorMoves.moves().length === {snap['version']}")
    before = page.evaluate("() => window.parlorMoves.moves()")
    page.keyboard.press("u")
    page.wait_for_function(f"() => window.parlor.snapshot().version < {snap['version']}")
    kept = page.evaluate("() => window.parlor.snapshot().version")
    page.wait_for_function(f"() => window.parlorMoves.moves().length === {kept}")
    assert page.evaluate("() => window.parlorMoves.moves()") == before[:kept]
    assert page.locator("#ml-list > li[role=option]").count() == kept + 1
    page.click("#ml-prev")
    assert_the_engines_view(server, page, gid, stepped(page, kept - 1))
    assert page.errors == []
