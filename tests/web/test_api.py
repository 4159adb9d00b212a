"""The web app's HTTP API and pages: every endpoint, with good and bad inputs."""

from __future__ import annotations

import json
import time
from pathlib import Path

from fastapi.testclient import TestClient

from parlor.present.phases import task
from parlor.rules.engine import new_game as engine_new_game
from parlor.rules.notation import record, replay
from parlor.rules.state import Settings
from parlor.web.app import create_app
from parlor.web.games import view_payload

from .helpers import config_for, form_post, new_game, play_out, wait_for_human

SNAPSHOT_KEYS = {"id", "kind", "version", "level", "settings", "status", "failure", "task",
                 "you", "seed", "thinking", "your_turn", "view", "log", "log_total",
                 "thinking_now", "result_text", "practice", "costs", "why_not", "coach",
                 "takeback", "takebacks", "choices", "forecast"}


def auth(token: str) -> dict[str, str]:
    return {"X-Parlor-Token": token}


# -- creating games --------------------------------------------------------------------------


def test_new_game_sets_a_cookie_and_hides_the_computers_hand(client: TestClient) -> None:
    g = new_game(client)
    assert g["url"] == f"/g/{g['id']}"
    assert client.cookies.get(f"pm_{g['id']}") == g["token"]
    snap = g["snapshot"]
    assert snap["view"]["sides"][1]["hand"] is None
    assert snap["view"]["sides"][0]["hand"] is not None
    assert snap["seed"] is None  # the seed would reveal every hidden card


def test_new_game_rejects_bad_inputs(client: TestClient) -> None:
    for body, word in (
        ({"level": "grandmaster"}, "unknown level"),
        ({"level": "random", "seed": "abc"}, "seed"),
        ({"level": "random", "seed": -4}, "seed"),
        ({"level": "random", "max_turns": 1}, "max_turns"),
        ({"level": "random", "max_turns": "many"}, "max_turns"),
    ):
        r = client.post("/api/games", json=body)
        assert r.status_code == 400, body
        assert word in r.json()["message"]
    r = client.post("/api/games", content=b"{not json", headers={"content-type":
                                                                 "application/json"})
    assert r.status_code == 400 and "JSON" in r.json()["message"]
    r = client.post("/api/games", json=[1, 2])
    assert r.status_code == 400


def test_levels(client: TestClient) -> None:
    data = client.get("/api/levels").json()
    assert data["levels"] and data["default"] in data["levels"]
    assert "random" in data["accepted"]


# -- reading and access ----------------------------------------------------------------------


def test_state_needs_the_player_token(client: TestClient, db_url: str) -> None:
    g = new_game(client)
    gid = g["id"]
    assert client.get(f"/api/games/{gid}").status_code == 200  # the cookie
    with TestClient(create_app(config_for(db_url))) as other:  # another browser
        r = other.get(f"/api/games/{gid}")
        assert r.status_code == 403 and r.json()["error"] == "forbidden"
        r = other.get(f"/api/games/{gid}", headers=auth("not-the-token"))
        assert r.status_code == 403
        r = other.post(f"/api/games/{gid}/actions", json={"action": "pass", "version": 0})
        assert r.status_code == 403
        assert other.get(f"/api/games/{gid}", headers=auth(g["token"])).status_code == 200


def test_unknown_games_are_404(client: TestClient) -> None:
    for path in ("/api/games/nosuchgame", "/api/games/" + "x" * 40, "/api/games/bad$id",
                 "/api/replays/nosuchgame", "/api/games/nosuchgame/hint"):
        r = client.get(path)
        assert r.status_code == 404, path
        assert r.json()["error"] in ("not_found", "http_error")
    r = client.get("/g/nosuchgame", headers={"accept": "text/html"})
    assert r.status_code == 404 and "No such game" in r.text
    r = client.get("/no/such/page", headers={"accept": "text/html"})
    assert r.status_code == 404 and "Page not found" in r.text


def test_state_parameters_are_checked(client: TestClient) -> None:
    g = new_game(client)
    for params in ({"after": "x"}, {"wait": "100"}, {"log_from": "-3"}, {"wait": "1.5"}):
        r = client.get(f"/api/games/{g['id']}", params=params)
        assert r.status_code == 400, params


def test_snapshot_is_only_the_humans_view(client: TestClient) -> None:
    g = new_game(client, seed=11)
    snap = wait_for_human(client, g["id"], g["token"])
    assert set(snap) == SNAPSHOT_KEYS
    live = client.app.state.games.get(g["id"])  # type: ignore[attr-defined]
    from parlor.present.prose import prose
    from parlor.rules.view import view

    v = view(live.state, 0)
    assert snap["view"] == json.loads(json.dumps(view_payload(v)))
    assert [c["text"] for c in snap["choices"]] == list(v.legal)
    assert [e["notation"] for e in snap["log"]] == list(v.log)
    assert [e["text"] for e in snap["log"]] == [prose(e, 0, 0) for e in live.state.log or ()]
    assert snap["view"]["legal"] == list(v.legal)


