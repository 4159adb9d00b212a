"""Lines of play from a position judged by the search's own rollouts, without its tree (issue 46).

A search's estimate of an action is the mean of its iterations: the tree's replies (UCB at
the opponent's nodes, exploring) and then the rollouts (the cheap policy, both Rlrs, to the
horizon), judged by the leaf evaluation. This script takes the tree away: each line is
played from a fresh determinization of the mover's view, the rollout continues it to the
search's horizon, and the leaf is judged as the search judges it (its evaluation; the
path's tally of declined drops and burned life is left out). Where the search ranks two
lines against what their rollouts say, its tree is what changes the ranking
(shared/ai-misplays.md C1: docs/ai.md).

    python bench/rollouts.py tests/ai/positions/c4_all_out_attack_at_1_life.txt \\
        --line "attack KC; done" --line "attack KC; attack JS; done" --line end
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from parlor.ai.evaluate import win_prob  # noqa: E402
from parlor.ai.greedy import settle  # noqa: E402
from parlor.ai.levels import make_agent  # noqa: E402
from parlor.ai.search import SearchAgent  # noqa: E402
from parlor.rules.engine import apply  # noqa: E402
from parlor.rules.notation import parse_position  # noqa: E402
from parlor.rules.state import OVER, State  # noqa: E402
from parlor.rules.view import view  # noqa: E402


@dataclass(frozen=True)
class Judged:
    """A line's rollouts: the mover's mean leaf estimate and the share it lost by then."""

    line: str
    value: float
    lost: float


def judge(s0: State, agent: SearchAgent, line: str, deals: int, seed: int) -> Judged:
    """``line`` (actions separated by ``;``) played by the mover of ``s0`` on ``deals``
    determinizations of its view, each rolled out as ``agent``'s search rolls out (its
    policy, epsilon and horizon) and judged by its leaf evaluation."""
    me = s0.actor
    det = agent.determinizer(view(s0, me))
    rng = random.Random(seed)
    end = s0.turn + agent.horizon
    total = 0.0
    lost = 0
    for _ in range(deals):
        s = det.deal()
        for action in (a.strip() for a in line.split(";")):
            apply(s, action)
        settle(s, end, rng, agent.epsilon, policy=agent.policy)
        # the search's leaf rule (SearchAgent._iterate), without the path's tally
        total += (win_prob(s, me, agent.weights) if agent.evaluate is None
                  else agent.evaluate(s, me))
        lost += s.phase is OVER and s.life[me] <= 0
    return Judged(line, total / deals, lost / deals)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("position", type=Path, help="a position file (docs/notation.md)")
    parser.add_argument("--line", action="append", required=True,
                        help="actions separated by ';', from the position (repeatable)")
    parser.add_argument("--spec", default="expert", help="the searching agent (default expert)")
    parser.add_argument("--deals", type=int, default=300, help="rollouts a line (default 300)")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args(argv)
    agent = make_agent(args.spec, args.seed)
    if not isinstance(agent, SearchAgent):
        parser.error(f"{args.spec}: not a searching level (strong, expert or a spec of them)")
    s0 = parse_position(args.position.read_text())
    print(f"{args.spec}: rollouts to turn {s0.turn + agent.horizon}, epsilon {agent.epsilon}, "
          f"{args.deals} deals a line, Rlr {s0.actor + 1} to move")
    for j in (judge(s0, agent, line, args.deals, args.seed) for line in args.line):
        print(f"  {j.line:<40} estimate {j.value:.3f}   lost by then {100 * j.lost:.0f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
