"""How the public trail is recorded (107.1, R30, 601-602).

The trail reads the kept per-Rlr summary of untaxed Lnds by the suit they yield; here the
figures are worked out from the cards instead and must agree at every pass of many seeded
random games, with automatic steps on and off. A clone shares its original's trail until one
of them records a step (copy on write): each then goes on with its own trail.
"""

from __future__ import annotations

import random

from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.state import NONE, WINDOW1, WINDOW2, Settings
from parlor.rules.table import lnd_yield


def test_the_trail_records_the_reachable_mnr_counted_from_the_cards() -> None:
    """At a pass in a window the trail records the pool plus one point per untaxed Lnd of the
    suit it yields (601-602): the trump suit for a Lnd carrying a trump Enh, else its own."""
    passes = 0
    for seed in range(30):
        s = new_game(seed, settings=Settings(auto=seed % 2 == 0))
        s.log = None
        rng = random.Random(seed)
        while not s.is_over:
            p, ph = s.actor, s.phase
            m = list(s.pool[p])
            for lnd in s.home[p]:
                if s.taxed[lnd] == NONE:
                    m[lnd_yield(s, lnd)] += 1
            a = rng.choice(legal_actions(s))
            assert s.trail is not None
            k = len(s.trail)  # the step this action records (forced steps may follow it)
            apply(s, a)
            if a.verb == "pass" and ph in (WINDOW1, WINDOW2):
                passes += 1
                assert s.trail[k][4] == tuple(m), f"seed {seed}, turn {s.turn}"
    assert passes > 1000


def test_a_clone_and_its_original_record_their_own_trails() -> None:
    """Each of an original, its clone and the clone's clone plays on with its own choices;
    each trail is then exactly the trail of the same game played without any clone."""
    for seed in range(8):
        s = new_game(seed)
        rng = random.Random(seed)
        for _ in range(60 + 20 * seed):
            if s.is_over:
                break
            apply(s, rng.choice(legal_actions(s)))
        twin = s.clone()
        assert twin.trail is s.trail  # shared until one of them records a step
        third = twin.clone()
        for k, state in enumerate((s, twin, third)):
            choose = random.Random(seed * 10 + k)
            for _ in range(25):
                if state.is_over:
                    break
                apply(state, choose.choice(legal_actions(state)))
            again = new_game(seed)
            for a in state.history:
                apply(again, a)
            assert state.trail == again.trail, f"seed {seed}, state {k}"
