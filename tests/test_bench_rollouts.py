"""bench/rollouts.py (issue 46): lines of play judged by the search's rollouts without its tree."""

from __future__ import annotations

from types import ModuleType

import pytest

from parlor.ai.levels import make_agent
from parlor.ai.search import SearchAgent
from parlor.rules.notation import parse_position

from .scripts import BENCH, ROOT, load_script

C1 = ROOT / "tests" / "ai" / "positions" / "c4_all_out_attack_at_1_life.txt"


@pytest.fixture(scope="module")
def rollouts() -> ModuleType:
    return load_script(BENCH / "rollouts.py", "bench_rollouts")


def test_1006_the_rollouts_see_the_all_out_attack_at_1_life_lose(rollouts: ModuleType) -> None:
    """C1: at 1 life facing three ready Cres, one attacker keeps three blockers home, and
    the cheap policy's rollouts rank it far above sending all four (attackers stay taxed
    through the opponent's turn, 1006): the tree, not the rollouts, ranked them the other
    way (docs/ai.md)."""
    agent = make_agent("expert", 3)
    assert isinstance(agent, SearchAgent)
    s0 = parse_position(C1.read_text())
    one = rollouts.judge(s0, agent, "attack KC; done", 60, 3)
    every = rollouts.judge(s0, agent, "attack KC; attack JS; attack KH; attack KS; done", 60, 3)
    assert one.value > every.value + 0.3
    assert every.lost > 0.7 > 0.2 > one.lost
    assert 0.0 <= every.value <= 1.0


def test_the_script_prints_each_line(rollouts: ModuleType,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert rollouts.main([str(C1), "--line", "end", "--line", "attack KC; done",
                          "--deals", "4"]) == 0
    out = capsys.readouterr().out
    assert "rollouts to turn 61" in out and out.count("lost by then") == 2
