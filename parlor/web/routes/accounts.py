"""Accounts on the web (issue 43): sign up, sign in and out (here or everywhere), the
profile, opening an account's game on this device, export and deletion. Forms only, with
the CSRF token every form carries (:meth:`~parlor.web.routes.site.Site.form_of`); the
accounts themselves are :mod:`parlor.web.accounts`.

The session is a random id (256 bits) in the cookie :data:`SESSION_COOKIE` (``HttpOnly``,
``SameSite=Lax``, ``Secure`` when the page is served over HTTPS), known to the database only
hashed. Every sign-in and sign-up makes a new one and ends the one the browser sent, so an
id planted in a browser beforehand never becomes a signed-in session (session fixation).

:class:`AdoptNewGames` gives a signed-in account each game this browser starts (it watches
the responses that hand a browser a game's token), so that the game follows the player and
can be rated; the game routes are not touched.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import logging
import re
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from parlor.rules.glicko import Rating
from parlor.store import GameRow
from parlor.store.accounts import Account, RatingPoint
from parlor.web.accounts import (
    COOKIE_GAMES,
    MAX_PASSWORD,
    MIN_PASSWORD,
    RATED_MODE,
    NotSignedIn,
    Players,
    SignInRefused,
    TooManyTries,
    score_of,
)
from parlor.web.games import BadAction, GameError
from parlor.web.passkeys import PURPOSES, Passkeys, relying_party
from parlor.web.rating import FRIEND_LEVEL
from parlor.web.routes.site import (
    COOKIE_PREFIX,
    CSRF_COOKIE,
    GAME_ID,
    Site,
    SiteDep,
    set_token,
    tokens_of,
)

router = APIRouter()
log = logging.getLogger("parlor.web")

SESSION_COOKIE = "parlor_session"
SESSION_DAYS = 30
PAGE_SIZE = 20
#: A game handed to a signed-in browser this soon after it was made was started signed in
#: (a new game, a rematch); one handed over later (a "continue elsewhere" code) was not.
STARTED_WITHIN = 60.0
RESULTS = ("won", "lost", "drawn", "live")


def players_of(request: Request) -> Players:
    players: Players = request.app.state.players
    return players


def session_id(request: Request) -> str | None:
    sid = request.cookies.get(SESSION_COOKIE)
    return sid if sid and len(sid) <= 100 else None


async def signed_in(request: Request) -> Account | None:
    """The account this browser's session signs in, else None."""
    sid = session_id(request)
    if sid is None:
        return None
    return await asyncio.to_thread(players_of(request).accounts.session, sid)


async def account_of(request: Request) -> Account:
    account = await signed_in(request)
    if account is None:
        raise NotSignedIn("sign in first")
    return account


def set_session(request: Request, response: Response, sid: str) -> None:
    response.set_cookie(SESSION_COOKIE, sid, max_age=SESSION_DAYS * 24 * 3600, path="/",
                        httponly=True, samesite="lax", secure=request.url.scheme == "https")


def clear_session(request: Request, response: Response) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax",
                           secure=request.url.scheme == "https")


async def start_session(request: Request, account: Account, to: str,
                        resp: Response | None = None) -> Response:
    """Sign ``account`` in on this browser: a new session id (the one sent, if any, ends),
    this browser's games adopted, and the account's most recent games' tokens handed over;
    the reply is ``resp``, else a redirect to ``to``."""
    players = players_of(request)
    old = session_id(request)
    if old is not None:
        await asyncio.to_thread(players.accounts.end_session, old)
    sid = await asyncio.to_thread(players.accounts.new_session, account.id)
    await asyncio.to_thread(players.adopt, account, tokens_of(request), rated=False)
    tokens = await asyncio.to_thread(players.cookies, account)
    resp = resp or RedirectResponse(to, status_code=303)
    set_session(request, resp, sid)
    held = tokens_of(request)
    for game_id, token in tokens.items():
        if held.get(game_id) != token:
            set_token(resp, game_id, token)
    return resp


