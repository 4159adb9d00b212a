"""The built wheel ships the documents the app serves (``/rules``, ``/notation``, the
terminal's ``rule 603``), and an installed copy finds them without the repository beside it:
before, a ``pip install`` (as docs/deploy.md instructs) served "The document rules.md is not
installed"."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # `make check` leaves it out: builds the wheel

ROOT = Path(__file__).resolve().parent.parent
SERVED = ("rules.md", "notation.md")  # what parlor/web/rulesdoc.py and the terminal read

# the build needs the sources and the project's metadata, not what a checkout accumulates
_NOT_SOURCES = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", "*.so",
                                      "*.pyd", "__pycache__", ".*_cache", "test-output", "*.db",
                                      ".hypothesis")


def build_wheel(tmp_path: Path) -> Path:
    """The wheel `pip wheel` builds from a copy of the checkout (so the build's folders stay
    out of the worktree)."""
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, symlinks=True, ignore=_NOT_SOURCES)
    out = tmp_path / "wheel"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--no-build-isolation", "-w", str(out), str(src)],
                   check=True, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    (wheel,) = out.glob("parlor_magic-*.whl")
    return wheel


def test_the_docs_the_app_serves_are_in_the_wheel_and_found_when_installed(
        tmp_path: Path) -> None:
    wheel = build_wheel(tmp_path)
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        for name in SERVED:
            assert f"parlor/docs/{name}" in names, sorted(n for n in names if "docs" in n)
            shipped = z.read(f"parlor/docs/{name}").decode()
            assert shipped == (ROOT / "docs" / name).read_text(encoding="utf-8"), name
        # the data the accounts need (issue 43): the levels' ratings, the common passwords
        assert {"parlor/ai/ratings.json", "parlor/web/data/common-passwords.txt",
                "parlor/web/static/js/profile.js", "parlor/web/static/js/passkeys.js",
                "parlor/web/static/css/accounts.css"} <= names
        site = tmp_path / "site"
        z.extractall(site)  # an installed layout: the package alone, no docs/ beside it
    probe = (
        "import parlor, sys\n"
        "from pathlib import Path\n"
        f"assert Path(parlor.__file__).is_relative_to({str(site)!r}), parlor.__file__\n"
        "from parlor.web.rulesdoc import rules_doc\n"
        "from parlor.terminal.rulebook import rule_text\n"
        "rules, notation = rules_doc('rules.md'), rules_doc('notation.md')\n"
        "assert 'not installed' not in rules.html + notation.html\n"
        "assert '603' in rules.rules and 'Game records' in notation.html\n"
        "print(rule_text('603'))\n"
    )
    run = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True,
                         text=True, timeout=120, env={"PYTHONPATH": str(site),
                                                      "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("603"), run.stdout
