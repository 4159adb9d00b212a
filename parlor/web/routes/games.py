"""A game for its player: start one (the home page's form or the JSON API), read its table
(waiting for a change), act, preview declarations, take back, ask for a hint, a rematch, and
"Continue elsewhere". A form and its API twin share one handler (:func:`start_game`,
:func:`start_rematch`, :func:`new_handover`); only the way they read the request and answer
differs. See :mod:`parlor.web.games` for the rules of acting."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from parlor.ai.ratings import Z95
from parlor.web import schemas
from parlor.web.accounts import NotSignedIn
from parlor.web.computer import default_level
from parlor.web.games import BadAction, GameError, GameNotFound, LiveGame, NotYourGame
from parlor.web.rating import not_rated_reason
from parlor.web.routes.accounts import signed_in
from parlor.web.routes.site import (
    GAME_ID,
    Reply,
    Site,
    SiteDep,
    int_param,
    json_of,
    match_of,
    row_dict,
    set_token,
    token_for,
    tokens_of,
)

#: A "Continue elsewhere" code works once, within this many seconds.
HANDOVER_SECONDS = 600

router = APIRouter()


# -- the shared handlers ---------------------------------------------------------------------------


async def start_game(request: Request, site: Site, data: dict[str, Any],
                     contract: type[schemas.NewGame] | None) -> tuple[LiveGame, str]:
    """A new game from the form's or the API's fields (the API's body is also held to its
    ``contract``), the computer set thinking if it moves first."""
    level, seed, max_turns = site.new_game_args(data)
    match = match_of(data)
    if contract is not None:
        schemas.checked(contract, data)
    if str(data.get("rated", "")).lower() in ("1", "on", "true"):
        await check_rated(request, site, level, seed, match)
    live, token = await asyncio.to_thread(site.games.create, level, seed, max_turns, 0, match)
    site.conductor.kick(live.id)
    return live, token


class LevelNotRated(GameError):
    status, code = 409, "level_not_rated"


async def check_rated(request: Request, site: Site, level: str, seed: int | None,
                      match: bool) -> None:
    """A game asked for as rated is refused, saying why, unless it will be rated: signed in
    (the game joins the account as it starts, routes/accounts.py), match play, a fresh deal,
    a level with a calibrated rating (parlor.web.rating)."""
    if await signed_in(request) is None:
        raise NotSignedIn("sign in to play rated games (or play this one unrated)")
    if not match:
        raise BadAction("a rated game is a match game: choose mode match")
    if seed is not None:
        raise BadAction("a practice seed is a deal anyone can replay: a rated game is dealt "
                        "fresh (leave the seed out)")
    reason = not_rated_reason(level, site.games.ratings)
    if reason is not None:
        raise LevelNotRated(reason)


def level_ratings(site: Site) -> dict[str, dict[str, Any]]:
    """The calibrated levels' ratings: rating, deviation and 95% interval (parlor.ai.ratings)."""
    return {name: {"rating": round(r.rating), "rd": round(r.rd),
                   "interval": [round(r.rating - Z95 * r.rd), round(r.rating + Z95 * r.rd)]}
            for name, r in site.games.ratings.all().items()}


async def start_rematch(site: Site, live: LiveGame, level: str | None) -> tuple[LiveGame, str]:
    new, token = await asyncio.to_thread(site.games.rematch, live, level)
    site.conductor.kick(new.id)
    return new, token


async def new_handover(site: Site, game_id: str, token: str) -> str:
    with site.games.durable():
        return await asyncio.to_thread(site.handovers.make, game_id, token,
                                       seconds=HANDOVER_SECONDS)


# -- a new game --------------------------------------------------------------------------------


@router.post("/games")
async def new_game_form(request: Request, site: SiteDep) -> Response:
    live, token = await start_game(request, site, await site.form_of(request), None)
    resp = RedirectResponse(f"/g/{live.id}", status_code=303)
    set_token(resp, live.id, token)
    return resp


@router.get("/api/levels")
async def api_levels(site: SiteDep) -> dict[str, Any]:
    return {"levels": site.levels, "accepted": site.accepted, "default": default_level(),
            "ratings": level_ratings(site)}


@router.post("/api/games", status_code=201)
async def api_new_game(request: Request, site: SiteDep) -> Response:
    live, token = await start_game(request, site, await json_of(request), schemas.NewGame)
    snap = site.games.snapshot(live, 0)
    resp = JSONResponse({"id": live.id, "token": token, "url": f"/g/{live.id}",
                         "snapshot": snap}, status_code=201)
    set_token(resp, live.id, token)
    return resp


