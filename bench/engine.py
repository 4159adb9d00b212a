#!/usr/bin/env python3
"""Random-playout throughput of the Parlor Magic engine, next to peer card-game engines.

    python bench/engine.py [--seconds N] [--repeats N] [--seed N] [--cpu N] [--engines a,b]
                           [--no-search] [--no-memory]

The unit is a *step*: every transition an engine makes, counted the same way everywhere.
A step is either a *decision* (list the legal choices of the player to act, pick one
uniformly with a seeded ``random.Random``, apply it), a *forced* step (the same with a
single legal choice: Parlor runs with ``auto`` off so that its forced steps are listed and
applied like anyone else's) or a *chance* step (OpenSpiel's chance nodes: outcomes sampled
in Python from ``chance_outcomes()`` and applied). Steps/s counts all three; decisions/s
only the first. OpenSpiel's chance nodes are also timed apart (a run of them, such as a
deal, as one span): building the outcome lists in Python costs several times a C++ player
step, and Parlor has no chance steps (its shuffles and draws happen inside its own steps and
stay in its time). So the table also shows each engine's *player* steps (decisions and
forced steps) per CPU-second outside that chance time: the strictest comparison for Parlor,
since it charges Parlor for its own chance and OpenSpiel for none of its. Both loops list
the legal choices as a fresh list and pick with the same seeded ``random.Random``; Parlor
runs with the event log off (OpenSpiel keeps none) and its public trail on (as every dealt
game records it; OpenSpiel keeps only its action history, as Parlor does too). Time is
process CPU time, in interleaved slices (every engine gets a slice
of ``--seconds``, then the next engine, for ``--repeats`` rounds, default 3), after
``--warmup`` untimed seconds of each (default 2: Parlor fills some lookup tables on first
use, mostly in late-game situations); the table shows the median round. The process is
pinned to one core. Peers (``pip install '.[bench]'``):

* rlcard's gin rummy (pure Python), through its raw game class;
* OpenSpiel (C++ behind pybind11): ``gin_rummy``, ``hearts``, ``crazy_eights``, ``euchre``,
  ``oh_hell``, all driven by the same Python loop;
* PokerKit heads-up no-limit hold'em, every automation on; the choices are fold /
  check-call / min-raise / all-in as far as the state allows.

Parlor's early game (steps 0-50 of each game) and late game (steps 400-600) are timed
separately, and a further ``--phase-games`` games time each step alone, by the phase it is
taken in: the early game is mostly Keep or Redraw, the late one mostly combat, so the table
also gives late/early at one mix of phases (what bookkeeping costs as the table fills)
beside late/early as played, and splits a step into listing the legal actions and applying
the chosen one, with the steps that reshuffle a Recycle pile (R29) counted apart: what the
late game would reach with listings as cheap as the early game's, and with no reshuffles.
Then: ISMCTS iterations per CPU-second of the search agent on fixed positions, and memory
with tracemalloc (a clone; a state at step 300 without its event log). The same early and
late steps counted in instructions, which the machine's load does not move:
``bench/instructions.py``. Which build runs
(compiled or interpreted) is printed first. A missing peer is reported and skipped.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import importlib.util
import os
import platform
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

# Runnable as a plain script from a checkout without installing the package (a PYTHONPATH
# that holds another checkout wins, for before/after comparisons).
ROOT = Path(__file__).resolve().parent.parent
if importlib.util.find_spec("parlor") is None:
    sys.path.append(str(ROOT))

INSTALL_HINT = "pip install '.[bench]'"
EARLY = (0, 50)
LATE = (400, 600)


@dataclass
class Result:
    """What one engine did in its slices."""

    games: int = 0
    decisions: int = 0
    forced: int = 0  # steps with a single legal choice
    chance: int = 0  # chance outcomes sampled and applied (OpenSpiel)
    seconds: float = 0.0  # process CPU time
    chance_seconds: float = 0.0  # of which in chance nodes sampled by the driver (OpenSpiel)
    rounds: list[float] = field(default_factory=list)  # steps/s of each round
    player_rounds: list[float] = field(default_factory=list)  # player steps/s of each round

    @property
    def steps(self) -> int:
        return self.decisions + self.forced + self.chance

    @property
    def steps_per_s(self) -> float:
        return self.steps / self.seconds if self.seconds else 0.0

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.seconds if self.seconds else 0.0


# A game player plays one whole game and returns (decisions, forced steps, chance steps,
# CPU nanoseconds spent sampling and applying chance outcomes).
GamePlayer = Callable[[], tuple[int, int, int, int]]


def play_slice(play: GamePlayer, seconds: float, res: Result) -> None:
    """Whole games until ``seconds`` of CPU time are spent (checked between games)."""
    start = time.process_time()
    now = start
    steps = players = chance_ns = 0
    while now - start < seconds:
        d, f, c, ns = play()
        res.games += 1
        res.decisions += d
        res.forced += f
        res.chance += c
        steps += d + f + c
        players += d + f
        chance_ns += ns
        now = time.process_time()
    res.seconds += now - start
    res.chance_seconds += chance_ns / 1e9
    res.rounds.append(steps / (now - start))
    res.player_rounds.append(players / (now - start - chance_ns / 1e9))


# -- the engines ------------------------------------------------------------------------------


@dataclass
class Phases:
    """Parlor's CPU time and steps in the early and late game."""

    early_steps: int = 0
    early_ns: int = 0
    late_steps: int = 0
    late_ns: int = 0

    def reset(self) -> None:
        self.early_steps = self.early_ns = self.late_steps = self.late_ns = 0


