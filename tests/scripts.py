"""Loading a script of bench/ or examples/ as a module, for the tests that call its functions.

The scripts are not a package: each is loaded from its file, registered under its own name
(dataclasses and pickling look a module up by name) with its folder on the import path (a
bench script imports its siblings, as it does when run from there)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"


def load_script(path: Path, name: str) -> ModuleType:
    """The script at ``path``, run once as module ``name``."""
    folder = str(path.parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
