"""Rule 307.1, the reshuffle schemes: how the n-th reshuffle of a game draws its order.

Scheme 1 seeds a Mersenne Twister for every reshuffle (tests/rules/test_bookkeeping.py holds
it to ``random.shuffle``); scheme 2, every new game's, reads BLAKE2b of the reshuffle seed.
Text that names no scheme was written before scheme 2 existed and means scheme 1, so every
older record and position replays as it did."""

from __future__ import annotations

import hashlib
import math
import random
from collections import Counter
from itertools import permutations

import pytest

from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.notation import (
    PositionError,
    parse_position,
    parse_record,
    position,
    record,
    replay,
)
from parlor.rules.reshuffle import hashed_fisher_yates
from parlor.rules.seeds import DealKey
from parlor.rules.state import RESHUFFLE_HASHED, RESHUFFLE_TWISTER, Settings

from .scenario import all_but, said, setup, zone


def reference_order(seed: int, n: int, size: int) -> list[int]:
    """Scheme 2 as 307.1 words it, written plainly: a Fisher-Yates shuffle from the top,
    each index below m from the top bits of the next whole bytes of the BLAKE2b stream."""
    stream = b"".join(
        hashlib.blake2b(seed.to_bytes(16, "big") + n.to_bytes(8, "big") + b.to_bytes(8, "big"),
                        digest_size=64).digest() for b in range(64))
    cards, at = list(range(size)), 0
    for m in range(size, 1, -1):
        k = (m - 1).bit_length()
        width = (k + 7) // 8
        while True:
            if at % 64 + width > 64:  # an index never spans two blocks
                at += 64 - at % 64
            j = int.from_bytes(stream[at:at + width], "big") >> (8 * width - k)
            at += width
            if j < m:
                break
        cards[m - 1], cards[j] = cards[j], cards[m - 1]
    return cards


def shuffled(seed: int, n: int, size: int) -> list[int]:
    cards = list(range(size))
    hashed_fisher_yates(seed, n, cards)
    return cards


def played(s_seed: int | DealKey, settings: Settings) -> str:
    s = new_game(s_seed, settings)
    rng = random.Random(5)
    while not s.is_over:
        apply(s, rng.choice(legal_actions(s)))
    return record(s)


# -- which scheme a game uses -------------------------------------------------------------------


def test_307_1_a_new_game_reshuffles_by_scheme_2_and_its_record_says_so() -> None:
    text = played(9, Settings())
    assert "settings: max_turns=200 reshuffle=2\n" in text
    again = replay(text)
    assert again.settings.reshuffle == RESHUFFLE_HASHED and again.shuffles > 0
    assert record(again) == text


def test_307_1_text_that_names_no_scheme_means_scheme_1() -> None:
    assert Settings.parse("max_turns=200").reshuffle == RESHUFFLE_TWISTER
    assert Settings.parse("").reshuffle == RESHUFFLE_TWISTER
    assert parse_record("seed: 3\n")[0].reshuffle == RESHUFFLE_TWISTER
    assert parse_position("turn: 4\n").settings.reshuffle == RESHUFFLE_TWISTER
    assert str(Settings(reshuffle=RESHUFFLE_TWISTER)) == "max_turns=200"


def test_307_1_an_older_record_replays_by_scheme_1_and_a_new_one_differs() -> None:
    old = played(9, Settings(reshuffle=RESHUFFLE_TWISTER))
    assert "reshuffle" not in old.splitlines()[1]
    assert replay(old).settings.reshuffle == RESHUFFLE_TWISTER
    assert record(replay(old)) == old
    # the same deal and choices under scheme 2 part ways at the first reshuffle
    assert old.split("seed:")[1] != played(9, Settings()).split("seed:")[1]


@pytest.mark.parametrize("settings", [Settings(), Settings(reshuffle=RESHUFFLE_TWISTER),
                                      Settings(match_play=True, auto=False)])
def test_307_1_settings_and_positions_keep_their_scheme_through_text(settings: Settings) -> None:
    assert Settings.parse(str(settings)) == settings
    s = new_game(4, settings)
    assert parse_position(position(s)).settings == settings


