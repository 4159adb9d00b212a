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
import hmac
import json
import logging
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import (
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
)
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.middleware.gzip import GZipMiddleware

from parlor import __version__
from parlor.rules.state import Settings
from parlor.store import GameStore, TournamentStore
from parlor.store.handovers import Handovers
from parlor.store.keys import shared_secret
from parlor.web import schemas
from parlor.web.analysis import Analyst
from parlor.web.analysis import install as install_analysis
from parlor.web.computer import accepted_levels, available_levels, default_level
from parlor.web.conductor import Conductor
from parlor.web.config import WebConfig
from parlor.web.games import (
    Games,
    LiveGame,
    NotYourGame,
    watch_key,
)
from parlor.web.guard import Guard
from parlor.web.learning import Lessons
from parlor.web.learning import install as install_learning
from parlor.web.metrics import Metrics, Timing
from parlor.web.routes import games as games_routes
from parlor.web.routes import records
from parlor.web.routes.errors import install as install_errors
from parlor.web.routes.site import (
    Site,
    int_param,
    json_of,
    row_dict,
    tokens_of,
)
from parlor.web.rulesdoc import rules_doc, ruling_index_html
from parlor.web.tournaments import Tournaments
from parlor.web.tournaments import router as tournament_router

HERE = Path(__file__).resolve().parent
_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
MAX_TURNS_CHOICES = (200, 60, 20, 8)
#: A "Continue elsewhere" code works once, within this many seconds.
HANDOVER_SECONDS = 600
log = logging.getLogger("parlor.web")


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
    secret = (config.secret or shared_secret(store, "csrf")).encode()
    handovers = Handovers(store)

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

    site = Site(config=config, store=store, games=games, conductor=conductor, analyst=analyst,
                tournaments=tournaments, tournament_store=tournament_store,
                templates=templates, levels=levels, accepted=accepted, secret=secret,
                handovers=handovers, metrics=metrics, lessons=Lessons())
    app.state.site = site
    page, load, live_game = site.page, site.load, site.live_game

    install_errors(app)

    # -- pages -----------------------------------------------------------------------------------

    @app.get("/", response_class=HTMLResponse)
    async def home(request: Request) -> Response:
        rows = await asyncio.to_thread(games.owned, tokens_of(request))
        return page(request, "home.html", levels=levels, default_level=default_level(),
                    games=[row_dict(r) for r in rows],
                    turn_choices=MAX_TURNS_CHOICES)

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
        return JSONResponse(snap)

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

    app.include_router(games_routes.router)
    app.include_router(records.router)

    app.include_router(tournament_router(tournaments, games, accepted, page, json_of))
    schemas.install(app, accepted, [x.id for x in lessons.all])
    return app


__all__ = ["create_app"]
