"""How a refusal or a failure is answered: a page for a browser, else the API's JSON
``{"error": code, "message": ...}`` (exception handlers belong to the app, not a router)."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

from parlor.web.games import GameError, StaleForm, Unavailable
from parlor.web.routes.site import Site, wants_html

log = logging.getLogger("parlor.web")


async def game_error(request: Request, exc: GameError) -> Response:
    if wants_html(request):
        titles = {404: "No such game", 403: "Not your game", 500: "This game is broken",
                  503: "Try again in a moment"}
        title = "Reload the page" if isinstance(exc, StaleForm) \
            else titles.get(exc.status, "Refused")
        site: Site = request.app.state.site
        return site.error_page(request, exc.status, title, exc.message)
    headers = {"Retry-After": str(exc.extra["retry_after"])} \
        if "retry_after" in exc.extra else None
    return JSONResponse({"error": exc.code, "message": exc.message, **exc.extra},
                        status_code=exc.status, headers=headers)


async def store_error(request: Request, exc: SQLAlchemyError) -> Response:
    log.error("the store failed: %s", exc)
    return await game_error(request, Unavailable(
        "the game store cannot be read right now; nothing was changed. Try again soon."))


async def invalid(request: Request, exc: RequestValidationError) -> Response:
    parts = [f"{'.'.join(str(x) for x in e.get('loc', ()))}: {e.get('msg', '')}"
             for e in exc.errors()]
    return JSONResponse({"error": "bad_request", "message": "; ".join(parts)},
                        status_code=400)


async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
    if wants_html(request):
        title = "Page not found" if exc.status_code == 404 else "Error"
        msg = "There is nothing at this address." if exc.status_code == 404 \
            else str(exc.detail)
        site: Site = request.app.state.site
        resp = site.error_page(request, exc.status_code, title, msg)
        resp.headers.update(exc.headers or {})  # a 405's Allow
        return resp
    return JSONResponse({"error": "http_error", "message": str(exc.detail)},
                        status_code=exc.status_code, headers=exc.headers)


def install(app: FastAPI) -> None:
    """The handlers on ``app``."""
    app.exception_handler(GameError)(game_error)
    app.exception_handler(SQLAlchemyError)(store_error)
    app.exception_handler(RequestValidationError)(invalid)
    app.exception_handler(StarletteHTTPException)(http_error)