@router.get("/api/games")
async def api_games(request: Request, site: SiteDep) -> dict[str, Any]:
    rows = await asyncio.to_thread(site.games.owned, tokens_of(request))
    return {"games": [row_dict(r) for r in rows]}


# -- playing -----------------------------------------------------------------------------------


@router.get("/api/games/{game_id}")
async def api_state(request: Request, game_id: str, site: SiteDep, after: str | None = None,
                    wait: str | None = None, log_from: str | None = None) -> Response:
    after_v = int_param(after, "after", -1, -1, 10**7)
    wait_s = float(int_param(wait, "wait", 0, 0, 30))
    start = int_param(log_from, "log_from", 0, 0, 10**7)
    if not GAME_ID.match(game_id):
        raise GameNotFound(f"there is no game {game_id!r}")
    games, conductor = site.games, site.conductor
    with conductor.watch(game_id):  # nothing stays behind once this request is answered
        changed = conductor.changed_event(game_id)  # before reading: a change wakes us
        live = await site.load(request, game_id)
        snap = games.snapshot(live, start)
        if snap["thinking"]:
            conductor.kick(game_id)
        if wait_s > 0 and snap["version"] <= after_v and snap["status"] == "live":
            # until the game's position or status changes: a late NOTIFY of a change
            # this request already read wakes it without news, and then it waits on
            seen = (live.row.version, live.row.takebacks, live.row.status)
            end = time.monotonic() + wait_s
            while (left := end - time.monotonic()) > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(changed.wait(), timeout=left)
                changed = conductor.changed_event(game_id)  # before reading again
                if site.store.shared:  # the change may be another process's: read it
                    await asyncio.to_thread(games.refresh, live)
                if (live.row.version, live.row.takebacks, live.row.status) != seen:
                    break
            snap = games.snapshot(live, start)
    snap["thinking_now"] = snap["thinking"] and await conductor.thinking_now(game_id)
    return Reply(snap)


@router.post("/api/games/{game_id}/actions")
async def api_act(request: Request, game_id: str, site: SiteDep) -> Response:
    live = await site.load(request, game_id)
    data = await json_of(request)
    action = action_of(data)
    version = version_of(data)
    line = takebacks_of(data)
    start = schemas.checked(schemas.Act, data).log_from
    if site.store.shared:  # a round trip to the database: off the event loop
        snap = await asyncio.to_thread(site.games.act, live, version, action, start, line)
    else:
        snap = site.games.act(live, version, action, start, line)
    site.metrics.actions.labels("human").inc()
    site.conductor.notify(game_id)
    if snap["thinking"]:
        site.conductor.kick(game_id)
    return Reply(snap)


@router.post("/api/games/{game_id}/preview")
async def api_preview(request: Request, game_id: str, site: SiteDep) -> Response:
    """The table after declarations not yet sent (Games.preview): nothing is stored."""
    live = await site.load(request, game_id)
    data = await json_of(request)
    actions = declarations_of(data)
    schemas.checked(schemas.Preview, data)
    return JSONResponse(site.games.preview(live, version_of(data), actions))


@router.post("/api/games/{game_id}/takeback")
async def api_takeback(request: Request, game_id: str, site: SiteDep) -> Response:
    live = await site.load(request, game_id)
    data = await json_of(request)
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise BadAction("send {\"version\": N}: the move number the table showed")
    line = takebacks_of(data)
    start = schemas.checked(schemas.Takeback, data).log_from
    snap = await asyncio.to_thread(site.games.takeback, live, version, start, line)
    site.conductor.notify(game_id)
    return Reply(snap)


@router.get("/api/games/{game_id}/hint")
async def api_hint(request: Request, game_id: str, site: SiteDep,
                   version: str | None = None) -> Response:
    live = await site.load(request, game_id)
    v = None if version is None else int_param(version, "version", 0, 0, 10**7)
    # the quota is the player's, i.e. the game's: behind a balancer every player would
    # share the balancer's address (issue 38)
    advice = await site.conductor.hint(live, v, quota_key=game_id)
    return JSONResponse({"action": advice.action, "alternatives": advice.alternatives,
                         "source": advice.source, "seconds": round(advice.seconds, 3),
                         "budget": advice.budget, "version": v})


