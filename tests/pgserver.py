"""A real PostgreSQL for the tests, started from Debian's server binaries in a temporary
folder, on a free port and its own socket folder, as the unprivileged user ``postgres`` when
the tests run as root (PostgreSQL refuses to run as root). ``make test`` installs the
binaries (the Makefile's ``postgresql`` step), so these tests never skip."""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

from sqlalchemy import create_engine, text

from parlor.store import GameStore

TEMPLATE = "parlor_template"


def server_bin() -> Path:
    """The newest installed PostgreSQL's ``bin`` folder."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(Path(p).parent.parent.name))
    if not found:
        raise RuntimeError("no PostgreSQL server binaries in /usr/lib/postgresql: run "
                           "`make postgresql` (make test does)")
    return Path(found[-1]).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class PostgresServer:
    """One PostgreSQL cluster; :meth:`new_database` gives each test a fresh, migrated one."""

    def __init__(self, durable: bool = False) -> None:
        #: ``durable``: fsync and synchronous commit on, as a deployment runs (benchmarks of
        #: the commit path); the tests run without them
        self.durable = durable
        self.bin = server_bin()
        self.dir = Path(tempfile.mkdtemp(prefix="parlor-pg-"))
        self.data = self.dir / "data"
        self.port = free_port()
        self.user = "postgres" if os.geteuid() == 0 else None
        self._names = itertools.count(1)

    def _run(self, *args: str) -> None:
        subprocess.run([str(self.bin / args[0]), *args[1:]], check=True, user=self.user,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=self.dir)

    def start(self) -> PostgresServer:
        if self.user is not None:
            pw = pwd.getpwnam(self.user)
            os.chown(self.dir, pw.pw_uid, pw.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust",
                  "-E", "UTF8", "--no-sync")
        # durability off: these tests check ordering across processes, not power cuts
        self._pg_ctl_start()
        self._admin(f"CREATE DATABASE {TEMPLATE}")
        GameStore(self.url(TEMPLATE), pool_size=1).close()  # the migrations, once
        return self

    def _pg_ctl_start(self) -> None:
        durability = "" if self.durable else \
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
        options = (f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 "
                   f"{durability}-c max_connections=400 -c shared_buffers=32MB")
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.dir / "log"), "-o", options,
                  "-w", "-t", "60", "start")

    def halt(self) -> None:
        """Stop the server as an operator's restart does (fast: connections are cut)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def resume(self) -> None:
        """Start it again after :meth:`halt`, on the same port and data."""
        self._pg_ctl_start()

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def _admin(self, sql: str) -> None:
        engine = create_engine(self.url("postgres"), isolation_level="AUTOCOMMIT")
        try:
            with engine.connect() as conn:
                conn.execute(text(sql))
        finally:
            engine.dispose()

    def new_database(self) -> str:
        """A fresh database at the newest schema (a copy of the migrated template)."""
        name = f"parlor_t{os.getpid()}_{next(self._names)}"
        self._admin(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE}")
        return name

    def drop_database(self, name: str) -> None:
        self._admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)
