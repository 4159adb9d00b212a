#!/usr/bin/env python3
"""Hints never starve the computer (issue 13): a computer move's round trip in one game, with
and without 40 hint requests in flight from one player in other games.

    python bench/hints.py [--level novice] [--moves 8] [--repeats 3] [--inflight 40]

Starts ``python -m parlor.web`` (process workers, pace 0) on a free port of 127.0.0.1 with a
fresh SQLite file. Game B is the measured one: its human POSTs a legal action and waits
(long polling) until the computer has answered and it is the human's decision again; that
wall time is one round trip. The load is one player (one client address) keeping
``--inflight`` hint requests open at all times over 8 games of its own, asking again as soon
as any answer comes (a hint, or a 429 refusal), from a process of its own. Phases
alternate, quiet then loaded, for ``--repeats`` rounds; the ratio of the loaded median to
the quiet median is printed. Target: the ratio stays below 2.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web import free_port, start_server  # bench/ is not a package


async def human_turn(c: httpx.AsyncClient, gid: str, token: str) -> dict[str, Any]:
    after = -1
    while True:
        r = await c.get(f"/api/games/{gid}", params={"after": after, "wait": 10},
                        headers={"X-Parlor-Token": token})
        snap: dict[str, Any] = r.json()
        if snap["your_turn"] or snap["status"] == "over":
            return snap
        after = snap["version"]


async def new_game(c: httpx.AsyncClient, level: str) -> tuple[str, str]:
    r = await c.post("/api/games", json={"level": level, "max_turns": 1000})
    r.raise_for_status()
    return r.json()["id"], r.json()["token"]


async def round_trips(c: httpx.AsyncClient, level: str, n: int,
                      rng: random.Random) -> list[float]:
    """``n`` round trips in fresh games (a new one when a game ends)."""
    out: list[float] = []
    gid, token = await new_game(c, level)
    snap = await human_turn(c, gid, token)
    while len(out) < n:
        if snap["status"] == "over":
            gid, token = await new_game(c, level)
            snap = await human_turn(c, gid, token)
            continue
        action = rng.choice(snap["view"]["legal"])
        start = time.perf_counter()
        r = await c.post(f"/api/games/{gid}/actions",
                         json={"action": action, "version": snap["version"]},
                         headers={"X-Parlor-Token": token})
        r.raise_for_status()
        snap = await human_turn(c, gid, token)
        if snap["version"] > r.json()["version"]:  # the computer answered
            out.append(time.perf_counter() - start)
    return out


async def hint_load(base: str, games: list[tuple[str, str]], inflight: int,
                    seconds: float) -> dict[int, int]:
    """``inflight`` hint requests kept open for ``seconds`` (asking again at each answer)."""
    counts: dict[int, int] = {}
    end = time.monotonic() + seconds
    limits = httpx.Limits(max_connections=inflight + 5)

    async def one(c: httpx.AsyncClient, i: int) -> None:
        gid, token = games[i % len(games)]
        while time.monotonic() < end:
            try:
                r = await c.get(f"/api/games/{gid}/hint", headers={"X-Parlor-Token": token},
                                timeout=60)
                counts[r.status_code] = counts.get(r.status_code, 0) + 1
            except httpx.HTTPError:
                counts[0] = counts.get(0, 0) + 1

    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as c:
        await asyncio.gather(*(one(c, i) for i in range(inflight)))
    return counts


def load_process(base: str, games: list[tuple[str, str]], inflight: int, seconds: float,
                 out: Any) -> None:
    """The other player, in a process of its own (its requests do not share our loop)."""
    out.put(asyncio.run(hint_load(base, games, inflight, seconds)))


async def main_async(args: argparse.Namespace, base: str) -> None:
    rng = random.Random(1)
    ctx = multiprocessing.get_context("spawn")
    async with httpx.AsyncClient(base_url=base, timeout=60) as c:
        games = [await new_game(c, "novice") for _ in range(8)]
        for gid, token in games:
            await human_turn(c, gid, token)
        await round_trips(c, args.level, 2, rng)  # warm the workers
        quiet: list[float] = []
        loaded: list[float] = []
        counts: dict[int, int] = {}
        for rep in range(args.repeats):
            q = await round_trips(c, args.level, args.moves, rng)
            out = ctx.Queue()
            proc = ctx.Process(target=load_process, args=(base, games, args.inflight,
                                                          args.load_seconds, out))
            proc.start()
            await asyncio.sleep(3.0)  # the load is in full flow before measuring
            w = await round_trips(c, args.level, args.moves, rng)
            for k, v in (await asyncio.to_thread(out.get)).items():
                counts[k] = counts.get(k, 0) + v
            proc.join()
            quiet += q
            loaded += w
            print(f"repeat {rep + 1}: quiet median {statistics.median(q) * 1000:.0f} ms, "
                  f"with hints {statistics.median(w) * 1000:.0f} ms", flush=True)
        mq, ml = statistics.median(quiet), statistics.median(loaded)
        print(f"hint answers during the load: {dict(sorted(counts.items()))}")
        print(f"computer round trip, median of {len(quiet)}: quiet {mq * 1000:.0f} ms, with "
              f"{args.inflight} hints in flight {ml * 1000:.0f} ms: ratio {ml / mq:.2f} "
              f"(target < 2)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    ap.add_argument("--level", default="novice")
    ap.add_argument("--moves", type=int, default=8)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--inflight", type=int, default=40)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--load-seconds", type=float, default=12.0,
                    help="how long each loaded phase keeps the hints in flight")
    args = ap.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        proc = start_server(Path(tmp) / "bench.db", port, args.workers, 0.0)
        try:
            asyncio.run(main_async(args, f"http://127.0.0.1:{port}"))
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
