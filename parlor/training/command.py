"""``parlor train``: regenerate the learned evaluation's weights from a seed.

    parlor train     # --seed 17 --games 2000 --steps 3000 --hidden 16: writes value-v2.json

The games are played in this process (seeded, so the same seed and game count give the same
data and the same weights, byte for byte on one machine); fitting needs numpy (the
``train`` extra: ``pip install -e '.[train]'``), and without it the command fails naming it.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from parlor.ai.levels import agent_spec
from parlor.ai.value import WEIGHTS_FILE
from parlor.training.selfplay import PAIRINGS

#: Where the package's weights live (what ``parlor train`` writes by default).
PACKAGED = Path(__file__).resolve().parent.parent / "ai" / "weights" / WEIGHTS_FILE
#: The defaults are the settings of the package's weights: ``parlor train`` rebuilds them.
DEFAULT_SEED = 17
DEFAULT_GAMES = 2000
DEFAULT_STEPS = 3000
DEFAULT_HIDDEN = 16


def _positive(text: str) -> int:
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a positive number")
    return n


def pairing_arg(text: str) -> tuple[str, str]:
    a, colon, b = text.partition(":")
    if not colon:
        raise argparse.ArgumentTypeError(f"{text!r}: write a pairing as A:B, two agent specs")
    try:
        return agent_spec(a), agent_spec(b)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def add_parser(sub: Any) -> None:
    """Register ``parlor train`` on the subparsers of the ``parlor`` command."""
    tr = sub.add_parser("train", help="train the learned evaluation from self-play",
                        description="Play self-play games, fit the learned evaluation to "
                        "their outcomes and write its weights file.")
    tr.add_argument("--seed", type=int, default=DEFAULT_SEED,
                    help=f"seed of the games and of the fit (default {DEFAULT_SEED})")
    tr.add_argument("--games", type=_positive, default=DEFAULT_GAMES, metavar="N",
                    help=f"self-play games (default {DEFAULT_GAMES})")
    tr.add_argument("--steps", type=_positive, default=DEFAULT_STEPS, metavar="N",
                    help=f"optimisation steps (default {DEFAULT_STEPS})")
    tr.add_argument("--hidden", type=int, default=DEFAULT_HIDDEN, metavar="N",
                    help=f"tanh units besides the linear part (default {DEFAULT_HIDDEN}; "
                    "0: linear)")
    tr.add_argument("--pairing", action="append", type=pairing_arg, metavar="A:B",
                    help="agents of the self-play games, as agent specs (repeat it: the games "
                    "cycle through them; default: "
                    f"{' '.join(f'{a}:{b}' for a, b in PAIRINGS)})")
    tr.add_argument("--workers", type=_positive, default=1, metavar="N",
                    help="processes playing the games (the same data however many)")
    tr.add_argument("--out", type=Path, default=PACKAGED,
                    help="the weights file to write (default: the package's, "
                    f"parlor/ai/weights/{WEIGHTS_FILE})")
    tr.set_defaults(func=cmd_train)


def command_text(args: argparse.Namespace) -> str:
    """The command that reproduces a run (the output path left out: it does not matter)."""
    pairings = "".join(f" --pairing {a}:{b}" for a, b in args.pairing or ())
    return (f"parlor train --seed {args.seed} --games {args.games} --steps {args.steps} "
            f"--hidden {args.hidden}{pairings}")


def cmd_train(args: argparse.Namespace) -> int:
    # numpy is the train extra: imported here so that `parlor` itself never needs it.
    from parlor.training.fit import Settings, check_pairings, dumps, train
    from parlor.training.selfplay import positions

    pairings = tuple(args.pairing or PAIRINGS)
    settings = Settings(hidden=args.hidden, steps=args.steps)
    try:
        check_pairings(len(pairings), settings)  # before hours of games, not after
    except ValueError as e:
        print(f"parlor train: {e}", file=sys.stderr)
        return 2
    t0 = time.perf_counter()  # wall time: with --workers the games run in other processes
    print(f"playing {args.games} self-play games from seed {args.seed} ...", flush=True)
    data = positions(args.seed, args.games, pairings, args.workers)
    print(f"{len(data.rows)} positions ({time.perf_counter() - t0:.0f} s); fitting ...",
          flush=True)
    weights = train(data, args.seed, settings, command_text(args), pairings)
    out: Path = args.out
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(dumps(weights), encoding="utf-8")
    v = weights["validation"]
    print(f"wrote {out}: held-out log loss {v['log_loss']} (the hand-written prior "
          f"{v['log_loss_prior']}), winner called on {v['winner_called']} of decided "
          f"positions; {time.perf_counter() - t0:.0f} s in all", file=sys.stdout)
    return 0


__all__ = ["DEFAULT_GAMES", "DEFAULT_HIDDEN", "DEFAULT_SEED", "DEFAULT_STEPS", "PACKAGED",
           "add_parser", "cmd_train"]
