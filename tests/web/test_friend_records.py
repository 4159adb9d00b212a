"""A game between two people afterwards (issue 45): each player (either seat's token) and its
spectator (the spectator link's key) downloads the record, steps through the replay and asks
for and reads the post-game analysis, as the player of a game against the computer does;
while the game is live none of them opens any of it (each shows both Hands)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi.testclient import TestClient

from parlor.web.app import create_app

from .helpers import config_for
from .test_friend_offers import decide, post, read
from .test_friends import as_seat, seated_game

ITERATIONS = 8


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    """Small analyses (a few iterations a decision): the subject is who may read them."""
    with TestClient(create_app(config_for(db_url, analysis_iterations=ITERATIONS))) as c:
        yield c


def readers(c: TestClient, tokens: dict[int, str],
            watch: str) -> list[tuple[str, dict[str, str], dict[str, str]]]:
    """Each reader of a friend game: its name, its headers and its query (the client's
    cookies, the last seat's token, dropped: each reader sends only its own)."""
    c.cookies.clear()
    k = parse_qs(urlsplit(watch).query)["k"][0]
    return [("Rlr 1", as_seat(tokens[0]), {}), ("Rlr 2", as_seat(tokens[1]), {}),
            ("spectator", {}, {"k": k})]


def played_then_resigned(c: TestClient) -> tuple[str, dict[int, str], str]:
    """A friend game where each seat made decisions, then Rlr 2 resigned."""
    gid, tokens, watch = seated_game(c, seat=1, max_turns=6)
    for _ in range(4):
        actor = read(c, gid, tokens[0])["friend"]["to_decide"]
        decide(c, gid, tokens[actor])
    v = read(c, gid, tokens[1])["version"]
    r = post(c, gid, tokens[1], "resign", version=v)
    assert r.status_code == 200 and r.json()["status"] == "over", r.text
    return gid, tokens, watch


def wait_done(c: TestClient, gid: str, headers: dict[str, str],
              query: dict[str, str]) -> dict[str, Any]:
    end = time.monotonic() + 120
    while True:
        r = c.get(f"/api/games/{gid}/analysis", headers=headers, params=query)
        assert r.status_code == 200, r.text
        body: dict[str, Any] = r.json()
        if body["status"] in ("done", "failed"):
            return body
        assert time.monotonic() < end, "the analysis did not finish"
        time.sleep(0.1)


@pytest.mark.slow
def test_both_players_and_the_spectator_read_the_record_replay_and_analysis_afterwards(
        client: TestClient) -> None:
    gid, tokens, watch = played_then_resigned(client)
    who = readers(client, tokens, watch)
    records = set()
    for name, headers, query in who:
        r = client.get(f"/g/{gid}/record.txt", headers=headers, params=query)
        assert r.status_code == 200, (name, r.text)
        assert "attachment" in r.headers["content-disposition"]
        records.add(r.text)
        api = client.get(f"/api/games/{gid}/record", headers=headers, params=query)
        assert api.status_code == 200 and api.text == r.text, name
        page = client.get(f"/replay/{gid}", headers=headers, params=query)
        assert page.status_code == 200, (name, page.text)
        step = client.get(f"/api/replays/{gid}", headers=headers,
                          params={**query, "step": 3, "seat": 2})
        assert step.status_code == 200, (name, step.text)
        # the replay names its reader's seat "You": a player's own, a spectator's neither
        assert step.json()["you"] == {"Rlr 1": 0, "Rlr 2": 1, "spectator": None}[name]
        assert step.json()["step"] == 3 and step.json()["kind"] == "friend"
    assert len(records) == 1  # one game, one record, whoever downloads it
    # the spectator asks for the inviter's analysis, Rlr 2 for its own (migration 0014:
    # each seat has the analysis of its own decisions); Rlr 1 reads the one the spectator
    # asked for, as its own
    for name, headers, query in (who[2], who[1]):
        r = client.post(f"/api/games/{gid}/analysis", json={}, headers=headers, params=query)
        assert r.status_code == 202, (name, r.text)
    results = [wait_done(client, gid, h, q) for _, h, q in who]
    assert all(x["status"] == "done" and x["decisions"] for x in results), results
    assert results[0] == results[2] and results[0]["player"] == 0  # the inviter's seat
    assert results[1]["player"] == 1
    plies = [{d["ply"] for d in x["decisions"]} for x in results[:2]]
    assert not plies[0] & plies[1]  # each seat's own decisions, none of the other's
    for name, headers, query in who:
        page = client.get(f"/g/{gid}/analysis", headers=headers, params=query)
        assert page.status_code == 200, (name, page.text)
        section = page.text.split('id="analysis"', 1)[1].split("</section>", 1)[0]
        assert "computer" not in section.lower(), name  # a person sat across the table
        mine = name != "spectator"
        assert ("For each of your decisions" in page.text) == mine, name
        assert ("For each of Rlr 1’s decisions" in page.text) == (not mine), name


def test_a_live_friend_game_opens_no_record_replay_or_analysis_to_anyone(
        client: TestClient) -> None:
    gid, tokens, watch = seated_game(client, seat=1, max_turns=6)
    decide(client, gid, tokens[read(client, gid, tokens[0])["friend"]["to_decide"]])
    for name, headers, query in readers(client, tokens, watch):
        for path in (f"/g/{gid}/record.txt", f"/api/games/{gid}/record", f"/replay/{gid}",
                     f"/api/replays/{gid}", f"/g/{gid}/analysis",
                     f"/api/games/{gid}/analysis"):
            r = client.get(path, headers={**headers, "Accept": "application/json"},
                           params={**query, "seat": 1 + (name == "Rlr 1")})
            assert r.status_code == 409, (name, path, r.status_code, r.text)
            if path.startswith("/api/"):
                assert r.json()["error"] == "game_over", (name, path)
        r = client.post(f"/api/games/{gid}/analysis", json={}, headers=headers, params=query)
        assert r.status_code == 409 and r.json()["error"] == "game_over", (name, r.text)
    # no stored analysis came of those asks
    store = client.app.state.site.games.store  # type: ignore[attr-defined]
    assert store.analysis(gid, 0) is None and store.analysis(gid, 1) is None


def test_a_wrong_key_or_token_reads_nothing_of_a_finished_friend_game(
        client: TestClient) -> None:
    gid, tokens, _ = played_then_resigned(client)
    client.cookies.clear()
    for headers, query in (({}, {"k": "0" * 32}), ({}, {}), (as_seat("not-a-token"), {})):
        for path in (f"/api/games/{gid}/record", f"/api/replays/{gid}",
                     f"/api/games/{gid}/analysis"):
            r = client.get(path, headers=headers, params=query)
            assert r.status_code == 403 and r.json()["error"] == "forbidden", (path, r.text)
    # the second seat's token reads the record, and still cannot act through the API of a
    # game against the computer (it holds the second seat only)
    r = client.post(f"/api/games/{gid}/takeback", json={"version": 0},
                    headers=as_seat(tokens[1]))
    assert r.status_code in (403, 404), r.text


def test_a_friend_game_drawn_by_agreement_has_its_record_and_replay(
        client: TestClient) -> None:
    gid, tokens, watch = seated_game(client, seat=1, max_turns=6)
    decide(client, gid, tokens[read(client, gid, tokens[0])["friend"]["to_decide"]])
    v = read(client, gid, tokens[0])["version"]
    assert post(client, gid, tokens[0], "offer", offer="draw", version=v).status_code == 200
    assert post(client, gid, tokens[1], "answer", accept=True, version=v).status_code == 200
    for name, headers, query in readers(client, tokens, watch):
        r = client.get(f"/api/games/{gid}/record", headers=headers, params=query)
        assert r.status_code == 200 and r.text, (name, r.text)
        r = client.get(f"/api/replays/{gid}", headers=headers, params={**query, "step": 1})
        assert r.status_code == 200 and r.json()["steps"] >= 1, (name, r.text)
