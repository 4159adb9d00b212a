#!/usr/bin/env python3
"""Calibrated ratings of the computer levels (issue 46): a round robin, a Bradley-Terry fit.

    python bench/ratings.py --games 100 --seed 1300000 [--workers 2] [--ray ADDRESS]
                            [--plan even|thrifty] [--out games.jsonl]
                            [--write parlor/ai/ratings.json]
    python bench/ratings.py --fit games.jsonl [--write parlor/ai/ratings.json]

Plays every pairing of the five levels, greedy and random (21 pairings), seats alternating
(even games the first-named agent is Rlr 1), each game dealt from its own fresh seed
(``--seed`` + 10,000 × the pairing's number + the game's index), draws counting half; then
fits Bradley-Terry ratings on the Elo scale (:mod:`parlor.ai.btfit`: Newton's method on the
log-likelihood, 95% intervals from the Fisher information) anchored so that ``random`` is
exactly :data:`parlor.ai.btfit.ANCHOR_RATING` (1000), and writes ``parlor/ai/ratings.json``
(``--write``) with the ratings, their intervals, the games and score of every pairing, the
levels' budgets, the date and the command.

The searching levels play their shipped iteration budgets with **no wall-clock cap**
(``strong@iters=400``, ``expert@iters=2000``): a calibration run is niced beside other work,
and a cap hit there would measure the machine's load, not the level. The searched decisions
that took longer than the level's cap (and would have been cut short in play) are counted and
written to the file, so the difference between the level calibrated and the level played on
a loaded server is visible.

``--plan even`` plays ``--games`` games in every pairing (the issue asks for >= 100: 2,100
games). On this machine's compiled build, one idle core: an expert game costs about 30 s
(34 s against strong), a strong one about 4 s, the others under a second; so an even run of
100 is about 20,000 core-seconds (about 3 hours on two idle cores), almost all of it the
expert's 600 games. ``--plan thrifty`` (the default) plays twice ``--games`` in the cheap
pairings, ``--games`` × :data:`THRIFTY` in the searching levels' (most in the ladder's steps,
a few where the result is foregone). The games are dealt to the workers interleaved across
pairings (:func:`tasks`), so a run stopped early (Ctrl-C, or a deadline) leaves every pairing
with its share; given the ``--out`` file of a stopped run, a run plays only the games it
lacks, and ``--fit FILE`` fits whatever a file holds (``--played`` names the command that
played them, for the file). ``--ray ADDRESS`` plays on Ray (the ``cluster`` extra) as
bench/ai.py does: the same seeds give the same games wherever they run.

Random loses (nearly) every game, and with no win at all its distance below the rest would
be infinite: the fit adds one virtual drawn game to every pairing played
(:data:`PRIOR_DRAWS`), so random's gap to the levels is a floor the prior sets, not a
measurement; the levels' distances from each other are what the games measure.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import sys
import time
from collections.abc import Iterator
from dataclasses import asdict
from multiprocessing import Pool
from pathlib import Path
from typing import TYPE_CHECKING, Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ai import Game, run_one, wilson  # noqa: E402

from parlor.ai.levels import (  # noqa: E402
    EXPERT_CAP,
    EXPERT_ITERATIONS,
    LEVEL_NAMES,
    STRONG_CAP,
    STRONG_ITERATIONS,
)
from parlor.cluster import ray_map  # noqa: E402

if TYPE_CHECKING:
    from parlor.ai.btfit import Fitted

#: The agents, weakest first as expected (the fit does not use the order).
AGENTS = ("random", "novice", "casual", "intermediate", "greedy", "strong", "expert")
#: Each searching level as it is calibrated: its shipped iterations, no clock.
SPECS = {"strong": f"strong@iters={STRONG_ITERATIONS}",
         "expert": f"expert@iters={EXPERT_ITERATIONS}"}
CAPS = {"strong": STRONG_CAP, "expert": EXPERT_CAP}
#: The thrifty plan's share of ``--games`` per pairing not played in full, chosen so that
#: the whole plan fits about an hour of a niced run on a shared two-core machine: the
#: expert's games are dear (20-35 s of a core each), and its results against the weakest
#: levels foregone; the steps of the ladder (expert-strong, strong-intermediate,
#: strong-greedy) get the most.
THRIFTY = {("expert", "strong"): 0.4, ("expert", "greedy"): 0.16,
           ("expert", "intermediate"): 0.04, ("expert", "casual"): 0.02,
           ("expert", "novice"): 0.02, ("expert", "random"): 0.02,
           ("strong", "greedy"): 0.8, ("strong", "intermediate"): 0.8,
           ("strong", "casual"): 0.1, ("strong", "novice"): 0.06, ("strong", "random"): 0.04}
#: The cheap pairings (no search on either side) play this many times ``--games``.
CHEAP_FACTOR = 2


def spec(name: str) -> str:
    return SPECS.get(name, name)


def level_of(spec_text: str) -> str:
    return spec_text.split("@", 1)[0]


def plan(games: int, kind: str) -> list[tuple[str, str, int]]:
    """(stronger-looking agent, other, games) for every pairing of AGENTS."""
    out = []
    for i, b in enumerate(AGENTS):
        for a in AGENTS[i + 1:]:
            if kind == "even":
                n = games
            elif a in SPECS:
                n = max(1, round(games * THRIFTY.get((a, b), 1.0)))
            else:
                n = games * CHEAP_FACTOR
            out.append((a, b, n))
    return out


#: Where in the run the cheap pairings' games go: all within its first fifth (they cost
#: little, about 0.1 s a game, so a run stopped early has them all), the searching levels'
#: games spread over the whole run.
CHEAP_SPAN = 0.2


def tasks(pairings: list[tuple[str, str, int]], seed: int) -> list[tuple[str, str, int, int]]:
    """bench/ai.py's run_one tasks, interleaved: game i of a pairing of n games goes at
    (i + 0.5) / n of the run (of its first :data:`CHEAP_SPAN` for a pairing that does not
    search), so a run stopped early has played every pairing in proportion."""
    keyed = []
    for k, (a, b, n) in enumerate(pairings):
        span = 1.0 if a in SPECS or b in SPECS else CHEAP_SPAN
        for i in range(n):
            keyed.append((span * (i + 0.5) / n, k, (spec(a), spec(b), i, seed + 10_000 * k)))
    return [task for _, _, task in sorted(keyed)]


def done_before(path: str) -> set[tuple[str, str, int, int]]:
    """The tasks whose games ``path`` holds already (a run resumed with the same plan and
    seed plays only the rest)."""
    if not path or not Path(path).exists():
        return set()
    return {(g["a"], g["b"], g["index"], g["seed"] - g["index"]) for g in load(path)}


def play(args: argparse.Namespace) -> list[Game]:
    done = done_before(args.out)
    jobs = [t for t in tasks(plan(args.games, args.plan), args.seed) if t not in done]
    print(f"{len(jobs)} games, seed {args.seed}, plan {args.plan}", file=sys.stderr)
    start = time.perf_counter()
    games: list[Game] = []
    out = open(args.out, "a") if args.out else None  # noqa: SIM115
    try:
        with contextlib.ExitStack() as stack:
            if args.ray is None:
                pool = stack.enter_context(Pool(args.workers))
                results: Iterator[Game] = pool.imap_unordered(run_one, jobs)
            else:
                results = ray_map(run_one, jobs, args.ray, args.workers)
            for g in results:
                games.append(g)
                if out is not None:
                    out.write(json.dumps(asdict(g)) + "\n")
                    out.flush()
                if len(games) % 50 == 0:
                    print(f"  {len(games)}/{len(jobs)} games, "
                          f"{time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        print(f"stopped after {len(games)} games", file=sys.stderr)
    finally:
        if out is not None:
            out.close()
    return games


#: Each level against the one below (issue 46: each step >= 65%).
LADDER = (("novice", "random"), ("casual", "novice"), ("intermediate", "casual"),
          ("strong", "intermediate"), ("expert", "strong"))
LADDER_STEP = 0.65
#: Virtual drawn games added to every pairing played (parlor.ai.btfit's prior): random
#: loses (nearly) every game, and without a prior its distance to the rest is infinite.
PRIOR_DRAWS = 1.0
ABOUT = ("The rating of each computer level on the Elo/Glicko scale, from a round robin of the"
         " five levels, greedy and random (bench/ratings.py, issue 46), against which an"
         " account's Glicko-2 rating is updated after a rated game (issue 43). Bradley-Terry"
         " maximum likelihood, random anchored at 1000 (it lost every game: its distance to"
         " the rest is set by the fit's prior of one drawn game a pairing, a floor, not a"
         " measurement); interval: 95%, from the Fisher information, relative to random;"
         " se_from_random: its standard error; rd: the level's standard error among the five"
         " levels (relative to their mean, random's distance left out), the deviation a rated"
         " game gives the level as an opponent. A level with rating null is uncalibrated and"
         " cannot be played rated.")


def load(path: str) -> list[dict[str, Any]]:
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def tally(games: list[dict[str, Any]]) -> dict[tuple[str, str], dict[str, float]]:
    """Per pairing (by level name, first-named first): games, wins, draws, score."""
    out: dict[tuple[str, str], dict[str, float]] = {}
    for g in games:
        t = out.setdefault((level_of(g["a"]), level_of(g["b"])),
                           {"games": 0, "wins": 0, "draws": 0, "score": 0.0})
        t["games"] += 1
        t["score"] += g["score_a"]
        t["wins"] += g["score_a"] == 1.0
        t["draws"] += g["score_a"] == 0.5
    return out


def cap_report(games: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Per searching level: its searched decisions, and how many took longer than its cap
    (in play the cap would have cut them short; here they ran their full iterations)."""
    out: dict[str, dict[str, float]] = {}
    for g in games:
        for side in ("a", "b"):
            level = level_of(g[side])
            if level in CAPS:
                times = g[f"searched_{side}"]
                r = out.setdefault(level, {"searched": 0, "over_cap": 0, "cap_s": CAPS[level]})
                r["searched"] += len(times)
                r["over_cap"] += sum(t > CAPS[level] for t in times)
    return out


