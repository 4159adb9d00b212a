"""Lessons: positions to learn from, with a goal, step texts and expected actions, as data.

A lesson is a TOML file in ``parlor/learn/lessons/`` (one per lesson, run in the order of
their file names)::

    title = "Lnds and mnr by suit"
    goal = "Cast the Ace of Hearts."
    learner = 1                     # the Rlr the learner plays
    position = '''                  # docs/notation.md
    phasing: 1
    1.hand: 9H 10D AH
    1.home: 8S
    '''
    reply = ["pass"]                # the computer's moves, each played once when legal
    checks = ["on 1:AH"]            # what holds when the lesson is done (tested)

    [[steps]]
    say = "Play the Lnd 9H to your Home (603)."
    expect = ["play 9H"]            # any of these completes the step
    also = []                       # accepted, but the step goes on (e.g. a second blocker)
    holds = []                      # checks the table passes after an expected move
    otherwise = "..."               # for any other legal move
    [[steps.wrong]]
    match = "play 10D"              # a glob over the action text
    why = "10D gives Diamonds mnr, and AH needs a Heart (206) ..."

The engine checks every move. :func:`attempt` accepts an expected move and plays the
computer's answer, or refuses any other move with the step's specific explanation (and, for
an illegal move, the engine's own reason, which cites the rule); the learner then retries.
The computer answers with the lesson's ``reply`` moves when they are legal, and otherwise
with the most passive legal move (pass, done, end, else the first one listed), so a lesson
plays the same way every time. Nothing here does I/O except :func:`load_all`.
"""

from __future__ import annotations

import fnmatch
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from parlor.rules.actions import Action, ActionParseError, IllegalActionError, parse_ref
from parlor.rules.engine import apply, legal_actions
from parlor.rules.notation import parse_position
from parlor.rules.state import DOMAIN, Phase, State

PASSIVE = ("pass", "done", "end")


class LessonError(ValueError):
    """A lesson file that does not describe a playable lesson, or moves it does not accept."""


@dataclass(frozen=True, slots=True)
class Wrong:
    """A tempting move and why it does not reach the goal."""

    match: str
    why: str


@dataclass(frozen=True, slots=True)
class Step:
    say: str
    expect: tuple[str, ...]
    also: tuple[str, ...] = ()
    wrong: tuple[Wrong, ...] = ()
    otherwise: str = ""
    play: str = ""  # the scripted solution's move (default: the first expected one)
    #: checks (see :func:`check`) the table must pass after an expected move, for a step
    #: that accepts several moves whose right one depends on the moves before it (a second
    #: point of a split goes to the blocker that has none, whichever that is)
    holds: tuple[str, ...] = ()

    @property
    def solution(self) -> str:
        return self.play or self.expect[0]


@dataclass(frozen=True, slots=True)
class Lesson:
    id: str
    title: str
    summary: str
    goal: str
    rules: tuple[str, ...]
    learner: int  # 0 or 1
    position: str
    intro: str
    done: str
    steps: tuple[Step, ...]
    reply: tuple[str, ...] = ()
    checks: tuple[str, ...] = ()


@dataclass(slots=True)
class Progress:
    """Where a learner is in a lesson: the state, the step, and the moves accepted so far."""

    state: State
    step: int = 0
    moves: list[str] = field(default_factory=list)
    replies_left: list[str] = field(default_factory=list)

    def finished(self, lesson: Lesson) -> bool:
        return self.step >= len(lesson.steps)


@dataclass(frozen=True, slots=True)
class Outcome:
    """The answer to one move: accepted or not, and why not."""

    accepted: bool
    why: str = ""
    rule_says: str = ""  # the engine's reason when the move is illegal


# -- reading -----------------------------------------------------------------------------------


def _strs(data: dict[str, object], key: str) -> tuple[str, ...]:
    raw = data.get(key, [])
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        raise LessonError(f"{key!r} must be a list of strings")
    return tuple(str(x) for x in raw)


def _str(data: dict[str, object], key: str, default: str | None = None) -> str:
    raw = data.get(key, default)
    if not isinstance(raw, str):
        raise LessonError(f"{key!r} must be a string")
    return " ".join(raw.split())  # TOML line breaks inside a text are spaces


def parse_lesson(lesson_id: str, text: str) -> Lesson:
    """A lesson from its TOML text; LessonError names what is wrong."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise LessonError(f"{lesson_id}: {exc}") from None
    steps = []
    for raw in data.get("steps", []):
        wrong = tuple(Wrong(_str(w, "match"), _str(w, "why")) for w in raw.get("wrong", []))
        steps.append(Step(_str(raw, "say"), _strs(raw, "expect"), _strs(raw, "also"), wrong,
                          _str(raw, "otherwise", ""), _str(raw, "play", ""),
                          _strs(raw, "holds")))
    if not steps:
        raise LessonError(f"{lesson_id}: a lesson needs at least one step")
    learner = data.get("learner", 1)
    if learner not in (1, 2):
        raise LessonError(f"{lesson_id}: learner must be 1 or 2")
    return Lesson(
        id=lesson_id, title=_str(data, "title"), summary=_str(data, "summary", ""),
        goal=_str(data, "goal"), rules=_strs(data, "rules"), learner=int(learner) - 1,
        position=str(data.get("position", "")), intro=_str(data, "intro", ""),
        done=_str(data, "done", ""), steps=tuple(steps), reply=_strs(data, "reply"),
        checks=_strs(data, "checks"))


def load_all() -> list[Lesson]:
    """Every lesson of the package, in order (by file name)."""
    folder = Path(__file__).resolve().parent / "lessons"  # package data (pyproject.toml)
    found = sorted(folder.glob("*.toml"), key=lambda f: f.name)
    return [parse_lesson(f.name.removesuffix(".toml").split("-", 1)[1], f.read_text("utf-8"))
            for f in found]


# -- playing -----------------------------------------------------------------------------------


def canonical(text: str) -> str:
    """The action's text as the engine writes it (an explicit payment dropped)."""
    return str(Action.parse(text).base)


