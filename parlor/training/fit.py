"""Fitting the learned evaluation with numpy (the ``train`` extra), and its weights file.

The model of :mod:`parlor.ai.value`: a logit linear in the features plus ``hidden`` tanh
units, times the draw pull near the turn limit, trained on the outcomes of
:mod:`parlor.training.selfplay` by full-batch Adam on the mean log loss.

**Starting from the hand-written evaluation.** The issue's warning is that a model fitted to
outcomes learns correlations (an Enh held in Hand goes with losing) rather than what a play
is worth: a logistic refit of the hand-written weights lowered the log loss and lost 65% of
its games. So the linear part starts at the hand-written evaluation's own coefficients
(:data:`PRIOR`: +1 for each of ``p``'s terms, -1 for the opponent's, in the units
:mod:`parlor.ai.features` uses) and its L2 penalty pulls toward them, not toward zero: the
data moves the evaluation only where the outcomes say so clearly. The tanh units start
small and are penalised toward zero.

Validation holds out every fifth game (positions of one game are never split between the
two sets); the figures written with the weights are the held-out log loss of the prior, of
the fitted model, and the share of decided games' positions it calls for the winner.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from parlor.ai.features import FEATURE_NAMES
from parlor.ai.value import FORMAT, draw_pull
from parlor.training.selfplay import PAIRINGS, Positions

Array = NDArray[np.float64]

#: The hand-written evaluation's coefficient on each feature (evaluate.score / scale in the
#: units of parlor.ai.features); 0 for the plain counts it leaves out. The opponent's Hand,
#: which the hand-written evaluation values card by card in a determinization, is a count
#: here: about one card-unit a card, 8/10 for a full Hand of eight.
_SIDE_PRIOR = {"life_value": 1.0, "field": 1.0, "lnds": 1.0, "pressure": 1.0,
               "lnd_taxed_other": -0.245, "lnd_trump": 0.1, "library": 0.1,
               "domain_rank": 0.2, "domain_trump": 0.09, "pool": -0.3}
PRIOR: dict[str, float] = {
    "group": 0.135, "hand_value": 1.0, "op_hand_count": -0.8,
    **{f"me_{k}": v for k, v in _SIDE_PRIOR.items()},
    **{f"op_{k}": -v for k, v in _SIDE_PRIOR.items()},
}


@dataclass(frozen=True)
class Settings:
    """What a training run depends on besides its data."""

    hidden: int = 0  # tanh units: none by default (a leaf as cheap as the hand-written one)
    steps: int = 1500
    learning_rate: float = 0.01
    l2_linear: float = 1e-2  # toward PRIOR
    l2_hidden: float = 1e-3  # toward zero
    holdout: int = 5  # every holdout-th game is validation


def prior_vector() -> Array:
    return np.array([PRIOR.get(n, 0.0) for n in FEATURE_NAMES], dtype=np.float64)


@dataclass
class Params:
    b: float
    w: Array
    u: Array  # hidden x features
    c: Array
    v: Array

    def logits(self, x: Array, pull: Array) -> Array:
        h = np.tanh(x @ self.u.T + self.c)
        z: Array = (self.b + x @ self.w + h @ self.v) * pull
        return z

    def rounded(self, digits: int = 6) -> Params:
        return Params(round(self.b, digits), np.round(self.w, digits), np.round(self.u, digits),
                      np.round(self.c, digits), np.round(self.v, digits))


def log_loss(z: Array, y: Array) -> float:
    """Mean binary cross-entropy of logits ``z`` against targets ``y`` (draws are 0.5)."""
    return float(np.mean(np.logaddexp(0.0, z) - y * z))


def fit(x: Array, y: Array, pull: Array, seed: int, settings: Settings) -> Params:
    """Full-batch Adam from the prior (deterministic for its seed)."""
    rng = np.random.default_rng(seed)
    n, f = x.shape
    w0 = prior_vector()
    p = Params(0.0, w0.copy(), rng.normal(0.0, 0.1, (settings.hidden, f)),
               np.zeros(settings.hidden), rng.normal(0.0, 0.01, settings.hidden))
    names = ("b", "w", "u", "c", "v")
    m: dict[str, Any] = {k: np.zeros_like(np.asarray(getattr(p, k), dtype=np.float64))
                         for k in names}
    s2: dict[str, Any] = {k: np.zeros_like(m[k]) for k in names}
    b1, b2, eps = 0.9, 0.999, 1e-8
    for t in range(1, settings.steps + 1):
        h = np.tanh(x @ p.u.T + p.c)
        z = (p.b + x @ p.w + h @ p.v) * pull
        g = (1.0 / (1.0 + np.exp(-z)) - y) * pull / n  # d loss / d raw logit
        gh = np.outer(g, p.v) * (1.0 - h * h)
        grads = {
            "b": np.asarray(g.sum()),
            "w": x.T @ g + 2.0 * settings.l2_linear * (p.w - w0),
            "u": gh.T @ x + 2.0 * settings.l2_hidden * p.u,
            "c": gh.sum(axis=0),
            "v": h.T @ g + 2.0 * settings.l2_hidden * p.v,
        }
        lr = settings.learning_rate * math.sqrt(1.0 - b2 ** t) / (1.0 - b1 ** t)
        for k in names:
            m[k] = b1 * m[k] + (1.0 - b1) * grads[k]
            s2[k] = b2 * s2[k] + (1.0 - b2) * grads[k] ** 2
            step = lr * m[k] / (np.sqrt(s2[k]) + eps)
            if k == "b":
                p.b = float(p.b - step)
            else:
                setattr(p, k, getattr(p, k) - step)
    return p


def arrays(data: Positions) -> tuple[Array, Array, Array, NDArray[np.int64]]:
    x = np.array(data.rows, dtype=np.float64).reshape(len(data.rows), len(FEATURE_NAMES))
    y = np.array(data.targets, dtype=np.float64)
    pull = np.array([draw_pull(t) for t in data.turns_left], dtype=np.float64)
    return x, y, pull, np.array(data.games, dtype=np.int64)


def check_pairings(n: int, settings: Settings) -> None:
    """ValueError if holding out every ``holdout``-th game would leave one of ``n`` pairings
    out of training: game i is played by pairing i % n, so with 5 pairings and every 5th game
    held out, the fifth pairing's games would all be validation and never learned from."""
    if math.gcd(n, settings.holdout) != 1:
        raise ValueError(f"{n} pairings: every {settings.holdout}th game is held out for "
                         "validation, so some pairings would never be trained on; use a "
                         f"number of pairings that {settings.holdout} does not divide "
                         "(repeat one)")


