"""Requests for games that do not exist leave nothing in a server (issue 39): a real server
process, its resident memory read from /proc (bench/memory.py measures 40,000 requests on
every game route; this holds the worst route, the game's state, to a generous bound)."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from ..scripts import load_script

pytestmark = pytest.mark.slow  # `make check` leaves it out: servers in their own processes

BENCH = Path(__file__).resolve().parents[2] / "bench" / "memory.py"


def bench() -> ModuleType:
    return load_script(BENCH, "bench_memory")


def test_ten_thousand_unknown_ids_grow_a_server_by_less_than_5_mb(tmp_path: Path) -> None:
    """Before issue 39 each left about 1.1 KB for good: 10,000 made 11 MB."""
    m = bench()
    port = m.free_port()
    proc = m.start_server(tmp_path / "games.db", port)
    try:
        mb, _per = m.growth(port, proc.pid, 10_000, 2_000, routes=("/api/games/{}",))
    finally:
        proc.terminate()
        proc.wait(30)
    assert mb < 5, f"the server grew {mb:.1f} MB"
