"""The HTML pages that are not a concern of their own: home, a game's table, the rules and
the notation (the table itself is drawn in the browser from the JSON snapshot)."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from parlor.puzzles.model import GOALS
from parlor.rules.state import Settings
from parlor.web.games import watch_key
from parlor.web.routes.games import level_ratings
from parlor.web.routes.site import SiteDep, row_dict, token_for, tokens_of
from parlor.web.rulesdoc import rules_doc, ruling_index_html

MAX_TURNS_CHOICES = (200, 60, 20, 8)

router = APIRouter()


@router.get("/", response_class=HTMLResponse)
async def home(request: Request, site: SiteDep) -> Response:
    rows = await asyncio.to_thread(site.games.owned, tokens_of(request))
    # the home page starts a newcomer at the weakest level, where the coach is on (the API's
    # default stays the middle one)
    daily = site.puzzles.daily()  # issue 44: the same puzzle all day (UTC), for everybody
    return site.page(request, "home.html", levels=site.levels, default_level=site.levels[0],
                     games=[row_dict(r) for r in rows], level_ratings=level_ratings(site),
                     turn_choices=MAX_TURNS_CHOICES,
                     daily=None if daily is None else {"id": daily.id,
                                                       "goal_words": GOALS[daily.goal]})


@router.get("/g/{game_id}", response_class=HTMLResponse)
async def game_page(request: Request, game_id: str, site: SiteDep) -> Response:
    live = await site.live_game(game_id)
    if live.is_friend:  # a game between two people has its own table (routes/friends.py),
        # which knows both seats' tokens (its second seat's is not the game's)
        return RedirectResponse(f"/f/{game_id}", status_code=303)
    site.games.authorize(live, token_for(request, game_id))
    if not live.is_play:
        return RedirectResponse(f"/replay/{game_id}", status_code=303)
    snap = site.games.snapshot(live, 0)
    if snap["thinking"]:
        site.conductor.kick(game_id)
    tid = await asyncio.to_thread(site.tournament_store.tournament_of, game_id)
    return site.page(request, "game.html", snapshot=snap, levels=site.levels,
                     tournament_url=None if tid is None else f"/t/{tid}",
                     single_draw=Settings.parse(live.row.settings).single_draw,
                     title=f"Parlor Magic — {live.row.title}",
                     watch_url=f"/watch/{game_id}?k={watch_key(live.token_hash)}")


@router.get("/rules", response_class=HTMLResponse)
async def rules_page(request: Request, site: SiteDep) -> Response:
    doc = rules_doc("rules.md")
    return site.page(request, "rules.html", doc=doc, rulings=ruling_index_html(doc),
                     title="Parlor Magic — rules")


@router.get("/notation", response_class=HTMLResponse)
async def notation_page(request: Request, site: SiteDep) -> Response:
    doc = rules_doc("notation.md")
    return site.page(request, "rules.html", doc=doc, rulings="",
                     title="Parlor Magic — notation")
