"""Declarations the table assembles before they are final (issue 12): attackers (R8), blockers
(R10), a split (1003.2) and bonus points are previewed without being stored, taken back at will,
and sent whole with the decision that ends them. Forced decisions read as automatic."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient

from parlor.present.prose import AUTOMATIC

from .helpers import new_game, wait_for_human


def auth(token: str) -> dict[str, str]:
    return {"X-Parlor-Token": token}


def _attack_with_two(c: TestClient) -> tuple[dict[str, Any], str, dict[str, Any]]:
    """A game at a decision where the player may declare at least two attackers."""
    g = new_game(c, seed=11, max_turns=60)
    gid, token = g["id"], g["token"]
    rng = random.Random(11)
    snap = wait_for_human(c, gid, token)
    for _ in range(400):
        legal = snap["view"]["legal"]
        if sum(a.startswith("attack ") for a in legal) >= 2:
            return g, token, snap
        plays = [a for a in legal if a.startswith(("play", "keep")) and " tax " not in a]
        bare = [a for a in ("end", "done", "pass") if a in legal]
        action = rng.choice(plays) if plays and rng.random() < 0.9 else (
            bare[0] if bare else rng.choice(legal))
        r = c.post(f"/api/games/{gid}/actions", json={"action": action, "version": snap["version"]},
                   headers=auth(token))
        assert r.status_code == 200, r.text
        snap = wait_for_human(c, gid, token)
        assert snap["status"] == "live", "seed 11 reaches two attackers before the end"
    raise AssertionError("seed 11 never offers two attackers")


def test_R8_declared_attackers_are_previewed_and_nothing_is_stored(client: TestClient) -> None:
    g, token, snap = _attack_with_two(client)
    gid, version = g["id"], snap["version"]
    first, second = [a for a in snap["view"]["legal"] if a.startswith("attack ")][:2]
    r = client.post(f"/api/games/{gid}/preview", json={"actions": [first], "version": version},
                    headers=auth(token))
    assert r.status_code == 200, r.text
    shown = r.json()
    assert shown["staged"] == [first] and shown["version"] == version
    assert f"1:{first.split()[1]}" in shown["view"]["combat"]["attackers"]
    assert first not in shown["view"]["legal"] and second in shown["view"]["legal"]
    assert shown["log"] == []  # nothing happened yet
    # nothing was stored: the game is where it was
    now = client.get(f"/api/games/{gid}", headers=auth(token)).json()
    assert now["version"] == version and now["view"]["legal"] == snap["view"]["legal"]
    # taking it back is sending nothing: the other attacker alone, then done, is committed
    r = client.post(f"/api/games/{gid}/actions",
                    json={"actions": [second, "done"], "version": version}, headers=auth(token))
    assert r.status_code == 200, r.text
    assert r.json()["version"] == version + 2
    texts = [e["notation"] for e in r.json()["log"]]
    assert any(t.endswith(f"attacks with 1:{second.split()[1]}") or second.split()[1] in t
               for t in texts if "attacks with" in t)
    assert not any(first.split()[1] in t for t in texts if "attacks with" in t)


def test_a_declaration_is_committed_whole_or_not_at_all(client: TestClient) -> None:
    g, token, snap = _attack_with_two(client)
    gid, version = g["id"], snap["version"]
    first = next(a for a in snap["view"]["legal"] if a.startswith("attack "))
    r = client.post(f"/api/games/{gid}/actions",
                    json={"actions": [first, first, "done"], "version": version},
                    headers=auth(token))
    assert r.status_code == 422, r.text
    assert "(decision 2 of 3)" in r.json()["message"]
    assert client.get(f"/api/games/{gid}", headers=auth(token)).json()["version"] == version


def test_only_declarations_are_previewed(client: TestClient) -> None:
    g, token, snap = _attack_with_two(client)
    gid, version = g["id"], snap["version"]
    for body in ({"actions": ["end"], "version": version}, {"actions": [], "version": version},
                 {"actions": "attack AS", "version": version}, {"actions": ["attack AS"]}):
        r = client.post(f"/api/games/{gid}/preview", json=body, headers=auth(token))
        assert r.status_code == 400, (body, r.text)
    # "done" is not a declaration: a preview never shows what the computer does next
    r = client.post(f"/api/games/{gid}/preview", json={"actions": ["done"], "version": version},
                    headers=auth(token))
    assert r.status_code == 400
    r = client.post(f"/api/games/{gid}/preview",
                    json={"actions": ["attack AS"], "version": version - 1}, headers=auth(token))
    assert r.status_code == 409


def test_forced_decisions_read_as_automatic_in_the_log(client: TestClient) -> None:
    g = new_game(client, seed=3, max_turns=30, level="random")
    snap = wait_for_human(client, g["id"], g["token"])
    rng = random.Random(3)
    while snap["status"] == "live":
        r = client.post(f"/api/games/{g['id']}/actions",
                        json={"action": rng.choice(snap["view"]["legal"]),
                              "version": snap["version"]}, headers=auth(g["token"]))
        assert r.status_code == 200, r.text
        snap = wait_for_human(client, g["id"], g["token"])
    log = client.get(f"/api/games/{g['id']}", headers=auth(g["token"])).json()["log"]
    forced = [e for e in log if e["automatic"]]
    assert forced, "seed 3 has a turn where a Rlr cannot attack"
    assert all(e["text"].endswith(AUTOMATIC) and AUTOMATIC not in e["notation"] for e in forced)
    assert not any(AUTOMATIC in e["text"] for e in log if not e["automatic"])
