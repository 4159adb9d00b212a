"""A worker's and the server's settings from the environment (docs/deploy.md's table)."""

from __future__ import annotations

import pytest

from parlor.cli import main
from parlor.settings import SettingError, env_int
from parlor.web.config import WebConfig
from parlor.web.jobs import Settling, WorkerSettings


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


@pytest.mark.parametrize("text", ["abc", "1,5", "nan", "inf"])
def test_a_setting_that_is_not_a_number_is_refused_with_its_name(
        monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    """A typo in a deployment's settings is reported, never replaced by the default."""
    monkeypatch.setenv("PARLOR_WORKER_POLL", text)
    with pytest.raises(SettingError, match=r"PARLOR_WORKER_POLL=.* is not a (finite )?number"):
        WorkerSettings.from_env()
    monkeypatch.delenv("PARLOR_WORKER_POLL")
    monkeypatch.setenv("PARLOR_PACE", text)
    with pytest.raises(SettingError, match="PARLOR_PACE"):
        WebConfig.from_env()


def test_an_empty_setting_means_its_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARLOR_WORKER_POLL", " ")
    monkeypatch.setenv("PARLOR_PACE", "")
    assert WorkerSettings.from_env().poll == 1.0 and WebConfig.from_env().pace == 0.9


def test_parlor_serve_and_worker_stop_on_an_unreadable_setting(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("PARLOR_THINK", "0.3s")
    assert main(["serve", "--port", "1"]) == 2
    assert "parlor serve: PARLOR_THINK='0.3s' is not a number" in capsys.readouterr().err
    monkeypatch.delenv("PARLOR_THINK")
    monkeypatch.setenv("PARLOR_WORKER_HEARTBEAT", "five")
    assert main(["worker", "--db", "postgresql://nobody@localhost/none"]) == 2
    assert "parlor worker: PARLOR_WORKER_HEARTBEAT='five'" in capsys.readouterr().err


def test_a_count_of_connections_must_be_a_whole_number(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARLOR_DB_POOL", "2.5")
    with pytest.raises(SettingError, match=r"PARLOR_DB_POOL='2\.5' is not a whole number"):
        env_int("PARLOR_DB_POOL", 10)
    monkeypatch.setenv("PARLOR_DB_POOL", "12")
    assert env_int("PARLOR_DB_POOL", 10) == 12


def test_no_worker_is_called_dead_until_heartbeats_had_time_after_an_outage() -> None:
    """After the database was away, every heartbeat is stale though the workers live:
    stalled jobs are looked for again only once a heartbeat round has passed since this
    worker last failed to reach the database."""
    settling = Settling(wait=23.0)
    assert settling.settled(100.0)  # no outage seen
    settling.failed(100.0)
    assert not settling.settled(110.0) and not settling.settled(122.9)
    settling.failed(115.0)  # still away: the wait counts from the last failure
    assert not settling.settled(130.0)
    assert settling.settled(138.0)


def test_parlor_log_level_is_a_level_or_stops_the_command(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from parlor.settings import log_level

    monkeypatch.setenv("PARLOR_LOG_LEVEL", " Warning ")
    assert log_level() == "warning"
    monkeypatch.setenv("PARLOR_LOG_LEVEL", "")
    assert log_level() == ""  # each command's own default
    monkeypatch.setenv("PARLOR_LOG_LEVEL", "loud")
    with pytest.raises(SettingError, match="PARLOR_LOG_LEVEL='loud'"):
        log_level()
