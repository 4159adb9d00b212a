"""Evaluation matches on Ray (issue 17): a small match on a local Ray instance gives the same
games as the local run for the same seeds."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import ray

from parlor.cluster import ray_map
from parlor.terminal.simulate import simulate

pytestmark = pytest.mark.slow  # `make check` leaves it out: a Ray instance, 6-11 s a test


def test_a_local_instance_is_started_and_stopped_for_the_run() -> None:
    """``--ray local`` with no instance running: one is started for the run, then stopped.
    (This test comes first, before the module's instance starts.)"""
    assert not ray.is_initialized()
    results = sorted(r.seed for r in simulate(2, 40, "random", "random", workers=1,
                                              ray="local"))
    assert results == [40, 41]
    assert not ray.is_initialized()


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """One small Ray instance for the module (2 CPUs, no dashboard), shut down after it."""
    ray.init(num_cpus=2, include_dashboard=False, object_store_memory=80 * 1024 * 1024,
             log_to_driver=False)
    yield
    ray.shutdown()


def square(x: int) -> int:
    return x * x


def test_ray_map_runs_every_job_once(local_ray: None) -> None:
    assert sorted(ray_map(square, list(range(6)), "local")) == [0, 1, 4, 9, 16, 25]
    assert ray.is_initialized()  # it joined the running instance and left it running


def test_a_match_on_ray_plays_the_same_games_as_the_local_pool(local_ray: None) -> None:
    on_ray = sorted(simulate(4, 900, "random", "greedy", workers=2, ray="local"),
                    key=lambda r: r.seed)
    local = list(simulate(4, 900, "random", "greedy", workers=1))
    assert [(r.seed, r.winner, r.turns, r.decisions, r.swapped) for r in on_ray] == [
        (r.seed, r.winner, r.turns, r.decisions, r.swapped) for r in local]
