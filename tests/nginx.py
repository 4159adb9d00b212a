"""A real nginx for the tests, from Debian's package (``make test`` installs it: the Makefile's
``nginx`` step), started in the foreground on a free port with its own prefix, configuration,
pid, logs and temporary files in a temporary folder: never the system's service."""

from __future__ import annotations

import contextlib
import re
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from .pgserver import free_port

NGINX = "/usr/sbin/nginx"
ROOT = Path(__file__).resolve().parent.parent
#: The repository's site file (docs/deploy.md).
DEPLOY_SITE = ROOT / "deploy" / "parlor.nginx"


def default_site(port: int, upstreams: list[int], extra: str = "") -> str:
    """nginx as most people first write it: ``proxy_pass`` to a named upstream and nothing
    else (but ``extra`` directives), so the servers see ``Host: parlor`` and no
    ``X-Forwarded-*`` header."""
    servers = "".join(f"    server 127.0.0.1:{p};\n" for p in upstreams)
    return (f"upstream parlor {{\n{servers}}}\n"
            f"server {{\n    listen 127.0.0.1:{port};\n"
            f"    location / {{\n        proxy_pass http://parlor;\n        {extra}\n    }}\n}}\n")


def deploy_site(port: int, upstreams: list[int]) -> str:
    """deploy/parlor.nginx with its ``listen`` and upstream ``server`` lines pointed at the
    test's ports; nothing else changed (a change to those lines breaks this loudly)."""
    text = DEPLOY_SITE.read_text()
    text, listens = re.subn(r"^(\s*)listen 80;$", rf"\1listen 127.0.0.1:{port};", text,
                            flags=re.M)
    servers = "".join(f"    server 127.0.0.1:{p};\n" for p in upstreams)
    text, found = re.subn(r"^(\s*server 127\.0\.0\.1:\d+;\n)+", servers, text, flags=re.M)
    assert listens == 1 and found == 1, "deploy/parlor.nginx: one listen 80, one server list"
    return text


class Nginx:
    """nginx with one site (the text of a file for nginx's ``http`` block) on a free port.
    Its access log names the upstream server of each request (:meth:`upstreams`)."""

    def __init__(self, site: str, port: int | None = None) -> None:
        self.port = port or free_port()
        self.site = site
        self.dir = Path(tempfile.mkdtemp(prefix="parlor-nginx-"))
        # nginx's workers run as `nobody` when the tests run as root: they must reach
        # the temporary folders that nginx makes here (and chowns to them)
        self.dir.chmod(0o755)
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _conf(self) -> str:
        d = self.dir
        temps = "".join(f"    {kind}_temp_path {d / kind};\n"
                        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        return (f"worker_processes 1;\npid {d / 'nginx.pid'};\nerror_log {d / 'error.log'} warn;\n"
                "events { worker_connections 1024; }\n"
                "http {\n"
                "    log_format upstream '$status $request_method $uri $upstream_addr';\n"
                f"    access_log {d / 'access.log'} upstream;\n{temps}"
                f"    include {d / 'site.conf'};\n}}\n")

    def start(self) -> Nginx:
        if not Path(NGINX).exists():
            raise RuntimeError(f"{NGINX} is missing: run `make nginx` (make test does)")
        (self.dir / "site.conf").write_text(self.site)
        (self.dir / "nginx.conf").write_text(self._conf())
        self.proc = subprocess.Popen(
            [NGINX, "-p", str(self.dir), "-c", str(self.dir / "nginx.conf"),
             "-e", str(self.dir / "error.log"), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        end = time.monotonic() + 30
        while time.monotonic() < end:
            with contextlib.suppress(OSError), socket.create_connection(
                    ("127.0.0.1", self.port), timeout=0.2):
                return self
            if self.proc.poll() is not None:
                raise RuntimeError(f"nginx did not start: {self.errors()}")
            time.sleep(0.05)
        raise RuntimeError(f"nginx did not listen: {self.errors()}")

    def errors(self) -> str:
        log = self.dir / "error.log"
        return log.read_text() if log.exists() else ""

    def upstreams(self) -> list[str]:
        """The upstream address of each logged request (nginx writes the log as it goes)."""
        log = self.dir / "access.log"
        lines = log.read_text().splitlines() if log.exists() else []
        return [line.rsplit(" ", 1)[-1] for line in lines]

    def halt(self) -> None:
        """Stop nginx (a fast stop: connections are cut) and keep its folder, so that
        :meth:`start` brings it back on the same port (an operator's restart)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()  # nothing here needs a graceful stop
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def stop(self) -> None:
        try:
            self.halt()
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


__all__ = ["DEPLOY_SITE", "Nginx", "default_site", "deploy_site"]
