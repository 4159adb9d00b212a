"""bench/paired.py (issue 46): two matches compared deal by deal, the deal being its seed and
its seating."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from .scripts import BENCH, load_script


@pytest.fixture(scope="module")
def paired() -> ModuleType:
    return load_script(BENCH / "paired.py", "bench_paired")


def write(path: Path, a: str, b: str, games: list[tuple[int, int, float]]) -> Path:
    rows: list[dict[str, Any]] = [dict(a=a, b=b, index=i, seed=seed, score_a=s, turns=20)
                                  for seed, i, s in games]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_games_pair_by_deal_and_seating_and_the_rest_are_counted(
        paired: ModuleType, tmp_path: Path) -> None:
    # Seed 7 at index 0 and seed 7 at index 1 are different games (the seats swap).
    first = write(tmp_path / "a.jsonl", "x", "greedy",
                  [(5, 0, 1.0), (6, 1, 0.0), (7, 0, 0.5), (8, 1, 1.0)])
    second = write(tmp_path / "b.jsonl", "y", "greedy",
                   [(5, 0, 1.0), (6, 1, 1.0), (7, 1, 0.0), (8, 1, 0.0), (9, 0, 1.0)])
    p = paired.pair(paired.load(first), paired.load(second))
    assert p.keys == [(5, 0), (6, 1), (8, 1)]
    assert p.unmatched == 3  # (7, 0) only in the first; (7, 1) and (9, 0) only in the second
    assert (p.better(), p.worse()) == (1, 1)
    assert p.score(p.first) == 2.0 and p.score(p.second) == 2.0


def test_the_mean_difference_and_its_interval_are_those_of_the_paired_differences(
        paired: ModuleType, tmp_path: Path) -> None:
    # Differences 0, +1, -1, +1: mean 0.25, sample variance (0.0625 + 0.5625 * 2 + 1.5625) / 3
    # = 0.9167, standard error sqrt(0.9167 / 4) = 0.4787, half-width 1.96 * that = 0.9383.
    first = write(tmp_path / "a.jsonl", "x", "greedy",
                  [(1, 0, 1.0), (2, 1, 0.0), (3, 0, 1.0), (4, 1, 0.0)])
    second = write(tmp_path / "b.jsonl", "y", "greedy",
                   [(1, 0, 1.0), (2, 1, 1.0), (3, 0, 0.0), (4, 1, 1.0)])
    mean, lo, hi = paired.pair(paired.load(first), paired.load(second)).mean_difference()
    assert mean == pytest.approx(0.25)
    assert (lo, hi) == (pytest.approx(0.25 - 0.9383, abs=1e-4),
                        pytest.approx(0.25 + 0.9383, abs=1e-4))
    text = paired.report(paired.pair(paired.load(first), paired.load(second)))
    assert "the second better on 2 deals, worse on 1: +25.0 points a game" in text


def test_different_opponents_two_pairings_or_a_deal_played_twice_are_refused(
        paired: ModuleType, tmp_path: Path) -> None:
    x = paired.load(write(tmp_path / "x.jsonl", "x", "greedy", [(1, 0, 1.0)]))
    y = paired.load(write(tmp_path / "y.jsonl", "y", "strong", [(1, 0, 1.0)]))
    with pytest.raises(ValueError, match="different opponents"):
        paired.pair(x, y)
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text((tmp_path / "x.jsonl").read_text() + (tmp_path / "y.jsonl").read_text())
    with pytest.raises(ValueError, match="2 pairings"):
        paired.load(mixed)
    twice = write(tmp_path / "twice.jsonl", "x", "greedy", [(1, 0, 1.0), (1, 2, 0.0)])
    with pytest.raises(ValueError, match="played twice"):
        paired.load(twice)
