"""Nothing leaves the server but the human's view: every reply of whole games is checked
against ``view(state, human)`` and ``Event.text_for(human)`` at the same version."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from parlor.present.prose import AUTOMATIC, prose
from parlor.present.whynot import POINT_PHASES
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.state import card_text
from parlor.rules.view import view
from parlor.web.games import Games, view_payload, watch_key

from .helpers import new_game as start_game
from .helpers import wait_for_human

EXTRA_KEYS = {"id", "kind", "version", "level", "settings", "status", "you", "seed",
              "thinking", "your_turn", "log_total", "thinking_now", "failure", "task",
              "result_text", "practice", "costs", "why_not", "coach", "takeback", "takebacks",
              "choices", "forecast"}


def check_snapshot(games: Games, snap: dict[str, Any]) -> bool:
    """True if checked (False when the game moved on before we could compare)."""
    live = games.get(snap["id"])
    with live.lock:
        if live.row.version != snap["version"]:
            return False
        v = view(live.state, live.human)
        assert snap["view"] == json.loads(json.dumps(view_payload(v)))
        start = snap["log"][0]["n"] if snap["log"] else len(v.log)
        assert [e["notation"] for e in snap["log"]] == list(v.log[start:])
        events = live.state.log or []
        # prose for the reader, from the events; a forced decision says it was automatic
        # (issue 12)
        assert [e["text"] for e in snap["log"]] == [
            prose(e, live.human, live.human) for e in events[start:]]
        assert all(AUTOMATIC in e["text"] for e in snap["log"] if events[e["n"]].automatic)
        for e in snap["log"]:
            assert e["kind"] == events[e["n"]].kind and e["rule"] == events[e["n"]].rule
        assert set(snap) - {"view", "log"} <= EXTRA_KEYS
        # the learning aids speak of the human's own cards and legal actions only
        hand = set(v.sides[live.human].hand or ())
        assert set(snap["costs"]) <= hand | set(v.drawn or ())
        mine = f"{live.human + 1}:"
        # and, while the human hands out an attacker's damage or bonus points, the opposing
        # Cres on the table it could give them to (public cards: parlor.present.whynot)
        q = live.computer
        theirs = ({f"{q + 1}:{card_text(c)}" for c in live.state.field[q]}
                  if live.state.phase in POINT_PHASES else set())
        assert all(k.startswith(("h:", mine)) or k in theirs for k in snap["why_not"])
        assert set(snap["coach"]) <= set(v.legal)
        assert set(snap["forecast"]) <= set(v.legal)
        assert [c["text"] for c in snap["choices"]] == list(v.legal)
        if snap["status"] == "live":
            assert snap["seed"] is None
        assert snap["view"]["sides"][live.computer]["hand"] is None
    return True


@pytest.mark.slow
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
            assert games.apply_computer(live, job.version, rng.choice(job.legal),
                                        takebacks=job.takebacks)


@pytest.mark.slow
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


def hidden_cards(s: Any, q: int) -> set[str]:
    """The cards of Rlr ``q`` a spectator may not know: the Hand, the Draw pile, the drawn
    cards and the Recycle cards that are not face up (R30)."""
    from parlor.rules.state import card_text

    cards = [*s.hand[q], *s.draw[q], *(s.drawn if s.phasing == q else [])]
    cards += [c for c in s.recycle[q] if c not in s.public_recycle[q]]
    return {card_text(c) for c in cards}


def test_a_spectator_sees_public_information_only(client: TestClient) -> None:
    """R30: the spectator link shows each side as the other seat's view shows it: no Hand, no
    Draw order, no drawn card, no decision, only the public log sentences."""
    games: Games = client.app.state.games  # type: ignore[attr-defined]
    g = start_game(client, seed=5, max_turns=12)
    gid, token = g["id"], g["token"]
    page = client.get(f"/g/{gid}").text
    live = games.get(gid)
    key = watch_key(live.token_hash)
    assert f"/watch/{gid}?k={key}" in page
    assert token not in key and key not in page.split("snapshot")[-1]  # not in the JSON
    rng = random.Random(5)
    snap = wait_for_human(client, gid, token)
    spectator = TestClient(client.app)  # another browser: no cookie, no token
    assert spectator.get(f"/api/watch/{gid}?k=wrong").status_code == 403
    assert spectator.get(f"/api/games/{gid}").status_code in (401, 403)
    seen = 0
    while snap["status"] == "live":
        w = spectator.get(f"/api/watch/{gid}", params={"k": key}).json()
        with live.lock:
            if w["version"] == live.row.version:
                text = json.dumps(w["view"]) + json.dumps([e["notation"] for e in w["log"]])
                assert all(side["hand"] is None for side in w["view"]["sides"])
                assert w["view"]["drawn"] is None and w["view"]["legal"] == []
                whole = json.dumps(w["view"])
                leaked = {c for q in (0, 1) for c in hidden_cards(live.state, q)
                          if f'"{c}"' in json.dumps(w["view"]["sides"][q])
                          or f'"{q + 1}:{c}"' in whole}
                assert not leaked, leaked
                events = live.state.log or []
                assert [e["notation"] for e in w["log"]] == [e.text_for(None) for e in events]
                assert "draw_count" in text
                for p in (0, 1):
                    assert w["view"]["sides"][p] == json.loads(json.dumps(
                        view_payload(view(live.state, 1 - p))))["sides"][p]
                seen += 1
        r = client.post(f"/api/games/{gid}/actions",
                        json={"action": rng.choice(snap["view"]["legal"]),
                              "version": snap["version"]})
        assert r.status_code == 200
        snap = wait_for_human(client, gid, token)
    assert seen > 5
    assert "Hand" in spectator.get(f"/watch/{gid}", params={"k": key}).text
