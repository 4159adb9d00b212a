"""The ranking calculus: every worked example of the rules text, one named test each.

Test names cite docs/rules.md (902 spot counts, 903 compare, 904 beats, 905 bonus, 906 worked
examples, 711.3 Carry examples, 1004 Domain examples, 1106 expel examples) and the rulings
(R25 spot counts, R26 compare, R27 ability checks). Each assertion pins the whole result
(winner, kind, differential, bonus, deciding suit), so a change in the arithmetic fails a test.
Side 0 is the first argument of ``compare``, side 1 the second.
"""

from __future__ import annotations

import pytest

from parlor.rules.cards import CardParseError, Suit
from parlor.rules.ranking import (
    EMPTY,
    LEVEL,
    RANK,
    TRUMP,
    Comparison,
    Counts,
    Entity,
    Group,
    beats,
    bonus,
    carry_counts,
    compare,
    merge,
    outshows,
    parse_side,
    rank_counts,
)

C, D, H, S = Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES


def check(
    r: Comparison,
    winner: int | None,
    kind: str | None,
    differential: int,
    bonus: int,
    suit: Suit | None,
) -> None:
    """Pin a whole comparison result."""
    assert (r.winner, r.kind, r.differential, r.bonus, r.suit) == (
        winner,
        kind,
        differential,
        bonus,
        suit,
    ), r.explain()


def counts(text: str) -> Counts:
    return parse_side(text).counts


# --- 902 / R25: spot counts ---------------------------------------------------------------------


def test_902_r25_jc_spot_count_sequence() -> None:
    # "a Jack of Clubs with a 3 of Clubs Enh ... has a spot count in Clubs of 3. If it has a
    # further 5 of Clubs Enh ... 5. If it has a further 2 of Diamonds Enh ... Diamonds of 2, as
    # well as a spot count in Clubs of 5."
    assert counts("JC") == (1, 0, 0, 0)
    assert counts("JC/3C") == (3, 0, 0, 0)
    assert counts("JC/3C/5C") == (5, 0, 0, 0)
    assert counts("JC/3C/5C/2D") == (5, 2, 0, 0)


def test_902_r25_counts_are_highest_card_never_a_sum() -> None:
    assert counts("JC/5C/3C") == (5, 0, 0, 0)
    assert counts("KH/2H/3H/4H") == (0, 0, 4, 0)


def test_902_1_aces_and_court_cards_count_1_lnds_their_value() -> None:
    for cre in ("AH", "JH", "QH", "KH"):
        assert counts(cre) == (0, 0, 1, 0)
    assert counts("7S") == (0, 0, 0, 7)
    assert counts("10D") == (0, 10, 0, 0)
    assert counts("9D/2H") == (0, 9, 2, 0)


def test_902_2_domain_counts_only_its_enhs_and_a_lone_enh_its_value() -> None:
    assert counts("D:") == EMPTY
    assert counts("D:6S/5C") == (5, 0, 0, 6)
    assert counts("4H") == (0, 0, 4, 0)


def test_902_3_group_counts_are_the_highest_per_suit() -> None:
    assert counts("KS/4S+KC") == (1, 0, 0, 4)
    assert counts("JH/3C+QC/2D+AH") == (3, 2, 1, 0)
    assert merge() == EMPTY
    assert merge((1, 0, 3, 0), (2, 0, 1, 0)) == (2, 0, 3, 0)


# --- 906 / R26: worked examples of ranking -------------------------------------------------------


def test_906_r26_kh_outranked_by_as_2h() -> None:
    r = compare("AS/2H", "KH")
    check(r, 0, "rank", 1, 1, H)
    assert r.explain() == "AS/2H outranks KH in Hearts, 2 to 1: bonus 1"


def test_906_r26_kh_outranked_by_qd_2h() -> None:
    check(compare("QD/2H", "KH"), 0, "rank", 1, 1, H)


def test_906_r26_kh_5d_no_longer_outranked_by_the_ace_outshown() -> None:
    r = compare("KH/5D", "AS/2H")
    check(r, None, None, 0, 0, H)
    assert r.outshown == 1  # the Ace's side is outshown in Diamonds
    assert r.explain() == (
        "KH/5D and AS/2H are level: AS/2H would outrank in Hearts, 2 to 1, "
        "but is outshown by KH/5D's 5 in Diamonds"
    )


