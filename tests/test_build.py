"""The compiled build (mypyc) plays exactly as the interpreted one: the same records, event
logs, legal actions and search decisions over seeded games (``bench/fingerprint.py``).

Doctest cannot see the functions of a compiled module, so under the compiled build the
docstring examples of parlor/rules and parlor/ai run here, on an interpreted copy."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from parlor.build import describe, stale_modules

ROOT = Path(__file__).resolve().parent.parent


def test_no_compiled_module_is_older_than_its_source() -> None:
    assert not stale_modules(), f"{describe()}"


def fingerprints(pythonpath: Path) -> tuple[str, list[str]]:
    env = {**os.environ, "PYTHONPATH": str(pythonpath)}
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "fingerprint.py"), "--games", "40",
         "--search", "2", "--iterations", "12", "--decisions", "40"],
        env=env, capture_output=True, text=True, check=True, timeout=900,
    ).stdout.splitlines()
    return out[0], out[1:]


def interpreted_copy(tmp_path: Path) -> Path:
    """The interpreted build beside the compiled one, which ``make test`` builds whenever the
    machine has a C compiler: then a missing build fails here rather than skipping the
    comparison. Without a compiler, or when the interpreted build is run on purpose
    (``PARLOR_BUILD=interpreted``, see the README), there is nothing to compare."""
    if not describe().startswith("compiled"):
        if os.environ.get("PARLOR_BUILD") == "interpreted":
            pytest.skip(f"PARLOR_BUILD=interpreted: {describe()}")
        if shutil.which("cc") is None:
            pytest.skip(f"no C compiler (cc), so no compiled build: {describe()}")
        pytest.fail(f"the machine has a C compiler but the compiled build does not run "
                    f"({describe()}): run `make compiled`, or set PARLOR_BUILD=interpreted "
                    "to test the interpreted build on purpose")
    pure = tmp_path / "pure"
    shutil.copytree(ROOT / "parlor", pure / "parlor",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    return pure


@pytest.mark.slow
def test_the_docstring_examples_of_compiled_modules_run_interpreted(tmp_path: Path) -> None:
    pure = interpreted_copy(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(pure)}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "--doctest-modules", "-q", "-p", "no:cacheprovider",
         "--rootdir", str(pure), "--import-mode=importlib",
         str(pure / "parlor" / "rules"), str(pure / "parlor" / "ai")],
        env=env, capture_output=True, text=True, timeout=900, cwd=pure,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert " passed" in run.stdout


@pytest.mark.slow
def test_compiled_and_interpreted_builds_play_identical_games(tmp_path: Path) -> None:
    pure = interpreted_copy(tmp_path)
    native_engine, native = fingerprints(ROOT)
    pure_engine, interpreted = fingerprints(pure)
    assert native_engine.endswith(".so") and pure_engine.endswith(".py")
    assert len(native) == 42
    assert native == interpreted
