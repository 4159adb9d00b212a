"""Random request bodies and record texts against the import and action endpoints (issue 13):
never a 5xx, and a 4xx changes nothing (no game stored, the game's move number the same)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlor.web.app import create_app

from .helpers import config_for, new_game, wait_for_human

FACES = ["AS", "9D", "10C", "KH", "QS", "4C", "JH", "2D", "x", "11S"]
VERBS = ["keep", "redraw", "trim", "play", "expel", "pass", "done", "end", "resign", "attack",
         "block", "assign", "bonus", "sally", "ally", "fly"]
NUMBERS = st.one_of(st.integers(min_value=-(2**70), max_value=2**70),
                    st.sampled_from([2**63, 2**63 - 1, -1, 0, 2**31]))

action_line = st.builds(
    lambda verb, words: " ".join([verb, *words]),
    st.sampled_from(VERBS),
    st.lists(st.one_of(st.sampled_from([*FACES, "on", "at", "tax", "spend", "SSC", "1:KS",
                                         "2:AH", "-", "3"]),
                       st.text(max_size=6)), max_size=5))
seed_line = st.one_of(NUMBERS.map(lambda n: f"seed: {n}"),
                      st.text(max_size=40).map(lambda t: f"seed: {t}"),
                      st.binary(min_size=0, max_size=40).map(lambda b: f"seed: key-{b.hex()}"))
settings_line = st.lists(st.one_of(
    st.sampled_from(["match_play", "step", "single_draw=1", "single_draw=2", "single_draw=3",
                     "single_draw=-1", "max_turns=0", "max_turns=-3", "max_turns=9" * 9,
                     "colour=red", "=", "max_turns="]),
    NUMBERS.map(lambda n: f"max_turns={n}")), max_size=4).map(
        lambda parts: "settings: " + " ".join(parts))
record_text = st.lists(st.one_of(seed_line, settings_line, action_line, st.text(max_size=30)),
                       max_size=12).map("\n".join)

json_value = st.recursive(
    st.one_of(st.none(), st.booleans(), NUMBERS, st.floats(allow_nan=False),
              st.text(max_size=20)),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.text(max_size=8), inner, max_size=3)),
    max_leaves=8)


def body_for(key: str, text_strategy: st.SearchStrategy[str]) -> st.SearchStrategy[Any]:
    """Request bodies around one field: well-shaped with odd values, or anything at all."""
    return st.one_of(
        st.fixed_dictionaries({key: st.one_of(text_strategy, json_value)},
                              optional={"version": st.one_of(NUMBERS, json_value),
                                        "log_from": json_value}),
        json_value,
        st.binary(max_size=200))


def post(c: TestClient, url: str, body: Any, ctype: str, token: str) -> Any:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    headers = {"X-Parlor-Token": token}
    if ctype:
        headers["content-type"] = ctype
    return c.post(url, content=raw, headers=headers)


CTYPES = st.sampled_from(["application/json", "application/json; charset=utf-8",
                          "text/plain", "application/x-www-form-urlencoded", ""])
FUZZ = settings(max_examples=120, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])


@pytest.mark.slow
def test_random_imports_never_5xx_and_a_4xx_stores_nothing(tmp_path: Path) -> None:
    with TestClient(create_app(config_for(tmp_path / "fuzz.db"))) as c:
        store = c.app.state.games.store  # type: ignore[attr-defined]

        @FUZZ
        @given(body=body_for("record", record_text), ctype=CTYPES)
        def attempt(body: Any, ctype: str) -> None:
            before = store.count()
            r = post(c, "/api/records", body, ctype, "")
            assert r.status_code < 500, r.text
            if r.status_code >= 400:
                assert store.count() == before
                assert r.json()["message"]
            else:
                assert store.count() == before + 1

        attempt()


def test_random_actions_never_5xx_and_a_4xx_changes_nothing(tmp_path: Path) -> None:
    with TestClient(create_app(config_for(tmp_path / "fuzz.db"))) as c:
        game: dict[str, str] = {}

        def fresh() -> None:
            g = new_game(c, max_turns=200)
            game.update(id=g["id"], token=g["token"])
            wait_for_human(c, g["id"], g["token"])

        fresh()

        @FUZZ
        @given(body=body_for("action", st.one_of(action_line, st.text(max_size=30))),
               ctype=CTYPES, use_current=st.booleans())
        def attempt(body: Any, ctype: str, use_current: bool) -> None:
            gid, token = game["id"], game["token"]
            snap = c.get(f"/api/games/{gid}", headers={"X-Parlor-Token": token}).json()
            if use_current and isinstance(body, dict):
                body = {**body, "version": snap["version"]}
            r = post(c, f"/api/games/{gid}/actions", body, ctype, token)
            assert r.status_code < 500, r.text
            after = c.get(f"/api/games/{gid}", headers={"X-Parlor-Token": token}).json()
            if r.status_code >= 400:
                assert r.json()["message"]
                assert after["version"] == snap["version"] and after["view"] == snap["view"]
            if after["status"] == "over":
                fresh()
            elif not after["your_turn"]:
                wait_for_human(c, gid, token)

        attempt()
