"""examples/maskable_ppo.py runs end to end (a few steps and games: its budget is a benchmark,
not a test)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..scripts import load_script

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "maskable_ppo.py"


@pytest.mark.slow
def test_the_maskable_ppo_example_trains_and_evaluates(capsys: pytest.CaptureFixture[str]) -> None:
    module = load_script(EXAMPLE, "maskable_ppo")
    assert module.main(["--steps", "64", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "trained 64 steps" in out and "of 2" in out
