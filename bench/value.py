#!/usr/bin/env python3
"""Learned evaluations compared on the same held-out positions: log loss and winner called.

    python bench/value.py --weights v2,v3 --pairing expert@iters=300:greedy --games 60 \
        --seed 5000000 --workers 2

Plays ``--games`` games of the ``--pairing``s (repeatable; the games cycle through them,
seats alternating, game i dealt from ``--seed + i``: :func:`parlor.training.selfplay.positions`,
the positions ``parlor train`` learns from, at the start of every turn from both Rlrs' views),
then judges every position with each weights file ``parlor/ai/weights/value-TAG.json`` as the
search does (:func:`parlor.ai.value.learned_win_prob`'s logit and draw pull). Use seeds no fit
was trained on (``parlor train`` plays seeds ``--seed`` to ``--seed + --games - 1``; each
weights file records its own). The figures: the mean log loss against the game's result (a
draw is 0.5) and the share of decided games' positions whose winner the estimate calls.
Log loss does not decide which evaluation plays better (a match does, bench/ai.py); it says
how well each predicts outcomes of play it was not fitted to.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from parlor.ai.value import ValueModel, draw_pull, packaged, weights_file
from parlor.training.command import pairing_arg
from parlor.training.fit import log_loss
from parlor.training.selfplay import Positions, positions


def judge(model: ValueModel, data: Positions) -> tuple[float, float]:
    """The mean log loss of ``model`` on ``data`` (the fit's own measure,
    :func:`parlor.training.fit.log_loss`) and the share of decided positions whose winner it
    calls (estimate above one half for the Rlr who won)."""
    z = np.array([model.logit(f) * draw_pull(left)
                  for f, left in zip(data.rows, data.turns_left, strict=True)])
    y = np.array(data.targets)
    decided = y != 0.5
    called = float(np.mean((z[decided] > 0) == (y[decided] > 0.5))) if decided.any() else math.nan
    return log_loss(z, y), called


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--weights", default="v1,v2", help="weights tags, comma separated")
    p.add_argument("--pairing", action="append", type=pairing_arg, metavar="A:B",
                   help="agents of the games (repeat it: the games cycle through them)")
    p.add_argument("--games", type=int, default=60)
    p.add_argument("--seed", type=int, default=5000000, help="seed of the first game's deal")
    p.add_argument("--workers", type=int, default=1)
    args = p.parse_args(argv)
    tags = [t.strip() for t in args.weights.split(",") if t.strip()]
    models = {t: packaged(weights_file(t)) for t in tags}  # refuse a missing file first
    pairings = tuple(args.pairing or (("expert@iters=300", "greedy"),))
    data = positions(args.seed, args.games, pairings, args.workers)
    names = " ".join(f"{a}:{b}" for a, b in pairings)
    print(f"{len(data.rows)} positions of {args.games} games ({names}), seeds "
          f"{args.seed}-{args.seed + args.games - 1}")
    for tag, model in models.items():
        loss, called = judge(model, data)
        print(f"  value-{tag}: log loss {loss:.4f}, winner called in {100 * called:.1f}%")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
