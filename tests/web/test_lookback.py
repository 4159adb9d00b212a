"""Looking back during play (issue 41's move list), through the API: a casual game against
the computer shows its earlier positions to its player only, each the engine's view of the
record at that step for the player's seat, with nothing the player could not see then (no
computer's Hand, no seed, no record action); a match game refuses with a clear JSON error."""

from __future__ import annotations

import json
import random
from typing import Any

from fastapi.testclient import TestClient

from parlor.rules.engine import apply, new_game
from parlor.rules.state import Settings
from parlor.web.games import Games, seed_of, table_view, view_payload

from .helpers import new_game as start_game
from .helpers import wait_for_human
from .test_privacy import hidden_cards


def played(client: TestClient, decisions: int, **kw: Any) -> tuple[str, str, dict[str, Any]]:
    """A game against the computer after ``decisions`` of the player's (random ones)."""
    g = start_game(client, seed=kw.pop("seed", 5), max_turns=30, level="random", **kw)
    gid, token = g["id"], g["token"]
    rng = random.Random(41)
    snap = wait_for_human(client, gid, token)
    for _ in range(decisions):
        r = client.post(f"/api/games/{gid}/actions",
                        json={"action": rng.choice(snap["view"]["legal"]),
                              "version": snap["version"]})
        assert r.status_code == 200, r.text
        snap = wait_for_human(client, gid, token)
        if snap["status"] != "live":
            break
    return gid, token, snap


def test_a_casual_games_earlier_positions_are_the_engines_view_for_its_player(
        client: TestClient) -> None:
    gid, _, snap = played(client, 12)
    assert snap["status"] == "live"
    games: Games = client.app.state.games  # type: ignore[attr-defined]
    live = games.get(gid)
    s = new_game(seed_of(live.row), Settings.parse(live.row.settings))
    for step in range(snap["version"] + 1):
        r = client.get(f"/api/replays/{gid}", params={"step": step})
        assert r.status_code == 200, r.text
        past = r.json()
        assert past["step"] == step and past["steps"] == snap["version"]
        assert past["in_play"] is True and past["seat"] == 0
        assert json.loads(json.dumps(past["view"])) == json.loads(
            json.dumps(view_payload(table_view(s, 0))))
        # nothing the player did not see then: no seed, no record action, no hidden card
        assert not {"seed", "last", "next", "log"} & set(past)
        whole = json.dumps(past)
        assert not {c for c in hidden_cards(s, 1)
                    if f'"{c}"' in json.dumps(past["view"]["sides"][1]) or f'"2:{c}"' in whole}
        assert past["log_total"] == len(s.log or ())
        if step < snap["version"]:
            apply(s, live.actions[step])
    assert client.get(f"/api/games/{gid}").json()["version"] == snap["version"]  # unchanged


def test_during_play_only_the_players_own_seat_is_shown(client: TestClient) -> None:
    gid, _, _ = played(client, 4)
    r = client.get(f"/api/replays/{gid}", params={"step": 3, "seat": 2})
    assert r.status_code == 403
    body = r.json()
    assert body["error"] == "not_your_seat" and "own view" in body["message"]
    assert "view" not in body
    assert client.get(f"/api/replays/{gid}", params={"step": 3, "seat": 1}).status_code == 200
    stranger = TestClient(client.app)  # no cookie, no token
    assert stranger.get(f"/api/replays/{gid}", params={"step": 1}).status_code in (401, 403)
    assert stranger.get(f"/api/replays/{gid}/moves").status_code in (401, 403)


def test_the_move_list_tells_each_move_as_the_players_log_does(client: TestClient) -> None:
    gid, _, snap = played(client, 15, seed=9)
    games: Games = client.app.state.games  # type: ignore[attr-defined]
    live = games.get(gid)
    whole = client.get(f"/api/replays/{gid}/moves").json()
    assert whole["from"] == 0 and whole["steps"] == snap["version"] == len(whole["moves"])
    assert [m["step"] for m in whole["moves"]] == list(range(1, snap["version"] + 1))
    tail = client.get(f"/api/replays/{gid}/moves", params={"from": 7}).json()
    assert tail["moves"] == whole["moves"][7:]  # the page asks for the moves it lacks
    s = new_game(seed_of(live.row), Settings.parse(live.row.settings))
    for m, text in zip(whole["moves"], live.actions, strict=True):
        assert (m["turn"], m["by"], m["log"]) == (s.turn, s.actor, len(s.log or ()))
        hidden = hidden_cards(s, 1)
        apply(s, text)
        verb, *card = text.split()
        if m["by"] == 1 and verb in ("keep", "trim", "redraw") and card:
            # the computer's hidden decision: its card never named, in no form
            assert card[0] not in m["text"] and card[0] in hidden
            assert "computer" in m["text"].lower()
        assert m["text"] and not m["text"].startswith(("keep ", "trim ", "redraw "))
    mine = [m["text"] for m in whole["moves"] if m["by"] == 0]
    assert any(t.startswith("You ") for t in mine)


def test_a_match_game_refuses_to_look_back_during_play(client: TestClient) -> None:
    gid, _, snap = played(client, 3, mode="match")
    assert snap["status"] == "live"
    for path in (f"/api/replays/{gid}", f"/api/replays/{gid}/moves"):
        r = client.get(path, params={"step": 1} if path.endswith(gid) else {})
        assert r.status_code == 409, path
        body = r.json()
        assert body["error"] == "no_look_back" and "match game" in body["message"]
        assert "109" in body["message"]


def test_once_over_the_replay_shows_either_seat_as_before(client: TestClient) -> None:
    gid, _, snap = played(client, 3)
    r = client.post(f"/api/games/{gid}/actions",
                    json={"action": "resign", "version": snap["version"]})
    assert r.status_code == 200
    theirs = client.get(f"/api/replays/{gid}", params={"step": 2, "seat": 2}).json()
    assert theirs["seat"] == 1 and "seed" in theirs and "in_play" not in theirs
    hand = theirs["view"]["sides"][1]["hand"]
    assert hand is not None and all(isinstance(c, str) for c in hand)
    moves = client.get(f"/api/replays/{gid}/moves").json()
    assert moves["in_play"] is False and len(moves["moves"]) == moves["steps"]
