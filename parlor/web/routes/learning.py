"""The Learn pages and the lessons' API (:mod:`parlor.web.learning`): nothing is stored, the
browser sends the learner's accepted moves with each new one."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from parlor.web.routes.site import SiteDep, json_of

router = APIRouter()


@router.get("/learn", response_class=HTMLResponse)
async def learn_page(request: Request, site: SiteDep) -> Response:
    return site.page(request, "learn.html", lessons=site.lessons.index(),
                     title="Parlor Magic — learn to play")


@router.get("/learn/{lesson_id}", response_class=HTMLResponse)
async def lesson_page(request: Request, lesson_id: str, site: SiteDep) -> Response:
    lesson = site.lessons.get(lesson_id)
    snap = site.lessons.act(lesson, [], None)
    return site.page(request, "lesson.html", snapshot=snap, lessons=site.lessons.index(),
                     title=f"Lesson: {lesson.title} — Parlor Magic")


@router.get("/api/lessons")
async def api_lessons(site: SiteDep) -> dict[str, Any]:
    return {"lessons": site.lessons.index()}


@router.post("/api/lessons/{lesson_id}")
async def api_lesson(request: Request, lesson_id: str, site: SiteDep) -> Response:
    lesson = site.lessons.get(lesson_id)
    data = await json_of(request)
    return JSONResponse(site.lessons.act(lesson, data.get("moves", []), data.get("action")))
