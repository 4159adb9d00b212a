"""The public trail records the mnr within the decider's reach at a pass (601-602, R21).

The trail reads the kept per-Rlr summary of untaxed Lnds by the suit they yield; here the
figures are worked out from the cards instead and must agree at every pass of many seeded
random games, with automatic steps on and off.
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