def start(lesson: Lesson) -> Progress:
    """The lesson's position, with the computer's moves played up to the learner's first."""
    state = parse_position(lesson.position)
    progress = Progress(state, 0, [], list(lesson.reply))
    _computer(lesson, progress)
    return progress


def _computer(lesson: Lesson, p: Progress, combat_only: bool = False) -> None:
    """The computer's moves until the learner decides (or the game ends, or with
    ``combat_only`` the combat under way ends)."""
    s = p.state
    for _ in range(200):
        if s.is_over or s.actor == lesson.learner:
            return
        if combat_only and s.phase in (Phase.TRIM, Phase.KEEP, Phase.WINDOW1):
            return
        legal = [str(a) for a in legal_actions(s)]
        pick = next((r for r in p.replies_left if canonical(r) in legal), None)
        if pick is not None:
            p.replies_left.remove(pick)
        else:
            pick = next((x for x in PASSIVE if x in legal), legal[0])
        apply(s, pick)
    raise LessonError(f"{lesson.id}: the computer does not stop moving")


def _matches(text: str, patterns: tuple[str, ...]) -> bool:
    return any(fnmatch.fnmatchcase(text, canonical(x) if "*" not in x else x)
               for x in patterns)


def attempt(lesson: Lesson, p: Progress, text: str) -> Outcome:
    """Try the learner's move: play it (and the computer's answer) if the step expects it,
    otherwise leave everything as it was and say why not."""
    if p.finished(lesson):
        return Outcome(False, "This lesson is complete.")
    step = lesson.steps[p.step]
    try:
        action = Action.parse(text)
    except ActionParseError as exc:
        return Outcome(False, str(exc))
    said = str(action.base)
    rule_says = ""
    legal = True
    try:
        trial = p.state.clone()
        apply(trial, action, player=lesson.learner)
    except IllegalActionError as exc:
        legal = False
        rule_says = str(exc)
    fits = legal and (_matches(said, step.expect) or _matches(said, step.also))
    if fits and all(check(trial, c) for c in step.holds):
        p.state = trial
        p.moves.append(str(action))
        if _matches(said, step.expect):
            p.step += 1
        # once done, the computer only finishes the combat, so the table shows the result
        _computer(lesson, p, combat_only=p.finished(lesson))
        return Outcome(True)
    specific = next((w.why for w in step.wrong if fnmatch.fnmatchcase(said, w.match)), "")
    if specific:
        return Outcome(False, specific, rule_says)
    if not legal:
        return Outcome(False, "The rules do not allow that here.", rule_says)
    return Outcome(False, step.otherwise or
                   f"That is legal, but it is not what this step asks: {step.say}")


def replay(lesson: Lesson, moves: list[str]) -> Progress:
    """The progress after the learner's accepted ``moves`` (LessonError if one is refused)."""
    p = start(lesson)
    for m in moves:
        out = attempt(lesson, p, m)
        if not out.accepted:
            raise LessonError(f"{lesson.id}: {m!r} is not accepted here: {out.why}")
    return p


# -- the goal's checks -------------------------------------------------------------------------


def _on_table(s: State, cid: int) -> bool:
    return any(cid in s.field[q] or cid in s.home[q] for q in (0, 1)) or cid in s.host


def check(s: State, line: str) -> bool:
    """One of a lesson's ``checks``: ``life 2 19``, ``winner 1``, ``on 1:AH``, ``gone 2:JH``,
    ``terminal 2:KH``, ``alive 1:KS`` (on the table, not terminal), ``taxed 1:9D``,
    ``untaxed 2:KH``, ``hand 1 KS``, ``pool 2 0`` (mnr in all), ``trump S``."""
    w = line.split()
    kind = w[0]
    if kind == "life":
        return s.life[int(w[1]) - 1] == int(w[2])
    if kind == "winner":
        return s.winner == int(w[1]) - 1
    if kind == "pool":
        return sum(s.pool[int(w[1]) - 1]) == int(w[2])
    if kind == "trump":
        return s.trump is not None and "CDHS"[s.trump] == w[1]
    if kind == "hand":
        q = int(w[1]) - 1
        return parse_ref(f"{q + 1}:{w[2]}") in s.hand[q]
    cid = parse_ref(w[1])
    if cid in DOMAIN:
        raise LessonError(f"check {line!r}: name a card")
    checks = {
        "on": lambda: _on_table(s, cid),
        "gone": lambda: not _on_table(s, cid),
        "terminal": lambda: _on_table(s, cid) and bool(s.terminal[cid]),
        "alive": lambda: _on_table(s, cid) and not s.terminal[cid],
        "taxed": lambda: s.taxed[cid] != -1,
        "untaxed": lambda: s.taxed[cid] == -1,
    }
    if kind not in checks:
        raise LessonError(f"unknown check {line!r}")
    return checks[kind]()


def failed_checks(lesson: Lesson, s: State) -> list[str]:
    return [c for c in lesson.checks if not check(s, c)]


__all__ = [
    "Lesson",
    "LessonError",
    "Outcome",
    "Progress",
    "Step",
    "Wrong",
    "attempt",
    "canonical",
    "check",
    "failed_checks",
    "load_all",
    "parse_lesson",
    "replay",
    "start",
]
