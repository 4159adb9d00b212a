"""``parlor serve``: the web app on uvicorn.

    parlor serve [--host 127.0.0.1] [--port 8000] [--db URL] [--pace SECONDS] [--workers N]
                 [--head-timeout S] [--body-timeout S] [--body-rate B] [--max-connections N]
                 [--keep-alive SECONDS] [--trusted-proxies ADDRS] [--public-origin URL]

Games are stored in SQLite (``./parlor.db``) unless ``--db`` or ``PARLOR_DATABASE_URL``
names another SQLAlchemy URL.
"""

from __future__ import annotations

import argparse
import logging
import sys
from dataclasses import replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from parlor.web.config import WebConfig

from parlor.web import limits


def add_parser(sub: Any) -> None:
    """Register ``parlor serve`` on the subparsers of the ``parlor`` command."""
    p = sub.add_parser("serve", help="run the web app",
                       description="Run the web app: play against the computer in a browser.")
    add_arguments(p)
    p.set_defaults(func=run)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument("--db", default=None, metavar="URL",
                        help="SQLAlchemy URL of the games database (default: "
                             "PARLOR_DATABASE_URL, or sqlite:///parlor.db)")
    parser.add_argument("--pace", type=float, default=None, metavar="SECONDS",
                        help="least time between two of the computer's actions (default 0.9)")
    parser.add_argument("--workers", type=int, default=None, metavar="N",
                        help="processes where the computer thinks (default: up to 4)")
    limits.add_arguments(parser)
    add_proxy_arguments(parser)


# -- behind a balancer (issue 38, docs/deploy.md "Behind nginx") --------------------------------

#: Seconds an idle keep-alive connection stays open: longer than a balancer's own idle
#: upstream timeout (nginx's keepalive_timeout, 60 s by default, 30 s in deploy/parlor.nginx),
#: so the balancer always closes first and never reuses a connection the server is closing
#: (uvicorn's own 5 s gave 502s behind nginx).
KEEP_ALIVE = 75


def add_proxy_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--keep-alive", type=int, default=None, metavar="SECONDS",
                        help=f"idle keep-alive connections are closed after this (default: "
                             f"PARLOR_KEEP_ALIVE, or {KEEP_ALIVE}; keep it above the "
                             "balancer's upstream keepalive_timeout)")
    parser.add_argument("--trusted-proxies", default=None, metavar="ADDRS",
                        help="addresses or networks (comma-separated) whose X-Forwarded-For, "
                             "-Proto and -Host are believed (default: PARLOR_TRUSTED_PROXIES, "
                             "or no one)")
    parser.add_argument("--public-origin", default=None, metavar="URL",
                        help="the site's origin(s) as browsers see it, e.g. "
                             "https://parlor.example, for the same-origin check behind a "
                             "proxy that rewrites Host (default: PARLOR_PUBLIC_ORIGIN)")


def proxy_settings(args: argparse.Namespace, config: WebConfig) -> tuple[WebConfig, int]:
    """The settings with the proxy options applied (checked now: a bad address or origin
    stops the command), and the keep-alive seconds."""
    from parlor.settings import env_int
    from parlor.web.proxy import parse_origins, parse_proxies

    if args.trusted_proxies is not None:
        config = replace(config, trusted_proxies=args.trusted_proxies)
    if args.public_origin is not None:
        config = replace(config, public_origin=args.public_origin)
    parse_proxies(config.trusted_proxies)
    parse_origins(config.public_origin)
    keep_alive = args.keep_alive if args.keep_alive is not None else env_int(
        "PARLOR_KEEP_ALIVE", KEEP_ALIVE)
    return config, max(1, keep_alive)


#: Seconds a stopping server waits for its open requests before closing them.
STOP_GRACE = 3


def run(args: argparse.Namespace) -> int:
    from parlor.settings import log_level
    from parlor.web import server
    from parlor.web.app import create_app
    from parlor.web.config import WebConfig

    config = WebConfig.from_env()
    connection_limits = limits.limits_from(args)
    if args.db:
        config = replace(config, database_url=args.db)
    if args.pace is not None:
        config = replace(config, pace=max(0.0, args.pace))
    if args.workers is not None:
        config = replace(config, workers=max(1, args.workers))
    config, keep_alive = proxy_settings(args, config)
    level = log_level()
    logging.basicConfig(level=(level or "info").upper(),
                        format="%(levelname)s %(name)s: %(message)s")
    app = create_app(config)
    print(f"Parlor Magic at http://{args.host}:{args.port}  (games in "
          f"{shown_url(config.database_url)})", flush=True)
    # A stop waits at most STOP_GRACE for open requests: a page's long poll holds its request
    # open for up to 20 s, also after its browser is gone, and the page polls again anyway.
    # X-Forwarded-* are the app's (parlor.web.proxy, only from the trusted proxies): uvicorn's
    # own reading would trust 127.0.0.1 by default.
    server.serve(app, connection_limits, host=args.host, port=args.port,
                 log_level=level or "warning", access_log=False,
                 timeout_graceful_shutdown=STOP_GRACE, timeout_keep_alive=keep_alive,
                 proxy_headers=False)
    return 0


def shown_url(url: str) -> str:
    """The database URL as a log may show it: never its password."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="parlor serve", description="Run the web app.")
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
