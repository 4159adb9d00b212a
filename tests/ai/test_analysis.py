"""The post-game analysis: one verdict per real decision of the Rlr, deterministic for a
record and a seed, marked by the drop in the expert's win estimate."""

from __future__ import annotations

import random

import pytest

from parlor.ai.analysis import (
    THRESHOLDS,
    Decision,
    analyse,
    analyse_decision,
    decision_plies,
    decision_seed,
)
from parlor.ai.levels import make_agent
from parlor.ai.prune import settled_root
from parlor.ai.search import SearchAgent
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.notation import parse_record, record
from parlor.rules.state import Settings
from parlor.rules.view import view


def short_record() -> str:
    s = new_game(9)
    for i in range(40):
        if s.is_over:
            break
        legal = legal_actions(s)
        apply(s, legal[i % len(legal)])
    return record(s)


def test_every_decision_with_a_choice_is_analysed_and_no_other() -> None:
    text = short_record()
    settings, seed, parsed = parse_record(text)
    plies = decision_plies(settings, seed, [str(a) for _, a in parsed], 0)
    result = analyse(text, player=0, seed=1, iterations=8)
    assert [d.ply for d in result] == plies
    assert all(d.played == str(parsed[d.ply][1].base) for d in result)


def test_the_analysis_is_the_experts_judgement() -> None:
    """Issue 17: the post-game analysis, like the hint, asks the expert (level 5) itself."""
    text = short_record()
    settings, seed, parsed = parse_record(text)
    actions = [str(a) for _, a in parsed]
    ply = decision_plies(settings, seed, actions, 0)[1]
    s = new_game(seed, settings)
    for a in actions[:ply]:
        apply(s, a)
    expert = make_agent("expert@iters=8", decision_seed(1, ply))
    assert isinstance(expert, SearchAgent)
    played = next(a for a in legal_actions(s) if str(a) == actions[ply])
    choices = expert.explain(view(s, 0, log=False), legal_actions(s), budget=1e9,
                             must_search=played)  # the played move is always searched
    d = next(d for d in analyse(text, player=0, seed=1, iterations=8) if d.ply == ply)
    assert d.best == str(choices[0].action)
    assert d.alternatives == tuple((str(c.action), round(c.value, 4)) for c in choices[:3]
                                   if c.visits > 0)


def test_the_analysis_is_deterministic_for_a_record_and_a_seed() -> None:
    text = short_record()
    assert analyse(text, 0, seed=4, iterations=8) == analyse(text, 0, seed=4, iterations=8)


def test_marks_follow_the_stated_thresholds() -> None:
    def d(before: float, after: float) -> Decision:
        return Decision(0, 1, "window1", "pass", "pass", before, after, (), visits=10)
    assert dict(THRESHOLDS) == {"blunder": 0.2, "mistake": 0.1, "inaccuracy": 0.05}
    assert d(0.6, 0.58).mark == ""
    assert d(0.6, 0.55).mark == "inaccuracy"
    assert d(0.6, 0.5).mark == "mistake"
    assert d(0.6, 0.4).mark == "blunder"
    assert d(0.4, 0.6).drop == 0.0


def random_line(seed: int, plies: int) -> list[str]:
    """The first ``plies`` actions of a game of uniformly random moves (seeded)."""
    s = new_game(seed)
    rng = random.Random(seed)
    out = []
    for _ in range(plies):
        a = rng.choice(legal_actions(s))
        out.append(str(a))
        apply(s, a)
    return out


@pytest.mark.parametrize(("seed", "ply"), [(3, 152), (7, 26)])
def test_a_played_move_the_search_sets_aside_is_searched_all_the_same(seed: int,
                                                                       ply: int) -> None:
    """Issue 41: a move :mod:`parlor.ai.prune` sets aside (here declining a free attack, and
    an Enh on a Lnd where it is dead) read 0% and was marked a blunder, unsearched."""
    actions = random_line(seed, ply + 1)
    s = new_game(seed)
    for a in actions[:ply]:
        apply(s, a)
    played = next(a for a in legal_actions(s) if str(a) == actions[ply])
    assert played in settled_root(s, legal_actions(s))[1]  # the search would set it aside
    d = analyse_decision(str(Settings()), seed, actions, ply, s.actor, 5, iterations=40)
    assert d.played == actions[ply]
    assert d.visits > 0
    assert d.after is not None and d.after > 0.3  # a real estimate, not the 0 of the unsearched
    assert d.mark != "blunder"


def test_no_mark_comes_from_an_unsearched_move() -> None:
    """Over every decision of a few short games, a marked decision's played move was
    searched (or sampled), and a decision without an estimate shows none and is unmarked."""
    marked = unestimated = 0
    for seed in (1, 2, 3):
        text = record_of(seed, 200)
        for player in (0, 1):
            for d in analyse(text, player, seed=seed, iterations=16):
                if d.mark:
                    marked += 1
                    assert d.visits > 0 and d.estimated
                if not d.estimated:
                    unestimated += 1
                    assert d.before is None and d.after is None and d.mark == ""
    assert marked and unestimated  # both kinds were met


def record_of(seed: int, plies: int) -> str:
    s = new_game(seed)
    for a in random_line(seed, plies):
        apply(s, a)
    return record(s)


def test_a_decision_without_an_estimate_says_so() -> None:
    """A split (the expert does not search it) showed a flat 50%: now it has no estimate."""
    settings, seed, parsed = parse_record(record_of(2, 200))
    d = analyse_decision(str(settings), seed, [str(a) for _, a in parsed], 105, 0, 2,
                         iterations=16)
    assert d.phase == "split"
    assert (d.before, d.after, d.alternatives, d.budget) == (None, None, (), "no estimate")
    assert not d.estimated and d.drop == 0.0 and d.mark == ""