def test_906_r26_kh_5d_outranks_qd_2h() -> None:
    # "the King would then instead outrank the Queen (albeit she yet sports more Hearts)": M=5.
    r = compare("KH/5D", "QD/2H")
    check(r, 0, "rank", 4, 2, D)
    assert r.explain() == "KH/5D outranks QD/2H in Diamonds, 5 to 1: bonus 2"


def test_906_r26_ace_and_queen_are_level() -> None:
    r = compare("AS/2H", "QD/2H")
    check(r, None, None, 0, 0, None)
    assert r.explain() == "AS/2H and QD/2H are level: tied in every shared suit (Hearts 2 to 2)"


@pytest.mark.parametrize("other", ["KH/5D", "KH", "QD/2H"])
def test_906_r26_spades_trump_ace_outtrumps_king_and_queen(other: str) -> None:
    r = compare("AS/2H", other, trump="S")
    check(r, 0, "trump", 1, 1, S)
    assert r.explain() == f"AS/2H outtrumps {other} in Spades, 1 to 0: bonus 1"


def test_906_r26_jh_4h_2s_against_qh_bonus_2() -> None:
    r = compare("JH/4H/2S", "QH")
    check(r, 0, "rank", 3, 2, H)
    assert r.explain() == "JH/4H/2S outranks QH in Hearts, 4 to 1: bonus 2"


def test_906_r26_jh_4h_2s_against_qh_spades_trump_bonus_1() -> None:
    r = compare("JH/4H/2S", "QH", trump="S")
    check(r, 0, "trump", 2, 1, S)
    assert r.explain() == "JH/4H/2S outtrumps QH in Spades, 2 to 0: bonus 1"


def test_906_r26_least_differential_jc_2c_4h_beats_jh_4c_3h() -> None:
    r = compare("JC/2C/4H", "JH/4C/3H")
    check(r, 0, "rank", 1, 1, H)
    assert r.explain() == "JC/2C/4H outranks JH/4C/3H in Hearts, 4 to 3: bonus 1"
    check(compare("JH/4C/3H", "JC/2C/4H"), 1, "rank", 1, 1, H)


def test_903_3_r26_equal_least_differentials_are_level() -> None:
    # Both hold M=5 with a lead of 2: "if not tied in that regard as well".
    r = compare("JC/3C/5H", "JH/5C/3H")
    check(r, None, None, 0, 0, None)
    assert r.explain() == (
        "JC/3C/5H and JH/5C/3H are level: each outranks the other by the same margin "
        "(Clubs 3 to 5, Hearts 5 to 3)"
    )


# --- 903 / R26: the remaining sentences of "Outshown, Outranked or Outtrumped" --------------------


def test_903_r26_no_outranking_in_a_suit_the_target_lacks() -> None:
    # "A target can't be outranked in a suit of which it has neither a base suit nor an Enh."
    r = compare("6C", "JH")
    check(r, None, None, 0, 0, None)
    assert r.explain() == (
        "6C and JH are level: they share no suit to rank in; 6C outshows JH with 6 in Clubs"
    )


def test_903_2_r26_trump_entity_can_only_be_trumped() -> None:
    # "An entity whose base suit is that of the current trump suit ... can only be trumped."
    check(compare("JH/4H", "KS/2H", trump="S"), 1, "trump", 1, 1, S)


def test_903_2_r26_trumping_counts_from_zero() -> None:
    # "the differential can be made to a subtrahend of zero ... a range of 1..6".
    check(compare("6S", "KH", trump="S"), 0, "trump", 6, 3, S)
    check(compare("2S", "KH", trump="S"), 0, "trump", 2, 1, S)


def test_905_r26_lnd_differential_is_larger_but_bonus_stops_at_3() -> None:
    check(compare("10S", "KH", trump="S"), 0, "trump", 10, 3, S)
    check(compare("10H", "QH"), 0, "rank", 9, 3, H)


def test_903_6_r26_matched_trumps_cancel_then_other_suits_rank() -> None:
    # "should it happen to be matched in trumps as well as being outranked in a mutually
    # present other suit, the outranking bonus gets applied."
    r = compare("JH/3S/4C", "JC/3S", trump="S")
    check(r, 0, "rank", 3, 2, C)
    assert r.explain() == "JH/3S/4C outranks JC/3S in Clubs, 4 to 1: bonus 2"