def rated(f: Fitted, among: float | None = None) -> dict[str, Any]:
    """A rating for the file: its 95% interval relative to random, and ``rd``, the
    deviation a rated game uses: its error among the levels (``among``), where given."""
    from parlor.ai.btfit import interval

    low, high = interval(f)
    return {"rating": round(f.rating), "rd": round(f.se if among is None else among, 1),
            "interval": [round(low), round(high)], "se_from_random": round(f.se, 1)}


def document(games: list[dict[str, Any]], command: str) -> dict[str, Any]:
    # imported here, not above: playing needs only the levels, so the games may be played
    # by another build of the package (a compiled one) than the one that fits them
    from parlor.ai.btfit import ANCHOR_RATING, expected, fit, group_errors

    tallies = tally(games)
    scores = {k: (t["games"], t["score"]) for k, t in tallies.items()}
    ratings = fit(scores, anchor="random", anchor_rating=ANCHOR_RATING, prior_draws=PRIOR_DRAWS)
    levels = [lv for lv in LEVEL_NAMES if lv in ratings]
    among = group_errors(scores, "random", levels, prior_draws=PRIOR_DRAWS)
    pairings = []
    for (a, b), t in sorted(tallies.items(), key=lambda kv: -kv[1]["games"]):
        low, high = wilson(t["score"], int(t["games"]))
        pairings.append({"a": a, "b": b, "games": int(t["games"]), "wins": int(t["wins"]),
                         "draws": int(t["draws"]),
                         "losses": int(t["games"] - t["wins"] - t["draws"]),
                         "score": round(t["score"] / t["games"], 4),
                         "interval": [round(low, 4), round(high, 4)],
                         "expected": round(expected(ratings[a].rating, ratings[b].rating), 4)})
    seeds = [g["seed"] for g in games]
    return {
        "about": ABOUT,
        "date": datetime.date.today().isoformat(),
        "command": command,
        "anchor": {"agent": "random", "rating": ANCHOR_RATING},
        "fit": {"model": "Bradley-Terry, Elo scale (400 per factor of ten in the odds)",
                "method": "Newton on the log-likelihood (parlor.ai.btfit)",
                "interval": "95%, 1.96 standard errors from the Fisher information",
                "prior_draws": PRIOR_DRAWS, "draws": "count half"},
        "budgets": {"strong": {"iterations": STRONG_ITERATIONS, "cap_s": STRONG_CAP},
                    "expert": {"iterations": EXPERT_ITERATIONS, "cap_s": EXPERT_CAP},
                    "calibrated": "at the fixed iterations, the wall-clock cap disabled"},
        "cap": cap_report(games),
        "games": len(games),
        "seeds": [min(seeds), max(seeds)] if seeds else [],
        "levels": {lv: rated(ratings[lv], among[lv]) if lv in ratings else {"rating": None}
                   for lv in LEVEL_NAMES},
        "baselines": {b: rated(ratings[b]) for b in ("random", "greedy") if b in ratings},
        "pairings": pairings,
        "ladder": [{"level": a, "below": b, "games": p["games"], "score": p["score"],
                    "interval": p["interval"], "expected": p["expected"],
                    "holds": p["interval"][0] >= LADDER_STEP}
                   for a, b in LADDER for p in pairings if (p["a"], p["b"]) == (a, b)],
    }


