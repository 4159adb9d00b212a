"""Games between two people (issue 45): an invitation seats the first person to open it, each
seat acts with its own token only, nobody (and no computer) acts for a seat, and every reply
to each seat and to a spectator holds its own view only: never the other seat's hidden
cards."""

from __future__ import annotations

import json
import random
import re
import threading
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from parlor.rules.view import view
from parlor.web.app import create_app
from parlor.web.friends import INVITE_SECONDS, Friends
from parlor.web.games import Games, view_payload

from .helpers import config_for, form_post, until
from .test_privacy import hidden_cards


def invite(c: TestClient, **body: Any) -> dict[str, Any]:
    r = c.post("/api/friends", json={"max_turns": 6, **body})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def accept(c: TestClient, inv: dict[str, Any]) -> dict[str, Any]:
    other = TestClient(c.app)  # the friend's own browser
    r = other.post(f"/api/invitations/{inv['invitation_url'].rsplit('/', 1)[1]}", json={})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def seated_game(c: TestClient, **body: Any) -> tuple[str, dict[int, str], str]:
    """A friend game with both seats taken: its id, each seat's token, the spectator link."""
    inv = invite(c, **body)
    got = accept(c, inv)
    assert got["spectator"] is False and got["seat"] == 3 - inv["seat"]
    tokens = {inv["seat"] - 1: inv["token"], got["seat"] - 1: got["token"]}
    return inv["id"], tokens, inv["watch_url"]


def as_seat(token: str) -> dict[str, str]:
    return {"X-Parlor-Token": token}


def check_private(games: Games, gid: str, reply: dict[str, Any], seat: int | None) -> bool:
    """``reply`` (to ``seat``; None: a spectator) is that reader's view and holds none of
    the other seat's hidden cards. False when the game moved on before it was compared."""
    live = games.get(gid)
    with live.lock:
        if live.row.version != reply["version"]:
            return False
        s = live.state
        whole = json.dumps(reply)
        others = (0, 1) if seat is None else (1 - seat,)
        for q in others:
            hidden = hidden_cards(s, q)
            side = json.dumps(reply["view"]["sides"][q])
            leaked = {c for c in hidden if f'"{c}"' in side or f'"{q + 1}:{c}"' in whole}
            assert not leaked, (seat, q, leaked)
            assert reply["view"]["sides"][q]["hand"] is None
        if seat is not None:
            assert reply["view"] == json.loads(json.dumps(view_payload(view(s, seat))))
            events = s.log or []
            start = reply["log"][0]["n"] if reply["log"] else len(events)
            assert [e["notation"] for e in reply["log"]] == \
                [e.text_for(seat) for e in events[start:]]
        else:
            assert reply["view"]["legal"] == [] and reply["view"]["drawn"] is None
    return True


def test_two_people_play_each_with_their_own_token_and_see_their_own_view_only(
        client: TestClient) -> None:
    games: Games = client.app.state.games  # type: ignore[attr-defined]
    gid, tokens, watch = seated_game(client, seat="random")
    spectator = TestClient(client.app)
    rng = random.Random(45)
    checked = moves = 0
    while True:
        snaps = {p: client.get(f"/api/friends/{gid}", headers=as_seat(tokens[p])).json()
                 for p in (0, 1)}
        w = spectator.get("/api/watch/" + watch.split("/watch/", 1)[1]).json()
        checked += sum(check_private(games, gid, snaps[p], p) for p in (0, 1))
        checked += check_private(games, gid, w, None)
        if snaps[0]["status"] != "live":
            break
        actor = snaps[0]["friend"]["to_decide"]
        assert snaps[actor]["your_turn"] and not snaps[1 - actor]["your_turn"]
        assert not snaps[0]["thinking"] and not snaps[1]["thinking"]
        assert snaps[1 - actor]["friend"]["activity"].startswith(f"Rlr {actor + 1} is ")
        assert snaps[actor]["friend"]["activity"].startswith("Your decision")
        before = snaps[1 - actor]["version"]
        r = client.post(f"/api/friends/{gid}/actions", headers=as_seat(tokens[actor]),
                        json={"action": rng.choice(snaps[actor]["view"]["legal"]),
                              "version": snaps[actor]["version"]})
        assert r.status_code == 200, r.text
        checked += check_private(games, gid, r.json(), actor)
        moves += 1
        # the other seat's long poll sees the play
        seen = client.get(f"/api/friends/{gid}", params={"after": before, "wait": 5},
                          headers=as_seat(tokens[1 - actor])).json()
        assert seen["version"] > before
        checked += check_private(games, gid, seen, 1 - actor)
        assert moves < 3000
    assert snaps[0]["status"] == "over" and snaps[1]["status"] == "over"
    assert moves > 10 and checked > 4 * moves