# -- a rematch -----------------------------------------------------------------------------------


@router.post("/g/{game_id}/rematch")
async def rematch_form(request: Request, game_id: str, site: SiteDep) -> Response:
    form = await site.form_of(request)
    live = await site.load(request, game_id)
    level = site.rematch_level(live, form)
    if level is None:
        return site.page(request, "rematch.html", game_id=live.id, levels=site.levels,
                         default_level=default_level(), title="Rematch: choose a level")
    new, token = await start_rematch(site, live, level)
    resp = RedirectResponse(f"/g/{new.id}", status_code=303)
    set_token(resp, new.id, token)
    return resp


@router.post("/api/games/{game_id}/rematch", status_code=201)
async def api_rematch(request: Request, game_id: str, site: SiteDep) -> Response:
    data = await json_of(request)
    live = await site.load(request, game_id)
    level = site.rematch_level(live, data)
    schemas.checked(schemas.Rematch, data)
    new, token = await start_rematch(site, live, level)
    resp = JSONResponse({"id": new.id, "token": token, "url": f"/g/{new.id}"},
                        status_code=201)
    set_token(resp, new.id, token)
    return resp


# -- "Continue elsewhere" ----------------------------------------------------------------------


@router.post("/g/{game_id}/handover", response_class=HTMLResponse)
async def handover_form(request: Request, game_id: str, site: SiteDep) -> Response:
    """"Continue elsewhere": a one-time code, good for ten minutes, instead of the
    player's token in a link (which would stay in history and proxy logs)."""
    await site.form_of(request)
    live = await site.load(request, game_id)
    code = await new_handover(site, live.id, token_for(request, game_id) or "")
    resp = site.page(request, "handover.html", game_id=live.id, code=code,
                     minutes=HANDOVER_SECONDS // 60, title="Continue elsewhere")
    resp.headers["Cache-Control"] = "no-store"  # the code is in the page
    return resp


@router.post("/api/games/{game_id}/handover", status_code=201)
async def api_handover(request: Request, game_id: str, site: SiteDep) -> Response:
    await json_of(request)
    live = await site.load(request, game_id)
    code = await new_handover(site, live.id, token_for(request, game_id) or "")
    return JSONResponse({"url": f"/h/{code}", "seconds": HANDOVER_SECONDS},
                        status_code=201)


@router.get("/h/{code}")
async def take_handover(code: str, site: SiteDep) -> Response:
    found = await asyncio.to_thread(site.handovers.take, code) if len(code) <= 64 else None
    if found is None:
        raise NotYourGame("this link to continue a game was used already or is more than "
                          f"{HANDOVER_SECONDS // 60} minutes old: make a new one in the "
                          "other browser")
    game_id, token = found
    resp = RedirectResponse(f"/g/{game_id}", status_code=303)
    resp.headers["Cache-Control"] = "no-store"
    set_token(resp, game_id, token)
    return resp


# -- the request's fields --------------------------------------------------------------------------


def takebacks_of(data: dict[str, Any]) -> int | None:
    """The optional ``takebacks`` of an action or takeback request: the table the client saw
    (with its ``version``), so a click on a line taken back since (R30) is refused."""
    found = data.get("takebacks")
    if found is None:
        return None
    if not isinstance(found, int) or isinstance(found, bool) or found < 0:
        raise BadAction("'takebacks', when sent, is the number the table showed")
    return found


def action_of(data: dict[str, Any]) -> str | list[str]:
    """The action a request's JSON body sends: one in the game's notation, or a
    declaration sent whole (``actions``: Games.act)."""
    action = data.get("action")
    if "actions" in data and action is None:
        actions = data["actions"]
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise BadAction("'actions' must be a list of actions in the game's notation")
        return actions
    if not isinstance(action, str):
        raise BadAction("send {\"action\": \"...\", \"version\": N}: 'action' is missing")
    return action


def declarations_of(data: dict[str, Any]) -> list[str]:
    """The declarations so far that a preview request's JSON body sends."""
    actions = data.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise BadAction("send {\"actions\": [...], \"version\": N}: the declarations "
                        "so far, in the game's notation")
    return actions


def version_of(data: dict[str, Any]) -> int:
    """The move number the table showed, from a request's JSON body."""
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise BadAction("send {\"action\": \"...\", \"version\": N}: 'version' must be "
                        "the move number the table showed")
    return version
