"""The public trail (107.1, parlor.rules.trail): a clone shares its original's trail instead
of copying it, and every copy still reads exactly its own game's decisions."""

from __future__ import annotations

import pickle
import random

from parlor.rules.actions import Action
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.state import State
from parlor.rules.trail import steps
from parlor.rules.view import view


def played(seed: int, actions: list[Action]) -> State:
    s = new_game(seed)
    for a in actions:
        apply(s, a)
    return s


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
    assert twin.trail is s.trail and steps(twin) == steps(s)


def test_107_1_copies_that_go_on_differently_each_read_their_own_decisions() -> None:
    """The original, a clone and a clone of the clone play on from one position in turns:
    each one's trail (and each view's) is the trail of the same game replayed alone."""
    s = new_game(8)
    start = random_actions(s, random.Random(8), 60)
    games = [s, s.clone()]
    games.append(games[1].clone())
    rngs = [random.Random(i) for i in range(3)]
    played_since: list[list[Action]] = [[], [], []]
    for _ in range(40):
        for g, rng, since in zip(games, rngs, played_since, strict=True):
            since += random_actions(g, rng, 1)
    for g, since in zip(games, played_since, strict=True):
        alone = played(8, start + since)
        assert steps(g) == steps(alone)
        for viewer in (0, 1):
            assert view(g, viewer, log=False).trail == view(alone, viewer, log=False).trail


def test_107_1_a_pickled_clone_keeps_only_its_own_trail() -> None:
    s = new_game(9)
    random_actions(s, random.Random(9), 30)
    twin = s.clone()
    random_actions(s, random.Random(10), 30)  # the shared list runs past twin's steps
    copy = pickle.loads(pickle.dumps(twin))
    assert steps(copy) == steps(twin) and len(steps(s)) > len(steps(twin))
    random_actions(copy, random.Random(11), 5)
    assert steps(copy)[:len(steps(twin))] == steps(twin)
