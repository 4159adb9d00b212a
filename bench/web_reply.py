#!/usr/bin/env python3
"""A web reply's cost early and late in a long game: the snapshot a move's reply carries.

    python bench/web_reply.py [--early 5] [--late 500] [--seed 13] [--rounds 3]
                              [--seconds 1.0]

Plays one game of random legal actions (a seeded generator, ``max_turns`` large enough to
reach ``--late``), keeps its state after ``--early`` and after ``--late`` actions, and times
what the server does for a reply at each: :meth:`Games.snapshot` for the human (the table,
its legal actions, the learning aids and the log entries from ``log_from``: the entries
the client lacks, those the last action added) and the reply's JSON encoding; likewise
:meth:`Games.spectator_snapshot`. Process CPU time (``time.process_time``), the two steps
interleaved (early, late, early, late, ...) so that the machine's noise falls on both,
``--rounds`` repeats of ``--seconds`` CPU-seconds each. Prints the median microseconds per
reply at each step and the ratio late / early (the target: at most 1.1, replies costing the
same at step 500 as at step 5).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from parlor.rules.engine import apply, legal_actions
from parlor.rules.state import State
from parlor.store import GameStore
from parlor.web.games import Games, LiveGame


def play(seed: int, steps: set[int], max_turns: int) -> tuple[dict[int, State], dict[int, int]]:
    """States after each of ``steps`` actions of one random game, and the log's length one
    action before each (what a client that saw the previous reply sends as ``log_from``)."""
    games = Games(GameStore("sqlite://"))
    live, _ = games.create("random", seed, max_turns=max_turns)
    s = live.state
    rng = random.Random(seed)
    states: dict[int, State] = {}
    log_before: dict[int, int] = {}
    for k in range(1, max(steps) + 1):
        if s.is_over:
            raise SystemExit(f"the game ended at step {k - 1}: raise --max-turns or change "
                             "--seed")
        before = len(s.log or ())
        apply(s, rng.choice(legal_actions(s)))
        if k in steps:
            states[k], log_before[k] = s.clone(), before
    return states, log_before


def live_at(games: Games, seed: int, max_turns: int, state: State) -> LiveGame:
    live, _ = games.create("random", seed, max_turns=max_turns)
    live.state = state
    return live


def per_call(fn: Callable[[], Any], seconds: float) -> float:
    """Median CPU microseconds of ``fn`` over batches filling ``seconds`` of process time."""
    n = 1
    while True:  # a batch of at least 20 ms
        t0 = time.process_time()
        for _ in range(n):
            fn()
        if time.process_time() - t0 >= 0.02:
            break
        n *= 2
    samples = []
    end = time.process_time() + seconds
    while time.process_time() < end:
        t0 = time.process_time()
        for _ in range(n):
            fn()
        samples.append((time.process_time() - t0) / n * 1e6)
    return statistics.median(samples)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--early", type=int, default=5)
    ap.add_argument("--late", type=int, default=500)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--max-turns", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=1.0)
    a = ap.parse_args()
    steps = (a.early, a.late)
    states, log_before = play(a.seed, {a.early, a.late}, a.max_turns)
    games = Games(GameStore("sqlite://"), max_cached=10)
    lives = {k: live_at(games, a.seed, a.max_turns, states[k]) for k in steps}
    print(f"seed {a.seed}: step {a.early} log {len(states[a.early].log or ())} entries, "
          f"step {a.late} log {len(states[a.late].log or ())} entries, turn "
          f"{states[a.late].turn}")

    def reply(k: int) -> Callable[[], Any]:
        return lambda: json.dumps(games.snapshot(lives[k], log_before[k]))

    def watch(k: int) -> Callable[[], Any]:
        return lambda: json.dumps(games.spectator_snapshot(lives[k], log_before[k]))

    for name, make in (("player reply", reply), ("spectator reply", watch)):
        for k in steps:  # untimed: tables filled on first use are not charged to a step
            per_call(make(k), 0.1)
        rows: dict[int, list[float]] = {k: [] for k in steps}
        for _ in range(a.rounds):
            for k in steps:  # interleaved
                rows[k].append(per_call(make(k), a.seconds))
        early = statistics.median(rows[a.early])
        late = statistics.median(rows[a.late])
        print(f"{name}: step {a.early} {early:,.0f} us "
              f"({', '.join(f'{x:,.0f}' for x in rows[a.early])}), step {a.late} "
              f"{late:,.0f} us ({', '.join(f'{x:,.0f}' for x in rows[a.late])}); "
              f"late / early {late / early:.2f}")


if __name__ == "__main__":
    main()
