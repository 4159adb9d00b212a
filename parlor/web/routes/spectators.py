"""A game watched by someone its player gave the spectator link (``/watch/{id}?k=...``): the
page and its API show the table as a spectator sees it, hands hidden."""

from __future__ import annotations

import asyncio
import contextlib
import hmac
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from parlor.web.games import LiveGame, NotYourGame, watch_key
from parlor.web.routes.friends import friends_of
from parlor.web.routes.site import Reply, Site, SiteDep, int_param

router = APIRouter()


async def watched(site: Site, game_id: str, k: str | None) -> LiveGame:
    """The game whose spectator key this is (a wrong key is refused like a wrong token)."""
    live = await site.live_game(game_id)
    if not k or not hmac.compare_digest(k.encode(), watch_key(live.token_hash).encode()) \
            or not (live.is_play or live.is_friend):
        raise NotYourGame("this spectator link is not valid for this game")
    return live


async def flagged_first(request: Request, live: LiveGame) -> None:
    """A friend game whose running clock is out ends before a spectator reads it (1313)."""
    if live.is_friend:
        await asyncio.to_thread(friends_of(request).flag_if_fallen, live)


@router.get("/watch/{game_id}", response_class=HTMLResponse)
async def watch_page(request: Request, game_id: str, site: SiteDep,
                     k: str | None = None) -> Response:
    live = await watched(site, game_id, k)
    await flagged_first(request, live)
    snap = await spectator_snapshot(request, site, live)
    return site.page(request, "spectate.html", snapshot=snap, key=k,
                     title=f"Watching — {live.row.title}")


@router.get("/api/watch/{game_id}")
async def api_watch(request: Request, game_id: str, site: SiteDep, k: str | None = None,
                    after: str | None = None, wait: str | None = None,
                    log_from: str | None = None) -> Response:
    after_v = int_param(after, "after", -1, -1, 10**7)
    wait_s = float(int_param(wait, "wait", 0, 0, 30))
    start = int_param(log_from, "log_from", 0, 0, 10**7)
    live = await watched(site, game_id, k)
    await flagged_first(request, live)
    conductor = site.conductor
    with conductor.watch(game_id):
        changed = conductor.changed_event(game_id)
        snap = await spectator_snapshot(request, site, live, start)
        if wait_s > 0 and snap["version"] <= after_v and snap["status"] == "live":
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), timeout=wait_s)
            snap = await spectator_snapshot(request, site, live, start)
    return Reply(snap)


async def spectator_snapshot(request: Request, site: Site, live: LiveGame,
                             log_from: int = 0) -> dict[str, Any]:
    """The spectator's snapshot; a friend game's end told in its players' words (a draw by
    agreement, an abort, a flag or a claim: the rules' result does not say it)."""
    snap = await asyncio.to_thread(site.games.spectator_snapshot, live, log_from)
    if live.is_friend and snap["status"] != "live":
        words = await asyncio.to_thread(friends_of(request).end_words, live)
        if words is not None:
            snap["result_text"] = words
    return snap