def test_307_1_there_are_two_schemes() -> None:
    with pytest.raises(ValueError, match=r"307\.1"):
        Settings(reshuffle=3)
    for bad in ("reshuffle=0", "reshuffle=3", "reshuffle=two", "reshuffle"):
        with pytest.raises(ValueError, match=r"307\.1"):
            Settings.parse(bad)


def test_307_1_a_position_refuses_a_reshuffle_seed_no_scheme_can_key() -> None:
    for bad in ("-1 0", f"{2**128} 0", "5 -1"):
        with pytest.raises(PositionError, match=r"307\.1"):
            parse_position(f"shuffle: {bad}\n")
    with pytest.raises(ValueError, match=r"307\.1"):
        hashed_fisher_yates(2**128, 0, [1, 2])


def test_307_1_a_position_reshuffles_by_the_scheme_it_names() -> None:
    text = f"""
        settings: max_turns=200{{scheme}}
        phasing: 2
        phase: attack
        shuffle: 12 0
        1.hand: 4C
        1.recycle: 2H 3H 4H 5H 6H 7H 8H 9H 10H
        1.discard: {all_but("4C 2H 3H 4H 5H 6H 7H 8H 9H 10H")}
    """
    orders = {}
    for scheme in ("", " reshuffle=2"):
        s = setup(text.format(scheme=scheme))
        said(s, "end")
        orders[scheme] = zone(s, "drawn") + " / " + zone(s, "1.draw")
    assert orders[""] != orders[" reshuffle=2"]


# -- scheme 2 itself ------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [0, 1, 2, 3, 7, 52, 104, 255, 256, 257, 700])
def test_307_1_scheme_2_is_the_hashed_fisher_yates_it_names(size: int) -> None:
    """Past 256 cards an index takes two bytes, and a pile of 52 or more needs a second
    block more often than not: both paths are held to the plain reference."""
    for seed in (0, 1, 2**64 - 1, 2**128 - 1):
        for n in (0, 1, 17):
            assert shuffled(seed, n, size) == reference_order(seed, n, size), (seed, n, size)


def test_307_1_scheme_2_depends_on_the_seed_and_the_count_only() -> None:
    a = shuffled(77, 3, 52)
    assert a == shuffled(77, 3, 52)
    assert sorted(a) == list(range(52))
    assert len({tuple(shuffled(77, n, 52)) for n in range(20)}) == 20
    assert len({tuple(shuffled(seed, 3, 52)) for seed in range(20)}) == 20


def test_307_1_scheme_2_gives_every_order_equally_often() -> None:
    """24,000 reshuffles of four cards: each of the 24 orders about 1,000 times (a chi-square
    test with 23 degrees of freedom; 49.7 is its 0.1% point, and the seeds are fixed)."""
    counts = Counter(tuple(shuffled(2024, n, 4)) for n in range(24_000))
    assert set(counts) == set(permutations(range(4)))
    chi2 = sum((c - 1000) ** 2 / 1000 for c in counts.values())
    assert chi2 < 49.7, chi2


def test_307_1_scheme_2_sends_every_card_everywhere_alike() -> None:
    """Where each of 52 cards ends up over 5,200 reshuffles: about 100 times in each place
    (the chi-square over all 52 x 52 cells, 51 x 51 degrees of freedom, within 4 standard
    deviations of its mean)."""
    at = [[0] * 52 for _ in range(52)]
    for n in range(5200):
        for place, card in enumerate(shuffled(99, n, 52)):
            at[card][place] += 1
    chi2 = sum((c - 100) ** 2 / 100 for row in at for c in row)
    dof = 51 * 51
    assert abs(chi2 - dof) < 4 * math.sqrt(2 * dof), chi2


def test_307_1_scheme_2_orders_a_keyed_deal_from_its_own_reshuffle_seed() -> None:
    key = DealKey(bytes(range(16)))
    text = played(key, Settings())
    assert "reshuffle=2" in text
    s = replay(text)
    assert s.shuffles > 0 and record(s) == text
