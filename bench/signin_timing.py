#!/usr/bin/env python3
"""Sign-in timing: an unknown name against a known name with a wrong password (issue 43, no
user enumeration), through the app's real form on a real store.

    python bench/signin_timing.py [--tries 200] [--db sqlite:///tmp/timing.db]

Alternates the two kinds of try (so that load drifts hit both alike), lifting the lockout
between tries so that it does not stop the run, and prints each kind's median and
quartiles and the difference of the medians. Both answers must be byte for byte the same;
their timing differs by the database's lookup of a password hash, against an Argon2id
verification (tens of milliseconds) that both do. A measurement, not a test: the tests
check the same answer and the same Argon2 verification (tests/web/test_accounts.py), never a
time (the machine is shared).
"""

from __future__ import annotations

import argparse
import re
import statistics
import tempfile
import time
import urllib.parse
from pathlib import Path

from fastapi.testclient import TestClient

from parlor.web.app import create_app
from parlor.web.config import WebConfig


def form(c: TestClient, path: str, fields: dict[str, str]) -> tuple[float, str]:
    page = c.get("/account")
    token = re.search(r'name="csrf" value="([0-9a-f]+)"', page.text)
    assert token
    body = urllib.parse.urlencode({**fields, "csrf": token.group(1)}).encode()
    start = time.perf_counter()
    r = c.post(path, content=body, follow_redirects=False,
               headers={"content-type": "application/x-www-form-urlencoded"})
    took = time.perf_counter() - start
    # the page's CSRF token is this browser's own: the rest must be the same
    return took, f"{r.status_code} " + re.sub(r'value="[0-9a-f]{64}"', "", r.text)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tries", type=int, default=200)
    ap.add_argument("--db", default="")
    args = ap.parse_args()
    db = args.db or f"sqlite:///{Path(tempfile.mkdtemp()) / 'timing.db'}"
    config = WebConfig(database_url=db, pace=0.0)
    with TestClient(create_app(config)) as c:
        form(c, "/account/signup", {"username": "known", "password": "a long passphrase"})
        accounts = c.app.state.players.accounts  # type: ignore[attr-defined]
        times: dict[str, list[float]] = {"unknown": [], "wrong": []}
        answers: dict[str, set[str]] = {"unknown": set(), "wrong": set()}
        for i in range(args.tries):
            for kind, name in (("unknown", f"nobody{i}"), ("wrong", "known")):
                for key in ("name:known", "addr:testclient"):  # not locked out: measured
                    accounts.forgive(key)
                c.cookies.clear()
                took, answer = form(c, "/account/signin",
                                    {"username": name, "password": "not it at all"})
                times[kind].append(took * 1000)
                answers[kind].add(answer)
    for kind, ms in times.items():
        q = statistics.quantiles(ms, n=4)
        print(f"{kind:8} median {statistics.median(ms):7.2f} ms  quartiles {q[0]:.2f}-{q[2]:.2f}")
    diff = statistics.median(times["wrong"]) - statistics.median(times["unknown"])
    print(f"difference of the medians: {diff:+.2f} ms over {args.tries} tries each")
    print("same answers:", answers["unknown"] == answers["wrong"], len(answers["unknown"]))


if __name__ == "__main__":
    main()
