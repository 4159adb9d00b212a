"""The puzzles' API and pages (issue 44) on SQLite and PostgreSQL: a puzzle is judged by
replaying the solver's moves against its line, never by what the browser says; a result moves
both Glicko-2 ratings once per player (an anonymous browser's, sent and returned; an
account's, kept on the server); the next puzzle is chosen near the player's rating and not
tried yet; the daily puzzle is the same all day; and no reply carries a card the solver
cannot see."""

from __future__ import annotations

import datetime as dt
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from parlor.present.prose import prose
from parlor.puzzles.model import load_puzzles
from parlor.rules.glicko import Game, Rating, rate
from parlor.rules.view import view
from parlor.web.app import create_app
from parlor.web.games import view_payload
from parlor.web.puzzles import PuzzleRoom

from .helpers import config_for
from .test_accounts import sign_up

#: Three puzzles made from lesson positions, their lines checked by replay
#: (tests/puzzles/play.jsonl): t001 win this turn (Rlr 1, two attackers, the opponent holds
#: JD 9C), t002 win the combat (Rlr 2, two blockers), t003 Carry (Rlr 2, one move).
FIXTURE = Path(__file__).resolve().parent.parent / "puzzles" / "play.jsonl"
PUZZLES = {p.id: p for p in load_puzzles(FIXTURE.read_text())}
ANON = {"id": "browser-0001", "rating": 1500.0, "rd": 350.0, "volatility": 0.06}


@pytest.fixture
def c(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(config_for(db_url, puzzles_file=str(FIXTURE)))) as client:
        yield client


def move(c: TestClient, pid: str, moves: list[str], action: str | None,
         player: dict[str, Any] | None = None, status: int = 200) -> dict[str, Any]:
    body: dict[str, Any] = {"moves": moves, "action": action}
    if player is not None:
        body["player"] = player
    r = c.post(f"/api/puzzles/{pid}", json=body)
    assert r.status_code == status, r.text
    data: dict[str, Any] = r.json()
    return data


def test_the_solvers_moves_solve_the_puzzle_in_either_order_and_rate_both(
        c: TestClient) -> None:
    first = move(c, "t001", [], "attack KS", ANON)  # the line says AS first: any order
    assert first["status"] == "live" and first["puzzle"]["found"] == 1
    assert first["puzzle"]["themes"] is None  # the first hint is not given away
    done = move(c, "t001", first["moves"], "attack AS", ANON)
    assert done["status"] == "over" and done["puzzle"]["result"] == "solved"
    assert done["puzzle"]["themes"] == ["lethal"]
    me = rate(Rating(1500, 350, 0.06), [Game(Rating(1400, 80), 1.0)])
    it = rate(Rating(1400, 80), [Game(Rating(1500, 350, 0.06), 0.0)])
    rated = done["puzzle"]["rated"]
    assert rated["player"]["rating"] == pytest.approx(me.rating, abs=0.01)
    assert rated["puzzle"]["rating"] == pytest.approx(it.rating, abs=0.01)
    assert rated["player"]["rating"] > 1500 > 1400 > rated["puzzle"]["rating"]
    # the same result sent again counts no more; the puzzle's rating is the stored one now
    again = move(c, "t001", first["moves"], "attack AS", ANON)
    assert again["puzzle"]["rated"] is None
    assert again["puzzle"]["rating"] == round(it.rating)


def test_a_wrong_move_fails_is_explained_and_shows_the_position_after_it(
        c: TestClient) -> None:
    snap = move(c, "t002", [], "done", ANON)  # no blocker: the King gets through
    assert snap["status"] == "over" and snap["puzzle"]["result"] == "failed"
    said = snap["puzzle"]["explanation"]
    assert "You lose 2 life (unblocked attackers): 18 left" in said
    assert said[-1] == ("That does not win the combat. You are at 18 life, the computer at "
                        "20.")
    assert snap["view"]["sides"][1]["life"] == 18  # the table after the move
    assert snap["puzzle"]["rated"]["player"]["rating"] < 1500


