"""The environments as each library finds them (registered names, PettingZoo's classic
entry points, render modes) and the Gymnasium opponent: by spec, agent object or policy
(self-play), and reproducible episodes with the iteration-fixed twins."""

from __future__ import annotations

import math
from typing import Any

import gymnasium
import numpy as np
import pyspiel
import pytest
from pettingzoo.test import render_test

import parlor.research
from parlor.ai.base import RandomAgent
from parlor.ai.levels import NAMES, make_agent
from parlor.ai.search import SearchAgent
from parlor.research import GYM_ID, ParlorGymEnv, parlor_magic_v0
from parlor.research.gym_env import FIXED_TWINS
from parlor.research.petting import ParlorAECEnv


def test_gymnasium_makes_the_environment_by_its_registered_id() -> None:
    e = gymnasium.make(GYM_ID, opponent="random", max_turns=10)
    assert GYM_ID == "ParlorMagic-v0"
    assert isinstance(e.unwrapped, ParlorGymEnv)
    obs, _ = e.reset(seed=2)
    assert obs["observation"].shape == (2960,)
    assert isinstance(gymnasium.make("parlor.research:ParlorMagic-v0").unwrapped, ParlorGymEnv)


def test_pettingzoo_classic_entry_points() -> None:
    assert isinstance(parlor_magic_v0.raw_env(max_turns=10), ParlorAECEnv)
    e = parlor_magic_v0.env(max_turns=10)
    e.reset(seed=1)
    assert e.unwrapped.metadata["name"] == "parlor_magic_v0"


def test_openspiel_finds_the_game_by_its_short_name_after_importing_the_package() -> None:
    assert parlor.research.spiel.SHORT_NAME in pyspiel.registered_names()
    assert pyspiel.load_game("parlor_magic").get_type().long_name == "Parlor Magic"


def test_pettingzoo_render_test_passes_human_and_ansi(capsys: pytest.CaptureFixture[str]) -> None:
    render_test(lambda render_mode=None: parlor_magic_v0.env(max_turns=20,
                                                             render_mode=render_mode))
    assert "── Turn 1" in capsys.readouterr().out  # the terminal's header line


def test_gymnasium_human_render_prints_the_terminals_picture(
        capsys: pytest.CaptureFixture[str]) -> None:
    e = ParlorGymEnv("random", seat=1, render_mode="human")
    e.reset(seed=4)
    assert e.render() is None
    out = capsys.readouterr().out
    assert "── Turn " in out and "random" in out
    with pytest.raises(ValueError, match="render_mode 'rgb_array'"):
        ParlorGymEnv("random", render_mode="rgb_array")


def first_legal(obs: dict[str, Any]) -> int:
    return int(np.flatnonzero(obs["action_mask"])[0])


@pytest.mark.parametrize("opponent", ["expert@iters=5", RandomAgent(3), first_legal],
                         ids=["spec", "agent", "policy"])
def test_the_opponent_may_be_a_spec_an_agent_or_a_policy(opponent: Any) -> None:
    e = ParlorGymEnv(opponent, max_turns=4)
    obs, _ = e.reset(seed=5)
    done = False
    while not done:
        obs, _reward, done, _trunc, _info = e.step(first_legal(obs))
    assert e.game is not None and e.game.is_over


def test_an_unknown_opponent_is_refused_naming_the_choices() -> None:
    with pytest.raises(ValueError, match="expert_fixed"):
        ParlorGymEnv("grandmaster")
    with pytest.raises(TypeError, match="policy"):
        ParlorGymEnv(3.5)  # type: ignore[arg-type]


def test_every_capped_level_has_an_uncapped_twin_of_its_iterations() -> None:
    """The searching levels play fixed iterations under a wall-clock cap that a loaded
    machine can hit; each twin searches the same iterations with no clock at all."""
    capped = [n for n in NAMES if isinstance(a := make_agent(n), SearchAgent)
              and a.max_iterations is not None and math.isfinite(a.budget)
              and not n.startswith("expert_")]
    assert capped == ["strong", "expert"]
    for name in capped:
        level, twin = make_agent(name), make_agent(FIXED_TWINS[f"{name}_fixed"])
        assert isinstance(level, SearchAgent) and isinstance(twin, SearchAgent)
        assert twin.max_iterations == level.max_iterations and math.isinf(twin.budget)


def episode(opponent: str, seed: int, actions: list[int] | None) -> tuple[list[int], list[bytes]]:
    """The agent's actions (masked random from ``seed``, or ``actions`` replayed) and every
    observation, as bytes."""
    e = ParlorGymEnv(opponent, max_turns=5)
    obs, _ = e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    taken: list[int] = []
    seen = [obs["observation"].tobytes()]
    done = False
    while not done:
        a = actions[len(taken)] if actions else int(rng.choice(np.flatnonzero(e.action_masks())))
        taken.append(a)
        obs, _reward, done, _trunc, _info = e.step(a)
        seen.append(obs["observation"].tobytes())
    return taken, seen


@pytest.mark.slow
def test_a_replay_of_the_same_seed_and_actions_is_identical_with_a_fixed_twin() -> None:
    actions, seen = episode("strong_fixed", 11, None)
    again, seen_again = episode("strong_fixed", 11, actions)
    assert again == actions and seen_again == seen
    assert len(actions) > 5
