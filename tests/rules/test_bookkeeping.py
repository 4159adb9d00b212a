"""The incremental bookkeeping agrees with the cards at every step (R4, R21, R25).

The engine keeps two summaries up to date as cards move instead of rescanning the table for
each listing: every entity's spot counts (R25) and each Rlr's untaxed Lnds by the suit they
yield (R21, what ``available`` adds to the pool); and it marks the cards whose status (taxed,
inactive, damage, Sally/Harry) is set, so that the untax step looks at those only (R4, R5,
R12). This is their debug check: over many seeded random games, with automatic steps on and
off, after every action the kept figures equal the ones worked out from the cards, and a
state read back from its position (which counts afresh) lists the same actions.
"""

from __future__ import annotations

import ast
import functools
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.notation import parse_position, position
from parlor.rules.reshuffle import fisher_yates, seeded
from parlor.rules.state import (
    COMBAT_STATUS,
    ENH_COUNTS,
    HISTORY,
    TRAIL,
    Combat,
    Settings,
    State,
)
from parlor.rules.table import (
    bookkeeping_errors,
    count_untaxed,
    counts,
    untaxed_lnds,
)

GAMES = 300


def _kept_now(s: State) -> None:
    """Make the state keep both summaries from now on (a new game counts them lazily)."""
    untaxed_lnds(s)
    counts(s, 0)


