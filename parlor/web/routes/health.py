"""For the operator: liveness (``/healthz``), readiness (``/readyz``) and Prometheus's
``/metrics`` (counts and times, no game id, no card)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from parlor import __version__
from parlor.web.routes.site import SiteDep

router = APIRouter()


@router.get("/healthz")
async def healthz(site: SiteDep) -> dict[str, Any]:
    """A real query on the store (503 when it cannot answer or its file is gone)."""
    count = await asyncio.to_thread(site.games.health)
    return {"ok": True, "version": __version__, "games": count}


@router.get("/metrics", include_in_schema=False)
async def metrics_page(site: SiteDep) -> Response:
    """Prometheus's text (parlor.web.metrics): counts and times, no game id, no card."""
    body = await asyncio.to_thread(site.metrics.exposition)
    return Response(body, media_type="text/plain; version=0.0.4; charset=utf-8")


@router.get("/readyz")
async def readyz(site: SiteDep) -> Response:
    """Ready for traffic: the database answers, and (PostgreSQL) the work queue's
    tables answer and this server listens for other processes' changes."""
    checks: dict[str, str] = {}
    try:
        await asyncio.wait_for(asyncio.to_thread(site.store.ping), timeout=5)
        checks["database"] = "ok"
    except Exception as exc:
        checks["database"] = f"failed: {type(exc).__name__}"
    checks.update(await site.conductor.readiness())
    ok = all(v == "ok" for v in checks.values())
    return JSONResponse({"ok": ok, "version": __version__, "checks": checks},
                        status_code=200 if ok else 503)
