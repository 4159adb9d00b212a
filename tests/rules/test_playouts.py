"""Random-playout invariants over 2,000 seeded games (the engine's perft).

Every step: all 104 cards are in exactly one place. Sampled steps: every listed action
applies to a clone; unlisted actions are refused with the state unchanged; views hide the
other Rlr's cards; clones are independent. Every game ends, and its record replays exactly.
"""

from __future__ import annotations

import json
import random

import pytest

from parlor.rules.actions import Action, IllegalActionError
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.notation import position, record, replay
from parlor.rules.state import DOMAIN, NONE, STACK, State, ref_text
from parlor.rules.table import bookkeeping_errors
from parlor.rules.view import resample, view

pytestmark = pytest.mark.slow  # `make check` leaves it out: random playouts, 5-28 s each

GAMES = 2000
CHUNK = 100
VERBS = ("play", "expel", "attack", "block", "volley", "ally", "carry", "assign", "bonus",
         "trim", "keep", "redraw", "sally", "harry", "pass", "done", "end")


def census(s: State) -> None:
    cards = [c for zone in s.zones().values() for c in zone]
    assert len(cards) == 104, f"{len(cards)} cards accounted for"
    assert set(cards) == set(range(104))


def random_action(rng: random.Random) -> Action:
    targets = [NONE, STACK, *DOMAIN, *range(104)]
    return Action(rng.choice(VERBS), rng.choice([NONE, *range(52)]), rng.choice(targets))


def check_listed_apply(s: State) -> None:
    for a in legal_actions(s):
        apply(s.clone(), a)


def check_unlisted_refused(s: State, rng: random.Random) -> None:
    legal = set(legal_actions(s))
    before = position(s)
    for _ in range(5):
        a = random_action(rng)
        if a in legal:
            continue
        with pytest.raises(IllegalActionError):
            apply(s, a)
        assert position(s) == before


def check_views_hide(s: State) -> None:
    for p in (0, 1):
        v = view(s, p)
        text = json.dumps(v.to_dict())
        q = 1 - p
        hidden = s.hand[q] + s.draw[q] + [c for c in s.recycle[q] if c not in
                                           s.public_recycle[q]]
        if s.phasing == q:
            hidden += s.drawn
        for cid in hidden:
            assert f'"{ref_text(cid)}"' not in text, f"{ref_text(cid)} leaks to Rlr {p + 1}"
        assert v.sides[q].hand is None
        assert view(resample(v, random.Random(1)), p) == v


def check_clone_independent(s: State, rng: random.Random) -> None:
    """A clone's moves change neither the state it was cloned from nor a clone of its own:
    the lists a clone shares until written (history, trail, kept counts, combat status) are
    copied by whichever writes first, original or clone."""
    before, history = position(s), list(s.history)
    c = s.clone()
    twin = c.clone()
    for _ in range(10):
        if c.is_over:
            break
        apply(c, rng.choice(legal_actions(c)))
    assert position(s) == before and s.history == history
    assert position(twin) == before and twin.history == history
    assert not bookkeeping_errors(s) and not bookkeeping_errors(twin)


@pytest.mark.parametrize("chunk", range(GAMES // CHUNK))
def test_random_playouts_keep_every_invariant(chunk: int) -> None:
    for seed in range(chunk * CHUNK, (chunk + 1) * CHUNK):
        s = new_game(seed)
        s.log = None
        rng = random.Random(seed)
        deep = seed % 25 == 0  # the expensive checks on a sample of games
        steps = 0
        while not s.is_over:
            census(s)
            if deep and steps % 5 == 0:
                check_listed_apply(s)
                check_unlisted_refused(s, rng)
                check_views_hide(s)
                check_clone_independent(s, rng)
            apply(s, rng.choice(legal_actions(s)))
            steps += 1
            assert steps < 20_000, "a game must end"
        census(s)
        assert s.turn <= s.settings.max_turns + 1
        if seed % 10 == 0:
            assert position(replay(record(s))) == position(s)


def test_legal_actions_is_a_fresh_list_each_time() -> None:
    s = new_game(5)
    c = s.clone()
    legal = legal_actions(s)
    legal.clear()  # a caller's list is its own: neither the state nor its clone changes
    assert legal_actions(s) == legal_actions(c) != []
