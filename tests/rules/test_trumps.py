"""Scenario tests for rule 805, the Trumps stack, and ruling R22 (with 602 / R21, trump mnr).

The stack is written ``trumps: 2:3D 1:4H`` from bottom to top: the top card (here Rlr 1's 4H)
sets the trump suit. Positions use ``settings: step`` so that nothing moves on by itself.
"""

from __future__ import annotations

from parlor.rules.engine import apply

from .scenario import legal, refused, said, setup, zone

STACK = """
    settings: step
    phasing: 1
    phase: window1
    trumps: 2:3D 1:4H
    1.hand: 3S 4S 6C
    1.home: 7S 8S 9S 7C 8C 9C
    2.hand: 5H 5D
    2.home: 7H 8H 9H 7D 8D 9D
"""


def test_805_1_r22_any_enh_goes_on_an_empty_stack_and_sets_the_trump() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        1.hand: 2C
        1.home: 7C 8C
    """)
    assert s.trump is None
    assert said(s, "play 2C on T")[-1] == "Rlr 1 plays 2C on the Trumps stack: Clubs are trumps"
    assert zone(s, "trumps") == "1:2C"
    assert s.trump == 0  # Clubs


def test_805_1_r22_only_equal_or_greater_value_than_the_top_card() -> None:
    s = setup(STACK)
    assert [a for a in legal(s, "play") if a.endswith(" on T")] == [
        "play 4S on T", "play 6C on T"]
    refused(s, "play 3S on T",
            "805.1: an Enh goes on the Trumps stack only if at least the top card's value (4H)")
    assert said(s, "play 4S on T")[-1] == (
        "Rlr 1 plays 4S on the Trumps stack: Spades are trumps")  # equal value is enough
    assert zone(s, "trumps") == "2:3D 1:4H 1:4S"


def test_805_2_r22_same_suit_higher_may_expel_the_top_card_both_to_discard() -> None:
    s = setup(STACK)
    apply(s, "play 6C on 2:7H")  # Rlr 1 plays a card; Rlr 2 has the option
    assert "play 5H on T" in legal(s) and "expel 5H at T" in legal(s)
    assert "expel 5D at T" not in legal(s)  # not the top card's suit
    refused(s, "expel 5D at T",
            "805.2: only a higher Enh of the top card's suit expels the top of the Trumps stack")
    assert said(s, "expel 5H at T")[-1] == (
        "Rlr 2 expels 4H from the Trumps stack with 5H: both to Discard, Diamonds are trumps")
    assert zone(s, "trumps") == "2:3D"  # the card below sets the trump
    assert zone(s, "1.discard") == "4H"  # each to its owner's Discard
    assert zone(s, "2.discard") == "5H"
    assert s.life == [20, 20]  # no damage (805.2)


def test_805_2_r22_same_suit_higher_may_instead_be_laid_on_top() -> None:
    s = setup(STACK)
    apply(s, "play 6C on 2:7H")
    assert said(s, "play 5H on T")[-1] == "Rlr 2 plays 5H on the Trumps stack: Hearts are trumps"
    assert zone(s, "trumps") == "2:3D 1:4H 2:5H"


def test_805_2_r22_expelling_the_only_card_leaves_no_trumps() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        trumps: 2:2S
        1.hand: 3S
        1.home: 7S 8S 9S
    """)
    assert said(s, "expel 3S at T")[-1] == (
        "Rlr 1 expels 2S from the Trumps stack with 3S: both to Discard, no trumps")
    assert zone(s, "trumps") == ""
    assert s.trump is None
    assert zone(s, "1.discard") == "3S"
    assert zone(s, "2.discard") == "2S"


def test_805_2_r22_a_lower_or_equal_card_of_the_suit_cannot_expel_the_top() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        trumps: 2:4S
        1.hand: 4S 3S
        1.home: 7S 8S 9S 10S
    """)
    assert [a for a in legal(s) if a.endswith(" T")] == ["play 4S on T"]
    refused(s, "expel 4S at T",
            "805.2: only a higher Enh of the top card's suit expels the top of the Trumps stack")


def test_805_3_r23_cards_of_the_stack_are_not_expelled_as_lone_enhs() -> None:
    # 5H would outtrump the 3D under the Hearts top card, but only the top can be expelled,
    # and only by R22 (expel 5H at T).
    s = setup(STACK)
    apply(s, "play 6C on 2:7H")
    assert [a for a in legal(s, "expel") if a.startswith("expel 5H")] == [
        "expel 5H at T",
        "expel 5H at 1:7S", "expel 5H at 1:8S", "expel 5H at 1:9S",
        "expel 5H at 1:7C", "expel 5H at 1:8C", "expel 5H at 1:9C",
        "expel 5H at 2:7D", "expel 5H at 2:8D", "expel 5H at 2:9D",
        "expel 5H at 1:6C",
    ]
    refused(s, "expel 5H at 2:3D",
            "805.3: only the top card of the Trumps stack can be expelled, by a higher Enh of "
            "its suit ('expel 5H at T')")
    refused(s, "expel 5H at 1:4H",
            "805.3: only the top card of the Trumps stack can be expelled, by a higher Enh of "
            "its suit ('expel 5H at T')")


def test_602_r21_a_lnd_carrying_a_trump_enh_gives_trump_mnr() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        trumps: 2:3S
        1.hand: AS
        1.home: 9D/2S 7S
    """)
    assert said(s, "play AS")[:3] == [
        "Rlr 1 taxes 9D: +1 Spades mnr (trump)",
        "Rlr 1 taxes 7S: +1 Spades mnr",
        "Rlr 1 pays 2 Spades mnr for AS",
    ]
    assert zone(s, "1.field") == "AS{i}"


def test_602_r21_mnr_keeps_its_suit_when_the_trump_changes() -> None:
    # Rlr 1 taxes 9D/2S under Spades trump: a Spades point. Then Hearts become trumps, and the
    # point stays a Spades point (R21), while 9D now gives Diamonds again.
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        trumps: 2:3S
        1.hand: 4H AD
        1.home: 9D/2S 7H 8H 9H 10H 7D
        2.hand: 2C
        2.home: 7C 8C
    """)
    assert said(s, "play 4H on T tax 9D 7H 8H 9H 10H spend HHHH") == [
        "Rlr 1 taxes 9D: +1 Spades mnr (trump)",
        "Rlr 1 taxes 7H: +1 Hearts mnr",
        "Rlr 1 taxes 8H: +1 Hearts mnr",
        "Rlr 1 taxes 9H: +1 Hearts mnr",
        "Rlr 1 taxes 10H: +1 Hearts mnr",
        "Rlr 1 pays 4 Hearts mnr for 4H",
        "Rlr 1 plays 4H on the Trumps stack: Hearts are trumps",
    ]
    assert zone(s, "1.pool") == "S1"
    apply(s, "play 2C on 1:9D")  # Rlr 2's option
    assert said(s, "play AD")[:2] == [
        "Rlr 1 taxes 7D: +1 Diamonds mnr",
        "Rlr 1 pays 1 Diamonds, 1 Spades mnr for AD",
    ]
    assert zone(s, "1.pool") == ""
