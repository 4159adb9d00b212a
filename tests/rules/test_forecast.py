"""The fight's forecast (issue 41): what follows a combat decision if nobody plays another
card, played out by the engine on a state built from what the deciding Rlr sees."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.forecast import Forecast, forecast, forecasts
from parlor.rules.state import (
    ABILITY_O,
    ABILITY_P,
    ATTACK,
    BLOCK,
    BONUS,
    DOMAIN_BONUS,
    OVER,
    SPLIT,
    WINDOW1,
    WINDOW2,
    State,
)

from .scenario import cid, setup

# The fight: the computer (Rlr 2) attacks with QS under Spades trumps, and Rlr 1 blocks
# with QC/4C; the Queen of Clubs died to an outtrump, and the coach had not said so.
UNDER_SPADES = """
    phasing: 2
    phase: block
    actor: 1
    trumps: 2:5S
    1.field: QC/4C KH
    2.field: QS/3S JD
    2.hand: 2H 3H
    combat: attackers=2:QS,2:JD
"""


def test_1003_3_a_block_forecast_names_the_outtrump_its_bonus_and_the_deaths() -> None:
    f = forecast(setup(UNDER_SPADES), 0, "block QC 2:QS")
    assert f.group is not None and f.group.kind == "trump" and f.group.winner == 0
    assert f.group.bonus == 2 and f.group.explain() == (
        "QS/3S+JD outtrumps QC/4C in Spades, 3 to 0: bonus 2")
    # the Queen of Clubs takes the Queen of Spades' 2 and the bonus 2: Tgh 2, terminal (1007.2);
    # the Queen of Spades takes the Queen of Clubs' 2: terminal too
    assert set(f.terminal) == {cid("1:QC"), cid("2:QS")}
    # the Jack of Diamonds (Pwr 1) is unblocked: 1 to Rlr 1 (1005)
    assert f.life_before == (20, 20) and f.life == (19, 20)
    assert f.winner is None and not f.unblocked_assumed


def test_1005_the_declarations_close_forecasts_the_whole_declaration() -> None:
    s = setup(UNDER_SPADES)
    apply(s, "block KH 2:JD")
    f = forecast(s, 0, "done")
    # KH blocks JD alone; QS is unblocked: 2 life (1005)
    assert f.life == (18, 20)
    assert cid("2:JD") in f.terminal and cid("1:KH") in f.terminal  # outtrumped: +2 bonus


def test_1004_2_an_attack_forecast_is_unblocked_and_outranks_the_domain() -> None:
    s = setup("""
        phasing: 1
        phase: attack
        1.field: KS/4S QC
        2.field: JH
        2.domain: 2S
    """)
    f = forecast(s, 0, "attack KS")
    assert f.unblocked_assumed and f.group is None
    assert f.domain is not None and f.domain.winner == 0 and f.domain.bonus == 1
    # KS's Pwr 2 and the bonus 1 (1004.2)
    assert f.life == (20, 17)


def test_903_an_outshown_side_gains_no_bonus_and_the_forecast_says_level() -> None:
    s = setup("""
        phasing: 1
        phase: attack
        1.field: QC
        2.domain: 2S
    """)
    f = forecast(s, 0, "attack QC")
    assert f.domain is not None and f.domain.winner is None and f.domain.outshown == 0
    assert f.life == (20, 18)


def test_1201_the_forecast_says_when_the_attack_wins() -> None:
    s = setup("""
        phasing: 1
        phase: attack
        1.field: KS
        2.life: 2
    """)
    f = forecast(s, 0, "attack KS")
    assert f.winner == 0 and f.life == (20, 0)


def test_1003_2_a_split_point_forecast_places_the_points_still_to_split() -> None:
    s = setup("""
        phasing: 1
        phase: window2
        actor: 1
        1.field: KS/7S
        2.field: JH JD
        combat: attackers=1:KS blocks=2:JH>1:KS,2:JD>1:KS blocked=1:KS
    """)
    apply(s, "pass")
    assert s.phase is SPLIT
    points = s.combat.split_left if s.combat else 0
    f = forecast(s, 0, "assign 2:JH")
    # the first point goes to JH; the rest to the first blocker not yet terminal
    assert len(f.placed) == points - 1 and all(who == 0 for who, _, _ in f.placed)
    assert cid("2:JH") in f.terminal


def test_a_forecast_is_only_for_a_combat_decision_of_the_rlr_who_decides() -> None:
    s = setup(UNDER_SPADES)
    assert forecasts(s, 1) == {}
    with pytest.raises(ValueError):
        forecast(s, 1, "done")
    assert set(forecasts(s, 0)) == {str(a) for a in legal_actions(s)}


# -- never from hidden cards, and what then happens when nobody plays another card -------------


def _combat_decisions(seed: int, limit: int = 1500) -> list[State]:
    """States of a random game at which a Rlr makes a combat decision."""
    rng = random.Random(seed)
    s = new_game(seed)
    found = []
    for _ in range(limit):
        if s.phase is OVER:
            break
        legal = legal_actions(s)
        if s.combat is not None and s.phase in (ATTACK, BLOCK, SPLIT, BONUS, DOMAIN_BONUS):
            found.append(s.clone())
        apply(s, rng.choice(legal))
    return found


def _hidden_swapped(s: State, p: int, rng: random.Random) -> State:
    """``s`` with the cards ``p`` cannot see dealt again: the other Rlr's Hand and both Draw
    piles swapped among themselves (the same sizes)."""
    t = s.clone()
    q = 1 - p
    pool = [*t.hand[q], *t.draw[q]]
    rng.shuffle(pool)
    n = len(t.hand[q])
    t.hand[q], t.draw[q] = pool[:n], pool[n:]
    rng.shuffle(t.draw[p])
    t._legal = None
    return t


def _quietly(s: State, f: Forecast) -> State:
    """The real game from ``s``: the forecast's decision, then nobody plays another card;
    the points still to place go where the forecast put them."""
    t = s.clone()
    # each step taken here (the forced ones too), so that the play stops where the combat
    # ends: the game would otherwise go on by itself into the next turn
    t.settings = replace(t.settings, auto=False)
    apply(t, f.action)
    placed = list(f.placed)
    while t.phase is not OVER and t.combat is not None:
        if t.phase in (WINDOW1, WINDOW2):
            apply(t, "pass")
        elif t.phase in (ATTACK, BLOCK, ABILITY_P, ABILITY_O):
            apply(t, "done")
        else:
            who, verb, target = placed.pop(0)
            assert who == t.actor
            apply(t, next(a for a in legal_actions(t) if a.verb == verb and a.target == target))
    assert not placed
    return t


@pytest.mark.parametrize("seed", [3, 11, 29, 41, 57])
def test_the_forecast_never_reads_hidden_cards(seed: int) -> None:
    rng = random.Random(seed)
    checked = 0
    for s in _combat_decisions(seed):
        p = s.actor
        told = forecasts(s, p)
        assert told == forecasts(_hidden_swapped(s, p, rng), p)
        checked += len(told)
    assert checked, "the game had no combat decision"


@pytest.mark.parametrize("seed", [3, 11, 29, 41, 57])
def test_the_forecast_is_what_happens_when_nobody_plays_another_card(seed: int) -> None:
    checked = 0
    for s in _combat_decisions(seed):
        for f in forecasts(s, s.actor).values():
            t = _quietly(s, f)
            assert (t.life[0], t.life[1]) == f.life, f.action
            assert t.winner == f.winner
            died = {c for side in t.field for c in side if t.terminal[c] and not s.terminal[c]}
            assert set(f.terminal) == died, f.action
            checked += 1
    assert checked
