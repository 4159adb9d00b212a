"""A finished game's analysis (:mod:`parlor.web.analysis`): its page, its progress and the
request to analyse (``/g/{id}/analysis``, ``/api/games/{id}/analysis``)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from parlor.ai.analysis import THRESHOLDS
from parlor.web.analysis import RecordBroken
from parlor.web.games import BadAction, GameBroken, LiveGame
from parlor.web.routes.site import Site, SiteDep, json_of

router = APIRouter()


async def loaded(site: Site, request: Request, game_id: str) -> LiveGame:
    try:
        return await site.load(request, game_id)
    except GameBroken as exc:  # a stored record that does not replay: the input's fault
        raise RecordBroken(f"this game's record does not replay, so it cannot be "
                           f"analysed: {exc.message}") from None


@router.get("/g/{game_id}/analysis", response_class=HTMLResponse)
async def analysis_page(request: Request, game_id: str, site: SiteDep) -> Response:
    live = await loaded(site, request, game_id)
    site.analyst.check(live)
    return site.page(request, "analysis.html", status_json=site.analyst.status(live),
                     game_id=game_id, title=f"Analysis — {live.row.title}",
                     game_title=live.row.title, thresholds=THRESHOLDS)


@router.get("/api/games/{game_id}/analysis")
async def api_analysis(request: Request, game_id: str, site: SiteDep) -> Response:
    live = await loaded(site, request, game_id)
    site.analyst.check(live)
    return JSONResponse(site.analyst.status(live))


@router.post("/api/games/{game_id}/analysis", status_code=202)
async def api_analyse(request: Request, game_id: str, site: SiteDep) -> Response:
    live = await loaded(site, request, game_id)
    data = await json_of(request)
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**31:
        raise BadAction("the analysis seed must be a whole number from 0 to 2147483647")
    return JSONResponse(await site.analyst.request(live, seed), status_code=202)
