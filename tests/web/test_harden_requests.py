"""Issue 39, written as the attacks: requests that must leave nothing behind, bodies that
must not break the parser, secrets that are not ASCII, a fault that must still answer with
the headers of every reply, a takeback offered and then refused, and an analysis queue
without end."""

from __future__ import annotations

import json
import random

import pytest
from fastapi.testclient import TestClient

from parlor.web.app import create_app
from parlor.web.guard import MAX_JSON_DEPTH, too_deep

from .helpers import config_for, form_post, new_game, play_out, wait_for_human

SECURITY_HEADERS = ("content-security-policy", "x-content-type-options", "x-frame-options",
                    "referrer-policy", "x-request-id")


def auth(token: str) -> dict[str, str]:
    return {"X-Parlor-Token": token}


def has_security_headers(r: object) -> bool:
    headers = r.headers  # type: ignore[attr-defined]
    return all(h in headers for h in SECURITY_HEADERS)


# -- nothing retained for what does not exist ---------------------------------------------------


def test_requests_for_unknown_games_leave_nothing_in_the_server(client: TestClient) -> None:
    """Every game route, asked about ids that do not exist (long polls included), leaves no
    per-id object behind: not the conductor's wake-up events, not the loading locks."""
    app = client.app
    conductor, games = app.state.conductor, app.state.games  # type: ignore[attr-defined]
    rng = random.Random(3)
    for _ in range(60):
        gid = "".join(rng.choice("abcdefghjkmnpqrstuvwxyz0123456789") for _ in range(12))
        for path in (f"/api/games/{gid}", f"/api/games/{gid}?wait=1&after=5",
                     f"/api/watch/{gid}?k=x", f"/api/games/{gid}/hint",
                     f"/api/games/{gid}/record", f"/g/{gid}"):
            assert client.get(path).status_code in (403, 404), path
        r = client.post(f"/api/games/{gid}/actions", json={"action": "pass", "version": 0})
        assert r.status_code in (403, 404)
    assert conductor.retained() == 0
    assert games._loading == {}


def test_a_long_poll_leaves_nothing_once_answered(client: TestClient) -> None:
    g = new_game(client)
    snap = wait_for_human(client, g["id"], g["token"])
    conductor = client.app.state.conductor  # type: ignore[attr-defined]
    r = client.get(f"/api/games/{g['id']}", params={"wait": 1, "after": snap["version"]},
                   headers=auth(g["token"]))
    assert r.status_code == 200
    assert conductor.retained() == 0


# -- bodies and secrets the parser and compare must survive ---------------------------------------


@pytest.mark.parametrize("body", [b"[" * 200_000, b'{"a":' * 30_000,
                                  b'{"action": ' + b"[" * (MAX_JSON_DEPTH + 1) + b"]" *
                                  (MAX_JSON_DEPTH + 1) + b', "version": 0}'])
def test_deeply_nested_json_is_refused_400_with_the_security_headers(
        client: TestClient, body: bytes) -> None:
    g = new_game(client)
    for path in ("/api/games", f"/api/games/{g['id']}/actions", "/api/records"):
        r = client.post(path, content=body, headers={"content-type": "application/json",
                                                     **auth(g["token"])})
        assert r.status_code == 400, (path, r.text[:200])
        assert "nests deeper" in r.json()["message"]
        assert has_security_headers(r)


def test_the_depth_check_reads_json_as_json_does() -> None:
    """Brackets inside strings (escaped quotes and backslashes included) do not count;
    the walk agrees with json.loads' own nesting on texts built to confuse it."""
    assert not too_deep(b'{"record": "' + b"[" * 5000 + b'"}')
    assert not too_deep(b'{"a": "\\\\", "b": "' + b"[{" * 500 + b'"}')
    assert not too_deep(b'{"a": "\\"' + b"[" * 500 + b'"}')
    deep = json.dumps({"a": ["\\\"[", [[[[]]]]]})
    for n in (MAX_JSON_DEPTH - 1, MAX_JSON_DEPTH, MAX_JSON_DEPTH + 1):
        text = "[" * n + '"]]\\"[{"' + "]" * n
        json.loads(text)
        assert too_deep(text.encode()) == (n > MAX_JSON_DEPTH)
    assert not too_deep(deep.encode())