# -- signing up, in and out --------------------------------------------------------------------


def account_page(request: Request, site: Site, status: int = 200, **context: Any) -> Response:
    context.setdefault("error", "")
    context.setdefault("username", "")
    return site.page(request, "account.html", status=status, title="Parlor Magic — account",
                     min_password=MIN_PASSWORD, max_password=MAX_PASSWORD, **context)


@router.get("/account", response_class=HTMLResponse)
async def account_home(request: Request, site: SiteDep) -> Response:
    if await signed_in(request) is not None:
        return RedirectResponse("/profile", status_code=303)
    return account_page(request, site, games=len(tokens_of(request)))


@router.post("/account/signup")
async def sign_up(request: Request, site: SiteDep) -> Response:
    form = await site.form_of(request)
    username, password = form.get("username", ""), form.get("password", "")
    players = players_of(request)
    try:
        account = await asyncio.to_thread(players.sign_up, username, password,
                                          address_of(request))
    except GameError as exc:
        resp = account_page(request, site, status=exc.status, error=exc.message,
                            username=username[:32], form="signup")
        if isinstance(exc, TooManyTries):
            resp.headers["Retry-After"] = str(exc.extra["retry_after"])
        return resp
    return await start_session(request, account, "/profile")


def address_of(request: Request) -> str:
    return request.client.host if request.client else ""


@router.post("/account/signin")
async def sign_in(request: Request, site: SiteDep) -> Response:
    form = await site.form_of(request)
    username, password = form.get("username", ""), form.get("password", "")
    address = address_of(request)
    try:
        account = await asyncio.to_thread(players_of(request).sign_in, username, password,
                                          address)
    except (SignInRefused, TooManyTries) as exc:
        # the name is not echoed: the page is the same for any unknown name or wrong password
        resp = account_page(request, site, status=exc.status, error=exc.message,
                            form="signin")
        if isinstance(exc, TooManyTries):
            resp.headers["Retry-After"] = str(exc.extra["retry_after"])
        return resp
    return await start_session(request, account, "/profile")


@router.post("/account/signout")
async def sign_out(request: Request, site: SiteDep) -> Response:
    form = await site.form_of(request)
    sid = session_id(request)
    players = players_of(request)
    if form.get("everywhere") == "1":
        account = await account_of(request)
        await asyncio.to_thread(players.accounts.end_all, account.id)
    elif sid is not None:
        await asyncio.to_thread(players.accounts.end_session, sid)
    resp = RedirectResponse("/account", status_code=303)
    clear_session(request, resp)
    return resp


# -- passkeys ----------------------------------------------------------------------------------


def _relying_party(request: Request, site: Site) -> tuple[str, str]:
    return relying_party(site.config.public_origin, request.url.scheme, request.url.netloc)


@router.post("/account/passkey/options")
async def passkey_options(request: Request, site: SiteDep) -> Response:
    """The options for the browser's passkey call: ``purpose`` signup (with ``username``),
    add (signed in) or signin."""
    form = await site.form_of(request)
    purpose = form.get("purpose", "")
    if purpose not in PURPOSES:
        raise BadAction(f"purpose is one of {', '.join(PURPOSES)}")
    rp_id, _origin = _relying_party(request, site)
    passkeys = Passkeys(players_of(request))
    if purpose == "signin":
        data = await asyncio.to_thread(passkeys.authentication, rp_id)
    else:
        account = await account_of(request) if purpose == "add" else None
        data = await asyncio.to_thread(passkeys.registration, rp_id, account,
                                       form.get("username", ""), address_of(request))
    return JSONResponse(data)


@router.post("/account/passkey/verify")
async def passkey_verify(request: Request, site: SiteDep) -> Response:
    """The browser's answer to the ceremony ``ceremony``: the new credential (a sign-up, or
    a passkey added) or the signature (a sign-in). Signs in, except when adding."""
    form = await site.form_of(request)
    rp_id, origin = _relying_party(request, site)
    passkeys = Passkeys(players_of(request))
    cid, credential = form.get("ceremony", ""), form.get("credential", "")
    if form.get("purpose") == "signin":
        account = await asyncio.to_thread(passkeys.authenticate, rp_id, origin, cid,
                                          credential)
    else:
        account = await asyncio.to_thread(passkeys.register, rp_id, origin, cid, credential)
        if form.get("purpose") == "add":
            return JSONResponse({"to": "/profile"})
    return await start_session(request, account, "/profile", JSONResponse({"to": "/profile"}))


