"""bench/replay.py (issue 46): a match's game played again with every decision logged, and the
lost replays summed up."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from .scripts import BENCH, load_script


def replay_module() -> ModuleType:
    return load_script(BENCH / "replay.py", "replay")


@pytest.mark.parametrize("index", [0, 1])
def test_a_replay_plays_the_match_game_again_with_its_seats_and_agent_seeds(
        index: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Game ``index`` of ``bench/ai.py --pairs random:greedy --seed 4600`` (odd indices:
    greedy is Rlr 1) ends as the match's own game does, and its log holds every decision."""
    replay = replay_module()
    from ai import run_one  # bench/ai.py, on the path replay.py puts it on

    game = run_one(("random", "greedy", index, 4600))
    out = tmp_path / f"g{index}.jsonl"
    won = replay.replay("random", "greedy", 4600, index, out)
    assert won == (game.score_a == 1.0)
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert lines[-1]["end"] and lines[-1]["turns"] == game.turns
    assert lines[-1]["me"] == index % 2
    assert sum(1 for r in lines[:-1] if r["expert"] and len(r["legal"]) > 1) \
        == len(game.think_a)
    replay.summary(tmp_path)
    assert "attack options declined" in capsys.readouterr().out



def test_deal_quality_groups_a_match_by_how_its_seat_fares_with_greedy(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--deal-quality``: each game's deal is played by Greedy in both seats and the match's
    score is grouped by how often the first-named agent's seat won."""
    replay = replay_module()
    match = tmp_path / "match.jsonl"
    match.write_text(json.dumps(dict(seed=4600, index=1, score_a=0.0)) + "\n")
    replay.deal_quality(match, 1)
    seat = replay.seat_score(4600, 1, 1)
    assert f"seat won {seat:.0%} with Greedy: 1 deals, the match scored 0.0" \
        in capsys.readouterr().out
