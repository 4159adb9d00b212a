"""The research extra stays optional: nothing outside parlor/research imports it, or its
libraries (OpenSpiel, PettingZoo, Gymnasium, NumPy). parlor/training (`parlor train`, the
`train` extra) may import NumPy, which it needs to fit the learned evaluation, and nothing
else of the research extra."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PARLOR = Path(__file__).resolve().parents[2] / "parlor"
EXTRA = ("parlor.research", "pyspiel", "open_spiel", "pettingzoo", "gymnasium", "numpy")


@pytest.mark.slow
def test_the_core_never_imports_the_research_extra() -> None:
    offenders = []
    for path in PARLOR.rglob("*.py"):
        parts = path.relative_to(PARLOR).parts
        if "research" in parts:
            continue
        allowed = ("numpy",) if parts[0] == "training" else ()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            offenders += [f"{path}:{node.lineno} {n}" for n in names
                          if (n.split(".")[0] in EXTRA and n.split(".")[0] not in allowed)
                          or n.startswith("parlor.research")]
    assert offenders == []