# -- the profile -------------------------------------------------------------------------------


def _date(value: str | None) -> float | None:
    if not value:
        return None
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        raise BadAction("a date is written YYYY-MM-DD")
    try:
        day = datetime.date.fromisoformat(value)
    except ValueError:
        raise BadAction(f"there is no date {value!r}") from None
    return datetime.datetime.combine(day, datetime.time(), datetime.UTC).timestamp()


def outcome(row: GameRow) -> str:
    """won, lost, drawn (a finished game), live (in play) or other (failed, a replay)."""
    if row.kind == "play" and row.status == "live":
        return "live"
    score = score_of(row.result, row.human) if row.status == "over" else None
    return {1.0: "won", 0.0: "lost", 0.5: "drawn"}.get(score, "other") \
        if score is not None else "other"


def game_entry(row: GameRow) -> dict[str, Any]:
    """A game of the history: what the profile shows of it. A live game shows no result,
    no deal and no record (its deal and hands are hidden until it is over)."""
    over = row.status == "over" or row.kind == "replay"
    return {"id": row.id, "title": row.title, "level": row.level, "turn": row.turn,
            "outcome": outcome(row), "result": row.result if over else "",
            "when": datetime.datetime.fromtimestamp(row.created, datetime.UTC)
            .strftime("%Y-%m-%d"), "over": over, "live": row.status == "live",
            "kind": row.kind}


def filtered(rows: list[GameRow], level: str, result: str, since: float | None,
             until: float | None) -> list[GameRow]:
    return [r for r in rows
            if (not level or r.level == level) and (not result or outcome(r) == result)
            and (since is None or r.created >= since)
            and (until is None or r.created < until + 24 * 3600)]


def rating_json(rating: tuple[Rating, int] | None) -> dict[str, Any] | None:
    if rating is None:
        return None
    r, n = rating
    return {"rating": round(r.rating), "rd": round(r.rd), "volatility": round(r.volatility, 5),
            "games": n}


def opponent_words(point: RatingPoint) -> str:
    """Who a rated game was against: a computer level, or a friend game's account by name
    (issue 45)."""
    if point.level != FRIEND_LEVEL:
        return point.level
    if point.opponent_name is None:
        return "a deleted account"
    return point.opponent_name


def rated_entry(point: RatingPoint) -> dict[str, Any]:
    """A rated game as the profile's list shows it."""
    return {"n": point.n, "id": point.game_id, "opponent": opponent_words(point),
            "friend": point.level == FRIEND_LEVEL,
            "outcome": {1.0: "won", 0.5: "drawn", 0.0: "lost"}.get(point.score, "?"),
            "rating": round(point.rating.rating),
            "when": datetime.datetime.fromtimestamp(point.at, datetime.UTC)
            .strftime("%Y-%m-%d")}


def profile_data(players: Players, account: Account) -> dict[str, Any]:
    """Everything the profile shows but its history (read in a thread)."""
    history = players.accounts.history(account.id, RATED_MODE)
    levels = players.ratings.all()
    return {
        "rating": rating_json(players.accounts.rating(account.id, RATED_MODE)),
        "points": [{"n": p.n, "at": p.at, "rating": round(p.rating.rating, 1),
                    "rd": round(p.rating.rd, 1), "level": opponent_words(p), "score": p.score}
                   for p in history],
        "rated": [rated_entry(p) for p in reversed(history)],
        "records": players.records(account),
        "calibrated": {name: round(x.rating) for name, x in levels.items()},
        "rows": players.rows(account),
        "sessions": players.accounts.session_count(account.id),
        "prefs": players.accounts.prefs(account.id),
        "passkeys": len(players.accounts.passkey_ids(account.id)),
    }


