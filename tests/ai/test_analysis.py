"""The post-game analysis: one verdict per real decision of the Rlr, deterministic for a
record and a seed, marked by the drop in the expert's win estimate."""

from __future__ import annotations

from parlor.ai.analysis import THRESHOLDS, Decision, analyse, decision_plies, decision_seed
from parlor.ai.levels import make_agent
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.notation import parse_record, record
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
    choices = expert.explain(view(s, 0, log=False), legal_actions(s), budget=1e9)
    d = next(d for d in analyse(text, player=0, seed=1, iterations=8) if d.ply == ply)
    assert d.best == str(choices[0].action)
    assert d.alternatives == tuple((str(c.action), round(c.value, 4)) for c in choices[:3])


def test_the_analysis_is_deterministic_for_a_record_and_a_seed() -> None:
    text = short_record()
    assert analyse(text, 0, seed=4, iterations=8) == analyse(text, 0, seed=4, iterations=8)


def test_marks_follow_the_stated_thresholds() -> None:
    def d(before: float, after: float) -> Decision:
        return Decision(0, 1, "window1", "pass", "pass", before, after, ())
    assert dict(THRESHOLDS) == {"blunder": 0.2, "mistake": 0.1, "inaccuracy": 0.05}
    assert d(0.6, 0.58).mark == ""
    assert d(0.6, 0.55).mark == "inaccuracy"
    assert d(0.6, 0.5).mark == "mistake"
    assert d(0.6, 0.4).mark == "blunder"
    assert d(0.4, 0.6).drop == 0.0
