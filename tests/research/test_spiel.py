"""The OpenSpiel game: OpenSpiel's own checks, replay from the history, and its algorithms."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from parlor.research import spiel
from parlor.research.numbering import NUM_DISTINCT_ACTIONS
from parlor.rules.notation import position


@pytest.mark.slow
def test_random_sim_test_with_serialization_passes() -> None:
    game = spiel.load(max_turns=25)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_the_game_declares_its_shape() -> None:
    game = spiel.load()
    t = game.get_type()
    assert t.short_name == "parlor_magic"
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.num_distinct_actions() == NUM_DISTINCT_ACTIONS
    assert game.max_chance_outcomes() == 1 << 16
    assert game.observation_tensor_size() == game.information_state_tensor_size() == 2960


def play_random(game: pyspiel.Game, deal: int, seed: int) -> pyspiel.State:
    rng = random.Random(seed)
    state = game.new_initial_state()
    state.apply_action(deal)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_the_history_replays_the_identical_game_R31() -> None:
    game = spiel.load(max_turns=40)
    state = play_random(game, 7, 1)
    again = game.new_initial_state()
    for a in state.history():
        again.apply_action(a)
    assert position(again.engine) == position(state.engine)
    assert again.returns() == state.returns()
    copy = game.deserialize_state(state.serialize())
    assert position(copy.engine) == position(state.engine)


def test_no_random_game_is_longer_than_max_game_length_R17() -> None:
    game = spiel.load(max_turns=200)
    for deal in range(8):
        state = play_random(game, deal, deal)
        assert len(state.history()) <= game.max_game_length()
        assert sum(state.returns()) == 0.0


def test_action_strings_are_the_notation() -> None:
    game = spiel.load()
    state = game.new_initial_state()
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 3) == "deal seed 3"
    state.apply_action(3)
    for a in state.legal_actions():
        text = state.action_to_string(state.current_player(), a)
        assert text.split()[0] in ("keep", "redraw", "trim", "play", "pass", "expel")


def test_openspiel_ismcts_plays_the_game() -> None:
    game = spiel.load(max_turns=30)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, max_simulations=4,
                           random_state=np.random.RandomState(2),
                           use_observation_string=True)
    state = game.new_initial_state()
    state.apply_action(11)
    for _ in range(6):
        if state.is_terminal():
            break
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


@pytest.mark.slow
def test_openspiels_sim_game_passes() -> None:
    """OpenSpiel's per-game simulation test (games_sim_test.py): random play with clones,
    serialization (pyspiel and pickle), observations and information states each step."""
    from open_spiel.python.tests import games_sim_test

    class Sim(games_sim_test.GamesSimTest):  # type: ignore[misc]
        def runTest(self) -> None:
            pass

    Sim().sim_game(pyspiel.load_game("parlor_magic", {"max_turns": 20}))


def test_legal_actions_answered_in_python_agree_with_openspiels_own() -> None:
    """``legal_actions`` is answered in Python (speed); OpenSpiel's C++ mask must agree."""
    game = spiel.load(max_turns=30, deals=32)
    state = game.new_initial_state()
    assert state.legal_actions() == list(range(32)) == state.legal_actions(-1)
    rng = random.Random(6)
    state.apply_action(6)
    while not state.is_terminal():
        legal = state.legal_actions()
        p = state.current_player()
        mask = state.legal_actions_mask(p)
        assert legal == [a for a, ok in enumerate(mask) if ok]
        assert state.legal_actions(1 - p) == []
        state.apply_action(rng.choice(legal))
    assert state.legal_actions() == [] == state.legal_actions(0)
