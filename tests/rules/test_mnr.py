"""Rules 500 Mnr and the payment of costs (200, 404-405): burn at the start of P's turn and of
every Turn Cycle (503, R1), O's pool carried through P's turn (504, R2), taxing and paying
automatically or explicitly, checked before any Lnd is taxed (405, 505, R3), and the costs
of Cres and Enhs (206-208, R20)."""

from __future__ import annotations

import pytest

from parlor.rules.state import Phase

from .scenario import options, refused, said, setup, texts, zone

# -- 503 burn ---------------------------------------------------------------------------------


def test_503_r1_burn_at_turn_start_and_each_cycle() -> None:
    s = setup("""
        phasing: 2
        phase: attack
        1.pool: H2 C1
        1.hand: 2H 10S
        1.home: 9H 8H 7H
        1.field: KS
        1.draw: 5H 9D
    """)
    # the turn starts: 3 points left in P's pool burn right after the untax
    assert said(s, "end")[1:] == [
        "Turn 2: Rlr 1 is the phasing Rlr",
        "Rlr 1 burns 3 mnr: 17 life",
        "Rlr 1 draws 2 cards",
    ]
    said(s, "keep 5H")
    # P taxes a point more than the 2H needs; the surplus stays in the pool (405.2) ...
    said(s, "play 2H on D1 tax 9H 8H 7H")
    assert (zone(s, "1.pool"), s.phase) == ("H1", Phase.ATTACK)
    # ... through this Turn Cycle's attack, and burns when the next Turn Cycle starts
    assert said(s, "attack KS") == [
        "Rlr 1 attacks with KS",
        "Rlr 2 loses 2 life (unblocked attackers): 18 left",
        "Rlr 1 burns 1 mnr: 16 life",
    ]
    assert (s.phase, s.actor, s.life, zone(s, "1.pool")) == (Phase.WINDOW1, 0, [16, 18], "")


def test_503_r1_an_empty_pool_does_not_burn() -> None:
    s = setup("""
        phasing: 2
        phase: attack
        1.draw: 5H 9D
    """)
    assert said(s, "end") == [
        "Rlr 2 does not attack: the turn ends",
        "Turn 2: Rlr 1 is the phasing Rlr",
        "Rlr 1 draws 2 cards",
    ]
    assert s.life == [20, 20]


def test_504_r2_o_pool_does_not_burn_on_p_turn_and_o_may_spend_it_in_a_later_window() -> None:
    s = setup("""
        phasing: 1
        phase: window1
        1.pool: H1
        1.hand: 10S 9S
        1.field: KS
        2.pool: S2 D1
        2.hand: AS 4C
    """)
    said(s, "pass", "attack KS")
    assert (s.phase, s.actor) == (Phase.WINDOW2, 1)
    # O pays for an AS from the pool it brought into P's turn (1 Spades + 1 generic)
    assert said(s, "play AS") == [
        "Rlr 2 pays 1 Diamonds, 1 Spades mnr for AS",
        "Rlr 2 summons AS to the Field (inactive)",
    ]
    # the combat, then a new Turn Cycle: P's pool burns, O's does not
    assert said(s, "pass") == [
        "Rlr 2 loses 2 life (unblocked attackers): 18 left",
        "Rlr 1 burns 1 mnr: 19 life",
    ]
    assert (s.phase, zone(s, "1.pool"), zone(s, "2.pool")) == (Phase.WINDOW1, "", "S1")
    # P plays its Lnd and ends the turn; O's own turn starts: now O's point burns
    assert said(s, "play 10S") == [
        "Rlr 1 plays the Lnd 10S to Home",
        "Rlr 1 does not attack: the turn ends",
        "Turn 2: Rlr 2 is the phasing Rlr",
        "Rlr 2 burns 1 mnr: 17 life",
        "Rlr 2 draws 2 cards",
    ]
    assert [t for t in texts(s) if "Rlr 2 burns" in t] == ["Rlr 2 burns 1 mnr: 17 life"]
    assert (s.phasing, s.life, zone(s, "2.pool")) == (1, [19, 17], "")