def test_903_6_r26_matched_trumps_alone_confer_no_bonus() -> None:
    r = compare("JH/3S", "JC/3S", trump="S")
    check(r, None, None, 0, 0, None)
    assert r.explain() == (
        "JH/3S and JC/3S are level: matched in trumps (Spades 3 to 3); "
        "they share no suit to rank in"
    )


def test_903_6_outshowing_is_judged_without_the_matched_trump() -> None:
    # With S6 removed from both, the C5 outshows the H2 that would outrank H1.
    check(compare("JH/6S/2H", "KH/6S/5C", trump="S"), None, None, 0, 0, H)
    # Without a trump the S6 ties the tops, nothing is outshown, and H2 outranks H1.
    check(compare("JH/6S/2H", "KH/6S/5C"), 0, "rank", 1, 1, H)


def test_903_1_r26_domain_without_enh_is_never_ranked() -> None:
    # "A Domain defense, having no base suit, can't outrank or be outranked until an Enh has
    # been played on it."
    r = compare("KS/4S", "D:")
    check(r, None, None, 0, 0, None)
    assert r.explain() == "KS/4S and D: are level: an empty Domain is never ranked"
    check(compare("KS/4S", "D:2S"), 0, "rank", 2, 1, S)


def test_903_4_lnd_outranks_only_what_has_its_base_suit() -> None:
    # "Lnds ... only automatically outrank something ... which has a spot count in their suit."
    check(compare("8H", "QH"), 0, "rank", 7, 3, H)
    check(compare("8H", "QD"), None, None, 0, 0, None)


def test_904_two_entities_never_outrank_each_other() -> None:
    for a, b in [("JC/2C/4H", "JH/4C/3H"), ("KH/5D", "QD/2H"), ("AS/2H", "KH")]:
        assert beats(counts(a), counts(b), None) != beats(counts(b), counts(a), None)


# --- 1106 / R23 / R26: expel examples against JH/3C -----------------------------------------------


def test_1106_r26_expel_2h_on_jh_3c_fails_outshown() -> None:
    r = compare("2H", "JH/3C")
    check(r, None, None, 0, 0, H)
    assert r.outshown == 0  # the 2H is outshown by the C3
    assert not beats(counts("2H"), counts("JH/3C"), None)
    assert r.explain() == (
        "2H and JH/3C are level: 2H would outrank in Hearts, 2 to 1, "
        "but is outshown by JH/3C's 3 in Clubs"
    )


def test_1106_r26_expel_2h_on_jh_3c_succeeds_with_hearts_trump() -> None:
    r = compare("2H", "JH/3C", trump="H")
    check(r, 0, "trump", 1, 1, H)
    assert beats(counts("2H"), counts("JH/3C"), int(H))
    assert r.explain() == "2H outtrumps JH/3C in Hearts, 2 to 1: bonus 1"


def test_1106_r26_expel_3h_on_jh_3c_bonus_1() -> None:
    # "half of (3 minus 1) rounded up = 1 damage point"
    r = compare("3H", "JH/3C")
    check(r, 0, "rank", 2, 1, H)
    assert r.explain() == "3H outranks JH/3C in Hearts, 3 to 1: bonus 1"


def test_1106_r26_expel_4c_on_jh_3c_bonus_1() -> None:
    # "half of (4 minus 3) rounded up = 1 damage point"
    r = compare("4C", "JH/3C")
    check(r, 0, "rank", 1, 1, C)
    assert r.explain() == "4C outranks JH/3C in Clubs, 4 to 3: bonus 1"


def test_1106_r26_expel_3c_on_jh_3c_fails_tie() -> None:
    r = compare("3C", "JH/3C")
    check(r, None, None, 0, 0, None)
    assert r.explain() == "3C and JH/3C are level: tied in every shared suit (Clubs 3 to 3)"


def test_1106_r26_expel_6c_against_domain_6s_5c() -> None:
    r = compare("6C", "D:6S/5C")
    check(r, 0, "rank", 1, 1, C)
    assert r.outshown is None


def test_1102_1_lone_nontrump_enh_can_be_outshown() -> None:
    # "lone targeted nontrump Enh can be expelled by being outshown"
    assert outshows(counts("5C"), counts("4H"))
    assert not outshows(counts("4H"), counts("5C"))
    assert not outshows(counts("4C"), counts("4H"))  # a tie in height shows nothing
    assert compare("5C", "4H").outshown == 1


