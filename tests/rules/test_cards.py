"""Cards: suits and colours, kinds, Pwr/Tgh, costs, abilities, the deck and text forms.

Test names cite docs/rules.md (201 kinds, 202 suits, 203 text forms, 205 Pwr/Tgh, 206-207 costs,
707-711 abilities) and the rulings (R20 costs). Each table here is written out by hand from the
rules text ("Card types", "Creatures", "Enhancements", the court-card ability list) and checked
over all 52 cards, so a wrong entry in ``parlor.rules.cards`` cannot hide behind a spot check.
"""

from __future__ import annotations

import pytest

from parlor.rules.cards import (
    ABILITIES,
    CARDS,
    COST,
    IS_RED,
    KIND,
    PWR,
    RANK,
    SUIT,
    TGH,
    Ability,
    Card,
    CardParseError,
    Cost,
    Kind,
    Suit,
    deck,
    spot,
)

RANKS_TEXT = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
ALL_TEXT = [r + s for s in "CDHS" for r in RANKS_TEXT]


def card(text: str) -> Card:
    return Card.parse(text)


# --- Suits and colours ("Suits & Spots") -------------------------------------------------------


def test_202_four_suits_in_bridge_order() -> None:
    assert [s.letter for s in Suit] == ["C", "D", "H", "S"]
    assert [s.title for s in Suit] == ["Clubs", "Diamonds", "Hearts", "Spades"]
    assert [int(s) for s in Suit] == [0, 1, 2, 3]


def test_202_suit_colours() -> None:
    assert Suit.HEARTS.colour == "red"
    assert Suit.DIAMONDS.colour == "red"
    assert Suit.SPADES.colour == "black"
    assert Suit.CLUBS.colour == "black"


@pytest.mark.parametrize(
    ("text", "suit"),
    [
        ("H", Suit.HEARTS),
        ("h", Suit.HEARTS),
        ("Hearts", Suit.HEARTS),
        ("heart", Suit.HEARTS),
        (" s ", Suit.SPADES),
        ("DIAMONDS", Suit.DIAMONDS),
        ("club", Suit.CLUBS),
        (Suit.CLUBS, Suit.CLUBS),
    ],
)
def test_suit_parse(text: str | Suit, suit: Suit) -> None:
    assert Suit.parse(text) is suit


@pytest.mark.parametrize("text", ["", "X", "Z", "HH", "10"])
def test_suit_parse_rejects(text: str) -> None:
    with pytest.raises(CardParseError, match="is not a suit"):
        Suit.parse(text)


def test_202_card_colour_follows_base_suit() -> None:
    for c in CARDS:
        assert c.colour == ("red" if c.suit.letter in "HD" else "black")
        assert IS_RED[c.index] == (c.colour == "red")


# --- Kinds by value ("Card types") --------------------------------------------------------------


def test_201_kind_by_value_every_card() -> None:
    for c in CARDS:
        if 2 <= c.rank <= 6:
            expected = Kind.ENH
        elif 7 <= c.rank <= 10:
            expected = Kind.LND
        else:
            assert c.rank in (1, 11, 12, 13)
            expected = Kind.CRE
        assert c.kind is expected, str(c)
        assert KIND[c.index] is expected
        assert (c.is_enh, c.is_lnd, c.is_cre) == (
            expected is Kind.ENH,
            expected is Kind.LND,
            expected is Kind.CRE,
        )


def test_201_kind_examples() -> None:
    assert [card(t).kind.value for t in ("2H", "6S", "7D", "10C", "AS", "JH", "QD", "KC")] == [
        "Enh",
        "Enh",
        "Lnd",
        "Lnd",
        "Cre",
        "Cre",
        "Cre",
        "Cre",
    ]


def test_105_kind_counts_per_deck() -> None:
    kinds = [c.kind for c in deck()]
    assert kinds.count(Kind.ENH) == 20
    assert kinds.count(Kind.LND) == 16
    assert kinds.count(Kind.CRE) == 16


# --- Pwr/Tgh ("Creatures") ---------------------------------------------------------------------

PWR_TGH = {"A": (1, 1), "J": (1, 2), "Q": (2, 2), "K": (2, 3)}


def test_205_pwr_tgh_every_card() -> None:
    for text in ALL_TEXT:
        c = card(text)
        expected = PWR_TGH.get(text[:-1], (0, 0))
        assert (c.pwr, c.tgh) == expected, text
        assert (PWR[c.index], TGH[c.index]) == expected


# --- Costs (R20) ------------------------------------------------------------------------------

#: rank text -> (own-suit points, total points)
COSTS = {
    "A": (1, 2),  # Tgh 1 own suit + Pwr 1 generic
    "J": (2, 3),  # 2 + 1
    "Q": (2, 4),  # 2 + 2
    "K": (3, 5),  # 3 + 2
    "2": (1, 2),  # ceil(2/2) = 1 of 2
    "3": (2, 3),
    "4": (2, 4),
    "5": (3, 5),
    "6": (3, 6),
    "7": (0, 0),  # Lnds are free
    "8": (0, 0),
    "9": (0, 0),
    "10": (0, 0),
}


def test_206_207_r20_cost_every_card() -> None:
    for text in ALL_TEXT:
        c = card(text)
        suited, total = COSTS[text[:-1]]
        assert c.cost == Cost(c.suit, suited, total), text
        assert c.cost.generic == total - suited
        assert COST[c.index] == c.cost


def test_206_r20_cre_cost_is_tgh_suited_plus_pwr_generic() -> None:
    for c in CARDS:
        if c.is_cre:
            assert (c.cost.suited, c.cost.generic) == (c.tgh, c.pwr), str(c)


