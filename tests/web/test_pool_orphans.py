"""A pool's worker processes end with the process that started them, even after its
``kill -9`` (which gives the pool no chance to stop them): otherwise each killed server or
``parlor worker`` would leave processes waiting for work forever, holding memory and the
output their parent was given."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from .ui import ROOT, stop_process

#: A parent that starts the analyses' pool, has one job run (so a worker process exists),
#: prints that process's id and then waits to be killed.
PARENT = """
import os, sys, time
from parlor.web.analysis import new_pool
from parlor.web.config import WebConfig
pool = new_pool(WebConfig(analysis_workers=1, worker_kind="process"))
print(pool.submit(os.getpid).result(timeout=120), flush=True)
time.sleep(600)
"""


def test_an_analysis_worker_ends_when_its_parent_is_killed() -> None:
    parent = subprocess.Popen([sys.executable, "-c", PARENT], cwd=ROOT, text=True,
                              stdout=subprocess.PIPE, start_new_session=True)
    try:
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        assert Path(f"/proc/{child}").exists()
        parent.kill()
        parent.wait(10)
        end = time.monotonic() + 15  # the worker looks for its parent every second
        while Path(f"/proc/{child}").exists() and time.monotonic() < end:
            time.sleep(0.2)
        assert not Path(f"/proc/{child}").exists(), "the analysis worker outlived its parent"
    finally:
        stop_process(parent)  # and whatever is left in its session
