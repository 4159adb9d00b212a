"""The rules engine is a pure library: ``parlor/rules`` imports no other layer and does no I/O.

Every module under ``parlor/rules/`` is parsed (not imported) and its imports checked: nothing
from ``parlor.ai``, ``parlor.store``, ``parlor.web`` or ``parlor.cli``, no I/O, web or database
library, and no module-level ``random`` functions (the engine's randomness comes from a seeded
``random.Random`` it is given or creates, so games replay).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parent.parent / "parlor" / "rules"
MODULES = sorted(RULES.rglob("*.py"))

FORBIDDEN_LAYERS = ("parlor.ai", "parlor.store", "parlor.web", "parlor.cli", "parlor.terminal",
                    "parlor.present", "parlor.research")
FORBIDDEN_LIBRARIES = frozenset(
    {
        "socket",
        "http",
        "urllib",
        "requests",
        "httpx",
        "fastapi",
        "starlette",
        "sqlalchemy",
        "sqlite3",
        "asyncio",
        "os",
        "subprocess",
        "io",
        "pathlib",
        "shutil",
        "tempfile",
    }
)
#: Builtins that read or write the outside world, or import by name behind the checks' back.
FORBIDDEN_BUILTINS = frozenset({"open", "input", "print", "__import__"})


def module_name(path: Path) -> str:
    parts = list(path.relative_to(RULES.parent.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def package_of(path: Path) -> str:
    name = module_name(path)
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def imported_modules(path: Path, tree: ast.AST) -> list[tuple[int, str]]:
    """Every module the file imports, with relative imports resolved: ``(line, name)``."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package_of(path).split(".")
                base = base[: len(base) - (node.level - 1)]
                prefix = ".".join(base)
                if node.module:
                    found.append((node.lineno, f"{prefix}.{node.module}"))
                else:
                    found.extend((node.lineno, f"{prefix}.{a.name}") for a in node.names)
            elif node.module:
                found.append((node.lineno, node.module))
                # ``from parlor import web`` names a layer through its package.
                found.extend((node.lineno, f"{node.module}.{a.name}") for a in node.names)
    return found


def forbidden_import(name: str) -> bool:
    top = name.partition(".")[0]
    if top in FORBIDDEN_LIBRARIES:
        return True
    return any(name == layer or name.startswith(layer + ".") for layer in FORBIDDEN_LAYERS)


def random_misuse(tree: ast.AST) -> list[str]:
    """Uses of the ``random`` module other than the ``random.Random`` class."""
    aliases: set[str] = set()
    problems: list[str] = []
    nodes = list(ast.walk(tree))
    for node in nodes:
        if isinstance(node, ast.Import):
            aliases.update(a.asname or a.name for a in node.names if a.name == "random")
        elif isinstance(node, ast.ImportFrom) and node.module == "random" and not node.level:
            problems.extend(
                f"line {node.lineno}: from random import {a.name}"
                for a in node.names
                if a.name != "Random"
            )
    bases = {id(n.value) for n in nodes if isinstance(n, ast.Attribute)}
    for node in nodes:
        if not (isinstance(node, ast.Name) and node.id in aliases):
            continue
        if id(node) not in bases:
            problems.append(f"line {node.lineno}: the random module used as a value")
    for node in nodes:
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in aliases
            and node.attr != "Random"
        ):
            problems.append(f"line {node.lineno}: {node.value.id}.{node.attr}")
    return problems


def parse(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def test_rules_modules_are_found() -> None:
    names = {p.name for p in MODULES}
    assert {"__init__.py", "cards.py", "ranking.py"} <= names


@pytest.mark.parametrize("path", MODULES, ids=lambda p: module_name(p))
def test_rules_module_imports_no_other_layer_and_no_io(path: Path) -> None:
    bad = [
        f"line {line}: {name}"
        for line, name in imported_modules(path, parse(path))
        if forbidden_import(name)
    ]
    assert not bad, f"{module_name(path)} must stay pure: {bad}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: module_name(p))
def test_rules_module_uses_only_seeded_randomness(path: Path) -> None:
    problems = random_misuse(parse(path))
    assert not problems, f"{module_name(path)}: use a seeded random.Random, not {problems}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: module_name(p))
def test_rules_module_calls_no_io_builtins(path: Path) -> None:
    calls = [
        f"line {node.lineno}: {node.func.id}()"
        for node in ast.walk(parse(path))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in FORBIDDEN_BUILTINS
    ]
    assert not calls, f"{module_name(path)} must do no I/O: {calls}"


# --- The checker checks: each rule above catches what it is meant to -----------------------------

FAKE = RULES / "engine.py"


@pytest.mark.parametrize(
    "source",
    [
        "import os",
        "import os.path",
        "from os import path",
        "import sqlite3 as db",
        "from urllib.request import urlopen",
        "import parlor.web",
        "from parlor.ai import bot",
        "from parlor import store",
        "from .. import cli",
        "from ..web.app import app",
    ],
)
def test_checker_catches_forbidden_imports(source: str) -> None:
    names = [n for _, n in imported_modules(FAKE, ast.parse(source))]
    assert any(forbidden_import(n) for n in names), (source, names)


@pytest.mark.parametrize(
    "source",
    [
        "from __future__ import annotations",
        "import enum",
        "from dataclasses import dataclass",
        "from parlor.rules.cards import Card",
        "from .cards import Card",
        "from . import ranking",
        "from parlor import rules",
        "import random",
    ],
)
def test_checker_allows_pure_imports(source: str) -> None:
    names = [n for _, n in imported_modules(FAKE, ast.parse(source))]
    assert not any(forbidden_import(n) for n in names), (source, names)


@pytest.mark.parametrize(
    "source",
    [
        "import random\nrandom.shuffle(x)",
        "import random as r\nr.randint(1, 6)",
        "from random import shuffle",
        "import random\nf(random)",
        "import random\nrng = random.Random()\nrandom.seed(1)",
    ],
)
def test_checker_catches_module_level_random(source: str) -> None:
    assert random_misuse(ast.parse(source))


@pytest.mark.parametrize(
    "source",
    [
        "import random\nrng = random.Random(seed)\nrng.shuffle(cards)",
        "from random import Random\nrng = Random(7)",
        "import random\ndef f(rng: random.Random) -> None: ...",
    ],
)
def test_checker_allows_seeded_random(source: str) -> None:
    assert not random_misuse(ast.parse(source))
