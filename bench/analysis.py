#!/usr/bin/env python3
"""Post-game analysis: a 150-decision game analysed on two cores, and the web app's move round
trip for another game while an analysis runs.

    python bench/analysis.py [--decisions 150] [--workers 2] [--repeats 3] [--moves 15]

1. A game record where Rlr 1 makes at least ``--decisions`` decisions (casual against casual,
   the first deal seed that gives enough), analysed with the default iterations
   (:data:`parlor.ai.analysis.ITERATIONS`) in ``--workers`` low-priority processes, as the
   web app does: wall time, and the CPU time of the worker processes.
2. ``python -m parlor.web`` with two analysis workers: the record is imported and analysed
   through the API while a client plays another game (against novice, pace 0); the POST of
   each move is timed (request to reply), and the whole move cycle (until it is the player's
   decision again, the computer's reply included). Baseline runs without an analysis are
   interleaved with runs during one, ``--repeats`` times.

Target: the analysis of a 150-decision game in under 60 s on 2 cores; the round trip of the
other game not noticeably slower. No timed assertion anywhere: this prints measurements.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.web import free_port, start_server  # noqa: E402
from parlor.ai.analysis import ITERATIONS, analyse_decision, decision_plies  # noqa: E402
from parlor.ai.levels import make_agent  # noqa: E402
from parlor.rules.engine import apply, legal_actions, new_game  # noqa: E402
from parlor.rules.notation import parse_record, record  # noqa: E402
from parlor.rules.view import view  # noqa: E402
from parlor.web.analysis import _background  # noqa: E402


def long_game(decisions: int) -> tuple[str, int]:
    for seed in range(1, 60):
        s = new_game(seed)
        agents = [make_agent("casual", seed), make_agent("casual", seed + 1000)]
        while not s.is_over:
            a = agents[s.actor].act(view(s, s.actor, log=False), legal_actions(s))
            apply(s, a)
        text = record(s)
        settings, dseed, parsed = parse_record(text)
        n = len(decision_plies(settings, dseed, [str(a) for _, a in parsed], 0))
        if n >= decisions:
            return text, n
    raise SystemExit(f"no game with {decisions} decisions in 60 deals")


def analyse_offline(text: str, workers: int, seed: int) -> tuple[float, float]:
    settings, dseed, parsed = parse_record(text)
    actions = [str(a) for _, a in parsed]
    plies = decision_plies(settings, dseed, actions, 0)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    with ProcessPoolExecutor(workers, initializer=_background) as pool:
        futures = [pool.submit(analyse_decision, str(settings), dseed, actions, p, 0, seed,
                               ITERATIONS) for p in plies]
        for f in futures:
            f.result()
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def wait_turn(c: httpx.Client, gid: str, token: str, version: int) -> dict[str, Any]:
    while True:
        r = c.get(f"/api/games/{gid}", params={"after": version, "wait": 10},
                  headers={"X-Parlor-Token": token})
        snap: dict[str, Any] = r.json()
        if snap["your_turn"] or snap["status"] == "over":
            return snap
        version = snap["version"]


def play_moves(c: httpx.Client, n: int, posts: list[float], cycles: list[float],
               stop: Any = None) -> None:
    g = c.post("/api/games", json={"level": "novice", "max_turns": 200}).json()
    gid, token = g["id"], g["token"]
    snap = wait_turn(c, gid, token, -1)
    moves = 0
    while (moves < n or (stop is not None and not stop())) and snap["status"] == "live":
        action = snap["view"]["legal"][-1] if moves % 3 else snap["view"]["legal"][0]
        t0 = time.perf_counter()
        r = c.post(f"/api/games/{gid}/actions", json={"action": action,
                                                      "version": snap["version"]},
                   headers={"X-Parlor-Token": token})
        posts.append(time.perf_counter() - t0)
        snap = wait_turn(c, gid, token, r.json()["version"])
        cycles.append(time.perf_counter() - t0)
        moves += 1
        if moves > 400:
            break


def ms(xs: list[float]) -> str:
    if not xs:
        return "-"
    q = statistics.quantiles(xs, n=20) if len(xs) > 2 else xs
    return (f"median {1000 * statistics.median(xs):.1f} ms, p95 {1000 * q[-1]:.1f} ms "
            f"({len(xs)} moves)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--decisions", type=int, default=150)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--moves", type=int, default=15)
    args = ap.parse_args()
    print(f"cores: {os.cpu_count()}, load average: {os.getloadavg()[0]:.2f}")
    text, n = long_game(args.decisions)
    print(f"the game: {n} decisions of Rlr 1, {ITERATIONS} iterations each")
    for rep in range(args.repeats):
        wall, cpu = analyse_offline(text, args.workers, seed=rep)
        print(f"  offline analysis #{rep + 1}: {wall:.1f} s wall, {cpu:.1f} s CPU in "
              f"{args.workers} workers ({cpu / n:.2f} s CPU per decision)")

    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["PARLOR_ANALYSIS_WORKERS"] = str(args.workers)
        proc = start_server(Path(tmp) / "bench.db", port, workers=1, pace=0.0)
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as c:
                imp = c.post("/api/records", json={"record": text}).json()
                base_posts: list[float] = []
                base_cycles: list[float] = []
                busy_posts: list[float] = []
                busy_cycles: list[float] = []
                for rep in range(args.repeats):
                    play_moves(c, args.moves, base_posts, base_cycles)
                    t0 = time.perf_counter()
                    c.post(f"/api/games/{imp['id']}/analysis", json={"seed": 100 + rep},
                           headers={"X-Parlor-Token": imp["token"]})

                    def running() -> bool:
                        st = c.get(f"/api/games/{imp['id']}/analysis",
                                   headers={"X-Parlor-Token": imp["token"]}).json()
                        return bool(st["status"] == "running")

                    play_moves(c, args.moves, busy_posts, busy_cycles,
                               stop=lambda: not running())
                    while running():
                        time.sleep(0.5)
                    print(f"  in the server, analysis #{rep + 1}: "
                          f"{time.perf_counter() - t0:.1f} s wall (another game played "
                          "meanwhile)")
                print(f"load average now: {os.getloadavg()[0]:.2f}")
                print(f"move POST round trip, no analysis:     {ms(base_posts)}")
                print(f"move POST round trip, during analysis: {ms(busy_posts)}")
                print(f"whole move cycle (computer's reply included), no analysis:     "
                      f"{ms(base_cycles)}")
                print(f"whole move cycle (computer's reply included), during analysis: "
                      f"{ms(busy_cycles)}")
        finally:
            proc.terminate()
            try:
                proc.wait(60)  # the pools finish their current jobs first
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
