"""Properties of the ranking calculus (903-905, R25-R26) over random entities and trumps.

Entities are Cres and Lnds with 0-3 Enhs, Domains with 0-3 Enhs, lone Enhs, and groups of
1-3 of these; the trump is None or any suit.
"""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from parlor.rules.cards import CARDS, Card, Suit
from parlor.rules.ranking import (
    EMPTY,
    RANK,
    TRUMP,
    Comparison,
    Counts,
    Entity,
    Group,
    Side,
    beats,
    compare,
    outshows,
    parse_side,
    rank_counts,
)

ENHS = [c for c in CARDS if c.is_enh]
HOSTS = [c for c in CARDS if c.is_cre or c.is_lnd]

enh_lists = st.lists(st.sampled_from(ENHS), max_size=3).map(tuple)
hosted = st.builds(Entity, st.sampled_from(HOSTS), enh_lists)
domains = st.builds(Entity, st.none(), enh_lists)
lone_enhs = st.builds(Entity, st.sampled_from(ENHS))
entities = st.one_of(hosted, domains, lone_enhs)
groups = st.lists(entities, min_size=1, max_size=3).map(lambda ms: Group(tuple(ms)))
sides: st.SearchStrategy[Side] = st.one_of(entities, groups)
trumps = st.one_of(st.none(), st.sampled_from(list(Suit)))


def _t(trump: Suit | None) -> int | None:
    return None if trump is None else int(trump)


def _without(c: Counts, trump: Suit | None) -> Counts:
    """Counts with the trump suit removed."""
    if trump is None:
        return c
    out = list(c)
    out[trump] = 0
    return (out[0], out[1], out[2], out[3])


@given(sides, sides, trumps)
def test_903_swapping_sides_swaps_the_winner(a: Side, b: Side, trump: Suit | None) -> None:
    r, s = compare(a, b, trump), compare(b, a, trump)
    assert s.winner == (None if r.winner is None else 1 - r.winner)
    assert (s.kind, s.differential, s.bonus, s.suit) == (r.kind, r.differential, r.bonus, r.suit)
    assert s.outshown == (None if r.outshown is None else 1 - r.outshown)


@given(sides, sides, trumps)
def test_904_never_both_sides_win(a: Side, b: Side, trump: Suit | None) -> None:
    t = _t(trump)
    assert not (beats(a.counts, b.counts, t) and beats(b.counts, a.counts, t))