# --- 1004 / R26: unblocked attackers against a Domain ------------------------------------------


def test_1004_r26_domain_6s_5c_beats_ks_4s_kc_bonus_1() -> None:
    r = compare("KS/4S+KC", "D:6S/5C")
    check(r, 1, "rank", 2, 1, S)
    assert r.explain() == "D:6S/5C outranks KS/4S+KC in Spades, 6 to 4: bonus 1"


def test_1004_r26_domain_5s_5c_smallest_lead_at_m_bonus_1() -> None:
    r = compare("KS/4S+KC", "D:5S/5C")
    check(r, 1, "rank", 1, 1, S)
    assert r.explain() == "D:5S/5C outranks KS/4S+KC in Spades, 5 to 4: bonus 1"


def test_1004_r26_domain_4s_5c_spades_level_clubs_bonus_2() -> None:
    r = compare("KS/4S+KC", "D:4S/5C")
    check(r, 1, "rank", 4, 2, C)
    assert r.explain() == "D:4S/5C outranks KS/4S+KC in Clubs, 5 to 1: bonus 2"


def test_1004_3_r26_trump_attacker_gets_nothing_against_empty_domain() -> None:
    # "An unblocked attacking card of the trump suit gains no bonus against a Domain with no Enh"
    check(compare("KS", "D:", trump="S"), None, None, 0, 0, None)
    check(compare("KS/6S+QS", "D:", trump="S"), None, None, 0, 0, None)


# --- 711.3 / 706.3 / R27: the Queen of Hearts' Carry --------------------------------------------


def can_carry(queen: str, lnd: str, trump: Suit | None = None) -> bool:
    """R27: Carry works unless the Lnd beats the Queen, her own-suit Enhs counting +4."""
    return not beats(counts(lnd), carry_counts(Entity.parse(queen)), trump)


def carry_result(queen: str, lnd: str, trump: Suit | None = None) -> tuple[int, int, int, int]:
    """rank_counts with the Lnd as side 0 and the Queen's Carry counts as side 1."""
    t = None if trump is None else int(trump)
    return rank_counts(counts(lnd), carry_counts(Entity.parse(queen)), t)


def test_706_3_r27_carry_booster_counts_own_suit_enhs_plus_4() -> None:
    assert carry_counts(Entity.parse("QH")) == (0, 0, 1, 0)
    assert carry_counts(Entity.parse("QH/4H")) == (0, 0, 8, 0)
    assert carry_counts(Entity.parse("QH/3S/2H")) == (0, 0, 6, 3)
    assert carry_counts(Entity.parse("QD/2D/3H")) == (0, 6, 3, 0)
    assert counts("QD/2D/3H") == (0, 2, 3, 0)  # the booster is for Carry only


def test_711_3_r27_qh_carries_a_diamonds_lnd() -> None:
    # "the Queen of Hearts by herself could Carry a Lnd of the Diamonds suit (as being outshown
    # but not outranked)"
    assert outshows(counts("9D"), counts("QH"))
    assert carry_result("QH", "9D") == (-1, LEVEL, 0, -1)
    assert can_carry("QH", "9D")
    assert can_carry("QH", "7D")
    assert can_carry("QH", "10D")


def test_711_3_r27_hearts_enh_on_the_diamonds_lnd_stops_her() -> None:
    assert carry_result("QH", "9D/2H") == (0, RANK, 1, int(H))
    assert not can_carry("QH", "9D/2H")


@pytest.mark.parametrize("queen", ["QH/2D", "QH/3D"])
def test_711_3_r27_diamonds_enh_on_the_queen_stops_her(queen: str) -> None:
    low = int(queen[-2])
    assert carry_result(queen, "9D") == (0, RANK, 9 - low, int(D))
    assert not can_carry(queen, "9D")


def test_711_3_r27_qh_cannot_carry_8h() -> None:
    assert carry_result("QH", "8H") == (0, RANK, 7, int(H))
    assert not can_carry("QH", "8H")