# -- acting ------------------------------------------------------------------------------------


def test_an_action_is_applied_and_committed(client: TestClient, db_url: str) -> None:
    g = new_game(client)
    snap = wait_for_human(client, g["id"], g["token"])
    action = snap["view"]["legal"][0]
    r = client.post(f"/api/games/{g['id']}/actions",
                    json={"action": action, "version": snap["version"]})
    assert r.status_code == 200, r.text
    assert r.json()["version"] > snap["version"]
    stored = client.app.state.games.store.load(g["id"])  # type: ignore[attr-defined]
    assert action in stored.actions


def test_stale_and_replayed_requests_change_nothing(client: TestClient) -> None:
    g = new_game(client)
    snap = wait_for_human(client, g["id"], g["token"])
    body = {"action": snap["view"]["legal"][0], "version": snap["version"]}
    first = client.post(f"/api/games/{g['id']}/actions", json=body)
    assert first.status_code == 200
    version = first.json()["version"]
    again = client.post(f"/api/games/{g['id']}/actions", json=body)  # a double click
    assert again.status_code == 409
    err = again.json()
    assert err["error"] == "stale" and "out-of-date" in err["message"]
    now = client.get(f"/api/games/{g['id']}").json()
    assert now["version"] >= version
    stored = client.app.state.games.store.load(g["id"])  # type: ignore[attr-defined]
    assert len(stored.actions) == now["version"]


def test_illegal_and_malformed_actions(client: TestClient) -> None:
    g = new_game(client)
    snap = wait_for_human(client, g["id"], g["token"])
    url = f"/api/games/{g['id']}/actions"
    v = snap["version"]
    illegal = next(a for a in ("attack KS", "block QH 2:KS", "pass", "end", "trim 2C")
                   if a not in snap["view"]["legal"])
    r = client.post(url, json={"action": illegal, "version": v})
    assert r.status_code == 422
    assert r.json()["error"] == "illegal"
    msg = r.json()["message"]
    assert any(ch.isdigit() for ch in msg.split(":")[0]), msg  # cites a rule: "R8: …"
    for body, status in (
        ({"action": "fly away", "version": v}, 400),
        ({"action": "", "version": v}, 400),
        ({"action": "pass"}, 400),
        ({"action": "pass", "version": "3"}, 400),
        ({"action": "pass", "version": True}, 400),
        ({"version": v}, 400),
        ({"action": 5, "version": v}, 400),
        ({"action": "play " + "K" * 300, "version": v}, 400),
    ):
        r = client.post(url, json=body)
        assert r.status_code == status, (body, r.text)
        assert r.json()["message"]
    r = client.post(url, content=b"]]", headers={"content-type": "application/json"})
    assert r.status_code == 400
    after = client.get(f"/api/games/{g['id']}").json()
    assert after["version"] == v  # nothing changed


def test_wrong_turn_is_refused() -> None:
    # a long pace keeps the computer "thinking" while we try to act
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(config_for(Path(tmp) / "g.db", pace=30.0))
        with TestClient(app) as c:
            for seed in range(40):
                g = new_game(c, seed=seed)
                s = g["snapshot"]
                if not s["your_turn"]:
                    r = c.post(f"/api/games/{g['id']}/actions",
                               json={"action": "pass", "version": s["version"]})
                    assert r.status_code == 409
                    assert r.json()["error"] == "not_your_turn"
                    assert s["thinking"] is True
                    return
    raise AssertionError("no deal where the computer starts")


def test_resign_ends_the_game_and_then_actions_are_refused(client: TestClient) -> None:
    g = new_game(client)
    snap = wait_for_human(client, g["id"], g["token"])
    r = client.post(f"/api/games/{g['id']}/actions",
                    json={"action": "resign", "version": snap["version"]})
    assert r.status_code == 200
    over = r.json()
    assert over["status"] == "over" and over["view"]["winner"] == 1
    assert over["seed"] == 7  # revealed once the game is over
    r = client.post(f"/api/games/{g['id']}/actions",
                    json={"action": "pass", "version": over["version"]})
    assert r.status_code == 409 and r.json()["error"] == "game_over"


