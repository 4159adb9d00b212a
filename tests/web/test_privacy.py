"""Nothing leaves the server but the human's view: every reply of whole games is checked
against ``view(state, human)`` and ``Event.text_for(human)`` at the same version."""

from __future__ import annotations

import json
import random
from typing import Any

from fastapi.testclient import TestClient

from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.view import view
from parlor.web.games import Games, view_payload

from .helpers import new_game as start_game
from .helpers import wait_for_human

EXTRA_KEYS = {"id", "kind", "version", "level", "settings", "status", "you", "seed",
              "thinking", "your_turn", "log_total", "thinking_now", "failure", "task",
              "practice"}


def check_snapshot(games: Games, snap: dict[str, Any]) -> bool:
    """True if checked (False when the game moved on before we could compare)."""
    live = games.get(snap["id"])
    with live.lock:
        if live.row.version != snap["version"]:
            return False
        v = view(live.state, live.human)
        assert snap["view"] == json.loads(json.dumps(view_payload(v)))
        start = snap["log"][0]["n"] if snap["log"] else len(v.log)
        assert [e["text"] for e in snap["log"]] == list(v.log[start:])
        events = live.state.log or []
        for e in snap["log"]:
            assert e["kind"] == events[e["n"]].kind and e["rule"] == events[e["n"]].rule
        assert set(snap) - {"view", "log"} <= EXTRA_KEYS
        if snap["status"] == "live":
            assert snap["seed"] is None
        assert snap["view"]["sides"][live.computer]["hand"] is None
    return True


def test_every_reply_of_whole_games_is_the_humans_view(client: TestClient) -> None:
    games: Games = client.app.state.games  # type: ignore[attr-defined]
    checked = 0
    for seed in (1, 2, 3):
        g = start_game(client, seed=seed, max_turns=16)
        gid, token = g["id"], g["token"]
        rng = random.Random(seed)
        snap = wait_for_human(client, gid, token)
        while snap["status"] == "live":
            checked += check_snapshot(games, snap)
            if rng.random() < 0.2:
                hint = client.get(f"/api/games/{gid}/hint").json()
                assert hint["action"] in snap["view"]["legal"]
            r = client.post(f"/api/games/{gid}/actions",
                            json={"action": rng.choice(snap["view"]["legal"]),
                                  "version": snap["version"], "log_from": rng.randrange(5)})
            assert r.status_code == 200
            checked += check_snapshot(games, r.json())
            snap = wait_for_human(client, gid, token)
    assert checked > 30


def test_the_computer_thinks_from_its_own_view_only() -> None:
    from parlor.store import GameStore

    games = Games(GameStore("sqlite://"))
    for seed in range(6):
        live, _ = games.create("random", seed)
        rng = random.Random(seed)
        for _ in range(60):
            s = live.state
            if s.is_over:
                break
            job = games.computer_job(live)
            if job is None:
                games.act(live, live.row.version, rng.choice([str(a) for a in legal_actions(s)]))
                continue
            assert job.view == view(s, live.computer)  # equal, log aside (compare=False)
            assert job.view.sides[live.human].hand is None
            assert games.apply_computer(live, job.version, rng.choice(job.legal))


def test_payload_is_to_dict() -> None:
    s = new_game(9)
    rng = random.Random(9)
    for _ in range(400):
        if s.is_over:
            break
        for p in (0, 1):
            v = view(s, p)
            d = v.to_dict()
            del d["log"], d["log_why"]
            assert json.dumps(view_payload(v)) == json.dumps(d)
        apply(s, rng.choice(legal_actions(s)))