def test_503_r1_r2_a_surplus_left_when_p_ends_the_turn_burns_only_at_p_next_turn() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        1.hand: 2H
        1.home: 9H 8H 7H
        1.draw: 5H 9D
        2.draw: 6H 6D
    """)
    said(s, "play 2H on D1 tax 9H 8H 7H", "pass")
    assert zone(s, "1.pool") == "H1"
    said(s, "end")  # no new Turn Cycle: nothing burns
    assert (s.phasing, zone(s, "1.pool"), s.life) == (1, "H1", [20, 20])
    # through Rlr 2's turn the point is O's mnr (R2); it burns when Rlr 1's turn starts
    said(s, "keep 6H", "pass", "end")
    assert texts(s)[-4:] == [
        "Turn 3: Rlr 1 is the phasing Rlr",
        "Rlr 1 untaxes 3 cards taxed on their turn",
        "Rlr 1 burns 1 mnr: 19 life",
        "Rlr 1 draws 2 cards",
    ]
    assert [t for t in texts(s) if "burns" in t] == ["Rlr 1 burns 1 mnr: 19 life"]


def test_506_r16_burn_never_ends_the_game() -> None:
    s = setup("""
        phasing: 2
        phase: attack
        1.life: 2
        1.pool: S3
        1.draw: 5H 9D
    """)
    assert said(s, "end")[2] == "Rlr 1 burns 3 mnr: -1 life"
    assert (s.phase, s.winner, s.life[0]) == (Phase.KEEP, None, -1)


# -- 405 taxing and paying --------------------------------------------------------------------

PAYING = """
    settings: step
    phasing: 1
    phase: window1
    1.pool: {pool}
    1.hand: JS AS KS
    1.home: 9S 8S 7S 7C 8C 9C{{t1}} 7D
    2.hand: 5H
"""


@pytest.mark.parametrize(("action", "message"), [
    ("play JS tax 9S 7C", "206: JS costs 2S+1, more than that payment raises"),
    ("play JS tax 9S 8C 7C spend SCC", "206: JS needs 2 Spades mnr"),
    ("play JS tax 9S 9S 8S", "405: a Lnd can be taxed only once"),
    ("play JS tax 10S 9S 8S", "405: 10S is not a Lnd in your Home"),
    ("play JS tax 9S 8S 9C", "405: 9C is already taxed"),
    ("play JS tax 9S 8S 7C spend SSCC", "206: JS costs 3 mnr, not 4"),
    ("play JS tax 9S 8S 7C spend SSD", "405: the pool would hold only 0 Diamonds mnr"),
    ("play JS spend SSC", "405: the pool would hold only 0 Clubs mnr"),
])
def test_405_3_r3_an_impossible_explicit_payment_is_refused_and_no_lnd_is_taxed(
        action: str, message: str) -> None:
    s = setup(PAYING.format(pool=""))
    refused(s, action, message)  # the position, every Lnd's tax included, is unchanged
    assert zone(s, "1.home") == "9S 8S 7S 7C 8C 9C{t1} 7D"


def test_405_4_r3_explicit_payment_names_the_lnds_to_tax_and_the_points_to_spend() -> None:
    s = setup(PAYING.format(pool=""))
    assert said(s, "play KS tax 9S 8S 7S 7C 8C spend SSSCC") == [
        "Rlr 1 taxes 9S: +1 Spades mnr",
        "Rlr 1 taxes 8S: +1 Spades mnr",
        "Rlr 1 taxes 7S: +1 Spades mnr",
        "Rlr 1 taxes 7C: +1 Clubs mnr",
        "Rlr 1 taxes 8C: +1 Clubs mnr",
        "Rlr 1 pays 2 Clubs, 3 Spades mnr for KS",
        "Rlr 1 summons KS to the Field (inactive)",
    ]
    assert zone(s, "1.home") == "9S{t1} 8S{t1} 7S{t1} 7C{t1} 8C{t1} 9C{t1} 7D"
    assert zone(s, "1.pool") == ""
    assert zone(s, "1.field") == "KS{i}"


def test_405_4_r3_explicit_points_may_come_from_the_pool_without_taxing() -> None:
    s = setup(PAYING.format(pool="S2 D1"))
    assert said(s, "play JS spend SSD") == [
        "Rlr 1 pays 1 Diamonds, 2 Spades mnr for JS",
        "Rlr 1 summons JS to the Field (inactive)",
    ]
    assert zone(s, "1.home") == "9S 8S 7S 7C 8C 9C{t1} 7D"
    assert zone(s, "1.pool") == ""


def test_405_4_r3_an_explicit_payment_may_tax_no_lnd_at_all() -> None:
    s = setup(PAYING.format(pool="S1 C1"))
    # "tax" with no Lnd: pay from the pool only (the points chosen automatically)
    assert said(s, "play AS tax") == [
        "Rlr 1 pays 1 Clubs, 1 Spades mnr for AS",
        "Rlr 1 summons AS to the Field (inactive)",
    ]
    assert zone(s, "1.home") == "9S 8S 7S 7C 8C 9C{t1} 7D"
    s = setup(PAYING.format(pool="S1"))
    refused(s, "play AS tax", "206: AS costs 1S+1, more than that payment raises")
    refused(s, "play AS spend -", "206: AS costs 2 mnr, not 0")


def test_405_4_r3_a_free_lnd_may_be_played_spending_nothing_explicitly() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        1.hand: 10S
    """)
    assert said(s, "play 10S spend -") == ["Rlr 1 plays the Lnd 10S to Home"]