PHASES = Phases()


def parlor_player(seed: int) -> GamePlayer:
    from parlor.rules.engine import apply, legal_actions, new_game
    from parlor.rules.state import Settings

    rng = random.Random(seed)
    choice = rng.choice
    seeds: Iterator[int] = iter(range(seed, sys.maxsize))
    settings = Settings(auto=False)  # forced steps are listed and applied like decisions
    clock = time.process_time_ns
    e0, e1 = EARLY[0], EARLY[1] + 1
    l0, l1 = LATE[0], LATE[1] + 1
    at = frozenset((e0, e1, l0, l1))  # steps at which the CPU clock is read

    def play() -> tuple[int, int, int, int]:
        s = new_game(seed=next(seeds), settings=settings)
        s.log = None
        n = forced = 0
        marks: dict[int, int] = {}
        while not s.is_over:
            if n in at:
                marks[n] = clock()
            acts = legal_actions(s)
            if len(acts) == 1:
                forced += 1
            apply(s, choice(acts))
            n += 1
        marks[n] = clock()
        if e1 in marks:
            PHASES.early_steps += e1 - e0
            PHASES.early_ns += marks[e1] - marks[e0]
        if l0 in marks and n > l0:
            end = min(n, l1)
            PHASES.late_steps += end - l0
            PHASES.late_ns += marks[end] - marks[l0]
        return n - forced, forced, 0, 0

    return play


def rlcard_player(seed: int) -> GamePlayer:
    import numpy as np
    from rlcard.games.gin_rummy.game import GinRummyGame

    rng = random.Random(seed)
    choice = rng.choice
    game = GinRummyGame()
    game.np_random = np.random.RandomState(seed)  # the deal and the dealer

    def play() -> tuple[int, int, int, int]:
        game.init_game()
        n = forced = 0
        while not game.is_over():
            acts = game.judge.get_legal_actions()
            if len(acts) == 1:
                forced += 1
            game.step(choice(acts))
            n += 1
        return n - forced, forced, 0, 0

    return play


