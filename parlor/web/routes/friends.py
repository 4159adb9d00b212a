"""A game between two people (issue 45): invite a friend (the home page's form or the JSON
API), open an invitation (the first person takes the other seat, anyone later watches), and
each player's table: read it (waiting for a change, as the game against the computer's
table does), act, preview declarations, resign, abort. See :mod:`parlor.web.friends`.

Each request's seat is the one its token holds (the cookie ``pm_<game id>`` of the browser,
or the ``X-Parlor-Token`` header): a token acts for its own seat only, and a spectator link
holds none.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from parlor.rules.state import Settings
from parlor.store.friends import FriendSeats
from parlor.web import schemas
from parlor.web.friendclock import SWEEP_SECONDS, TimeControl
from parlor.web.friends import (
    INVITE_SECONDS,
    Friends,
    Invitation,
    Opened,
    invite_hash,
    time_control,
)
from parlor.web.games import (
    STOPPED,
    BadAction,
    GameNotFound,
    GameOver,
    LiveGame,
    NotYourGame,
    watch_key,
)
from parlor.web.rating import friend_rated_words, invitation_rated_words
from parlor.web.routes.accounts import signed_in
from parlor.web.routes.games import (
    HANDOVER_SECONDS,
    action_of,
    declarations_of,
    new_handover,
    version_of,
)
from parlor.web.routes.site import (
    GAME_ID,
    Reply,
    Site,
    SiteDep,
    int_param,
    json_of,
    match_of,
    set_token,
    token_for,
)

router = APIRouter()
log = logging.getLogger("parlor.web")


def friends_of(request: Request) -> Friends:
    """The app's :class:`Friends` (:func:`app_friends`)."""
    return app_friends(request.app)


def app_friends(app: Any) -> Friends:
    """The app's :class:`Friends`, made on first use (no await between the look and the
    set: the event loop cannot interleave two requests here)."""
    app_state = app.state
    found: Friends | None = getattr(app_state, "friends", None)
    if found is None:
        site: Site = app_state.site
        found = Friends(site.games, FriendSeats(site.store))
        app_state.friends = found
    return found


def seat_choice(data: dict[str, Any]) -> int | None:
    """The inviter's seat: "1" or "2", or "random" (the default)."""
    raw = data.get("seat")
    if raw in (None, "", "random"):
        return None
    if raw in (1, 2, "1", "2") and not isinstance(raw, bool):
        return int(raw) - 1
    raise BadAction(f"seat is 1, 2 or \"random\", not {str(raw)[:20]!r}")


def max_turns_of(data: dict[str, Any]) -> int:
    raw = data.get("max_turns", 200)
    if isinstance(raw, bool) or not str(raw).isdigit() or not 2 <= int(str(raw)) <= 1000:
        raise BadAction("max_turns must be a whole number between 2 and 1000")
    return int(str(raw))


def clock_of(data: dict[str, Any]) -> TimeControl | None:
    """The time control: "BASE+INCREMENT" in seconds ("300+3"), or none ("none", absent)."""
    raw = data.get("clock")
    if raw in (None, "", "none"):
        return None
    try:
        return TimeControl.parse(str(raw)[:20])
    except ValueError as exc:
        raise BadAction(str(exc)) from None


async def make_invitation(request: Request, data: dict[str, Any]) -> Invitation:
    friends = friends_of(request)
    seat, match, turns = seat_choice(data), match_of(data), max_turns_of(data)
    clock = clock_of(data)
    account = await signed_in(request)  # the inviter's seat is tied to it: rated games
    return await asyncio.to_thread(friends.invite, seat=seat, match_play=match,
                                   max_turns=turns, clock=clock,
                                   account=None if account is None else account.id)


