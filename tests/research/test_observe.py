"""Observations and information states come from ``view`` only (R30): two states that differ
only in cards a Rlr cannot see give that Rlr identical strings and tensors."""

from __future__ import annotations

import random

import numpy as np
import pyspiel

from parlor.research import spiel
from parlor.rules.view import view


def outputs(state: pyspiel.State, player: int) -> tuple[str, str, list[float], list[float]]:
    return (state.observation_string(player), state.information_state_string(player),
            list(state.observation_tensor(player)),
            list(state.information_state_tensor(player)))


def test_hidden_cards_never_change_a_players_observation_or_information_state_R30() -> None:
    game = spiel.load(max_turns=60)
    rng = random.Random(30)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    compared = differed = 0
    for deal in range(6):
        state = game.new_initial_state()
        state.apply_action(deal)
        while not state.is_terminal():
            if rng.random() < 0.15:
                for p in (0, 1):
                    other = state.resample_from_infostate(p, sampler)
                    assert outputs(other, p) == outputs(state, p)
                    compared += 1
                    q = 1 - p
                    if sorted(other.engine.hand[q]) != sorted(state.engine.hand[q]):
                        differed += 1
                        assert view(other.engine, q) != view(state.engine, q)
            state.apply_action(rng.choice(state.legal_actions()))
    assert compared > 100
    assert differed > compared // 2, "the resampled states hardly differed: a weak test"


def test_a_resampled_state_keeps_its_players_information_state_as_play_goes_on() -> None:
    game = spiel.load(max_turns=60)
    state = game.new_initial_state()
    state.apply_action(4)
    rng = random.Random(4)
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
    p = state.current_player()
    other = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    # p's own decision is legal in both and reveals nothing new to p
    action = state.legal_actions()[0]
    assert other.legal_actions() == state.legal_actions()
    state.apply_action(action)
    other.apply_action(action)
    if state.observation_string(p) == other.observation_string(p):
        assert state.information_state_string(p) == other.information_state_string(p)


def test_the_tensor_shows_the_viewers_own_hand_and_hides_the_opponents() -> None:
    game = spiel.load()
    state = game.new_initial_state()
    state.apply_action(9)
    p = 0
    cards = np.asarray(state.observation_tensor(p)).reshape(-1)[: 104 * 28].reshape(104, 28)
    assert cards[:52, 0].sum() == len(state.engine.hand[p])  # column 0: in my Hand
    assert cards[52:, 0].sum() == 0  # the opponent's Hand is hidden (column 10)
    assert cards[52:, 10].sum() == 52 - sum(
        1 for c in range(52, 104) if cards[c, :10].any())
