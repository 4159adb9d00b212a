"""Lessons over HTTP, statelessly: the browser keeps the learner's accepted moves (in
localStorage) and sends them with each new move; the server replays them through
:mod:`parlor.learn.lessons` and answers with the same snapshot shape as a game's, plus the
lesson's step. Nothing is stored on the server, so a lesson survives any restart."""

from __future__ import annotations

from typing import Any

from parlor.learn.lessons import Lesson, LessonError, Progress, attempt, load_all, replay
from parlor.web.games import (
    BadAction,
    GameNotFound,
    IllegalAction,
    choices,
    learning_aids,
    table_view,
    view_payload,
)
from parlor.web.games import _log_entries as log_entries

MAX_MOVES = 60


class Lessons:
    """The package's lessons, loaded once."""

    def __init__(self) -> None:
        self.all = load_all()
        self.by_id = {x.id: x for x in self.all}

    def get(self, lesson_id: str) -> Lesson:
        found = self.by_id.get(lesson_id)
        if found is None:
            raise GameNotFound(f"there is no lesson {lesson_id!r}")
        return found

    def next_of(self, lesson: Lesson) -> Lesson | None:
        i = self.all.index(lesson)
        return self.all[i + 1] if i + 1 < len(self.all) else None

    def index(self) -> list[dict[str, Any]]:
        return [{"id": x.id, "n": i + 1, "title": x.title, "summary": x.summary,
                 "rules": list(x.rules)} for i, x in enumerate(self.all)]

    # -- playing -------------------------------------------------------------------------------

    def progress(self, lesson: Lesson, moves: object) -> Progress:
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise BadAction("send {\"moves\": [...], \"action\": \"...\"}: moves is a list of "
                            "actions")
        if len(moves) > MAX_MOVES:
            raise BadAction(f"a lesson takes at most {MAX_MOVES} moves")
        try:
            return replay(lesson, list(moves))
        except (LessonError, ValueError) as exc:
            raise BadAction(f"these moves do not replay in this lesson: {exc}") from None

    def act(self, lesson: Lesson, moves: object, action: object) -> dict[str, Any]:
        """The snapshot after ``action``, or IllegalAction with the lesson's explanation."""
        p = self.progress(lesson, moves)
        if action is None:
            return self.snapshot(lesson, p)
        if not isinstance(action, str) or not action.strip() or len(action) > 200:
            raise BadAction("send an action in the game's notation, e.g. 'play 9H'")
        out = attempt(lesson, p, action)
        if not out.accepted:
            why = out.why + (f" (The rules: {out.rule_says}.)" if out.rule_says else "")
            raise IllegalAction(why, version=len(p.moves), lesson_why=out.why,
                                rule_says=out.rule_says)
        return self.snapshot(lesson, p)

    def snapshot(self, lesson: Lesson, p: Progress) -> dict[str, Any]:
        s = p.state
        finished = p.finished(lesson)
        nxt = self.next_of(lesson)
        over = finished or s.is_over
        v = table_view(s, lesson.learner)
        payload = view_payload(v)
        if finished:
            payload["result"] = lesson.done
        return {
            "id": f"lesson-{lesson.id}",
            "kind": "lesson",
            "version": len(p.moves),
            "level": "lesson",
            "settings": str(s.settings),
            "status": "over" if over else "live",
            "you": lesson.learner,
            "seed": None,
            "thinking": False,
            "your_turn": not over and s.actor == lesson.learner,
            "view": payload,
            "choices": choices(v),
            "log": log_entries(s, lesson.learner, 0),
            "log_total": len(s.log or ()),
            **learning_aids(s, lesson.learner),
            "moves": list(p.moves),
            "lesson": {
                "id": lesson.id,
                "title": lesson.title,
                "goal": lesson.goal,
                "intro": lesson.intro,
                "step": min(p.step, len(lesson.steps)),
                "steps": len(lesson.steps),
                "say": "" if finished else lesson.steps[p.step].say,
                "finished": finished,
                "done": lesson.done if finished else "",
                "next": None if nxt is None else {"id": nxt.id, "title": nxt.title},
            },
        }


__all__ = ["Lessons"]
