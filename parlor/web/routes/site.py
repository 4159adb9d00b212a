"""What every route shares: one :class:`Site` per app, on ``app.state.site``, handed to a route
by the dependency :data:`SiteDep` (no route is a closure over :func:`parlor.web.app.create_app`).

It also holds the helpers the routes had in common: the player's token (the cookie
``pm_<game id>``, or the ``X-Parlor-Token`` header of API clients), loading a game for its
player, the CSRF token of forms, reading a form or a JSON body, and rendering a page.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import re
import secrets
import urllib.parse
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.templating import Jinja2Templates

from parlor.store import GameRow, GameStore, TournamentStore
from parlor.store.handovers import Handovers
from parlor.web import schemas
from parlor.web.analysis import Analyst
from parlor.web.computer import default_level
from parlor.web.conductor import Conductor
from parlor.web.config import WebConfig
from parlor.web.games import (
    BadAction,
    GameNotFound,
    Games,
    LiveGame,
    StaleForm,
    encode_reply,
    is_practice,
    seed_json,
    seed_of,
)
from parlor.web.guard import MAX_JSON_DEPTH, too_deep
from parlor.web.learning import Lessons
from parlor.web.metrics import Metrics
from parlor.web.puzzles import PuzzleRoom
from parlor.web.rulesdoc import GLOSSARY
from parlor.web.tournaments import Tournaments


class Reply(JSONResponse):
    """A game's JSON reply, as ``JSONResponse`` writes it, with the parts it carries already
    encoded (the table at its position: ``games.encode_reply``)."""

    def render(self, content: Any) -> bytes:
        return encode_reply(content)

COOKIE_PREFIX = "pm_"
TOKEN_HEADER = "x-parlor-token"
GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
CSRF_COOKIE = "pm_csrf"


@dataclass(eq=False)
class Site:
    """The app's shared objects, built once by :func:`parlor.web.app.create_app`."""

    config: WebConfig
    store: GameStore
    games: Games
    conductor: Conductor
    analyst: Analyst
    tournaments: Tournaments
    tournament_store: TournamentStore
    templates: Jinja2Templates
    levels: list[str]  # the levels offered
    accepted: list[str]  # the levels accepted (the offered ones and a few more)
    #: Signs CSRF tokens: PARLOR_SECRET, or else the database's own (drawn by the first server
    #: to start), so every server process on the database accepts every other's forms.
    secret: bytes
    handovers: Handovers  # in the database: any server redeems any server's code
    metrics: Metrics
    lessons: Lessons
    puzzles: PuzzleRoom  # issue 44: the puzzle set (PARLOR_PUZZLES, else the shipped one)

    # -- games and their players --------------------------------------------------------------

    async def live_game(self, game_id: str) -> LiveGame:
        """From memory at once, or replayed from the store in a thread."""
        if not GAME_ID.match(game_id):
            raise GameNotFound(f"there is no game {game_id!r}")
        # shared store: even a cached game is checked against the stored version
        live = None if self.store.shared else self.games.cached(game_id)
        return live if live is not None else await asyncio.to_thread(self.games.get, game_id)

    async def load(self, request: Request, game_id: str) -> LiveGame:
        live = await self.live_game(game_id)
        self.games.authorize(live, token_for(request, game_id))
        return live

    def new_game_args(self, data: dict[str, Any]) -> tuple[str, int | None, int]:
        level = str(data.get("level") or default_level())
        if level not in self.accepted:
            raise BadAction(f"unknown level {level!r}: choose one of {', '.join(self.levels)}")
        raw_seed = data.get("seed")
        seed: int | None = None
        if raw_seed not in (None, ""):
            text = str(raw_seed).strip()
            if isinstance(raw_seed, bool) or not re.fullmatch(r"\d{1,19}", text) \
                    or int(text) >= 2**63:
                raise BadAction("a practice seed is a whole number from 0 to "
                                f"9223372036854775807, not {text[:40]!r}")
            seed = int(text)
        raw_turns = data.get("max_turns", 200)
        try:
            if isinstance(raw_turns, bool | float):
                raise ValueError
            max_turns = int(str(raw_turns))
        except ValueError:
            raise BadAction(f"max_turns must be a whole number, not {raw_turns!r}") from None
        if not 2 <= max_turns <= 1000:
            raise BadAction("max_turns must be between 2 and 1000")
        return level, seed, max_turns

    def rematch_level(self, live: LiveGame, data: dict[str, Any]) -> str | None:
        """The level of a rematch: the one asked for, else the game's own; None when an
        imported record has no level to repeat (the caller asks which)."""
        asked = data.get("level")
        if asked in (None, ""):
            return live.row.level if live.row.level in self.accepted else None
        if not isinstance(asked, str) or asked not in self.accepted:
            raise BadAction(f"unknown level {str(asked)[:40]!r}: choose one of "
                            f"{', '.join(self.levels)}")
        return asked

    # -- pages and forms ----------------------------------------------------------------------

    def csrf_token(self, browser: str) -> str:
        return hmac.new(self.secret, b"csrf/" + browser.encode(), hashlib.sha256).hexdigest()

    def check_csrf(self, request: Request, form: dict[str, str]) -> None:
        """A form must carry the token its page was given for this browser's cookie."""
        browser = request.cookies.get(CSRF_COOKIE, "")
        sent = form.get("csrf", "")
        # as bytes: a non-ASCII value is simply wrong (compare_digest refuses such str)
        if not browser or not hmac.compare_digest(self.csrf_token(browser).encode(),
                                                  sent.encode()):
            raise StaleForm("this form is out of date or did not come from this site: "
                            "reload the page and try again")

    async def form_of(self, request: Request) -> dict[str, str]:
        """The form's fields, once its CSRF token is checked (the body size is the Guard's)."""
        body = (await request.body()).decode("utf-8", "replace")
        form = {k: v[-1] for k, v in urllib.parse.parse_qs(body, keep_blank_values=True).items()}
        self.check_csrf(request, form)
        return form

    def page(self, request: Request, name: str, status: int = 200,
             **context: Any) -> HTMLResponse:
        context.setdefault("title", "Parlor Magic")
        context["glossary"] = GLOSSARY
        browser = request.cookies.get(CSRF_COOKIE) or secrets.token_urlsafe(18)
        context["csrf"] = self.csrf_token(browser)
        resp = self.templates.TemplateResponse(request, name, context, status_code=status)
        if request.cookies.get(CSRF_COOKIE) != browser:
            resp.set_cookie(CSRF_COOKIE, browser, httponly=True, samesite="strict", path="/")
        return resp

    def error_page(self, request: Request, status: int, title: str,
                   message: str) -> HTMLResponse:
        return self.page(request, "error.html", status=status, title=title, message=message,
                         status_code=status)


