#!/usr/bin/env python3
"""Fingerprints of seeded games: one line per game with a digest of everything observable.

    python bench/fingerprint.py [--games N] [--first SEED] [--search N] [--reshuffle 1|2]
                                > prints.txt

For each seed it plays a random game with the event log on and digests the record, every
event (kind, text, player, secret text, rule (unless ``--no-citations``) and the comparison
behind it), the legal actions at every decision and the position every 25 decisions; then
the same seed with the log off (the playouts' path), whose record must be the same.
``--search N`` adds N short games of the search agent (fixed iterations, so reproducible)
against Greedy, digesting every decision and the agents' ranked choices.

``--reshuffle 1`` deals every game under reshuffle scheme 1 (rule 307.1), for comparing
with a tree from before scheme 2, whose games all use it.

Two trees give the same lines exactly when they play the same games: used to show that a
speed change keeps behaviour (run on the old and new commit) and that the compiled build
plays as the interpreted one (``tests/test_build.py``). It imports ``parlor`` from
``sys.path`` as set by the caller (PYTHONPATH chooses the tree).
"""

from __future__ import annotations

import argparse
import hashlib
import random

from parlor.ai.greedy import GreedyAgent
from parlor.ai.search import SearchAgent
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.notation import position, record
from parlor.rules.state import Phase, Settings
from parlor.rules.view import view


def random_game(seed: int, settings: Settings | None, citations: bool = True) -> str:
    h = hashlib.sha256()
    s = new_game(seed, settings)
    rng = random.Random(seed)
    n = 0
    while not s.is_over:
        legal = legal_actions(s)
        h.update(" ".join(str(a) for a in legal).encode())
        if n % 25 == 0:
            h.update(position(s).encode())
        apply(s, rng.choice(legal))
        n += 1
    rec = record(s)
    h.update(rec.encode())
    for e in s.log or ():
        why = "" if e.why is None else f"{e.why!r} {e.why.explain()}"
        rule = e.rule if citations else ""
        h.update(f"{e.kind}|{e.text}|{e.player}|{e.secret}|{rule}|{why}\n".encode())
    quiet = new_game(seed, settings)
    quiet.log = None
    rng = random.Random(seed)
    while not quiet.is_over:
        apply(quiet, rng.choice(legal_actions(quiet)))
    assert record(quiet) == rec, f"seed {seed}: the log changes the game"
    return f"{seed} random {n} {h.hexdigest()}"


def search_game(seed: int, iterations: int, max_decisions: int, settings: Settings | None) -> str:
    """Search (fixed iterations) against Greedy; every choice list is digested."""
    h = hashlib.sha256()
    agents = (SearchAgent(seed, budget=1e9, max_iterations=iterations),
              GreedyAgent(seed + 1, samples=1))
    s = new_game(seed, settings)
    s.log = None
    n = 0
    while s.phase is not Phase.OVER and n < max_decisions:
        legal = legal_actions(s)
        p = s.actor
        choices = agents[(p + seed) % 2].explain(view(s, p, log=False), legal)
        h.update(" ".join(f"{c.action}:{c.value!r}:{c.visits}" for c in choices).encode())
        apply(s, choices[0].action)
        n += 1
    h.update(record(s).encode())
    return f"{seed} search {n} {h.hexdigest()}"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--first", type=int, default=1, help="the first seed")
    ap.add_argument("--search", type=int, default=0, help="search games to add")
    ap.add_argument("--iterations", type=int, default=24)
    ap.add_argument("--decisions", type=int, default=60, help="per search game")
    ap.add_argument("--reshuffle", type=int, choices=(1, 2), default=None,
                    help="the reshuffle scheme (default: a new game's)")
    ap.add_argument("--no-citations", action="store_true",
                    help="leave each event's rule citation out of the digest: for comparing "
                         "across a change of citations only (the events' rules became "
                         "sections of docs/rules.md in place of rulings)")
    args = ap.parse_args(argv)
    settings = None if args.reshuffle is None else Settings(reshuffle=args.reshuffle)
    import parlor.rules.engine as engine

    print(f"# engine: {engine.__spec__.origin if engine.__spec__ else engine.__file__}")
    for seed in range(args.first, args.first + args.games):
        print(random_game(seed, settings, not args.no_citations), flush=True)
    for seed in range(args.first, args.first + args.search):
        print(search_game(seed, args.iterations, args.decisions, settings), flush=True)


if __name__ == "__main__":
    main()
