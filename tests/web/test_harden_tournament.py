"""Issue 13, the deal of a tournament in the browser, written as the attack (R31, 1307): a
person who sees the first cards of the contest dealt to him searches the tournament seeds for
the one that deals them, and so learns every other contest's hidden hands.

A tournament the server deals comes from a 128-bit key, each contest from a key of its own
derived from it: no search finds it, and no reply carries a key before its end. A seed the
organiser types makes a practice tournament (its title says so): that one the search finds.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from parlor.rules.engine import new_game
from parlor.rules.seeds import DealKey, derive_key
from parlor.rules.tournament import pair_round
from parlor.rules.view import view
from parlor.web.tournaments import LiveTournament

Snap = dict[str, Any]
TEAMS = [{"name": "A", "players": ["human", "random"]},
         {"name": "B", "players": ["random", "random"]}]
SEARCH = 2048  # tournament seeds the attacker tries (the old server's were below 2**31)


class Recorder:
    """Every reply body the person's browser gets, to be searched for keys afterwards."""

    def __init__(self, c: TestClient) -> None:
        self.c = c
        self.seen: list[str] = []

    def get(self, path: str, **kw: Any) -> Any:
        r = self.c.get(path, **kw)
        self.seen.append(r.text)
        return r

    def post(self, path: str, **kw: Any) -> Any:
        r = self.c.post(path, **kw)
        self.seen.append(r.text)
        return r

    def wait(self, tid: str, ok: Callable[[Snap], bool], timeout: float = 60.0) -> Snap:
        end = time.monotonic() + timeout
        while True:
            snap: Snap = self.get(f"/api/tournaments/{tid}").json()
            assert snap["failure"] is None, snap["failure"]
            if ok(snap):
                return snap
            assert time.monotonic() < end, f"timed out: {snap['log'][-3:]}"
            time.sleep(0.1)


def first_view(rec: Recorder, tid: str, table: int, token: str) -> tuple[str, int, list[str]]:
    """The person's contest: its id, the person's seat and the seven cards dealt to him."""
    r = rec.get(f"/t/{tid}/play/{table}", follow_redirects=False)
    gid = r.headers["location"].removeprefix("/g/")
    rec.get(f"/g/{gid}")
    snap = rec.get(f"/api/games/{gid}", headers={"X-Parlor-Token": token}).json()
    me = snap["you"]
    return gid, me, list(snap["view"]["sides"][me]["hand"])


def search(lt: LiveTournament, table: int, me: int, hand: list[str]) -> list[int]:
    """The attack: the tournament seeds below SEARCH whose first round deals ``hand`` to the
    person at ``table`` (the teams and settings are the organiser's own)."""
    found = []
    for candidate in range(SEARCH):
        rnd = pair_round(replace(lt.spec, seed=candidate).start())
        p = next(p for p in rnd.pairings if p.table == table)
        s = new_game(p.seed, p.game_settings(lt.t.settings))
        if list(view(s, me).sides[me].hand or ()) == hand:
            found.append(candidate)
    return found


@pytest.mark.slow
def test_r31_a_practice_tournament_is_found_from_one_contests_first_view(
        client: TestClient) -> None:
    """The attack works on a typed seed (as it did on the old 31-bit server seeds), which is
    why such a tournament is marked as practice."""
    rec = Recorder(client)
    made = rec.post("/api/tournaments", json={"teams": TEAMS, "rounds": 1, "max_turns": 8,
                                              "seed": 1234}).json()
    tid, token = made["id"], made["token"]
    snap = rec.wait(tid, lambda s: bool(s["tables"]))
    assert snap["practice"] is True and "practice, seed 1234" in snap["title"]
    mine = next(t for t in snap["tables"] if t["yours"])
    _gid, me, hand = first_view(rec, tid, mine["table"], token)
    lt = client.app.state.tournaments.get(tid)  # type: ignore[attr-defined]
    assert search(lt, mine["table"], me, hand) == [1234]
    # ... and with it the other contest's hidden hands
    rnd = pair_round(replace(lt.spec, seed=1234).start())
    theirs = next(p for p in rnd.pairings if p.table != mine["table"])
    predicted = new_game(theirs.seed, theirs.game_settings(lt.t.settings))
    real = client.app.state.games.get(lt.games[theirs.table])  # type: ignore[attr-defined]
    assert real.row.seed == theirs.seed  # the server dealt exactly the predicted hands:
    assert new_game(real.row.seed, predicted.settings).hand == predicted.hand


