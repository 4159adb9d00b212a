#!/usr/bin/env python3
"""A web reply's cost early and late in a long game: the snapshot a move's reply carries.

    python bench/web_reply.py [--early 5] [--late 500] [--seed 13] [--rounds 3]
                              [--seconds 1.0]

Plays one game of random legal actions (a seeded generator, ``max_turns`` large enough to
reach ``--late``), keeps its state after ``--early`` and after ``--late`` actions, and times
what the server does for a reply at each: :meth:`Games.snapshot` for the human (the table,
its legal actions, the learning aids and the log entries from ``log_from``: the entries
the client lacks, those the last action added) and the reply's JSON encoding; likewise
:meth:`Games.spectator_snapshot`; and a move as :meth:`Games.act` makes it, the store's
commit aside (the same I/O at every step): the state cloned, the action applied, the
reply built and encoded. Beside them, the late state without its history (its log cut
to the entries the reply sends, its trail emptied): the same table, so that the cost the
history adds shows apart from the cost of a bigger table. Process CPU time
(``time.process_time``), the states interleaved (early, late, late without history, early,
...) so that the machine's noise falls on all, ``--rounds`` repeats of ``--seconds``
CPU-seconds each. Prints the median microseconds per reply at each, the ratio late / early
(issue 38's target: at most 1.1, replies costing the same at step 500 as at step 5) and
late / late without its history (the history's share: 1.0 when a reply renders none of it).
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

from parlor.rules.actions import Action
from parlor.rules.engine import apply, legal_actions
from parlor.rules.state import State
from parlor.store import GameStore
from parlor.web.games import Games, LiveGame


def play(seed: int, steps: set[int], max_turns: int
         ) -> tuple[dict[int, State], dict[int, State], dict[int, Action]]:
    """One random game: the state after each of ``steps`` actions, the state one action
    before it and the action that leads from one to the other."""
    games = Games(GameStore("sqlite://"))
    live, _ = games.create("random", seed, max_turns=max_turns)
    s = live.state
    rng = random.Random(seed)
    after: dict[int, State] = {}
    before: dict[int, State] = {}
    actions: dict[int, Action] = {}
    for k in range(1, max(steps) + 1):
        if s.is_over:
            raise SystemExit(f"the game ended at step {k - 1}: raise --max-turns or change "
                             "--seed")
        a = rng.choice(legal_actions(s))
        if k in steps:
            before[k], actions[k] = s.clone(), a
        apply(s, a)
        if k in steps:
            after[k] = s.clone()
    return after, before, actions


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
    after, before, actions = play(a.seed, {a.early, a.late}, a.max_turns)
    # the late table without its history: the same state, its log cut to the entries the
    # reply sends and its trail emptied, so what is left to the reply is the table itself
    bare = a.late + 1_000_000
    kept = len(after[a.late].log or ()) - len(before[a.late].log or ())
    after[bare], before[bare] = without_history(after[a.late], kept), \
        without_history(before[a.late], 0)
    actions[bare] = actions[a.late]
    steps = (a.early, a.late, bare)
    games = Games(GameStore("sqlite://"), max_cached=10)
    lives = {k: live_at(games, a.seed, a.max_turns, after[k]) for k in steps}
    log_from = {k: len(before[k].log or ()) for k in steps}  # the client has the rest
    print(f"seed {a.seed}: step {a.early} log {len(after[a.early].log or ())} entries, "
          f"step {a.late} log {len(after[a.late].log or ())} entries, turn "
          f"{after[a.late].turn}; process CPU microseconds per call, median of "
          f"{a.rounds} rounds (each round's median in brackets)")

    def reply(k: int) -> Callable[[], Any]:
        return lambda: json.dumps(games.snapshot(lives[k], log_from[k]))

    def watch(k: int) -> Callable[[], Any]:
        return lambda: json.dumps(games.spectator_snapshot(lives[k], log_from[k]))

    def move(k: int) -> Callable[[], Any]:
        def run() -> str:
            trial = before[k].clone()  # as Games.act: a trial state, the action applied
            apply(trial, actions[k])
            with lives[k].lock:
                return json.dumps(games._snapshot(lives[k], log_from[k], trial))
        return run

    names = {a.early: f"step {a.early}", a.late: f"step {a.late}",
             bare: f"step {a.late} without its history"}
    for name, make in (("player reply", reply), ("spectator reply", watch),
                       ("move (clone, apply, reply)", move)):
        for k in steps:  # untimed: tables filled on first use are not charged to a step
            per_call(make(k), 0.1)
        rows: dict[int, list[float]] = {k: [] for k in steps}
        for _ in range(a.rounds):
            for k in steps:  # interleaved
                rows[k].append(per_call(make(k), a.seconds))
        med = {k: statistics.median(rows[k]) for k in steps}
        print(f"{name}: " + "; ".join(
            f"{names[k]} {med[k]:,.0f} ({', '.join(f'{x:,.0f}' for x in rows[k])})"
            for k in steps))
        print(f"    late / early {med[a.late] / med[a.early]:.2f}; "
              f"late / late without its history {med[a.late] / med[bare]:.2f}")


def without_history(s: State, keep: int) -> State:
    """``s`` with only the last ``keep`` log entries and an empty trail."""
    t = s.clone()
    log = t.log or []
    t.log = log[len(log) - keep:]
    if t.trail is not None:
        t.trail, t.trail_shared = [], False
    return t


if __name__ == "__main__":
    main()
