"""Casual and match play (109, 1306, R30): in casual play the human takes back the last
decision and the computer's reply, as often as they like, and the record keeps only the line
actually played; in match play the server refuses any takeback and the Discards are closed."""

from __future__ import annotations

from fastapi.testclient import TestClient

from parlor.rules.notation import replay

from .helpers import new_game, wait_for_human


def act(c: TestClient, gid: str, token: str, snap: dict, action: str) -> dict:
    r = c.post(f"/api/games/{gid}/actions", json={"action": action, "version": snap["version"]},
               headers={"X-Parlor-Token": token})
    assert r.status_code == 200, r.text
    return wait_for_human(c, gid, token)


def takeback(c: TestClient, gid: str, token: str, version: int) -> tuple[int, dict]:
    r = c.post(f"/api/games/{gid}/takeback", json={"version": version},
               headers={"X-Parlor-Token": token})
    return r.status_code, r.json()


def test_a_casual_game_takes_back_the_last_decision_and_the_reply(client: TestClient) -> None:
    g = new_game(client, level="random", seed=3, max_turns=30)
    gid, token = g["id"], g["token"]
    first = wait_for_human(client, gid, token)
    assert first["takeback"] is (first["version"] > 0)
    second = act(client, gid, token, first, first["view"]["legal"][0])
    third = act(client, gid, token, second, second["view"]["legal"][-1])
    assert third["takeback"]
    status, back = takeback(client, gid, token, third["version"])
    assert status == 200, back
    assert back["version"] == second["version"] and back["your_turn"]
    assert back["view"] == second["view"]  # the same table as before that decision
    status, back2 = takeback(client, gid, token, back["version"])  # as often as you like
    assert status == 200 and back2["view"] == first["view"]
    client.app.state.games.forget(gid)  # type: ignore[attr-defined]  # the store agrees
    assert wait_for_human(client, gid, token)["view"] == first["view"]
    # the record holds only the line actually played, and replays
    other = act(client, gid, token, back2, back2["view"]["legal"][-1])
    assert other["version"] >= back2["version"] + 1
    client.post(f"/api/games/{gid}/actions", json={"action": "resign", "version":
                                                    other["version"]},
                headers={"X-Parlor-Token": token})
    text = client.get(f"/api/games/{gid}/record", headers={"X-Parlor-Token": token}).text
    assert replay(text).is_over


def test_a_stale_or_early_takeback_is_refused(client: TestClient) -> None:
    g = new_game(client, level="random", seed=3, max_turns=30)
    gid, token = g["id"], g["token"]
    snap = wait_for_human(client, gid, token)
    status, body = takeback(client, gid, token, snap["version"] + 5)
    assert status == 409 and body["error"] == "stale"
    if snap["version"] == 0:
        status, body = takeback(client, gid, token, 0)
        assert status == 409 and "nothing to take back" in body["message"]


def test_a_match_game_offers_no_takeback_and_the_api_refuses_one(client: TestClient) -> None:
    g = new_game(client, level="random", seed=3, max_turns=30, mode="match")
    gid, token = g["id"], g["token"]
    first = wait_for_human(client, gid, token)
    second = act(client, gid, token, first, first["view"]["legal"][0])
    assert second["takeback"] is False
    assert "match_play" in second["settings"]
    assert all(side["discard"] is None for side in second["view"]["sides"])  # closed (109)
    status, body = takeback(client, gid, token, second["version"])
    assert status == 409 and body["error"] == "no_takeback"
    assert "match game" in body["message"] and "(1306" in body["message"]


def test_a_casual_game_has_open_discards_and_an_unknown_mode_is_refused(
        client: TestClient) -> None:
    g = new_game(client, level="random", seed=3)
    snap = wait_for_human(client, g["id"], g["token"])
    assert all(side["discard"] is not None for side in snap["view"]["sides"])
    r = client.post("/api/games", json={"level": "random", "mode": "blitz"})
    assert r.status_code == 400 and "casual or match" in r.json()["message"]


def test_a_click_on_a_line_taken_back_is_refused_at_the_same_version(
        client: TestClient) -> None:
    """R30: a takeback lowers the version and a new decision raises it again; a client that
    sends the takebacks its table showed is refused on the other line (a second tab)."""
    g = new_game(client, level="random", seed=2, max_turns=20)  # Rlr 1 decides twice first
    gid, token = g["id"], g["token"]
    first = wait_for_human(client, gid, token)
    assert first["takebacks"] == 0
    old = act(client, gid, token, first, first["view"]["legal"][0])
    status, back = takeback(client, gid, token, old["version"])
    assert status == 200 and back["takebacks"] == 1
    new = act(client, gid, token, back, back["view"]["legal"][1])
    assert new["version"] == old["version"] and new["takebacks"] == 1
    stale = {"action": new["view"]["legal"][0], "version": old["version"],
             "takebacks": old["takebacks"]}
    r = client.post(f"/api/games/{gid}/actions", json=stale, headers={"X-Parlor-Token": token})
    assert r.status_code == 409 and r.json()["error"] == "stale"
    r = client.post(f"/api/games/{gid}/actions", json={**stale, "takebacks": 1},
                    headers={"X-Parlor-Token": token})
    assert r.status_code == 200, r.text