def test_a_token_acts_for_its_own_seat_only_and_a_spectator_link_not_at_all(
        client: TestClient) -> None:
    gid, tokens, watch = seated_game(client, seat=1)
    snap = client.get(f"/api/friends/{gid}", headers=as_seat(tokens[0])).json()
    actor = snap["friend"]["to_decide"]
    mine = client.get(f"/api/friends/{gid}", headers=as_seat(tokens[actor])).json()
    action = mine["view"]["legal"][0]
    body = {"action": action, "version": snap["version"]}
    # the other seat's token: refused, saying whose decision it is
    r = client.post(f"/api/friends/{gid}/actions", headers=as_seat(tokens[1 - actor]),
                    json=body)
    assert r.status_code == 409, r.text
    assert r.json()["error"] == "not_your_turn"
    assert f"Rlr {actor + 1}'s decision" in r.json()["message"]
    # nor can it resign for the other seat
    r = client.post(f"/api/friends/{gid}/actions", headers=as_seat(tokens[1 - actor]),
                    json={"action": f"resign {actor + 1}", "version": snap["version"]})
    assert r.status_code == 403 and r.json()["error"] == "not_your_seat", r.text
    # a spectator (its link's key, no token, a made-up token) cannot act
    stranger = TestClient(client.app)
    key = watch.split("k=", 1)[1]
    for headers, params in (({}, {}), ({}, {"k": key}), (as_seat(key), {}),
                            (as_seat("made-up"), {})):
        r = stranger.post(f"/api/friends/{gid}/actions", headers=headers, params=params,
                          json=body)
        assert r.status_code == 403, r.text
        assert r.json()["error"] == "forbidden"
        assert "token holds no seat" in r.json()["message"]
        assert stranger.get(f"/api/friends/{gid}", headers=headers,
                            params=params).status_code == 403
        # nor resign, abort, claim, offer, answer, preview or ask for a rematch
        for path, extra in (("resign", {}), ("abort", {}), ("claim", {}),
                            ("offer", {"offer": "draw"}), ("answer", {"accept": True}),
                            ("preview", {"action": action}), ("rematch", {})):
            r = stranger.post(f"/api/friends/{gid}/{path}", headers=headers, params=params,
                              json={"version": snap["version"], **extra})
            assert r.status_code == 403 and r.json()["error"] == "forbidden", (path, r.text)
    # the game against the computer's routes do not seat the second player either
    r = client.post(f"/api/games/{gid}/actions", headers=as_seat(tokens[1 - snap["you"]]),
                    json=body)
    assert r.status_code == 403
    # nothing was played by any of them
    after = client.get(f"/api/friends/{gid}", headers=as_seat(tokens[actor])).json()
    assert after["version"] == snap["version"]
    r = client.post(f"/api/friends/{gid}/actions", headers=as_seat(tokens[actor]), json=body)
    assert r.status_code == 200, r.text


def test_the_computer_never_moves_for_a_seat_nor_advises_one(client: TestClient) -> None:
    games: Games = client.app.state.games  # type: ignore[attr-defined]
    gid, tokens, _ = seated_game(client, seat=2)
    live = games.get(gid)
    assert games.computer_job(live) is None
    snap = client.get(f"/api/friends/{gid}", headers=as_seat(tokens[0]))
    version = snap.json()["version"]
    waited = client.get(f"/api/friends/{gid}", params={"after": version, "wait": 1},
                        headers=as_seat(tokens[0])).json()
    assert waited["version"] == version and not waited["thinking"]
    host = tokens[live.human]
    r = client.get(f"/api/games/{gid}/hint", headers=as_seat(host))
    assert r.status_code == 400 and "no hints" in r.json()["message"], r.text
    for token in tokens.values():  # the friend table's Hint button
        r = client.get(f"/api/friends/{gid}/hint", headers=as_seat(token))
        assert r.status_code == 400 and "no hints" in r.json()["message"], r.text