@pytest.mark.slow
def test_r31_a_served_tournament_is_not_pinned_by_one_contests_view_nor_shown_before_its_end(
        client: TestClient) -> None:
    rec = Recorder(client)
    made = rec.post("/api/tournaments", json={"teams": TEAMS, "rounds": 1,
                                              "max_turns": 8}).json()
    tid, token = made["id"], made["token"]
    rec.get(f"/t/{tid}")
    rec.get("/tournaments")
    snap = rec.wait(tid, lambda s: bool(s["tables"]))
    assert snap["practice"] is False and snap["seed"] is None
    assert "practice" not in snap["title"].lower()
    mine = next(t for t in snap["tables"] if t["yours"])
    gid, me, hand = first_view(rec, tid, mine["table"], token)
    watched = []  # the computers' contest as a spectator sees it: its key only once over
    for t in snap["tables"]:
        if not t["yours"]:
            html = client.get(f"/t/{tid}/watch/{t['table']}").text
            seen = client.get(f"/api/tournaments/{tid}/tables/{t['table']}").json()
            watched.append((t["table"], seen["status"], seen.get("seed"), html))
    lt = client.app.state.tournaments.get(tid)  # type: ignore[attr-defined]
    key = lt.spec.seed
    assert isinstance(key, DealKey) and len(key.key) >= 16
    # the search finds nothing: no number deals this contest
    assert search(lt, mine["table"], me, hand) == []
    # every contest has a 128-bit key of its own, derived from the tournament's
    contests = {p.table: p.seed for p in lt.round.pairings}
    assert all(isinstance(k, DealKey) and len(k.key) == 16 for k in contests.values())
    assert len({str(k) for k in contests.values()}) == len(contests)
    for table, gid_ in lt.games.items():
        row = client.app.state.games.get(gid_).row  # type: ignore[attr-defined]
        assert row.deal == str(contests[table]) and row.seed == 0
    for table, status, seed, html in watched:  # (the page was fetched first)
        if status == "live":
            assert seed is None and str(contests[table])[4:] not in html
        else:
            assert seed == str(contests[table])
    # the person ends his contest: its own key is shown, and tells nothing of the others'
    auth = {"X-Parlor-Token": token}
    v = rec.get(f"/api/games/{gid}", headers=auth).json()["version"]
    over = rec.post(f"/api/games/{gid}/actions", json={"action": f"resign {me + 1}",
                                                       "version": v}, headers=auth).json()
    assert over["status"] == "over"
    shown = rec.get(f"/api/games/{gid}", headers=auth).json()["seed"]
    assert shown == str(contests[mine["table"]])
    revealed = DealKey.parse(shown)
    others = [str(k) for t, k in contests.items() if t != mine["table"]]
    guesses = {str(derive_key(revealed, f"tournament/deal/1/{t}")) for t in contests}
    assert not guesses & set(others)
    # until the tournament is over, no reply carries its key or another contest's
    end = rec.wait(tid, lambda s: s["status"] == "over")
    before, after = rec.seen[:-1], rec.seen[-1]
    for secret in [str(key), *others]:
        hexed = secret.removeprefix("key-")
        assert not any(hexed in text for text in before), secret
    assert end["seed"] == str(key) and str(key) in after
    report = rec.get(f"/api/tournaments/{tid}/report").json()
    assert report["seed"] == str(key)
    assert sorted(g["seed"] for g in report["games"]) == sorted(str(k) for k in
                                                                contests.values())
    assert re.fullmatch(r"key-[0-9a-f]{32}", report["seed"])
