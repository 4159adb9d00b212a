"""What a lesson says is what the table shows (issue 41): every number and outcome a lesson's
text states is checked against the engine's replay of its position, on every way through the
lesson that it accepts; and every move a step lists as correct is accepted (unless the engine
forbids it there, or the step's own ``holds`` refuses it with the step's explanation)."""

from __future__ import annotations

import fnmatch
from collections.abc import Iterator

import pytest

from parlor.learn.lessons import (
    Lesson,
    Progress,
    attempt,
    canonical,
    check,
    failed_checks,
    load_all,
    replay,
)
from parlor.rules.actions import parse_ref
from parlor.rules.engine import legal_actions
from parlor.rules.state import PWR_OF, TGH_OF, State

LESSONS = {x.id: x for x in load_all()}

#: (lesson, where, a phrase of that text, what the engine must show). ``where`` is a step's
#: index (checked on the table the step is said on) or "done" (checked once the lesson is
#: complete, with the lesson's whole log). Besides :func:`parlor.learn.lessons.check`'s
#: checks: ``pwr REF N``, ``tgh REF N``, ``damage REF N`` on the table; ``took REF N`` (the
#: damage its last damage event left on it), ``took>= REF N``, ``untouched REF`` (no damage).
CLAIMS: list[tuple[str, int | str, str, list[str]]] = [
    ("cres", "done", "1 damage got through: the computer is at 19", ["life 2 19"]),
    ("attack", 2, "the computer is at 18", ["life 2 18"]),
    ("attack", 3, "KH deals 2 to her (Tgh 2) and survives her 2 (Tgh 3)",
     ["pwr 1:KH 2", "tgh 2:QC 2", "pwr 2:QC 2", "tgh 1:KH 3"]),
    ("attack", "done", "KH blocked the Queen and destroyed it",
     ["took 2:QC 2", "terminal 2:QC", "took 1:KH 2", "on 1:KH"]),
    ("blocking", 0, "KS has Tgh 3", ["tgh 1:KS 3"]),
    ("blocking", 0, "a Queen deals 2", ["pwr 2:QH 2", "pwr 2:QD 2"]),
    ("blocking", "done", "your blockers dealt at least 3, the King's Tgh",
     ["took>= 1:KS 3", "gone 1:KS"]),
    ("blocking", "done", "its 2 Pwr", ["pwr 1:KS 2"]),
    ("splitting", 1, "both Aces (Tgh 1 each). KS has 2 Pwr",
     ["tgh 2:AH 1", "tgh 2:AD 1", "pwr 1:KS 2"]),
    ("splitting", 2, "that Ace's Tgh 1", ["tgh 2:AH 1", "tgh 2:AD 1"]),
    ("splitting", "done", "Both Aces were terminal and went to Discard",
     ["took 2:AH 1", "took 2:AD 1", "gone 2:AH", "gone 2:AD"]),
    ("volley", 0, "The Ace has Tgh 1", ["tgh 1:AH 1"]),
    ("volley", "done", "The Ace took 1 damage", ["took 1:AH 1", "gone 1:AH"]),
    ("volley", "done", "you lost 1 life", ["life 2 19"]),
    ("sally", 0, "KS (Pwr 2) is blocked by KC (Tgh 3)", ["pwr 1:KS 2", "tgh 2:KC 3"]),
    ("sally", "done", "KS dealt 3 with Sally",
     ["took 2:KC 3", "gone 2:KC", "took 1:KS 2", "on 1:KS"]),
    ("harry", 0, "JD (Tgh 2) blocks KS (Pwr 2)", ["tgh 2:JD 2", "pwr 1:KS 2"]),
    ("harry", "done", "JD survived the King's 2 damage",
     ["took 2:JD 2", "on 2:JD", "took 1:KS 1"]),
    ("ally", 0, "JS blocks your Ace (Tgh 1)", ["tgh 1:AH 1", "pwr 2:JS 1"]),
    ("ally", "done", "The taxed Jack dealt no damage",
     ["untouched 1:AH", "on 1:AH", "took 2:JS 1"]),
    ("ranking", "done", "KS's 2 damage plus 2 bonus points destroyed the King",
     ["took 2:KH 4", "gone 2:KH"]),
    ("trumps", "done", "KS's 2 damage and the bonus point destroyed KH, and KS survived its 2",
     ["took 2:KH 3", "gone 2:KH", "took 1:KS 2", "on 1:KS"]),
    ("domain", "done", "the Domain dealt 2 to the Ace",
     ["took 1:AS 2", "gone 1:AS", "life 2 20"]),
    ("expel", "done", "1 damage, below the Jack's Tgh 2", ["took 2:JH 1", "gone 2:JH"]),
    ("winning", 0, "The computer burned down to 0 life", ["life 2 0"]),
    ("winning", "done", "you win", ["winner 1"]),
]


