"""Parlor Magic as an OpenSpiel game: ``pyspiel.load_game("parlor_magic")``.

Importing this module registers the game. It is a Python game over the engine's public API
(``new_game``, ``legal_actions``, ``apply``, ``returns``, ``view``, ``resample``):

* **Chance: one explicit chance node, the deal.** Its outcome ``i`` (uniform over
  ``deals``, default 65,536) deals the game from seed ``first_seed + i`` (R31). The seed
  also fixes every later reshuffle of a Recycle pile into a Draw pile (the engine derives
  them from it), so there are no chance nodes after the deal: the order of a reshuffled pile
  is drawn at the deal and stays hidden from both Rlrs until its cards are drawn, which is
  the same game for them. Explicit, because then algorithms that sample chance (ISMCTS,
  outcome-sampling MCCFR) see the true spread of deals, and a game record is the chance
  outcome plus the decisions: the history replays exactly.
* **Actions**: the fixed numbering of :mod:`parlor.research.numbering`
  (``num_distinct_actions`` = 33,966); ``action_to_string`` gives the notation text.
* **Observations**: :mod:`parlor.research.observe`, from ``view(state, player)`` only.
* **Utility**: zero-sum, +1 / -1, 0 each for a draw at the turn limit (R17).

Parameters: ``max_turns`` (200, R17), ``deals`` (65,536), ``first_seed`` (0), ``match_play``
(False: Discard piles open, R30).
"""

from __future__ import annotations

import random
from typing import Any

import pyspiel

from parlor.research.numbering import NUM_DISTINCT_ACTIONS, decode, encode
from parlor.research.observe import (
    GLOBAL_FEATURES,
    OBS_SIZE,
    Tensor,
    fill_tensor,
    information_state_string,
    new_tensor,
    observation_string,
)
from parlor.rules.engine import apply, legal_actions, new_game, returns
from parlor.rules.notation import position
from parlor.rules.state import Phase, Settings, State
from parlor.rules.view import View, resample, view

SHORT_NAME = "parlor_magic"
#: Decisions per turn, a bound far above play (random play averages under 3 a turn; 300
#: random games of 200 turns took 676 decisions at most in all); ``max_game_length`` is
#: this times the turn limit, and tests/research check that no game goes past it.
DECISIONS_PER_TURN = 400
DEFAULT_PARAMS: dict[str, Any] = {"max_turns": 200, "deals": 1 << 16, "first_seed": 0,
                                  "match_play": False}

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Parlor Magic",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMS,
)


