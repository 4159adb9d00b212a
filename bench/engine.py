#!/usr/bin/env python3
"""Random-playout throughput of the Parlor Magic engine, next to peer card-game engines.

    python bench/engine.py [--seconds N] [--games N] [--seed N] [--cpu N] [--engines a,b]

One *decision* is the same unit everywhere: list the legal choices of the player to act,
pick one uniformly with a seeded ``random.Random``, apply it. Each engine gets the same
wall-clock budget (``--seconds``, default 10 s), one engine after the other, in one process
pinned to one core. Peers (``pip install '.[bench]'``):

* rlcard's gin rummy (pure Python), through its raw game class: ``judge.get_legal_actions()``
  then ``game.step(action)``;
* OpenSpiel's ``gin_rummy`` (C++ behind pybind11): chance nodes (the deal, the draws) are
  sampled from ``chance_outcomes()`` but are not counted as decisions;
* PokerKit heads-up no-limit hold'em, with every automation on so that only player
  decisions remain; the legal choices are fold / check-call / min-raise / all-in as far as
  ``can_fold``, ``can_check_or_call`` and ``can_complete_bet_or_raise_to`` allow.

A missing peer is reported and skipped.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import importlib.util
import os
import platform
import random
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

# Runnable as a plain script from a checkout without installing the package.
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

INSTALL_HINT = "pip install '.[bench]'"


@dataclass
class Result:
    """What one engine did within its budget."""

    games: int = 0
    decisions: int = 0
    forced: int = 0  # decisions that had a single legal choice
    chance: int = 0  # chance outcomes sampled (OpenSpiel), not counted as decisions
    seconds: float = 0.0

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.seconds if self.seconds else 0.0


# A game player plays one whole game and returns (decisions, forced decisions, chance steps).
GamePlayer = Callable[[], tuple[int, int, int]]


def measure(play: GamePlayer, seconds: float, max_games: int | None) -> Result:
    """Play whole games until the budget is spent (checked between games)."""
    play()  # warm-up game, not counted
    res = Result()
    start = time.perf_counter()
    deadline = start + seconds if seconds > 0 else float("inf")
    now = start
    while now < deadline and (max_games is None or res.games < max_games):
        d, f, c = play()
        res.games += 1
        res.decisions += d
        res.forced += f
        res.chance += c
        now = time.perf_counter()
    res.seconds = now - start
    return res


# -- the engines ------------------------------------------------------------------------------


def parlor_player(seed: int) -> GamePlayer:
    from parlor.rules.engine import apply, legal_actions, new_game

    rng = random.Random(seed)
    choice = rng.choice
    seeds: Iterator[int] = iter(range(seed, sys.maxsize))

    def play() -> tuple[int, int, int]:
        s = new_game(seed=next(seeds))
        s.log = None
        n = forced = 0
        while not s.is_over:
            acts = legal_actions(s)
            if len(acts) == 1:
                forced += 1
            apply(s, choice(acts))
            n += 1
        return n, forced, 0

    return play


def rlcard_player(seed: int) -> GamePlayer:
    import numpy as np
    from rlcard.games.gin_rummy.game import GinRummyGame

    rng = random.Random(seed)
    choice = rng.choice
    game = GinRummyGame()
    game.np_random = np.random.RandomState(seed)  # the deal and the dealer

    def play() -> tuple[int, int, int]:
        game.init_game()
        n = forced = 0
        while not game.is_over():
            acts = game.judge.get_legal_actions()
            if len(acts) == 1:
                forced += 1
            game.step(choice(acts))
            n += 1
        return n, forced, 0

    return play


def openspiel_player(seed: int) -> GamePlayer:
    import pyspiel

    rng = random.Random(seed)
    choice, choices = rng.choice, rng.choices
    game = pyspiel.load_game("gin_rummy")

    def play() -> tuple[int, int, int]:
        s = game.new_initial_state()
        n = forced = chance = 0
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                actions = [a for a, _ in outcomes]
                probs = [p for _, p in outcomes]
                s.apply_action(choices(actions, probs)[0])
                chance += 1
                continue
            acts = s.legal_actions()
            if len(acts) == 1:
                forced += 1
            s.apply_action(choice(acts))
            n += 1
        return n, forced, chance

    return play


def pokerkit_player(seed: int) -> GamePlayer:
    from pokerkit import Automation, NoLimitTexasHoldem

    random.seed(seed)  # PokerKit shuffles its deck with the module-level generator
    rng = random.Random(seed)
    choice = rng.choice
    automations = tuple(Automation)  # everything but the players' decisions
    big_blind = 100

    def play() -> tuple[int, int, int]:
        st = NoLimitTexasHoldem.create_state(
            automations,
            True,  # ante trimming
            0,  # antes
            (big_blind // 2, big_blind),  # blinds
            big_blind,  # min bet
            (200 * big_blind, 200 * big_blind),  # starting stacks
            2,  # heads-up
        )
        n = forced = 0
        while st.status:
            opts: list[int] = []  # -2 fold, -1 check/call, else raise-to amount
            if st.can_fold():
                opts.append(-2)
            if st.can_check_or_call():
                opts.append(-1)
            lo = st.min_completion_betting_or_raising_to_amount
            hi = st.max_completion_betting_or_raising_to_amount
            if lo is not None and st.can_complete_bet_or_raise_to(lo):
                opts.append(lo)
            if hi is not None and hi != lo and st.can_complete_bet_or_raise_to(hi):
                opts.append(hi)
            if len(opts) == 1:
                forced += 1
            pick = choice(opts)
            if pick == -2:
                st.fold()
            elif pick == -1:
                st.check_or_call()
            else:
                st.complete_bet_or_raise_to(pick)
            n += 1
        return n, forced, 0

    return play


@dataclass(frozen=True)
class Engine:
    key: str
    label: str
    module: str  # the import that tells whether the peer is installed
    dist: str  # the distribution name, for its version
    make: Callable[[int], GamePlayer]


ENGINES = (
    Engine("parlor", "parlor (this engine)", "parlor", "parlor-magic", parlor_player),
    Engine("rlcard", "rlcard gin-rummy", "rlcard", "rlcard", rlcard_player),
    Engine("openspiel", "OpenSpiel gin_rummy", "pyspiel", "open_spiel", openspiel_player),
    Engine("pokerkit", "PokerKit HU NLHE", "pokerkit", "pokerkit", pokerkit_player),
)


# -- running ----------------------------------------------------------------------------------


def pin_to_one_core(cpu: int | None) -> str:
    """Pin this process to one core; returns a description for the header."""
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity on this platform)"
    allowed = sorted(os.sched_getaffinity(0))
    target = allowed[-1] if cpu is None else cpu
    try:
        os.sched_setaffinity(0, {target})
    except OSError as exc:
        return f"not pinned ({exc})"
    return f"pinned to cpu {target} (of {len(allowed)} allowed)"


def version_of(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def run_engine(engine: Engine, seconds: float, games: int | None, seed: int) -> Result | str:
    """The result, or a one-line reason why the engine could not be measured."""
    try:
        play = engine.make(seed)
    except ModuleNotFoundError as exc:
        if exc.name is not None and exc.name.split(".")[0] == engine.module:
            return f"not installed ({INSTALL_HINT})"
        return f"failed to import: {exc}"
    except ImportError as exc:
        return f"failed to import: {exc}"
    return measure(play, seconds, games)


def fmt(x: float, digits: int = 0) -> str:
    return f"{x:,.{digits}f}"


def print_table(rows: list[tuple[Engine, Result | str]]) -> None:
    ours = next((r for e, r in rows if e.key == "parlor" and isinstance(r, Result)), None)
    head = (
        f"{'engine':<22} {'version':>9} {'games':>8} {'games/s':>10} {'decisions/s':>12} "
        f"{'dec/game':>9} {'forced':>7} {'ours/peer':>10}"
    )
    print(head)
    print("-" * len(head))
    for engine, res in rows:
        if isinstance(res, str):
            print(f"{engine.label:<22} {res}")
            continue
        ratio = "-"
        if ours is not None and res.decisions_per_s:
            ratio = f"{ours.decisions_per_s / res.decisions_per_s:.2f}x"
        per_game = res.decisions / res.games if res.games else 0.0
        forced = 100.0 * res.forced / res.decisions if res.decisions else 0.0
        print(
            f"{engine.label:<22} {version_of(engine.dist):>9} {res.games:>8} "
            f"{fmt(res.games_per_s, 1):>10} {fmt(res.decisions_per_s):>12} "
            f"{fmt(per_game, 1):>9} {forced:>6.1f}% {ratio:>10}"
        )


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description="Random-playout games/s and decisions/s: Parlor Magic vs peer engines."
    )
    p.add_argument("--seconds", type=float, default=10.0,
                   help="wall-clock budget per engine (default 10; 0 = no limit, needs --games)")
    p.add_argument("--games", type=int, default=None,
                   help="stop an engine after this many games if its budget is not spent yet")
    p.add_argument("--seed", type=int, default=1, help="seed of the deals and choices")
    p.add_argument("--cpu", type=int, default=None,
                   help="core to pin to (default: the last allowed core)")
    p.add_argument("--engines", default=",".join(e.key for e in ENGINES),
                   help="comma-separated subset of: " + ", ".join(e.key for e in ENGINES))
    args = p.parse_args(argv)
    if args.seconds <= 0 and args.games is None:
        p.error("--seconds 0 needs --games")
    known = {e.key for e in ENGINES}
    wanted = [k.strip() for k in args.engines.split(",") if k.strip()]
    unknown = [k for k in wanted if k not in known]
    if unknown:
        p.error(f"unknown engine(s) {', '.join(unknown)}; choose from {', '.join(sorted(known))}")
    args.engines = wanted
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    pinned = pin_to_one_core(args.cpu)
    budget = f"{args.seconds:g} s" if args.seconds > 0 else "no time limit"
    if args.games is not None:
        budget += f", at most {args.games} games"
    print(f"Python {platform.python_version()} ({platform.python_implementation()}), {pinned}")
    print(f"budget per engine: {budget}; seed {args.seed}")
    print("decision = list legal choices + pick uniformly (seeded random.Random) + apply")
    print()
    rows: list[tuple[Engine, Result | str]] = []
    for engine in ENGINES:
        if engine.key not in args.engines:
            continue
        if importlib.util.find_spec(engine.module) is None:
            res: Result | str = f"not installed ({INSTALL_HINT})"
            print(f"{engine.key}: {res}")
            rows.append((engine, res))
            continue
        print(f"{engine.key}: {engine.label} ...", end="", flush=True)
        res = run_engine(engine, args.seconds, args.games, args.seed)
        if isinstance(res, str):
            print(f" {res}")
        else:
            print(f" {res.games} games, {res.decisions} decisions in {res.seconds:.1f} s")
            if res.chance:
                print(f"    (+ {res.chance} chance outcomes sampled, not counted as decisions)")
        rows.append((engine, res))
    print()
    print_table(rows)
    print()
    print("ours/peer = our decisions/s divided by the peer's. forced = decisions with a single")
    print("legal choice (Parlor applies those itself, so it has none; rlcard and OpenSpiel")
    print("count them). OpenSpiel: chance nodes are sampled, only player decisions count.")
    print("PokerKit: a game is one hand; choices are fold/check-call/min-raise/all-in.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
