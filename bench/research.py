#!/usr/bin/env python3
"""Decisions per second through the OpenSpiel and PettingZoo wrappers against the native API.

    python bench/research.py [--games N] [--repeats 3] [--early 5] [--late 500]

Every workload plays the same ``--games`` deals (seeds 0 …) with uniformly random legal
actions to the end (200-turn limit); one run interleaves the workloads, ``--repeats`` times,
and times each by process CPU time (interleaved game by game: every workload plays deal 0,
then every workload deal 1, …):

* ``native``        ``legal_actions`` + ``apply``, with the game log on (as the OpenSpiel
                    game keeps it, for information states);
* ``openspiel``     ``state.legal_actions()`` + ``state.apply_action(n)`` on ``parlor_magic``;
* ``native+view``   ``legal_actions`` + ``view(state, actor)`` + ``apply``, log off: the
                    native API when the agent observes every decision, as an RL agent does;
* ``pettingzoo``    ``env.last()`` (view tensor + action mask) + ``env.step(n)``, log off,
                    ``n`` picked from the info's ``legal_actions`` (the same legal actions
                    as the mask, as a list of numbers);
* ``pz mask pick``  the same, ``n`` picked from the mask's non-zeros (``np.flatnonzero``,
                    as PettingZoo's own ``performance_benchmark`` picks): the agent's search
                    of the 33,966-wide mask costs about as much as the observation;
* ``native bare``   ``legal_actions`` + ``apply``, log off.

Ratios: openspiel against native (the same work: decisions only); pettingzoo against
native+view (a decision and an observation each step) and against native bare (both
PettingZoo loops). The games
differ a little between workloads (the random choice indexes lists in different orders), so
decisions/s, not time per game, is compared.

The observations (interleaved with the workloads, a game's worth after each game): the
actor's observation (tensor and action mask, ``petting.observe_state``, what PettingZoo's
``observe`` and Gymnasium's ``step`` return) at the ``--span`` positions from step
``--early`` (5) and from step ``--late`` (500) of ``--observed-games`` random games with a
2,000-turn limit, ``--calls`` times each; the ratio is the late positions' CPU over the
early ones'.

Last, issue 42's three ratios against their targets: OpenSpiel <= 2x the native step,
PettingZoo <= 10x the bare engine's step, an observation at step 500 <= 1.1x one at step 5.
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

from parlor.build import describe  # noqa: E402
from parlor.research import env, spiel  # noqa: E402
from parlor.research.petting import observe_state  # noqa: E402
from parlor.rules.engine import apply, legal_actions, new_game  # noqa: E402
from parlor.rules.state import Settings, State  # noqa: E402
from parlor.rules.view import view  # noqa: E402


def native(seeds: range, log: bool = True, observe: bool = False) -> int:
    n = 0
    for seed in seeds:
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


GAME = spiel.load()


def openspiel(seeds: range) -> int:
    game = GAME
    n = 0
    for seed in seeds:
        state = game.new_initial_state()
        state.apply_action(seed)  # the deal: seed ``seed``, as new_game(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            n += 1
    return n


def pettingzoo(seeds: range, mask_pick: bool = False) -> int:
    """A random agent's loop: every step observes (``last()`` makes the tensor and the
    mask), then picks a legal action uniformly from the info's list, or with ``mask_pick``
    from the mask's non-zeros."""
    e = env()
    n = 0
    for seed in seeds:
        e.reset(seed=seed)
        rng = random.Random(seed)
        for _agent in e.agent_iter():
            obs, _reward, term, trunc, info = e.last()
            if term or trunc:
                e.step(None)
                continue
            if mask_pick:
                # a bool view of the int8 mask: numpy finds non-zeros of bools ten times
                # faster (PettingZoo's benchmark searches the int8 mask)
                e.step(int(rng.choice(np.flatnonzero(obs["action_mask"].view(bool)))))
            else:
                e.step(rng.choice(info["legal_actions"]))
            n += 1
    return n


def observed_positions(early: int, late: int, span: int, games: int,
                       max_turns: int = 2000) -> tuple[list[State], list[State]]:
    """The positions at steps ``early`` … ``early + span - 1`` and ``late`` … of ``games``
    random games (the first seeds whose game runs past ``late + span`` steps)."""
    first: list[State] = []
    second: list[State] = []
    seed = 0
    while len(first) < games * span:
        s = new_game(seed, Settings(max_turns=max_turns))
        s.log = None  # as both environments play
        rng = random.Random(seed)
        kept: list[State] = []
        for step in range(late + span):
            if s.is_over:
                break
            if early <= step < early + span or late <= step:
                kept.append(s.clone())
            apply(s, rng.choice(legal_actions(s)))
        else:
            first += kept[:span]
            second += kept[span:]
        seed += 1
    return first, second