async def sweep_clocks(app: Any) -> None:
    """Every :data:`SWEEP_SECONDS`, end the clocked games whose running clock ran out that
    nobody reads (:meth:`Friends.sweep`); every web server of a deployment runs it (the
    store lets one flag through). A failed round is tried again next time; an outage is
    logged once when it starts and once when it ends, not every second."""
    failing = False
    while True:
        await asyncio.sleep(SWEEP_SECONDS)
        friends = app_friends(app)
        try:
            flagged = await asyncio.to_thread(friends.sweep)
        except Exception as exc:  # the database away: the next round tries again
            if not failing:
                log.warning("friend clocks: the sweep fails (%r); trying every %.0f s",
                            exc, SWEEP_SECONDS)
            failing = True
            continue
        if failing:
            log.warning("friend clocks: the sweep works again")
        failing = False
        for gid in flagged:  # this server's waiting tables (spectators') hear it at once
            app.state.site.conductor.notify(gid)


def invitation_json(inv: Invitation, account: str | None) -> dict[str, Any]:
    gid = inv.live.id
    match = Settings.parse(inv.live.row.settings).match_play
    return {"id": gid, "token": inv.token, "url": f"/f/{gid}", "seat": inv.live.human + 1,
            "rated_text": friend_rated_words(match, account, None, False),
            "invitation_url": f"/i/{inv.code}", "invitation_until": inv.until,
            "invitation_seconds": INVITE_SECONDS,
            "watch_url": f"/watch/{gid}?k={watch_key(inv.live.token_hash)}"}


async def seat_for(request: Request, site: Site, game_id: str) -> tuple[LiveGame, int]:
    """The friend game and the seat this request's token holds in it."""
    if not GAME_ID.match(game_id):
        raise GameNotFound(f"there is no game {game_id!r}")
    live = await site.live_game(game_id)
    friends = friends_of(request)
    seat = await asyncio.to_thread(friends.seat_of, live, token_for(request, game_id))
    return live, seat


async def reader(request: Request, site: Site, game_id: str) -> tuple[LiveGame, int | None]:
    """A game for its record, replay or analysis, and the seat of the one who reads it.
    A game against the computer: its player's token, as every route of it. A friend game:
    either seat's token, or its spectator link (``?k=``: seat None), and only once it is
    over, ended by the rules, a flag, a draw or an abort (before, the record and the replay
    show both Hands, and the analysis is the computer's advice)."""
    live = await site.live_game(game_id)
    token = token_for(request, game_id)
    if not live.is_friend:
        site.games.authorize(live, token)
        return live, live.human
    friends = friends_of(request)
    seat: int | None
    try:
        seat = await asyncio.to_thread(friends.seat_of, live, token)
    except NotYourGame:
        k = request.query_params.get("k") or ""
        if not hmac.compare_digest(k.encode(), watch_key(live.token_hash).encode()):
            raise
        seat = None
    await asyncio.to_thread(friends.flag_if_fallen, live)  # a clock run out ends it first
    if not live.state.is_over and live.row.status not in STOPPED:
        raise GameOver("the game is still being played: its record, replay and analysis "
                       "open once it is over (they show both players' cards)",
                       version=live.row.version)
    return live, seat


# -- inviting -------------------------------------------------------------------------------------


@router.post("/friends")
async def invite_form(request: Request, site: SiteDep) -> Response:
    inv = await make_invitation(request, await site.form_of(request))
    # the invitation's code rides in the fragment: the browser shows it, no server logs it
    resp = RedirectResponse(f"/f/{inv.live.id}#invite={inv.code}", status_code=303)
    set_token(resp, inv.live.id, inv.token)
    return resp


@router.post("/api/friends", status_code=201)
async def api_invite(request: Request, site: SiteDep) -> Response:
    data = await json_of(request)
    schemas.checked(schemas.FriendInvite, data)
    inv = await make_invitation(request, data)
    seats = await asyncio.to_thread(friends_of(request).seats.of_game, inv.live.id)
    resp = JSONResponse(invitation_json(inv, None if seats is None else seats.host_account),
                        status_code=201)
    set_token(resp, inv.live.id, inv.token)
    return resp


