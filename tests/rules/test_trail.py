"""The public trail (107.1, parlor.rules.trail): a clone shares its original's trail instead
of copying it, and a pickled clone keeps exactly its own game's decisions."""

from __future__ import annotations

import pickle
import random

from parlor.rules.actions import Action
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.state import NONE, State
from parlor.rules.view import view


def random_actions(s: State, rng: random.Random, n: int) -> list[Action]:
    """Play ``n`` random decisions on ``s`` and return them."""
    done = []
    while not s.is_over and len(done) < n:
        a = rng.choice(legal_actions(s))
        apply(s, a)
        done.append(a)
    return done


def test_107_1_a_clone_shares_the_trail_and_copies_none_of_it() -> None:
    s = new_game(5)
    random_actions(s, random.Random(5), 120)
    twin = s.clone()
    assert twin.trail is s.trail


def test_107_1_a_pickled_clone_keeps_only_its_own_trail() -> None:
    s = new_game(9)
    random_actions(s, random.Random(9), 30)
    twin = s.clone()
    random_actions(s, random.Random(10), 30)  # the original goes on past twin
    copy = pickle.loads(pickle.dumps(twin))
    assert copy.trail == twin.trail and len(s.trail) > len(twin.trail)
    random_actions(copy, random.Random(11), 5)
    assert copy.trail[:len(twin.trail)] == twin.trail


def test_107_1_a_view_reads_the_same_trail_on_both_builds() -> None:
    """The phase of a public step is a plain int (the compiled build stores the Phase member
    as one), so a view's trail prints and compares the same on the compiled and interpreted
    builds."""
    s = new_game(3)
    random_actions(s, random.Random(3), 120)
    steps = view(s, 0, log=False).trail
    assert steps and all(type(st.phase) is int for st in steps)
    assert "Phase" not in repr(steps)


def test_107_1_a_resign_on_a_clone_leaves_the_original_trail_alone() -> None:
    """A resignation is a public decision (107.1) recorded like any other: on a clone it
    goes into the clone's own copy of the shared trail, never into the original's."""
    s = new_game(5)
    random_actions(s, random.Random(5), 40)
    before = list(s.trail or [])
    c = s.clone()
    apply(c, Action("resign", NONE, c.actor))
    assert s.trail == before
    assert c.trail is not None and c.trail[:-1] == before
    assert c.trail[-1][-1].verb == "resign"
