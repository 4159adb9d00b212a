"""Parlor Magic as a PettingZoo AEC environment: ``parlor.research.env()``.

Agents are ``rlr_1`` and ``rlr_2``. The agent to act is whoever the rules say decides now
(not strictly alternating: a Rlr declares attackers one by one, R8). Each observation is a
dict: ``observation``, the view tensor of :mod:`parlor.research.observe` (float32, 2,960),
and ``action_mask`` (int8, 33,966: the numbering of :mod:`parlor.research.numbering`; all
zero for the agent that does not decide). Each agent's info holds ``legal_actions``, the
same legal actions as a list of numbers (empty for the agent that does not decide), so a
loop that picks among them need not search the 33,966-wide mask. Rewards come at the end:
+1 / -1, 0 each for a draw at the turn limit (R17), which is a termination (a rule of the
game), not a truncation.
An illegal action raises the engine's IllegalActionError, whose message cites the rule.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from parlor.ai.numbers import action_numbers
from parlor.research.numbering import NUM_DISTINCT_ACTIONS, decode
from parlor.research.observe import OBS_SIZE, observation_string, state_tensor
from parlor.rules.engine import apply, legal_actions, new_game, returns
from parlor.rules.state import Phase, Settings, State
from parlor.rules.view import View, view

AGENTS = ("rlr_1", "rlr_2")
#: ``human`` prints the terminal's picture of the spread (``parlor play``'s) and returns
#: None; ``ansi`` returns the observation string (:func:`observe.observation_string`).
RENDER_MODES = ["human", "ansi"]
#: The tensor's numbers are fractions of small counts; this bound is far outside them.
OBS_BOUND = 100.0


def observation_space() -> spaces.Dict:
    return spaces.Dict({
        "observation": spaces.Box(-OBS_BOUND, OBS_BOUND, (OBS_SIZE,), np.float32),
        "action_mask": spaces.Box(0, 1, (NUM_DISTINCT_ACTIONS,), np.int8),
    })


def observe_state(s: State, player: int,
                  legal: list[int] | None = None) -> dict[str, Any]:
    """The observation dict of ``player``: the tensor of its view (the state read by
    :func:`~parlor.research.observe.fill_state_tensor`, held equal to the view's by
    tests/research/test_observe_fast.py) with its action mask (``legal``: the numbers of
    the legal actions, when the caller has them: :func:`legal_numbers`)."""
    return {"observation": observe_tensor(s, player),
            "action_mask": action_mask(s, player, legal)}


def observe_tensor(s: State, player: int) -> npt.NDArray[np.float32]:
    """The tensor of ``player``'s view alone (no mask)."""
    return state_tensor(s, player, OWN_CARDS[player])


#: ``shown`` of fill_state_tensor for a Rlr's own view: its private cards, not the other's.
OWN_CARDS = ((True, False), (False, True))


def legal_numbers(s: State, player: int) -> list[int]:
    """The numbers of the legal actions when ``player`` decides now, else none."""
    if s.actor == player and s.phase is not Phase.OVER:
        return action_numbers(legal_actions(s))
    return []


def action_mask(s: State, player: int,
                legal: list[int] | None = None) -> npt.NDArray[np.int8]:
    """1 at the number of each legal action when ``player`` decides now, else all zero
    (``legal``: :func:`legal_numbers` of ``s`` and ``player``, if the caller has it)."""
    mask = np.zeros(NUM_DISTINCT_ACTIONS, np.int8)
    if legal is None:
        legal = legal_numbers(s, player)
    if legal:
        mask.put(legal, 1)  # cheaper than mask[list] = 1
    return mask


def render_view(v: View, mode: str, names: tuple[str, str]) -> str | None:
    """Render ``v`` in ``mode`` (one of :data:`RENDER_MODES`)."""
    if mode == "ansi":
        return observation_string(v)
    from rich.console import Console

    from parlor.terminal.spread import spread

    console = Console()
    for line in spread(v, names):
        console.print(line)
    return None