def print_ladder(doc: dict[str, Any]) -> None:
    everyone = {**doc["levels"], **doc["baselines"]}
    print(f"{doc['games']} games; ratings (random = {doc['anchor']['rating']:g}, 95% interval):")
    for name, r in sorted(everyone.items(), key=lambda kv: -(kv[1]["rating"] or 0)):
        print(f"  {name:<13} {r['rating']:>5}  [{r['interval'][0]}, {r['interval'][1]}]")
    print("Pairings (score of the first; Wilson 95%; the fit's expectation):")
    for p in doc["pairings"]:
        print(f"  {p['a']:>12} vs {p['b']:<12} {p['games']:4d} games {100 * p['score']:5.1f}%"
              f" [{100 * p['interval'][0]:4.1f}-{100 * p['interval'][1]:4.1f}%]"
              f"  fit {100 * p['expected']:5.1f}%")
    print(f"Ladder (each level against the one below; holds: the interval's low end >= "
          f"{100 * LADDER_STEP:.0f}%):")
    for step in doc["ladder"]:
        print(f"  {step['level']:>12} vs {step['below']:<12} {step['games']:4d} games "
              f"{100 * step['score']:5.1f}% [{100 * step['interval'][0]:4.1f}-"
              f"{100 * step['interval'][1]:4.1f}%]  {'holds' if step['holds'] else 'not shown'}")
    for level, c in doc["cap"].items():
        print(f"  {level}: {c['over_cap']} of {c['searched']} searched decisions took longer"
              f" than its {c['cap_s']} s cap (played in full)")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=100, help="games a pairing (see --plan)")
    p.add_argument("--plan", choices=("thrifty", "even"), default="thrifty")
    p.add_argument("--seed", type=int, default=1_300_000)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--ray", default=None, metavar="ADDRESS")
    p.add_argument("--out", default="", help="append each game as a JSON line here (a run "
                   "given the file of a stopped one plays only the games it lacks)")
    p.add_argument("--fit", default="", metavar="GAMES_JSONL",
                   help="play nothing: fit the games recorded in this file")
    p.add_argument("--write", default="", metavar="RATINGS_JSON")
    p.add_argument("--played", default="", metavar="COMMAND",
                   help="with --fit: the command that played the games (for the file)")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    command = "python bench/ratings.py " + " ".join(sys.argv[1:] if argv is None else argv)
    if args.fit:
        games = load(args.fit)
    else:
        played = [asdict(g) for g in play(args)]
        games = load(args.out) if args.out else played  # with the games of a resumed run
    doc = document(games, args.played or command)
    if args.played:
        doc["fitted"] = command
    print_ladder(doc)
    if args.write:
        Path(args.write).write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

