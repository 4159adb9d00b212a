"""A one-line progress bar for ``parlor simulate`` on stderr, drawn only on a terminal."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """A one-line progress bar redrawn with ``\\r``; silent unless the stream is a terminal."""

    WIDTH = 30

    def __init__(self, total: int, stream: TextIO | None = None, label: str = "",
                 interval: float = 0.1) -> None:
        self.total = max(total, 1)
        self.stream = sys.stderr if stream is None else stream
        self.label = label
        self.interval = interval
        self.enabled = _isatty(self.stream)
        self.start = time.perf_counter()
        self._last = 0.0
        self._shown = False

    def update(self, done: int, force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if not force and now - self._last < self.interval and done < self.total:
            return
        self._last = now
        frac = min(done / self.total, 1.0)
        filled = int(frac * self.WIDTH)
        bar = "#" * filled + "-" * (self.WIDTH - filled)
        elapsed = now - self.start
        rate = done / elapsed if elapsed > 0 else 0.0
        self.stream.write(f"\r{self.label}[{bar}] {done}/{self.total} {frac:4.0%} "
                          f"{rate:,.1f} games/s ")
        self.stream.flush()
        self._shown = True

    def close(self) -> None:
        """Erase the bar so that what follows starts on a clean line."""
        if self.enabled and self._shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # closed or a bare file-like object
        return False
