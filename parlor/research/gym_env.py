"""A Gymnasium single-agent environment: one Rlr against an opponent.

``ParlorGymEnv(opponent="casual")`` plays one seat (``seat`` 0/1, or random at each reset)
and the opponent moves between the agent's decisions. The opponent is

* a spec of :mod:`parlor.ai.levels`: a level (``novice`` … ``expert``), ``random``,
  ``greedy``, or a searching level with a fixed iteration budget (``expert@iters=50``),
  seeded from the reset seed; ``strong`` and ``expert`` search by the clock, so their
  twins :data:`FIXED_TWINS` (``strong_fixed``, ``expert_fixed``: the same search with the
  iterations the clock gives them on average) make an episode reproducible: the same seed
  and the same actions replay the identical episode;
* an agent object (anything with ``act(view, legal, budget)``, :class:`parlor.ai.agent.Agent`),
  which sees only its own view;
* or a callable ``policy(observation) -> action number``, given the opponent's observation
  dict (the same ``observation`` and ``action_mask`` the learner gets): self-play with the
  learner's own policy.

Observations and actions are those of the PettingZoo environment
(:mod:`parlor.research.petting`): the view tensor with an action mask, and the fixed
numbering; :meth:`ParlorGymEnv.action_masks` gives the mask for sb3-contrib's MaskablePPO.
Reward +1 / -1 at the end, 0 for a draw at the turn limit (R17).

An action outside the mask ends the episode as a loss (reward -1), with the rule that
forbids it in ``info["illegal_action"]`` — PettingZoo's classic convention, so that
learners that sample unmasked actions can run; ``illegal="raise"`` raises the engine's
IllegalActionError instead.

Registered as ``ParlorMagic-v0`` on import of :mod:`parlor.research`
(``gymnasium.make("ParlorMagic-v0", opponent="expert_fixed")``, or without the import
``gymnasium.make("parlor.research:ParlorMagic-v0")``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, SupportsFloat, cast

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from parlor.ai.agent import Agent
from parlor.ai.levels import agent_spec, make_agent
from parlor.research.numbering import (
    NUM_DISTINCT_ACTIONS,
    UnnumberedActionError,
    decode,
    encode,
)
from parlor.research.petting import RENDER_MODES, observation_space, observe_state, render_view
from parlor.rules.actions import IllegalActionError
from parlor.rules.engine import apply, legal_actions, new_game, returns
from parlor.rules.state import Phase, Settings, State
from parlor.rules.view import view

Obs = dict[str, Any]
Policy = Callable[[Obs], int]
Opponent = str | int | Agent | Policy

#: The clock-searched levels' iteration-fixed twins: the same search with a fixed number of
#: iterations a searched decision, near the median the clock gives it (expert: 1,930 at
#: 0.3 s, parlor/ai/levels.py; strong: 312, the median of 123 searched
#: decisions of 3 games against random on the loaded 2-core machine, compiled), so that an episode
#: depends on the seed and the actions only.
FIXED_TWINS = {"strong_fixed": "strong@iters=300", "expert_fixed": "expert@iters=1930"}


def opponent_spec(opponent: str | int) -> str:
    """The canonical spec of an opponent given by name (a twin of :data:`FIXED_TWINS` is
    its iteration-fixed spec); ValueError, naming the choices, for anything else."""
    key = str(opponent).strip().lower()
    if key in FIXED_TWINS:
        return FIXED_TWINS[key]
    try:
        return agent_spec(opponent)
    except ValueError as exc:
        raise ValueError(f"{exc} (or an iteration-fixed twin: {', '.join(FIXED_TWINS)})") \
            from None


class ParlorGymEnv(gymnasium.Env[Obs, np.int64]):
    metadata: dict[str, Any] = {"render_modes": RENDER_MODES}  # noqa: RUF012 (gymnasium's)

    def __init__(self, opponent: Opponent = "casual", seat: int | None = None,
                 max_turns: int = 200, illegal: str = "lose",
                 render_mode: str | None = None) -> None:
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal={illegal!r}: choose 'lose' or 'raise'")
        if seat not in (None, 0, 1):
            raise ValueError(f"seat={seat!r}: choose 0 (Rlr 1), 1 (Rlr 2) or None (random)")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode {render_mode!r}: choose one of {RENDER_MODES} or None")
        self.opponent_spec: str | None = None
        self.opponent_policy: Policy | None = None
        self.opponent_agent: Agent | None = None
        if isinstance(opponent, str | int):
            self.opponent_spec = opponent_spec(opponent)
        elif callable(getattr(opponent, "act", None)):
            self.opponent_agent = cast(Agent, opponent)
        elif callable(opponent):
            self.opponent_policy = opponent
        else:
            raise TypeError(f"opponent {opponent!r}: give a spec ('expert@iters=50'), an agent "
                            "(with act(view, legal, budget)) or a policy(observation) -> action")
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
        opponent_seed = int(self.np_random.integers(2**63))
        if self.opponent_spec is not None:
            self.opponent = make_agent(self.opponent_spec, opponent_seed)
        else:
            self.opponent = self.opponent_agent
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
        s = self.game
        assert s is not None
        other = 1 - self.seat
        while s.phase is not Phase.OVER and s.actor == other:
            if self.opponent_policy is not None:
                action = decode(int(self.opponent_policy(observe_state(s, other))))
            else:
                agent = self.opponent
                assert agent is not None
                action = agent.act(view(s, other, log=False), legal_actions(s), agent.budget)
            apply(s, action)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now, as booleans over the numbering (sb3-contrib's
        MaskablePPO reads this method; no wrapper needed)."""
        s = self.game
        mask = np.zeros(NUM_DISTINCT_ACTIONS, np.bool_)
        if s is not None and s.phase is not Phase.OVER:
            mask[[encode(a) for a in legal_actions(s)]] = True
        return mask

    def render(self) -> str | None:
        if self.render_mode is None or self.game is None:
            return None
        name = self.opponent_spec or type(self.opponent_policy or self.opponent).__name__
        names = ["agent", "agent"]
        names[1 - self.seat] = name
        return render_view(view(self.game, self.seat, log=False), self.render_mode,
                           (names[0], names[1]))


__all__ = ["FIXED_TWINS", "ParlorGymEnv", "opponent_spec"]
