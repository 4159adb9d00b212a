"""Every dataclass of :mod:`parlor.rules` and :mod:`parlor.ai` copies, deep-copies and pickles
to an equal value, on the compiled build (mypyc) as on the interpreted one.

The classes are found by walking the two packages, not listed here, and the examples are
harvested from real objects (a played game with its events and combat, views, a tournament
with ransoms, an analysed decision, a search's choices, the modules' own constants), so a new
dataclass is covered as soon as a game, view or tournament holds one. Why this matters: the
OpenSpiel game's clone deep-copies the engine's state and the web app's worker pool pickles
views and answers; under mypyc a frozen dataclass without :class:`parlor.rules.values.Value`
cannot be restored (``FrozenInstanceError``).
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import pickle
import pkgutil
import random
from collections.abc import Callable, Iterator
from types import ModuleType

import pytest

import parlor.ai
import parlor.rules
from parlor.ai.analysis import analyse_decision
from parlor.ai.base import RandomAgent
from parlor.ai.levels import parse_options
from parlor.ai.match import play_game
from parlor.ai.ratings import LevelRating
from parlor.ai.search import SearchAgent
from parlor.ai.value import packaged
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.forecast import forecasts
from parlor.rules.glicko import Game, Rating, rate
from parlor.rules.notation import position
from parlor.rules.ranking import Entity, Group, compare
from parlor.rules.seeds import DealKey
from parlor.rules.state import Settings, State
from parlor.rules.tournament import (
    Outcome,
    TournamentSettings,
    end_round,
    new_tournament,
    pair_round,
    payout,
    play_round,
    standings,
    team_standings,
)
from parlor.rules.values import Value
from parlor.rules.view import view


def modules() -> list[ModuleType]:
    out = []
    for package in (parlor.rules, parlor.ai):
        for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
            out.append(importlib.import_module(info.name))
    return out


MODULES = modules()
DATACLASSES: dict[str, type] = {
    f"{m.__name__}.{obj.__name__}": obj
    for m in MODULES for obj in vars(m).values()
    if isinstance(obj, type) and dataclasses.is_dataclass(obj) and obj.__module__ == m.__name__
}


def is_frozen(cls: type) -> bool:
    return bool(cls.__dataclass_params__.frozen)  # type: ignore[attr-defined]


def played_to_combat(first: int) -> State:
    """A logged game played at random until a combat is under way (blockers declared): the
    first of the seeds from ``first`` on whose game has one (most do)."""
    for seed in range(first, first + 20):
        s = new_game(seed, Settings())
        rng = random.Random(seed)
        while not s.is_over:
            if s.combat is not None and s.combat.blockers:
                return s
            apply(s, rng.choice(legal_actions(s)))
    raise AssertionError(f"seeds {first}-{first + 19}: no blocked attack in a whole game")


def tournament_examples() -> list[object]:
    """A tournament after a round that team B won at 7 life: ransoms that the team of the
    person A2 is asked about."""
    t = new_tournament([("A", ["A1", "A2"]), ("B", ["B1", "B2"])],
                       TournamentSettings(rounds=2), seed=1, humans=["A2"])
    rnd = pair_round(t)
    team_b = [seat for seat, p in enumerate(t.players) if p.name.startswith("B")]
    outcomes = [Outcome(rnd.number, p.table, p.seats, p.seed,
                        next(seat for seat in p.seats if seat in team_b), 7, 30)
                for p in rnd.pairings]
    t = play_round(t, rnd, outcomes)
    assert t.asked, "team A (with the person A2) is asked about its ransoms"
    return [t, end_round(t), rnd, standings(t), team_standings(t), payout(7), payout(20)]


def some_forecasts() -> dict[str, object]:
    """The forecasts of the first combat decision of a random game that has any."""
    s = new_game(4, Settings())
    rng = random.Random(4)
    while not s.is_over:
        found = forecasts(s, s.actor)
        if found:
            return dict(found)
        apply(s, rng.choice(legal_actions(s)))
    raise AssertionError("seed 4: no combat decision in a whole game")


def actor_at(seed: int, moves: list[str], ply: int) -> int:
    s = new_game(seed, Settings())
    for a in moves[:ply]:
        apply(s, a)
    return s.actor


def roots() -> list[object]:
    """Real objects of both packages, from which :func:`harvest` collects the dataclasses."""
    s = played_to_combat(3)
    keyed = new_game(DealKey(bytes(range(16))), Settings(max_turns=40))
    search = SearchAgent(5, budget=1e9, max_iterations=20, name="test")
    record = play_game([RandomAgent(1), RandomAgent(2)], seed=11)
    moves = [str(a) for a in s.history]
    seed = s.seed
    assert isinstance(seed, int)
    return [
        s, view(s, 0), view(s, 1), keyed, view(keyed, keyed.actor), record,
        search.explain(view(s, s.actor), legal_actions(s), budget=1e9),
        analyse_decision(str(Settings()), seed, moves, 5, actor_at(seed, moves, 5), 9,
                         iterations=20),
        *tournament_examples(),
        # a rating period (Glickman's example) and a computer level's fixed rating
        rate(Rating(1500, 200), [Game(Rating(1400, 30), 1.0), Game(Rating(1550, 100), 0.0)]),
        Game(Rating(1700, 300), 0.0), LevelRating("expert", 1900.0, 50.0),
        packaged(),  # the learned evaluation's weights (parlor/ai/weights)
        parse_options("expert@iters=40@horizon=3@c=0.5"),  # an agent spec's options
        # ranked things exist only while a comparison is made: its text forms (rule 901)
        Entity.parse("JC/2C/4H"), Entity.parse("D:6S/5C"), Group.parse("KS/4S+KC"),
        compare("JH/4H/2S", "QH", trump="S"),  # a Comparison, as a log's bonus and expel hold
        some_forecasts(),  # the coach's forecast of each combat decision (issue 41)
        *[vars(m) for m in MODULES],  # the modules' constants: default weights, the cards...
    ]


def harvest(objs: list[object]) -> dict[str, list[object]]:
    """Up to three instances of every dataclass reachable from ``objs``."""
    found: dict[str, list[object]] = {}
    # what was seen stays referenced: a compiled class boxes a tuple field afresh on each
    # read, and a freed box's id would be taken by the next one
    seen: dict[int, object] = {}
    todo = list(objs)
    while todo:
        o = todo.pop()
        if id(o) in seen or isinstance(o, str | bytes | int | float | type | ModuleType):
            continue
        seen[id(o)] = o
        cls = type(o)
        name = f"{cls.__module__}.{cls.__name__}"
        if name in DATACLASSES and len(found.setdefault(name, [])) < 3:
            found[name].append(o)
        todo.extend(children(o))
    return found


def children(o: object) -> Iterator[object]:
    if dataclasses.is_dataclass(o):
        yield from (getattr(o, f.name) for f in dataclasses.fields(o))
    elif isinstance(o, dict):
        yield from o.keys()
        yield from o.values()
    elif isinstance(o, list | tuple | set | frozenset):
        yield from o
    elif type(o).__module__.startswith("parlor."):
        # a compiled class lists its attributes in __mypyc_attrs__, an interpreted one in
        # __slots__ or __dict__
        names = [n for k in type(o).__mro__
                 for n in (*getattr(k, "__mypyc_attrs__", ()), *getattr(k, "__slots__", ()))]
        yield from (getattr(o, n) for n in names if n != "__dict__" and hasattr(o, n))
        yield from getattr(o, "__dict__", {}).values()


EXAMPLES = harvest(roots())

COPIES: dict[str, Callable[[object], object]] = {
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
    "pickle": lambda o: pickle.loads(pickle.dumps(o, pickle.HIGHEST_PROTOCOL)),
    "pickle protocol 2": lambda o: pickle.loads(pickle.dumps(o, 2)),
}


def test_the_packages_have_dataclasses_to_check() -> None:
    assert "parlor.rules.cards.Card" in DATACLASSES and "parlor.ai.agent.Choice" in DATACLASSES
    assert len(DATACLASSES) >= 25, sorted(DATACLASSES)


@pytest.mark.parametrize("name", sorted(n for n, c in DATACLASSES.items() if is_frozen(c)))
def test_a_frozen_dataclass_derives_from_value(name: str) -> None:
    """Without Value's __reduce__, mypyc's pickling restores fields by setattr, which a frozen
    dataclass refuses: every copy and pickle of it fails in the compiled build."""
    assert issubclass(DATACLASSES[name], Value), (
        f"{name} is a frozen dataclass: derive it from parlor.rules.values.Value")


@pytest.mark.parametrize("name", sorted(DATACLASSES))
def test_every_dataclass_has_real_examples(name: str) -> None:
    assert EXAMPLES.get(name), (f"no {name} is reachable from this test's roots(): add an "
                                "object that holds one")


@pytest.mark.parametrize("how", sorted(COPIES))
@pytest.mark.parametrize("name", sorted(DATACLASSES))
def test_a_dataclass_copies_to_an_equal_value(name: str, how: str) -> None:
    for original in EXAMPLES.get(name, []):
        twin = COPIES[how](original)
        assert type(twin) is type(original)
        assert twin == original
        assert repr(twin) == repr(original)  # also the fields that equality leaves out
        if is_frozen(type(original)):
            assert hash(twin) == hash(original)
        if how != "copy":
            assert twin is not original


@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_a_state_copied_plays_on_as_the_original(how: str) -> None:
    """The OpenSpiel game's clone deep-copies the engine's state: the copy is the same
    position, and the same actions lead both to the same end."""
    s = played_to_combat(5)
    twin = COPIES[how](s)
    assert isinstance(twin, State) and twin is not s
    rng = random.Random(5)
    while not s.is_over:
        assert position(twin) == position(s)
        legal = legal_actions(s)
        assert legal_actions(twin) == legal
        a = rng.choice(legal)
        apply(s, a)
        apply(twin, a)
    assert twin.is_over and twin.winner == s.winner and twin.log == s.log