def test_a_whole_game_then_export_and_replay(client: TestClient) -> None:
    g = new_game(client, seed=3, max_turns=10)
    gid, token = g["id"], g["token"]
    r = client.get(f"/api/games/{gid}/record")
    assert r.status_code == 409  # not while the game is live: it names hidden cards
    assert client.get(f"/replay/{gid}", headers={"accept": "text/html"}).status_code == 409
    end = play_out(client, gid, token)
    assert end["status"] == "over"
    text = client.get(f"/api/games/{gid}/record").text
    assert text.startswith("# Parlor Magic game record")
    assert replay(text).result == end["view"]["result"]
    r = client.get(f"/g/{gid}/record.txt")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    steps = len([ln for ln in text.splitlines()[3:] if ln.strip()])
    first = client.get(f"/api/replays/{gid}", params={"step": 0, "seat": 2}).json()
    assert first["step"] == 0 and first["steps"] == steps and first["seat"] == 1
    last = client.get(f"/api/replays/{gid}", params={"step": 10**5}).json()
    assert last["step"] == steps and last["view"]["result"] == end["view"]["result"]
    mid = client.get(f"/api/replays/{gid}", params={"step": steps // 2}).json()
    assert mid["last"] is not None
    assert client.get(f"/api/replays/{gid}", params={"seat": 3}).status_code == 400
    assert client.get(f"/replay/{gid}").status_code == 200
    listed = client.get("/api/games").json()["games"]
    assert [x["id"] for x in listed] == [gid] and listed[0]["status"] == "over"


def test_hint(client: TestClient) -> None:
    g = new_game(client)
    snap = wait_for_human(client, g["id"], g["token"])
    r = client.get(f"/api/games/{g['id']}/hint", params={"version": snap["version"]})
    assert r.status_code == 200, r.text
    hint = r.json()
    assert hint["action"] in snap["view"]["legal"]
    assert all(a["action"] in snap["view"]["legal"] for a in hint["alternatives"])
    assert hint["budget"]  # the search budget the expert used (issue 46)
    r = client.get(f"/api/games/{g['id']}/hint", params={"version": snap["version"] + 5})
    assert r.status_code == 409
    assert client.get(f"/api/games/{g['id']}/hint", params={"version": "x"}).status_code == 400


def test_rematch(client: TestClient) -> None:
    g = new_game(client, max_turns=20)
    r = client.post(f"/api/games/{g['id']}/rematch", json={})
    assert r.status_code == 201
    new = r.json()
    assert new["id"] != g["id"]
    snap = client.get(f"/api/games/{new['id']}").json()
    assert snap["level"] == "random" and "max_turns=20" in snap["settings"]
    r = form_post(client, f"/g/{g['id']}/rematch", {}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/g/")


# -- records ----------------------------------------------------------------------------------


def test_import_a_record(client: TestClient) -> None:
    s = engine_new_game(5)
    from parlor.rules.engine import apply, legal_actions

    for _ in range(30):
        apply(s, legal_actions(s)[-1])
    text = record(s)
    r = client.post("/api/records", json={"record": text})
    assert r.status_code == 201, r.text
    rid = r.json()["id"]
    assert r.json()["steps"] == len(s.history)
    snap = client.get(f"/api/replays/{rid}", params={"step": 30}).json()
    assert snap["view"]["turn"] == s.turn
    r = client.post("/api/records", json={"record": text})
    assert r.status_code == 201
    r = client.post(f"/api/games/{rid}/actions", json={"action": "pass", "version": 30})
    assert r.status_code == 400  # a replay is not played
    page = client.get(f"/g/{rid}", follow_redirects=False)
    assert page.status_code == 303 and page.headers["location"] == f"/replay/{rid}"


def test_import_rejects_bad_records(client: TestClient) -> None:
    for text, word in (
        ("", "record"),
        ("seed: 1\nfly away\n", "line 2"),
        ("keep 9D\n", "seed"),
        ("seed: 1\nattack KS\n", "line 2"),
        ("seed: x\n", "record"),
    ):
        r = client.post("/api/records", json={"record": text})
        assert r.status_code == 400, text
        assert word in r.json()["message"], r.json()
    r = client.post("/api/records", json={"record": 5})
    assert r.status_code == 400
    r = client.post("/api/records", content=b"x" * 400_000,
                    headers={"content-type": "application/json"})
    assert r.status_code == 400


def test_import_form_and_bad_form(client: TestClient) -> None:
    text = record(engine_new_game(2))
    r = form_post(client, "/import", {"record": text}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/replay/")
    r = form_post(client, "/import", {"record": "nonsense"}, headers={"accept": "text/html"})
    assert r.status_code == 400 and "not a game record" in r.text


# -- persistence ------------------------------------------------------------------------------


def test_a_game_resumes_exactly_after_a_restart(db_url: str) -> None:
    with TestClient(create_app(config_for(db_url))) as c:
        g = new_game(c, seed=21, max_turns=30)
        snap = wait_for_human(c, g["id"], g["token"])
        for _ in range(12):
            if snap["status"] == "over":
                break
            r = c.post(f"/api/games/{g['id']}/actions",
                       json={"action": snap["view"]["legal"][-1], "version": snap["version"]})
            assert r.status_code == 200
            snap = wait_for_human(c, g["id"], g["token"])
        before = c.get(f"/api/games/{g['id']}").json()
    with TestClient(create_app(config_for(db_url))) as c2:  # a new server, same database
        after = c2.get(f"/api/games/{g['id']}", headers=auth(g["token"])).json()
        assert after["version"] == before["version"]
        assert after["view"] == before["view"]
        assert after["log"] == before["log"]


# -- pages ------------------------------------------------------------------------------------


def test_pages(client: TestClient) -> None:
    home = client.get("/")
    assert home.status_code == 200 and "New game" in home.text
    r = form_post(client, "/games", {"level": "random", "seed": "4", "max_turns": "8"},
                  follow_redirects=False)
    assert r.status_code == 303
    url = r.headers["location"]
    gid = url.rsplit("/", 1)[1]
    page = client.get(url)
    assert page.status_code == 200
    assert 'id="snapshot"' in page.text and "game.js" in page.text
    assert gid in client.get("/").text  # listed among your games
    r = form_post(client, "/games", {"level": "random", "seed": "abc"},
                  headers={"accept": "text/html"})
    assert r.status_code == 400 and "seed" in r.text
    rules = client.get("/rules")
    assert rules.status_code == 200
    assert 'id="r903"' in rules.text and 'id="R13"' in rules.text
    assert client.get("/notation").status_code == 200
    for asset in ("/static/js/game.js", "/static/js/table.js", "/static/css/parlor.css",
                  "/static/favicon.svg"):
        assert client.get(asset).status_code == 200, asset
    assert client.get("/healthz").json()["ok"] is True


def test_game_page_of_another_browser_is_403(client: TestClient, db_url: str) -> None:
    g = new_game(client)
    with TestClient(client.app) as other:  # another browser on the same server
        r = other.get(f"/g/{g['id']}", headers={"accept": "text/html"})
        assert r.status_code == 403 and "Not your game" in r.text
        # "continue elsewhere" gives a one-time code (never the token in a link)
        r = client.post(f"/api/games/{g['id']}/handover", json={})
        assert r.status_code == 201 and g["token"] not in r.text
        link = r.json()["url"]
        r = other.get(link, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == f"/g/{g['id']}"
        assert other.get(f"/g/{g['id']}").status_code == 200
        third = TestClient(other.app)
        assert third.get(link, headers={"accept": "text/html"}).status_code == 403  # used
        r = third.get(f"/g/{g['id']}", params={"t": g["token"]},
                      headers={"accept": "text/html"})
        assert r.status_code == 403  # a token in the address is not taken any more


def test_long_poll_returns_on_change(client: TestClient) -> None:
    g = new_game(client)
    snap = wait_for_human(client, g["id"], g["token"])
    start = time.monotonic()
    r = client.get(f"/api/games/{g['id']}", params={"after": snap["version"], "wait": 1})
    assert r.status_code == 200 and time.monotonic() - start >= 0.9  # nothing changed
    r = client.get(f"/api/games/{g['id']}", params={"after": snap["version"] - 1, "wait": 5})
    assert r.status_code == 200 and time.monotonic() - start < 3  # already newer


def test_the_computer_acts_at_a_readable_pace(db_url: str) -> None:
    from sqlalchemy import select

    from parlor.rules.engine import apply as engine_apply
    from parlor.store.db import actions

    pace = 0.25
    with TestClient(create_app(config_for(db_url, pace=pace))) as c:
        g = new_game(c, seed=4, max_turns=6)
        snap = play_out(c, g["id"], g["token"], seed=2)
        assert snap["status"] == "over"
        store = c.app.state.games.store  # type: ignore[attr-defined]
        with store.engine.connect() as conn:
            rows = conn.execute(select(actions.c.action, actions.c.at)
                                .where(actions.c.game_id == g["id"])
                                .order_by(actions.c.ply)).all()
    s = engine_new_game(4, Settings(max_turns=6))
    gaps = []
    for i, (action, at) in enumerate(rows):
        if s.actor == 1 and i:  # the computer's decision: at least `pace` after the last one
            gaps.append(at - rows[i - 1][1])
        engine_apply(s, action)
    assert gaps and min(gaps) >= pace * 0.9, gaps


def test_the_snapshot_says_the_decision_in_words(client: TestClient) -> None:
    """The sentence comes from parlor.present, as the terminal's "Your decision" line."""
    g = new_game(client)
    snap = wait_for_human(client, g["id"], g["token"])
    assert snap["task"] == task(snap["view"]["phase"]) and "(" in snap["task"]