class ParlorAECEnv(AECEnv):  # type: ignore[misc]
    """The raw environment; :func:`env` wraps it in PettingZoo's order checks."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": RENDER_MODES, "name": "parlor_magic_v0",
                                          "is_parallelizable": False}

    def __init__(self, max_turns: int = 200, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode {render_mode!r}: choose one of {RENDER_MODES} or None")
        self.render_mode = render_mode
        self.settings = Settings(max_turns=max_turns)
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self._obs_space = observation_space()
        self._act_space = spaces.Discrete(NUM_DISTINCT_ACTIONS)
        self.game: State | None = None
        self._rng = np.random.default_rng()
        #: Each agent's observation of the position now, made when first asked for:
        #: ``last()`` and ``observe()`` of one step share it; a step or a reset clears it.
        self._observed: dict[str, dict[str, Any]] = {}

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._act_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        deal = int(self._rng.integers(2**63))
        self.game = new_game(deal, self.settings)
        self.game.log = None  # observations come from views, never from the log
        self._observed = {}
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {"deal": deal} for a in self.agents}
        self.agent_selection = AGENTS[self.game.actor]
        self._settle()

    def observe(self, agent: str) -> dict[str, Any]:
        obs = self._observed.get(agent)
        if obs is None:
            assert self.game is not None
            info = self.infos.get(agent)  # none once a dead agent has stepped out
            obs = self._observed[agent] = observe_state(
                self.game, AGENTS.index(agent),
                None if info is None else info.get("legal_actions"))
        return obs

    def step(self, action: int | None) -> None:
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        assert self.game is not None and action is not None
        agent = self.agent_selection
        self._cumulative_rewards[agent] = 0.0
        apply(self.game, decode(int(action)))
        self._observed = {}
        self._settle()

    def _settle(self) -> None:
        """Rewards and terminations after a move, and the next agent."""
        assert self.game is not None
        s = self.game
        if s.phase is Phase.OVER:
            for agent, r in zip(AGENTS, returns(s), strict=True):
                self.rewards[agent] = r
                self.terminations[agent] = True
                self.infos[agent]["result"] = s.result
                self.infos[agent]["legal_actions"] = []
            self._accumulate_rewards()
            return
        # the rewards stay all zero until the game ends (reset zeroes them, only the end
        # sets them), so a step mid-game need not zero them again
        self.agent_selection = AGENTS[s.actor]
        # the actor's legal actions by number (its mask is made from them too); a new
        # list each step, never one changed in place
        for p, agent in enumerate(AGENTS):
            self.infos[agent]["legal_actions"] = legal_numbers(s, p)

    def render(self) -> str | None:
        if self.render_mode is None or self.game is None:
            return None
        v = view(self.game, self.game.actor, log=False, trail=False)
        return render_view(v, self.render_mode, AGENTS)

    def close(self) -> None:
        pass


class OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order enforcement, the same checks, with what a step's loop reads
    (``last()``, ``agents``, ``agent_selection``) taken from the environment in one call:
    the wrapper's own ``__getattr__`` route (two levels of it, a set built and a name
    tested per read, eight reads a step of ``agent_iter`` + ``last`` + ``step``) cost
    about as much as a decision of the compiled engine."""

    def _check_reset(self, name: str) -> None:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")  # as the wrapper's

    @property
    def agents(self) -> list[str]:
        self._check_reset("agents")
        return self.env.agents  # type: ignore[no-any-return]

    @property
    def agent_selection(self) -> str:
        self._check_reset("agent_selection")
        return self.env.agent_selection  # type: ignore[no-any-return]

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self._check_reset("agent_selection")
        return self.env.last(observe)  # type: ignore[no-any-return]


def env(max_turns: int = 200, render_mode: str | None = None) -> AECEnv:
    """The AEC environment, wrapped in PettingZoo's order enforcement."""
    return OrderEnforcing(ParlorAECEnv(max_turns, render_mode))


__all__ = ["AGENTS", "OWN_CARDS", "ParlorAECEnv", "action_mask", "env", "observation_space",
           "observe_state", "observe_tensor"]