# -- opening an invitation ----------------------------------------------------------------------


async def open_as(request: Request, code: str) -> Opened:
    """Open the invitation, the guest's seat tied to the account signed in now (if any)."""
    account = await signed_in(request)
    return await asyncio.to_thread(friends_of(request).open, code, None,
                                   None if account is None else account.id)


@router.get("/i/{code}", response_class=HTMLResponse)
async def invitation_page(request: Request, code: str, site: SiteDep) -> Response:
    """The invitation: a button takes the seat (a GET takes nothing: a chat's link preview
    must not sit down in the friend's place); a player of the game goes to its table, anyone
    else once the seat is taken to the spectator's view."""
    friends = friends_of(request)
    found = await asyncio.to_thread(friends.seats.find, invite_hash(code)) \
        if len(code) <= 64 else None
    if found is None:
        raise GameNotFound("there is no such invitation: check the link you were sent")
    live = await site.live_game(found.game_id)
    with contextlib.suppress(NotYourGame):
        await asyncio.to_thread(friends.seat_of, live, token_for(request, live.id))
        return RedirectResponse(f"/f/{live.id}", status_code=303)  # a player: the table
    if found.guest_hash is not None:
        return RedirectResponse(_watch(live), status_code=303)
    expired = found.until < time.time()
    match = Settings.parse(live.row.settings).match_play
    opener = await signed_in(request)  # whose seat it would be: rated or not (issue 45)
    rated = invitation_rated_words(match, found.host_account,
                                   None if opener is None else opener.id,
                                   None if opener is None else opener.username)
    return site.page(request, "invite.html", status=410 if expired else 200, code=code,
                     expired=expired, seat=2 - live.human, title="An invitation to play",
                     hours=INVITE_SECONDS // 3600, match=match, rated_text=rated,
                     signed_in=opener is not None, clock=time_control(found))


@router.post("/i/{code}")
async def accept_form(request: Request, code: str, site: SiteDep) -> Response:
    await site.form_of(request)
    opened = await open_as(request, code)
    if opened.token is None:
        live = await site.live_game(opened.game_id)
        return RedirectResponse(_watch(live), status_code=303)
    site.conductor.notify(opened.game_id)  # the inviter's table waits for this
    resp = RedirectResponse(f"/f/{opened.game_id}", status_code=303)
    resp.headers["Cache-Control"] = "no-store"
    set_token(resp, opened.game_id, opened.token)
    return resp


@router.post("/api/invitations/{code}")
async def api_accept(request: Request, code: str, site: SiteDep) -> Response:
    """The seat's token for the first caller; the spectator link for anyone after."""
    await json_of(request)
    opened = await open_as(request, code)
    live = await site.live_game(opened.game_id)
    if opened.token is None:
        return JSONResponse({"id": live.id, "spectator": True, "watch_url": _watch(live),
                             "message": "the seat was taken already: you can watch"})
    site.conductor.notify(live.id)  # the inviter's table waits for this
    resp = JSONResponse({"id": live.id, "token": opened.token, "url": f"/f/{live.id}",
                         "seat": 2 - live.human, "spectator": False})
    set_token(resp, live.id, opened.token)
    return resp


# -- the table ----------------------------------------------------------------------------------


@router.get("/f/{game_id}", response_class=HTMLResponse)
async def friend_page(request: Request, game_id: str, site: SiteDep) -> Response:
    live, seat = await seat_for(request, site, game_id)
    snap = await asyncio.to_thread(friends_of(request).snapshot, live, seat)
    return site.page(request, "friend.html", snapshot=snap,
                     title=f"Parlor Magic — {live.row.title}", watch_url=_watch(live))