def test_207_r20_enh_cost_is_value_with_half_rounded_up_suited() -> None:
    assert {r: card(f"{r}H").cost.suited for r in range(2, 7)} == {2: 1, 3: 2, 4: 2, 5: 3, 6: 3}
    for c in CARDS:
        if c.is_enh:
            assert c.cost.total == c.rank
            assert c.cost.suit is c.suit


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("KS", "3S+2"),
        ("AH", "1H+1"),
        ("QD", "2D+2"),
        ("JC", "2C+1"),
        ("2H", "1H+1"),
        ("5C", "3C+2"),
        ("6D", "3D+3"),
        ("9D", "free"),
        ("10S", "free"),
    ],
)
def test_206_207_r20_cost_text(text: str, shown: str) -> None:
    assert str(card(text).cost) == shown


# --- Abilities (court cards) ---------------------------------------------------------------------

V, S, H, AL, CA = Ability.VOLLEY, Ability.SALLY, Ability.HARRY, Ability.ALLY, Ability.CARRY
ABILITY_TABLE: dict[str, frozenset[Ability]] = {
    "JC": frozenset({V}),  # javelin
    "JS": frozenset({V}),  # sling
    "KH": frozenset({S}),  # sword
    "KC": frozenset({S, AL}),  # sword and orb
    "KS": frozenset({S}),  # sword
    "JH": frozenset({H}),  # bill
    "KD": frozenset({H}),  # pikeaxe
    "JD": frozenset({H}),  # halberd
    "QS": frozenset({AL, CA}),  # sceptre and corsage
    "QH": frozenset({CA}),
    "QD": frozenset({CA}),
    "QC": frozenset({CA}),
}


def test_707_711_abilities_every_card() -> None:
    for text in ALL_TEXT:
        c = card(text)
        expected = ABILITY_TABLE.get(text, frozenset())
        assert c.abilities == expected, text
        assert ABILITIES[c.index] == expected


def test_707_711_ability_holders() -> None:
    holders = {a: sorted(str(c) for c in CARDS if a in c.abilities) for a in Ability}
    assert holders == {
        V: ["JC", "JS"],
        S: ["KC", "KH", "KS"],
        H: ["JD", "JH", "KD"],
        AL: ["KC", "QS"],
        CA: ["QC", "QD", "QH", "QS"],
    }


def test_707_711_aces_and_non_cres_have_no_ability() -> None:
    for c in CARDS:
        if c.rank == 1 or not c.is_cre:
            assert c.abilities == frozenset(), str(c)


# --- The deck ----------------------------------------------------------------------------------


def test_104_deck_has_52_distinct_cards() -> None:
    d = deck()
    assert len(d) == 52
    assert len(set(d)) == 52
    assert {c.suit for c in d} == set(Suit)
    for s in Suit:
        assert sorted(c.rank for c in d if c.suit is s) == list(range(1, 14))


def test_deck_is_a_fresh_list() -> None:
    d = deck()
    d.pop()
    assert len(deck()) == 52


def test_index_round_trip() -> None:
    for i, c in enumerate(CARDS):
        assert c.index == i
        assert Card.from_index(i) is c
        assert SUIT[i] == int(c.suit)
        assert RANK[i] == c.rank
    assert card("AC").index == 0
    assert card("KS").index == 51
    assert card("10H").index == 2 * 13 + 9


def test_902_r25_spot_count_of_a_card_in_its_own_suit() -> None:
    assert [spot(r) for r in range(1, 14)] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 1, 1]


# --- Text forms --------------------------------------------------------------------------------


def test_203_text_round_trip_all_52() -> None:
    assert [str(c) for c in CARDS] == ALL_TEXT
    for c in CARDS:
        assert Card.parse(str(c)) == c
        assert Card.parse(str(c).lower()) == c


@pytest.mark.parametrize(
    ("text", "shown"),
    [("AH", "AH"), ("10S", "10S"), ("TS", "10S"), ("kc", "KC"), (" qd ", "QD"), ("1S", "AS")],
)
def test_203_parse_forms(text: str, shown: str) -> None:
    assert str(Card.parse(text)) == shown


def test_parse_passes_cards_through() -> None:
    c = card("QH")
    assert Card.parse(c) is c


@pytest.mark.parametrize("text", ["1X", "", "11H", "ZZ", "H", "0H", "14S", "KX", "K", "A H"])
def test_203_parse_errors(text: str) -> None:
    with pytest.raises(CardParseError) as info:
        Card.parse(text)
    message = str(info.value)
    assert "is not a card" in message or "is not a suit" in message
    assert isinstance(info.value, ValueError)


def test_parse_error_message_is_helpful() -> None:
    with pytest.raises(CardParseError, match=r"'11H' is not a card: write rank then suit"):
        Card.parse("11H")
    with pytest.raises(CardParseError, match=r"'X' is not a suit: use C, D, H or S"):
        Card.parse("1X")


def test_rank_out_of_range() -> None:
    with pytest.raises(CardParseError, match="rank 14 is not 1-13"):
        Card(Suit.HEARTS, 14)
    with pytest.raises(CardParseError, match="rank 0 is not 1-13"):
        Card(Suit.HEARTS, 0)


def test_names_and_repr() -> None:
    assert card("KS").name == "King of Spades"
    assert card("AH").name == "Ace of Hearts"
    assert card("10D").name == "10 of Diamonds"
    assert repr(card("JC")) == "Card('JC')"


def test_cards_are_hashable_values() -> None:
    assert card("QH") == Card(Suit.HEARTS, 12)
    assert len({card("QH"), Card(Suit.HEARTS, 12)}) == 1
    assert card("2C") < card("KC") < card("AD")
