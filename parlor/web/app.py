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
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
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
    BadAction,
    GameNotFound,
    Games,
    LiveGame,
    NotYourGame,
    watch_key,
)
from parlor.web.guard import Guard
from parlor.web.learning import Lessons
from parlor.web.learning import install as install_learning
from parlor.web.metrics import Metrics, Timing
from parlor.web.routes.errors import install as install_errors
from parlor.web.routes.site import (
    Site,
    int_param,
    json_of,
    match_of,
    row_dict,
    set_token,
    token_for,
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
    page, load, live_game, form_of = site.page, site.load, site.live_game, site.form_of
    new_game_args, rematch_level = site.new_game_args, site.rematch_level

    install_errors(app)

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
        return JSONResponse(snap)

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
        return JSONResponse(snap)

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
        return JSONResponse(snap)

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
        return JSONResponse(snap)

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