@router.post("/f/{game_id}/handover", response_class=HTMLResponse)
async def handover_form(request: Request, game_id: str, site: SiteDep) -> Response:
    """"Continue elsewhere" for either seat: a one-time code, as for a game against the
    computer, that gives another browser this seat's token (its link leads to this table),
    so a player without an account resumes on another device."""
    await site.form_of(request)
    live, _ = await seat_for(request, site, game_id)
    code = await new_handover(site, live.id, token_for(request, game_id) or "")
    resp = site.page(request, "handover.html", game_id=live.id, code=code,
                     minutes=HANDOVER_SECONDS // 60, title="Continue elsewhere")
    resp.headers["Cache-Control"] = "no-store"  # the code is in the page
    return resp


@router.get("/api/friends/{game_id}")
async def api_state(request: Request, game_id: str, site: SiteDep, after: str | None = None,
                    wait: str | None = None, log_from: str | None = None,
                    seated: str | None = None, news: str | None = None) -> Response:
    """The table as this seat sees it; with ``after`` and ``wait``, once the game moved past
    ``after`` (the other's play, the invitation accepted, an abort) or ``wait`` seconds.
    ``seated`` (0 or 1) is whether the client's table has the friend seated: when the game
    says otherwise that is news, answered at once (an acceptance between two polls)."""
    after_v = int_param(after, "after", -1, -1, 10**7)
    seated_q = int_param(seated, "seated", -1, 0, 1)
    wait_s = float(int_param(wait, "wait", 0, 0, 30))
    start = int_param(log_from, "log_from", 0, 0, 10**7)
    friends, conductor = friends_of(request), site.conductor
    with conductor.watch(game_id):
        changed = conductor.changed_event(game_id)  # before reading: a change wakes us
        live, seat = await seat_for(request, site, game_id)
        snap = await asyncio.to_thread(friends.snapshot, live, seat, start)
        told = seated_q not in (-1, int(snap["friend"]["seated"])) or \
            (news is not None and news[:200] != snap["friend"]["news"])
        # a game over is waited on for its news only (a rematch): a table that asks for it
        if wait_s > 0 and snap["version"] <= after_v and not told \
                and (snap["status"] == "live" or news is not None):
            seen = _where(snap)
            end = time.monotonic() + wait_s
            while (left := end - time.monotonic()) > 0:
                with contextlib.suppress(TimeoutError):
                    # the running clock's end is news too: wake for it (the read flags it)
                    await asyncio.wait_for(changed.wait(), timeout=min(left, _to_flag(snap)))
                changed = conductor.changed_event(game_id)
                if site.store.shared:  # the change may be another process's: read it
                    await asyncio.to_thread(site.games.refresh, live)
                snap = await asyncio.to_thread(friends.snapshot, live, seat, start)
                if _where(snap) != seen:
                    break
    return Reply(snap)


def _to_flag(snap: dict[str, Any]) -> float:
    """Seconds until the table has news from time alone (the running clock out, the other
    player's table gone or the game claimable: ``wake_in``), a little after; or a day."""
    wake = snap["friend"]["wake_in"]
    return 86400.0 if wake is None else float(wake) + 0.05


def _where(snap: dict[str, Any]) -> tuple[Any, ...]:
    """What a waiting table is told about: a move, a status, the friend sitting down, an
    offer made or answered, a rematch."""
    return snap["version"], snap["status"], snap["friend"]["news"]


@router.post("/api/friends/{game_id}/actions")
async def api_act(request: Request, game_id: str, site: SiteDep) -> Response:
    live, seat = await seat_for(request, site, game_id)
    data = await json_of(request)
    action = action_of(data)
    version = version_of(data)
    start = schemas.checked(schemas.Act, data).log_from
    snap = await asyncio.to_thread(friends_of(request).act, live, seat, version, action, start)
    site.metrics.actions.labels("human").inc()
    site.conductor.notify(game_id)
    return Reply(snap)


@router.post("/api/friends/{game_id}/preview")
async def api_preview(request: Request, game_id: str, site: SiteDep) -> Response:
    live, seat = await seat_for(request, site, game_id)
    data = await json_of(request)
    actions = declarations_of(data)
    schemas.checked(schemas.Preview, data)
    snap = await asyncio.to_thread(friends_of(request).preview, live, seat, version_of(data),
                                   actions)
    return Reply(snap)


@router.get("/api/friends/{game_id}/hint")
async def api_hint(request: Request, game_id: str, site: SiteDep,
                   version: str | None = None) -> Response:
    """The table's Hint button: refused, in words (the computer advises neither player)."""
    live, _ = await seat_for(request, site, game_id)
    raise BadAction("no hints in a game between two people: the computer does not advise "
                    "either player", version=live.row.version)


@router.post("/api/friends/{game_id}/resign")
async def api_resign(request: Request, game_id: str, site: SiteDep) -> Response:
    live, seat = await seat_for(request, site, game_id)
    data = await json_of(request)
    schemas.checked(schemas.FriendVersion, data)
    snap = await asyncio.to_thread(friends_of(request).resign, live, seat, version_of(data))
    site.conductor.notify(game_id)
    return Reply(snap)


@router.post("/api/friends/{game_id}/abort")
async def api_abort(request: Request, game_id: str, site: SiteDep) -> Response:
    live, seat = await seat_for(request, site, game_id)
    data = await json_of(request)
    schemas.checked(schemas.FriendVersion, data)
    snap = await asyncio.to_thread(friends_of(request).abort, live, seat, version_of(data))
    site.conductor.notify(game_id)
    return Reply(snap)


@router.post("/api/friends/{game_id}/claim")
async def api_claim(request: Request, game_id: str, site: SiteDep) -> Response:
    """Claim the game the other player left (rule 1314): a win, once their table has not
    read it for CLAIM_SECONDS."""
    live, seat = await seat_for(request, site, game_id)
    data = await json_of(request)
    schemas.checked(schemas.FriendVersion, data)
    snap = await asyncio.to_thread(friends_of(request).claim, live, seat, version_of(data))
    site.conductor.notify(game_id)
    return Reply(snap)


@router.post("/api/friends/{game_id}/offer")
async def api_offer(request: Request, game_id: str, site: SiteDep) -> Response:
    """Offer the other player a draw, or (casual play) to take back your last decision."""
    live, seat = await seat_for(request, site, game_id)
    data = await json_of(request)
    body = schemas.checked(schemas.FriendOffer, data)
    snap = await asyncio.to_thread(friends_of(request).offer, live, seat, body.version,
                                   body.offer)
    site.conductor.notify(game_id)
    return Reply(snap)


@router.post("/api/friends/{game_id}/answer")
async def api_answer(request: Request, game_id: str, site: SiteDep) -> Response:
    """Accept or decline the other player's open offer."""
    live, seat = await seat_for(request, site, game_id)
    data = await json_of(request)
    body = schemas.checked(schemas.FriendAnswer, data)
    snap = await asyncio.to_thread(friends_of(request).answer, live, seat, body.version,
                                   body.accept)
    site.conductor.notify(game_id)
    return Reply(snap)


@router.post("/api/friends/{game_id}/rematch")
async def api_rematch(request: Request, game_id: str, site: SiteDep) -> Response:
    """A rematch, seats swapped: the first to ask makes it, the other joins it (each with
    their token of this game); the new game's token comes as its cookie too."""
    live, seat = await seat_for(request, site, game_id)
    await json_of(request)
    made = await asyncio.to_thread(friends_of(request).rematch, live, seat)
    site.conductor.notify(game_id)  # the other's table shows the rematch
    site.conductor.notify(made.game_id)  # its inviter's table waits for the second seat
    resp = JSONResponse({"id": made.game_id, "url": f"/f/{made.game_id}", "seat": made.seat + 1,
                         "token": made.token})
    if made.token is not None:
        set_token(resp, made.game_id, made.token)
    return resp


# -- helpers --------------------------------------------------------------------------------------


def _watch(live: LiveGame) -> str:
    return f"/watch/{live.id}?k={watch_key(live.token_hash)}"
