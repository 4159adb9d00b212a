"""The computer levels' fixed ratings (issue 43), from the package's ``ratings.json`` (or the
file ``PARLOR_LEVEL_RATINGS`` names): the opponents' ratings of rated games.

The numbers come from the calibration of issue 46 (``bench/ratings.py``: a round robin of the
five levels, greedy and random fitted to Bradley-Terry ratings, random at 1000, each level's
deviation from its 95% interval; docs/ai.md); a level without one (``"rating": null``, or not
in the file) is uncalibrated and cannot be played rated. The file is read again when
it changes, so a calibrated file dropped in place needs no restart. It may say a level as a
number, or as an object with ``rating`` and ``rd`` (its deviation) or ``interval`` ([low,
high], 95%), under ``"levels"`` or at the top level; anything else is refused with the
reason (never a level quietly taken as unrated)::

    >>> parse({"levels": {"novice": 900, "casual": {"rating": 1100, "interval": [1000, 1200]},
    ...                   "strong": {"rating": None}}})["casual"]
    LevelRating(level='casual', rating=1100.0, rd=51.0)
    >>> sorted(parse({"novice": 900}))
    ['novice']
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from parlor.ai.levels import NAMES
from parlor.rules.values import Value

# by the package's resources, not __file__: a compiled module's __file__ is the path it was
# built from, relative, so the file was looked for beside the working directory (every home
# page answered 500 on the compiled build)
PACKAGED = Path(str(resources.files("parlor.ai").joinpath("ratings.json")))
#: The deviation of a calibrated level whose file gives none: a computer level's strength is
#: measured over hundreds of games, so its rating is known far better than a new player's.
DEFAULT_RD = 50.0
#: A 95% interval is about 1.96 deviations either side of the rating.
Z95 = 1.96


class RatingsFileError(ValueError):
    """The level ratings file cannot be read as ratings (the reason says where)."""


@dataclass(frozen=True, slots=True)
class LevelRating(Value):
    level: str
    rating: float
    rd: float


def _number(x: Any, where: str) -> float:
    if isinstance(x, bool) or not isinstance(x, int | float):
        raise RatingsFileError(f"{where} must be a number, not {x!r}")
    return float(x)


def _entry(level: str, raw: Any) -> LevelRating | None:
    if raw is None or (isinstance(raw, int | float) and not isinstance(raw, bool)):
        return None if raw is None else LevelRating(level, _number(raw, level), DEFAULT_RD)
    if not isinstance(raw, dict):
        raise RatingsFileError(f"level {level!r}: a number or an object, not {raw!r}")
    if raw.get("rating") is None or raw.get("calibrated") is False:
        return None
    rating = _number(raw["rating"], f"{level}.rating")
    if raw.get("rd") is not None:
        rd = _number(raw["rd"], f"{level}.rd")
    elif raw.get("interval") is not None:
        low, high = (_number(x, f"{level}.interval") for x in raw["interval"])
        rd = float(round((high - low) / (2 * Z95)))
    else:
        rd = DEFAULT_RD
    if rd <= 0:
        raise RatingsFileError(f"level {level!r}: its deviation must be above 0, not {rd}")
    return LevelRating(level, rating, float(rd))


def parse(data: Any) -> dict[str, LevelRating]:
    """The calibrated levels of a ratings document (names of :data:`NAMES` only)."""
    if not isinstance(data, dict):
        raise RatingsFileError("the ratings file must hold a JSON object")
    levels = data.get("levels", data)
    if not isinstance(levels, dict):
        raise RatingsFileError("\"levels\" must be an object of level: rating")
    found: dict[str, LevelRating] = {}
    for level, raw in levels.items():
        if level not in NAMES:
            continue  # another key of the document (a note, the fit's settings)
        got = _entry(level, raw)
        if got is not None:
            found[level] = got
    return found


class LevelRatings:
    """The ratings file, read again whenever its modification time or size changes."""

    def __init__(self, path: Path | None = None) -> None:
        given = os.environ.get("PARLOR_LEVEL_RATINGS")
        self.path = path or (Path(given) if given else PACKAGED)
        self._lock = threading.Lock()
        self._seen: tuple[int, int] | None = None
        self._levels: dict[str, LevelRating] = {}

    def all(self) -> dict[str, LevelRating]:
        """The calibrated levels now (RatingsFileError for an unreadable file)."""
        stat = self.path.stat()
        mark = (stat.st_mtime_ns, stat.st_size)
        with self._lock:
            if mark != self._seen:
                try:
                    data = json.loads(self.path.read_text(encoding="utf-8"))
                except ValueError as exc:
                    raise RatingsFileError(f"{self.path}: not JSON ({exc})") from None
                self._levels = parse(data)
                self._seen = mark
            return dict(self._levels)

    def of(self, level: str) -> LevelRating | None:
        """The level's rating, or None when it has no calibrated one (unrated play only)."""
        return self.all().get(level)


__all__ = ["DEFAULT_RD", "PACKAGED", "LevelRating", "LevelRatings", "RatingsFileError",
           "parse"]
