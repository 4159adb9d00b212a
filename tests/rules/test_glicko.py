"""Glicko-2 (parlor.rules.glicko) against Glickman's worked example, its no-game period and its
volatility iteration."""

from __future__ import annotations

import math

import pytest

from parlor.rules import glicko
from parlor.rules.glicko import Game, Rating, idle, new_volatility, rate

EXAMPLE_PLAYER = Rating(1500, 200, 0.06)
EXAMPLE_GAMES = [Game(Rating(1400, 30), 1.0), Game(Rating(1550, 100), 0.0),
                 Game(Rating(1700, 300), 0.0)]


def test_worked_example_ends_at_the_papers_rating_rd_and_volatility() -> None:
    new = rate(EXAMPLE_PLAYER, EXAMPLE_GAMES, tau=0.5)
    # to the printed decimals: within one unit of the paper's last printed place. The paper
    # prints 1464.06 from mu' rounded to -0.2069 (the unrounded formulas give 1464.0507), and
    # sigma' 0.05999 for 0.0599960 (cut, not rounded, to five places)
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert round(-0.2069 * glicko.SCALE + 1500, 2) == 1464.06
    assert round(new.rd, 2) == 151.52
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)
    assert math.floor(new.volatility * 10**5) / 10**5 == 0.05999


def test_worked_example_intermediate_quantities_match_the_paper() -> None:
    # steps 3 and 4 of the paper: v = 1.7785, delta = -0.4834; then mu' = -0.2069 and
    # phi' = 0.8722 on the Glicko-2 scale
    new = rate(EXAMPLE_PLAYER, EXAMPLE_GAMES)
    assert round((new.rating - 1500) / glicko.SCALE, 4) == -0.2069
    assert round(new.rd / glicko.SCALE, 4) == 0.8722
    phi = 200 / glicko.SCALE
    v, delta = 1.7785, -0.4834
    assert new_volatility(phi, 0.06, v, delta, 0.5) == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_grows_the_rd_and_keeps_rating_and_volatility() -> None:
    before = Rating(1500, 200, 0.06)
    after = rate(before, [])
    assert after == idle(before)
    assert after.rating == before.rating and after.volatility == before.volatility
    phi = 200 / glicko.SCALE
    assert after.rd == pytest.approx(math.sqrt(phi * phi + 0.06 * 0.06) * glicko.SCALE)
    assert after.rd > before.rd


def test_idle_periods_never_grow_the_rd_beyond_a_new_players() -> None:
    r = Rating(1500, 340, 0.06)
    for _ in range(2000):
        r = idle(r)
    assert r.rd == glicko.MAX_RD


@pytest.mark.parametrize("delta", [-3.0, -0.4834, 0.0, 0.4834, 3.0, 10.0])
@pytest.mark.parametrize("phi", [0.1, 1.1513, 2.0])
def test_volatility_iteration_converges_to_the_root_of_its_function(phi: float,
                                                                    delta: float) -> None:
    v, sigma, tau = 1.7785, 0.06, 0.5
    found = new_volatility(phi, sigma, v, delta, tau)
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta ** 2 - phi ** 2 - v - ex) / (2 * (phi ** 2 + v + ex) ** 2)
                - (x - a) / tau ** 2)

    x = math.log(found * found)
    # within the tolerance of the root: f changes sign across [x - 2 eps, x + 2 eps]
    assert f(x - 2 * glicko.EPSILON) * f(x + 2 * glicko.EPSILON) <= 0


def test_volatility_iteration_that_cannot_converge_raises_instead_of_guessing() -> None:
    with pytest.raises(ArithmeticError):
        new_volatility(1.1513, 0.06, 1.7785, 3.0, 0.5, max_steps=1)


def test_a_win_raises_and_a_loss_lowers_the_rating_and_both_shrink_the_rd() -> None:
    me = Rating()
    won = rate(me, [Game(Rating(1500, 60), 1.0)])
    lost = rate(me, [Game(Rating(1500, 60), 0.0)])
    drawn = rate(me, [Game(Rating(1500, 60), 0.5)])
    assert lost.rating < drawn.rating < won.rating
    assert drawn.rating == pytest.approx(1500)
    assert won.rd < me.rd and lost.rd < me.rd
