"""The puzzle pages and the puzzles' API (:mod:`parlor.web.puzzles`, issue 44): nothing of a
puzzle in progress is stored; the browser sends the solver's accepted moves with each new one,
and the server judges every move by replaying them. Ratings: an account's on the server, an
anonymous browser's in its localStorage (sent with its moves, as ``player``)."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from parlor.puzzles.model import GOALS, THEMES
from parlor.rules.glicko import Rating
from parlor.store.puzzles import account_player
from parlor.web.games import BadAction
from parlor.web.puzzles import Solver, rating_json
from parlor.web.routes.accounts import signed_in
from parlor.web.routes.site import Site, SiteDep, json_of
from parlor.web.schemas import (
    PuzzleHintAsk,
    PuzzleMove,
    PuzzlePlayer,
    PuzzleSolutionAsk,
    checked,
)

router = APIRouter()

BROWSER_ID = re.compile(r"^[A-Za-z0-9_-]{8,40}$")


def _filters(theme: str, goal: str) -> tuple[str, str]:
    if theme and theme not in THEMES:
        raise BadAction(f"unknown theme {theme[:20]!r}: the themes are {', '.join(THEMES)}")
    if goal and goal not in GOALS:
        raise BadAction(f"unknown goal {goal[:20]!r}: the goals are {', '.join(GOALS)}")
    return theme, goal


async def solver_of(request: Request, site: Site, player: PuzzlePlayer | None) -> Solver:
    """Who attempts: the signed-in account (its rating on the server), else the browser
    that sent its rating and id, else nobody rated."""
    account = await signed_in(request)
    if account is not None:
        kept = await asyncio.to_thread(site.puzzles.ratings.account, account.id)
        return Solver(account_player(account.id), kept or Rating(), account.id)
    if player is None:
        return Solver(None, Rating())
    return Solver(f"b:{player.id}", Rating(player.rating, max(player.rd, 1.0),
                                           player.volatility))


# -- pages ------------------------------------------------------------------------------------


@router.get("/puzzles", response_class=HTMLResponse)
async def next_puzzle(request: Request, site: SiteDep, rating: str = "", player: str = "",
                      theme: str = "", goal: str = "", after: str = "") -> Response:
    """The next puzzle near the player's rating (the account's, else the one the browser
    sent), one not tried yet where there is one."""
    theme, goal = _filters(theme, goal)
    solver = await solver_of(request, site, None)
    if solver.key is None and BROWSER_ID.match(player):
        solver = Solver(f"b:{player}", solver.start)
    near = solver.start.rating
    if solver.account_id is None and re.fullmatch(r"\d{1,4}(\.\d+)?", rating):
        near = float(rating)
    done: set[str] = set()
    if solver.key is not None:
        done = set(await asyncio.to_thread(site.puzzles.ratings.attempted, solver.key))
    if after:
        done.add(after)
    found = await asyncio.to_thread(site.puzzles.near, near, done=done, theme=theme,
                                    goal=goal)
    if found is None:
        return await puzzle_index(request, site, theme, goal)
    return RedirectResponse(f"/puzzles/{found.id}", status_code=303)


@router.get("/puzzles/all", response_class=HTMLResponse)
async def puzzle_index(request: Request, site: SiteDep, theme: str = "",
                       goal: str = "") -> Response:
    theme, goal = _filters(theme, goal)
    rows = await asyncio.to_thread(site.puzzles.index, theme, goal)
    return site.page(request, "puzzles.html", puzzles=rows, themes=THEMES, goals=GOALS,
                     theme=theme, goal=goal, total=len(site.puzzles.all),
                     account_rating=await account_rating(request, site),
                     title="Parlor Magic — puzzles")


async def account_rating(request: Request, site: Site) -> dict[str, float] | None:
    """The signed-in account's puzzle rating (None: not signed in)."""
    account = await signed_in(request)
    if account is None:
        return None
    kept = await asyncio.to_thread(site.puzzles.ratings.account, account.id)
    return rating_json(kept or Rating())


@router.get("/puzzles/{puzzle_id}", response_class=HTMLResponse)
async def puzzle_page(request: Request, puzzle_id: str, site: SiteDep) -> Response:
    prep = site.puzzles.get(puzzle_id)
    snap = await asyncio.to_thread(site.puzzles.act, prep, [], None, Solver(None, Rating()))
    mine = await account_rating(request, site)
    daily = site.puzzles.daily()
    return site.page(request, "puzzle.html", snapshot=snap, account_rating=mine,
                     signed_in=mine is not None,
                     daily=daily is not None and daily.id == puzzle_id,
                     title=f"Puzzle {puzzle_id}: {snap['puzzle']['goal_words']} — Parlor Magic")


# -- the API ----------------------------------------------------------------------------------


@router.get("/api/puzzles")
async def api_puzzles(site: SiteDep, theme: str = "", goal: str = "") -> dict[str, Any]:
    theme, goal = _filters(theme, goal)
    return {"puzzles": await asyncio.to_thread(site.puzzles.index, theme, goal)}


@router.post("/api/puzzles/{puzzle_id}")
async def api_puzzle(request: Request, puzzle_id: str, site: SiteDep) -> Response:
    prep = site.puzzles.get(puzzle_id)
    body = checked(PuzzleMove, await json_of(request))
    solver = await solver_of(request, site, body.player)
    snap = await asyncio.to_thread(site.puzzles.act, prep, body.moves, body.action, solver)
    return JSONResponse(snap)


@router.post("/api/puzzles/{puzzle_id}/hint")
async def api_puzzle_hint(request: Request, puzzle_id: str, site: SiteDep) -> Response:
    prep = site.puzzles.get(puzzle_id)
    body = checked(PuzzleHintAsk, await json_of(request))
    hint = await asyncio.to_thread(site.puzzles.hint, prep, body.moves, body.level)
    return JSONResponse(hint)


@router.post("/api/puzzles/{puzzle_id}/solution")
async def api_puzzle_solution(request: Request, puzzle_id: str, site: SiteDep) -> Response:
    prep = site.puzzles.get(puzzle_id)
    body = checked(PuzzleSolutionAsk, await json_of(request))
    solver = await solver_of(request, site, body.player)
    snap = await asyncio.to_thread(site.puzzles.solution, prep, body.step, solver)
    return JSONResponse(snap)
