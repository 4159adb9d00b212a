"""Game records: download a game's record, import one (the form or the API, one handler:
:func:`import_record`) and step through a replay (the page and its API)."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Query, Request
from fastapi.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)

from parlor.web import lookback, schemas
from parlor.web.games import BadAction, LiveGame
from parlor.web.routes.friends import reader
from parlor.web.routes.site import Site, SiteDep, int_param, json_of, set_token

router = APIRouter()


async def import_record(site: Site, text: str) -> tuple[LiveGame, str]:
    """A record made a replay game (the player's token opens it)."""
    return await asyncio.to_thread(site.games.import_record, text)


@router.get("/g/{game_id}/record.txt")
async def record_file(request: Request, game_id: str, site: SiteDep) -> Response:
    live, _ = await reader(request, site, game_id)
    text = site.games.record_text(live)
    return PlainTextResponse(text, headers={
        "Content-Disposition": f'attachment; filename="parlor-{game_id}.txt"'})


@router.get("/replay/{game_id}", response_class=HTMLResponse)
async def replay_page(request: Request, game_id: str, site: SiteDep,
                      step: str | None = None) -> Response:
    live, seat = await reader(request, site, game_id)
    n = int_param(step, "step", 0, 0, 10**6)
    snap = await asyncio.to_thread(site.games.replay_snapshot, live, n,
                                   live.human if seat is None else seat)
    _viewer(live, seat, snap)
    return site.page(request, "replay.html", snapshot=snap, title=f"Replay — {live.row.title}",
                     key=request.query_params.get("k") or "")


@router.post("/import")
async def import_form(request: Request, site: SiteDep) -> Response:
    data = await site.form_of(request)
    live, token = await import_record(site, data.get("record", ""))
    resp = RedirectResponse(f"/replay/{live.id}", status_code=303)
    set_token(resp, live.id, token)
    return resp


@router.get("/api/games/{game_id}/record")
async def api_record(request: Request, game_id: str, site: SiteDep) -> Response:
    live, _ = await reader(request, site, game_id)
    return PlainTextResponse(site.games.record_text(live))


@router.post("/api/records", status_code=201)
async def api_import(request: Request, site: SiteDep) -> Response:
    data = await json_of(request)  # the Guard let only JSON through
    text = data.get("record")
    if not isinstance(text, str) or not text.strip():
        raise BadAction("send the game record as {\"record\": \"...\"}")
    schemas.checked(schemas.Record, data)
    live, token = await import_record(site, text)
    resp = JSONResponse({"id": live.id, "token": token, "url": f"/replay/{live.id}",
                         "steps": len(live.actions)}, status_code=201)
    set_token(resp, live.id, token)
    return resp


@router.get("/api/replays/{game_id}")
async def api_replay(request: Request, game_id: str, site: SiteDep, step: str | None = None,
                     seat: str | None = None) -> Response:
    live, mine = await reader(request, site, game_id)
    n = int_param(step, "step", 0, 0, 10**6)
    if lookback.in_play(live):  # the move list during a casual game: the player's own view
        who = live.human if seat is None else int_param(seat, "seat", 1, 1, 2) - 1
        past = await asyncio.to_thread(lookback.past_position, site.games, live, n, who)
        return JSONResponse(past)
    who = int_param(seat, "seat", 1, 1, 2) - 1
    snap = await asyncio.to_thread(site.games.replay_snapshot, live, n, who)
    _viewer(live, mine, snap)
    return JSONResponse(snap)


@router.get("/api/replays/{game_id}/moves")
async def api_moves(request: Request, game_id: str, site: SiteDep,
                    start: str | None = Query(None, alias="from")) -> Response:
    """The move list from step ``from`` on, each move in the words its reader's log has."""
    live, mine = await reader(request, site, game_id)
    n = int_param(start, "from", 0, 0, 10**6)
    moves = await asyncio.to_thread(lookback.move_list, site.games, live, mine, n)
    return JSONResponse(moves)


def _viewer(live: LiveGame, seat: int | None, snap: dict[str, object]) -> None:
    """A friend game's replay names its reader's seat "You" (a spectator's: neither)."""
    if live.is_friend:
        snap["you"] = seat
