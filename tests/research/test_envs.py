"""PettingZoo's api_test and Gymnasium's check_env on the environments."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, performance_benchmark, seed_test

from parlor.ai.levels import NAMES
from parlor.research import env
from parlor.research.gym_env import ParlorGymEnv
from parlor.research.numbering import encode
from parlor.rules.actions import Action, IllegalActionError


def test_pettingzoo_api_test_passes() -> None:
    api_test(env(max_turns=30), num_cycles=400)


def test_a_pettingzoo_game_runs_to_its_end_with_masked_random_actions_R17() -> None:
    e = env(max_turns=40)
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    steps = 0
    for _agent in e.agent_iter():
        obs, _reward, term, trunc, info = e.last()
        action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        e.step(action)
        steps += 1
    assert steps > 20
    assert "result" in info


def test_each_pettingzoo_info_lists_the_legal_actions_its_mask_holds() -> None:
    """``info["legal_actions"]``: the mask's non-zeros as a list, for the agent that
    decides; empty for the other and once the game is over."""
    e = env(max_turns=40)
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    steps = 0
    for agent in e.agent_iter():
        _obs, _reward, term, trunc, info = e.last()
        for other in e.agents:
            listed = e.infos[other]["legal_actions"]
            mask = e.observe(other)["action_mask"]
            assert sorted(listed) == np.flatnonzero(mask).tolist()
            assert bool(listed) == (other == agent and not (term or trunc))
        e.step(None if term or trunc else int(rng.choice(info["legal_actions"])))
        steps += 1
    assert steps > 20


@pytest.mark.parametrize("level", NAMES)
def test_gymnasium_check_env_passes_against_every_level(level: str) -> None:
    check_env(ParlorGymEnv(level, max_turns=30), skip_render_check=True)


def test_an_illegal_action_loses_and_names_the_rule() -> None:
    e = ParlorGymEnv("random", seat=0)
    obs, _ = e.reset(seed=1)
    illegal = encode(Action.parse("attack KS"))
    assert obs["action_mask"][illegal] == 0
    obs, reward, terminated, truncated, info = e.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal_action"].startswith("R7")


def test_illegal_raise_raises_the_engines_error() -> None:
    e = ParlorGymEnv("random", seat=0, illegal="raise")
    e.reset(seed=1)
    with pytest.raises(IllegalActionError, match="R7"):
        e.step(encode(Action.parse("attack KS")))


def test_pettingzoo_seed_test_passes() -> None:
    seed_test(lambda: env(max_turns=30), num_cycles=300)


@pytest.mark.slow
def test_pettingzoo_performance_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """PettingZoo's benchmark (five seconds of masked random play); the rate is reported,
    never asserted (the machine is shared)."""
    performance_benchmark(env(max_turns=200))
    assert "turns per second" in capsys.readouterr().out
