"""The layers of the package: every module is imported, and what it imports (at the top, in a
function, or for type checking only) must come from the layers below it.

* ``parlor.rules`` imports nothing else of parlor;
* ``parlor.ai`` only ``parlor.rules``; ``parlor.present`` and ``parlor.learn`` only
  ``parlor.rules``;
* a front-end (``parlor.web``, ``parlor.terminal``) never imports another front-end;
* ``parlor.cli`` only dispatches to the front-ends.

A package or top-level module not listed in :data:`LAYERS` fails the test: say where it sits
before it is used.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

PARLOR = Path(__file__).resolve().parent.parent / "parlor"

#: Each layer and the layers it may import (besides itself). The top package ``parlor`` holds
#: only ``__version__`` and is importable by all.
LAYERS: dict[str, frozenset[str]] = {
    "parlor": frozenset(),
    "parlor.rules": frozenset(),
    "parlor.ai": frozenset({"parlor.rules"}),
    "parlor.present": frozenset({"parlor.rules"}),
    "parlor.learn": frozenset({"parlor.rules"}),
    # puzzles mined from games by the computer's search (issue 44); Ray when asked
    "parlor.puzzles": frozenset({"parlor.rules", "parlor.ai", "parlor.cluster"}),
    "parlor.settings": frozenset(),  # numbers from the environment, refused when unreadable
    "parlor.store": frozenset({"parlor.rules", "parlor.settings"}),
    # render_mode="human" prints the terminal's picture of the spread (parlor.terminal.spread)
    "parlor.research": frozenset({"parlor.rules", "parlor.ai", "parlor.terminal"}),
    "parlor.web": frozenset({"parlor.rules", "parlor.ai", "parlor.present", "parlor.store",
                             "parlor.learn", "parlor.puzzles", "parlor.settings"}),
    "parlor.terminal": frozenset({"parlor.rules", "parlor.ai", "parlor.present",
                                  "parlor.cluster", "parlor.learn", "parlor.puzzles"}),
    "parlor.cluster": frozenset(),  # runs jobs on Ray (the cluster extra); no game code
    "parlor.build": frozenset(),  # which build runs: looks at files, imports nothing
    # self-play data and the fit of the learned evaluation (numpy: the train extra)
    "parlor.training": frozenset({"parlor.rules", "parlor.ai"}),
    "parlor.cli": frozenset({"parlor.build", "parlor.terminal", "parlor.web",
                             "parlor.training", "parlor.puzzles", "parlor.settings"}),
}
FRONT_ENDS = ("parlor.web", "parlor.terminal")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PARLOR.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = sorted(module_name(p) for p in PARLOR.rglob("*.py"))


def layer_of(name: str) -> str | None:
    """The layer a module belongs to: the longest listed prefix (``parlor`` itself only for
    the top package)."""
    if name == "parlor":
        return "parlor"
    found = [layer for layer in LAYERS if layer != "parlor"
             and (name == layer or name.startswith(layer + "."))]
    return max(found, key=len) if found else None


def source_of(name: str) -> tuple[ast.Module, str]:
    """A module's syntax tree and the package its relative imports start from."""
    path = PARLOR.parent / (name.replace(".", "/") + ".py")
    package = name.rpartition(".")[0]
    if not path.exists():
        path = PARLOR.parent / name.replace(".", "/") / "__init__.py"
        package = name
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path)), package


def parlor_imports(name: str) -> list[tuple[int, str]]:
    """Every parlor module ``name``'s source imports, relative imports resolved."""
    tree, package = source_of(name)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join([*parts, *([base] if base else [])])
            found.append((node.lineno, base))
            # ``from parlor import web`` names a layer through its package
            found += [(node.lineno, f"{base}.{a.name}") for a in node.names
                      if f"{base}.{a.name}" in MODULES]
    return [(line, n) for line, n in found if n == "parlor" or n.startswith("parlor.")]


def test_every_module_is_in_a_known_layer() -> None:
    unknown = sorted({m for m in MODULES if layer_of(m) is None})
    assert not unknown, (
        f"modules outside the known layers: {', '.join(unknown)}. Add their package to "
        "LAYERS in tests/test_layers.py with the layers it may import (and to the layout in "
        "README.md and parlor/__init__.py)")


@pytest.mark.parametrize("name", MODULES)
def test_module_imports_only_its_own_layer_and_those_below(name: str) -> None:
    if not name.endswith(".__main__"):  # a __main__ runs its command when imported
        importlib.import_module(name)  # every module imports cleanly on its own
    layer = layer_of(name)
    if layer is None:
        pytest.fail(f"{name} is in no known layer (see test_every_module_is_in_a_known_layer)")
    allowed = LAYERS[layer] | {layer, "parlor"}
    wrong = [f"line {line}: {imported} (layer {layer_of(imported)})"
             for line, imported in parlor_imports(name)
             if imported != "parlor" and layer_of(imported) not in allowed]
    assert not wrong, f"{name} ({layer}) may import only {sorted(allowed)}: " + "; ".join(wrong)


def test_the_rules_import_nothing_else_of_parlor() -> None:
    assert LAYERS["parlor.rules"] == frozenset()


def test_the_ai_and_the_sentences_sit_on_the_rules_alone() -> None:
    assert LAYERS["parlor.ai"] == LAYERS["parlor.present"] == frozenset({"parlor.rules"})


def test_no_front_end_imports_another() -> None:
    for front in FRONT_ENDS:
        assert not LAYERS[front] & set(FRONT_ENDS), front


def test_an_unlisted_package_belongs_to_no_layer() -> None:
    assert layer_of("parlor.newthing.mod") is None and layer_of("parlor.clix") is None
    assert layer_of("parlor.terminal.play") == "parlor.terminal"
    assert layer_of("parlor.cli") == "parlor.cli"


#: Names that import a module by name, ask whether one is there, or catch its absence.
FAULT_HIDERS = frozenset({"import_module", "__import__", "find_spec", "ImportError",
                          "ModuleNotFoundError"})


def fault_hiders(tree: ast.AST) -> list[str]:
    """Each use of :data:`FAULT_HIDERS` (as a name or an attribute), with its line."""
    found = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and n.id in FAULT_HIDERS:
            found.append(f"line {n.lineno}: {n.id}")
        elif isinstance(n, ast.Attribute) and n.attr in FAULT_HIDERS:
            found.append(f"line {n.lineno}: {n.attr}")
        elif isinstance(n, ast.ImportFrom):
            found += [f"line {n.lineno}: {a.name}" for a in n.names if a.name in FAULT_HIDERS]
    return found


@pytest.mark.parametrize("name", MODULES)
def test_no_module_imports_only_if_present(name: str) -> None:
    """Every dependency is imported plainly: a missing or broken module is an error at once,
    never a fallback behind ``importlib.import_module``, ``find_spec`` or ``except
    ImportError``."""
    found = fault_hiders(source_of(name)[0])
    assert not found, f"{name} imports only if present: {'; '.join(found)}"


def test_the_fault_hiders_are_found_and_nothing_else() -> None:
    hiding = ("import importlib\nm = importlib.import_module('parlor.ai.levels')\n"
              "try:\n    import readline\nexcept ImportError:\n    pass\n"
              "from importlib.util import find_spec\n")
    assert sorted(fault_hiders(ast.parse(hiding))) == [
        "line 2: import_module", "line 5: ImportError", "line 7: find_spec"]
    assert fault_hiders(ast.parse("from importlib.machinery import EXTENSION_SUFFIXES\n")) == []