@given(sides, sides, trumps)
def test_905_bonus_and_differential_ranges(a: Side, b: Side, trump: Suit | None) -> None:
    r = compare(a, b, trump)
    if r.winner is None:
        assert (r.kind, r.differential, r.bonus) == (None, 0, 0)
    else:
        assert r.kind in ("trump", "rank")
        assert r.differential >= 1
        assert 1 <= r.bonus <= 3
        assert r.bonus == min(3, (r.differential + 1) // 2)
        assert r.suit is not None


@given(sides, trumps, st.integers(min_value=1, max_value=3))
def test_903_1_empty_domain_is_never_ranked(a: Side, trump: Suit | None, n: int) -> None:
    empty = Entity(None)
    for other in (empty, Group((empty,) * n)):
        assert other.counts == EMPTY
        for r in (compare(a, other, trump), compare(other, a, trump)):
            assert (r.winner, r.kind, r.differential, r.bonus) == (None, None, 0, 0)


@given(sides, sides, trumps)
def test_903_explanation_of_a_win_names_suit_and_bonus(
    a: Side, b: Side, trump: Suit | None
) -> None:
    r = compare(a, b, trump)
    text = r.explain()
    if r.winner is not None:
        assert r.suit is not None
        verb = "outtrumps" if r.kind == "trump" else "outranks"
        names = (str(a), str(b))
        assert text.startswith(f"{names[r.winner]} {verb} {names[1 - r.winner]} ")
        assert f" in {r.suit.title}, " in text
        assert text.endswith(f": bonus {r.bonus}")
    else:
        assert " are level" in text


@given(sides, sides, trumps)
def test_903_2_trump_winner_is_decided_in_the_trump_suit(
    a: Side, b: Side, trump: Suit | None
) -> None:
    r = compare(a, b, trump)
    ca, cb = a.counts, b.counts
    if r.kind == "trump":
        assert trump is not None
        assert r.suit is trump
        w, lo = (ca, cb) if r.winner == 0 else (cb, ca)
        assert r.differential == w[trump] - lo[trump] > 0
    if trump is not None and any(ca) and any(cb) and ca[trump] != cb[trump]:
        assert r.kind == "trump"


@given(sides, sides, trumps)
def test_903_3_rank_winner_holds_the_highest_unequal_shared_count(
    a: Side, b: Side, trump: Suit | None
) -> None:
    r = compare(a, b, trump)
    if r.kind != "rank":
        return
    assert r.suit is not None and r.winner is not None
    assert r.suit is not trump
    w, lo = (a.counts, b.counts) if r.winner == 0 else (b.counts, a.counts)
    s = r.suit
    assert w[s] > lo[s] > 0
    assert r.differential == w[s] - lo[s]
    unequal = [
        max(w[x], lo[x])
        for x in range(4)
        if w[x] and lo[x] and w[x] != lo[x] and (trump is None or x != trump)
    ]
    assert w[s] == max(unequal)
    # 903.4 and 903.6: the winner is not outshown by the loser, trump suit removed.
    assert not outshows(_without(lo, trump), _without(w, trump))


@given(sides, sides, trumps)
def test_compare_agrees_with_rank_counts_and_beats(a: Side, b: Side, trump: Suit | None) -> None:
    r: Comparison = compare(a, b, trump)
    t = _t(trump)
    winner, how, diff, suit = rank_counts(a.counts, b.counts, t)
    assert (-1 if r.winner is None else r.winner) == winner
    assert {TRUMP: "trump", RANK: "rank"}.get(how) == r.kind
    assert diff == r.differential
    assert (-1 if r.suit is None else int(r.suit)) == suit
    assert beats(a.counts, b.counts, t) == (r.winner == 0)
    assert beats(b.counts, a.counts, t) == (r.winner == 1)


@given(sides)
def test_203_side_text_round_trip(side: Side) -> None:
    back = parse_side(str(side))
    assert str(back) == str(side)
    assert back.counts == side.counts
    if isinstance(side, Entity) or len(side.members) > 1:
        assert back == side


@given(st.sampled_from(HOSTS), enh_lists)
def test_902_r25_counts_are_the_highest_card_per_suit(host: Card, enhs: tuple[Card, ...]) -> None:
    e = Entity(host, enhs)
    for s in Suit:
        spots = [1 if c.is_cre else c.rank for c in (host, *enhs) if c.suit is s]
        assert e.counts[s] == max(spots, default=0)


#: Count tuples as the engine keeps them: a spot count per suit, 0-17 in play (706.3), and
#: beyond.
engine_counts = st.tuples(*[st.integers(0, 20)] * 4)
engine_trumps = st.one_of(st.none(), st.integers(0, 3))


def loop_rank_counts(a: Counts, b: Counts, trump: int | None) -> tuple[int, int, int, int]:
    """R26 as a loop over the suits: what the engine's unrolled :func:`rank_counts` was
    written from, kept as its reference."""
    if not any(a) or not any(b):
        return -1, 0, 0, -1
    ca, cb = list(a), list(b)
    if trump is not None:
        ta, tb = ca[trump], cb[trump]
        if ta != tb:
            return (0, TRUMP, ta - tb, trump) if ta > tb else (1, TRUMP, tb - ta, trump)
        if ta:
            ca[trump] = cb[trump] = 0
    top = max((max(x, y) for x, y in zip(ca, cb, strict=True) if x and y and x != y),
              default=0)
    if not top:
        return -1, 0, 0, -1
    lead_a = lead_b = 99
    suit_a = suit_b = -1
    for s in range(4):
        x, y = ca[s], cb[s]
        if x and y:
            if x == top and y < top and top - y < lead_a:
                lead_a, suit_a = top - y, s
            elif y == top and x < top and top - x < lead_b:
                lead_b, suit_b = top - x, s
    if lead_a == lead_b:
        return -1, 0, 0, -1
    sa: Counts = (ca[0], ca[1], ca[2], ca[3])
    sb: Counts = (cb[0], cb[1], cb[2], cb[3])
    if lead_a < lead_b:
        return (-1, 0, 0, suit_a) if outshows(sb, sa) else (0, RANK, lead_a, suit_a)
    return (-1, 0, 0, suit_b) if outshows(sa, sb) else (1, RANK, lead_b, suit_b)


@given(engine_counts, engine_counts, engine_trumps)
def test_r26_rank_counts_is_the_loop_over_suits(a: Counts, b: Counts, trump: int | None) -> None:
    assert rank_counts(a, b, trump) == loop_rank_counts(a, b, trump)


def test_r26_rank_counts_is_the_loop_over_suits_on_many_pairs() -> None:
    # seeded pairs with few distinct counts, where ties and shared suits are common
    rng = random.Random(26)
    for _ in range(20_000):
        a = (rng.choice((0, 0, 1, 3, 5, 7)), rng.choice((0, 0, 1, 3, 5, 8)),
             rng.choice((0, 0, 2, 3, 6, 9)), rng.choice((0, 0, 1, 4, 6, 10)))
        b = (rng.choice((0, 0, 1, 3, 5, 7)), rng.choice((0, 0, 1, 3, 5, 8)),
             rng.choice((0, 0, 2, 3, 6, 9)), rng.choice((0, 0, 1, 4, 6, 10)))
        trump = rng.choice((None, 0, 1, 2, 3))
        assert rank_counts(a, b, trump) == loop_rank_counts(a, b, trump), (a, b, trump)

