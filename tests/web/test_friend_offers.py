"""What one player offers the other in a game between two people (issue 45): a draw and, in
casual play only, a takeback, each accepted or declined by the other; and a rematch with the
seats swapped, a new game both players open with their token of the last one."""

from __future__ import annotations

import threading
from typing import Any

from fastapi.testclient import TestClient

from parlor.rules.state import Settings
from parlor.web.games import Games

from .helpers import until
from .test_friends import as_seat, seated_game


def read(client: TestClient, gid: str, token: str, **params: Any) -> dict[str, Any]:
    r = client.get(f"/api/friends/{gid}", headers=as_seat(token), params=params)
    assert r.status_code == 200, r.text
    snap: dict[str, Any] = r.json()
    return snap


def post(client: TestClient, gid: str, token: str, path: str, **body: Any) -> Any:
    return client.post(f"/api/friends/{gid}/{path}", headers=as_seat(token), json=body)


def decide(client: TestClient, gid: str, token: str) -> dict[str, Any]:
    snap = read(client, gid, token)
    r = post(client, gid, token, "actions", action=snap["view"]["legal"][0],
             version=snap["version"])
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def test_a_draw_offered_is_declined_then_accepted_and_ends_the_game_drawn(
        client: TestClient) -> None:
    gid, tokens, watch = seated_game(client, seat=1)
    v = read(client, gid, tokens[0])["version"]
    r = post(client, gid, tokens[0], "offer", offer="draw", version=v)
    assert r.status_code == 200, r.text
    assert r.json()["friend"]["offer"]["words"] == "You offered a draw: waiting for the answer."
    theirs = read(client, gid, tokens[1])["friend"]["offer"]
    assert theirs == {"what": "draw", "by": 0, "yours": False, "declined": False,
                      "words": "Rlr 1 offers a draw."}
    # the offerer cannot accept its own offer; the other declines it
    r = post(client, gid, tokens[0], "answer", accept=True, version=v)
    assert r.status_code == 409 and r.json()["error"] == "no_offer"
    r = post(client, gid, tokens[1], "answer", accept=False, version=v)
    assert r.status_code == 200, r.text
    assert read(client, gid, tokens[0])["friend"]["offer"]["words"] == \
        "You offered a draw: Rlr 2 declined."
    r = post(client, gid, tokens[1], "answer", accept=True, version=v)  # answered already
    assert r.status_code == 409 and r.json()["error"] == "no_offer"
    # offered again (by the other this time) and accepted: no winner, no more decisions
    assert post(client, gid, tokens[1], "offer", offer="draw", version=v).status_code == 200
    r = post(client, gid, tokens[0], "answer", accept=True, version=v)
    assert r.status_code == 200, r.text
    for p in (0, 1):
        seen = read(client, gid, tokens[p])
        assert seen["status"] == "drawn" and not seen["your_turn"]
        assert seen["result_text"] == ("Drawn by agreement: Rlr 2 offered a draw and Rlr 1 "
                                       "accepted.")
        assert seen["friend"]["to_decide"] is None and seen["friend"]["can_offer"] == []
    actor_snap = read(client, gid, tokens[0])
    r = post(client, gid, tokens[0], "actions", action="pass", version=actor_snap["version"])
    assert r.status_code == 409 and r.json()["error"] == "game_over"
    # the spectator reads the same end: the draw, and by whom (the rules' result is none)
    spectator = client.get("/api/watch/" + watch.split("/watch/", 1)[1]).json()
    assert spectator["status"] == "drawn"
    assert spectator["result_text"] == seen["result_text"]
    page = client.get(watch)
    assert page.status_code == 200 and seen["result_text"] in page.text  # its snapshot


def test_an_offer_lapses_when_the_game_moves_on(client: TestClient) -> None:
    gid, tokens, _ = seated_game(client, seat=1)
    snap = read(client, gid, tokens[0])
    a = snap["friend"]["to_decide"]
    assert post(client, gid, tokens[1 - a], "offer", offer="draw",
                version=snap["version"]).status_code == 200
    moved = decide(client, gid, tokens[a])  # the player to decide plays on instead
    assert moved["friend"]["offer"] is None
    r = post(client, gid, tokens[a], "answer", accept=True, version=moved["version"])
    assert r.status_code == 409 and r.json()["error"] == "no_offer"
    r = post(client, gid, tokens[a], "answer", accept=True, version=snap["version"])
    assert r.status_code == 409 and r.json()["error"] == "stale"


