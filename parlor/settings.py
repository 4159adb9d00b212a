"""Numbers (and the log level) read from the environment, for the server, the workers and the
store.

A value that is not a number is refused with the variable's name rather than replaced by
the default: a typo in a deployment's settings must not pass unnoticed (docs/deploy.md).
"""

from __future__ import annotations

import math
import os


class SettingError(ValueError):
    """An environment setting that cannot be read; the message names it and says why."""


def env_number(name: str, default: float) -> float:
    """The number in environment variable ``name``, or ``default`` when it is unset or empty."""
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        raise SettingError(f"{name}={text!r} is not a number (docs/deploy.md)") from None
    if not math.isfinite(value):
        raise SettingError(f"{name}={text!r} is not a finite number (docs/deploy.md)")
    return value


def env_int(name: str, default: int) -> int:
    """The whole number in environment variable ``name``, or ``default`` when unset or empty."""
    value = env_number(name, default)
    if value != int(value):
        raise SettingError(f"{name}={os.environ[name].strip()!r} is not a whole number "
                           "(docs/deploy.md)")
    return int(value)


#: What ``PARLOR_LOG_LEVEL`` may say (docs/deploy.md).
LOG_LEVELS = ("debug", "info", "warning", "error", "critical")


def log_level() -> str:
    """``PARLOR_LOG_LEVEL``, lowercased; "" when unset or empty (each command has its own
    default). A level that is none of :data:`LOG_LEVELS` stops the command."""
    text = os.environ.get("PARLOR_LOG_LEVEL", "").strip().lower()
    if text and text not in LOG_LEVELS:
        raise SettingError(f"PARLOR_LOG_LEVEL={text!r} is not one of {', '.join(LOG_LEVELS)} "
                           "(docs/deploy.md)")
    return text


__all__ = ["LOG_LEVELS", "SettingError", "env_int", "env_number", "log_level"]