def openspiel_player(name: str) -> Callable[[int], GamePlayer]:
    def make(seed: int) -> GamePlayer:
        import pyspiel

        rng = random.Random(seed)
        choice, choices = rng.choice, rng.choices
        clock = time.process_time_ns
        game = pyspiel.load_game(name)

        def play() -> tuple[int, int, int, int]:
            s = game.new_initial_state()
            n = forced = chance = chance_ns = 0
            while not s.is_terminal():
                if s.is_chance_node():
                    # A run of chance nodes (a deal, a draw) is timed as one: building the
                    # outcome lists in Python costs more than the C++ step, and Parlor's own
                    # chance (shuffles, draws) happens inside its steps.
                    t0 = clock()
                    while s.is_chance_node():
                        outcomes = s.chance_outcomes()
                        actions = [a for a, _ in outcomes]
                        probs = [p for _, p in outcomes]
                        s.apply_action(choices(actions, probs)[0])
                        chance += 1
                    chance_ns += clock() - t0
                    continue
                acts = s.legal_actions()
                if len(acts) == 1:
                    forced += 1
                s.apply_action(choice(acts))
                n += 1
            return n - forced, forced, chance, chance_ns

        return play

    return make


def pokerkit_player(seed: int) -> GamePlayer:
    from pokerkit import Automation, NoLimitTexasHoldem

    random.seed(seed)  # PokerKit shuffles its deck with the module-level generator
    rng = random.Random(seed)
    choice = rng.choice
    automations = tuple(Automation)  # everything but the players' decisions
    big_blind = 100

    def play() -> tuple[int, int, int, int]:
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
        return n - forced, forced, 0, 0

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
    Engine("gin_rummy", "OpenSpiel gin_rummy", "pyspiel", "open_spiel",
           openspiel_player("gin_rummy")),
    Engine("hearts", "OpenSpiel hearts", "pyspiel", "open_spiel", openspiel_player("hearts")),
    Engine("crazy_eights", "OpenSpiel crazy_eights", "pyspiel", "open_spiel",
           openspiel_player("crazy_eights")),
    Engine("euchre", "OpenSpiel euchre", "pyspiel", "open_spiel", openspiel_player("euchre")),
    Engine("oh_hell", "OpenSpiel oh_hell", "pyspiel", "open_spiel", openspiel_player("oh_hell")),
    Engine("pokerkit", "PokerKit HU NLHE", "pokerkit", "pokerkit", pokerkit_player),
)
OPENSPIEL_CPP = ("hearts", "crazy_eights", "euchre", "oh_hell")


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


def make_player(engine: Engine, seed: int) -> GamePlayer | str:
    """The engine's game player (after one warm-up game), or why it cannot be measured."""
    if importlib.util.find_spec(engine.module) is None:
        return f"not installed ({INSTALL_HINT})"
    try:
        play = engine.make(seed)
    except ImportError as exc:
        return f"failed to import: {exc}"
    play()
    return play


def fmt(x: float, digits: int = 0) -> str:
    return f"{x:,.{digits}f}"


def median_rate(res: Result) -> float:
    return statistics.median(res.rounds) if res.rounds else 0.0


def median_player_rate(res: Result) -> float:
    return statistics.median(res.player_rounds) if res.player_rounds else 0.0


def print_table(rows: list[tuple[Engine, Result | str]]) -> None:
    ours = next((r for e, r in rows if e.key == "parlor" and isinstance(r, Result)), None)
    head = (f"{'engine':<24} {'version':>9} {'games':>7} {'steps/s':>10} {'(min-max)':>17} "
            f"{'decisions/s':>11} {'forced':>7} {'chance':>7} {'chance t':>8} "
            f"{'player st/s':>11} {'ours/peer':>9}")
    print(head)
    print("-" * len(head))
    for engine, res in rows:
        if isinstance(res, str):
            print(f"{engine.label:<24} {res}")
            continue
        rate = median_rate(res)
        ratio = "-"
        if ours is not None and rate:
            ratio = f"{median_rate(ours) / rate:.2f}x"
        span = f"{fmt(min(res.rounds))}-{fmt(max(res.rounds))}"
        forced = 100.0 * res.forced / res.steps if res.steps else 0.0
        chance = 100.0 * res.chance / res.steps if res.steps else 0.0
        chance_t = 100.0 * res.chance_seconds / res.seconds if res.seconds else 0.0
        print(f"{engine.label:<24} {version_of(engine.dist):>9} {res.games:>7} "
              f"{fmt(rate):>10} {span:>17} {fmt(res.decisions_per_s):>11} "
              f"{forced:>6.1f}% {chance:>6.1f}% {chance_t:>7.1f}% "
              f"{fmt(median_player_rate(res)):>11} {ratio:>9}")


