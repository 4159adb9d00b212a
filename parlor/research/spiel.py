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
* **Observations**: :mod:`parlor.research.observe`, from ``view`` only, exactly as an
  ``IIGObservationType`` asks (:class:`ParlorObserver`: public, private, perfect recall).
* **Utility**: zero-sum, +1 / -1, 0 each for a draw at the turn limit (R17).

Parameters: ``max_turns`` (200, R17), ``deals`` (65,536), ``first_seed`` (0), ``match_play``
(False: Discard piles open, R30).
"""

from __future__ import annotations

import functools
import random
from dataclasses import replace
from typing import Any

import pyspiel

from parlor.research.numbering import NUM_DISTINCT_ACTIONS, decode, encode
from parlor.research.observe import (
    GLOBAL_FEATURES,
    OBS_SIZE,
    Tensor,
    fill_private_tensor,
    fill_state_tensor,
    information_state_string,
    new_tensor,
    observation_string,
    private_string,
)
from parlor.rules.engine import apply, legal_actions, new_game, returns
from parlor.rules.notation import position
from parlor.rules.state import Phase, Settings, State
from parlor.rules.view import SPECTATOR, View, resample, view

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
        if self.deals < 1:
            raise ValueError(f"deals={self.deals}: a game needs at least one deal")
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
        """An observer that shows exactly what ``iig_obs_type`` asks for (R30): the public
        part, the observing Rlr's private cards, everyone's, and the past (perfect recall).
        None is OpenSpiel's default observation (public and the observer's private)."""
        if params:
            raise ValueError(f"parlor_magic observers take no parameters; got {params}")
        if iig_obs_type is None:
            return ParlorObserver(True, pyspiel.PrivateInfoType.SINGLE_PLAYER, False)
        return ParlorObserver(bool(iig_obs_type.public_info), iig_obs_type.private_info,
                              bool(iig_obs_type.perfect_recall))


class ParlorState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: the engine's state once the deal (the chance node) is done.

    A state made by :meth:`resample_from_infostate` for Rlr ``p`` carries the log as ``p``
    read it, so ``p``'s information state is unchanged, and the public record of the past.
    The other Rlr's own past is unknown there: its information state is the public record
    of the past (marked as such) followed by what it has read since, which is what a search
    keyed by information states (OpenSpiel's ISMCTS with its default settings) needs."""

    def __init__(self, game: ParlorGame) -> None:
        super().__init__(game)
        self.settings = game.settings
        self.deals = game.deals
        self.first_seed = game.first_seed
        self.engine: State | None = None
        #: The log before ``engine`` began, as each reader (0, 1, SPECTATOR) read it; None
        #: when ``engine`` began at the deal.
        self.known: dict[int, tuple[str, ...]] | None = None
        #: Resampled states log their events (for information states) unless this is off,
        #: as it is for searches keyed by observations, whose rollouts need no log.
        self.keep_log = True
        #: While a resampled state takes on its source's history: who played each action.
        self._replaying: int | None = None

    # -- the OpenSpiel state interface ------------------------------------------------------

    def current_player(self) -> int:
        if self._replaying is not None:
            return self._replaying
        s = self.engine
        if s is None:
            return int(pyspiel.PlayerId.CHANCE)
        if s.phase is Phase.OVER:
            return int(pyspiel.PlayerId.TERMINAL)
        return s.actor

    def legal_actions(self, player: int | None = None) -> list[int]:
        """OpenSpiel's ``LegalActions`` answered in Python: a call from Python (ISMCTS,
        ``rl_environment``, a training loop) then makes no round trip through C++, which on
        the compiled engine cost as much as the decision. The same answers: the chance
        outcomes at the chance node, nothing at the end or for a Rlr not to act."""
        current = self.current_player()
        if player is not None and player != current:
            return []
        if current == pyspiel.PlayerId.CHANCE:
            return list(range(self.deals))
        if current == pyspiel.PlayerId.TERMINAL:
            return []
        return self._legal_actions(current)

    def _legal_actions(self, player: int) -> list[int]:
        assert self.engine is not None
        return sorted([encode(a) for a in legal_actions(self.engine)])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(_deal_outcomes(self.deals))

    def _apply_action(self, action: int) -> None:
        if self._replaying is not None:
            return  # the history only: the engine is set once it is replayed
        if self.engine is None:
            if not 0 <= action < self.deals:
                raise ValueError(f"deal {action} is outside this game's deals 0-{self.deals - 1}")
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
        (``resample``), drawn from a generator seeded by ``sampler``. It reports this state's
        history (the path that led to the position; replaying it gives this state, not the
        resampled one, whose hidden cards no deal need produce)."""
        s = self.engine
        assert s is not None
        rng = random.Random(int(sampler() * 2**53))
        v = view(s, player_id, log=False, trail=False)
        known: dict[int, tuple[str, ...]] | None = None
        if self.keep_log:
            q = 1 - player_id
            public = (*self.earlier_log(SPECTATOR), *_log_lines(s, None))
            known = {player_id: (*self.earlier_log(player_id), *_log_lines(s, player_id)),
                     SPECTATOR: public, q: (_unknown_past(q, player_id), *public)}
        out = self._resampled(self.get_game(), v, rng, known, self.keep_log)
        out._take_history(self.full_history())
        return out

    @classmethod
    def from_view(cls, game: ParlorGame, v: View, rng: random.Random,
                  keep_log: bool = True) -> ParlorState:
        """A dealt state that looks like ``v`` to its Rlr (hidden cards from ``rng``). Its
        history is empty: a view does not carry the actions that led to it."""
        known = None
        if keep_log:
            q = 1 - v.player
            unknown = (_unknown_past(q, v.player),)
            known = {v.player: v.log, SPECTATOR: unknown, q: unknown}
        return cls._resampled(game, v, rng, known, keep_log)

    @classmethod
    def _resampled(cls, game: ParlorGame, v: View, rng: random.Random,
                   known: dict[int, tuple[str, ...]] | None, keep_log: bool) -> ParlorState:
        out = cls(game)
        out.engine = resample(v, rng)
        out.engine.log = [] if keep_log else None  # events from here on, as they happen
        out.known = known
        out.keep_log = keep_log
        return out

    def _take_history(self, history: list[Any]) -> None:
        """Apply ``history`` (PlayerActions) to OpenSpiel's record only, not to the engine."""
        engine, self.engine = self.engine, None
        try:
            for step in history:
                self._replaying = step.player
                self.apply_action(step.action)
        finally:
            self._replaying = None
            self.engine = engine

    def __str__(self) -> str:
        return "deal pending" if self.engine is None else position(self.engine)

    # -- for observers ------------------------------------------------------------------------

    def earlier_log(self, reader: int) -> tuple[str, ...]:
        """The log before this state's engine began, as ``reader`` (0, 1 or SPECTATOR for
        the public record) read it."""
        assert self.engine is not None
        if self.engine.log is None:
            raise ValueError("this state keeps no game log (keep_log=False): it has no "
                             "information state string; use observation_string")
        if self.known is None:
            return ()
        return self.known[reader]


