"""Issue 42: an observation costs the same however long the game has run. The observers
render none of the history they do not send: every view an observation is made from
leaves out the trail (the agents' reading, growing with the game) and, but for an
information state (whose string is the log), the log. Counted through the research
modules' own names (parlor.research is never compiled), not timed."""

from __future__ import annotations

import random
from typing import Any

import pytest

from parlor.research import gym_env, petting, spiel
from parlor.research.gym_env import ParlorGymEnv
from parlor.research.numbering import encode
from parlor.rules.engine import apply, legal_actions
from parlor.rules.state import State
from parlor.rules.view import View
from parlor.rules.view import view as real_view

#: Long enough for a trail of hundreds of steps.
STEPS = 300


class Views:
    """Each view made through the research modules: its ``log`` and ``trail`` arguments
    and the view."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.made: list[tuple[bool, bool, View]] = []

        def view(s: State, player: int, log: bool = True, trail: bool = True) -> View:
            v = real_view(s, player, log=log, trail=trail)
            self.made.append((log, trail, v))
            return v

        for module in (spiel, petting, gym_env):
            monkeypatch.setattr(module, "view", view)

    def take(self) -> list[tuple[bool, bool, View]]:
        out, self.made = self.made, []
        return out


def _no_history(made: list[tuple[bool, bool, View]], log: bool = False) -> None:
    assert made
    for asked_log, asked_trail, v in made:
        assert not asked_trail and not v.trail
        assert asked_log == log and bool(v.log) == log


def _played(s: State, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(STEPS):
        apply(s, rng.choice(legal_actions(s)))
    assert not s.is_over and s.trail is not None and len(s.trail) >= STEPS


def test_openspiel_observations_render_no_history(monkeypatch: pytest.MonkeyPatch) -> None:
    game = spiel.load(max_turns=2000)
    state = game.new_initial_state()
    state.apply_action(3)
    _played(state.engine, 3)
    views = Views(monkeypatch)
    p = state.current_player()
    tensor: Any = state.observation_tensor(p)
    state.observation_string(p)
    _no_history(views.take())
    # an information state writes the log (its string is the log) but not the trail
    state.information_state_string(p)
    _no_history(views.take(), log=True)
    assert len(tensor) == game.observation_tensor_size()


def test_pettingzoo_observations_render_no_history(monkeypatch: pytest.MonkeyPatch) -> None:
    raw = petting.ParlorAECEnv(max_turns=2000, render_mode="ansi")
    raw.reset(seed=4)
    assert raw.game is not None
    _played(raw.game, 4)
    raw.agent_selection = petting.AGENTS[raw.game.actor]
    views = Views(monkeypatch)
    for agent in petting.AGENTS:
        raw.observe(agent)
    raw.render()
    _no_history(views.take())


def test_gymnasium_observations_render_no_history(monkeypatch: pytest.MonkeyPatch) -> None:
    """The observations a step returns; the opponent's decisions read its own view, with
    the trail (107.1), and are no observation."""
    env = ParlorGymEnv(opponent="random", seat=0, max_turns=2000, render_mode="ansi")
    env.reset(seed=5)
    assert env.game is not None
    _played(env.game, 5)
    while env.game.actor != 0:
        apply(env.game, legal_actions(env.game)[0])
    views = Views(monkeypatch)
    for _ in range(5):
        assert not env.game.is_over
        env.step(encode(legal_actions(env.game)[0]))
    env.render()
    made = views.take()
    _no_history([m for m in made if m[2].player == env.seat])
    assert any(m[2].player != env.seat for m in made), "the opponent decided"


def test_the_gymnasium_opponent_reads_each_step_of_the_trail_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The opponent's view is the reference's (``view(s, other, log=False)``, the trail
    included), its trail's steps each written once an episode, not at every decision."""
    written = 0
    real_step = gym_env.public_step

    def counted(step: Any, viewer: int) -> Any:
        nonlocal written
        written += 1
        return real_step(step, viewer)

    monkeypatch.setattr(gym_env, "public_step", counted)
    env = ParlorGymEnv(opponent="random", seat=1, max_turns=2000)
    env.reset(seed=6)
    game = env.game
    assert game is not None
    rng = random.Random(6)
    decisions = 0
    while not game.is_over and decisions < 400:
        other = env._opponent_view()
        reference = real_view(game, 1 - env.seat, log=False)
        assert other == reference and other.trail == reference.trail
        decisions += 1
        env.step(encode(rng.choice(legal_actions(game))))
    assert game.trail is not None and len(game.trail) > 300
    assert written <= len(game.trail)
