"""A Gymnasium single-agent environment: one Rlr against a computer level.

``ParlorGymEnv(opponent="casual")`` plays one seat (``seat`` 0/1, or random at each reset);
the opponent (any of :data:`parlor.ai.levels.NAMES`, seeded from the reset seed) moves
between the agent's decisions, seeing only its own view. Observations and actions are those
of the PettingZoo environment (:mod:`parlor.research.petting`): the view tensor with an
action mask, and the fixed numbering. Reward +1 / -1 at the end, 0 for a draw at the turn
limit (R17).

An action outside the mask ends the episode as a loss (reward -1), with the rule that
forbids it in ``info["illegal_action"]`` — PettingZoo's classic convention, so that
learners that sample unmasked actions can run; ``illegal="raise"`` raises the engine's
IllegalActionError instead.
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from parlor.ai.base import Agent
from parlor.ai.levels import level_name, make_agent
from parlor.research.numbering import NUM_DISTINCT_ACTIONS, UnnumberedActionError, decode
from parlor.research.observe import observation_string
from parlor.research.petting import observation_space, observe_state
from parlor.rules.actions import IllegalActionError
from parlor.rules.engine import apply, legal_actions, new_game, returns
from parlor.rules.state import Phase, Settings, State
from parlor.rules.view import view

Obs = dict[str, Any]


class ParlorGymEnv(gymnasium.Env[Obs, np.int64]):
    def __init__(self, opponent: str | int = "casual", seat: int | None = None,
                 max_turns: int = 200, illegal: str = "lose",
                 render_mode: str | None = None) -> None:
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal={illegal!r}: choose 'lose' or 'raise'")
        if seat not in (None, 0, 1):
            raise ValueError(f"seat={seat!r}: choose 0 (Rlr 1), 1 (Rlr 2) or None (random)")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: only 'ansi' or None")
        self.metadata = {"render_modes": ["ansi"]}
        self.opponent_name = level_name(opponent)
        self.fixed_seat = seat
        self.settings = Settings(max_turns=max_turns)
        self.illegal = illegal
        self.render_mode = render_mode
        self.observation_space = observation_space()
        self.action_space = spaces.Discrete(NUM_DISTINCT_ACTIONS)
        self.game: State | None = None
        self.seat = 0
        self.opponent: Agent | None = None

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        deal = int(self.np_random.integers(2**63))
        self.seat = (self.fixed_seat if self.fixed_seat is not None
                     else int(self.np_random.integers(2)))
        self.opponent = make_agent(self.opponent_name, int(self.np_random.integers(2**63)))
        self.game = new_game(deal, self.settings)
        self.game.log = None
        self._opponent_moves()
        return observe_state(self.game, self.seat), {"deal": deal, "seat": self.seat}

    def step(self, action: np.int64 | int) -> tuple[Obs, SupportsFloat, bool, bool,
                                                      dict[str, Any]]:
        s = self.game
        if s is None or s.phase is Phase.OVER:
            raise RuntimeError("the episode is over: call reset()")
        try:
            apply(s, decode(int(action)))
        except (IllegalActionError, UnnumberedActionError) as exc:
            if self.illegal == "raise":
                raise
            obs = observe_state(s, self.seat)
            return obs, -1.0, True, False, {"illegal_action": str(exc)}
        self._opponent_moves()
        obs = observe_state(s, self.seat)
        if s.is_over:
            return obs, returns(s)[self.seat], True, False, {"result": s.result}
        return obs, 0.0, False, False, {}

    def _opponent_moves(self) -> None:
        s, agent = self.game, self.opponent
        assert s is not None and agent is not None
        other = 1 - self.seat
        while s.phase is not Phase.OVER and s.actor == other:
            legal = legal_actions(s)
            apply(s, agent.act(view(s, other, log=False), legal, agent.budget))

    def render(self) -> str | None:
        if self.render_mode is None or self.game is None:
            return None
        return observation_string(view(self.game, self.seat, log=False, trail=False))


__all__ = ["ParlorGymEnv"]
