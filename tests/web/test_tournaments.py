"""Tournaments in the browser's API (rules 1300): creation and its refusals, the person's
contest on the usual table, computer contests watched with public information only, ransom
questions, the report, and a restart in the middle of a tournament."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from parlor.rules.tournament import Ransom, TournamentSettings, new_tournament, report
from parlor.web.app import create_app

from .helpers import config_for, play_out

Snap = dict[str, Any]


def create(c: TestClient, **kw: Any) -> Snap:
    body: Snap = {"teams": [{"name": "A", "players": ["human", "random"]},
                            {"name": "B", "players": ["random", "random"]}],
                  "rounds": 1, "max_turns": 8, "seed": 7}
    body.update(kw)
    r = c.post("/api/tournaments", json=body)
    assert r.status_code == 201, r.text
    made: Snap = r.json()
    return made


def state(c: TestClient, tid: str) -> Snap:
    r = c.get(f"/api/tournaments/{tid}")
    assert r.status_code == 200, r.text
    snap: Snap = r.json()
    return snap


def wait_until(c: TestClient, tid: str, ok: Callable[[Snap], bool],
               timeout: float = 60.0) -> Snap:
    end = time.monotonic() + timeout
    while True:
        snap = state(c, tid)
        assert snap["failure"] is None, snap["failure"]
        if ok(snap):
            return snap
        assert time.monotonic() < end, f"timed out: {snap['log'][-3:]}"
        time.sleep(0.1)


def my_table(snap: Snap) -> Snap:
    (mine,) = [t for t in snap["tables"] if t["yours"]]
    return mine


def game_of(c: TestClient, tid: str, table: int) -> str:
    r = c.get(f"/t/{tid}/play/{table}", follow_redirects=False)
    assert r.status_code == 303, r.text
    gid = r.headers["location"].removeprefix("/g/")
    return gid


@pytest.mark.parametrize(("change", "why"), [
    ({"teams": [{"name": "A", "players": ["random", "random"]}]}, "at least two teams"),
    ({"teams": [{"name": "A", "players": ["random"]}, {"name": "B", "players": []}]},
     "team B has no players"),
    ({"teams": [{"name": "A", "players": ["wizard"]}, {"name": "B", "players": ["random"]}]},
     "unknown level 'wizard'"),
    ({"teams": [{"name": "A", "players": ["random"] * 8},
                {"name": "B", "players": ["random"] * 8},
                {"name": "C", "players": ["random"]}]}, "at most 16 players"),
    ({"teams": [{"name": "A", "players": ["human"]}, {"name": "B", "players": ["human"]}]},
     "one team only"),
    ({"teams": [{"name": "A", "players": ["random"]}, {"name": "A", "players": ["random"]}]},
     "given twice"),
    ({"rounds": 500}, "rounds must be between 1 and 20"),
    ({"rounds": 2, "minutes": 30}, "either a number of rounds or a time limit"),
    ({"rounds": None}, "either a number of rounds or a time limit"),
    ({"talents": 0}, "talents must be between"),
    ({"teams": "A:random B:random"}, "at least two teams"),
])
def test_the_api_refuses_bad_tournaments(client: TestClient, change: Snap, why: str) -> None:
    body: Snap = {"teams": [{"name": "A", "players": ["random"]},
                            {"name": "B", "players": ["random"]}], "rounds": 1}
    body.update(change)
    r = client.post("/api/tournaments", json=body)
    assert r.status_code == 400, r.text
    assert why in r.json()["message"]


def test_a_tournament_belongs_to_its_browser(client: TestClient, db_url: str) -> None:
    made = create(client)
    with TestClient(create_app(config_for(db_url))) as other:
        assert other.get(f"/api/tournaments/{made['id']}").status_code == 403
    assert client.get("/api/tournaments/nope").status_code == 404


def test_the_person_plays_its_contest_and_the_standings_follow(client: TestClient) -> None:
    made = create(client)
    tid = made["id"]
    snap = wait_until(client, tid, lambda s: bool(s["tables"]))
    assert snap["round"] == 1 and len(snap["tables"]) == 2
    mine = my_table(snap)
    assert mine["url"] == f"/t/{tid}/play/{mine['table']}"
    gid = game_of(client, tid, mine["table"])
    page = client.get(f"/g/{gid}")
    assert page.status_code == 200 and f'href="/t/{tid}"' in page.text
    # the computers' contest: public information only
    (theirs,) = [t for t in snap["tables"] if not t["yours"]]
    seen = client.get(f"/api/tournaments/{tid}/tables/{theirs['table']}").json()
    assert [side["hand"] for side in seen["view"]["sides"]] == [None, None]
    assert seen["view"]["drawn"] is None and seen["view"]["legal"] == []
    # (two computers at 8 turns may finish before this look: the key shows only once over)
    assert "legal" not in seen and ("seed" in seen) == (seen["status"] == "over")
    assert client.get(f"/t/{tid}/watch/{theirs['table']}").status_code == 200
    # nor can the tournament's token open a player's view of it, or its replay, while it runs
    lt = client.app.state.tournaments.get(tid)  # type: ignore[attr-defined]
    match = lt.games[theirs["table"]]
    token = {"X-Parlor-Token": made["token"]}
    assert client.get(f"/api/games/{match}", headers=token).status_code == 403
    assert client.get(f"/api/replays/{match}", headers=token).status_code == 403
    # play the person's contest to its end (random legal moves, 8 turns at most)
    end = play_out(client, gid, made["token"])
    assert end["status"] == "over"
    snap = wait_until(client, tid, lambda s: s["status"] == "over")
    assert len(snap["results"]) == 2 and not snap["tables"]
    assert sum(p["talents"] for p in snap["standings"]) == 16
    replay = client.get(f"/t/{tid}/games/{match}")  # once over: its replay, hands and all
    assert replay.status_code == 200 and replay.url.path == f"/replay/{match}"
    got = client.get(f"/api/tournaments/{tid}/report")
    assert got.status_code == 200
    rep = got.json()
    # the same JSON as `parlor tournament --json`
    t = new_tournament([("A", ["A1", "A2"]), ("B", ["B1", "B2"])],
                       TournamentSettings(rounds=1), 7)
    assert set(rep) == set(report(t, ["x"] * 4))
    assert [p["level"] for p in rep["players"]] == ["human", "random", "random", "random"]
    assert rep["rounds_played"] == 1 and len(rep["games"]) == 2


def test_the_report_waits_for_the_end(client: TestClient) -> None:
    made = create(client)
    r = client.get(f"/api/tournaments/{made['id']}/report")
    assert r.status_code == 409


def test_a_ransom_is_asked_paid_or_declined(client: TestClient) -> None:
    made = create(client, rounds=3)
    tid = made["id"]
    wait_until(client, tid, lambda s: bool(s["tables"]))
    tours = client.app.state.tournaments  # type: ignore[attr-defined]
    lt = tours.get(tid)
    r = Ransom(prisoner=1, holder=2, amount=3, round=1)  # A2 owes B1 3
    with lt.lock:  # as if the round had ended that way (the rules tests play it out)
        lt.t = replace(lt.t, ransoms=(r,), asked=(r,))
    snap = state(client, tid)
    (q,) = snap["asked"]
    assert (q["prisoner"], q["holder"], q["amount"]) == ("A2", "B1", 3)
    assert {m["player"] for m in q["team"]} == {"A1", "A2"}  # the prisoner may pay (R32)
    url = f"/api/tournaments/{tid}/ransom"
    bad = client.post(url, json={"ransom": 0, "pay": True,
                                 "payers": [{"player": "A1", "talents": 4}]})
    assert bad.status_code == 400 and "1309" in bad.json()["message"]
    bad = client.post(url, json={"ransom": 0, "pay": True,
                                 "payers": [{"player": "B2", "talents": 3}]})
    assert bad.status_code == 400 and "only players of team A" in bad.json()["message"]
    assert client.post(url, json={"ransom": 0, "pay": "maybe"}).status_code == 400
    ok = client.post(url, json={"ransom": 0, "pay": True,
                                "payers": [{"player": "A1", "talents": 1},
                                           {"player": "A2", "talents": 2}]})
    assert ok.status_code == 200, ok.text
    snap = ok.json()
    assert not snap["asked"] and not snap["ransoms"]
    talents = {p["name"]: p["talents"] for p in snap["standings"]}
    assert (talents["A1"], talents["A2"], talents["B1"]) == (3, 2, 7)
    # declined: the ransom stands
    with lt.lock:
        lt.t = replace(lt.t, ransoms=(r,), asked=(r,))
    snap = client.post(url, json={"ransom": 0, "pay": False}).json()
    assert not snap["asked"] and snap["ransoms"]
    # (the computers' contest may end meanwhile and add its own lines)
    assert any("Team A declines to pay the ransom of A2" in line for line in snap["log"])
    assert client.post(url, json={"ransom": 0, "pay": False}).status_code == 409


@pytest.mark.slow
def test_a_restart_in_the_middle_loses_nothing(db_url: str) -> None:
    with TestClient(create_app(config_for(db_url))) as c:
        made = create(c, rounds=2)
        tid = made["id"]
        # the computers' contest ends; the person's waits for the person
        before = wait_until(c, tid, lambda s: s["tables"] and all(
            t["done"] for t in s["tables"] if not t["yours"]))
        gid = game_of(c, tid, my_table(before)["table"])
    with TestClient(create_app(config_for(db_url))) as c:
        c.cookies.set(f"pmt_{tid}", made["token"])
        after = state(c, tid)
        for key in ("version", "round", "tables", "standings", "results", "log", "asked"):
            assert after[key] == before[key], key
        play_out(c, gid, made["token"])
        snap = wait_until(c, tid, lambda s: s["round"] == 2 and bool(s["tables"]))
        assert len(snap["results"]) == 2


def test_a_declined_ransom_means_single_card_draws_on_the_usual_table(
        client: TestClient) -> None:
    made = create(client, rounds=2)
    tid = made["id"]
    snap = wait_until(client, tid, lambda s: bool(s["tables"]))
    lt = client.app.state.tournaments.get(tid)  # type: ignore[attr-defined]
    r = Ransom(prisoner=0, holder=2, amount=2, round=1)  # the person, A1, owes B1 2
    with lt.lock:  # as if A1 had lost at 6 life (the rules tests play that out)
        lt.t = replace(lt.t, ransoms=(r,))
    gid = game_of(client, tid, my_table(snap)["table"])
    play_out(client, gid, made["token"])
    snap = wait_until(client, tid, lambda s: bool(s["asked"]))
    assert snap["asked"][0]["offer"]  # what the team would pay by itself, offered first
    client.post(f"/api/tournaments/{tid}/ransom", json={"ransom": 0, "pay": False})
    snap = wait_until(client, tid, lambda s: s["round"] == 2 and bool(s["tables"]))
    mine = my_table(snap)
    seat = mine["players"].index("A1")
    assert mine["single_draw"][seat] and not mine["single_draw"][1 - seat]
    held = {p["name"]: p for p in snap["standings"]}["A1"]
    assert held["held"] and held["ransom_owed"] == 2
    page = client.get(f"/g/{game_of(client, tid, mine['table'])}")
    assert "You are held for a ransom and draw single cards" in page.text


def test_a_tournament_by_time(client: TestClient) -> None:
    made = create(client, rounds=None, minutes=30)
    snap = state(client, made["id"])
    assert (snap["rounds"], snap["minutes"]) == (None, 30)
    assert "a time limit of 30 min (1301, 1302, 1312)" in snap["log"][0]
    page = client.get("/tournaments")
    assert page.status_code == 200 and f'href="/t/{made["id"]}"' in page.text


def test_a_failing_computer_stops_the_tournament_and_says_so(client: TestClient) -> None:
    made = create(client)
    tid = made["id"]
    snap = wait_until(client, tid, lambda s: bool(s["tables"]))
    gid = game_of(client, tid, my_table(snap)["table"])
    live = client.app.state.games.get(gid)  # type: ignore[attr-defined]
    with live.lock:  # as Games.computer_failed leaves it (tests/web/test_computer.py):
        # stored (other servers' caches follow the store) and in this server's cache
        client.app.state.games.store.mark(  # type: ignore[attr-defined]
            gid, live.row.version, status="failed", result="The broken computer failed: a bug.")
        live.row = replace(live.row, status="failed",
                           result="The broken computer failed: a bug.")
    end = time.monotonic() + 30
    while (snap := state(client, tid))["failure"] is None:
        assert time.monotonic() < end
        time.sleep(0.1)
    assert "The broken computer failed: a bug." in snap["failure"]
    assert snap["status"] == "live" and len(snap["results"]) < 2  # nothing was settled for it
