"""The HTTP layer: pages, the JSON API and static files (FastAPI).

Pages are rendered on the server (Jinja2); the table itself is drawn in the browser by a few
JS modules from the JSON snapshot, which holds only the human's view, legal actions and log.
Every game has a secret player token, kept in the cookie ``pm_<game id>`` (or sent as the
``X-Parlor-Token`` header by API clients); it never travels in an address ("Continue
elsewhere" makes a one-time code instead). Writes are same-origin only, forms carry a CSRF
token, and request bodies are limited while they are read (:mod:`parlor.web.guard`). See
:mod:`parlor.web.games` for the rules of acting, and README.md for the endpoints.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import re
import secrets
import time
import urllib.parse
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware

from parlor import __version__
from parlor.rules.state import Settings
from parlor.store import GameRow, GameStore, TournamentStore
from parlor.store.handovers import Handovers
from parlor.store.keys import shared_secret
from parlor.web import schemas
from parlor.web.analysis import Analyst
from parlor.web.analysis import install as install_analysis
from parlor.web.computer import accepted_levels, available_levels, default_level
from parlor.web.conductor import Conductor
from parlor.web.config import WebConfig
from parlor.web.games import (
    BadAction,
    GameError,
    GameNotFound,
    Games,
    LiveGame,
    NotYourGame,
    StaleForm,
    Unavailable,
    encode_reply,
    is_practice,
    seed_json,
    seed_of,
    watch_key,
)
from parlor.web.guard import MAX_JSON_DEPTH, Guard, too_deep
from parlor.web.learning import install as install_learning
from parlor.web.metrics import Metrics, Timing
from parlor.web.rulesdoc import GLOSSARY, rules_doc, ruling_index_html
from parlor.web.tournaments import Tournaments
from parlor.web.tournaments import router as tournament_router

HERE = Path(__file__).resolve().parent
COOKIE_PREFIX = "pm_"
TOKEN_HEADER = "x-parlor-token"
_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
MAX_TURNS_CHOICES = (200, 60, 20, 8)
CSRF_COOKIE = "pm_csrf"
#: A "Continue elsewhere" code works once, within this many seconds.
HANDOVER_SECONDS = 600
log = logging.getLogger("parlor.web")


class Reply(JSONResponse):
    """A game's JSON reply, as ``JSONResponse`` writes it, with the parts it carries already
    encoded (the table at its position: ``games.encode_reply``)."""

    def render(self, content: Any) -> bytes:
        return encode_reply(content)


def _json_script(data: Any) -> str:
    """JSON safe to embed in a <script> element."""
    return (json.dumps(data, separators=(",", ":"))
            .replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def create_app(config: WebConfig | None = None) -> FastAPI:
    config = config or WebConfig.from_env()
    store = GameStore(config.database_url)
    publisher = None
    if config.redis_url:  # wake-ups on Redis instead of NOTIFY (redis: the postgres extra)
        from parlor.web.wakeups import attach

        publisher = attach(store, config.redis_url)
    games = Games(store, config.max_cached)
    conductor: Conductor
    if config.uses_queue:  # PostgreSQL: the computer on `parlor worker`s (docs/deploy.md)
        from parlor.web.queued import QueueConductor

        conductor = queued = QueueConductor(games, config)
        analyst = Analyst(games, config, queued.defer_analysis)  # analyses: jobs too
    else:
        conductor = Conductor(games, config)
        analyst = Analyst(games, config)  # this server's own low-priority pool
    tournament_store = TournamentStore(store)
    tournaments = Tournaments(games, tournament_store, conductor, config)
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    templates.env.filters["tojson_script"] = _json_script
    levels = available_levels()
    accepted = accepted_levels()
    # Signs CSRF tokens: PARLOR_SECRET, or else the database's own (drawn by the first server
    # to start), so every server process on the database accepts every other's forms.
    secret = (config.secret or shared_secret(store, "csrf")).encode()
    handovers = Handovers(store)  # in the database: any server redeems any server's code

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await conductor.start()
        await tournaments.start()
        await analyst.start()
        try:
            yield
        finally:
            await analyst.stop()
            await tournaments.stop()
            await conductor.stop()
            store.close()
            if publisher is not None:
                publisher.close()

    app = FastAPI(title="Parlor Magic", version=__version__, lifespan=lifespan,
                  docs_url="/api/docs", redoc_url=None, openapi_url="/api/openapi.json")
    app.state.games = games
    app.state.conductor = conductor
    app.state.tournaments = tournaments
    app.state.config = config
    metrics = Metrics(games.cached_count, conductor.waiting)
    app.state.metrics = metrics
    app.add_middleware(GZipMiddleware, minimum_size=1000)
    app.add_middleware(Timing, metrics=metrics)
    app.add_middleware(Guard, max_body=config.max_body, methods_of=schemas.methods_of,
                       trusted_proxies=config.trusted_proxies,
                       public_origin=config.public_origin)
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    # -- helpers -------------------------------------------------------------------------------

    def token_for(request: Request, game_id: str) -> str | None:
        return request.headers.get(TOKEN_HEADER) or request.cookies.get(COOKIE_PREFIX + game_id)

    def tokens_of(request: Request) -> dict[str, str]:
        found = {k[len(COOKIE_PREFIX):]: v for k, v in request.cookies.items()
                 if k.startswith(COOKIE_PREFIX) and _ID.match(k[len(COOKIE_PREFIX):])}
        return found

    def set_token(response: Response, game_id: str, token: str) -> None:
        response.set_cookie(COOKIE_PREFIX + game_id, token, max_age=3600 * 24 * 365,
                            httponly=True, samesite="strict", path="/")

    async def live_game(game_id: str) -> LiveGame:
        """From memory at once, or replayed from the store in a thread."""
        if not _ID.match(game_id):
            raise GameNotFound(f"there is no game {game_id!r}")
        # shared store: even a cached game is checked against the stored version
        live = None if store.shared else games.cached(game_id)
        return live if live is not None else await asyncio.to_thread(games.get, game_id)

    async def load(request: Request, game_id: str) -> LiveGame:
        live = await live_game(game_id)
        games.authorize(live, token_for(request, game_id))
        return live

    def wants_html(request: Request) -> bool:
        return not request.url.path.startswith("/api/") and \
            "text/html" in request.headers.get("accept", "text/html")

    def csrf_token(browser: str) -> str:
        return hmac.new(secret, b"csrf/" + browser.encode(), hashlib.sha256).hexdigest()

    def check_csrf(request: Request, form: dict[str, str]) -> None:
        """A form must carry the token its page was given for this browser's cookie."""
        browser = request.cookies.get(CSRF_COOKIE, "")
        sent = form.get("csrf", "")
        # as bytes: a non-ASCII value is simply wrong (compare_digest refuses such str)
        if not browser or not hmac.compare_digest(csrf_token(browser).encode(),
                                                  sent.encode()):
            raise StaleForm("this form is out of date or did not come from this site: "
                            "reload the page and try again")

    def page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        context.setdefault("title", "Parlor Magic")
        context["glossary"] = GLOSSARY
        browser = request.cookies.get(CSRF_COOKIE) or secrets.token_urlsafe(18)
        context["csrf"] = csrf_token(browser)
        resp = templates.TemplateResponse(request, name, context, status_code=status)
        if request.cookies.get(CSRF_COOKIE) != browser:
            resp.set_cookie(CSRF_COOKIE, browser, httponly=True, samesite="strict", path="/")
        return resp

    def error_page(request: Request, status: int, title: str, message: str) -> HTMLResponse:
        return page(request, "error.html", status=status, title=title, message=message,
                    status_code=status)

    def row_dict(r: GameRow) -> dict[str, Any]:
        return {
            "id": r.id, "kind": r.kind, "level": r.level, "turn": r.turn, "status": r.status,
            "result": r.result, "title": r.title, "created": r.created, "updated": r.updated,
            "moves": r.version, "settings": r.settings, "practice": is_practice(r),
            "seed": seed_json(seed_of(r)) if (r.status == "over" or r.kind == "replay")
            else None,
            "url": f"/replay/{r.id}" if r.kind == "replay" else f"/g/{r.id}",
        }

    def new_game_args(data: dict[str, Any]) -> tuple[str, int | None, int]:
        level = str(data.get("level") or default_level())
        if level not in accepted:
            raise BadAction(f"unknown level {level!r}: choose one of {', '.join(levels)}")
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

    def match_of(data: dict[str, Any]) -> bool:
        """Casual (the default) or match play (R30, 1306)."""
        mode = str(data.get("mode") or "casual")
        if mode not in ("casual", "match"):
            raise BadAction(f"unknown mode {mode!r}: choose casual or match")
        return mode == "match"

    async def form_of(request: Request) -> dict[str, str]:
        """The form's fields, once its CSRF token is checked (the body size is the Guard's)."""
        body = (await request.body()).decode("utf-8", "replace")
        form = {k: v[-1] for k, v in urllib.parse.parse_qs(body, keep_blank_values=True).items()}
        check_csrf(request, form)
        return form

    def rematch_level(live: LiveGame, data: dict[str, Any]) -> str | None:
        """The level of a rematch: the one asked for, else the game's own; None when an
        imported record has no level to repeat (the caller asks which)."""
        asked = data.get("level")
        if asked in (None, ""):
            return live.row.level if live.row.level in accepted else None
        if not isinstance(asked, str) or asked not in accepted:
            raise BadAction(f"unknown level {str(asked)[:40]!r}: choose one of "
                            f"{', '.join(levels)}")
        return asked

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

    # -- errors --------------------------------------------------------------------------------

    @app.exception_handler(GameError)
    async def game_error(request: Request, exc: GameError) -> Response:
        if wants_html(request):
            titles = {404: "No such game", 403: "Not your game", 500: "This game is broken",
                      503: "Try again in a moment"}
            title = "Reload the page" if isinstance(exc, StaleForm) \
                else titles.get(exc.status, "Refused")
            return error_page(request, exc.status, title, exc.message)
        headers = {"Retry-After": str(exc.extra["retry_after"])} \
            if "retry_after" in exc.extra else None
        return JSONResponse({"error": exc.code, "message": exc.message, **exc.extra},
                            status_code=exc.status, headers=headers)

    @app.exception_handler(SQLAlchemyError)
    async def store_error(request: Request, exc: SQLAlchemyError) -> Response:
        log.error("the store failed: %s", exc)
        return await game_error(request, Unavailable(
            "the game store cannot be read right now; nothing was changed. Try again soon."))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> Response:
        parts = [f"{'.'.join(str(x) for x in e.get('loc', ()))}: {e.get('msg', '')}"
                 for e in exc.errors()]
        return JSONResponse({"error": "bad_request", "message": "; ".join(parts)},
                            status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if wants_html(request):
            title = "Page not found" if exc.status_code == 404 else "Error"
            msg = "There is nothing at this address." if exc.status_code == 404 \
                else str(exc.detail)
            resp = error_page(request, exc.status_code, title, msg)
            resp.headers.update(exc.headers or {})  # a 405's Allow
            return resp
        return JSONResponse({"error": "http_error", "message": str(exc.detail)},
                            status_code=exc.status_code, headers=exc.headers)

    # -- pages -----------------------------------------------------------------------------------

    @app.get("/", response_class=HTMLResponse)
    async def home(request: Request) -> Response:
        rows = await asyncio.to_thread(games.owned, tokens_of(request))
        return page(request, "home.html", levels=levels, default_level=default_level(),
                    games=[row_dict(r) for r in rows],
                    turn_choices=MAX_TURNS_CHOICES)

    @app.post("/games")
    async def new_game_form(request: Request) -> Response:
        data = await form_of(request)
        level, seed, max_turns = new_game_args(data)
        live, token = await asyncio.to_thread(games.create, level, seed, max_turns, 0,
                                              match_of(data))
        conductor.kick(live.id)
        resp = RedirectResponse(f"/g/{live.id}", status_code=303)
        set_token(resp, live.id, token)
        return resp

    @app.get("/g/{game_id}", response_class=HTMLResponse)
    async def game_page(request: Request, game_id: str) -> Response:
        live = await load(request, game_id)
        if not live.is_play:
            return RedirectResponse(f"/replay/{game_id}", status_code=303)
        snap = games.snapshot(live, 0)
        if snap["thinking"]:
            conductor.kick(game_id)
        tid = await asyncio.to_thread(tournament_store.tournament_of, game_id)
        return page(request, "game.html", snapshot=snap, levels=levels,
                    tournament_url=None if tid is None else f"/t/{tid}",
                    single_draw=Settings.parse(live.row.settings).single_draw,
                    title=f"Parlor Magic — {live.row.title}",
                    watch_url=f"/watch/{game_id}?k={watch_key(live.token_hash)}")

    async def watched(game_id: str, k: str | None) -> LiveGame:
        """The game whose spectator key this is (a wrong key is refused like a wrong token)."""
        live = await live_game(game_id)
        if not k or not hmac.compare_digest(k.encode(), watch_key(live.token_hash).encode()) \
                or not live.is_play:
            raise NotYourGame("this spectator link is not valid for this game")
        return live

    @app.get("/watch/{game_id}", response_class=HTMLResponse)
    async def watch_page(request: Request, game_id: str, k: str | None = None) -> Response:
        live = await watched(game_id, k)
        return page(request, "spectate.html", snapshot=games.spectator_snapshot(live), key=k,
                    title=f"Watching — {live.row.title}")

    @app.get("/api/watch/{game_id}")
    async def api_watch(game_id: str, k: str | None = None, after: str | None = None,
                        wait: str | None = None, log_from: str | None = None) -> Response:
        after_v = int_param(after, "after", -1, -1, 10**7)
        wait_s = float(int_param(wait, "wait", 0, 0, 30))
        start = int_param(log_from, "log_from", 0, 0, 10**7)
        live = await watched(game_id, k)
        with conductor.watch(game_id):
            changed = conductor.changed_event(game_id)
            snap = games.spectator_snapshot(live, start)
            if wait_s > 0 and snap["version"] <= after_v and snap["status"] == "live":
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(changed.wait(), timeout=wait_s)
                snap = games.spectator_snapshot(live, start)
        return Reply(snap)

    async def new_handover(game_id: str, token: str) -> str:
        with games.durable():
            return await asyncio.to_thread(handovers.make, game_id, token,
                                           seconds=HANDOVER_SECONDS)

    @app.post("/g/{game_id}/handover", response_class=HTMLResponse)
    async def handover_form(request: Request, game_id: str) -> Response:
        """"Continue elsewhere": a one-time code, good for ten minutes, instead of the
        player's token in a link (which would stay in history and proxy logs)."""
        await form_of(request)
        live = await load(request, game_id)
        token = token_for(request, game_id) or ""
        code = await new_handover(live.id, token)
        resp = page(request, "handover.html", game_id=live.id, code=code,
                    minutes=HANDOVER_SECONDS // 60, title="Continue elsewhere")
        resp.headers["Cache-Control"] = "no-store"  # the code is in the page
        return resp

    @app.post("/api/games/{game_id}/handover", status_code=201)
    async def api_handover(request: Request, game_id: str) -> Response:
        await json_of(request)
        live = await load(request, game_id)
        code = await new_handover(live.id, token_for(request, game_id) or "")
        return JSONResponse({"url": f"/h/{code}", "seconds": HANDOVER_SECONDS},
                            status_code=201)

    @app.get("/h/{code}")
    async def take_handover(request: Request, code: str) -> Response:
        found = await asyncio.to_thread(handovers.take, code) if len(code) <= 64 else None
        if found is None:
            raise NotYourGame("this link to continue a game was used already or is more than "
                              f"{HANDOVER_SECONDS // 60} minutes old: make a new one in the "
                              "other browser")
        game_id, token = found
        resp = RedirectResponse(f"/g/{game_id}", status_code=303)
        resp.headers["Cache-Control"] = "no-store"
        set_token(resp, game_id, token)
        return resp

    @app.post("/g/{game_id}/rematch")
    async def rematch_form(request: Request, game_id: str) -> Response:
        form = await form_of(request)
        live = await load(request, game_id)
        level = rematch_level(live, form)
        if level is None:
            return page(request, "rematch.html", game_id=live.id, levels=levels,
                        default_level=default_level(), title="Rematch: choose a level")
        new, token = await asyncio.to_thread(games.rematch, live, level)
        conductor.kick(new.id)
        resp = RedirectResponse(f"/g/{new.id}", status_code=303)
        set_token(resp, new.id, token)
        return resp

    @app.get("/g/{game_id}/record.txt")
    async def record_file(request: Request, game_id: str) -> Response:
        live = await load(request, game_id)
        text = games.record_text(live)
        return PlainTextResponse(text, headers={
            "Content-Disposition": f'attachment; filename="parlor-{game_id}.txt"'})

    @app.get("/replay/{game_id}", response_class=HTMLResponse)
    async def replay_page(request: Request, game_id: str, step: str | None = None) -> Response:
        live = await load(request, game_id)
        n = int_param(step, "step", 0, 0, 10**6)
        snap = await asyncio.to_thread(games.replay_snapshot, live, n, live.human)
        return page(request, "replay.html", snapshot=snap, title=f"Replay — {live.row.title}")

    @app.post("/import")
    async def import_form(request: Request) -> Response:
        data = await form_of(request)
        live, token = await asyncio.to_thread(games.import_record, data.get("record", ""))
        resp = RedirectResponse(f"/replay/{live.id}", status_code=303)
        set_token(resp, live.id, token)
        return resp

    @app.get("/rules", response_class=HTMLResponse)
    async def rules_page(request: Request) -> Response:
        doc = rules_doc("rules.md")
        return page(request, "rules.html", doc=doc, rulings=ruling_index_html(doc),
                    title="Parlor Magic — rules")

    @app.get("/notation", response_class=HTMLResponse)
    async def notation_page(request: Request) -> Response:
        doc = rules_doc("notation.md")
        return page(request, "rules.html", doc=doc, rulings="", title="Parlor Magic — notation")

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        """A real query on the store (503 when it cannot answer or its file is gone)."""
        count = await asyncio.to_thread(games.health)
        return {"ok": True, "version": __version__, "games": count}

    @app.get("/metrics", include_in_schema=False)
    async def metrics_page() -> Response:
        """Prometheus's text (parlor.web.metrics): counts and times, no game id, no card."""
        body = await asyncio.to_thread(metrics.exposition)
        return Response(body, media_type="text/plain; version=0.0.4; charset=utf-8")

    @app.get("/readyz")
    async def readyz() -> Response:
        """Ready for traffic: the database answers, and (PostgreSQL) the work queue's
        tables answer and this server listens for other processes' changes."""
        checks: dict[str, str] = {}
        try:
            await asyncio.wait_for(asyncio.to_thread(store.ping), timeout=5)
            checks["database"] = "ok"
        except Exception as exc:
            checks["database"] = f"failed: {type(exc).__name__}"
        checks.update(await conductor.readiness())
        ok = all(v == "ok" for v in checks.values())
        return JSONResponse({"ok": ok, "version": __version__, "checks": checks},
                            status_code=200 if ok else 503)

    lessons = install_learning(app, page, json_of)  # /learn, /learn/{lesson}, /api/lessons
    install_analysis(app, analyst, page, load, json_of)  # /g/{id}/analysis and its API

    # -- API -----------------------------------------------------------------------------------

    @app.get("/api/levels")
    async def api_levels() -> dict[str, Any]:
        return {"levels": levels, "accepted": accepted, "default": default_level()}

    @app.post("/api/games", status_code=201)
    async def api_new_game(request: Request) -> Response:
        data = await json_of(request)
        level, seed, max_turns = new_game_args(data)
        match = match_of(data)
        schemas.checked(schemas.NewGame, data)
        live, token = await asyncio.to_thread(games.create, level, seed, max_turns, 0, match)
        conductor.kick(live.id)
        snap = games.snapshot(live, 0)
        resp = JSONResponse({"id": live.id, "token": token, "url": f"/g/{live.id}",
                             "snapshot": snap}, status_code=201)
        set_token(resp, live.id, token)
        return resp

    @app.get("/api/games")
    async def api_games(request: Request) -> dict[str, Any]:
        rows = await asyncio.to_thread(games.owned, tokens_of(request))
        return {"games": [row_dict(r) for r in rows]}

    @app.get("/api/games/{game_id}")
    async def api_state(request: Request, game_id: str, after: str | None = None,
                        wait: str | None = None, log_from: str | None = None) -> Response:
        after_v = int_param(after, "after", -1, -1, 10**7)
        wait_s = float(int_param(wait, "wait", 0, 0, 30))
        start = int_param(log_from, "log_from", 0, 0, 10**7)
        if not _ID.match(game_id):
            raise GameNotFound(f"there is no game {game_id!r}")
        with conductor.watch(game_id):  # nothing stays behind once this request is answered
            changed = conductor.changed_event(game_id)  # before reading: a change wakes us
            live = await load(request, game_id)
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
                    if store.shared:  # the change may be another process's: read it
                        await asyncio.to_thread(games.refresh, live)
                    if (live.row.version, live.row.takebacks, live.row.status) != seen:
                        break
                snap = games.snapshot(live, start)
        snap["thinking_now"] = snap["thinking"] and await conductor.thinking_now(game_id)
        return Reply(snap)

    @app.post("/api/games/{game_id}/actions")
    async def api_act(request: Request, game_id: str) -> Response:
        live = await load(request, game_id)
        data = await json_of(request)
        action, version = data.get("action"), data.get("version")
        if "actions" in data and action is None:  # a declaration, sent whole (Games.act)
            action = data["actions"]
            if not isinstance(action, list) or not all(isinstance(a, str) for a in action):
                raise BadAction("'actions' must be a list of actions in the game's notation")
        elif not isinstance(action, str):
            raise BadAction("send {\"action\": \"...\", \"version\": N}: 'action' is missing")
        version = version_of(data)
        line = takebacks_of(data)
        start = schemas.checked(schemas.Act, data).log_from
        if store.shared:  # a round trip to the database: off the event loop
            snap = await asyncio.to_thread(games.act, live, version, action, start, line)
        else:
            snap = games.act(live, version, action, start, line)
        metrics.actions.labels("human").inc()
        conductor.notify(game_id)
        if snap["thinking"]:
            conductor.kick(game_id)
        return Reply(snap)

    @app.post("/api/games/{game_id}/preview")
    async def api_preview(request: Request, game_id: str) -> Response:
        """The table after declarations not yet sent (Games.preview): nothing is stored."""
        live = await load(request, game_id)
        data = await json_of(request)
        actions = data.get("actions")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise BadAction("send {\"actions\": [...], \"version\": N}: the declarations "
                            "so far, in the game's notation")
        schemas.checked(schemas.Preview, data)
        return JSONResponse(games.preview(live, version_of(data), actions))

    @app.post("/api/games/{game_id}/takeback")
    async def api_takeback(request: Request, game_id: str) -> Response:
        live = await load(request, game_id)
        data = await json_of(request)
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise BadAction("send {\"version\": N}: the move number the table showed")
        line = takebacks_of(data)
        start = schemas.checked(schemas.Takeback, data).log_from
        snap = await asyncio.to_thread(games.takeback, live, version, start, line)
        conductor.notify(game_id)
        return Reply(snap)

    @app.get("/api/games/{game_id}/hint")
    async def api_hint(request: Request, game_id: str, version: str | None = None) -> Response:
        live = await load(request, game_id)
        v = None if version is None else int_param(version, "version", 0, 0, 10**7)
        # the quota is the player's, i.e. the game's: behind a balancer every player would
        # share the balancer's address (issue 38)
        advice = await conductor.hint(live, v, game_id)
        return JSONResponse({"action": advice.action, "alternatives": advice.alternatives,
                             "source": advice.source, "seconds": round(advice.seconds, 3),
                             "version": v})

    @app.post("/api/games/{game_id}/rematch", status_code=201)
    async def api_rematch(request: Request, game_id: str) -> Response:
        data = await json_of(request)
        live = await load(request, game_id)
        level = rematch_level(live, data)
        schemas.checked(schemas.Rematch, data)
        new, token = await asyncio.to_thread(games.rematch, live, level)
        conductor.kick(new.id)
        resp = JSONResponse({"id": new.id, "token": token, "url": f"/g/{new.id}"},
                            status_code=201)
        set_token(resp, new.id, token)
        return resp

    @app.get("/api/games/{game_id}/record")
    async def api_record(request: Request, game_id: str) -> Response:
        live = await load(request, game_id)
        return PlainTextResponse(games.record_text(live))

    @app.post("/api/records", status_code=201)
    async def api_import(request: Request) -> Response:
        data = await json_of(request)  # the Guard let only JSON through
        text = data.get("record")
        if not isinstance(text, str) or not text.strip():
            raise BadAction("send the game record as {\"record\": \"...\"}")
        schemas.checked(schemas.Record, data)
        live, token = await asyncio.to_thread(games.import_record, text)
        resp = JSONResponse({"id": live.id, "token": token, "url": f"/replay/{live.id}",
                             "steps": len(live.actions)}, status_code=201)
        set_token(resp, live.id, token)
        return resp

    @app.get("/api/replays/{game_id}")
    async def api_replay(request: Request, game_id: str, step: str | None = None,
                         seat: str | None = None) -> Response:
        live = await load(request, game_id)
        n = int_param(step, "step", 0, 0, 10**6)
        who = int_param(seat, "seat", 1, 1, 2) - 1
        return JSONResponse(await asyncio.to_thread(games.replay_snapshot, live, n, who))

    app.include_router(tournament_router(tournaments, games, accepted, page, json_of))
    schemas.install(app, accepted, [x.id for x in lessons.all])
    return app


def takebacks_of(data: dict[str, Any]) -> int | None:
    """The optional ``takebacks`` of an action or takeback request: the table the client saw
    (with its ``version``), so a click on a line taken back since (R30) is refused."""
    found = data.get("takebacks")
    if found is None:
        return None
    if not isinstance(found, int) or isinstance(found, bool) or found < 0:
        raise BadAction("'takebacks', when sent, is the number the table showed")
    return found


def version_of(data: dict[str, Any]) -> int:
    """The move number the table showed, from a request's JSON body."""
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise BadAction("send {\"action\": \"...\", \"version\": N}: 'version' must be "
                        "the move number the table showed")
    return version


__all__ = ["create_app"]