async def site_of(request: Request) -> Site:
    """The dependency (async: a plain function would be run in a worker thread)."""
    site: Site = request.app.state.site
    return site


#: A route's parameter ``site: SiteDep`` is the app's :class:`Site`.
SiteDep = Annotated[Site, Depends(site_of)]


def token_for(request: Request, game_id: str, prefix: str = COOKIE_PREFIX) -> str | None:
    """The token sent for a game (or, with its ``prefix``, a tournament)."""
    return request.headers.get(TOKEN_HEADER) or request.cookies.get(prefix + game_id)


def tokens_of(request: Request, prefix: str = COOKIE_PREFIX) -> dict[str, str]:
    """Every game's (or tournament's) token this browser holds, by id."""
    found = {k[len(prefix):]: v for k, v in request.cookies.items()
             if k.startswith(prefix) and GAME_ID.match(k[len(prefix):])}
    return found


def set_token(response: Response, game_id: str, token: str,
              prefix: str = COOKIE_PREFIX) -> None:
    """Keep the token in the browser: a year, never sent to another site, never to JS."""
    response.set_cookie(prefix + game_id, token, max_age=3600 * 24 * 365,
                        httponly=True, samesite="strict", path="/")


def wants_html(request: Request) -> bool:
    return not request.url.path.startswith("/api/") and \
        "text/html" in request.headers.get("accept", "text/html")


def row_dict(r: GameRow) -> dict[str, Any]:
    return {
        "id": r.id, "kind": r.kind, "level": r.level, "turn": r.turn, "status": r.status,
        "result": r.result, "title": r.title, "created": r.created, "updated": r.updated,
        "moves": r.version, "settings": r.settings, "practice": is_practice(r),
        "seed": seed_json(seed_of(r)) if (r.status == "over" or r.kind == "replay")
        else None,
        "url": f"/replay/{r.id}" if r.kind == "replay" else f"/g/{r.id}",
    }


def match_of(data: dict[str, Any]) -> bool:
    """Casual (the default) or match play (R30, 1306)."""
    mode = str(data.get("mode") or "casual")
    if mode not in ("casual", "match"):
        raise BadAction(f"unknown mode {mode!r}: choose casual or match")
    return mode == "match"


async def json_of(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if too_deep(raw, MAX_JSON_DEPTH):  # before decoding: json.loads recurses per level
        raise BadAction(f"the request body nests deeper than {MAX_JSON_DEPTH} levels: "
                        "no request of this API needs more than a few")
    try:
        data = json.loads(raw or b"{}", parse_float=schemas.json_number)
    except (ValueError, UnicodeDecodeError):
        raise BadAction("the request body is not valid JSON") from None
    if not isinstance(data, dict):
        raise BadAction("the request body must be a JSON object")
    return data


int_param = schemas.strict_int