@functools.cache
def _deal_outcomes(deals: int) -> tuple[tuple[int, float], ...]:
    """The deal's chance outcomes, listed once: 65,536 tuples cost 10-47 ms to build, which
    every ``rl_environment.reset()`` paid. (Not a state's attribute: OpenSpiel deep-copies a
    state's attributes on every clone.)"""
    return tuple((i, 1.0 / deals) for i in range(deals))


def _log_lines(s: State, reader: int | None) -> tuple[str, ...]:
    """The engine's log as ``reader`` read it (None: the public sentences)."""
    return tuple(e.text_for(reader) for e in s.log or ())


def _unknown_past(q: int, p: int) -> str:
    return (f"(Rlr {q + 1}'s own past is unknown in a state dealt for Rlr {p + 1}: "
            "the public record of it follows)")


class ParlorObserver:
    """OpenSpiel's PyObserver for one ``IIGObservationType`` (R30).

    * public only (``private_info`` NONE): what a spectator sees, oriented to the observing
      Rlr (mine first); the string is the same for both Rlrs. Nobody's Hand, drawn cards or
      face-down Recycle cards, not even the observer's own.
    * public and the observer's private (SINGLE_PLAYER, OpenSpiel's default): ``view``.
    * public and everyone's private (ALL_PLAYERS): both Hands, the drawn cards and both
      Recycle piles (Draw piles stay hidden: their order is the future, nobody's
      information).
    * private only (``public_info`` False): the private cards alone (Hand, drawn, face-down
      Recycle) of the observer (SINGLE_PLAYER) or of both Rlrs (ALL_PLAYERS), in the same
      tensor layout with every other cell zero.
    * perfect recall: the game log as the observer read it (the public sentences for the
      public-only type) before the observation string; the tensor is the type's tensor.
      Perfect recall is provided with public information and NONE or SINGLE_PLAYER."""

    def __init__(self, public: bool, private: Any, perfect_recall: bool) -> None:
        if perfect_recall and (not public or private == pyspiel.PrivateInfoType.ALL_PLAYERS):
            raise ValueError("parlor_magic provides perfect recall only with public "
                             "information and the observer's private information or none")
        self.public = public
        self.private = private
        self.perfect_recall = perfect_recall
        self.tensor: Tensor = new_tensor()
        split = OBS_SIZE - GLOBAL_FEATURES
        self.dict = {"cards": self.tensor[:split].reshape(104, -1),
                     "globals": self.tensor[split:]}

    def _public_view(self, s: State, player: int, log: bool = False) -> View:
        """The view of the type with public information, oriented to ``player``."""
        if self.private == pyspiel.PrivateInfoType.NONE:
            return replace(view(s, SPECTATOR, log=log, trail=False), player=player)
        v = view(s, player, log=log, trail=False)
        if self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            other = view(s, 1 - player, log=False, trail=False)
            sides = [v.sides[0], v.sides[1]]
            sides[1 - player] = other.sides[1 - player]
            drawn = v.drawn if v.drawn is not None else other.drawn
            v = replace(v, sides=(sides[0], sides[1]), drawn=drawn)
        return v

    def _shown(self, player: int) -> tuple[bool, bool]:
        """Whose private cards the type with public information shows: the tensor of
        :meth:`_public_view` is ``fill_state_tensor`` with these (the fast path;
        tests/research/test_observe_fast.py holds them equal)."""
        if self.private == pyspiel.PrivateInfoType.NONE:
            return (False, False)
        if self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            return (True, True)
        return (player == 0, player == 1)

    def _private_parts(self, s: State, player: int) -> list[View]:
        """The views whose owners' private cards this private-only type shows."""
        if self.private == pyspiel.PrivateInfoType.NONE:
            return []
        if self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            return [view(s, player, log=False, trail=False)]
        return [view(s, 0, log=False, trail=False), view(s, 1, log=False, trail=False)]

    def set_from(self, state: ParlorState, player: int) -> None:
        s = state.engine
        if s is None:
            self.tensor.fill(0.0)
        elif self.public:
            fill_state_tensor(s, player, self.tensor, self._shown(player))
        else:
            fill_private_tensor(player, self._private_parts(s, player), self.tensor)

    def string_from(self, state: ParlorState, player: int) -> str:
        s = state.engine
        if s is None:
            return "deal pending"
        if not self.public:
            return private_string(self._private_parts(s, player))
        if self.private == pyspiel.PrivateInfoType.NONE:
            public = view(s, SPECTATOR, log=self.perfect_recall, trail=False)
            if self.perfect_recall:
                return information_state_string(public, state.earlier_log(SPECTATOR))
            return observation_string(public)
        if self.perfect_recall:
            return information_state_string(view(s, player, trail=False), state.earlier_log(player))
        return observation_string(self._public_view(s, player))


pyspiel.register_game(GAME_TYPE, ParlorGame)


def load(**params: Any) -> Any:
    """``pyspiel.load_game("parlor_magic", params)``."""
    return pyspiel.load_game(SHORT_NAME, params)


__all__ = ["GAME_TYPE", "ParlorGame", "ParlorObserver", "ParlorState", "load"]
