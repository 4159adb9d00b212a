"""The learned evaluation: features from the deciding Rlr's view only (R30), the weights
file, and inference as the file says."""

from __future__ import annotations

import json
import math
import random
from importlib import resources
from typing import Any

import numpy as np
import pytest

from parlor.ai.features import FEATURE_NAMES, features
from parlor.ai.greedy import HeuristicAgent
from parlor.ai.levels import make_agent
from parlor.ai.search import SearchAgent
from parlor.ai.value import (
    FORMAT,
    WEIGHTS_FILE,
    learned_win_prob,
    model_from_dict,
    packaged,
)
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.state import OVER, State
from parlor.rules.view import resample, view
from parlor.training.selfplay import PAIRINGS


def midgame_states(seed: int, every: int = 7) -> list[State]:
    s = new_game(seed)
    s.log = None
    players = [HeuristicAgent(seed), HeuristicAgent(seed + 1)]
    out: list[State] = []
    n = 0
    while not s.is_over and n < 600:
        if n % every == 0:
            out.append(s.clone())
        apply(s, players[s.actor].act(view(s, s.actor), legal_actions(s)))
        n += 1
    return out


def test_r30_same_view_same_features_whatever_the_hidden_deal() -> None:
    """Two full states that differ only in cards hidden from p (the opponent's Hand, its drawn
    cards, both Draw piles' order and contents) give p the same features."""
    differed = 0
    for seed in (3, 4):
        for s in midgame_states(seed):
            for p in (0, 1):
                v = view(s, p, log=False)
                a = resample(v, random.Random(1))
                b = resample(v, random.Random(2))
                if sorted(a.hand[1 - p]) != sorted(b.hand[1 - p]):
                    differed += 1
                assert features(a, p) == features(b, p) == features(s, p)
    assert differed > 20  # the hidden deals really were different


def test_features_are_one_number_per_name() -> None:
    s = midgame_states(5)[10]
    f = features(s, 0)
    assert len(f) == len(FEATURE_NAMES) == len(set(FEATURE_NAMES))
    assert all(isinstance(x, float) for x in f)


def shipped() -> dict[str, Any]:
    text = resources.files("parlor.ai").joinpath("weights", WEIGHTS_FILE).read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def test_the_package_ships_versioned_weights_with_the_command_that_made_them() -> None:
    data = shipped()
    assert data["format"] == FORMAT and data["version"] == 1
    assert data["command"].startswith(f"parlor train --seed {data['seed']} ")
    assert set(data["features"]) <= set(FEATURE_NAMES)
    assert data["positions"] > 0 and data["validation"]["log_loss"] > 0
    assert packaged() is packaged()  # read once


def test_weights_of_another_format_are_refused() -> None:
    data = shipped()
    with pytest.raises(ValueError, match="format"):
        model_from_dict({**data, "format": "parlor-value/0"})


def test_weights_for_features_this_version_does_not_compute_are_refused() -> None:
    data = shipped()
    renamed = [*data["features"][:-1], "op_no_such_feature"]
    with pytest.raises(ValueError, match=r"op_no_such_feature.*parlor train"):
        model_from_dict({**data, "features": renamed})
    with pytest.raises(ValueError, match="shapes"):
        model_from_dict({**data, "features": data["features"][:-1]})


def test_weights_fitted_before_a_feature_was_added_weigh_it_zero() -> None:
    """A file names the features it was fitted on; one added since (the Hand's suits, issue
    46) gets weight 0 in the linear part and in every unit, so the file's model is unchanged."""
    data = shipped()
    names = list(data["features"])
    assert names != list(FEATURE_NAMES)  # v2 predates the Hand's suit features
    model = model_from_dict(data)
    for i, n in enumerate(FEATURE_NAMES):
        if n not in names:
            assert model.linear[i] == 0.0 and all(row[i] == 0.0 for row in model.hidden)
    last = names.index(names[-1])
    assert model.linear[FEATURE_NAMES.index(names[-1])] == data["linear"][last]


def reference(data: dict[str, Any], f: list[float], turns_left: int) -> float:
    """The model written out with numpy, straight from the file's numbers and the features
    it names."""
    x = np.array([f[FEATURE_NAMES.index(n)] for n in data["features"]])
    z = data["bias"] + np.dot(data["linear"], x)
    if data["hidden"]:
        h = np.tanh(np.array(data["hidden"]) @ x + np.array(data["hidden_bias"]))
        z += float(np.dot(data["out"], h))
    z *= min(1.0, max(0, turns_left) / 20.0)
    return float(1.0 / (1.0 + math.exp(-z)))


def test_inference_matches_the_reference_computation() -> None:
    data = shipped()
    model = packaged()
    states = midgame_states(6, every=11)
    assert states
    for s in states:
        for p in (0, 1):
            got = learned_win_prob(s, p, model)
            want = reference(data, features(s, p), s.settings.max_turns - s.turn)
            assert got == pytest.approx(want, abs=1e-9)


def test_a_finished_game_is_judged_by_its_result() -> None:
    s = new_game(2)
    s.life[1] = 0
    s.phase, s.winner = OVER, 0
    assert learned_win_prob(s, 0, packaged()) == 1.0
    assert learned_win_prob(s, 1, packaged()) == 0.0


def test_the_expert_searches_with_the_learned_evaluation() -> None:
    agent = make_agent("expert@iters=40", 3)
    assert isinstance(agent, SearchAgent) and agent.evaluate is not None
    assert agent.max_iterations == 40
    hand = make_agent("expert_hand@iters=40", 3)
    assert isinstance(hand, SearchAgent) and hand.evaluate is None


#: Every weights file the package ships: the expert's own (v2), the linear fit before it (v1),
#: the fit to the expert's own games (v3, issue 46) and v2's fit with the Hand's suit features
#: (v4, issue 46), kept so that they can be matched.
PACKAGED_FILES = ("value-v1.json", "value-v2.json", "value-v3.json", "value-v4.json")


@pytest.mark.parametrize("name", PACKAGED_FILES)
def test_every_packaged_weights_file_loads_for_todays_features(name: str) -> None:
    """Each file names features the search computes now (v1-v3 the first 36, fitted before
    the Hand's suits) and records the command that rebuilds it."""
    text = resources.files("parlor.ai").joinpath("weights", name).read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    assert data["format"] == FORMAT
    assert data["features"] == list(FEATURE_NAMES[:len(data["features"])])
    model = packaged(name)
    assert len(model.linear) == len(FEATURE_NAMES)
    assert all(len(row) == len(FEATURE_NAMES) for row in model.hidden)
    assert len(model.hidden) == len(model.out) == data["settings"]["hidden"]
    assert data["command"].startswith(f"parlor train --seed {data['seed']} --games "
                                      f"{data['games']} ")
    defaults = [f"{a}:{b}" for a, b in PAIRINGS]
    named = "".join(f" --pairing {p}" for p in data["pairings"])
    assert data["command"].endswith(named if data["pairings"] != defaults else
                                    f"--hidden {data['settings']['hidden']}")
    s = midgame_states(8)[5]
    assert 0.0 < learned_win_prob(s, 0, model) < 1.0


def test_v3_is_fitted_to_games_the_expert_plays() -> None:
    """v3's point (issue 46): positions of the expert's own play, not only the Greedy family."""
    text = resources.files("parlor.ai").joinpath("weights", "value-v3.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    expert = [p for p in data["pairings"] if p.startswith("expert@")]
    assert expert and any(p.count("expert@") == 2 for p in expert)  # expert against itself
    assert packaged("value-v3.json") != packaged()