def print_targets(rows: list[tuple[Engine, Result | str]]) -> None:
    results = {e.key: r for e, r in rows if isinstance(r, Result)}
    if "parlor" not in results:
        return
    names = ", ".join(k for k in OPENSPIEL_CPP if k in results)
    units = (
        ("steps/s (every step, chance too)", {k: median_rate(r) for k, r in results.items()}),
        ("player steps/s (chance sampling timed apart)",
         {k: median_player_rate(r) for k, r in results.items()}),
        ("decisions/s (forced and chance steps not counted, their time is)",
         {k: r.decisions_per_s for k, r in results.items()}),
    )
    for unit, table in units:
        ours = table["parlor"]
        cpp = [table[k] for k in OPENSPIEL_CPP if k in table]
        if cpp:
            print(f"{unit}: parlor / median of OpenSpiel {names} = "
                  f"{ours / statistics.median(cpp):.2f}x (target >= 1.0)")
        if "rlcard" in table:
            print(f"{unit}: parlor / rlcard gin-rummy = {ours / table['rlcard']:.2f}x "
                  "(target >= 3)")
    if PHASES.early_steps and PHASES.late_steps:
        early = PHASES.early_steps / PHASES.early_ns * 1e9
        late = PHASES.late_steps / PHASES.late_ns * 1e9
        print(f"parlor early game (steps {EARLY[0]}-{EARLY[1]}): {fmt(early)} steps/s; "
              f"late game (steps {LATE[0]}-{LATE[1]}): {fmt(late)} steps/s; "
              f"late/early = {late / early:.2f} (target >= 0.8)")


# -- why the late game is slower ----------------------------------------------------------------


@dataclass
class PhaseCost:
    """Steps and CPU nanoseconds of one phase (the kind of decision) in one part of the game."""

    steps: int = 0
    ns: int = 0  # the whole step: listing the legal actions and applying the one chosen
    list_ns: int = 0  # of which listing
    shuffles: int = 0  # steps that reshuffled a Recycle pile into its Draw pile (R29)
    shuffle_ns: int = 0  # their whole-step time

    def per_step(self, overhead: float) -> float:
        """Nanoseconds a step (two clock reads: one closes the listing, one the step)."""
        return self.ns / self.steps - 2 * overhead


def clock_overhead() -> float:
    """Nanoseconds one ``process_time_ns`` read adds to the span it closes (the median of
    five runs of 20,000 back-to-back reads)."""
    clock = time.process_time_ns
    runs = []
    for _ in range(5):
        t0 = clock()
        for _ in range(20_000):
            clock()
        runs.append((clock() - t0) / 20_001)
    return statistics.median(runs)


def phase_costs(seed: int, games: int) -> dict[str, dict[str, PhaseCost]]:
    """Each step of ``games`` random games timed alone, by part of the game (early, late) and
    the phase it was taken in: the same loop as :func:`parlor_player`, with a clock read after
    the listing too (so listing and applying are timed apart) and the steps that reshuffled a
    Recycle pile counted apart."""
    from parlor.rules.engine import apply, legal_actions, new_game
    from parlor.rules.state import Settings

    rng = random.Random(seed)
    settings = Settings(auto=False)
    clock = time.process_time_ns
    parts = {"early": range(*EARLY), "late": range(*LATE)}
    costs: dict[str, dict[str, PhaseCost]] = {part: {} for part in parts}
    for g in range(games):
        s = new_game(seed=seed + g, settings=settings)
        s.log = None
        n = 0
        while not s.is_over:
            name = s.phase.name
            shuffles = s.shuffles
            t0 = clock()
            legal = legal_actions(s)
            t1 = clock()
            apply(s, rng.choice(legal))
            dt = clock() - t0
            for part, span in parts.items():
                if n in span:
                    c = costs[part].setdefault(name, PhaseCost())
                    c.steps += 1
                    c.ns += dt
                    c.list_ns += t1 - t0
                    if s.shuffles != shuffles:
                        c.shuffles += 1
                        c.shuffle_ns += dt
            n += 1
    return costs


