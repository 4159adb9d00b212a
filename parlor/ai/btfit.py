"""Bradley-Terry ratings on the Elo scale, with 95% intervals, from the games of a round robin.

The model: a player rated ``r_a`` scores ``1 / (1 + 10 ** ((r_b - r_a) / 400))`` on average
against one rated ``r_b`` (the Elo and Glicko scale: 400 points per factor of ten in the
odds), draws counting half a win each way. The ratings maximise the log-likelihood of the
scores; one player, the anchor, is held at a fixed rating (only differences are measured).
Newton's method finds the maximum (the log-likelihood is concave, and each step is halved
until it climbs), and the intervals come from the Fisher information at the maximum:
``rating ± 1.96 × its standard error``, an interval *relative to the anchor*, which has none.

Two players, one scoring 3 of 4 against the other, are ``400·log10(3) = 190.8`` apart, with a
standard error of ``400 / ln 10 / sqrt(4 · 3/4 · 1/4) = 200.6``::

    >>> fit({("a", "b"): (4, 3.0)}, anchor="b", anchor_rating=0.0)["a"].rating.__round__(1)
    190.8

A player who won (or lost) every game has no finite maximum: :class:`FitError` says who,
unless ``prior_draws`` adds that many drawn games to every pairing played (a weak prior, as
BayesElo's virtual draws, that keeps the ratings finite).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import NamedTuple

#: Elo points per natural-log unit of the odds: 400 / ln 10.
SCALE = 400 / math.log(10)
Z95 = 1.96
#: The rating the calibration gives ``random`` (bench/ratings.py): every level is measured
#: from the uniformly random player.
ANCHOR_RATING = 1000.0


class FitError(ValueError):
    """The games do not determine finite ratings (the message says why)."""


class Fitted(NamedTuple):
    rating: float
    se: float  # standard error, relative to the anchor (0 for the anchor itself)


def interval(f: Fitted) -> tuple[float, float]:
    """The 95% interval of a fitted rating."""
    return (f.rating - Z95 * f.se, f.rating + Z95 * f.se)


def expected(ra: float, rb: float) -> float:
    """The score the model expects of a player rated ``ra`` against one rated ``rb``."""
    return 1 / (1 + math.exp(-(ra - rb) / SCALE))


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``x`` with ``a x = b`` (Gaussian elimination with partial pivoting; a is small)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        if abs(m[p][c]) < 1e-300:
            raise FitError("the games do not connect every player to the anchor")
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and m[r][c] != 0.0:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def _inverse(a: list[list[float]]) -> list[list[float]]:
    n = len(a)
    cols = [_solve(a, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[cols[j][i] for j in range(n)] for i in range(n)]


def _check_separation(players: list[str], games: dict[tuple[str, str], tuple[float, float]]
                      ) -> None:
    """FitError when some player scored all or nothing of every game (no finite maximum).
    (A group of players doing so against the rest is caught by Newton not converging.)"""
    for p in players:
        total = scored = 0.0
        for (a, b), (n, s) in games.items():
            if p in (a, b):
                total += n
                scored += s if p == a else n - s
        if total and scored in (0.0, total):
            raise FitError(f"{p} scored {scored:g} of {total:g}: its rating is not finite "
                           "(give prior_draws)")


def fit(games: Mapping[tuple[str, str], tuple[float, float]], anchor: str,
        anchor_rating: float = ANCHOR_RATING, prior_draws: float = 0.0,
        iterations: int = 200) -> dict[str, Fitted]:
    """The maximum-likelihood ratings of the players of ``games``, which maps (a, b) to
    (games played, a's score), with ``anchor`` held at ``anchor_rating``."""
    r, index, cov = _maximise(games, anchor, prior_draws, iterations)
    shift = anchor_rating - r[anchor]
    return {p: Fitted(r[p] + shift, 0.0 if p == anchor else math.sqrt(cov[index[p]][index[p]]))
            for p in r}


def group_errors(games: Mapping[tuple[str, str], tuple[float, float]], anchor: str,
                 group: list[str], prior_draws: float = 0.0,
                 iterations: int = 200) -> dict[str, float]:
    """The standard error of each player of ``group`` relative to the group's mean rating:
    how well the games place it among the group, whatever the anchor's distance (which
    moves them all alike). With the group {a, b} of one game of 3 in 4, a half of
    ``a - b``'s error each."""
    _, index, cov = _maximise(games, anchor, prior_draws, iterations)
    out = {}
    for p in group:
        c = [0.0] * len(index)
        for q in group:
            if q in index:
                c[index[q]] -= 1 / len(group)
        if p in index:
            c[index[p]] += 1.0
        out[p] = math.sqrt(max(0.0, sum(c[i] * c[j] * cov[i][j]
                                        for i in range(len(c)) for j in range(len(c)))))
    return out


def _maximise(games: Mapping[tuple[str, str], tuple[float, float]], anchor: str,
              prior_draws: float, iterations: int
              ) -> tuple[dict[str, float], dict[str, int], list[list[float]]]:
    """The maximum (ratings with the anchor at 0), the free players' indices and their
    covariance (the inverse Fisher information)."""
    data = {k: (n + prior_draws, s + prior_draws / 2) for k, (n, s) in games.items() if n > 0}
    players = sorted({p for pair in data for p in pair})
    if anchor not in players:
        raise FitError(f"the anchor {anchor!r} played no game")
    _check_separation(players, data)
    free = [p for p in players if p != anchor]
    index = {p: i for i, p in enumerate(free)}
    r = {p: 0.0 for p in players}

    def loglik(x: Mapping[str, float]) -> float:
        total = 0.0
        for (a, b), (n, s) in data.items():
            d = (x[a] - x[b]) / SCALE  # log-odds of a
            total += s * -math.log1p(math.exp(-d)) + (n - s) * -math.log1p(math.exp(d))
        return total

    def gradient_hessian(x: Mapping[str, float]) -> tuple[list[float], list[list[float]]]:
        """The gradient and the negative Hessian (the Fisher information) in Elo units."""
        g = [0.0] * len(free)
        h = [[0.0] * len(free) for _ in free]
        for (a, b), (n, s) in data.items():
            p = expected(x[a], x[b])
            resid, w = (s - n * p) / SCALE, n * p * (1 - p) / SCALE ** 2
            for who, sign in ((a, 1.0), (b, -1.0)):
                if who in index:
                    g[index[who]] += sign * resid
                    h[index[who]][index[who]] += w
            if a in index and b in index:
                h[index[a]][index[b]] -= w
                h[index[b]][index[a]] -= w
        return g, h

    for _ in range(iterations):
        g, h = gradient_hessian(r)
        step = _solve(h, g)
        here, t = loglik(r), 1.0
        while True:
            trial = dict(r)
            for p, i in index.items():
                trial[p] += t * step[i]
            if loglik(trial) >= here - 1e-12 or t < 1e-6:
                break
            t /= 2
        r = trial
        if max((abs(t * x) for x in step), default=0.0) < 1e-7:
            break
    else:
        raise FitError(f"no convergence in {iterations} Newton steps (a group of players "
                       "won or lost every game against the rest: give prior_draws)")
    _, h = gradient_hessian(r)
    return r, index, _inverse(h)


__all__ = ["ANCHOR_RATING", "SCALE", "Z95", "FitError", "Fitted", "expected", "fit", "group_errors",
           "interval"]
