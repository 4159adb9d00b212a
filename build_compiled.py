#!/usr/bin/env python3
"""The compiled build: parlor/rules and parlor/ai through mypyc, as extension modules built in
place beside their sources (``make compiled``; ``make pure`` removes them).

    python build_compiled.py           # compile (about a minute or two on 2 cores)
    python build_compiled.py --clean   # remove the extension modules: pure Python again

Why in place, and not in the wheel that ``pip install -e .`` builds: the development
install is editable, so Python imports ``parlor`` from this checkout; an extension module
beside ``engine.py`` is found first (extension suffixes come before ``.py`` in the import
system), so ``make test``, ``make run`` and the ``parlor`` command use the compiled build
with no change to the install, and removing the files returns to pure Python. A compile in
the install step instead would make every ``pip install -e .`` need a C compiler and mypy in
its build environment, and would leave the editable sources shadowed by copies that go stale
silently. The shared library is named ``parlor.native__mypyc`` so that it lies inside the
package, where the editable install finds it (a top-level library would be found only from
the checkout's root). :mod:`parlor.build` reports which build runs and flags a stale one.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))

from parlor.build import compiled_modules  # noqa: E402  (the checkout, not an installed copy)

BUILD = ROOT / "build" / "mypyc"


def sources() -> list[str]:
    return [m.replace(".", "/") + ".py" for m in compiled_modules()]


def built_files() -> list[Path]:
    """The extension modules a build leaves in the package."""
    out = list((ROOT / "parlor").glob("native__mypyc.*"))
    for src in sources():
        stem = ROOT / src
        out.extend(stem.parent.glob(stem.stem + ".cpython-*"))
        out.extend(stem.parent.glob(stem.stem + ".*.so"))
        out.extend(stem.parent.glob(stem.stem + ".pyd"))
    return sorted(set(out))


def clean() -> None:
    for path in built_files():
        path.unlink()
    shutil.rmtree(BUILD, ignore_errors=True)


def build() -> None:
    from mypyc.build import mypycify
    from setuptools import Distribution

    os.chdir(ROOT)
    clean()
    extensions = mypycify(sources(), opt_level="3", group_name="parlor.native",
                          target_dir=str(BUILD / "c"))
    # A bare Distribution runs build_ext without reading pyproject.toml's packaging metadata.
    dist = Distribution({"name": "parlor-compiled", "ext_modules": extensions})
    dist.script_args = ["build_ext", "--inplace", "--build-temp", str(BUILD / "temp"),
                        "--build-lib", str(BUILD / "lib")]
    dist.parse_command_line()
    dist.run_commands()


if __name__ == "__main__":
    if sys.argv[1:] == ["--clean"]:
        clean()
    else:
        build()