#: Steps of a phase in both parts of the game below which its costs are not compared.
FEW = 30


def print_phase_costs(seed: int, games: int) -> None:
    """The cost of a step by phase early and late, and the late/early ratio at either part's
    mix of phases: the early game is mostly Keep or Redraw, the late one mostly combat."""
    overhead = clock_overhead()
    costs = phase_costs(seed, games)
    early, late = costs["early"], costs["late"]
    n_early = sum(c.steps for c in early.values())
    n_late = sum(c.steps for c in late.values())
    print(f"parlor steps by phase ({games} games, each step timed alone, {overhead:.0f} ns of "
          "clock read taken off each):")
    print(f"  {'phase':<13} {'early share':>11} {'ns/step':>8} {'late share':>10} {'ns/step':>8}"
          f" {'late/early cost':>15}")
    for name in sorted(set(early) | set(late), key=lambda k: -late.get(k, PhaseCost()).steps):
        e, lt = early.get(name), late.get(name)
        cells = [f"{name:<13}"]
        for c, total, width in ((e, n_early, 11), (lt, n_late, 10)):
            if c is None:
                cells.append(f"{'-':>{width}} {'-':>8}")
            else:
                share = f"{100.0 * c.steps / total:.1f}%"
                cells.append(f"{share:>{width}} {c.per_step(overhead):>8.0f}")
        ratio = (f"{lt.per_step(overhead) / e.per_step(overhead):.2f}"
                 if e is not None and lt is not None and min(e.steps, lt.steps) >= FEW else "-")
        cells.append(f"{ratio:>15}")
        print("  " + " ".join(cells))
    both = [k for k in early if k in late and min(early[k].steps, late[k].steps) >= FEW]
    for label, mix, total in (("early", early, n_early), ("late", late, n_late)):
        weight = {k: mix[k].steps / total for k in both}
        e_cost = sum(weight[k] * early[k].per_step(overhead) for k in both)
        l_cost = sum(weight[k] * late[k].per_step(overhead) for k in both)
        print(f"  the same steps at the {label} game's mix of phases "
              f"({100.0 * sum(weight.values()):.0f}% of its steps): "
              f"late/early speed = {e_cost / l_cost:.2f}")
    all_e = sum(c.ns for c in early.values()) / n_early - 2 * overhead
    all_l = sum(c.ns for c in late.values()) / n_late - 2 * overhead
    print(f"  every step as played: late/early speed = {all_e / all_l:.2f}")
    print_step_parts(early, late, overhead)


def print_step_parts(early: dict[str, PhaseCost], late: dict[str, PhaseCost],
                     overhead: float) -> None:
    """Where the late game's extra cost lies: listing or applying, and the reshuffles (R29:
    a late Draw pile is short, so its Recycle pile is shuffled in often; each reshuffle seeds
    a generator from the game's reshuffle seed, which records need to replay). The last line
    is a bound on what cheaper listings alone could reach: the late game with its listings
    as cheap as the early game's, and with that and no reshuffles."""
    def parts(mix: dict[str, PhaseCost]) -> tuple[float, float, float, float]:
        steps = sum(c.steps for c in mix.values())
        listing = sum(c.list_ns for c in mix.values()) / steps - overhead
        whole = sum(c.ns for c in mix.values()) / steps - 2 * overhead
        shuffled = sum(c.shuffles for c in mix.values())
        # a reshuffling step's cost beyond an average step's, spread over every step
        extra = (sum(c.shuffle_ns for c in mix.values()) / shuffled - 2 * overhead - whole
                 if shuffled else 0.0)
        return listing, whole - listing, shuffled / steps, extra * shuffled / steps

    e_list, e_apply, e_share, e_extra = parts(early)
    l_list, l_apply, l_share, l_extra = parts(late)
    print(f"  a step's parts (ns): listing the legal actions early {e_list:.0f}, late {l_list:.0f}"
          f" (late/early cost {l_list / e_list:.2f}); choosing one and applying it early "
          f"{e_apply:.0f}, late {l_apply:.0f} ({l_apply / e_apply:.2f})")
    print(f"  steps that reshuffle a Recycle pile: early {100 * e_share:.1f}%, late "
          f"{100 * l_share:.1f}%, adding {e_extra:.0f} and {l_extra:.0f} ns to the average step")
    e_all = e_list + e_apply
    print(f"  late/early speed with late listings as cheap as early ones: "
          f"{e_all / (e_list + l_apply):.2f}; and no reshuffles in either part: "
          f"{(e_all - e_extra) / (e_list + l_apply - l_extra):.2f}")


