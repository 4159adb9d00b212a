"""The research extra stays optional: nothing outside parlor/research imports it, or its
libraries (OpenSpiel, PettingZoo, Gymnasium, NumPy)."""

from __future__ import annotations

import ast
from pathlib import Path

PARLOR = Path(__file__).resolve().parents[2] / "parlor"
EXTRA = ("parlor.research", "pyspiel", "open_spiel", "pettingzoo", "gymnasium", "numpy")


def test_the_core_never_imports_the_research_extra() -> None:
    offenders = []
    for path in PARLOR.rglob("*.py"):
        if "research" in path.relative_to(PARLOR).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            offenders += [f"{path}:{node.lineno} {n}" for n in names
                          if n.split(".")[0] in EXTRA or n.startswith("parlor.research")]
    assert offenders == []
