"""The examples of docs/research.md run as written (one from each library)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"
EXAMPLES = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)


def test_the_page_has_an_example_for_each_library() -> None:
    assert [("pyspiel" in x, "env(" in x, "ParlorGymEnv" in x) for x in EXAMPLES] == [
        (True, False, False), (False, True, False), (False, False, True)]


@pytest.mark.parametrize("code", EXAMPLES, ids=["openspiel", "pettingzoo", "gymnasium"])
def test_the_example_runs(code: str, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(code, str(DOC), "exec"), {})
    assert capsys.readouterr().out.strip()
