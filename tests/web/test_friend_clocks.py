"""Clocks of a game between two people (issue 45, docs/rules.md 1313): Fischer clocks kept by
the server. The server's wall clock is replaced by a controlled one (``Games.now``: the time
every action is stored with, which the clocks are read from), so no test sleeps to spend
time: it moves the clock."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from parlor.web.app import create_app
from parlor.web.games import Games, watch_key

from .helpers import config_for, until
from .test_friends import accept, as_seat, invite


class Clock:
    """The server's wall clock, moved by the test."""

    def __init__(self, t: float = 1_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def clocked_game(client: TestClient, clock: str = "60+5") -> tuple[str, dict[int, str], Clock]:
    """A seated friend game with ``clock``, on a controlled wall clock (the acceptance at
    its start)."""
    games: Games = client.app.state.games  # type: ignore[attr-defined]
    now = Clock()
    games.now = now
    inv = invite(client, seat=1, clock=clock)
    got = accept(client, inv)
    return inv["id"], {inv["seat"] - 1: inv["token"], got["seat"] - 1: got["token"]}, now


def read(client: TestClient, gid: str, token: str, **params: Any) -> dict[str, Any]:
    r = client.get(f"/api/friends/{gid}", headers=as_seat(token), params=params)
    assert r.status_code == 200, r.text
    snap: dict[str, Any] = r.json()
    return snap


def decide(client: TestClient, gid: str, token: str, **extra: Any) -> Any:
    snap = read(client, gid, token)
    return client.post(f"/api/friends/{gid}/actions", headers=as_seat(token),
                       json={"action": snap["view"]["legal"][0], "version": snap["version"],
                             **extra})


def test_a_decision_is_charged_its_time_and_credited_the_increment(
        client: TestClient) -> None:
    gid, tokens, now = clocked_game(client, "60+5")
    first = read(client, gid, tokens[0])
    clock = first["friend"]["clock"]
    assert clock["words"] == "1 min + 5 s" and clock["left"] == [60.0, 60.0]
    a = first["friend"]["to_decide"]
    assert clock["running"] == a
    now.t += 10
    assert read(client, gid, tokens[1 - a])["friend"]["clock"]["left"][a] == 50.0  # running
    r = decide(client, gid, tokens[a])
    assert r.status_code == 200, r.text
    clock = r.json()["friend"]["clock"]
    b = r.json()["friend"]["to_decide"]
    if b == a:  # the same seat decides again (the phase asks it twice): one more decision
        now.t += 1
        r = decide(client, gid, tokens[a])
        clock, b = r.json()["friend"]["clock"], r.json()["friend"]["to_decide"]
        assert clock["left"][a] == 60 - 10 + 5 - 1 + 5
    else:
        assert clock["left"][a] == 60 - 10 + 5  # 10 s taken, 5 s added
    mine = clock["left"][a]
    assert b == 1 - a and clock["running"] == b and clock["left"][b] == 60.0
    now.t += 20
    r = decide(client, gid, tokens[b])
    assert r.status_code == 200, r.text
    clock = r.json()["friend"]["clock"]
    assert clock["left"][b] == 60 - 20 + 5 and clock["left"][a] == mine


def test_a_flag_ends_the_game_as_a_concession_the_other_wins(client: TestClient) -> None:
    """1313: the running clock at zero is the flagged seat's resignation (1204); the other
    player's read is enough to end it."""
    games: Games = client.app.state.games  # type: ignore[attr-defined]
    gid, tokens, now = clocked_game(client, "30+0")
    a = read(client, gid, tokens[0])["friend"]["to_decide"]
    now.t += 29.5
    assert read(client, gid, tokens[1 - a])["status"] == "live"
    now.t += 0.5
    seen = read(client, gid, tokens[1 - a])
    assert seen["status"] == "over"
    assert seen["friend"]["clock"]["flagged"] == a and seen["friend"]["clock"]["running"] is None
    assert seen["result_text"] == (f"Rlr {a + 1}'s clock ran out: Rlr {2 - a} wins (a flag "
                                   "is a concession, rule 1313).")
    assert seen["friend"]["activity"] == seen["result_text"]
    live = games.get(gid)
    assert live.state.winner == 1 - a and live.actions[-1] == f"resign {a + 1}"
    # the flagged player sees the same, and can no longer decide
    theirs = read(client, gid, tokens[a])
    assert theirs["status"] == "over" and theirs["friend"]["clock"]["flagged"] == a
    r = client.post(f"/api/friends/{gid}/actions", headers=as_seat(tokens[a]),
                    json={"action": "pass", "version": theirs["version"]})
    assert r.status_code == 409 and r.json()["error"] == "game_over"


def test_a_decision_sent_after_the_flag_is_too_late(client: TestClient) -> None:
    """The server's clock wins: a page that still showed time sends its decision after the
    server's clock ran out; the game ends on time and the decision is not applied."""
    games: Games = client.app.state.games  # type: ignore[attr-defined]
    gid, tokens, now = clocked_game(client, "30+5")
    snap = read(client, gid, tokens[0])
    a = snap["friend"]["to_decide"]
    mine = read(client, gid, tokens[a])  # the page, with 30 s on its clock
    now.t += 31
    r = client.post(f"/api/friends/{gid}/actions", headers=as_seat(tokens[a]),
                    json={"action": mine["view"]["legal"][0], "version": mine["version"]})
    assert r.status_code == 409, r.text
    assert r.json()["error"] == "game_over" and "clock ran out" in r.json()["message"]
    live = games.get(gid)
    assert live.actions == [f"resign {a + 1}"] and live.state.winner == 1 - a


def test_the_browser_cannot_set_the_clock(client: TestClient) -> None:
    """No request carries a time the server uses: what a page sends beside its decision
    (a clock of its own, a time) changes nothing, and there is no route to set one."""
    gid, tokens, now = clocked_game(client, "60+5")
    a = read(client, gid, tokens[0])["friend"]["to_decide"]
    now.t += 10
    r = decide(client, gid, tokens[a], clock={"left": [3600, 0]}, left=[3600, 0],
               at=0, elapsed=0, time=0)
    assert r.status_code == 200, r.text
    assert r.json()["friend"]["clock"]["left"][a] == 55.0  # the server's 10 s, not the page's
    for path in ("clock", "time"):
        for method in (client.post, client.put):
            r = method(f"/api/friends/{gid}/{path}", headers=as_seat(tokens[a]),
                       json={"left": [3600, 3600], "version": 0})
            assert r.status_code in (404, 405), r.text
    r = client.post("/api/friends", json={"clock": "60+5", "left": [0, 0]})
    assert r.status_code == 201 and "left" not in r.json()


def test_a_clock_runs_out_with_nobody_reading(client: TestClient) -> None:
    """Each web server sweeps the clocked games every second (SWEEP_SECONDS): the game ends
    on time with both players gone. Nothing reads it through the friends' routes here: the
    store itself is watched."""
    games: Games = client.app.state.games  # type: ignore[attr-defined]
    gid, tokens, now = clocked_game(client, "20+0")
    read(client, gid, tokens[0])
    now.t += 21
    until(lambda: (h := games.store.head(gid)) is not None and h.status == "over")
    assert games.store.load(gid).actions[-1].startswith("resign ")  # type: ignore[union-attr]


def test_a_game_without_a_clock_has_none_and_no_flag(client: TestClient) -> None:
    games: Games = client.app.state.games  # type: ignore[attr-defined]
    now = Clock()
    games.now = now
    inv = invite(client, seat=1)
    accept(client, inv)
    snap = read(client, inv["id"], inv["token"])
    assert snap["friend"]["clock"] is None
    now.t += 10 * 86400
    assert read(client, inv["id"], inv["token"])["status"] == "live"


def test_a_clock_out_of_range_is_refused(client: TestClient) -> None:
    for bad in ("5+0", "300", "300+601", "x+1", "99999+0"):
        r = client.post("/api/friends", json={"clock": bad})
        assert r.status_code == 400 and r.json()["error"] == "bad_action", (bad, r.text)


@pytest.mark.slow
def test_two_servers_agree_on_the_clocks_and_flag_once(pg_url: str) -> None:
    """Two server processes' apps on one PostgreSQL, each with its sweep running and the
    same controlled clock: the clocks one server reads are the other's (they come from the
    stored record), and a flag, whoever sees it first (either server's read or sweep), is
    stored once."""
    now = Clock()
    with TestClient(create_app(config_for(pg_url))) as a, \
            TestClient(create_app(config_for(pg_url))) as b:
        for app in (a, b):
            app.app.state.games.now = now  # type: ignore[attr-defined]
        inv = invite(a, seat=1, clock="30+2")
        got = accept(b, inv)
        gid, tokens = inv["id"], {0: inv["token"], 1: got["token"]}
        actor = read(a, gid, tokens[0])["friend"]["to_decide"]
        now.t += 10
        r = decide(a if actor == 0 else b, gid, tokens[actor])
        assert r.status_code == 200, r.text
        for c, p in ((a, 0), (b, 1), (a, 1), (b, 0)):
            clock = read(c, gid, tokens[p])["friend"]["clock"]
            assert clock["left"][actor] == 30 - 10 + 2, (c, p, clock)
        nxt = read(b, gid, tokens[1])["friend"]["to_decide"]
        now.t += 40  # whoever decides now has run out
        seen = [read(c, gid, tokens[p]) for c, p in ((b, 0), (a, 1))]
        assert all(s["status"] == "over" and s["friend"]["clock"]["flagged"] == nxt
                   for s in seen), seen
        stored = a.app.state.games.store.load(gid)  # type: ignore[attr-defined]
        assert [x for x in stored.actions if x.startswith("resign")] == [f"resign {nxt + 1}"]


def test_a_spectators_read_ends_the_game_on_time_too(client: TestClient) -> None:
    gid, tokens, now = clocked_game(client, "20+0")
    a = read(client, gid, tokens[0])["friend"]["to_decide"]
    games: Games = client.app.state.games  # type: ignore[attr-defined]
    key = games.get(gid).token_hash
    now.t += 21
    seen = TestClient(client.app).get(f"/api/watch/{gid}", params={"k": watch_key(key)}).json()
    assert seen["status"] == "over"
    assert games.get(gid).actions[-1] == f"resign {a + 1}"


def test_the_invitation_says_the_clock_before_the_seat_is_taken(client: TestClient) -> None:
    for clock, words in (("300+3", "each player has <strong id=\"invite-clock\">5 min + 3 s"
                                   "</strong> on the clock"),
                         ("90+0", "<strong id=\"invite-clock\">1 min 30 s + 0 s</strong>"),
                         (None, "without a clock")):
        inv = invite(client, seat=1, **({} if clock is None else {"clock": clock}))
        client.cookies.clear()  # the friend's browser: no token of this game
        page = client.get(inv["invitation_url"])
        assert page.status_code == 200 and words in page.text, (clock, page.text)
