#!/usr/bin/env python3
"""Decisions per second through the OpenSpiel and PettingZoo wrappers against the native API.

    python bench/research.py [--games N] [--repeats 3]

Every workload plays the same ``--games`` deals (seeds 0 …) with uniformly random legal
actions to the end (200-turn limit); one run interleaves the workloads, ``--repeats`` times,
and times each by process CPU time:

* ``native``        ``legal_actions`` + ``apply``, with the game log on (as the OpenSpiel
                    game keeps it, for information states);
* ``openspiel``     ``state.legal_actions()`` + ``state.apply_action(n)`` on ``parlor_magic``;
* ``native+view``   ``legal_actions`` + ``view(state, actor)`` + ``apply``, log off: the
                    native API when the agent observes every decision, as an RL agent does;
* ``pettingzoo``    ``env.last()`` (view tensor + action mask) + ``env.step(n)``, log off;
* ``native bare``   ``legal_actions`` + ``apply``, log off.

Ratios: openspiel against native (the same work: decisions only); pettingzoo against
native+view (the same work: a decision and an observation each step) and, for scale, against
native bare. The games differ a little between workloads (the random choice indexes lists
in different orders), so decisions/s, not time per game, is compared.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from parlor.research import env, spiel  # noqa: E402
from parlor.rules.engine import apply, legal_actions, new_game  # noqa: E402
from parlor.rules.view import view  # noqa: E402


def native(games: int, log: bool = True, observe: bool = False) -> int:
    n = 0
    for seed in range(games):
        s = new_game(seed)
        if not log:
            s.log = None
        rng = random.Random(seed)
        while not s.is_over:
            legal = legal_actions(s)
            if observe:
                view(s, s.actor, log=False)
            apply(s, rng.choice(legal))
            n += 1
    return n


def openspiel(games: int) -> int:
    game = spiel.load()
    n = 0
    for seed in range(games):
        state = game.new_initial_state()
        state.apply_action(seed)  # the deal: seed ``seed``, as new_game(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            n += 1
    return n


def pettingzoo(games: int) -> int:
    e = env()
    n = 0
    for seed in range(games):
        e.reset(seed=seed)
        rng = random.Random(seed)
        for _agent in e.agent_iter():
            obs, _reward, term, trunc, _info = e.last()
            if term or trunc:
                e.step(None)
                continue
            # a bool view of the int8 mask: numpy finds non-zeros of bools ten times faster
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"].view(bool)))))
            n += 1
    return n


WORKLOADS: dict[str, Callable[[int], int]] = {
    "native": native,
    "openspiel": openspiel,
    "native+view": lambda g: native(g, log=False, observe=True),
    "pettingzoo": pettingzoo,
    "native bare": lambda g: native(g, log=False),
}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--repeats", type=int, default=3)
    args = p.parse_args(argv)
    print(f"Python {platform.python_version()}; {args.games} random games per workload, "
          f"{args.repeats} interleaved repeats, process CPU time")
    rates: dict[str, list[float]] = {k: [] for k in WORKLOADS}
    for r in range(args.repeats):
        for name, run in WORKLOADS.items():
            t0 = time.process_time()
            n = run(args.games)
            dt = time.process_time() - t0
            rates[name].append(n / dt)
            print(f"  repeat {r + 1}: {name:<12} {n:6d} decisions {dt:6.2f} s "
                  f"{n / dt:9.0f}/s", flush=True)
    print()
    print("decisions/s (median of the repeats):")
    med = {k: statistics.median(v) for k, v in rates.items()}
    for k, v in med.items():
        print(f"  {k:<12} {v:9.0f}")
    print()
    print("cost of the wrapper (native rate / wrapper rate, per repeat; goal < 2x):")
    for wrapper, base in (("openspiel", "native"), ("pettingzoo", "native+view"),
                          ("pettingzoo", "native bare")):
        ratios = [b / w for b, w in zip(rates[base], rates[wrapper], strict=True)]
        print(f"  {wrapper} vs {base:<12} " + "  ".join(f"{x:.2f}x" for x in ratios)
              + f"   median {statistics.median(ratios):.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
