"""The HTTP layer: pages, the JSON API and static files (FastAPI).

Pages are rendered on the server (Jinja2); the table itself is drawn in the browser by a few
JS modules from the JSON snapshot, which holds only the human's view, legal actions and log.
Every game has a secret player token, kept in the cookie ``pm_<game id>`` (or sent as the
``X-Parlor-Token`` header by API clients); it never travels in an address ("Continue
elsewhere" makes a one-time code instead). Writes are same-origin only, forms carry a CSRF
token, and request bodies are limited while they are read (:mod:`parlor.web.guard`). See
:mod:`parlor.web.games` for the rules of acting, and README.md for the endpoints.

:func:`create_app` builds the shared objects and assembles the routers of
:mod:`parlor.web.routes`, one module per concern; the routes reach the shared objects through
one :class:`~parlor.web.routes.site.Site` on ``app.state.site``.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.middleware.gzip import GZipMiddleware

from parlor import __version__
from parlor.store import GameStore, TournamentStore
from parlor.store.handovers import Handovers
from parlor.store.keys import shared_secret
from parlor.web import schemas
from parlor.web.accounts import Players
from parlor.web.analysis import Analyst
from parlor.web.computer import accepted_levels, available_levels
from parlor.web.conductor import Conductor
from parlor.web.config import WebConfig
from parlor.web.games import Games
from parlor.web.guard import Guard
from parlor.web.learning import Lessons
from parlor.web.metrics import Metrics, Timing
from parlor.web.puzzles import PuzzleRoom
from parlor.web.routes import accounts, analysis, health, learning, pages, records, spectators
from parlor.web.routes import friends as friend_routes
from parlor.web.routes import games as games_routes
from parlor.web.routes import puzzles as puzzle_routes
from parlor.web.routes import tournaments as tournament_routes
from parlor.web.routes.errors import install as install_errors
from parlor.web.routes.site import Site
from parlor.web.tournaments import Tournaments

HERE = Path(__file__).resolve().parent
#: The app's routes, by concern (parlor/web/routes); a form and its API twin share a module.
ROUTERS = (pages, spectators, games_routes, records, health, learning, analysis,
           tournament_routes, accounts, friend_routes, puzzle_routes)


def _json_script(data: Any) -> str:
    """JSON safe to embed in a <script> element."""
    return (json.dumps(data, separators=(",", ":"))
            .replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def _computer(games: Games, config: WebConfig) -> tuple[Conductor, Analyst]:
    """Who plays the computer's moves and analyses games: `parlor worker`s through the
    queue on PostgreSQL (docs/deploy.md), else this server's own pools."""
    if config.uses_queue:
        from parlor.web.queued import QueueConductor

        queued = QueueConductor(games, config)
        return queued, Analyst(games, config, queued.defer_analysis)  # analyses: jobs too
    return Conductor(games, config), Analyst(games, config)  # a low-priority pool


def create_app(config: WebConfig | None = None) -> FastAPI:
    """The app on ``config`` (else the environment's): its shared objects (a
    :class:`~parlor.web.routes.site.Site`), their start and stop, and its routers."""
    config = config or WebConfig.from_env()
    store = GameStore(config.database_url)
    publisher = None
    if config.redis_url:  # wake-ups on Redis instead of NOTIFY (redis: the postgres extra)
        from parlor.web.wakeups import attach

        publisher = attach(store, config.redis_url)
    games = Games(store, config.max_cached)
    conductor, analyst = _computer(games, config)
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
        # friend games' clocks run out even with nobody reading (issue 45)
        sweeper = asyncio.create_task(friend_routes.sweep_clocks(_app))
        try:
            yield
        finally:
            sweeper.cancel()
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
    _assemble(app, Site(config=config, store=store, games=games, conductor=conductor,
                        analyst=analyst, tournaments=tournaments,
                        tournament_store=tournament_store, templates=templates, levels=levels,
                        accepted=accepted, secret=secret, handovers=handovers, metrics=metrics,
                        lessons=Lessons(), puzzles=PuzzleRoom.of(config.puzzles_file, store)))
    return app


def _assemble(app: FastAPI, site: Site) -> None:
    """The middleware, static files, error handlers, routers and OpenAPI document of ``app``,
    whose routes reach ``site`` as ``app.state.site``."""
    app.state.site = site
    # accounts (issue 43): parlor.web.accounts, their routes parlor.web.routes.accounts
    app.state.players = Players(site.store, site.games, site.tournament_store, site.secret)
    config = site.config
    app.add_middleware(GZipMiddleware, minimum_size=1000)
    app.add_middleware(accounts.AdoptNewGames)  # a game started signed in joins the account
    app.add_middleware(Timing, metrics=site.metrics)
    app.add_middleware(Guard, max_body=config.max_body, methods_of=schemas.methods_of,
                       trusted_proxies=config.trusted_proxies,
                       public_origin=config.public_origin)
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    install_errors(app)
    for routes in ROUTERS:
        app.include_router(routes.router)
    schemas.install(app, site.accepted, [x.id for x in site.lessons.all])


__all__ = ["create_app"]
