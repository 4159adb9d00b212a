"""OpenSpiel observers honour ``IIGObservationType`` exactly (R30): for every type, swapping
any card the type must not reveal changes neither its string nor its tensor, and swapping a
card it must reveal changes both.

A swap exchanges two cards of the same deck between two zones (or two places in one zone)
of a copy of the engine's state: every count stays as it was, so only the cards' identities
can give the swap away."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import pyspiel
import pytest

from parlor.research import spiel
from parlor.rules.state import State

NONE = pyspiel.PrivateInfoType.NONE
SINGLE = pyspiel.PrivateInfoType.SINGLE_PLAYER
ALL = pyspiel.PrivateInfoType.ALL_PLAYERS

#: A zone is a function of (state, owner) giving the list of that owner's cards there.
Zone = Callable[[State, int], list[int]]


def hand(s: State, q: int) -> list[int]:
    return s.hand[q]


def draw(s: State, q: int) -> list[int]:
    return s.draw[q]


def discard(s: State, q: int) -> list[int]:
    return s.discard[q]


def drawn(s: State, q: int) -> list[int]:
    return s.drawn if s.phasing == q else []


def recycle_down(s: State, q: int) -> list[int]:
    """The face-down cards of a Recycle pile, as a list to swap in (written back below)."""
    return [c for c in s.recycle[q] if c not in s.public_recycle[q]]


@dataclass(frozen=True)
class Kind:
    """An observation type and, for observer ``p``, the zones it hides and reveals; a zone
    is given with the owner relative to ``p`` (0: p's own, 1: the opponent's)."""

    name: str
    public: bool
    private: pyspiel.PrivateInfoType
    recall: bool
    hides: tuple[tuple[Zone, int], ...]
    reveals: tuple[tuple[Zone, int], ...]


ALL_HIDDEN = ((hand, 0), (hand, 1), (drawn, 0), (drawn, 1), (recycle_down, 0),
              (recycle_down, 1), (draw, 0), (draw, 1))
OPP_HIDDEN = ((hand, 1), (drawn, 1), (recycle_down, 1), (draw, 0), (draw, 1))
KINDS = (
    Kind("public", True, NONE, False, ALL_HIDDEN, ((discard, 0), (discard, 1))),
    Kind("public_recall", True, NONE, True, ALL_HIDDEN, ((discard, 0), (discard, 1))),
    Kind("default", True, SINGLE, False, OPP_HIDDEN,
         ((hand, 0), (drawn, 0), (recycle_down, 0), (discard, 1))),
    Kind("information_state", True, SINGLE, True, OPP_HIDDEN,
         ((hand, 0), (drawn, 0), (recycle_down, 0), (discard, 1))),
    Kind("all_players", True, ALL, False, ((draw, 0), (draw, 1)),
         ((hand, 0), (hand, 1), (drawn, 1), (recycle_down, 1), (discard, 0))),
    Kind("private", False, SINGLE, False, (*OPP_HIDDEN, (discard, 0), (discard, 1)),
         ((hand, 0), (drawn, 0), (recycle_down, 0))),
    Kind("private_all", False, ALL, False, ((draw, 0), (draw, 1), (discard, 0), (discard, 1)),
         ((hand, 0), (hand, 1), (drawn, 1), (recycle_down, 1))),
)


def swapped(s: State, a: tuple[Zone, int, int], b: tuple[Zone, int, int]) -> State:
    """A copy of ``s`` with card ``i`` of zone ``za`` and card ``j`` of zone ``zb`` (both of
    owner ``q``) exchanged."""
    (za, q, i), (zb, _, j) = a, b
    out = s.clone()
    ca, cb = za(s, q)[i], zb(s, q)[j]
    for zone in (out.hand[q], out.draw[q], out.discard[q], out.recycle[q], out.drawn):
        zone[:] = [cb if c == ca else ca if c == cb else c for c in zone]
    out._legal = None
    return out


def outputs(game: pyspiel.Game, kind: Kind, s: State, p: int) -> tuple[str, list[float]]:
    observer = game.make_py_observer(
        pyspiel.IIGObservationType(public_info=kind.public, perfect_recall=kind.recall,
                                   private_info=kind.private))
    state = game.new_initial_state()
    state.engine = s
    observer.set_from(state, p)
    return observer.string_from(state, p), list(observer.tensor)


def slots(s: State, zones: tuple[tuple[Zone, int], ...], p: int) -> list[tuple[Zone, int, int]]:
    """Every card in ``zones`` (owners relative to ``p``) as (zone, owner, index)."""
    out = []
    for zone, rel in zones:
        q = p if rel == 0 else 1 - p
        out += [(zone, q, i) for i in range(len(zone(s, q)))]
    return out


def positions(seed: int, every: int = 9) -> list[State]:
    """Positions of a random game, the game's log on (for the recall types)."""
    game = spiel.load(max_turns=40)
    state = game.new_initial_state()
    state.apply_action(seed)
    rng = random.Random(seed)
    out = []
    while not state.is_terminal():
        if len(state.history()) % every == 2:
            out.append(state.engine.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS, ids=[k.name for k in KINDS])
def test_an_observation_type_shows_exactly_its_cards_R30(kind: Kind) -> None:
    game = spiel.load(max_turns=40)
    rng = random.Random(kind.name)
    hidden_swaps = revealed_swaps = 0
    for s in positions(5) + positions(6):
        for p in (0, 1):
            base = outputs(game, kind, s, p)
            hidden = slots(s, kind.hides, p)
            for a in hidden:
                partners = [b for b in hidden if b[1] == a[1] and b != a]
                if not partners:
                    continue
                assert outputs(game, kind, swapped(s, a, rng.choice(partners)), p) == base, (
                    f"{kind.name} shows a card it must hide ({a[0].__name__})")
                hidden_swaps += 1
            for a in slots(s, kind.reveals, p):
                partners = [b for b in slots(s, ((draw, 0), (draw, 1)), p) if b[1] == a[1]]
                if not partners:
                    continue
                string, tensor = outputs(game, kind, swapped(s, a, rng.choice(partners)), p)
                assert string != base[0] and tensor != base[1], (
                    f"{kind.name} hides a card it must show ({a[0].__name__})")
                revealed_swaps += 1
    assert hidden_swaps > 500 and revealed_swaps >= 10, (hidden_swaps, revealed_swaps)


def test_the_public_observation_is_the_same_for_both_rlrs_even_its_history() -> None:
    game = spiel.load(max_turns=40)
    for recall in (False, True):
        observer = game.make_py_observer(
            pyspiel.IIGObservationType(public_info=True, perfect_recall=recall,
                                       private_info=NONE))
        for s in positions(7):
            state = game.new_initial_state()
            state.engine = s
            assert observer.string_from(state, 0) == observer.string_from(state, 1)
            assert "You " not in observer.string_from(state, 0)


def test_perfect_recall_without_public_information_is_refused_clearly() -> None:
    game = spiel.load()
    for public, private in ((False, SINGLE), (True, ALL)):
        with pytest.raises(ValueError, match="perfect recall only"):
            game.make_py_observer(pyspiel.IIGObservationType(
                public_info=public, perfect_recall=True, private_info=private))
