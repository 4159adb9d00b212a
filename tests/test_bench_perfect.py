"""The perfect-information search of bench/perfect.py (issue 17): the expert's search over the
true state, handed to it by the match runner and to no one else."""

from __future__ import annotations

from types import ModuleType

import pytest

from parlor.ai.agent import SeesState
from parlor.ai.levels import make_agent
from parlor.ai.match import play_game
from parlor.rules.engine import legal_actions, new_game
from parlor.rules.state import Settings
from parlor.rules.view import view

from .scripts import BENCH, load_script


def perfect() -> ModuleType:
    return load_script(BENCH / "perfect.py", "perfect")


def test_it_searches_with_the_experts_settings_and_budget() -> None:
    m = perfect()
    agent = m.make_perfect("perfect@iters=50", 3)
    expert = make_agent("expert@iters=50", 3)
    assert isinstance(agent, SeesState)
    search = agent.search
    assert (search.max_iterations, search.horizon, search.root_width, search.weights,
            type(search.evaluate)) == (
        expert.max_iterations, expert.horizon, expert.root_width, expert.weights,  # type: ignore[attr-defined]
        type(expert.evaluate))  # type: ignore[attr-defined]
    assert m.perfect_spec(" Perfect@Iters=50 ") == "perfect@iters=50"
    assert m.perfect_spec("perfect@keep=look@iters=9") == "perfect@iters=9@keep=look"
    assert not m.make_perfect("perfect@iters=9@keep=look", 1).search.search_keep
    with pytest.raises(ValueError):
        m.perfect_spec("perfect@sampler=belief")


def test_r30_it_plays_only_from_the_true_state_and_no_player_can_meet_it() -> None:
    m = perfect()
    s = new_game(5)
    with pytest.raises(RuntimeError):
        m.make_perfect("perfect@iters=4", 1).explain(view(s, s.actor), legal_actions(s))
    with pytest.raises(ValueError):
        make_agent("perfect")  # the web and the terminal build their agents here


def test_the_match_runner_hands_it_the_true_state() -> None:
    m = perfect()
    agents = [m.make_perfect("perfect@iters=8", 1), make_agent("expert@iters=8", 2)]
    r = play_game(agents, seed=793500, settings=Settings(max_turns=16))
    assert r.decisions[0] > 0
