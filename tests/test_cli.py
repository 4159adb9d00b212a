"""The ``parlor`` command: a dispatcher to the front-ends' commands."""

from __future__ import annotations

import pytest

from parlor.cli import main


def test_no_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "usage: parlor" in capsys.readouterr().err


def test_every_front_end_command_is_registered(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for command in ("simulate", "play", "tournament", "serve"):
        assert command in out
