"""Post-game analysis over HTTP: started in the background, stored, deterministic for a record
and a seed, and clear 4xx answers for an unknown game, a game in progress and a record that
does not replay."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from parlor.ai.analysis import analyse
from parlor.store import GameRow
from parlor.web.app import create_app
from parlor.web.games import hash_token

from .helpers import config_for, new_game, play_out

ITERATIONS = 8


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    """On SQLite the server analyses in its own pool; on PostgreSQL a worker's job does."""
    with TestClient(create_app(config_for(db_url, analysis_iterations=ITERATIONS))) as c:
        yield c


def finished_game(c: TestClient) -> tuple[str, str]:
    g = new_game(c, level="random", seed=5, max_turns=8)
    play_out(c, g["id"], g["token"], seed=2)
    return g["id"], g["token"]


def wait_done(c: TestClient, gid: str, token: str) -> dict[str, Any]:
    end = time.monotonic() + 60
    while True:
        r = c.get(f"/api/games/{gid}/analysis", headers={"X-Parlor-Token": token})
        assert r.status_code == 200, r.text
        body: dict[str, Any] = r.json()
        if body["status"] in ("done", "failed"):
            return body
        assert time.monotonic() < end, "the analysis did not finish"
        time.sleep(0.1)


@pytest.mark.slow
def test_a_finished_game_is_analysed_in_the_background_and_stored(client: TestClient) -> None:
    gid, token = finished_game(client)
    page = client.get(f"/g/{gid}/analysis", headers={"X-Parlor-Token": token})
    assert page.status_code == 200 and "blunder</strong> from 20 points" in page.text
    r = client.post(f"/api/games/{gid}/analysis", json={"seed": 3},
                    headers={"X-Parlor-Token": token})
    assert r.status_code == 202 and r.json()["status"] in ("running", "done")
    body = wait_done(client, gid, token)
    assert body["status"] == "done" and body["total"] == len(body["decisions"]) > 0
    assert body["thresholds"] == {"blunder": 0.2, "mistake": 0.1, "inaccuracy": 0.05}
    d = body["decisions"][0]
    assert set(d) >= {"ply", "turn", "played", "best", "before", "after", "drop", "mark",
                      "alternatives", "estimated", "visits"}
    # the preferred decision's estimate; a decision the search ranked lower may still show a
    # higher estimate from fewer samples, which is no drop at all
    # a decision with no estimate (a split, a bonus) says so: no number, no mark (issue 41)
    estimated = [x for x in body["decisions"] if x["estimated"]]
    assert all(x["before"] is None and x["after"] is None and x["mark"] == ""
               for x in body["decisions"] if not x["estimated"])
    assert all(0.0 <= x["after"] <= 1.0 and 0.0 <= x["before"] <= 1.0 for x in estimated)
    assert all(x["drop"] == round(max(0.0, x["before"] - x["after"]), 4) for x in estimated)
    # deterministic: the same as the analysis of the record in this process
    record = client.get(f"/api/games/{gid}/record", headers={"X-Parlor-Token": token}).text
    here = analyse(record, player=0, seed=3, iterations=ITERATIONS)
    assert [x["after"] for x in body["decisions"]] == [x.after for x in here]
    assert [x["best"] for x in body["decisions"]] == [x.best for x in here]
    # stored: asking again does not start it again
    again = client.post(f"/api/games/{gid}/analysis", json={"seed": 3},
                        headers={"X-Parlor-Token": token})
    assert again.json()["status"] == "done"


def test_an_imported_record_can_be_analysed(client: TestClient) -> None:
    gid, token = finished_game(client)
    record = client.get(f"/api/games/{gid}/record", headers={"X-Parlor-Token": token}).text
    imp = client.post("/api/records", json={"record": record}).json()
    client.post(f"/api/games/{imp['id']}/analysis", json={},
                headers={"X-Parlor-Token": imp["token"]})
    assert wait_done(client, imp["id"], imp["token"])["status"] == "done"


def test_bad_inputs_get_a_clear_4xx(client: TestClient) -> None:
    assert client.get("/api/games/nope/analysis").status_code == 404
    assert client.post("/api/games/nope/analysis", json={}).status_code == 404
    g = new_game(client, level="random", seed=5)
    r = client.post(f"/api/games/{g['id']}/analysis", json={},
                    headers={"X-Parlor-Token": g["token"]})
    assert r.status_code == 409 and "still being played" in r.json()["message"]
    gid, token = finished_game(client)
    bad = client.post(f"/api/games/{gid}/analysis", json={"seed": "x"},
                      headers={"X-Parlor-Token": token})
    assert bad.status_code == 400
    # a stored record that does not replay
    games = client.app.state.games  # type: ignore[attr-defined]
    games.store.insert(GameRow("broken1", "replay", 0, "-", 1, "max_turns=200", 0.0,
                               version=1, status="over"), hash_token("tok"), ["play KS"])
    r = client.post("/api/games/broken1/analysis", json={}, headers={"X-Parlor-Token": "tok"})
    assert r.status_code == 422 and "does not replay" in r.json()["message"]


def test_an_analysis_of_a_line_taken_back_is_not_the_games(client: TestClient) -> None:
    """R30: a finished casual game may be taken back; its analysis was of the line taken
    back, so the game shows none until it is asked again."""
    gid, token = finished_game(client)
    auth = {"X-Parlor-Token": token}
    client.post(f"/api/games/{gid}/analysis", json={"seed": 1}, headers=auth)
    assert wait_done(client, gid, token)["status"] == "done"
    version = client.get(f"/api/games/{gid}", headers=auth).json()["version"]
    r = client.post(f"/api/games/{gid}/takeback", json={"version": version}, headers=auth)
    assert r.status_code == 200, r.text
    play_out(client, gid, token, seed=4)
    assert client.get(f"/api/games/{gid}/analysis", headers=auth).json()["status"] == "none"
