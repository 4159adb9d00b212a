"""OpenSpiel's ISMCTS on the game: the os_ismcts agent (bench/ai.py --pairs expert:os_ismcts)
on whichever build runs (``make test`` runs the compiled one), and OpenSpiel's bot with its
default settings, whose nodes are keyed by information states on resampled states."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from parlor.ai.base import BaseAgent, RandomAgent
from parlor.ai.match import play_game
from parlor.research import spiel
from parlor.research.agents import ISMCTSAgent, make_research_agent
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.state import Settings
from parlor.rules.view import view


def played(game: pyspiel.Game, deal: int, decisions: int) -> pyspiel.State:
    state = game.new_initial_state()
    state.apply_action(deal)
    rng = random.Random(deal)
    for _ in range(decisions):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_the_os_ismcts_agent_makes_legal_decisions_on_this_build() -> None:
    agent = ISMCTSAgent(seed=3, budget=60.0, max_simulations=3)
    assert isinstance(agent, BaseAgent)
    s = new_game(21, Settings(max_turns=30))
    searched = 0
    while searched < 4 and not s.is_over:
        legal = legal_actions(s)
        action = agent.act(view(s, s.actor), legal)
        assert action in legal
        searched += len(legal) > 1
        apply(s, action)
    assert searched == 4
    assert agent.last_simulations == 3


def test_os_ismcts_by_name_plays_a_short_game_against_random() -> None:
    agent = make_research_agent("os_ismcts", 1)
    assert isinstance(agent, ISMCTSAgent)
    agent.max_simulations = 2
    result = play_game((agent, RandomAgent(2)), 5, Settings(max_turns=3))
    assert sum(result.decisions) > 0 and result.turns >= 1


def test_openspiel_ismcts_with_its_default_settings_searches_resampled_states() -> None:
    game = spiel.load(max_turns=30)
    rng = np.random.RandomState(4)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0,
                           max_simulations=12, random_state=rng)  # information-state keys
    state = played(game, 8, 25)
    for _ in range(4):
        if state.is_terminal():
            break
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_a_resampled_state_gives_both_rlrs_an_information_state_and_reports_its_history(
) -> None:
    game = spiel.load(max_turns=30)
    state = played(game, 12, 30)
    p = state.current_player()
    q = 1 - p
    other = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.history() == state.history()
    assert other.move_number() == state.move_number()
    assert other.information_state_string(p) == state.information_state_string(p)
    theirs = other.information_state_string(q)
    assert theirs.startswith(f"(Rlr {q + 1}'s own past is unknown")
    # the public record of q's past is there, in public words, and q's present view after it
    public = game.make_py_observer(pyspiel.IIGObservationType(
        public_info=True, perfect_recall=True, private_info=pyspiel.PrivateInfoType.NONE))
    record = public.string_from(state, q).split("\n--\n")[0]
    assert theirs.split("\n", 1)[1].startswith(record)
    assert theirs.endswith(other.observation_string(q))
    # and again from the resampled state, for the other Rlr: the chain keeps both readings
    again = other.resample_from_infostate(q, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert again.information_state_string(q) == theirs
    assert again.history() == state.history()


def test_a_deal_outside_the_games_deals_is_refused() -> None:
    game = spiel.load(deals=16)
    state = game.new_initial_state()
    try:
        state.apply_action(70_000)
    except (ValueError, pyspiel.SpielError) as exc:
        assert "outside" in str(exc)
    else:
        raise AssertionError("deal 70,000 of 16 was accepted")
