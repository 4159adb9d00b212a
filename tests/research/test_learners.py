"""The Gymnasium environment as learners take it: action_masks() (sb3-contrib's MaskablePPO
with no wrapper), the tensor-only observation, the factored action encoding, and
Stable-Baselines3's own check_env."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env
from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_checker import check_env as sb3_check_env
from stable_baselines3.common.logger import Logger

from parlor.research import GYM_ID, ParlorGymEnv
from parlor.research.numbering import FACTORED_NVEC, factor
from parlor.research.petting import observe_state


def test_action_masks_is_the_observations_mask_R30() -> None:
    e = ParlorGymEnv("random", max_turns=10)
    obs, _ = e.reset(seed=3)
    rng = np.random.default_rng(3)
    done = False
    while not done:
        mask = e.action_masks()
        assert mask.dtype == np.bool_
        assert (mask == obs["action_mask"].astype(bool)).all()
        obs, _reward, done, _trunc, _info = e.step(int(rng.choice(np.flatnonzero(mask))))


def test_the_factored_mask_allows_every_part_of_every_legal_decision() -> None:
    e = ParlorGymEnv("random", max_turns=10, actions="factored", observation="tensor")
    obs, _ = e.reset(seed=4)
    assert obs.shape == (2960,)
    rng = np.random.default_rng(4)
    done = False
    steps = 0
    while not done:
        assert e.game is not None
        legal = np.flatnonzero(observe_state(e.game, e.seat)["action_mask"])
        parts = np.split(e.action_masks(), np.cumsum(FACTORED_NVEC)[:-1])
        for number in legal:
            assert all(p[i] for p, i in zip(parts, factor(int(number)), strict=True))
        obs, _reward, done, _trunc, info = e.step(np.array(factor(int(rng.choice(legal)))))
        steps += 1
    assert "illegal_action" not in info and steps > 5


def test_a_factored_triple_with_no_decision_loses_and_says_why() -> None:
    e = ParlorGymEnv("random", seat=0, actions="factored")
    e.reset(seed=1)
    _obs, reward, done, _trunc, info = e.step(np.array([0, 5, 0]))  # pass with a card
    assert (reward, done) == (-1.0, True)
    assert "has no number" in info["illegal_action"]


@pytest.mark.parametrize(("observation", "actions"),
                         [("dict", "flat"), ("tensor", "flat"), ("tensor", "factored")])
def test_gymnasium_and_sb3_check_env_pass(observation: str, actions: str) -> None:
    # made by its id, so that the checker also tries every other render mode
    gym_check_env(gymnasium.make(GYM_ID, opponent="casual", max_turns=20, observation=observation,
                                 actions=actions, render_mode="ansi").unwrapped)
    sb3_check_env(ParlorGymEnv("casual", max_turns=20, observation=observation,
                               actions=actions), warn=False)


@pytest.mark.slow
@pytest.mark.parametrize("actions", ["flat", "factored"])
def test_maskable_ppo_learns_on_the_environment_with_no_wrapper(actions: str) -> None:
    e = ParlorGymEnv("random", max_turns=10, observation="tensor", actions=actions)
    model = MaskablePPO("MlpPolicy", e, n_steps=32, batch_size=32, n_epochs=1, seed=0,
                        device="cpu")
    model.set_logger(Logger(folder=None, output_formats=[]))  # no /tmp/SB3-<time> folder
    model.learn(64)
    obs, _ = e.reset(seed=9)
    action, _ = model.predict(obs, action_masks=e.action_masks(), deterministic=True)
    if actions == "flat":
        assert e.action_masks()[int(action)]
