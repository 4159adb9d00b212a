"""examples/maskable_ppo.py runs end to end (a few steps and games: its budget is a benchmark,
not a test)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from ..scripts import load_script

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "maskable_ppo.py"


@pytest.mark.slow
def test_the_maskable_ppo_example_trains_and_evaluates(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    """... and leaves nothing behind: no SB3-<time> log folder in the temporary directory."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.delenv("SB3_LOGDIR", raising=False)
    module = load_script(EXAMPLE, "maskable_ppo")
    assert module.main(["--steps", "64", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "trained 64 steps" in out and "of 2" in out
    assert not list(tmp_path.glob("SB3-*"))
