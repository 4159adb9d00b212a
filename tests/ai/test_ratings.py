"""The shipped ratings file of the levels (issue 46) is found wherever the app runs, in the
compiled build as in the interpreted one, and rates every level."""

from __future__ import annotations

import os
import subprocess
import sys

from parlor.ai.levels import LEVEL_NAMES
from parlor.ai.ratings import PACKAGED, LevelRatings


def test_the_packaged_file_is_found_and_rates_every_level() -> None:
    assert PACKAGED.is_file(), PACKAGED
    rated = LevelRatings(PACKAGED).all()
    assert set(LEVEL_NAMES) <= set(rated)


def test_it_is_found_from_another_working_directory(tmp_path: object) -> None:
    """A server started elsewhere (``parlor serve`` from any folder) reads the same file: a
    compiled module's ``__file__`` is relative to where it was built."""
    code = ("from parlor.ai.ratings import LevelRatings; "
            "print(len(LevelRatings().all()))")
    env = {k: v for k, v in os.environ.items() if k != "PARLOR_LEVEL_RATINGS"}
    out = subprocess.run([sys.executable, "-c", code], cwd=str(tmp_path), env=env,
                         capture_output=True, text=True, check=True).stdout
    assert int(out) >= len(LEVEL_NAMES)