def test_405_2_r3_taxing_more_than_needed_leaves_the_surplus_in_the_pool() -> None:
    s = setup(PAYING.format(pool=""))
    said(s, "play AS tax 9S 8S 7C")
    assert zone(s, "1.home") == "9S{t1} 8S{t1} 7S 7C{t1} 8C 9C{t1} 7D"
    assert zone(s, "1.pool") == "S1"


def test_405_4_r3_automatic_payment_taxes_the_suit_then_the_most_plentiful_lnds() -> None:
    s = setup(PAYING.format(pool=""))
    # JS: 2 Spades from 9S and 8S; the generic point from Clubs, the suit with the most untaxed
    # Lnds left (7C and 8C), so that a Spade, a Club and a Diamond stay open
    assert said(s, "play JS") == [
        "Rlr 1 taxes 9S: +1 Spades mnr",
        "Rlr 1 taxes 8S: +1 Spades mnr",
        "Rlr 1 taxes 7C: +1 Clubs mnr",
        "Rlr 1 pays 1 Clubs, 2 Spades mnr for JS",
        "Rlr 1 summons JS to the Field (inactive)",
    ]
    assert zone(s, "1.home") == "9S{t1} 8S{t1} 7S 7C{t1} 8C 9C{t1} 7D"
    assert zone(s, "1.pool") == ""


@pytest.mark.parametrize(("pool", "home", "paid", "left"), [
    ("S1", "9S{t1} 8S{t1} 7S 7C 8C 9C{t1} 7D", "Rlr 1 pays 3 Spades mnr for JS", ""),
    ("C1", "9S{t1} 8S{t1} 7S 7C 8C 9C{t1} 7D", "Rlr 1 pays 1 Clubs, 2 Spades mnr for JS", ""),
    ("S2 H1", "9S 8S 7S 7C 8C 9C{t1} 7D", "Rlr 1 pays 1 Hearts, 2 Spades mnr for JS", ""),
    ("S3 D1", "9S 8S 7S 7C 8C 9C{t1} 7D", "Rlr 1 pays 1 Diamonds, 2 Spades mnr for JS", "S1"),
])
def test_405_4_r3_automatic_payment_spends_the_pool_first(
        pool: str, home: str, paid: str, left: str) -> None:
    s = setup(PAYING.format(pool=pool))
    assert paid in said(s, "play JS")
    assert zone(s, "1.home") == home
    assert zone(s, "1.pool") == left