# -- the search and memory --------------------------------------------------------------------


def search_rate(positions: int, iterations: int, seed: int) -> tuple[int, float]:
    """ISMCTS iterations and CPU seconds over ``positions`` fixed positions (a play window or
    an attack reached by random moves from seeded deals), ``iterations`` each."""
    from parlor.ai.search import SearchAgent
    from parlor.rules.engine import apply, legal_actions, new_game
    from parlor.rules.view import view

    total, cpu = 0, 0.0
    for k in range(positions):
        s = new_game(seed + k)
        s.log = None
        rng = random.Random(seed + k)
        for _ in range(20 + 7 * k):
            if s.is_over:
                break
            apply(s, rng.choice(legal_actions(s)))
        while not s.is_over and not (s.phase.name in ("WINDOW1", "ATTACK")
                                     and len(legal_actions(s)) > 1):
            apply(s, rng.choice(legal_actions(s)))
        if s.is_over:
            continue
        agent = SearchAgent(seed + k, budget=1e9, max_iterations=iterations)
        v, legal = view(s, s.actor, log=False), legal_actions(s)
        t0 = time.process_time()
        agent.explain(v, legal)
        cpu += time.process_time() - t0
        total += agent.last_iterations
    return total, cpu


def memory() -> tuple[int, int, int]:
    """Bytes (tracemalloc) of a clone at step 300, and of a whole state grown from a new game
    to step 300 with its event log off. The engine shares one immutable Action per decision
    (:func:`parlor.rules.actions.action_of`), so the game is played once untraced first:
    the second, traced run counts the state, not the process-wide Action cache filling."""
    from parlor.rules.engine import apply, legal_actions, new_game

    def grow(seed: int) -> tuple[object, int]:
        rng = random.Random(seed)
        s = new_game(seed)
        s.log = None
        n = 0
        while not s.is_over and n < 300:
            apply(s, rng.choice(legal_actions(s)))
            n += 1
        return s, n

    seed = 3
    while grow(seed)[1] < 300:  # a deal whose game lasts 300 steps
        seed += 1
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    s, n = grow(seed)
    grown = tracemalloc.get_traced_memory()[0] - base
    before = tracemalloc.get_traced_memory()[0]
    c = s.clone()  # type: ignore[attr-defined]
    clone = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    del c
    return clone, grown, n


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description="Random-playout steps/s: Parlor Magic vs peer engines, CPU time.")
    p.add_argument("--seconds", type=float, default=4.0,
                   help="CPU seconds per engine per round (default 4)")
    p.add_argument("--repeats", type=int, default=3, help="interleaved rounds (default 3)")
    p.add_argument("--warmup", type=float, default=2.0,
                   help="untimed CPU-s of play per engine before the rounds (default 2)")
    p.add_argument("--seed", type=int, default=1, help="seed of the deals and choices")
    p.add_argument("--cpu", type=int, default=None,
                   help="core to pin to (default: the last allowed core)")
    p.add_argument("--engines", default=",".join(e.key for e in ENGINES),
                   help="comma-separated subset of: " + ", ".join(e.key for e in ENGINES))
    p.add_argument("--positions", type=int, default=6, help="search positions (default 6)")
    p.add_argument("--iterations", type=int, default=300,
                   help="search iterations per position (default 300)")
    p.add_argument("--no-search", action="store_true", help="skip the search measurement")
    p.add_argument("--no-memory", action="store_true", help="skip the memory measurement")
    p.add_argument("--phase-games", type=int, default=300,
                   help="games timed step by step for the cost by phase (default 300; 0: skip)")
    args = p.parse_args(argv)
    known = {e.key for e in ENGINES}
    wanted = [k.strip() for k in args.engines.split(",") if k.strip()]
    unknown = [k for k in wanted if k not in known]
    if unknown:
        p.error(f"unknown engine(s) {', '.join(unknown)}; choose from {', '.join(sorted(known))}")
    args.engines = wanted
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    spec = importlib.util.find_spec("parlor")
    here = Path(spec.origin or "?").parent if spec else None
    found = importlib.util.find_spec("parlor.build")
    if here is not None and found is not None and Path(found.origin or "?").parent == here:
        from parlor.build import describe

        build = describe()
    else:
        build = "interpreted (a checkout from before the compiled build)"
    pinned = pin_to_one_core(args.cpu)
    print(f"Python {platform.python_version()} ({platform.python_implementation()}), {pinned}")
    print(f"parlor from {here}: "
          f"{build}")
    print(f"{args.repeats} interleaved rounds of {args.seconds:g} CPU-s per engine, after "
          f"{args.warmup:g} untimed CPU-s of each; seed {args.seed}")
    print("step = list legal choices + pick uniformly (seeded random.Random) + apply; "
          "chance steps sampled in Python")
    print()
    players: list[tuple[Engine, GamePlayer | str]] = [
        (e, make_player(e, args.seed)) for e in ENGINES if e.key in args.engines]
    results: dict[str, Result] = {e.key: Result() for e, _ in players}
    # Untimed games first: Parlor fills some tables on first use (which Enh faces expel a
    # host of given counts, which Lnds beat a Queen's side, the shared actions), mostly in
    # late-game situations, and a timed first round would charge them to its late game.
    for _engine, play in players:
        if not isinstance(play, str) and args.warmup > 0:
            play_slice(play, args.warmup, Result())
    PHASES.reset()
    for r in range(args.repeats):
        for engine, play in players:
            if isinstance(play, str):
                continue
            play_slice(play, args.seconds, results[engine.key])
        print(f"round {r + 1}/{args.repeats} done", flush=True)
    rows: list[tuple[Engine, Result | str]] = [
        (e, play if isinstance(play, str) else results[e.key]) for e, play in players]
    print()
    print_table(rows)
    print()
    print_targets(rows)
    print("steps/s (the unit of ours/peer): every step, chance steps too, per CPU-second, "
          "median round;\n  decisions/s: steps with two or more choices per CPU-second (all "
          "time), all rounds;\n  chance t: share of CPU time in chance nodes, sampled in "
          "Python (timed apart, runs of chance nodes as one);\n  player st/s: decisions and "
          "forced steps per CPU-second outside that time, median round (Parlor's own\n  "
          "chance, its shuffles and draws, is inside its steps and stays in its time).")
    print("PokerKit: a game is one hand; choices are fold/check-call/min-raise/all-in.")
    if "parlor" in args.engines and args.phase_games:
        print()
        print_phase_costs(args.seed, args.phase_games)
        print()
    if not args.no_search:
        its, cpu = search_rate(args.positions, args.iterations, args.seed)
        print(f"search: {its} ISMCTS iterations in {cpu:.2f} CPU-s = {fmt(its / cpu)} "
              f"iterations/CPU-s ({args.positions} positions, {args.iterations} each)")
    if not args.no_memory:
        clone, grown, n = memory()
        print(f"memory (tracemalloc): a clone at step {n}: {fmt(clone)} B (target <= 8 KB); "
              f"the state grown to step {n}, event log off: {fmt(grown)} B (target <= 20 KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