def test_an_invitation_seats_its_first_opener_and_shows_the_next_the_spectators_view(
        client: TestClient) -> None:
    inv = invite(client, seat=1, mode="match")
    code = inv["invitation_url"].rsplit("/", 1)[1]
    # nobody across the table yet: the inviter waits, and cannot play
    snap = client.get(f"/api/friends/{inv['id']}", headers=as_seat(inv["token"])).json()
    assert not snap["friend"]["seated"] and not snap["your_turn"]
    assert snap["friend"]["invitation_until"] == inv["invitation_until"]
    r = client.post(f"/api/friends/{inv['id']}/actions", headers=as_seat(inv["token"]),
                    json={"action": "pass", "version": snap["version"]})
    assert r.status_code == 409 and r.json()["error"] == "waiting_for_friend", r.text
    first = accept(client, inv)
    assert first["seat"] == 2 and first["token"]
    late = TestClient(client.app).post(f"/api/invitations/{code}", json={})
    assert late.status_code == 200 and late.json()["spectator"] is True
    assert late.json()["watch_url"] == inv["watch_url"] and "token" not in late.json()
    # the page: a link preview's GET takes nothing; a player is sent to the table
    page = TestClient(client.app).get(f"/i/{code}", follow_redirects=False)
    assert page.status_code == 303 and page.headers["location"].startswith("/watch/")
    mine = client.get(f"/i/{code}", follow_redirects=False)
    assert mine.headers["location"] == f"/f/{inv['id']}"
    assert TestClient(client.app).post("/api/invitations/nosuchcode", json={}).status_code \
        == 404


def test_an_unaccepted_invitation_runs_out(client: TestClient) -> None:
    invite(client)  # the app's Friends is made on first use
    friends: Friends = client.app.state.friends  # type: ignore[attr-defined]
    old = friends.invite(seat=0, match_play=False, now=time.time() - INVITE_SECONDS - 5)
    r = TestClient(client.app).post(f"/api/invitations/{old.code}", json={})
    assert r.status_code == 410, r.text
    assert r.json()["error"] == "invitation_expired" and "24 hours" in r.json()["message"]
    page = TestClient(client.app).get(f"/i/{old.code}")
    assert page.status_code == 410 and "ran out" in page.text


def test_a_player_resigns_and_the_other_wins(client: TestClient) -> None:
    gid, tokens, _ = seated_game(client, seat=1)
    snap = client.get(f"/api/friends/{gid}", headers=as_seat(tokens[1])).json()
    # resigning is anyone's at any time, even while the other decides
    r = client.post(f"/api/friends/{gid}/resign", headers=as_seat(tokens[1]),
                    json={"version": snap["version"]})
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "over"
    other = client.get(f"/api/friends/{gid}", headers=as_seat(tokens[0])).json()
    assert other["status"] == "over" and other["seed"] is not None
    assert "resign" in " ".join(e["notation"] for e in other["log"])
    r = client.post(f"/api/friends/{gid}/abort", headers=as_seat(tokens[0]),
                    json={"version": other["version"]})
    assert r.status_code == 409 and r.json()["error"] == "game_over"


def test_abort_before_both_have_decided_ends_without_a_result(client: TestClient) -> None:
    gid, tokens, watch = seated_game(client, seat=1)
    snap = client.get(f"/api/friends/{gid}", headers=as_seat(tokens[0])).json()
    assert snap["friend"]["can_abort"]
    actor = snap["friend"]["to_decide"]
    mine = client.get(f"/api/friends/{gid}", headers=as_seat(tokens[actor])).json()
    r = client.post(f"/api/friends/{gid}/actions", headers=as_seat(tokens[actor]),
                    json={"action": mine["view"]["legal"][0], "version": mine["version"]})
    assert r.status_code == 200
    # one decision made: either may still abort
    r = client.post(f"/api/friends/{gid}/abort", headers=as_seat(tokens[1 - actor]),
                    json={"version": r.json()["version"]})
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "aborted" and "no result" in r.json()["result_text"]
    for p in (0, 1):
        seen = client.get(f"/api/friends/{gid}", headers=as_seat(tokens[p])).json()
        assert seen["status"] == "aborted" and not seen["your_turn"]
        assert seen["friend"]["to_decide"] is None and not seen["friend"]["can_abort"]
    r = client.post(f"/api/friends/{gid}/actions", headers=as_seat(tokens[1 - actor]),
                    json={"action": "pass", "version": seen["version"]})
    assert r.status_code == 409 and r.json()["error"] == "game_over"
    spectator = TestClient(client.app).get("/api/watch/" + watch.split("/watch/", 1)[1])
    assert spectator.json()["status"] == "aborted"


def test_no_abort_once_both_have_decided(client: TestClient) -> None:
    gid, tokens, _ = seated_game(client, seat=1)
    deciders = set()
    while len(deciders) < 2:
        snap = client.get(f"/api/friends/{gid}", headers=as_seat(tokens[0])).json()
        actor = snap["friend"]["to_decide"]
        mine = client.get(f"/api/friends/{gid}", headers=as_seat(tokens[actor])).json()
        r = client.post(f"/api/friends/{gid}/actions", headers=as_seat(tokens[actor]),
                        json={"action": mine["view"]["legal"][0], "version": mine["version"]})
        assert r.status_code == 200
        deciders.add(actor)
    assert not r.json()["friend"]["can_abort"]
    r = client.post(f"/api/friends/{gid}/abort", headers=as_seat(tokens[0]),
                    json={"version": r.json()["version"]})
    assert r.status_code == 409 and r.json()["error"] == "no_abort", r.text
    assert "resign instead" in r.json()["message"]


