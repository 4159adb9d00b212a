"""Rules 100 Setup: two Rlrs at 20 life, one deck each, the stratified deal (R31) and a seeded
random first Rlr who draws as usual (106, R29)."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

from parlor.rules.cards import Kind
from parlor.rules.engine import new_game
from parlor.rules.notation import position
from parlor.rules.state import C_KIND, OWNER, Phase, Settings, State

from .scenario import texts

SEEDS = range(200)


@cache
def deal(seed: int) -> State:
    """A fresh game from ``seed`` (shared between tests, which only read it)."""
    return new_game(seed)


def kinds(cards: list[int]) -> Counter[Kind]:
    return Counter(C_KIND[c] for c in cards)


def second(s: State) -> int:
    """The Rlr who does not go first (whose deal is untouched by the first draw)."""
    return 1 - s.phasing


def test_101_each_rlr_starts_at_20_life_with_default_settings() -> None:
    s = new_game(seed=1)
    assert s.life == [20, 20]
    assert s.settings == Settings(max_turns=200, match_play=False)
    assert s.pool == [[0, 0, 0, 0], [0, 0, 0, 0]]
    assert s.turn == 1
    assert s.seed == 1


def test_102_103_the_table_starts_empty() -> None:
    s = new_game(seed=2)
    for p in (0, 1):
        assert s.home[p] == s.field[p] == s.domain[p] == []
        assert s.recycle[p] == s.discard[p] == []
    assert s.stack == []
    assert s.trump is None


def test_104_each_rlr_plays_its_own_full_deck() -> None:
    s = new_game(seed=3)
    for p in (0, 1):
        own = s.hand[p] + s.draw[p] + (s.drawn if p == s.phasing else [])
        assert sorted(own) == list(range(p * 52, p * 52 + 52))
        assert {OWNER[c] for c in own} == {p}


def test_105_r31_all_104_cards_are_placed_once() -> None:
    for seed in range(20):
        s = new_game(seed)
        cards = [c for zone in s.zones().values() for c in zone]
        assert sorted(cards) == list(range(104))


def test_105_r31_the_opening_hand_holds_only_lnds_and_enhs() -> None:
    for seed in SEEDS:
        s = deal(seed)
        for p in (0, 1):
            assert len(s.hand[p]) == 7
            assert kinds(s.hand[p])[Kind.CRE] == 0, position(s)


def test_105_r31_the_draw_pile_is_the_16_cres_and_the_other_29_cards() -> None:
    for seed in range(20):
        s = new_game(seed)
        q = second(s)
        assert len(s.draw[q]) == 45
        hand = kinds(s.hand[q])
        assert kinds(s.draw[q]) == Counter(
            {Kind.CRE: 16, Kind.ENH: 20 - hand[Kind.ENH], Kind.LND: 16 - hand[Kind.LND]})
        assert hand[Kind.ENH] + hand[Kind.LND] == 7
        # the first Rlr has already drawn two of its 45 (106)
        p = s.phasing
        assert len(s.draw[p]) == 43
        assert len(s.drawn) == 2
        assert kinds(s.draw[p] + s.drawn)[Kind.CRE] == 16


def test_105_r31_every_lnd_and_enh_can_open_and_no_cre_ever_does() -> None:
    opened: Counter[int] = Counter()
    for seed in SEEDS:
        s = deal(seed)
        for p in (0, 1):
            opened.update(c % 52 for c in s.hand[p])
    lnds_and_enhs = {f for f in range(52) if C_KIND[f] is not Kind.CRE}
    assert set(opened) == lnds_and_enhs
    assert len(lnds_and_enhs) == 36


def test_105_r31_the_cres_are_shuffled_through_the_draw_pile() -> None:
    # A Cre lies on top of the undrawn Draw pile in about 16 of 45 deals (35.6%), not never
    # (Cres put at the bottom) nor always (Cres put on top).
    piles = [deal(seed).draw[second(deal(seed))] for seed in SEEDS]
    tops = sum(C_KIND[pile[-1]] is Kind.CRE for pile in piles)
    assert 0.25 * len(SEEDS) < tops < 0.47 * len(SEEDS)
    bottoms = sum(C_KIND[pile[0]] is Kind.CRE for pile in piles)
    assert 0.25 * len(SEEDS) < bottoms < 0.47 * len(SEEDS)


def test_105_r31_the_same_seed_deals_the_same_game() -> None:
    a, b = new_game(seed=42), new_game(seed=42)
    assert position(a) == position(b)
    assert texts(a) == texts(b)


def test_105_r31_an_injected_random_source_deals_as_its_seed_does() -> None:
    assert position(new_game(rng=random.Random(42))) == position(new_game(seed=42))


def test_105_r31_different_seeds_deal_differently() -> None:
    deals = {tuple(tuple(h) for h in new_game(seed).hand) for seed in range(50)}
    assert len(deals) == 50
    draws = {tuple(new_game(seed).draw[1]) for seed in range(50)}
    assert len(draws) == 50


def test_106_the_first_rlr_is_random_but_seeded() -> None:
    firsts = [deal(seed).phasing for seed in SEEDS]
    assert firsts == [new_game(seed).phasing for seed in SEEDS]  # dealt again: the same

    assert 0.35 * len(SEEDS) < firsts.count(0) < 0.65 * len(SEEDS)


def test_106_r29_the_first_turn_is_a_normal_turn_and_the_first_rlr_draws_two() -> None:
    for seed in (1, 2):
        s = new_game(seed)
        p = s.phasing
        assert (s.turn, s.actor, s.phase) == (1, p, Phase.KEEP)
        assert len(s.drawn) == 2
        assert len(s.hand[p]) == 7
        assert len(s.hand[1 - p]) == 7
        n = p + 1
        assert texts(s) == [
            f"Each Rlr is dealt 7 cards from the Lnds and Enhs; Rlr {n} goes first",
            f"Turn 1: Rlr {n} is the phasing Rlr",
            f"Rlr {n} draws 2 cards",
        ]


def test_106_both_rlrs_can_go_first() -> None:
    s1 = next(deal(seed) for seed in SEEDS if deal(seed).phasing == 0)
    s2 = next(deal(seed) for seed in SEEDS if deal(seed).phasing == 1)
    assert texts(s1)[0].endswith("Rlr 1 goes first")
    assert texts(s2)[0].endswith("Rlr 2 goes first")
