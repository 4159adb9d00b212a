"""Every lesson is played through the engine: its scripted solution reaches the goal, and a
tempting wrong move at each step gets that step's explanation (the learner then retries)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from parlor.learn.lessons import (
    Lesson,
    LessonError,
    attempt,
    failed_checks,
    load_all,
    parse_lesson,
    replay,
    start,
)
from parlor.rules.notation import position

LESSONS = load_all()
RULES = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text()
ISSUE_ORDER = ["lnds", "cres", "attack", "blocking", "splitting", "volley", "sally", "harry",
               "ally", "carry", "ranking", "trumps", "domain", "expel", "burn-redraw",
               "winning"]


def ids(lesson: Lesson) -> str:
    return lesson.id


def test_the_lessons_come_in_the_order_of_learning() -> None:
    assert [x.id for x in LESSONS] == ISSUE_ORDER


@pytest.mark.parametrize("lesson", LESSONS, ids=ids)
def test_the_scripted_solution_reaches_the_goal(lesson: Lesson) -> None:
    p = start(lesson)
    for n, step in enumerate(lesson.steps):
        assert p.step == n
        assert not p.state.is_over and p.state.actor == lesson.learner, \
            f"step {n + 1} is not the learner's decision:\n{position(p.state)}"
        out = attempt(lesson, p, step.solution)
        assert out.accepted, f"step {n + 1}: {step.solution}: {out.why} {out.rule_says}"
    assert p.finished(lesson)
    assert failed_checks(lesson, p.state) == [], position(p.state)
    assert replay(lesson, p.moves).state.turn == p.state.turn


@pytest.mark.parametrize("lesson", LESSONS, ids=ids)
def test_a_wrong_move_gets_its_explanation_and_changes_nothing(lesson: Lesson) -> None:
    tried = 0
    p = start(lesson)
    for step in lesson.steps:
        for wrong in step.wrong:
            if "*" in wrong.match or "?" in wrong.match:
                continue
            before = position(p.state)
            out = attempt(lesson, p, wrong.match)
            assert not out.accepted
            assert out.why == wrong.why
            assert position(p.state) == before  # the learner retries from the same table
            tried += 1
        assert attempt(lesson, p, step.solution).accepted
    assert tried >= 1, "every lesson explains at least one wrong move"


def test_an_illegal_move_also_gets_the_engines_reason_with_its_rule() -> None:
    lesson = next(x for x in LESSONS if x.id == "cres")
    p = start(lesson)
    attempt(lesson, p, "play KS")
    out = attempt(lesson, p, "attack KS")
    assert not out.accepted
    assert "inactive" in out.why and "(303, 703)" in out.why
    assert out.rule_says.startswith("703:")


def test_an_unexpected_legal_move_is_refused_with_the_steps_advice() -> None:
    lesson = next(x for x in LESSONS if x.id == "lnds")
    out = attempt(lesson, start(lesson), "pass")
    assert not out.accepted and "9H" in out.why


@pytest.mark.parametrize("lesson", LESSONS, ids=ids)
def test_lesson_texts_cite_rules_that_exist_in_docs_rules_md(lesson: Lesson) -> None:
    for step in lesson.steps:
        cited = re.findall(r"\b(\d{3,4}(?:\.\d+)?)\b(?=[,)])", step.say)
        assert cited, f"{lesson.id}: step text cites no rule: {step.say!r}"
        for number in cited:
            assert re.search(rf"\*\*{re.escape(number)}\.\*\*|^- {re.escape(number)} ",
                             RULES, re.M), f"{lesson.id}: rule {number} is not in docs/rules.md"


def test_a_lesson_file_that_is_not_playable_is_refused() -> None:
    with pytest.raises(LessonError, match="at least one step"):
        parse_lesson("x", 'title = "t"\ngoal = "g"\nposition = "phasing: 1"\n')
    with pytest.raises(LessonError, match="learner"):
        parse_lesson("x", 'title = "t"\ngoal = "g"\nposition = ""\nlearner = 3\n'
                     '[[steps]]\nsay = "s"\nexpect = ["pass"]\n')


def test_moves_a_lesson_does_not_accept_cannot_be_replayed() -> None:
    with pytest.raises(LessonError, match="not accepted"):
        replay(LESSONS[0], ["play 10D"])
