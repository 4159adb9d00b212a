"""A real Redis for the tests: Debian's ``redis-server`` (the Makefile's ``redis`` step), run
as a foreground child on a free port with its own folder and no persistence, never the
system's service. :meth:`RedisServer.kill` and :meth:`RedisServer.start` again on the same
port stand for an outage of a deployment's Redis."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import redis

from .pgserver import free_port

BINARY = "/usr/bin/redis-server"


class RedisServer:
    def __init__(self) -> None:
        if not Path(BINARY).exists():
            raise RuntimeError(f"no {BINARY}: run `make redis` (make test does)")
        self.dir = Path(tempfile.mkdtemp(prefix="parlor-redis-"))
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        self.proc = subprocess.Popen(
            [BINARY, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.dir), "--daemonize", "no",
             "--logfile", str(self.dir / "log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        client = redis.Redis.from_url(self.url)
        end = time.monotonic() + 20
        while True:  # until it answers (it starts in milliseconds)
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if self.proc.poll() is not None or time.monotonic() > end:
                    raise RuntimeError(f"redis-server did not start: {self._log()}") from None
                time.sleep(0.05)
            finally:
                client.close()
        return self

    def _log(self) -> str:
        log = self.dir / "log"
        return log.read_text()[-2000:] if log.exists() else ""

    def kill(self) -> None:
        """Gone at once, as a crash would leave it (its clients' connections drop)."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def stop(self) -> None:
        self.kill()
        shutil.rmtree(self.dir, ignore_errors=True)