def text_of(lesson: Lesson, where: int | str) -> str:
    return lesson.done if where == "done" else lesson.steps[int(where)].say


def last_damage(s: State, cid: int) -> int | None:
    """The damage on ``cid`` after the last event that dealt it some: a damage event (the card,
    then its damage), or an expel (the Enh and its target, then the damage dealt)."""
    hits = [e for e in s.log if (e.kind == "damage" and e.cards and e.cards[0] == cid)
            or (e.kind == "expel" and len(e.cards) > 1 and e.cards[1] == cid)]
    return int(hits[-1].amounts[0]) if hits else None


def shows(s: State, claim: str) -> bool:
    w = claim.split()
    if w[0] in ("pwr", "tgh", "damage", "took", "took>=", "untouched"):
        cid = parse_ref(w[1])
        if w[0] == "untouched":
            return not last_damage(s, cid)
        n = int(w[2])
        if w[0] == "pwr":
            return PWR_OF[cid] + s.pwr_mod[cid] == n
        if w[0] == "tgh":
            return TGH_OF[cid] + s.tgh_mod[cid] == n
        if w[0] == "damage":
            return int(s.damage[cid]) == n
        took = last_damage(s, cid) or 0
        return took == n if w[0] == "took" else took >= n
    return check(s, claim)


def ways_through(lesson: Lesson) -> Iterator[tuple[list[str], list[State], Progress]]:
    """Every way through the lesson it accepts (each step's listed moves, in every order that
    is accepted): the moves, the table each step was said on, and the end."""
    def walk(moves: list[str], tables: list[State]) -> Iterator[tuple[list[str], list[State],
                                                                       Progress]]:
        p = replay(lesson, moves)
        if p.finished(lesson):
            yield moves, tables, p
            return
        step = lesson.steps[p.step]
        legal = {str(a) for a in legal_actions(p.state)}
        took_one = False
        listed = [m for x in step.expect for m in (
            sorted(a for a in legal if fnmatch.fnmatchcase(a, x)) if "*" in x else [x])]
        for move in dict.fromkeys(listed):
            trial = replay(lesson, moves)
            out = attempt(lesson, trial, move)
            if not out.accepted:
                wrongs = {x.why for x in step.wrong}
                assert canonical(move) not in legal or (step.holds and out.why in wrongs), \
                    f"{lesson.id} step {p.step + 1}: the listed move {move!r} is refused: " \
                    f"{out.why}"
                continue
            took_one = True
            yield from walk([*moves, move], [*tables, p.state.clone()])
        assert took_one, f"{lesson.id} step {p.step + 1}: no listed move is accepted"
    yield from walk([], [])


@pytest.mark.parametrize("lesson", list(LESSONS.values()), ids=lambda x: x.id)
def test_every_listed_move_is_accepted_and_every_way_reaches_the_goal(lesson: Lesson) -> None:
    ways = list(ways_through(lesson))
    assert ways
    for moves, _, end in ways:
        assert failed_checks(lesson, end.state) == [], (lesson.id, moves)


@pytest.mark.parametrize(("lesson_id", "where", "phrase", "claims"), CLAIMS,
                         ids=[f"{c[0]}-{c[1]}-{n}" for n, c in enumerate(CLAIMS)])
def test_what_a_lesson_says_is_what_the_engine_plays(
        lesson_id: str, where: int | str, phrase: str, claims: list[str]) -> None:
    lesson = LESSONS[lesson_id]
    said = " ".join(text_of(lesson, where).split())
    assert phrase.lower() in said.lower(), f"{lesson_id} {where} no longer says {phrase!r}"
    for moves, tables, end in ways_through(lesson):
        s = end.state if where == "done" else tables[int(where)]
        wrong = [c for c in claims if not shows(s, c)]
        assert wrong == [], f"{lesson_id} {where} ({' / '.join(moves)}): {phrase!r}"


def test_the_blocking_lesson_no_longer_claims_4_damage_and_splitting_takes_either_ace() -> None:
    assert "dealt 4" not in LESSONS["blocking"].done
    splitting = LESSONS["splitting"]
    orders = {tuple(m) for m, _, _ in ways_through(splitting)}
    assert ("attack KS", "assign 2:AD", "assign 2:AH") in orders
    assert ("attack KS", "assign 2:AH", "assign 2:AD") in orders
    assert not any("has 1 damage" in s.say for s in splitting.steps)