@pytest.mark.slow
def test_the_inviter_waiting_on_one_server_hears_the_friend_sit_down_on_another(
        pg_url: str) -> None:
    """Two server processes' apps on one PostgreSQL: the acceptance is announced as a change
    of the game (NOTIFY, as a move is), so the inviter's long poll on the other server ends
    with it."""
    import psycopg

    from parlor.store import CHANNEL, libpq_url

    with TestClient(create_app(config_for(pg_url))) as a, \
            TestClient(create_app(config_for(pg_url))) as b, \
            psycopg.connect(libpq_url(pg_url), autocommit=True) as listener:
        listener.execute(f"LISTEN {CHANNEL}")
        inv = invite(a, seat=1)
        gid = inv["id"]
        first = a.get(f"/api/friends/{gid}", headers=as_seat(inv["token"])).json()
        assert not first["friend"]["seated"]
        got: dict[str, Any] = {}

        def wait() -> None:
            got.update(a.get(f"/api/friends/{gid}", headers=as_seat(inv["token"]),
                             params={"after": first["version"], "wait": 30}).json())

        poll = threading.Thread(target=wait)
        poll.start()
        conductor = a.app.state.conductor  # type: ignore[attr-defined]
        until(lambda: gid in conductor._events)  # the poll has read, and waits
        accept(b, inv)
        # the announcement every server listens to (a generous bound for a missing one)
        heard = [n.payload for n in listener.notifies(timeout=20, stop_after=1)]
        poll.join()  # before any assertion: the app cannot stop with the poll in flight
        assert heard == [f"{gid} seated"]
        assert got["friend"]["seated"] and got["friend"]["to_decide"] in (0, 1)


def test_the_words_name_the_other_player_rlr_n_never_the_computer(client: TestClient) -> None:
    """The log, the result and the coach are written with the other player's name (a
    parameter of the words: parlor.present.prose.Words), not "the computer" replaced."""
    gid, tokens, _ = seated_game(client, seat=1)
    rng = random.Random(7)
    texts: dict[int, list[str]] = {0: [], 1: []}
    for _ in range(40):
        snaps = {p: client.get(f"/api/friends/{gid}", headers=as_seat(tokens[p])).json()
                 for p in (0, 1)}
        for p in (0, 1):
            texts[p] += [e["text"] for e in snaps[p]["log"]]
            texts[p] += list(snaps[p]["coach"].values())
        if snaps[0]["status"] != "live":
            break
        actor = snaps[0]["friend"]["to_decide"]
        r = client.post(f"/api/friends/{gid}/actions", headers=as_seat(tokens[actor]),
                        json={"action": rng.choice(snaps[actor]["view"]["legal"]),
                              "version": snaps[actor]["version"]})
        assert r.status_code == 200, r.text
    v = client.get(f"/api/friends/{gid}", headers=as_seat(tokens[1])).json()["version"]
    client.post(f"/api/friends/{gid}/resign", headers=as_seat(tokens[1]), json={"version": v})
    for p in (0, 1):
        over = client.get(f"/api/friends/{gid}", headers=as_seat(tokens[p])).json()
        texts[p] += [e["text"] for e in over["log"]] + [over["result_text"]]
        whole = " ".join(texts[p])
        assert "computer" not in whole.lower(), p
        assert f"Rlr {2 - p}" in whole, p


def test_continue_elsewhere_gives_another_browser_its_own_seat_once(
        client: TestClient) -> None:
    gid, tokens, watch = seated_game(client, seat=1)
    for seat in (0, 1):
        client.cookies.clear()
        r = form_post(client, f"/f/{gid}/handover", {}, headers=as_seat(tokens[seat]))
        assert r.status_code == 200 and r.headers["cache-control"] == "no-store", r.text
        link = re.search(r'/h/([\w-]+)"', r.text)
        assert link is not None, r.text
        device = TestClient(client.app)  # another device: no token of this game
        r = device.get(f"/h/{link.group(1)}", follow_redirects=True)
        assert r.status_code == 200 and r.url.path == f"/f/{gid}", r.url
        assert device.get(f"/api/friends/{gid}").json()["you"] == seat  # its own seat
        assert TestClient(client.app).get(f"/h/{link.group(1)}").status_code == 403  # once
    # a spectator's link (or no token) makes none
    stranger = TestClient(client.app)
    for params in ({"k": watch.split("k=", 1)[1]}, {}):
        r = form_post(stranger, f"/f/{gid}/handover", {}, params=params)
        assert r.status_code == 403, r.text
