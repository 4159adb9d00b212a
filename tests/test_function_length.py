"""No function in ``parlor.rules`` or ``parlor.web`` is over 60 lines (issue 40) unless its
docstring says why it must be longer, in a sentence starting "Longer than 60 lines because".

A long function is where a reader loses the thread; splitting it into named steps is the
usual cure. Where a split would cost something real (a hot path measured slower, say), the
docstring says so, and this test holds it to saying so.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PARLOR = Path(__file__).resolve().parent.parent / "parlor"
CHECKED = ("rules", "web")
MAX_LINES = 60
REASON = "Longer than 60 lines because"

#: Long functions not yet split nor given their reason, as ``path:qualified name``. Each
#: entry is a debt: the test fails once the function is short or says why (so the entry
#: goes), and a new long function does not get in here unnoticed.
KNOWN: frozenset[str] = frozenset()


def long_functions(tree: ast.Module) -> list[tuple[str, int, int, str | None]]:
    """Every function over :data:`MAX_LINES` lines: (qualified name, first line, lines,
    docstring), methods named by their class and nested functions by their parent."""
    found = []

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = prefix + child.name
                if not isinstance(child, ast.ClassDef):
                    assert child.end_lineno is not None
                    lines = child.end_lineno - child.lineno + 1
                    if lines > MAX_LINES:
                        found.append((name, child.lineno, lines, ast.get_docstring(child)))
                walk(child, name + ".")
            else:
                walk(child, prefix)

    walk(tree, "")
    return found


FILES = sorted(p for part in CHECKED for p in (PARLOR / part).rglob("*.py"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(PARLOR.parent)))
def test_no_function_over_60_lines_without_its_reason(path: Path) -> None:
    where = str(path.relative_to(PARLOR.parent))
    tree = ast.parse(path.read_text(encoding="utf-8"))
    unexplained = [f"{where}:{name} (line {line}): {lines} lines"
                   for name, line, lines, doc in long_functions(tree)
                   if REASON not in (doc or "") and f"{where}:{name}" not in KNOWN]
    assert not unexplained, (
        f"split these into named steps, or say in the docstring '{REASON} ...': "
        + "; ".join(unexplained))


def test_the_known_long_functions_are_still_long_and_unexplained() -> None:
    """An entry of :data:`KNOWN` goes once its function is split or explained."""
    still = set()
    for entry in KNOWN:
        where = entry.partition(":")[0]
        tree = ast.parse((PARLOR.parent / where).read_text(encoding="utf-8"))
        still |= {f"{where}:{n}" for n, _, _, doc in long_functions(tree)
                  if REASON not in (doc or "")}
    assert not KNOWN - still, f"drop from KNOWN: {sorted(KNOWN - still)}"


def test_a_long_function_fails_unless_its_docstring_says_why() -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_LINES))
    bare = ast.parse(f"def f() -> None:\n    '''Short.'''\n{body}\n")
    told = ast.parse(f"def f() -> None:\n    '''{REASON} it is a table.'''\n{body}\n")
    short = ast.parse("class C:\n    def f(self) -> None:\n        pass\n")
    assert [(n, lines) for n, _, lines, _ in long_functions(bare)] == [("f", MAX_LINES + 2)]
    assert REASON in (long_functions(told)[0][3] or "")
    assert long_functions(short) == []