def test_the_server_judges_the_result_not_the_browser(c: TestClient) -> None:
    # moves that are not the line's do not replay; a "solved" the browser claims is ignored
    r = c.post("/api/puzzles/t001", json={"moves": ["end"], "action": "attack AS"})
    assert r.status_code == 400 and r.json()["error"] == "bad_action"
    r = c.post("/api/puzzles/t001", json={"moves": [], "action": "attack AS",
                                          "solved": True, "player": ANON})
    assert r.json()["puzzle"]["result"] is None and r.json()["puzzle"]["rated"] is None
    # an illegal move is refused by the rules and counts for nothing
    r = c.post("/api/puzzles/t001", json={"moves": [], "action": "attack JD", "player": ANON})
    assert r.status_code == 422 and r.json()["error"] == "illegal"
    assert move(c, "t001", ["attack AS"], "attack KS", ANON)["puzzle"]["rated"] is not None


def test_a_look_at_the_solution_before_trying_counts_as_a_failure(c: TestClient) -> None:
    steps = []
    for k in range(len(PUZZLES["t002"].line) + 1):
        r = c.post("/api/puzzles/t002/solution", json={"step": k, "player": ANON})
        assert r.status_code == 200, r.text
        steps.append(r.json())
    assert steps[0]["puzzle"]["rated"]["player"]["rating"] < 1500  # the look: a failure
    assert all(s["puzzle"]["rated"] is None for s in steps[1:])
    assert steps[1]["puzzle"]["solution"]["said"] == [
        "You block the King of Spades with the Queen of Hearts"]
    assert steps[1]["puzzle"]["solution"]["by"] == "you"
    assert [s["version"] for s in steps] == sorted({s["version"] for s in steps})
    # and then solving it is not rated
    m = move(c, "t002", [], "block QH 1:KS", ANON)
    assert move(c, "t002", m["moves"], "block AH 1:KS", ANON)["puzzle"]["rated"] is None


def test_hints_give_the_theme_then_the_card(c: TestClient) -> None:
    r = c.post("/api/puzzles/t003/hint", json={"moves": [], "level": 1})
    assert r.json() == {"level": 1, "text": "Think of Carry: a Queen takes an opponent's Lnd."}
    r = c.post("/api/puzzles/t003/hint", json={"moves": [], "level": 2})
    assert r.json()["card"] == "QH" and "the Queen of Hearts" in r.json()["text"]
    assert c.post("/api/puzzles/t003/hint", json={"level": 3}).status_code == 400


