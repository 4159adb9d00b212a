"""A worker's settings from its environment (docs/deploy.md's table)."""

from __future__ import annotations

import pytest

from parlor.web.jobs import WorkerSettings


def test_a_worker_looks_for_unannounced_jobs_every_second_by_default(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PARLOR_WORKER_POLL", raising=False)
    assert WorkerSettings.from_env().poll == 1.0


def test_the_poll_interval_is_read_from_the_environment_with_a_floor(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARLOR_WORKER_POLL", "0.25")
    assert WorkerSettings.from_env().poll == 0.25
    monkeypatch.setenv("PARLOR_WORKER_POLL", "0")
    assert WorkerSettings.from_env().poll == 0.05
