"""The calibration of bench/ratings.py (issue 46): its plan alternates nothing away and
interleaves the games, and the file it writes is the ratings file the server reads."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from parlor.ai.levels import LEVEL_NAMES
from parlor.ai.ratings import parse

from .scripts import BENCH, load_script


@pytest.fixture(scope="module")
def ratings() -> ModuleType:
    return load_script(BENCH / "ratings.py", "bench_ratings")


def test_every_pairing_of_the_seven_agents_is_planned(ratings: ModuleType) -> None:
    even = ratings.plan(100, "even")
    assert len(even) == 21 and {n for *_, n in even} == {100}
    thrifty = {(a, b): n for a, b, n in ratings.plan(100, "thrifty")}
    assert thrifty[("expert", "strong")] == 40 and thrifty[("casual", "novice")] == 200


def test_a_stopped_run_has_played_every_pairing_in_proportion(ratings: ModuleType) -> None:
    jobs = ratings.tasks(ratings.plan(100, "thrifty"), 5000)
    searching = [i for i, t in enumerate(jobs) if "@" in t[0] or "@" in t[1]]
    cheap = [i for i, t in enumerate(jobs) if "@" not in t[0] + t[1]]
    top = [i for i, t in enumerate(jobs) if t[:2] == ("expert@iters=2000", "strong@iters=400")]
    assert top[0] < 0.1 * len(jobs)  # the dearest pairing starts at once
    assert sum(i > max(cheap) for i in searching) >= 0.75 * len(searching)  # cheap ones early
    assert len({t[3] + t[2] for t in jobs}) == len(jobs)  # every game its own deal


def game(a: str, b: str, i: int, score: float) -> dict[str, Any]:
    return {"a": a, "b": b, "index": i, "seed": 1000 + i, "score_a": score,
            "searched_a": [0.1], "searched_b": []}


def test_the_file_written_is_the_ratings_file_random_at_1000(ratings: ModuleType) -> None:
    ladder = ["random", "novice", "casual", "intermediate", "greedy", "strong@iters=400",
              "expert@iters=2000"]
    games = [game(hi, lo, i, 1.0 if i % 4 else 0.0)
             for k, lo in enumerate(ladder) for hi in ladder[k + 1:] for i in range(8)]
    doc = ratings.document(games, "python bench/ratings.py --test")
    assert doc["baselines"]["random"]["rating"] == 1000
    found = parse(doc)
    assert sorted(found) == sorted(LEVEL_NAMES)
    assert all(found[lv].rd > 0 for lv in LEVEL_NAMES)
    first = doc["pairings"][0]
    assert first["games"] == 8 and first["score"] == 0.75
    assert doc["cap"]["expert"]["searched"] == 6 * 8
