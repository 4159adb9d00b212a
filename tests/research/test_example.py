"""examples/maskable_ppo.py runs end to end (a few steps and games: its budget is a benchmark,
not a test)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "maskable_ppo.py"


@pytest.mark.slow
def test_the_maskable_ppo_example_trains_and_evaluates(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("maskable_ppo", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--steps", "64", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "trained 64 steps" in out and "of 2" in out