def test_a_takeback_in_casual_play_only_when_the_other_accepts(client: TestClient) -> None:
    games: Games = client.app.state.games  # type: ignore[attr-defined]
    gid, tokens, _ = seated_game(client, seat=1)
    snap = read(client, gid, tokens[0])
    a = snap["friend"]["to_decide"]
    assert "takeback" not in read(client, gid, tokens[a])["friend"]["can_offer"]
    r = post(client, gid, tokens[a], "offer", offer="takeback", version=snap["version"])
    assert r.status_code == 409 and "no decision yet" in r.json()["message"]
    before = games.get(gid).actions[:]
    after = decide(client, gid, tokens[a])
    assert "takeback" in after["friend"]["can_offer"]
    # declined: nothing is taken back
    assert post(client, gid, tokens[a], "offer", offer="takeback",
                version=after["version"]).status_code == 200
    assert read(client, gid, tokens[1 - a])["friend"]["offer"]["words"] == \
        f"Rlr {a + 1} asks to take back their last decision."
    assert post(client, gid, tokens[1 - a], "answer", accept=False,
                version=after["version"]).status_code == 200
    assert len(games.get(gid).actions) == after["version"]
    # asked again and accepted: the record is as before the decision, the asker decides
    assert post(client, gid, tokens[a], "offer", offer="takeback",
                version=after["version"]).status_code == 200
    r = post(client, gid, tokens[1 - a], "answer", accept=True, version=after["version"])
    assert r.status_code == 200, r.text
    back = read(client, gid, tokens[a])
    assert back["version"] == len(before) and back["takebacks"] == 1 and back["your_turn"]
    assert games.get(gid).actions == before


def test_no_takeback_in_a_match_game(client: TestClient) -> None:
    gid, tokens, _ = seated_game(client, seat=1, mode="match")
    a = read(client, gid, tokens[0])["friend"]["to_decide"]
    after = decide(client, gid, tokens[a])
    assert after["friend"]["can_offer"] == ["draw"]
    r = post(client, gid, tokens[a], "offer", offer="takeback", version=after["version"])
    assert r.status_code == 409 and "match game" in r.json()["message"]


def test_a_rematch_swaps_the_seats_and_both_open_it(client: TestClient) -> None:
    gid, tokens, _ = seated_game(client, seat=1, clock="300+3", mode="match")
    v = read(client, gid, tokens[0])["version"]
    r = post(client, gid, tokens[0], "rematch")
    assert r.status_code == 409 and r.json()["error"] == "not_over"
    assert post(client, gid, tokens[0], "resign", version=v).status_code == 200
    r = post(client, gid, tokens[1], "rematch")  # the winner asks
    assert r.status_code == 200, r.text
    mine = r.json()
    assert mine["seat"] == 1 and mine["token"]  # Rlr 2 before, Rlr 1 now
    new = mine["id"]
    assert read(client, gid, tokens[0])["friend"]["rematch"] == {"id": new,
                                                                 "url": f"/f/{new}"}
    r = post(client, gid, tokens[0], "rematch")  # the other joins it
    assert r.status_code == 200, r.text
    theirs = r.json()
    assert theirs["id"] == new and theirs["seat"] == 2 and theirs["token"]
    for token, seat in ((mine["token"], 0), (theirs["token"], 1)):
        snap = read(client, new, token)
        assert snap["you"] == seat and snap["friend"]["seated"]
        assert snap["friend"]["clock"]["words"] == "5 min + 3 s"
        assert Settings.parse(snap["settings"]).match_play
    # asking again gives the same game, and no second token
    again = post(client, gid, tokens[1], "rematch").json()
    assert again["id"] == new and again["token"] is None
    again = post(client, gid, tokens[0], "rematch").json()
    assert again["id"] == new and again["token"] is None


def test_the_other_players_waiting_table_hears_an_offer(client: TestClient) -> None:
    gid, tokens, _ = seated_game(client, seat=1)
    snap = read(client, gid, tokens[1])
    got: dict[str, Any] = {}

    def wait() -> None:
        got.update(read(client, gid, tokens[1], after=snap["version"], wait=20,
                        news=snap["friend"]["news"]))

    poll = threading.Thread(target=wait)
    conductor = client.app.state.conductor  # type: ignore[attr-defined]
    poll.start()
    until(lambda: gid in conductor._events)  # the poll has read, and waits
    assert post(client, gid, tokens[0], "offer", offer="draw",
                version=snap["version"]).status_code == 200
    poll.join()
    assert got["friend"]["offer"]["what"] == "draw" and got["version"] == snap["version"]
    # a table that has not heard of the offer yet is told at once
    fresh = read(client, gid, tokens[1], after=snap["version"], wait=20, news="0")
    assert fresh["friend"]["offer"] is not None