def test_a_non_ascii_spectator_key_or_csrf_field_is_simply_wrong(client: TestClient) -> None:
    g = new_game(client)
    for path in (f"/watch/{g['id']}?k=%C3%A9t%C3%A9", f"/api/watch/{g['id']}?k=%E2%9C%93"):
        r = client.get(path)
        assert r.status_code == 403, (path, r.status_code)
        assert has_security_headers(r)
    client.get("/")  # the browser's CSRF cookie
    r = client.post("/games", content=b"level=random&csrf=%C3%A9t%C3%A9",
                    headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 403 and has_security_headers(r)
    assert form_post(client, "/games", {"level": "random"},
                     follow_redirects=False).status_code == 303


def test_an_unexpected_fault_answers_json_with_the_headers_and_a_request_id(
        db_url: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """A bug of ours (here: the snapshot raising) answers 500 as JSON with the security
    headers and the id under which the log holds it, once."""
    app = create_app(config_for(db_url))
    with TestClient(app, raise_server_exceptions=False) as c:
        g = new_game(c)
        wait_for_human(c, g["id"], g["token"])

        def broken(*_args: object, **_kw: object) -> None:
            raise ZeroDivisionError("a planted fault")

        monkeypatch.setattr(app.state.games, "snapshot", broken)
        r = c.get(f"/api/games/{g['id']}", headers={**auth(g["token"]),
                                                      "X-Request-Id": "probe-0123456789"})
    assert r.status_code == 500
    assert r.json()["error"] == "internal" and "probe-0123456789" in r.json()["message"]
    assert has_security_headers(r) and r.headers["x-request-id"] == "probe-0123456789"
    logged = [rec for rec in caplog.records if "probe-0123456789" in rec.getMessage()]
    assert len(logged) == 1 and logged[0].exc_info is not None


# -- takeback offered exactly when accepted (R30) ------------------------------------------------


def test_r30_takeback_is_offered_exactly_when_it_would_be_accepted(client: TestClient) -> None:
    """At every decision of several casual games (the computer's first decisions included),
    the table's offer agrees with what the takeback request answers."""
    for seed in range(6):
        g = new_game(client, seed=seed, max_turns=4)
        gid, token = g["id"], g["token"]
        snap = wait_for_human(client, gid, token)
        rng = random.Random(seed)
        for _ in range(8):
            if snap["takeback"]:
                break
            r = client.post(f"/api/games/{gid}/takeback", json={"version": snap["version"]},
                            headers=auth(token))
            assert r.status_code == 409, r.text
            if snap["status"] == "over":
                break
            r = client.post(f"/api/games/{gid}/actions",
                            json={"action": rng.choice(snap["view"]["legal"]),
                                  "version": snap["version"]}, headers=auth(token))
            assert r.status_code == 200, r.text
            snap = wait_for_human(client, gid, token)
        assert snap["takeback"], "a human decision was made: take back is offered"
        r = client.post(f"/api/games/{gid}/takeback", json={"version": snap["version"]},
                        headers=auth(token))
        assert r.status_code == 200, r.text


# -- the analyses' queue --------------------------------------------------------------------------


@pytest.mark.slow
def test_the_analysis_queue_is_bounded_and_says_busy(db_url: str) -> None:
    with TestClient(create_app(config_for(db_url, analysis_queue=1,
                                          analysis_iterations=4000))) as c:
        over = []
        for seed in (1, 2):
            g = new_game(c, seed=seed, max_turns=4)
            play_out(c, g["id"], g["token"], seed=seed)
            over.append(g)
        first = c.post(f"/api/games/{over[0]['id']}/analysis", json={},
                       headers=auth(over[0]["token"]))
        assert first.status_code == 202, first.text
        assert first.json()["status"] == "running"  # marked so before its work starts
        r = c.post(f"/api/games/{over[1]['id']}/analysis", json={},
                   headers=auth(over[1]["token"]))
        assert r.status_code == 503, r.text
        assert r.json()["error"] == "analyses_busy" and r.headers["retry-after"] == "60"
