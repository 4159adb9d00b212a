"""The puzzle value: its text form round-trips, a bad one is refused, its line replays."""

from __future__ import annotations

import pytest

from parlor.puzzles.model import EXAMPLE, Puzzle, PuzzleError, load_puzzles


def test_text_round_trips() -> None:
    assert Puzzle.parse(EXAMPLE.text()) == EXAMPLE
    assert load_puzzles(EXAMPLE.text() + "\n# a comment\n\n") == [EXAMPLE]


def test_unknown_goal_and_theme_are_refused() -> None:
    d = EXAMPLE.as_json()
    with pytest.raises(PuzzleError, match="goal"):
        Puzzle.parse(EXAMPLE.text().replace('"best"', '"mate"'))
    d["themes"] = ["fork"]
    with pytest.raises(PuzzleError, match="themes"):
        Puzzle(**{**d, "line": tuple(d["line"]), "themes": ("fork",)})


def test_line_replays_and_names_the_solvers_decisions() -> None:
    states = EXAMPLE.states()
    assert len(states) == len(EXAMPLE.line) + 1
    assert EXAMPLE.solver_moves() == [0]


def test_a_line_that_does_not_replay_names_its_decision() -> None:
    bad = Puzzle.parse(EXAMPLE.text().replace("carry QH 1:9D", "carry QH 1:8D"))
    with pytest.raises(PuzzleError, match="decision 1"):
        bad.states()


def test_the_shipped_set_loads() -> None:
    assert all(isinstance(p, Puzzle) for p in load_puzzles())
