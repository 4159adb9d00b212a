"""A Gymnasium single-agent environment: one Rlr against an opponent.

``ParlorGymEnv(opponent="casual")`` plays one seat (``seat`` 0/1, or random at each reset)
and the opponent moves between the agent's decisions. The opponent is

* a spec of :mod:`parlor.ai.levels`: a level (``novice`` … ``expert``), ``random``,
  ``greedy``, or a searching level with a fixed iteration budget (``expert@iters=50``),
  seeded from the reset seed; ``strong`` and ``expert`` search fixed iterations under a
  wall-clock cap that a loaded machine can hit, so their twins :data:`FIXED_TWINS`
  (``strong_fixed``, ``expert_fixed``: the same iterations, no clock) make an episode
  reproducible: the same seed
  and the same actions replay the identical episode;
* an agent object (anything with ``act(view, legal, budget)``, :class:`parlor.ai.agent.Agent`),
  which sees only its own view; it is used as given (its generator is not reseeded at a
  reset: for reproducible episodes give a spec);
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
from dataclasses import replace
from typing import Any, SupportsFloat, cast

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from parlor.ai.agent import Agent
from parlor.ai.levels import EXPERT_ITERATIONS, STRONG_ITERATIONS, agent_spec, make_agent
from parlor.research.numbering import (
    FACTORED_NVEC,
    NUM_DISTINCT_ACTIONS,
    UnnumberedActionError,
    decode,
    encode,
    factor,
    unfactor,
)
from parlor.research.petting import (
    RENDER_MODES,
    observation_space,
    observe_state,
    observe_tensor,
    render_view,
)
from parlor.rules.actions import IllegalActionError
from parlor.rules.engine import apply, legal_actions, new_game, returns
from parlor.rules.state import Phase, Settings, State
from parlor.rules.trail import PublicStep, public_step
from parlor.rules.view import View, view

Obs = dict[str, Any]
Policy = Callable[[Obs], int]
Opponent = str | int | Agent | Policy

#: The clock-searched levels' iteration-fixed twins: the same search with a fixed number of
#: iterations a searched decision, near the median the clock gives it (expert: 1,930 at
#: 0.3 s, parlor/ai/levels.py; strong: 312, the median of 123 searched
#: decisions of 3 games against random on the loaded 2-core machine, compiled), so that an episode
#: depends on the seed and the actions only.
#: The levels' own iterations with no wall-clock cap: the levels play a fixed number of
#: iterations, but a loaded machine's cap can cut a search short (issue 46); a twin never is.
FIXED_TWINS = {"strong_fixed": f"strong@iters={STRONG_ITERATIONS}",
               "expert_fixed": f"expert@iters={EXPERT_ITERATIONS}"}


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


class ParlorGymEnv(gymnasium.Env[Any, Any]):
    """One seat against ``opponent``. ``observation``: ``"dict"`` (the view tensor and the
    flat action mask, as PettingZoo's) or ``"tensor"`` (the view tensor alone, a Box: for
    learners that read the mask from :meth:`action_masks`, so that a policy network does not
    take the 33,966-wide mask as input). ``actions``: ``"flat"`` (Discrete(33,966), the
    numbering) or ``"factored"`` (MultiDiscrete :data:`FACTORED_NVEC`, (verb, card, target)
    of :mod:`parlor.research.numbering`)."""

    # render_fps: how often a viewer redraws the spread (Gymnasium's checker asks for one)
    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "render_fps": 2}  # noqa: RUF012

    def __init__(self, opponent: Opponent = "casual", seat: int | None = None,
                 max_turns: int = 200, illegal: str = "lose",
                 render_mode: str | None = None, observation: str = "dict",
                 actions: str = "flat") -> None:
        if observation not in ("dict", "tensor"):
            raise ValueError(f"observation={observation!r}: choose 'dict' or 'tensor'")
        if actions not in ("flat", "factored"):
            raise ValueError(f"actions={actions!r}: choose 'flat' or 'factored'")
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
        self.observation = observation
        self.actions = actions
        full = observation_space()
        self.observation_space: spaces.Space[Any] = (
            full if observation == "dict" else full["observation"])
        self.action_space: spaces.Space[Any] = (
            spaces.Discrete(NUM_DISTINCT_ACTIONS) if actions == "flat"
            else spaces.MultiDiscrete(list(FACTORED_NVEC)))
        self.game: State | None = None
        self.seat = 0
        self.opponent: Agent | None = None
        #: The opponent's reading of the trail so far (:meth:`_opponent_view`).
        self._trail: list[PublicStep] = []

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
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
        self._trail = []
        self._opponent_moves()
        return self._observe(), {"deal": deal, "seat": self.seat}

    def _observe(self) -> Any:
        assert self.game is not None
        if self.observation == "dict":
            return observe_state(self.game, self.seat)
        return observe_tensor(self.game, self.seat)  # the mask comes from action_masks()

    def _number(self, action: Any) -> int:
        """The flat number of an action of this environment's action space."""
        if self.actions == "flat":
            return int(action)
        verb, card, target = (int(x) for x in action)
        return unfactor(verb, card, target)

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        s = self.game
        if s is None or s.phase is Phase.OVER:
            raise RuntimeError("the episode is over: call reset()")
        try:
            apply(s, decode(self._number(action)))
        except (IllegalActionError, UnnumberedActionError) as exc:
            if self.illegal == "raise":
                raise
            return self._observe(), -1.0, True, False, {"illegal_action": str(exc)}
        self._opponent_moves()
        obs = self._observe()
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
                action = agent.act(self._opponent_view(), legal_actions(s), agent.budget)
            apply(s, action)

    def _opponent_view(self) -> View:
        """``view(s, other, log=False)``, what an agent reads (with the public trail of the
        decisions so far, 107.1), each step of the trail written once an episode and kept:
        the reference writes the whole trail at each decision, a cost growing with the
        game (parlor.web.games.live_agent_view keeps a live game's likewise).
        tests/research/test_observation_cost.py holds the two equal."""
        s = self.game
        assert s is not None
        other = 1 - self.seat
        if not s.trail or s.settings.match_play:
            return view(s, other, log=False)  # no trail to keep (match play shows none, 109)
        steps = self._trail
        steps.extend(public_step(st, other) for st in s.trail[len(steps):])
        return replace(view(s, other, log=False, trail=False), trail=tuple(steps))

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now as booleans (sb3-contrib's MaskablePPO reads this method;
        no wrapper needed): over the flat numbering, or for the factored encoding the
        verbs, cards and targets that some legal decision uses, one after the other
        (MaskablePPO masks each part of a MultiDiscrete on its own, so a combination of
        allowed parts may still be illegal: it then loses, as any illegal action does)."""
        s = self.game
        legal = ([encode(a) for a in legal_actions(s)]
                 if s is not None and s.phase is not Phase.OVER else [])
        if self.actions == "flat":
            mask = np.zeros(NUM_DISTINCT_ACTIONS, np.bool_)
            mask[legal] = True
            return mask
        parts = [np.zeros(n, np.bool_) for n in FACTORED_NVEC]
        for number in legal:
            for part, i in zip(parts, factor(number), strict=True):
                part[i] = True
        return np.concatenate(parts)

    def render(self) -> str | None:
        if self.render_mode is None or self.game is None:
            return None
        other = self.opponent_policy or self.opponent
        name = str(self.opponent_spec or getattr(other, "name", None) or getattr(
            other, "__name__", type(other).__name__))
        names = ["agent", "agent"]
        names[1 - self.seat] = name
        return render_view(view(self.game, self.seat, log=False, trail=False), self.render_mode,
                           (names[0], names[1]))


__all__ = ["FIXED_TWINS", "ParlorGymEnv", "opponent_spec"]
