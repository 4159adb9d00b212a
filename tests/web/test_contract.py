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
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .ui import Server

HERE = Path(__file__).resolve().parent
CONFIG = HERE / "schemathesis.toml"
SEED = os.environ.get("PARLOR_CONTRACT_SEED", "39")
#: Test cases per operation and phase: enough for every phase to reach each route's
#: refusals, few enough that both runs take well under two minutes.
EXAMPLES = "12"


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
