"""Forced decisions (``settings.auto``): the engine takes the only legal choice by itself, and
its event says so, so that a log never reads as if a Rlr chose it."""

from __future__ import annotations

import random

from parlor.present.prose import AUTOMATIC, prose
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.events import Event
from parlor.rules.state import OVER, State


def _played(seed: int) -> State:
    s = new_game(seed)
    rng = random.Random(seed)
    while s.phase is not OVER:
        apply(s, rng.choice(legal_actions(s)))
    return s


def test_R8_a_forced_end_of_turn_is_marked_automatic() -> None:
    s = _played(3)
    assert s.log is not None
    forced = [e for e in s.log if e.automatic]
    assert forced, "seed 3 has turns where a Rlr has no Cre able to attack"
    assert {e.kind for e in forced} <= {"end", "keep", "trim", "attack", "block", "play",
                                       "expel", "redraw"}
    # the record holds only the decisions made: each chosen "end" is in it, no forced one
    chosen = sum(1 for e in s.log if e.kind == "end" and not e.automatic)
    assert sum(1 for a in s.history if a.verb == "end") == chosen


def test_R8_a_chosen_end_of_turn_is_not_marked() -> None:
    s = new_game(5)
    while s.phase is not OVER:
        legal = legal_actions(s)
        if len(legal) > 1 and any(a.verb == "end" for a in legal):
            n = len(s.log or ())
            apply(s, next(a for a in legal if a.verb == "end"))
            ends = [e for e in (s.log or [])[n:] if e.kind == "end"]
            assert ends and not ends[0].automatic
            return
        apply(s, legal[0])
    raise AssertionError("seed 5 never offers a chosen end of turn")


def test_the_log_says_automatic_in_prose() -> None:
    assert prose(Event("end", 1, rule="406.2", automatic=True), 0, 0) == (
        f"The computer does not attack: the turn ends {AUTOMATIC}")
