"""Tournaments over HTTP (:mod:`parlor.web.tournaments`): create one, follow its pairings and
standings, play your contests on the usual table, watch the computers' contests, answer your
team's ransoms, download the report.

The tournament's secret token is kept in the cookie ``pmt_<id>`` (or sent as the
``X-Parlor-Token`` header); it also opens the person's contests (their rows carry the same
token hash)."""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from parlor.web.games import GameNotFound, GameOver
from parlor.web.routes.site import (
    Site,
    SiteDep,
    json_of,
    set_token,
    token_for,
    tokens_of,
)
from parlor.web.schemas import BIG, NewTournament, checked, strict_int
from parlor.web.schemas import Ransom as RansomBody
from parlor.web.tournaments import LiveTournament, match_token, parse_spec
from parlor.web.tournaments.spec import MAX_PLAYERS

COOKIE_PREFIX = "pmt_"

router = APIRouter()


# -- the tournament's token and its tables ---------------------------------------------------------


def token_of(request: Request, tid: str) -> str | None:
    return token_for(request, tid, COOKIE_PREFIX)


async def load(site: Site, request: Request, tid: str) -> LiveTournament:
    lt = await asyncio.to_thread(site.tournaments.get, tid)
    site.tournaments.authorize(lt, token_of(request, tid))
    return lt


def table_number(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= MAX_PLAYERS:
        raise GameNotFound(f"there is no table {text!r}")
    return int(text)


def _seats(lt: LiveTournament, table: int) -> tuple[int, int]:
    with lt.lock:
        assert lt.round is not None
        return next(p.seats for p in lt.round.pairings if p.table == table)


# -- the tournament ------------------------------------------------------------------------------


@router.get("/tournaments", response_class=HTMLResponse)
async def tournaments_page(request: Request, site: SiteDep) -> Response:
    mine = await asyncio.to_thread(site.tournaments.owned, tokens_of(request, COOKIE_PREFIX))
    return site.page(request, "tournaments.html", levels=site.accepted, tournaments=mine,
                     title="Parlor Magic — tournaments")


@router.post("/api/tournaments", status_code=201)
async def api_create(request: Request, site: SiteDep) -> Response:
    data = await json_of(request)
    spec = parse_spec(data, site.accepted)
    checked(NewTournament, data)
    lt, token = await asyncio.to_thread(site.tournaments.create, spec)
    site.tournaments.driver.kick(lt.id)
    resp = JSONResponse({"id": lt.id, "token": token, "url": f"/t/{lt.id}"},
                        status_code=201)
    set_token(resp, lt.id, token, COOKIE_PREFIX)
    return resp


@router.get("/t/{tid}", response_class=HTMLResponse)
async def tournament_page(request: Request, tid: str, site: SiteDep) -> Response:
    lt = await load(site, request, tid)
    site.tournaments.driver.kick(tid)
    snap = await asyncio.to_thread(site.tournaments.snapshot, lt)
    return site.page(request, "tournament.html", snapshot=snap,
                     title=f"Parlor Magic — {lt.spec.title}")


@router.get("/api/tournaments/{tid}")
async def api_state(request: Request, tid: str, site: SiteDep, after: str | None = None,
                    wait: str | None = None) -> Response:
    after_v = strict_int(after, "after", -1, -1, BIG)
    wait_s = strict_int(wait, "wait", 0, 0, 30)
    lt = await load(site, request, tid)
    changed = site.tournaments.driver.changed_event(tid)
    snap = await asyncio.to_thread(site.tournaments.snapshot, lt)
    if wait_s > 0 and snap["version"] <= after_v and snap["status"] == "live":
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(changed.wait(), timeout=wait_s)
        snap = await asyncio.to_thread(site.tournaments.snapshot, lt)
    return JSONResponse(snap)


@router.post("/api/tournaments/{tid}/ransom")
async def api_ransom(request: Request, tid: str, site: SiteDep) -> Response:
    lt = await load(site, request, tid)
    data = await json_of(request)
    checked(RansomBody, data)
    await asyncio.to_thread(site.tournaments.answer, lt, data)
    site.tournaments.driver.kick(tid)
    return JSONResponse(await asyncio.to_thread(site.tournaments.snapshot, lt))


@router.get("/api/tournaments/{tid}/report")
async def api_report(request: Request, tid: str, site: SiteDep) -> Response:
    lt = await load(site, request, tid)
    return JSONResponse(site.tournaments.report(lt), headers={
        "Content-Disposition": f'attachment; filename="parlor-tournament-{tid}.json"'})


# -- its contests --------------------------------------------------------------------------------


@router.get("/t/{tid}/play/{table}")
async def play_contest(request: Request, tid: str, table: str, site: SiteDep) -> Response:
    lt = await load(site, request, tid)
    gid = site.tournaments.table_game(lt, table_number(table))
    live = await asyncio.to_thread(site.games.get, gid)
    if live.row.kind != "play":
        return RedirectResponse(f"/t/{tid}/watch/{table}", status_code=303)
    resp = RedirectResponse(f"/g/{gid}", status_code=303)
    token = token_of(request, tid)
    assert token is not None  # load() checked it
    set_token(resp, gid, token)
    return resp


@router.get("/t/{tid}/games/{gid}")
async def contest_replay(request: Request, tid: str, gid: str, site: SiteDep) -> Response:
    """A finished contest's replay (its row carries the tournament's token)."""
    lt = await load(site, request, tid)
    if gid not in lt.history.values():
        raise GameNotFound(f"game {gid!r} is not a contest of this tournament")
    live = await asyncio.to_thread(site.games.get, gid)
    if live.row.kind == "match":
        if not live.state.is_over:
            raise GameOver("this contest is still being played: watch it instead")
        token = match_token(lt, gid)
    else:
        found = token_of(request, tid)
        assert found is not None  # load() checked it
        token = found
    resp = RedirectResponse(f"/replay/{gid}", status_code=303)
    set_token(resp, gid, token)
    return resp


@router.get("/t/{tid}/watch/{table}", response_class=HTMLResponse)
async def watch_page(request: Request, tid: str, table: str, site: SiteDep) -> Response:
    lt = await load(site, request, tid)
    gid = site.tournaments.table_game(lt, table_number(table))
    live = await asyncio.to_thread(site.games.get, gid)
    snap = site.games.spectator_snapshot(live)
    names = [lt.spec.entries[i].name for i in _seats(lt, table_number(table))]
    return site.page(request, "watch.html", snapshot=snap, names=names, tid=tid,
                     table=table, title=f"Watching — {live.row.title}")


@router.get("/api/tournaments/{tid}/tables/{table}")
async def api_watch(request: Request, tid: str, table: str, site: SiteDep,
                    after: str | None = None, wait: str | None = None,
                    log_from: str | None = None) -> Response:
    after_v = strict_int(after, "after", -1, -1, BIG)
    wait_s = strict_int(wait, "wait", 0, 0, 30)
    start = strict_int(log_from, "log_from", 0, 0, BIG)
    lt = await load(site, request, tid)
    gid = site.tournaments.table_game(lt, table_number(table))
    live = await asyncio.to_thread(site.games.get, gid)
    snap = site.games.spectator_snapshot(live, start)
    if wait_s > 0 and snap["version"] <= after_v and snap["status"] == "live":
        await asyncio.sleep(min(wait_s, 1.0))
        snap = site.games.spectator_snapshot(live, start)
    return JSONResponse(snap)