def train(data: Positions, seed: int, settings: Settings, command: str,
          pairings: Sequence[tuple[str, str]] = PAIRINGS) -> dict[str, Any]:
    """Fit on ``data`` (played by ``pairings``) and return the weights file's contents (see
    :mod:`parlor.ai.value`)."""
    x, y, pull, games = arrays(data)
    val = games % settings.holdout == settings.holdout - 1
    tr = ~val
    if not tr.any() or not val.any():
        raise ValueError(f"need at least {settings.holdout} games (every "
                         f"{settings.holdout}th is held out for validation)")
    check_pairings(len(pairings), settings)
    p = fit(x[tr], y[tr], pull[tr], seed, settings).rounded()
    prior = Params(0.0, prior_vector(), np.zeros((0, x.shape[1])), np.zeros(0), np.zeros(0))
    z_val = p.logits(x[val], pull[val])
    decided = y[val] != 0.5
    right = (z_val[decided] > 0) == (y[val][decided] > 0.5)
    return {
        "format": FORMAT,
        "version": 1,
        "seed": seed,
        "command": command,
        "games": int(games.max()) + 1,
        "positions": len(y),
        "pairings": [f"{a}:{b}" for a, b in pairings],
        "settings": settings.__dict__,
        "validation": {
            "positions": int(val.sum()),
            "log_loss_prior": round(log_loss(prior.logits(x[val], pull[val]), y[val]), 5),
            "log_loss": round(log_loss(z_val, y[val]), 5),
            "log_loss_train": round(log_loss(p.logits(x[tr], pull[tr]), y[tr]), 5),
            "winner_called": round(float(right.mean()), 5) if decided.any() else None,
        },
        "features": list(FEATURE_NAMES),
        "bias": p.b,
        "linear": [float(a) for a in p.w],
        "hidden": [[float(a) for a in row] for row in p.u],
        "hidden_bias": [float(a) for a in p.c],
        "out": [float(a) for a in p.v],
    }


def dumps(weights: dict[str, Any]) -> str:
    """The weights file's text (stable: the same weights, the same bytes)."""
    return json.dumps(weights, indent=1) + "\n"


__all__ = ["PRIOR", "Params", "Settings", "check_pairings", "dumps", "fit", "log_loss",
           "prior_vector", "train"]
