"""Evaluation matches on Ray: independent jobs (games, batches of games) run on a cluster.

``bench/ai.py --ray ADDRESS`` and ``parlor simulate --ray ADDRESS`` hand their games to
:func:`ray_map` instead of the local process pool (which stays the default). ADDRESS is
``local`` (start a Ray instance on this machine for the run, with ``workers`` CPUs, and stop
it afterwards), ``auto`` (join the cluster that ``ray start --head`` runs here) or a cluster's
address (``ray://host:10001`` or ``host:6379``). Each game is dealt from its own seed and its
agents from seeds derived from it, so a match gives the same results wherever its games run
(the agents that search by time are the exception anywhere: give them ``NAME@iters=N``).

Ray comes with the optional ``cluster`` extra (``pip install 'parlor-magic[cluster]'``);
asking for Ray without it fails with ModuleNotFoundError, never a silent local run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

#: The object store a local instance gets: the jobs pass only seeds and small results.
LOCAL_OBJECT_STORE = 100 * 1024 * 1024


def _ray() -> Any:
    import ray  # the cluster extra: without it, --ray fails here with ModuleNotFoundError

    return ray


def ray_map(fn: Callable[[T], R], jobs: Sequence[T], address: str,
            workers: int = 2) -> Iterator[R]:
    """``fn(job)`` for every job, run as Ray tasks; results as they finish (in any order).

    Joins the Ray instance this process is already connected to, if any (and leaves it
    running); otherwise connects to ``address`` (``local`` starts an instance with
    ``workers`` CPUs) and disconnects at the end."""
    ray = _ray()
    started = not ray.is_initialized()
    if started:
        if address == "local":
            ray.init(num_cpus=max(1, workers), include_dashboard=False,
                     object_store_memory=LOCAL_OBJECT_STORE, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    try:
        task = ray.remote(num_cpus=1)(fn)
        pending = [task.remote(job) for job in jobs]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:
        if started:
            ray.shutdown()


__all__ = ["ray_map"]
