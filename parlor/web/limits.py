"""``parlor serve``'s limits on connections (issue 39): their settings, from options and the
environment (docs/deploy.md, Settings). What enforces them is :mod:`parlor.web.server`.
"""

from __future__ import annotations

import argparse
import resource
from dataclasses import dataclass
from typing import Any

from parlor.settings import SettingError, env_int, env_number


@dataclass(frozen=True, slots=True)
class Limits:
    """``parlor serve``'s connection settings (docs/deploy.md, "Connections")."""

    head_timeout: float = 10.0  # seconds for a request's head to be complete
    body_grace: float = 10.0  # seconds a body may take before its rate is checked
    body_rate: float = 1024.0  # bytes a second a body must average after the grace; 0: any
    max_connections: int = 1000  # open connections at most (lowered to fit the file limit)
    log_interval: float = 10.0  # seconds between two log lines of one kind of event


#: File descriptors kept for everything but open connections: a running server holds about
#: 40 (the database, the worker processes' pipes, the log, the listening socket), and asyncio
#: accepts a few batches of :data:`ACCEPT_BATCH` connections before the cap sees them.
RESERVED_FILES = 200
#: Connections asyncio accepts in one go: its ``backlog`` argument, which it also gives to
#: ``listen``. uvicorn's 2048 let a burst take every descriptor before the cap could act, so
#: the server passes this, then sets the kernel's queue back to :data:`LISTEN_QUEUE`.
ACCEPT_BATCH = 32
#: The kernel's queue of connections not yet accepted (uvicorn's own backlog): a burst of
#: connections waits there rather than have its SYNs dropped and retried a second later.
LISTEN_QUEUE = 2048


def connection_cap(wanted: int) -> int:
    """``wanted``, lowered so that connections leave :data:`RESERVED_FILES` descriptors of
    the process's file limit free: past it the server could not even accept (EMFILE).

    The soft file limit is first raised toward the hard one as far as ``wanted`` needs (a
    process may, and the soft limit's usual 1,024 would cap a server below the default)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = wanted + RESERVED_FILES
    if soft != resource.RLIM_INFINITY and soft < need:
        soft = need if hard == resource.RLIM_INFINITY else min(need, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(1, min(wanted, soft - RESERVED_FILES))


#: option, Limits field, environment variable, meaning
OPTIONS = (
    ("--head-timeout", "head_timeout", "PARLOR_HEAD_TIMEOUT",
     "seconds for a request's head to be complete (from the connection's start, or the "
     "first byte of a kept-alive connection's next request)"),
    ("--body-timeout", "body_grace", "PARLOR_BODY_TIMEOUT",
     "seconds a request body may take before --body-rate applies"),
    ("--body-rate", "body_rate", "PARLOR_BODY_RATE",
     "bytes a second a request body must average after --body-timeout, or 408 (0: any)"),
    ("--max-connections", "max_connections", "PARLOR_MAX_CONNECTIONS",
     "open connections at most (lowered to the file limit less 200); beyond, idle ones "
     "are closed, or 503 when all are busy"),
    ("--log-interval", "log_interval", "PARLOR_LOG_INTERVAL",
     "seconds between two log lines of one kind of connection event"),
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``parlor serve``'s options for :class:`Limits`."""
    group = parser.add_argument_group("connections (docs/deploy.md, Settings)")
    for option, field, env, meaning in OPTIONS:
        default = getattr(Limits(), field)
        group.add_argument(option, type=type(default), default=None, metavar="N",
                           help=f"{meaning} (default: {env}, or {default:g})")


def limits_from(args: argparse.Namespace) -> Limits:
    """The options given, else their environment variables, else the defaults; a negative
    value (or a cap or timeout of 0) stops the command with the setting's name."""
    values: dict[str, Any] = {}
    for option, field, env, _ in OPTIONS:
        default = getattr(Limits(), field)
        given = getattr(args, field_dest(option), None)
        value = given if given is not None else (
            env_int(env, default) if isinstance(default, int) else env_number(env, default))
        if value < 0 or (value == 0 and field != "body_rate"):
            least = "at least 0" if field == "body_rate" else "above 0"
            raise SettingError(f"{option} / {env} must be {least}, not {value!r} "
                               "(docs/deploy.md)")
        values[field] = value
    return Limits(**values)


def field_dest(option: str) -> str:
    return option.removeprefix("--").replace("-", "_")


__all__ = ["ACCEPT_BATCH", "LISTEN_QUEUE", "OPTIONS", "RESERVED_FILES", "Limits",
           "add_arguments", "connection_cap", "limits_from"]
