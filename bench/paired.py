"""Two matches compared on the same deals: is a change to an agent worth anything (issue 46)?

``bench/ai.py --out`` writes one JSON line per game. Two builds of an agent played against the
same opponent from the same ``--seed`` meet the same deals in the same seats with the same
agent seeds, so their games pair up one for one, and the difference of the two scores on each
deal is free of the deal's own luck (the strength of a Rlr's cards). Half of what decides a
game is still the play's randomness: on 400 deals, three builds that play alike lost 27 deals
together and at least one of them lost 158 (docs/ai.md), so a difference of 2-3 points needs
well over 1,000 paired deals to show.

    python bench/ai.py --pairs expert@iters=300:greedy --games 200 --seed 9400000 --out a.jsonl
    python bench/ai.py --pairs expert@iters=300@value=v4:greedy --games 200 --seed 9400000 \\
        --out b.jsonl
    python bench/paired.py a.jsonl b.jsonl

A game is one deal in one seating: its ``seed`` (the deal, and the agents' seeds) and the
parity of its ``index`` (odd: the first-named agent is Rlr 2). Games in only one file are
counted and left out. Each file must hold one pairing, against the same opponent.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ai import wilson  # noqa: E402  (bench/ai.py, beside this file)

#: A deal in a seating: (seed, index parity).
Key = tuple[int, int]


@dataclass(frozen=True)
class Match:
    """One file's games: the first-named agent, its opponent and its score on each deal."""

    a: str
    b: str
    scores: dict[Key, float]


@dataclass(frozen=True)
class Paired:
    """Two matches on their shared deals."""

    first: Match
    second: Match
    keys: list[Key]
    unmatched: int

    def score(self, match: Match) -> float:
        return sum(match.scores[k] for k in self.keys)

    def differences(self) -> list[float]:
        return [self.second.scores[k] - self.first.scores[k] for k in self.keys]

    def better(self) -> int:
        """Deals on which the second scored more than the first."""
        return sum(d > 0 for d in self.differences())

    def worse(self) -> int:
        return sum(d < 0 for d in self.differences())

    def mean_difference(self) -> tuple[float, float, float]:
        """The second's mean score a game minus the first's, with its 95% interval (normal
        approximation: 1.96 standard errors of the paired differences)."""
        d = self.differences()
        n = len(d)
        mean = sum(d) / n
        var = sum((x - mean) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
        half = 1.96 * math.sqrt(var / n)
        return mean, mean - half, mean + half


def load(path: Path) -> Match:
    """A ``bench/ai.py --out`` file of one pairing; a second pairing or a deal played twice in
    the same seat is an error, never silently merged."""
    games = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    if not games:
        raise ValueError(f"{path}: no games")
    pairings = {(g["a"], g["b"]) for g in games}
    if len(pairings) != 1:
        raise ValueError(f"{path}: holds {len(pairings)} pairings {sorted(pairings)}; "
                         "pair one pairing's games")
    scores: dict[Key, float] = {}
    for g in games:
        key = (int(g["seed"]), int(g["index"]) % 2)
        if key in scores:
            raise ValueError(f"{path}: seed {key[0]} played twice in the same seats")
        scores[key] = float(g["score_a"])
    (a, b), = pairings
    return Match(a, b, scores)


def pair(first: Match, second: Match) -> Paired:
    if first.b != second.b:
        raise ValueError(f"the matches have different opponents ({first.b} and {second.b}): "
                         "a paired comparison needs the same opponent on the same deals")
    keys = sorted(first.scores.keys() & second.scores.keys())
    if not keys:
        raise ValueError("the matches share no deal: play both from the same --seed")
    unmatched = len(first.scores.keys() ^ second.scores.keys())
    return Paired(first, second, keys, unmatched)


def report(p: Paired) -> str:
    n = len(p.keys)
    lines = [f"{n} deals played by both against {p.first.b}"
             + (f" ({p.unmatched} games in only one file, left out)" if p.unmatched else "")]
    for match in (p.first, p.second):
        score = p.score(match)
        lo, hi = wilson(score, n)
        lines.append(f"  {match.a:<40} {100 * score / n:5.1f}%  [{100 * lo:.1f}-{100 * hi:.1f}%]")
    mean, lo, hi = p.mean_difference()
    lines.append(f"  the second better on {p.better()} deals, worse on {p.worse()}: "
                 f"{100 * mean:+.1f} points a game (95%: {100 * lo:+.1f} to {100 * hi:+.1f})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("first", type=Path, help="bench/ai.py --out file of the baseline")
    parser.add_argument("second", type=Path, help="the same deals played by the change")
    args = parser.parse_args(argv)
    print(report(pair(load(args.first), load(args.second))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
