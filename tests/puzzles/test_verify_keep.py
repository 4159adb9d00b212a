"""`parlor puzzles verify --keep FILE` writes exactly the puzzles that agree, numbered p0001
on, in the set's order: how the shipped set is made from the mined one (docs/puzzles.md)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from parlor.puzzles import command
from parlor.puzzles.model import EXAMPLE, load_puzzles
from parlor.puzzles.verify import Thresholds

QUICK = Thresholds(iters=300, margin=0.0, hands=3, hand_iters=60, agree=0.5)


def test_keep_writes_the_agreeing_puzzles_renumbered(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(command, "VERIFY", QUICK)  # the budget, not the logic, is cut
    bad = EXAMPLE.text().replace('"carry QH 1:9D"', '"done"').replace('"p0000"', '"p0001"')
    mined = tmp_path / "mined.jsonl"
    mined.write_text(bad + "\n" + EXAMPLE.text().replace('"p0000"', '"p0002"') + "\n")
    kept = tmp_path / "kept.jsonl"
    args = argparse.Namespace(file=str(mined), sample=10, seed=7, workers=1, keep=str(kept))
    command.cmd_verify(args)
    said = capsys.readouterr().out
    agreed = [pid for pid in ("p0001", "p0002") if f"{pid}: agrees" in said]
    assert len(agreed) + said.count("DISAGREES") == 2
    lines = {"p0001": ("done",), "p0002": EXAMPLE.line}
    kept_now = load_puzzles(kept.read_text())
    assert [p.id for p in kept_now] == [f"p{i:04d}" for i in range(1, len(agreed) + 1)]
    assert [p.line for p in kept_now] == [lines[pid] for pid in agreed]