def test_405_1_r3_lnds_are_not_taxed_for_a_free_lnd_play() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        1.hand: 10S
        1.home: 9S 8S
    """)
    assert said(s, "play 10S") == ["Rlr 1 plays the Lnd 10S to Home"]
    assert zone(s, "1.home") == "9S 8S 10S"
    assert zone(s, "1.pool") == ""


# -- 201 a card plays as its type -------------------------------------------------------------


@pytest.mark.parametrize(("card", "plays", "where", "laid"), [
    *[(f"{v}H", [f"play {v}H on D1", f"play {v}H on D2", f"play {v}H on T"], "1.domain",
       f"{v}H") for v in range(2, 7)],
    *[(f"{v}H", [f"play {v}H"], "1.home", f"{v}H") for v in range(7, 11)],
    *[(f"{r}H", [f"play {r}H"], "1.field", f"{r}H{{i}}") for r in "AJQK"],
])
def test_201_a_card_plays_as_its_type_enh_lnd_or_cre(
        card: str, plays: list[str], where: str, laid: str) -> None:
    s = setup(f"""
        settings: step
        phasing: 1
        phase: window1
        1.pool: H3 S3
        1.hand: {card}
    """)
    assert options(s) == [*plays, "pass"]
    said(s, plays[0])
    assert zone(s, where) == laid


# -- 206-208 costs [R20] ----------------------------------------------------------------------

# R20's table: Cre Tgh of its own suit + Pwr generic; Enh its value, ceil(value/2) own suit.
COSTS = {
    "AH": (1, 2), "JH": (2, 3), "QH": (2, 4), "KH": (3, 5),
    "2H": (1, 2), "3H": (2, 3), "4H": (2, 4), "5H": (3, 5), "6H": (3, 6),
}
HEARTS = ["7H", "8H", "9H"]
OTHERS = ["7C", "8C", "9C", "10C", "7S"]


def cost_position(card: str, hearts: int, others: int) -> str:
    home = " ".join(HEARTS[:hearts] + OTHERS[:others])
    return f"""
        settings: step
        phasing: 1
        phase: window1
        1.hand: {card}
        1.home: {home}
    """


def play_of(card: str) -> str:
    return f"play {card}" if card[0] in "AJQK" else f"play {card} on D1"


@pytest.mark.parametrize("card", list(COSTS))
def test_206_207_r20_exactly_the_cost_pays_for_the_card(card: str) -> None:
    suited, total = COSTS[card]
    s = setup(cost_position(card, suited, total - suited))
    assert play_of(card) in options(s)
    events = said(s, play_of(card))
    generic = total - suited
    clubs = f"{generic} Clubs, " if generic else ""
    assert f"Rlr 1 pays {clubs}{suited} Hearts mnr for {card}" in events
    lnds = HEARTS[:suited] + OTHERS[:generic]
    assert zone(s, "1.home") == " ".join(lnd + "{t1}" for lnd in lnds)
    assert zone(s, "1.pool") == ""


@pytest.mark.parametrize("card", list(COSTS))
def test_206_207_r20_one_point_short_in_all_is_not_enough(card: str) -> None:
    suited, total = COSTS[card]
    s = setup(cost_position(card, suited, total - suited - 1))
    suit_cost = f"{suited}H" + (f"+{total - suited}" if total > suited else "")
    rule = 206 if card[0] in "AJQK" else 207  # a Cre's cost, an Enh's
    refused(s, play_of(card), f"{rule}: {card} costs {suit_cost}, more mnr than Rlr 1 can raise")


@pytest.mark.parametrize("card", list(COSTS))
def test_206_207_r20_one_point_short_in_its_own_suit_is_not_enough(card: str) -> None:
    suited, total = COSTS[card]
    s = setup(cost_position(card, suited - 1, total - suited + 1))
    suit_cost = f"{suited}H" + (f"+{total - suited}" if total > suited else "")
    rule = 206 if card[0] in "AJQK" else 207  # a Cre's cost, an Enh's
    refused(s, play_of(card), f"{rule}: {card} costs {suit_cost}, more mnr than Rlr 1 can raise")


def test_206_example_kh_costs_3_hearts_plus_2_of_any_suit() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        1.pool: D1
        1.hand: KH
        1.home: 9H 8H 7H 7S
    """)
    assert said(s, "play KH") == [
        "Rlr 1 taxes 9H: +1 Hearts mnr",
        "Rlr 1 taxes 8H: +1 Hearts mnr",
        "Rlr 1 taxes 7H: +1 Hearts mnr",
        "Rlr 1 taxes 7S: +1 Spades mnr",
        "Rlr 1 pays 1 Diamonds, 3 Hearts, 1 Spades mnr for KH",
        "Rlr 1 summons KH to the Field (inactive)",
    ]
