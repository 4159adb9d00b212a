"""Issue 13, written as the attacks: working out the deal, malformed records and seeds,
cross-origin writes, a database deleted or corrupted under the server, a token in a link,
framing and inline script, resigning for the other seat, and hints crowding the computer."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from parlor.rules.engine import new_game as engine_new_game
from parlor.rules.notation import record
from parlor.web.app import create_app
from parlor.web.conductor import RateLimit

from .helpers import config_for, form_post, new_game, play_out, wait_for_human

TEMPLATES = Path(__file__).resolve().parents[2] / "parlor" / "web" / "templates"


def auth(token: str) -> dict[str, str]:
    return {"X-Parlor-Token": token}


# -- the deal ---------------------------------------------------------------------------------


def test_r31_a_server_deal_is_a_128_bit_key_revealed_only_at_the_end(client: TestClient) -> None:
    """No reply of a live game carries the deal key; the record names it once it is over."""
    r = client.post("/api/games", json={"level": "random", "max_turns": 8})
    g = r.json()
    gid, token = g["id"], g["token"]
    seen = [r.text]
    snap = wait_for_human(client, gid, token)
    assert snap["seed"] is None and snap["practice"] is False
    for path in (f"/api/games/{gid}", "/api/games", f"/g/{gid}", "/"):
        seen.append(client.get(path, headers=auth(token)).text)
    seen.append(client.get(f"/api/games/{gid}/record").text)  # refused while live
    seen.append(client.get(f"/api/games/{gid}/hint").text)
    end = play_out(client, gid, token)
    key = end["seed"]
    assert isinstance(key, str) and re.fullmatch(r"key-[0-9a-f]{32}", key)
    hexkey = key[4:]
    assert not any(hexkey in text for text in seen)
    text = client.get(f"/api/games/{gid}/record").text
    assert f"seed: {key}" in text
    r = client.post("/api/records", json={"record": text})
    assert r.status_code == 201
    assert client.get(f"/api/replays/{r.json()['id']}").json()["seed"] == key


def test_a_practice_seed_is_marked_as_such(client: TestClient) -> None:
    g = new_game(client, seed=2**63 - 1)
    snap = client.get(f"/api/games/{g['id']}").json()
    assert snap["practice"] is True
    listed = client.get("/api/games").json()["games"]
    assert listed[0]["practice"] is True and "Practice" in listed[0]["title"]


# -- malformed input: a clear 4xx, never a 500 ---------------------------------------------------


@pytest.mark.parametrize("seed", [2**63, 2**64 + 5, -1, "abc", "1.5", 1.5, True, "1e3", [1]])
def test_a_seed_out_of_range_is_a_400(client: TestClient, seed: object) -> None:
    r = client.post("/api/games", json={"level": "random", "seed": seed})
    assert r.status_code == 400 and "seed" in r.json()["message"]
    r = form_post(client, "/games", {"level": "random", "seed": str(seed)},
                  headers={"accept": "text/html"})
    assert r.status_code == 400 and "seed" in r.text


@pytest.mark.parametrize(("text", "word"), [
    ("seed: 9223372036854775808\n", "seed"),
    ("seed: -4\n", "seed"),
    ("seed: twelve\n", "seed"),
    ("settings: single_draw=3\nseed: 1\n", "single_draw"),
    ("settings: max_turns=-2\nseed: 1\n", "max_turns"),
    ("settings: max_turns=99999\nseed: 1\n", "max_turns"),
    ("settings: colour=red\nseed: 1\n", "setting"),
    ("seed: key-12\n", "key"),
    ("seed: 1\nresign 3\n", "line 2"),
])
def test_a_malformed_record_is_a_400_by_api_and_form(client: TestClient, text: str,
                                                     word: str) -> None:
    before = len(client.get("/api/games").json()["games"])
    r = client.post("/api/records", json={"record": text})
    assert r.status_code == 400, r.text
    assert word in r.json()["message"]
    r = form_post(client, "/import", {"record": text}, headers={"accept": "text/html"})
    assert r.status_code == 400 and "not a game record" in r.text
    assert len(client.get("/api/games").json()["games"]) == before  # nothing stored


@pytest.mark.parametrize("body", [{"level": "-"}, {"level": 5}, {"level": "random",
                                                                  "max_turns": True}])
def test_a_bad_level_or_setting_is_a_400(client: TestClient, body: dict[str, object]) -> None:
    assert client.post("/api/games", json=body).status_code == 400


def test_an_imported_games_rematch_asks_which_level(client: TestClient) -> None:
    r = client.post("/api/records", json={"record": record(engine_new_game(4))})
    rid = r.json()["id"]
    r = client.post(f"/api/games/{rid}/rematch", json={})
    assert r.status_code == 400 and "level" in r.json()["message"]
    assert "novice" in r.json()["levels"]
    assert client.post(f"/api/games/{rid}/rematch", json={"level": "-"}).status_code == 400
    r = client.post(f"/api/games/{rid}/rematch", json={"level": "random"})
    assert r.status_code == 201
    assert client.get(f"/api/games/{r.json()['id']}").json()["level"] == "random"
    page = form_post(client, f"/g/{rid}/rematch", {})
    assert page.status_code == 200 and 'name="level"' in page.text  # the page asks
    r = form_post(client, f"/g/{rid}/rematch", {"level": "novice"}, follow_redirects=False)
    assert r.status_code == 303


# -- cross-origin writes ---------------------------------------------------------------------------


def test_a_write_from_another_origin_is_refused(client: TestClient) -> None:
    g = new_game(client)
    snap = wait_for_human(client, g["id"], g["token"])
    body = {"action": snap["view"]["legal"][0], "version": snap["version"]}
    url = f"/api/games/{g['id']}/actions"
    for headers in ({"origin": "http://127.0.0.1:1"}, {"origin": "null"},
                    {"referer": "http://evil.example/page"},
                    {"origin": "http://testserver.evil"}):
        r = client.post(url, json=body, headers=headers)
        assert r.status_code == 403 and r.json()["error"] == "cross_origin", headers
    r = client.post(url, content=b'{"action": "pass", "version": 0}',
                    headers={"content-type": "text/plain"})
    assert r.status_code == 415
    assert client.get(f"/api/games/{g['id']}").json()["version"] == snap["version"]
    r = client.post(url, json=body, headers={"origin": "http://testserver"})
    assert r.status_code == 200  # the page's own origin


def test_a_form_without_its_csrf_token_is_refused(client: TestClient) -> None:
    client.get("/")
    for fields in ("level=random", "level=random&csrf=0000"):
        r = client.post("/games", content=fields.encode(), follow_redirects=False,
                        headers={"content-type": "application/x-www-form-urlencoded"})
        assert r.status_code == 403
    assert client.get("/api/games").json()["games"] == []


# -- the database failing under the server ----------------------------------------------------


def test_healthz_runs_a_real_query(client: TestClient) -> None:
    new_game(client)
    h = client.get("/healthz").json()
    assert h["ok"] is True and h["games"] == 1


def test_a_deleted_database_answers_503_and_changes_nothing(db_path: Path) -> None:
    with TestClient(create_app(config_for(db_path))) as c:
        g = new_game(c)
        snap = wait_for_human(c, g["id"], g["token"])
        db_path.unlink()
        for suffix in ("-wal", "-shm"):
            Path(str(db_path) + suffix).unlink(missing_ok=True)
        assert c.get("/healthz").status_code == 503
        r = c.post(f"/api/games/{g['id']}/actions",
                   json={"action": snap["view"]["legal"][0], "version": snap["version"]})
        assert r.status_code == 503 and "nothing was changed" in r.json()["message"]
        after = c.get(f"/api/games/{g['id']}").json()
        assert after["version"] == snap["version"] and after["view"] == snap["view"]
        assert c.post("/api/games", json={"level": "random"}).status_code == 503
        assert c.post("/api/records", json={"record": "seed: 1\n"}).status_code == 503


def test_a_corrupted_database_answers_503_not_500(db_path: Path) -> None:
    with TestClient(create_app(config_for(db_path))) as c:
        g = new_game(c)
        snap = wait_for_human(c, g["id"], g["token"])
        c.app.state.games.store.engine.dispose()  # type: ignore[attr-defined]
        for suffix in ("-wal", "-shm"):
            Path(str(db_path) + suffix).unlink(missing_ok=True)
        with db_path.open("r+b") as f:
            f.write(b"this is not a database " * 400)
        assert c.get("/healthz").status_code == 503
        r = c.post(f"/api/games/{g['id']}/actions",
                   json={"action": snap["view"]["legal"][0], "version": snap["version"]})
        assert r.status_code == 503
        assert c.get(f"/api/games/{g['id']}").json()["version"] == snap["version"]
        c.app.state.games.forget(g["id"])  # type: ignore[attr-defined]
        assert c.get(f"/api/games/{g['id']}").status_code == 503
        assert c.get("/api/games").status_code == 503
        assert c.post("/api/games", json={"level": "random"}).status_code == 503


# -- smaller holes --------------------------------------------------------------------------


def test_pages_forbid_framing_inline_script_and_referrers(client: TestClient) -> None:
    g = new_game(client)
    for path in ("/", f"/g/{g['id']}", "/rules"):
        r = client.get(path)
        csp = r.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp.split("style-src")[0]
        assert "frame-ancestors 'none'" in csp
        assert r.headers["referrer-policy"] == "same-origin"
        assert r.headers["x-frame-options"] == "DENY"
    for page in TEMPLATES.glob("*.html"):
        html = page.read_text()
        for tag in re.findall(r"<script\b[^>]*>", html):
            assert "src=" in tag or 'type="application/json"' in tag, (page.name, tag)
        assert not re.search(r"\son[a-z]+\s*=", html), page.name


def test_the_game_page_never_puts_the_token_in_a_link(client: TestClient) -> None:
    g = new_game(client)
    html = client.get(f"/g/{g['id']}").text
    assert g["token"] not in html and "?t=" not in html
    r = form_post(client, f"/g/{g['id']}/handover", {})
    assert r.status_code == 200 and g["token"] not in r.text
    link = re.search(r"/h/([A-Za-z0-9_-]+)", r.text)
    assert link is not None
    other = TestClient(client.app)
    assert other.get(link.group(0), follow_redirects=False).status_code == 303
    assert other.get(f"/api/games/{g['id']}").status_code == 200
    assert TestClient(client.app).get(link.group(0)).status_code == 403  # once only


def test_r17_resigning_for_the_other_seat_is_refused(client: TestClient) -> None:
    g = new_game(client)
    snap = wait_for_human(client, g["id"], g["token"])
    r = client.post(f"/api/games/{g['id']}/actions",
                    json={"action": "resign 2", "version": snap["version"]})
    assert r.status_code == 403 and "Rlr 2" in r.json()["message"]
    after = client.get(f"/api/games/{g['id']}").json()
    assert after["status"] == "live" and after["version"] == snap["version"]
    r = client.post(f"/api/games/{g['id']}/actions",
                    json={"action": "resign 1", "version": snap["version"]})
    assert r.status_code == 200 and r.json()["view"]["winner"] == 1


# -- hints ---------------------------------------------------------------------------------------


@pytest.mark.slow
def test_one_hint_per_game_in_flight_and_a_per_player_rate(db_path: Path) -> None:
    """Forty hints asked at once for one game share one answer; asked over many games,
    beyond the player's burst they are refused with a Retry-After."""
    cfg = config_for(db_path, hint_burst=2, hint_rate=1.0)
    with TestClient(create_app(cfg)) as c:
        g = new_game(c)
        snap = wait_for_human(c, g["id"], g["token"])
        conductor = c.app.state.conductor  # type: ignore[attr-defined]
        live = c.app.state.games.cached(g["id"])  # type: ignore[attr-defined]

        async def many() -> list[object]:
            return await asyncio.gather(*(conductor.hint(live, snap["version"], "p")
                                          for _ in range(40)), return_exceptions=True)

        answers = c.portal.call(many)  # type: ignore[union-attr]
        assert all(a == answers[0] for a in answers)  # one computation, forty answers
        codes = []
        for _ in range(3):
            r = c.get(f"/api/games/{g['id']}/hint", params={"version": snap["version"]})
            codes.append(r.status_code)
            if r.status_code == 429:
                assert int(r.headers["retry-after"]) >= 1 and "ask again" in r.text
        assert codes[-1] == 429


def test_the_rate_limit_refills_over_time() -> None:
    rate = RateLimit(per_minute=60, burst=2)
    assert rate.take("p", 0.0) == 0.0 and rate.take("p", 0.0) == 0.0
    assert rate.take("p", 0.0) == pytest.approx(1.0)
    assert rate.take("q", 0.0) == 0.0  # another player has his own bucket
    assert rate.take("p", 1.0) == 0.0


def test_r1307_a_live_tournament_does_not_show_the_seed_its_deals_come_from(
        client: TestClient) -> None:
    body = {"teams": [{"name": "A", "players": ["human", "random"]},
                      {"name": "B", "players": ["random", "random"]}],
            "rounds": 1, "max_turns": 8}
    r = client.post("/api/tournaments", json=body)
    assert r.status_code == 201, r.text
    snap = client.get(f"/api/tournaments/{r.json()['id']}").json()
    assert snap["status"] == "live" and snap["seed"] is None
