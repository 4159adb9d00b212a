"""A whole game between two people on the deployment (issue 45, "What must hold"): one
PostgreSQL (tests/pgserver.py), a Redis for the wake-ups between servers
(``PARLOR_REDIS_URL``, as in test_chaos.py's deployment) and two ``parlor serve`` processes.
The inviter plays in Chromium on server A, the friend in another browser context on server B,
a spectator in a third context on B; the game is played to its end, each decision made by
the player whose turn it is, and each move reaches the other table by its long poll (through
Redis: the other server's). Every reply each context received (``page.on("response")``: the
pages, the actions' replies, the long polls) is checked against the game's state at that
version, replayed after the game from the stored record, for the hidden cards: none of the
other seat's Hand or Draw pile, none of the reader's own Draw pile, and for the spectator
neither seat's.

The deal is dealt from a fresh key (R31: neither person may know it before the game), so the
seeded part is the players' choices (``random.Random(45)``); the hidden cards are known to the
test from the server-side record read after the game."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from parlor.rules.engine import apply, new_game
from parlor.rules.state import Settings, State, card_text
from parlor.store import GameStore
from parlor.web.games import seed_of

from ..redisserver import RedisServer
from .test_friends_e2e import recorder, seen_by
from .test_privacy import hidden_cards
from .ui import CHROMIUM, Server, act_through_ui, choose, snapshot, wait_for_decision

pytestmark = pytest.mark.slow  # Debian's chromium, PostgreSQL, Redis, two server processes

if not Path(CHROMIUM).exists():  # `make test` installs it; a bare pytest run may not have it
    pytest.skip(f"{CHROMIUM} is not installed (make test installs it)", allow_module_level=True)
pytest.importorskip("playwright.sync_api")

#: A bound on the decisions of a short game (20 turns: about 50 to 90 with these choices),
#: for a game that would not end.
MOST_DECISIONS = 400
Replies = list[tuple[str, dict[str, Any]]]


@pytest.fixture
def two_servers(pg_url: str, redis_server: RedisServer) -> Iterator[list[Server]]:
    """Two ``parlor serve`` on one PostgreSQL, their wake-ups on one Redis."""
    servers = [Server(pg_url, env={"PARLOR_REDIS_URL": redis_server.url}) for _ in range(2)]
    try:
        for server in servers:
            server.start()
        yield servers
    finally:
        for server in servers:
            server.stop()


def by_the_page(page: Any, action: str) -> None:
    """Make ``action`` on ``page``: the table's own controls for a button or a click on one's
    own card (keep, trim, play a card on nothing, pass, end, done), the page's own
    ``window.parlor.send`` for the rest (attacks, blocks, Enhs on a target, abilities), which
    posts the decision as the controls do and shows the reply."""
    w = action.split()
    if w[0] in ("pass", "done", "end", "keep", "trim") or (w[0] == "play" and len(w) == 2):
        act_through_ui(page, action)
    else:
        page.evaluate("a => window.parlor.send(a)", action)


def states_at(db: str, gid: str, versions: set[int]) -> dict[int, State]:
    """The game at each of ``versions``, replayed from the stored record."""
    stored = GameStore(db).load(gid)
    assert stored is not None
    out: dict[int, State] = {}
    for v in versions:
        s = new_game(seed_of(stored.row), Settings.parse(stored.row.settings))
        for text in stored.actions[:v]:
            apply(s, text)
        out[v] = s
    return out


def assert_nothing_hidden(db: str, gid: str, replies: Replies, seat: int | None) -> int:
    """No reply to ``seat`` (None: the spectator) holds a card its reader may not know: the
    other seat's Hand, Draw pile, drawn and face-down Recycle cards (by name on that side, or
    by the table reference ``2:5H`` anywhere), nor the reader's own Draw pile."""
    replies = [(url, r) for url, r in replies if "view" in r]  # not a preview's {"final"}
    states = states_at(db, gid, {r["version"] for _, r in replies})
    for url, reply in replies:
        s = states[reply["version"]]
        whole = json.dumps(reply)
        for q in (0, 1):
            side = json.dumps(reply["view"]["sides"][q])
            if q == seat:
                own_draw = {card_text(c) for c in s.draw[q]}
                leaked = {c for c in own_draw if f'"{c}"' in side}
            else:
                assert reply["view"]["sides"][q]["hand"] is None, url
                leaked = {c for c in hidden_cards(s, q)
                          if f'"{c}"' in side or f'"{q + 1}:{c}"' in whole}
            assert not leaked, (url, seat, q, reply["version"], leaked)
    return len(replies)


def test_a_whole_game_between_two_browsers_on_two_servers_leaks_no_hidden_card(
        browser: Any, two_servers: list[Server], pg_url: str) -> None:
    a, b = two_servers
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(3)]
    try:
        pages = [ctx.new_page() for ctx in contexts]
        replies: list[Replies] = [[], [], []]
        errors: list[str] = []
        for page, into in zip(pages, replies, strict=True):
            recorder(page, into)
            page.on("pageerror", lambda e: errors.append(str(e)))
        host, guest, watcher = pages

        # the invitation on server A, taken on server B (the link's path, B's address)
        host.goto(a.url + "/")
        host.select_option("#friend-seat", "1")
        host.select_option("#friend-turns", "20")
        host.click("#invite")
        host.wait_for_url("**/f/*")
        gid = host.url.split("/f/", 1)[1].split("#", 1)[0]
        link = host.input_value("#invite-link")
        guest.goto(b.url + "/i/" + link.rsplit("/i/", 1)[1])
        guest.click("#take-seat")
        guest.wait_for_url(f"**/f/{gid}")
        # server A's table hears of the friend sitting down on server B
        host.wait_for_function("() => window.parlor.snapshot().friend.seated")
        watcher.goto(b.url + host.get_attribute("#watch", "href"))

        seats = {0: host, 1: guest}
        rng = random.Random(45)
        decisions = 0
        while snapshot(host)["status"] == "live":
            assert decisions < MOST_DECISIONS, "the game did not end"
            actor = snapshot(host)["friend"]["to_decide"]
            me, other = seats[actor], seats[1 - actor]
            mine = wait_for_decision(me)
            if mine["status"] != "live":
                break
            legal = [x for x in mine["view"]["legal"] if not x.startswith("resign")]
            by_the_page(me, choose(legal, rng))
            me.wait_for_function(f"() => window.parlor.snapshot().version > {mine['version']}")
            moved = snapshot(me)["version"]
            # the other table and the spectator's (the other server, for one of them) see it
            other.wait_for_function(f"() => window.parlor.snapshot().version >= {moved}")
            seen_by(watcher, replies[2], moved)
            decisions += 1

        last = snapshot(host)["version"]
        for page in (host, guest):
            page.wait_for_function(f"() => window.parlor.snapshot().version >= {last} && "
                                   "window.parlor.snapshot().status !== 'live'")
        seen_by(watcher, replies[2], last)
        assert snapshot(guest)["status"] == snapshot(host)["status"] != "live"
        assert decisions > 20
        assert not errors, errors
    finally:
        for ctx in contexts:
            ctx.close()

    # each context talked to its own server only, and heard the other's moves by long polls
    for into, server in zip(replies, (a, b, b), strict=True):
        assert all(url.startswith(server.url + "/") for url, _ in into)
        assert any("after=" in url for url, _ in into)
    checked = sum(assert_nothing_hidden(pg_url, gid, replies[p], p) for p in (0, 1))
    checked += assert_nothing_hidden(pg_url, gid, replies[2], None)
    assert checked > 3 * decisions
