"""Every shipped puzzle (issue 44) can be solved on the puzzle page: its solver's decisions,
sent one by one as the page sends them, are accepted by the page's judge and end "solved"."""

from __future__ import annotations

from pathlib import Path

import pytest

from parlor.puzzles.model import load_puzzles
from parlor.rules.glicko import Rating
from parlor.store import GameStore
from parlor.store.puzzles import PuzzleRatings
from parlor.web.puzzles import PuzzleRoom, Solver

SHIPPED = load_puzzles()
ANONYMOUS = Solver(key=None, start=Rating(1500.0, 350.0))  # not rated: no store touched


def test_the_shipped_set_holds_at_least_300_puzzles() -> None:
    assert len(SHIPPED) >= 300
    assert len({p.id for p in SHIPPED}) == len(SHIPPED)


@pytest.mark.parametrize("chunk", range(10))
def test_every_shipped_puzzle_is_solved_by_its_line_on_the_page(chunk: int,
                                                                tmp_path: Path) -> None:
    store = GameStore(f"sqlite:///{tmp_path / 'puzzles.db'}")
    room = PuzzleRoom(SHIPPED, PuzzleRatings(store))
    for p in SHIPPED[chunk::10]:
        prep = room.get(p.id)
        sent: list[str] = []
        snap = room.act(prep, sent, None, ANONYMOUS)
        for i in p.solver_moves():
            assert not snap["puzzle"]["result"], (p.id, sent, snap["puzzle"]["result"])
            snap = room.act(prep, sent, p.line[i], ANONYMOUS)
            sent = list(snap["moves"])
        assert snap["puzzle"]["result"] == "solved", (p.id, snap["puzzle"]["result"])
    store.close()
