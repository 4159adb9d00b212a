"""The Glicko-2 rating system, exactly as Glickman's paper states it ("Example of the Glicko-2
system", Mark E. Glickman, 2013): a rating, a rating deviation (RD) and a volatility per
player, updated once per rating period from the period's games.

Pure arithmetic, no I/O: the accounts' ratings against computer levels use it (issue 43), and
any later rated play (puzzles, games between friends) can. The paper's worked example:

    >>> me = Rating(1500, 200, 0.06)
    >>> new = rate(me, [Game(Rating(1400, 30), 1.0), Game(Rating(1550, 100), 0.0),
    ...                 Game(Rating(1700, 300), 0.0)])
    >>> round(new.rating, 4), round(new.rd, 2), round(new.volatility, 7)
    (1464.0507, 151.52, 0.059996)

The paper prints 1464.06, 151.52 and 0.05999: it rounds mu' to -0.2069 before scaling back
(-0.2069 * 173.7178 + 1500 = 1464.06), and cuts sigma' to five places.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from parlor.rules.values import Value

#: The ratio between the Glicko scale and Glicko-2's internal one (step 2 of the paper).
SCALE = 173.7178
#: The rating a new player starts from, and its deviation and volatility (step 1).
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
#: The system constant τ: how much the volatility may change (the paper suggests 0.3-1.2).
TAU = 0.5
#: The convergence tolerance of the volatility iteration (step 5).
EPSILON = 0.000001
#: An RD never grows beyond a new player's: after a long absence one is as unknown as new.
MAX_RD = DEFAULT_RD


@dataclass(frozen=True, slots=True)
class Rating(Value):
    """A player's rating, its deviation (RD) and volatility σ, on the Glicko scale."""

    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY


@dataclass(frozen=True, slots=True)
class Game(Value):
    """One game of the period: the opponent's rating and the score (1 win, 0.5 draw, 0 loss)."""

    opponent: Rating
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def idle(r: Rating) -> Rating:
    """A rating period without games: the RD grows (step 6 alone), the rest stays."""
    phi = r.rd / SCALE
    grown = math.sqrt(phi * phi + r.volatility * r.volatility) * SCALE
    return Rating(r.rating, min(grown, MAX_RD), r.volatility)


def rate(r: Rating, games: Sequence[Game], tau: float = TAU) -> Rating:
    """The rating after one rating period with these games (steps 2-8 of the paper)."""
    if not games:
        return idle(r)
    mu = (r.rating - DEFAULT_RATING) / SCALE
    phi = r.rd / SCALE
    total_v = 0.0
    total_delta = 0.0
    for game in games:
        mu_j = (game.opponent.rating - DEFAULT_RATING) / SCALE
        phi_j = game.opponent.rd / SCALE
        e = _expected(mu, mu_j, phi_j)
        g = _g(phi_j)
        total_v += g * g * e * (1.0 - e)
        total_delta += g * (game.score - e)
    v = 1.0 / total_v  # step 3: the estimated variance from the games alone
    delta = v * total_delta  # step 4: the estimated improvement
    sigma = new_volatility(phi, r.volatility, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)  # step 6
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)  # step 7
    mu_new = mu + phi_new * phi_new * total_delta
    return Rating(mu_new * SCALE + DEFAULT_RATING, min(phi_new * SCALE, MAX_RD), sigma)


def new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float = TAU,
                   max_steps: int = 1000) -> float:
    """Step 5: σ' by the Illinois algorithm (the paper's regula falsi), to :data:`EPSILON`.

    The function is monotone with one root, and the Illinois steps bracket it, so it
    converges in a handful of steps; ``max_steps`` is a guard against a bug, and reaching it
    raises rather than return an unconverged number."""
    a = math.log(sigma * sigma)
    d2, p2 = delta * delta, phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (d2 - p2 - v - ex) / (2.0 * (p2 + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if d2 > p2 + v:
        big_b = math.log(d2 - p2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    for _ in range(max_steps):
        if abs(big_b - big_a) <= EPSILON:
            return math.exp(big_a / 2.0)
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    raise ArithmeticError(f"the Glicko-2 volatility did not converge in {max_steps} steps")


__all__ = ["DEFAULT_RATING", "DEFAULT_RD", "DEFAULT_VOLATILITY", "MAX_RD", "SCALE", "TAU",
           "Game", "Rating", "idle", "new_volatility", "rate"]
