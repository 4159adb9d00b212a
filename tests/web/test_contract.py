"""The JSON API keeps the contract of its OpenAPI document (issue 39): schemathesis, with
every check it has (response schemas and statuses, 405 with Allow, invalid data refused and
valid data accepted...), against a real server (``python -m parlor.web``, as ``parlor serve``
runs), once as an anonymous client and once as the player of a game (its X-Parlor-Token).

The per-operation settings are in tests/web/schemathesis.toml (why each is there). The runs
are bounded by the number of examples per operation; the seed is fixed so that a run can be
repeated (PARLOR_CONTRACT_SEED picks another).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .helpers import new_game, wait_for_human
from .ui import Server

pytestmark = pytest.mark.slow  # `make check` leaves it out: servers in their own processes

HERE = Path(__file__).resolve().parent
CONFIG = HERE / "schemathesis.toml"
SEED = os.environ.get("PARLOR_CONTRACT_SEED", "39")
#: Test cases per operation and phase: enough for every phase to reach each route's
#: refusals, few enough that both runs take well under two minutes.
EXAMPLES = os.environ.get("PARLOR_CONTRACT_EXAMPLES", "12")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("contract") / "games.db").start()
    try:
        yield s
    finally:
        s.stop()


def post(url: str, body: dict[str, Any], token: str = "") -> dict[str, Any]:
    headers = {"content-type": "application/json"}
    if token:
        headers["x-parlor-token"] = token
    req = urllib.request.Request(url, json.dumps(body).encode(), method="POST",
                                 headers=headers)
    with urllib.request.urlopen(req, timeout=60) as r:
        data: dict[str, Any] = json.loads(r.read())
        return data


def schemathesis(server: Server, workdir: Path, *args: str, config: str = "") -> tuple[int, str]:
    """``st run`` on the server's document with every check, ``config`` (TOML) and the
    settings of schemathesis.toml; its exit code and output."""
    toml = workdir / "schemathesis.toml"
    toml.write_text(config + "\n" + CONFIG.read_text())
    cmd = [sys.executable, "-m", "schemathesis.cli", "--config-file", str(toml), "run",
           f"{server.url}/api/openapi.json", "--checks", "all", "--max-examples", EXAMPLES,
           "--seed", SEED, "--workers", "1", "--request-timeout", "60", *args]
    done = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True, timeout=600,
                          env=dict(os.environ, NO_COLOR="1"))
    return done.returncode, done.stdout + done.stderr


def test_an_anonymous_client_gets_what_the_document_promises(server: Server,
                                                             tmp_path: Path) -> None:
    code, out = schemathesis(server, tmp_path)
    assert code == 0, out[-6000:]


def resigned(server: Server) -> dict[str, Any]:
    """A game over at once (its player resigned): its record, replay and analysis answer."""
    game = post(f"{server.url}/api/games", {"level": "random", "seed": 5, "max_turns": 8})
    version = game["snapshot"]["version"]
    while True:  # the computer may move first: resign at the version the table shows
        try:
            post(f"{server.url}/api/games/{game['id']}/actions",
                 {"action": "resign", "version": version}, game["token"])
            return game
        except urllib.error.HTTPError as exc:
            assert exc.code == 409, exc.read()
            version = json.loads(exc.read())["version"]


def test_a_player_gets_what_the_document_promises(server: Server, tmp_path: Path) -> None:
    """As a game's player (its token in X-Parlor-Token, its id in every game address): one
    game in play, where the routes act, take back, hint, hand over..., and one over, whose
    record, replay and analysis answer. ``wait`` stays 0 (a long poll holds its request
    open up to 30 s by design; the anonymous run checks its values)."""
    live = post(f"{server.url}/api/games", {"level": "random", "seed": 3, "max_turns": 30})
    over = resigned(server)

    def player(game: dict[str, Any]) -> str:
        return (f'headers = {{ "X-Parlor-Token" = "{game["token"]}" }}\n'
                f'parameters = {{ "path.game_id" = "{game["id"]}", "query.wait" = 0 }}\n')

    config = (player(live) + '\n[[operations]]\ninclude-path-regex = '
              '"^/api/(games/[^/]+/(record|analysis)|replays/[^/]+)$"\n' + player(over))
    code, out = schemathesis(server, tmp_path, "--include-path-regex", "^/api/(games|replays)/",
                             config=config)
    assert code == 0, out[-6000:]


# -- the document and the refusals it promises, in process ---------------------------------------


def test_the_document_describes_every_api_route_and_no_page(client: TestClient) -> None:
    doc = client.get("/api/openapi.json").json()
    assert doc["paths"] and all(p.startswith("/api/") for p in doc["paths"])
    for path, item in doc["paths"].items():
        for method, op in item.items():
            statuses = set(op["responses"])
            assert "422" not in statuses or path.endswith(("/actions", "/preview", "/analysis")) \
                or path.startswith(("/api/lessons/", "/api/puzzles/")), (method, path)  # the rules
            assert "405" in statuses and all(
                op["responses"][s]["content"]["application/json"]["schema"]
                == {"$ref": "#/components/schemas/ErrorBody"} for s in statuses if s >= "4")
            if method == "post":
                assert op["requestBody"]["required"], path


def test_integer_query_parameters_are_integers(client: TestClient) -> None:
    op = client.get("/api/openapi.json").json()["paths"]["/api/games/{game_id}"]["get"]
    types = {p["name"]: p["schema"] for p in op["parameters"] if p["in"] == "query"}
    assert types["log_from"] == {"type": "integer", "minimum": 0, "maximum": 10**7,
                                 "description": types["log_from"]["description"]}
    assert types["wait"]["type"] == types["after"]["type"] == "integer"


def test_a_method_a_path_does_not_take_is_405_with_allow_before_the_body_is_looked_at(
        client: TestClient) -> None:
    g = new_game(client)
    for method, path, allow in (("PUT", "/api/games", "GET, POST"),
                                ("DELETE", f"/api/games/{g['id']}", "GET"),
                                ("PATCH", f"/api/games/{g['id']}/actions", "POST"),
                                ("OPTIONS", "/api/records", "POST")):
        r = client.request(method, path, content=b"<x/>", headers={"content-type": "text/xml"})
        assert r.status_code == 405 and r.headers["allow"] == allow, (method, path, r.text)
        assert r.json()["error"] == "method_not_allowed"
    r = client.post("/api/games", content=b"<x/>", headers={"content-type": "text/xml"})
    assert r.status_code == 415  # a method the path takes: then the body's type counts


def test_a_log_from_that_is_not_a_position_is_refused_naming_it(client: TestClient) -> None:
    g = new_game(client)
    snap = wait_for_human(client, g["id"], g["token"])
    for log_from in ("3", -1, 2.5, None, True, [1]):
        r = client.post(f"/api/games/{g['id']}/actions",
                        json={"action": snap["view"]["legal"][0], "version": snap["version"],
                              "log_from": log_from})
        assert r.status_code == 400 and "log_from" in r.json()["message"], (log_from, r.text)
    r = client.get(f"/api/games/{g['id']}", params={"log_from": ""})
    assert r.status_code == 400 and "log_from" in r.json()["message"]


def test_a_whole_number_written_with_a_fraction_is_that_number(client: TestClient) -> None:
    """JSON Schema reads 8.0 as the integer 8, and so does the API."""
    r = client.post("/api/games", json={"level": "random", "seed": 7.0, "max_turns": 8.0})
    assert r.status_code == 201, r.text
    r = client.post("/api/games", json={"level": "random", "max_turns": 8.5})
    assert r.status_code == 400 and "max_turns" in r.json()["message"]


def test_a_spectator_and_a_replay_get_the_documented_shapes(client: TestClient) -> None:
    """The replies schemathesis cannot reach without a spectator key or a finished game of
    its own: read against their models (unknown keys allowed, the typed ones checked)."""
    from parlor.web.schemas import ReplayStep, Spectated

    g = new_game(client)
    page = client.get(f"/g/{g['id']}").text
    m = re.search(r'/watch/[\w-]+\?k=([\w-]+)', page)
    assert m, "the game page links to its spectators' view"
    r = client.get(f"/api/watch/{g['id']}", params={"k": m.group(1)})
    assert r.status_code == 200, r.text
    seen = Spectated.model_validate(r.json(), strict=False)
    assert all(side.hand is None for side in seen.view.sides)  # no Hand is public
    snap = wait_for_human(client, g["id"], g["token"])
    r = client.post(f"/api/games/{g['id']}/actions",
                    json={"action": "resign", "version": snap["version"]})
    assert r.status_code == 200, r.text
    r = client.get(f"/api/replays/{g['id']}", params={"step": 1, "seat": 2})
    assert r.status_code == 200, r.text
    assert ReplayStep.model_validate(r.json()).step == 1