def test_an_accounts_rating_is_kept_on_the_server(c: TestClient) -> None:
    assert sign_up(c).status_code == 303
    sent = {**ANON, "rating": 3000.0}  # a signed-in browser's own rating is not used
    m = move(c, "t001", [], "attack AS", sent)
    one = move(c, "t001", m["moves"], "attack KS", sent)["puzzle"]["rated"]["player"]
    assert one["rating"] == pytest.approx(
        rate(Rating(), [Game(Rating(1400, 80), 1.0)]).rating, abs=0.01)
    two = move(c, "t003", [], "done", sent)["puzzle"]["rated"]["player"]  # a failure
    assert two["rating"] == pytest.approx(rate(Rating(one["rating"], one["rd"],
                                                      one["volatility"]),
                                               [Game(Rating(1500, 350), 0.0)]).rating, abs=0.01)
    page = c.get("/puzzles/t002").text
    assert f'data-rating="{two["rating"]}"' in page
    # the next puzzle: the one the account has not tried
    r = c.get("/puzzles", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/puzzles/t002"


def test_the_next_puzzle_is_near_the_rating_and_not_tried_yet(c: TestClient) -> None:
    room: PuzzleRoom = c.app.state.site.puzzles  # type: ignore[attr-defined]
    rng = random.Random(1)
    assert room.near(1390, k=1, rng=rng).id == "t001"  # type: ignore[union-attr]
    assert room.near(1620, k=1, rng=rng).id == "t002"  # type: ignore[union-attr]
    assert room.near(1620, k=1, done={"t002"}, rng=rng).id == "t003"  # type: ignore[union-attr]
    assert room.near(1500, k=1, theme="carry", rng=rng).id == "t003"  # type: ignore[union-attr]
    m = move(c, "t001", [], "attack AS", ANON)
    move(c, "t001", m["moves"], "end", ANON, status=422)  # not legal now: nothing counts
    move(c, "t001", m["moves"], "done", ANON)  # a failure: tried
    move(c, "t003", [], "done", ANON)
    r = c.get(f"/puzzles?rating=1400&player={ANON['id']}", follow_redirects=False)
    assert r.headers["location"] == "/puzzles/t002"
    assert c.get("/puzzles?theme=fork").status_code == 400


def test_the_index_filters_by_theme_and_goal(c: TestClient) -> None:
    assert [p["id"] for p in c.get("/api/puzzles?theme=block").json()["puzzles"]] == ["t002"]
    assert [p["id"] for p in c.get("/api/puzzles?goal=win").json()["puzzles"]] == ["t001"]
    page = c.get("/puzzles/all?goal=best").text
    assert 'href="/puzzles/t003"' in page and 'href="/puzzles/t001"' not in page
    assert c.get("/api/puzzles?goal=mate").status_code == 400


def test_the_daily_puzzle_is_one_per_utc_date_and_on_the_home_page(c: TestClient) -> None:
    room: PuzzleRoom = c.app.state.site.puzzles  # type: ignore[attr-defined]
    days = [dt.date(2026, 12, d) for d in range(1, 29)]
    assert [room.daily(d) for d in days] == [room.daily(d) for d in days]
    assert len({room.daily(d).id for d in days}) == 3  # type: ignore[union-attr]
    today = room.daily()
    assert today is not None
    assert f'href="/puzzles/{today.id}"' in c.get("/").text


def _replay_state(pid: str, snap: dict[str, Any]) -> Any:
    """The state a live snapshot shows: the puzzle after its accepted moves."""
    room = PuzzleRoom([PUZZLES[pid]], None)  # type: ignore[arg-type]
    return room.replay(room.get(pid), snap["moves"]).state


def test_no_reply_carries_a_card_the_solver_cannot_see(c: TestClient) -> None:
    """The hidden-information rule for puzzles: the table is view(state, solver), the log
    the solver's sentences; the opponent's Hand (JD 9C in t001) and the Draw piles are in
    the puzzle's position yet never sent, nor is the line before it is shown."""
    replies = [move(c, "t001", [], None), move(c, "t001", [], "attack AS")]
    for snap in replies:
        s = _replay_state("t001", snap)
        assert snap["view"] == json.loads(json.dumps(view_payload(view(s, 0))))
        assert [e["text"] for e in snap["log"]] == [prose(e, 0, 0) for e in s.log or []]
        assert snap["view"]["sides"][1]["hand"] is None
    replies.append(move(c, "t001", ["attack AS"], "done", ANON))  # failed: the computer
    replies += [c.post("/api/puzzles/t001/solution", json={"step": k}).json()
                for k in range(4)]
    replies.append(c.post("/api/puzzles/t001/hint", json={"level": 2}).json())
    page = c.get("/puzzles/t001").text
    for text in [json.dumps(r) for r in replies] + [page]:
        for hidden in ("JD", "9C", "Jack of Diamonds", "9♣", '"position"', "2.hand",
                       '"line"'):
            assert hidden not in text, (hidden, text[:400])


def test_without_puzzles_the_pages_say_so(tmp_path: Path) -> None:
    empty = tmp_path / "none.jsonl"
    empty.write_text("# no puzzles\n")
    app = create_app(config_for(tmp_path / "games.db", puzzles_file=str(empty)))
    with TestClient(app) as c:
        assert "daily-puzzle" not in c.get("/").text
        r = c.get("/puzzles", follow_redirects=False)
        assert r.status_code == 200 and "No puzzles are installed yet" in r.text
        assert c.get("/api/puzzles").json() == {"puzzles": []}
        assert c.post("/api/puzzles/t001", json={}).status_code == 404


@pytest.mark.parametrize("pid", sorted(PUZZLES))
def test_every_step_of_every_puzzle_is_the_solvers_view(c: TestClient, pid: str) -> None:
    """Along each puzzle's solution, each reply's table is exactly ``view(state, solver)``
    and its log the solver's sentences; the solution's steps too."""
    puzzle = PUZZLES[pid]
    states = puzzle.states()
    moves: list[str] = []
    for i in puzzle.solver_moves():
        snap = move(c, pid, moves, puzzle.line[i])
        moves = snap["moves"]
        s = _replay_state(pid, snap)
        assert snap["view"] == json.loads(json.dumps(view_payload(view(s, puzzle.solver))))
        assert [e["notation"] for e in snap["log"]] == [
            e.text_for(puzzle.solver) for e in s.log or []]
    for k, s in enumerate(states):
        snap = c.post(f"/api/puzzles/{pid}/solution", json={"step": k}).json()
        assert snap["view"] == json.loads(json.dumps(view_payload(view(s, puzzle.solver))))
        assert snap["view"]["sides"][1 - puzzle.solver]["hand"] is None
