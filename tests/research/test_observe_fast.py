"""The fast path of the observation tensor (``fill_state_tensor``, read from the state)
equals its reference (``fill_tensor`` of the view, which holds only what the viewer may see,
R30) at every step of random games, for every viewer and each observation type that shows
public information: the house rule for a fast path, and how the fast path keeps the view's
privacy (the OpenSpiel observers' privacy tests run on the fast path too)."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest

from parlor.ai.determinize import Determinizer
from parlor.research import petting
from parlor.research.observe import fill_state_tensor, fill_tensor, new_tensor
from parlor.research.spiel import ParlorObserver
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.notation import parse_position, position
from parlor.rules.state import Settings, State
from parlor.rules.view import resample, view

PRIVATE = pyspiel.PrivateInfoType
OBSERVERS = [ParlorObserver(True, private, False)
             for private in (PRIVATE.NONE, PRIVATE.SINGLE_PLAYER, PRIVATE.ALL_PLAYERS)]


def _differ(fast: np.ndarray, ref: np.ndarray) -> str:
    cells = np.flatnonzero(fast != ref)[:10]
    return (f"cells (row, col) {[divmod(int(c), 28) for c in cells]}: fast "
            f"{fast[cells].tolist()}, reference {ref[cells].tolist()}")


def _check(s: State) -> None:
    for player in (0, 1):
        for observer in OBSERVERS:
            fast, ref = new_tensor(), new_tensor()
            fast[:] = 7.0  # every cell is written
            fill_state_tensor(s, player, fast, observer._shown(player))
            fill_tensor(observer._public_view(s, player), ref)
            assert np.array_equal(fast, ref), f"{observer.private} {player}: " + _differ(fast, ref)
        # the environments' observation: the Rlr's own view
        fill_tensor(view(s, player, log=False, trail=False), ref)
        obs = petting.observe_state(s, player)["observation"]
        assert np.array_equal(obs, ref), f"observe_state {player}: " + _differ(obs, ref)


@pytest.mark.parametrize("match_play", [False, True])
def test_the_fast_tensor_equals_the_views_at_every_step_of_random_games(
        match_play: bool) -> None:
    steps = 0
    for seed in range(4):
        s = new_game(seed, Settings(max_turns=120, match_play=match_play))
        rng = random.Random(seed)
        while True:
            _check(s)
            steps += 1
            if s.is_over:
                break
            apply(s, rng.choice(legal_actions(s)))
    assert steps > 800


def test_a_position_read_from_text_which_notes_no_status_gives_the_same_tensor() -> None:
    """The fast path writes the status of the cards the engine marked (State.marked); a
    position read from its text has no such notes (None), and every card on the table is
    looked at instead."""
    seen = 0
    for seed in range(2):
        s = new_game(seed, Settings(max_turns=60))
        rng = random.Random(seed)
        while not s.is_over:
            if rng.random() < 0.2:
                read = parse_position(position(s))
                assert read.marked is None
                _check(read)
                seen += 1
            apply(s, rng.choice(legal_actions(s)))
    assert seen > 40


def test_the_fast_paths_float32_division_gives_the_references_numbers_for_every_byte() -> None:
    """The fast path divides its small integers in float32; the reference divides in
    Python (float64) and stores the float32 nearest: the same number for every int8."""
    cells = np.arange(-128, 128).astype(np.int8)
    for divisor in (10, 52):
        fast = cells / np.float32(divisor)
        assert fast.dtype == np.float32
        assert np.array_equal(fast, np.array([x / divisor for x in range(-128, 128)],
                                             np.float32))


def test_late_positions_of_long_games_and_their_clones_and_resamples_give_the_same_tensor(
        ) -> None:
    """Past step 480 the table is full (a score of Lnds, half a dozen of them taxed, Enhs on
    hosts, combats): the fast path's ready-made rows for taxed cards and its Enhs read
    from their hosts are held to the reference there, and on the states made from a late
    position: a clone (its marks copied), a state resampled from the view and a
    determinization (no marks: the whole table walked)."""
    checked = 0
    seen = {"taxed": 0, "inactive": 0, "damaged": 0, "Sallied or Harried": 0}
    seed = 0
    while checked < 60:  # from the games that run past step 480 (about half do)
        seed += 1
        s = new_game(seed, Settings(max_turns=2000))
        s.log = None  # as the environments play
        rng = random.Random(seed)
        step = 0
        while not s.is_over and step < 700:
            if step >= 480 and step % 7 == 0:
                _check(s)
                _check(s.clone())
                for p in (0, 1):
                    v = view(s, p, log=False)
                    _check(resample(v, random.Random(step)))
                    _check(Determinizer(v, random.Random(step)).deal())
                checked += 1
                in_play = [c for q in (0, 1) for c in s.home[q] + s.field[q]]
                seen["taxed"] += any(s.taxed[c] >= 0 for c in in_play)
                seen["inactive"] += any(s.inactive[c] for c in in_play)
                seen["damaged"] += any(s.damage[c] for c in in_play)
                seen["Sallied or Harried"] += any(s.pwr_mod[c] or s.tgh_mod[c] for c in in_play)
            apply(s, rng.choice(legal_actions(s)))
            step += 1
    assert seed < 40
    assert all(seen.values()), seen  # each status was on the table at some checked step
