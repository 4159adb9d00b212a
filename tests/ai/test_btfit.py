"""The Bradley-Terry fit of the calibration (parlor.ai.btfit) against cases done by hand."""

from __future__ import annotations

import math

import pytest

from parlor.ai.btfit import SCALE, FitError, expected, fit, group_errors, interval

#: 3 of 4 against one opponent: log-odds ln 3, Fisher information n·p·(1-p) = 4·3/4·1/4.
GAP = 400 * math.log10(3)
SE = SCALE / math.sqrt(4 * 0.75 * 0.25)


def test_three_wins_in_four_put_a_player_400_log10_3_above_with_the_fisher_error() -> None:
    got = fit({("a", "b"): (4, 3.0)}, anchor="b", anchor_rating=1000.0)
    assert got["b"] == (1000.0, 0.0)
    assert got["a"].rating == pytest.approx(1000 + GAP, abs=1e-6)  # 1190.85
    assert got["a"].se == pytest.approx(SE, rel=1e-6)  # 200.6
    low, high = interval(got["a"])
    assert high - low == pytest.approx(2 * 1.96 * SE, rel=1e-9)


def test_draws_count_half_a_win_each_way() -> None:
    drawn = fit({("a", "b"): (4, 2.0)}, anchor="b", anchor_rating=0.0)
    assert drawn["a"].rating == pytest.approx(0.0, abs=1e-6)
    assert fit({("a", "b"): (4, 3.0)}, "b") == fit({("a", "b"): (4, 3.0)}, "b")


def test_a_chain_adds_its_gaps_and_its_variances() -> None:
    """a beat b 3 of 4 and b beat c 3 of 4, no game a-c: the gaps add, and so do the
    variances of the two independent measurements."""
    got = fit({("a", "b"): (4, 3.0), ("b", "c"): (4, 3.0)}, anchor="c", anchor_rating=0.0)
    assert got["b"].rating == pytest.approx(GAP, abs=1e-6)
    assert got["a"].rating == pytest.approx(2 * GAP, abs=1e-6)
    assert got["a"].se == pytest.approx(math.sqrt(2) * SE, rel=1e-6)


def test_the_fitted_ratings_expect_the_scores_each_player_made() -> None:
    """At the maximum every player's expected total equals its actual total."""
    games = {("a", "b"): (30, 21.5), ("b", "c"): (40, 26.0), ("a", "c"): (20, 17.0)}
    got = fit(games, anchor="c")
    for who in "abc":
        actual = sum(s if who == a else n - s for (a, b), (n, s) in games.items()
                     if who in (a, b))
        model = sum(n * expected(got[a].rating, got[b].rating) if who == a
                    else n * (1 - expected(got[a].rating, got[b].rating))
                    for (a, b), (n, _) in games.items() if who in (a, b))
        assert model == pytest.approx(actual, abs=1e-6)


def test_a_clean_sweep_has_no_finite_rating_unless_a_prior_is_given() -> None:
    with pytest.raises(FitError, match="a scored 5 of 5"):
        fit({("a", "b"): (5, 5.0)}, anchor="b")
    one_draw = fit({("a", "b"): (5, 5.0)}, anchor="b", anchor_rating=0.0, prior_draws=1.0)
    assert one_draw["a"].rating == pytest.approx(400 * math.log10(5.5 / 0.5), abs=1e-6)


def test_an_anchor_without_games_is_refused() -> None:
    with pytest.raises(FitError, match="anchor"):
        fit({("a", "b"): (4, 3.0)}, anchor="random")


def test_an_error_within_a_group_leaves_out_the_anchors_distance() -> None:
    """a and b far from the anchor c (one win of c in 40): within {a, b} each is placed
    by the a-b games alone, half of a - b's error each (the chain's other link cancels)."""
    games = {("a", "b"): (4, 3.0), ("b", "c"): (40, 39.0)}
    errors = group_errors(games, anchor="c", group=["a", "b"])
    assert errors["a"] == pytest.approx(SE / 2, rel=1e-6)
    assert errors["b"] == pytest.approx(SE / 2, rel=1e-6)
    assert fit(games, anchor="c")["b"].se > 0  # relative to c, b's error is the b-c link's