@pytest.mark.parametrize("chunk", range(GAMES // 50))
@pytest.mark.slow
def test_kept_counts_and_untaxed_lnds_match_the_cards_every_step(chunk: int) -> None:
    for seed in range(chunk * 50, chunk * 50 + 50):
        s = new_game(seed, settings=Settings(auto=seed % 2 == 0))
        s.log = None
        _kept_now(s)
        rng = random.Random(seed)
        n = 0
        while not s.is_over:
            trump = s.trump
            apply(s, rng.choice(legal_actions(s)))
            n += 1
            errors = bookkeeping_errors(s)
            assert not errors, f"seed {seed}, step {n}: {errors}"
            assert s.ecounts is not None, "the counts are never dropped"
            # the untaxed Lnds are counted afresh only after the trump suit changed
            assert s.untaxed is not None or s.trump != trump, f"seed {seed}, step {n}"
            _kept_now(s)


def test_a_clone_keeps_its_own_figures() -> None:
    s = new_game(11)
    rng = random.Random(11)
    for _ in range(150):
        apply(s, rng.choice(legal_actions(s)))
    _kept_now(s)
    c = s.clone()
    before = list(untaxed_lnds(s))
    while not c.is_over and c.turn < s.turn + 3:
        apply(c, rng.choice(legal_actions(c)))
    assert untaxed_lnds(s) == before == count_untaxed(s)
    assert not bookkeeping_errors(s) and not bookkeeping_errors(c)


#: The kinds of value :func:`_frozen` rewrites; anything else is kept as it is.
_MUTABLE = (list, dict, set, Combat)


def _frozen(value: object) -> object:
    """``value``'s lists as tuples (a Combat as its repr; tuples, such as actions and events,
    are immutable as they are): equal exactly when the contents are."""
    if isinstance(value, list):
        # A list of immutable items (the history, the log and the trail, which grow with the
        # game) freezes in one C-level copy; the per-item calls made the test quadratic in
        # Python calls (minutes in the suite). The result is the same tuple.
        if not any(issubclass(kind, _MUTABLE) for kind in set(map(type, value))):
            return tuple(value)
        return tuple([_frozen(v) for v in value])
    if isinstance(value, dict):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    if isinstance(value, set):
        return tuple(sorted(value))
    if isinstance(value, Combat):
        return repr(value)
    return value


#: What a state's snapshot leaves out: the last ended Combat is kept only to begin the next
#: one in (not part of the position), and ``shared`` says what the state shares, which a
#: clone changes on purpose.
_NOT_SNAPPED = ("spare_combat", "shared")


STATE_SOURCE = Path(__file__).parents[2] / "parlor" / "rules" / "state.py"


@functools.cache
def _state_fields() -> tuple[str, ...]:
    """The names in ``State.__slots__`` as its source writes them (the compiled build's
    native class keeps no ``__slots__``): a field added later is covered without a change
    here. Read once: parsing state.py at every snapshot was most of the test's time."""
    tree = ast.parse(STATE_SOURCE.read_text())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "State")
    slots = next(a.value for a in cls.body if isinstance(a, ast.Assign)
                 and any(isinstance(t, ast.Name) and t.id == "__slots__" for t in a.targets))
    names = ast.literal_eval(slots)
    assert isinstance(names, tuple) and all(isinstance(n, str) for n in names)
    return names


def _snapshot(s: State) -> dict[str, object]:
    """Every field of ``s`` by name, its contents frozen."""
    return {name: _frozen(getattr(s, name)) for name in _state_fields()
            if name not in _NOT_SNAPPED}


# with automatic steps off a game has twice the steps: in the full suite only
@pytest.mark.parametrize("auto", [True, pytest.param(False, marks=pytest.mark.slow)])
def test_a_clone_and_its_original_stay_independent_through_every_action(auto: bool) -> None:
    """Clone at every step of seeded random games and play a different action in each of the
    two: neither one's write (damage, Enh counts, history, trail, any zone) reaches the
    other, whatever the two shared (State.own, the one copy-on-write step)."""
    for seed in range(6):
        s = new_game(seed, Settings(auto=auto))
        if seed % 2:
            s.log = None  # as playouts and the search run
        rng = random.Random(seed)
        steps = 0
        while not s.is_over:
            c = s.clone()
            assert _snapshot(c) == _snapshot(s)
            before = _snapshot(c)
            apply(s, rng.choice(legal_actions(s)))
            assert _snapshot(c) == before, f"seed {seed}, step {steps}: the clone changed"
            after = _snapshot(s)
            if not c.is_over:
                apply(c, rng.choice(legal_actions(c)))
            assert _snapshot(s) == after, f"seed {seed}, step {steps}: the original changed"
            assert not bookkeeping_errors(c)
            steps += 1
        assert steps > 50


def test_after_own_a_write_to_a_shared_list_reaches_only_its_writer() -> None:
    """Each group of shared lists (state.COMBAT_STATUS, ENH_COUNTS, HISTORY, TRAIL): after a
    clone, both states hold the same lists; ``own`` gives the one that writes its copies,
    and the other keeps the lists, untouched."""
    s = new_game(5)
    rng = random.Random(5)
    while not s.enhs or not s.history:
        apply(s, rng.choice(legal_actions(s)))
    _kept_now(s)
    assert s.ecounts is not None and s.trail is not None
    groups = {COMBAT_STATUS: ("damage", "terminal", "pwr_mod", "tgh_mod"),
              ENH_COUNTS: ("ecounts", "ekeys"), HISTORY: ("history",), TRAIL: ("trail",)}
    for group, names in groups.items():
        c = s.clone()
        assert all(getattr(c, n) is getattr(s, n) for n in names)
        assert c.shared & group and s.shared & group
        before = _snapshot(s)
        c.own(group)
        assert not c.shared & group
        for n in names:
            mine = getattr(c, n)
            assert mine is not getattr(s, n) and mine == getattr(s, n)
            mine.append(None) if n in ("history", "trail") else mine.__setitem__(0, 7)
        assert _snapshot(s) == before


def test_a_successor_plays_as_a_clone_and_takes_back_to_its_original() -> None:
    """State.successor (a clone lending its records, the web's move) against State.clone,
    its reference, over seeded random games, a declaration of up to three actions at a
    time: the successor reads as the clone after the same actions, and take_back leaves
    the original as it was, its records its own again (a refused move); the game goes on
    from the successor or, every third step, from the original taken back."""
    for seed in range(6):
        s = new_game(seed, Settings(auto=seed % 3 != 0))
        if seed % 2:
            s.log = None
        rng = random.Random(seed)
        steps = 0
        while not s.is_over:
            before = _snapshot(s)
            reference = s.clone()
            s.own(HISTORY)  # the reference's are its own: s lends its records, unless
            s.own(TRAIL)
            shared = s.clone() if steps % 5 == 4 else None  # it shares them already
            twin, lent = s.successor()
            assert (not twin.shared & HISTORY) == (shared is None)  # taken, or shared
            for _ in range(rng.randint(1, 3)):
                if reference.is_over:
                    break
                a = rng.choice(legal_actions(reference))
                apply(reference, a)
                apply(twin, a)
            assert _snapshot(twin) == _snapshot(reference), f"seed {seed}, step {steps}"
            assert not bookkeeping_errors(twin)
            if shared is not None:
                assert _snapshot(shared) == before, f"seed {seed}, step {steps}"
            if steps % 3 == 2:
                s.take_back(lent)
                assert _snapshot(s) == before, f"seed {seed}, step {steps}: not taken back"
                assert not s.shared & (HISTORY | TRAIL) or shared is not None
            else:
                s = twin
            steps += 1
        assert steps > 30


def every_nth_step(seed: int, every: int) -> Iterator[tuple[State, int]]:
    """A seeded random game, yielded at steps 0, ``every``, 2 × ``every``… (state, step)."""
    s = new_game(seed)
    rng = random.Random(seed)
    n = 0
    while not s.is_over:
        if n % every == 0:
            yield s, n
        apply(s, rng.choice(legal_actions(s)))
        n += 1


def test_a_position_read_back_counts_afresh_and_lists_the_same_actions() -> None:
    for seed in range(20):
        for s, n in every_nth_step(seed, 37):
            again = parse_position(position(s))
            assert again.untaxed is None and again.ecounts is None
            assert legal_actions(again) == legal_actions(s), f"seed {seed}, step {n}"
            assert not bookkeeping_errors(again)


def test_a_position_read_back_marks_nothing_and_plays_on_as_the_game_does() -> None:
    """R4, R5, R12: a state read from text has no marked cards, so its first untax step looks
    at every card in play and marks from then on; it plays on exactly as the original."""
    for seed in range(12):
        for s, n in every_nth_step(seed, 41):
            again, twin = parse_position(position(s)), s.clone()
            assert again.marked is None
            choose = random.Random(n)
            for k in range(60):
                if twin.is_over:
                    break
                legal = legal_actions(twin)
                assert legal_actions(again) == legal, f"seed {seed}, step {n}+{k}"
                a = choose.choice(legal)
                apply(twin, a)
                apply(again, a)
                assert not bookkeeping_errors(again), f"seed {seed}, step {n}+{k}"


def test_the_reshuffle_draws_as_random_shuffle_does() -> None:
    """R31: the engine's own Fisher-Yates loop gives exactly ``random.shuffle``'s order for
    the same seed (a seeded reshuffle must replay in every record), for every pile size a
    game can have and beyond (it reads the generator's words two at a time)."""
    for seed in range(40):
        for n in (*range(106), 1000):
            mine, theirs = list(range(n)), list(range(n))
            fisher_yates(random.Random(f"{seed}/{n}"), mine)
            random.Random(f"{seed}/{n}").shuffle(theirs)
            assert mine == theirs, f"seed {seed}, {n} cards"


def test_the_reshuffle_generator_is_seeded_as_random_seeds_a_string() -> None:
    """R31: reshuffle.seeded(text) is the generator of random.Random(text), output for output."""
    for seed in (0, 1, 7, 2**64 - 1, 123456789012345678901234567890):
        for n in range(6):
            text = f"{seed}/{n}"
            mine, theirs = seeded(text), random.Random(text)
            assert [mine.getrandbits(32) for _ in range(700)] == [
                theirs.getrandbits(32) for _ in range(700)], text