class ParlorGame(pyspiel.Game):  # type: ignore[misc]
    """The game; its parameters are in :data:`DEFAULT_PARAMS`."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**DEFAULT_PARAMS, **(params or {})}
        self.settings = Settings(max_turns=int(p["max_turns"]), match_play=bool(p["match_play"]))
        self.deals = int(p["deals"])
        self.first_seed = int(p["first_seed"])
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_DISTINCT_ACTIONS,
            max_chance_outcomes=self.deals,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=1 + DECISIONS_PER_TURN * self.settings.max_turns,
        )
        super().__init__(GAME_TYPE, info, p)

    def new_initial_state(self) -> ParlorState:
        return ParlorState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> ParlorObserver:
        if params:
            raise ValueError(f"parlor_magic observers take no parameters; got {params}")
        recall = iig_obs_type is not None and bool(iig_obs_type.perfect_recall)
        return ParlorObserver(recall)


class ParlorState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: the engine's state once the deal (the chance node) is done.

    A state made by :meth:`resample_from_infostate` for Rlr ``p`` carries the log as ``p``
    read it, so ``p``'s information state is unchanged; the other Rlr's past is unknown
    there, and asking for its information state raises."""

    def __init__(self, game: ParlorGame) -> None:
        super().__init__(game)
        self.settings = game.settings
        self.deals = game.deals
        self.first_seed = game.first_seed
        self.engine: State | None = None
        self.known: tuple[int, tuple[str, ...]] | None = None  # (Rlr, log as they read it)
        #: Resampled states log their events (for information states) unless this is off,
        #: as it is for searches keyed by observations, whose rollouts need no log.
        self.keep_log = True

    # -- the OpenSpiel state interface ------------------------------------------------------

    def current_player(self) -> int:
        s = self.engine
        if s is None:
            return int(pyspiel.PlayerId.CHANCE)
        if s.phase is Phase.OVER:
            return int(pyspiel.PlayerId.TERMINAL)
        return s.actor

    def _legal_actions(self, player: int) -> list[int]:
        assert self.engine is not None
        return sorted(encode(a) for a in legal_actions(self.engine))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / self.deals
        return [(i, p) for i in range(self.deals)]

    def _apply_action(self, action: int) -> None:
        if self.engine is None:
            self.engine = new_game(self.first_seed + action, self.settings)
        else:
            apply(self.engine, decode(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal seed {self.first_seed + action}"
        return str(decode(action))

    def is_terminal(self) -> bool:
        return self.engine is not None and self.engine.phase is Phase.OVER

    def returns(self) -> list[float]:
        if self.engine is None:
            return [0.0, 0.0]
        return list(returns(self.engine))

    def resample_from_infostate(self, player_id: int, sampler: Any) -> ParlorState:
        """A state ``player_id`` cannot tell from this one: hidden cards dealt at random
        (``resample``), drawn from a generator seeded by ``sampler``."""
        assert self.engine is not None
        rng = random.Random(int(sampler() * 2**53))
        v = view(self.engine, player_id, trail=False)
        earlier = self.known[1] if self.known and self.known[0] == player_id else ()
        return self._resampled(self.get_game(), v, rng, (*earlier, *v.log), self.keep_log)

    @classmethod
    def from_view(cls, game: ParlorGame, v: View, rng: random.Random,
                  keep_log: bool = True) -> ParlorState:
        """A dealt state that looks like ``v`` to its Rlr (hidden cards from ``rng``)."""
        return cls._resampled(game, v, rng, v.log, keep_log)

    @classmethod
    def _resampled(cls, game: ParlorGame, v: View, rng: random.Random,
                   earlier: tuple[str, ...], keep_log: bool) -> ParlorState:
        out = cls(game)
        out.engine = resample(v, rng)
        out.engine.log = [] if keep_log else None  # events from here on, as they happen
        out.known = (v.player, earlier)
        out.keep_log = keep_log
        return out

    def __str__(self) -> str:
        return "deal pending" if self.engine is None else position(self.engine)

    # -- for observers ------------------------------------------------------------------------

    def earlier_log(self, player: int) -> tuple[str, ...]:
        """The log before this state's engine began, as ``player`` read it."""
        assert self.engine is not None
        if self.engine.log is None:
            raise ValueError("this state keeps no game log (keep_log=False): it has no "
                             "information state string; use observation_string")
        if self.known is None:
            return ()
        if self.known[0] != player:
            raise ValueError(f"this state was resampled for Rlr {self.known[0] + 1}: Rlr "
                             f"{player + 1}'s information state is not known here")
        return self.known[1]


class ParlorObserver:
    """OpenSpiel's PyObserver: ``tensor`` and ``dict`` for :meth:`set_from`, and strings.

    Perfect-recall observers (information states) write the game log before the view; the
    tensor is the view's tensor for both (see :mod:`parlor.research.observe`)."""

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor: Tensor = new_tensor()
        split = OBS_SIZE - GLOBAL_FEATURES
        self.dict = {"cards": self.tensor[:split].reshape(104, -1),
                     "globals": self.tensor[split:]}

    def set_from(self, state: ParlorState, player: int) -> None:
        if state.engine is None:
            self.tensor.fill(0.0)
            return
        fill_tensor(view(state.engine, player, log=False, trail=False), self.tensor)

    def string_from(self, state: ParlorState, player: int) -> str:
        if state.engine is None:
            return "deal pending"
        if self.perfect_recall:
            return information_state_string(view(state.engine, player, trail=False),
                                            state.earlier_log(player))
        return observation_string(view(state.engine, player, log=False, trail=False))


pyspiel.register_game(GAME_TYPE, ParlorGame)


def load(**params: Any) -> Any:
    """``pyspiel.load_game("parlor_magic", params)``."""
    return pyspiel.load_game(SHORT_NAME, params)


__all__ = ["GAME_TYPE", "ParlorGame", "ParlorObserver", "ParlorState", "load"]