def test_711_3_r27_qh_with_greater_trump_enh_carries_8h() -> None:
    assert carry_result("QH/2S", "8H", trump=S) == (1, TRUMP, 2, int(S))
    assert can_carry("QH/2S", "8H", trump=S)
    assert can_carry("QH/4S", "8H/3S", trump=S)
    assert not can_carry("QH/2S", "8H")  # no trump: the Spades do not help


def test_711_3_r27_trump_enh_must_be_greater_than_any_on_the_lnd() -> None:
    # Trumps level (S2 each) cancel, then H8 against H1.
    assert carry_result("QH/2S", "8H/2S", trump=S) == (0, RANK, 7, int(H))
    assert not can_carry("QH/2S", "8H/2S", trump=S)
    assert carry_result("QH/2S", "8H/3S", trump=S) == (0, TRUMP, 1, int(S))
    assert not can_carry("QH/2S", "8H/3S", trump=S)


def test_711_3_r27_qh_4h_ties_8h_and_carries() -> None:
    # "if the spot count of a Hearts Enh ... plus the petals on her corsage, equals or exceeds
    # the Lnd card's spot count": 4 + 4 = 8.
    assert carry_result("QH/4H", "8H") == (-1, LEVEL, 0, -1)
    assert can_carry("QH/4H", "8H")


def test_711_3_r27_qh_3h_cannot_carry_8h() -> None:
    assert carry_result("QH/3H", "8H") == (0, RANK, 1, int(H))
    assert not can_carry("QH/3H", "8H")


def test_711_3_r27_only_qh_6h_carries_10h() -> None:
    assert can_carry("QH/6H", "10H")
    assert carry_result("QH/5H", "10H") == (0, RANK, 1, int(H))
    assert not can_carry("QH/5H", "10H")


def test_706_3_r27_boosted_hearts_do_not_beat_an_outshowing_diamonds_lnd() -> None:
    # QH/2H counts H6 for Carry against 9D/2H {D9, H2}: she would outrank in Hearts but the
    # D9 outshows her, so the result is level and the Lnd does not beat her.
    assert carry_result("QH/2H", "9D/2H") == (-1, LEVEL, 0, int(H))
    assert can_carry("QH/2H", "9D/2H")


# --- 905: the bonus ------------------------------------------------------------------------------


def test_905_bonus_is_half_the_differential_rounded_up_at_most_3() -> None:
    assert [bonus(d) for d in range(1, 11)] == [1, 1, 2, 2, 3, 3, 3, 3, 3, 3]


# --- 203: entity text forms ------------------------------------------------------------------


@pytest.mark.parametrize("text", ["JC/2C/4H", "D:6S/5C", "D:", "KS/4S+KC", "4H", "10H/2S", "AS"])
def test_203_entity_text_round_trip(text: str) -> None:
    side = parse_side(text)
    assert str(side) == text
    assert parse_side(str(side)) == side


def test_203_entity_parse_normalises() -> None:
    assert str(parse_side(" d:6s/5c ")) == "D:6S/5C"
    assert str(parse_side("jc/2c/4h")) == "JC/2C/4H"
    assert str(parse_side("ks/4s+kc")) == "KS/4S+KC"


def test_203_entity_kinds() -> None:
    kinds = [Entity.parse(t).kind for t in ("KS/4S", "9D/2H", "4H", "D:6S", "D:")]
    assert kinds == ["Cre", "Lnd", "Enh", "Domain", "Domain"]


def test_203_groups_and_entities_parse_to_their_types() -> None:
    assert isinstance(parse_side("KS/4S+KC"), Group)
    assert isinstance(parse_side("KS/4S"), Entity)
    g = Group.parse("KS/4S+KC")
    assert [str(m) for m in g.members] == ["KS/4S", "KC"]
    assert Group.parse(g) is g
    assert parse_side(g) is g


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("4H/2C", r"an Enh \(4H\) cannot carry other Enhs"),
        ("KS/9D", r"9D is a Lnd, not an Enh \(2-6\)"),
        ("KS/QH", r"QH is a Cre, not an Enh \(2-6\)"),
        ("D:KS", r"KS is a Cre, not an Enh \(2-6\)"),
        ("", r"empty entity"),
        ("KS/", r"'' is not a card"),
        ("KS+", r"empty entity"),
        ("KS/1X", r"'X' is not a suit"),
    ],
)
def test_203_entity_parse_errors(text: str, message: str) -> None:
    with pytest.raises(CardParseError, match=message):
        parse_side(text)
