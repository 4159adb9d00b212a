"""Which build of the engine and the computer players runs: compiled or interpreted.

``make test`` and ``make run`` compile :mod:`parlor.rules` and :mod:`parlor.ai` with mypyc
when the machine has a C compiler (``build_compiled.py``); the extension modules sit beside
the sources and Python imports them first. Without a compiler the same sources run
interpreted. Both play identically (``tests/test_build.py``); ``parlor --version`` says
which one runs, and a compiled module older than its source is reported, never used
silently.

    >>> describe().startswith(("compiled", "interpreted", "mixed", "stale"))
    True
"""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
#: The modules the compiled build compiles (the rest of parlor always runs interpreted).
#: Left interpreted: parlor.ai.agent (mypyc rejects its runtime-checkable Protocol),
#: parlor.ai.match and parlor.ai.failure (mypyc cannot compile their RuntimeError
#: subclasses; they only drive a game or check an answer, and the time is in the agents and
#: the engine they call), and parlor.rules.seeds (its KeyedStream subclasses random.Random,
#: which a native class cannot; it runs once per deal and reshuffle).
COMPILED_PACKAGES = ("rules", "ai")
INTERPRETED = frozenset({"__init__", "agent", "failure", "match", "seeds"})


def compiled_modules() -> list[str]:
    """The dotted names of every module the compiled build compiles."""
    return [f"parlor.{pkg}.{path.stem}"
            for pkg in COMPILED_PACKAGES
            for path in sorted((PACKAGE / pkg).glob("*.py"))
            if path.stem not in INTERPRETED]


def extension_of(module: str) -> Path | None:
    """The extension module the import system takes for ``module`` (it looks for extension
    suffixes before ``.py`` in a package's folder), or None."""
    base = PACKAGE.parent / module.replace(".", "/")
    for suffix in EXTENSION_SUFFIXES:
        path = base.with_name(base.name + suffix)
        if path.exists():
            return path
    return None


def stale_modules() -> list[str]:
    """Compiled modules whose source changed after they were built."""
    out = []
    for module in compiled_modules():
        ext = extension_of(module)
        source = PACKAGE.parent / (module.replace(".", "/") + ".py")
        if ext is not None and source.stat().st_mtime > ext.stat().st_mtime:
            out.append(module)
    return out


def describe() -> str:
    """``compiled (mypyc): parlor.rules, parlor.ai`` or ``interpreted (pure Python)``; a
    mixed or stale build says so and how to rebuild."""
    modules = compiled_modules()
    native = [m for m in modules if extension_of(m) is not None]
    if not native:
        return "interpreted (pure Python)"
    if len(native) < len(modules):
        missing = ", ".join(m for m in modules if m not in native)
        return f"mixed: interpreted {missing} (run `make compiled` or `make pure`)"
    stale = stale_modules()
    if stale:
        return (f"stale compiled build: {', '.join(stale)} changed after the build "
                "(run `make compiled` or `make pure`)")
    return "compiled (mypyc): parlor.rules, parlor.ai"


__all__ = ["compiled_modules", "describe", "stale_modules"]