def observation_cpu(positions: list[State], calls: int) -> float:
    """Process CPU seconds of ``calls`` observations of the actor at each position: the
    tensor and the action mask, as PettingZoo's ``observe`` and Gymnasium's ``step``
    return them (petting.observe_state)."""
    total = 0.0
    for s in positions:
        t0 = time.process_time()
        for _ in range(calls):
            observe_state(s, s.actor)
        total += time.process_time() - t0
    return total


WORKLOADS: dict[str, Callable[[range], int]] = {
    "native": native,
    "openspiel": openspiel,
    "native+view": lambda seeds: native(seeds, log=False, observe=True),
    "pettingzoo": pettingzoo,
    "pz mask pick": lambda seeds: pettingzoo(seeds, mask_pick=True),
    "native bare": lambda seeds: native(seeds, log=False),
}


#: The three targets of issue 42: (wrapper, base, most wrapper cost) for the decisions/s.
TARGETS = (("openspiel", "native", 2.0), ("pettingzoo", "native bare", 10.0))
OBSERVATION_TARGET = 1.1  # an observation's cost at step 500 / at step 5


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--early", type=int, default=5)
    p.add_argument("--late", type=int, default=500)
    p.add_argument("--span", type=int, default=10,
                   help="observed positions from each step on, per game")
    p.add_argument("--observed-games", type=int, default=4)
    p.add_argument("--calls", type=int, default=20, help="observations timed per position")
    args = p.parse_args(argv)
    early, late = observed_positions(args.early, args.late, args.span, args.observed_games)
    print(f"{describe()}; Python {platform.python_version()}; {args.games} random games per "
          f"workload, {args.repeats} interleaved repeats, process CPU time; observations at "
          f"steps {args.early}-{args.early + args.span - 1} and {args.late}-"
          f"{args.late + args.span - 1} of {args.observed_games} random games "
          f"({args.calls} a position)")
    rates: dict[str, list[float]] = {k: [] for k in WORKLOADS}
    observation: list[tuple[float, float]] = []  # (early, late) microseconds, per repeat
    span = args.span
    for r in range(args.repeats):
        # interleaved game by game, so that a change in the machine's load hits every
        # workload alike; the observations' two steps likewise, a game's worth at a time
        count = dict.fromkeys(WORKLOADS, 0)
        cpu = dict.fromkeys(WORKLOADS, 0.0)
        at = [0.0, 0.0]
        for seed in range(args.games):
            for name, run in WORKLOADS.items():
                t0 = time.process_time()
                count[name] += run(range(seed, seed + 1))
                cpu[name] += time.process_time() - t0
            g = seed % args.observed_games
            for i, positions in enumerate((early, late)):
                at[i] += observation_cpu(positions[g * span:(g + 1) * span], args.calls)
        for name in WORKLOADS:
            rates[name].append(count[name] / cpu[name])
            print(f"  repeat {r + 1}: {name:<12} {count[name]:6d} decisions {cpu[name]:6.2f} s "
                  f"{count[name] / cpu[name]:9.0f}/s", flush=True)
        calls = args.games * span * args.calls
        observation.append((at[0] / calls * 1e6, at[1] / calls * 1e6))
        print(f"  repeat {r + 1}: observation  {observation[-1][0]:6.1f} us at step "
              f"{args.early}+, {observation[-1][1]:6.1f} us at step {args.late}+", flush=True)
    print()
    print("decisions/s (median of the repeats):")
    med = {k: statistics.median(v) for k, v in rates.items()}
    for k, v in med.items():
        print(f"  {k:<12} {v:9.0f}")
    print()
    print("cost of the wrapper (native rate / wrapper rate, per repeat):")
    for wrapper, base in (("openspiel", "native"), ("pettingzoo", "native+view"),
                          ("pettingzoo", "native bare"), ("pz mask pick", "native bare")):
        ratios = [b / w for b, w in zip(rates[base], rates[wrapper], strict=True)]
        print(f"  {wrapper} vs {base:<12} " + "  ".join(f"{x:.2f}x" for x in ratios)
              + f"   median {statistics.median(ratios):.2f}x")
    print()
    print("issue 42's three ratios (median of the repeats; each repeat's in brackets):")
    for wrapper, base, target in TARGETS:
        ratios = [b / w for b, w in zip(rates[base], rates[wrapper], strict=True)]
        _verdict(f"{wrapper} / {base} step", ratios, target)
    _verdict(f"observation at step {args.late} / at step {args.early}",
             [hi / lo for lo, hi in observation], OBSERVATION_TARGET)
    return 0


def _verdict(name: str, ratios: list[float], target: float) -> None:
    m = statistics.median(ratios)
    print(f"  {'ok' if m <= target else 'OVER':4} {name}: {m:.2f}x (target <= {target}x; "
          + ", ".join(f"{x:.2f}" for x in ratios) + ")")


if __name__ == "__main__":
    sys.exit(main())
