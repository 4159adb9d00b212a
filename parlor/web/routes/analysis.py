"""A finished game's analysis (:mod:`parlor.web.analysis`): its page, its progress and the
request to analyse (``/g/{id}/analysis``, ``/api/games/{id}/analysis``)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from parlor.ai.analysis import THRESHOLDS
from parlor.web.analysis import RecordBroken
from parlor.web.games import BadAction, GameBroken, LiveGame
from parlor.web.routes.friends import reader
from parlor.web.routes.site import Site, SiteDep, json_of

router = APIRouter()


async def loaded(site: Site, request: Request,
                 game_id: str) -> tuple[LiveGame, int | None, int]:
    """The game, its reader's seat (either player of a friend game, or its spectator link:
    :func:`parlor.web.routes.friends.reader`) and whose decisions the reader's analysis
    is: each player's own (a friend game's two seats have one each), the inviter's for a
    spectator, the human's in a game against the computer."""
    try:
        live, seat = await reader(request, site, game_id)
    except GameBroken as exc:  # a stored record that does not replay: the input's fault
        raise RecordBroken(f"this game's record does not replay, so it cannot be "
                           f"analysed: {exc.message}") from None
    return live, seat, live.human if seat is None else seat


@router.get("/g/{game_id}/analysis", response_class=HTMLResponse)
async def analysis_page(request: Request, game_id: str, site: SiteDep) -> Response:
    live, seat, player = await loaded(site, request, game_id)
    site.analyst.check(live)
    status = site.analyst.status(live, player)
    # whose decisions they are, in the reader's words: a friend game's other player (or,
    # for its spectator, either) is a person, "Rlr N", not "the computer"
    mine = seat is not None and seat == status["player"]
    return site.page(request, "analysis.html", status_json=status, game_id=game_id,
                     title=f"Analysis — {live.row.title}", game_title=live.row.title,
                     thresholds=THRESHOLDS, key=request.query_params.get("k") or "",
                     whose="your" if mine else f"Rlr {status['player'] + 1}’s",
                     opponent=_opponent(live))


def _opponent(live: LiveGame) -> str | None:
    """Who the person met, for the sentence that says the estimates do not know it: the
    computer at its level (issue 41: against novice, estimates of 30-40% came with 86% of
    wins); a friend game's or an imported record's is nobody the server can name."""
    return f"the computer at the {live.row.level} level" if live.is_play and live.row.level \
        else None


@router.get("/api/games/{game_id}/analysis")
async def api_analysis(request: Request, game_id: str, site: SiteDep) -> Response:
    live, _, player = await loaded(site, request, game_id)
    site.analyst.check(live)
    return JSONResponse(site.analyst.status(live, player))


@router.post("/api/games/{game_id}/analysis", status_code=202)
async def api_analyse(request: Request, game_id: str, site: SiteDep) -> Response:
    live, _, player = await loaded(site, request, game_id)
    data = await json_of(request)
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**31:
        raise BadAction("the analysis seed must be a whole number from 0 to 2147483647")
    return JSONResponse(await site.analyst.request(live, player, seed), status_code=202)
