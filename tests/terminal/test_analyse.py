"""``parlor analyse RECORD``: the analysis in the terminal, and a clear error for a record
that does not replay."""

from __future__ import annotations

from pathlib import Path

import pytest

from parlor.ai.analysis import analyse
from parlor.cli import main
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.notation import record
from parlor.terminal.analyse import line


def a_record() -> str:
    s = new_game(2)
    for i in range(30):
        legal = legal_actions(s)
        apply(s, legal[i % len(legal)])
    return record(s)


def test_parlor_analyse_prints_each_decision_and_the_marks(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.txt"
    path.write_text(a_record())
    assert main(["analyse", str(path), "--iterations", "8", "--seed", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    expected = analyse(path.read_text(), 0, seed=2, iterations=8)
    assert out[0].startswith(f"Analysis of Rlr 1's {len(expected)} decisions")
    assert "blunder 20+ points" in out[0]
    assert out[1:-1] == [line(d) for d in expected]
    assert out[-1].endswith("inaccuracies") or out[-1].endswith("inaccuracy")


def test_a_record_that_does_not_replay_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("# Parlor Magic game record\nsettings: max_turns=200\nseed: 1\nattack KS\n")
    assert main(["analyse", str(path)]) == 2
    assert "not a record that replays" in capsys.readouterr().err
    assert main(["analyse", str(tmp_path / "missing.txt")]) == 2