@router.get("/profile", response_class=HTMLResponse)
async def profile(request: Request, site: SiteDep, level: str = "", result: str = "",
                  since: str = "", until: str = "", page: str = "1") -> Response:
    account = await signed_in(request)
    if account is None:
        return RedirectResponse("/account", status_code=303)
    if level and level not in site.accepted:
        raise BadAction(f"unknown level {level[:40]!r}")
    if result and result not in RESULTS:
        raise BadAction(f"a result is one of {', '.join(RESULTS)}")
    n = int(page) if page.isdigit() and 0 < len(page) < 7 else 0
    if n < 1:
        raise BadAction("page is a whole number from 1")
    players = players_of(request)
    data = await asyncio.to_thread(profile_data, players, account)
    rows = filtered(data["rows"], level, result, _date(since), _date(until))
    pages = max(1, -(-len(rows) // PAGE_SIZE))
    shown = [game_entry(r) for r in rows[(n - 1) * PAGE_SIZE:n * PAGE_SIZE]]
    lessons = _lessons_done(data["prefs"])
    query = {"level": level, "result": result, "since": since, "until": until}
    return site.page(request, "profile.html", title=f"{account.username} — Parlor Magic",
                     account=account, rating=data["rating"], records=data["records"],
                     graph={"points": data["points"]}, calibrated=data["calibrated"],
                     rated=data["rated"],
                     games=shown, total=len(rows), page=n, pages=pages, query=query,
                     levels=site.levels, results=RESULTS, sessions=data["sessions"],
                     lessons=[x for x in site.lessons.index() if x["id"] in lessons],
                     lesson_count=len(site.lessons.index()), prefs=data["prefs"],
                     browser_games=len(tokens_of(request)), cookie_games=COOKIE_GAMES,
                     passkeys=data["passkeys"])


def _lessons_done(prefs: str) -> set[str]:
    try:
        learn = json.loads(prefs).get("pm-learn", {})
        return {k for k, v in learn.items() if isinstance(v, dict) and v.get("done")}
    except (ValueError, AttributeError):
        return set()


@router.post("/account/prefs")
async def save_prefs(request: Request, site: SiteDep) -> Response:
    """The browser's lesson progress and settings (localStorage), merged into the account's
    by the profile's script; answers the merged whole, which the script writes back."""
    form = await site.form_of(request)
    account = await account_of(request)
    try:
        sent = json.loads(form.get("prefs", "{}"))
    except ValueError:
        raise BadAction("prefs must be JSON") from None
    if not isinstance(sent, dict) or len(form.get("prefs", "")) > 64 * 1024:
        raise BadAction("prefs is a JSON object of at most 64 KB")
    players = players_of(request)
    merged = _merge(json.loads(await asyncio.to_thread(players.accounts.prefs, account.id)),
                    sent)
    await asyncio.to_thread(players.accounts.set_prefs, account.id, json.dumps(merged))
    return Response(json.dumps(merged), media_type="application/json")


def _merge(kept: Any, sent: dict[str, Any]) -> dict[str, Any]:
    """The browser's settings win; lesson progress is the union (a lesson done anywhere is
    done)."""
    out: dict[str, Any] = dict(kept) if isinstance(kept, dict) else {}
    for key, value in sent.items():
        if not (isinstance(key, str) and key.startswith("pm-")):
            continue
        if key == "pm-learn" and isinstance(value, dict) and isinstance(out.get(key), dict):
            both = dict(out[key])
            for lesson, entry in value.items():
                old = both.get(lesson)
                done = bool(isinstance(old, dict) and old.get("done"))
                both[lesson] = {**entry, "done": True} if done and isinstance(entry, dict) \
                    else entry
            out[key] = both
        else:
            out[key] = value
    return out


# -- the account's games -----------------------------------------------------------------------


@router.get("/account/games/{game_id}")
async def open_game(request: Request, game_id: str, to: str = "play") -> Response:
    """Open one of the account's games in this browser (its token set here) at its table,
    replay or analysis."""
    account = await account_of(request)
    if not GAME_ID.match(game_id) or to not in ("play", "replay", "analysis"):
        raise BadAction("no such game or view")
    token = await asyncio.to_thread(players_of(request).token_of, account, game_id)
    target = {"play": f"/g/{game_id}", "replay": f"/replay/{game_id}",
              "analysis": f"/g/{game_id}/analysis"}[to]
    resp = RedirectResponse(target, status_code=303)
    set_token(resp, game_id, token)
    return resp


@router.post("/account/adopt")
async def adopt(request: Request, site: SiteDep) -> Response:
    await site.form_of(request)
    account = await account_of(request)
    await asyncio.to_thread(players_of(request).adopt, account, tokens_of(request), rated=False)
    return RedirectResponse("/profile", status_code=303)


@router.get("/account/export")
async def export(request: Request) -> Response:
    account = await account_of(request)
    data = await asyncio.to_thread(players_of(request).export, account)
    return Response(data, media_type="application/zip", headers={
        "Content-Disposition": f'attachment; filename="parlor-{account.username}.zip"'})


@router.post("/account/delete")
async def delete(request: Request, site: SiteDep) -> Response:
    form = await site.form_of(request)
    account = await account_of(request)
    if form.get("confirm", "").strip().lower() != account.username.lower():
        raise BadAction("type your name to confirm deleting the account")
    choice = form.get("games", "")
    if choice not in ("anonymise", "delete"):
        raise BadAction("choose whether your games are anonymised or deleted")
    await asyncio.to_thread(players_of(request).delete, account, games_too=choice == "delete")
    resp = RedirectResponse("/account", status_code=303)
    clear_session(request, resp)
    if choice == "delete":
        for game_id in tokens_of(request):
            resp.delete_cookie(COOKIE_PREFIX + game_id, path="/")
    return resp


# -- games started while signed in -------------------------------------------------------------


def _tokens_set(message: Message) -> dict[str, str]:
    """The game tokens a response's ``Set-Cookie`` headers give (game id -> token)."""
    found: dict[str, str] = {}
    for name, value in message.get("headers", ()):
        if name.lower() != b"set-cookie":
            continue
        pair = value.decode("latin-1").split(";", 1)[0]
        key, _, token = pair.partition("=")
        game_id = key.strip()[len(COOKIE_PREFIX):]
        if key.startswith(COOKIE_PREFIX) and key != CSRF_COOKIE and GAME_ID.match(game_id) \
                and token:
            found[game_id] = token.strip().strip('"')
    return found


class AdoptNewGames:
    """ASGI middleware: a game handed to a signed-in browser (a new game, a rematch, an
    import, a hand-over) goes to its account once the response is sent; it may be rated
    when it was started just now (:data:`STARTED_WITHIN`) after the session began."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") != "POST":
            await self.app(scope, receive, send)
            return
        given: dict[str, str] = {}

        async def watching(message: Message) -> None:
            if message["type"] == "http.response.start":
                given.update(_tokens_set(message))
            await send(message)

        await self.app(scope, receive, watching)
        if given:
            request = Request(scope)
            try:
                await asyncio.to_thread(_adopt_new, request, given)
            except Exception:  # the reply is sent: the game stays in this browser's cookie
                log.exception("games %s could not be added to their account", sorted(given))


def _adopt_new(request: Request, given: dict[str, str]) -> None:
    sid = session_id(request)
    if sid is None:
        return
    players = players_of(request)
    account = players.accounts.session(sid)
    started = players.accounts.session_started(sid)
    if account is None or started is None:
        return
    now = time.time()
    for row in players.games.owned(given):
        fresh = row.created >= started and row.created >= now - STARTED_WITHIN
        players.accounts.hold(account.id, row.id, players.seal(row.id, given[row.id]),
                              rated=fresh, now=now)


__all__ = ["SESSION_COOKIE", "AdoptNewGames", "router"]
