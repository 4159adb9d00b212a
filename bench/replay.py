#!/usr/bin/env python3
"""Replay games of a bench/ai.py match with every decision logged, and sum up the losses.

    python bench/replay.py --pair expert@iters=2000:greedy --seed 6100000 --index 0 8 18 \
        --out /tmp/replays
    python bench/replay.py --summary /tmp/replays

A game is dealt from ``seed + index`` and its agents are built with bench/ai.py's agent seeds
(``(seed + index) * 7919 + 1`` and ``+ 2``), seats alternating as there (odd indices: the
second-named agent is Rlr 1), so a searching agent at a fixed number of iterations plays the
match's game again (a level as shipped plays the same game too unless its wall-clock cap cut a
search short). ``--out DIR`` writes ``gINDEX.jsonl``: one line per decision (turn, phase,
life totals, legal actions, the action; for the first-named agent also the position text and
its five best root actions with estimates and visits), and a last line with the result.

``--summary DIR`` prints, for each replay the first-named agent lost: the turn its own
estimate first fell below 0.25, the state at turn 16 (Lnds and Cres on each side), its dead
Cres at turns 16 and 22 (Cres in Hand the Home pays for by count but not by suit,
:func:`parlor.ai.search.dead_cres`) against the opponent's, and how often each side declined
an attack it could make (docs/ai.md, "Why the expert loses to Greedy").

``--deal-quality MATCH.jsonl`` plays the first-named agent's seat of each game of a bench/ai.py
``--out`` file ``--times`` times with Greedy against Greedy (other agent seeds), and prints the
match's score on the deals grouped by how often that seat won: how much of a match's losses
the deals explain.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ai import agent_name, build_agent  # noqa: E402

from parlor.ai.levels import make_agent  # noqa: E402
from parlor.ai.match import play_game  # noqa: E402
from parlor.ai.search import dead_cres  # noqa: E402
from parlor.rules.engine import apply, legal_actions, new_game  # noqa: E402
from parlor.rules.notation import parse_position, position  # noqa: E402
from parlor.rules.state import OVER  # noqa: E402
from parlor.rules.view import view  # noqa: E402


def replay(a_spec: str, b_spec: str, base: int, index: int, out: Path) -> bool:
    """Play game ``index`` of the match again, logging it to ``out``; True if ``a`` won."""
    seed = base + index
    flip = index % 2 == 1
    a = build_agent(agent_name(a_spec), seed * 7919 + 1)
    b = build_agent(agent_name(b_spec), seed * 7919 + 2)
    seats = [b, a] if flip else [a, b]
    me = 1 if flip else 0
    s = new_game(seed)
    s.log = None
    with out.open("w") as f:
        while s.phase is not OVER:
            legal = legal_actions(s)
            p = s.actor
            agent = seats[p]
            rec: dict[str, Any] = dict(turn=s.turn, phase=s.phase.name.lower(), expert=p == me,
                                       life=[s.life[0], s.life[1]],
                                       legal=[str(x) for x in legal])
            v = view(s, p, log=False)
            if p == me and len(legal) > 1:
                rec["pos"] = position(s)
                ranked = agent.explain(v, list(legal), agent.budget)
                rec["top"] = [(str(c.action), round(c.value, 3), c.visits) for c in ranked[:5]]
                act = ranked[0].action
            else:
                act = agent.act(v, list(legal), agent.budget) if len(legal) > 1 else legal[0]
            rec["act"] = str(act)
            f.write(json.dumps(rec) + "\n")
            apply(s, act)
        f.write(json.dumps(dict(end=True, winner=s.winner, me=me, turns=s.turn)) + "\n")
    return s.winner == me


def summary(folder: Path) -> None:
    """One line per lost replay in ``folder`` (see the module's text)."""
    declined = [0, 0, 0, 0]  # a's attack options, declined; b's, declined
    for path in sorted(folder.glob("g*.jsonl"), key=lambda x: int(x.stem[1:])):
        recs = [json.loads(x) for x in path.read_text().splitlines()]
        if not recs or not recs[-1].get("end") or recs[-1]["winner"] == recs[-1]["me"]:
            continue
        me = recs[-1]["me"]
        low = next((r["turn"] for r in recs[:-1] if r.get("top") and r["phase"] != "trim"
                    and r["top"][0][1] < 0.25), None)
        at: dict[int, str] = {}
        for t in (16, 22):
            r = next((r for r in recs[:-1] if "pos" in r and r["turn"] >= t), None)
            if r is None:
                continue
            s = parse_position(r["pos"])
            at[t] = (f"t{r['turn']}: Lnds {len(s.home[me])}-{len(s.home[1 - me])}"
                     f" Cres {len(s.field[me])}-{len(s.field[1 - me])}"
                     f" dead {dead_cres(s, me)}-{dead_cres(s, 1 - me)}")
        for r in recs[:-1]:
            if r["phase"] == "attack" and "end" in r["legal"]:
                i = 0 if r["expert"] else 2
                declined[i] += 1
                declined[i + 1] += r["act"] == "end"
        print(f"{path.stem}: {recs[-1]['turns']} turns, estimate < 0.25 from turn {low};",
              "; ".join(at.values()))
    print(f"attack options declined: {declined[1]} of {declined[0]}, the opponent "
          f"{declined[3]} of {declined[2]}")


def seat_score(seed: int, seat: int, times: int) -> float:
    """How often ``seat`` of the deal ``seed`` wins, Greedy against Greedy (draws half)."""
    won = 0.0
    for k in range(times):
        a = make_agent("greedy", 1000003 * k + seed * 7919 + 11)
        b = make_agent("greedy", 1000003 * k + seed * 7919 + 12)
        r = play_game([b, a] if seat else [a, b], seed)
        won += 0.5 if r.winner is None else float(r.winner == seat)
    return won / times


def deal_quality(match: Path, times: int) -> None:
    """The match's score grouped by how often its first-named agent's seat wins the deal with
    Greedy in both seats (see the module's text)."""
    groups: dict[float, list[float]] = {}
    for line in match.read_text().splitlines():
        g = json.loads(line)
        q = seat_score(g["seed"], g["index"] % 2, times)
        groups.setdefault(q, []).append(g["score_a"])
    for q in sorted(groups):
        scores = groups[q]
        print(f"seat won {q:.0%} with Greedy: {len(scores)} deals, the match scored "
              f"{sum(scores)} ({sum(scores) / len(scores):.1%}), lost {scores.count(0.0)}")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--pair", default="expert@iters=2000:greedy", help="a:b as in bench/ai.py")
    p.add_argument("--seed", type=int, default=1000, help="the match's --seed")
    p.add_argument("--index", type=int, nargs="*", default=[], help="game indices to replay")
    p.add_argument("--out", type=Path, help="folder for the replays")
    p.add_argument("--summary", type=Path, help="sum up the lost replays in this folder")
    p.add_argument("--deal-quality", type=Path, help="a bench/ai.py --out file: its deals' "
                   "seats played Greedy against Greedy")
    p.add_argument("--times", type=int, default=4, help="games a deal for --deal-quality")
    args = p.parse_args(argv)
    if args.summary:
        summary(args.summary)
        return
    if args.deal_quality:
        deal_quality(args.deal_quality, args.times)
        return
    if args.out is None or not args.index:
        p.error("give --out and --index, or --summary")
    args.out.mkdir(parents=True, exist_ok=True)
    a, _, b = args.pair.partition(":")
    for index in args.index:
        won = replay(a, b, args.seed, index, args.out / f"g{index}.jsonl")
        print(index, "won" if won else "lost", flush=True)


if __name__ == "__main__":
    main()
