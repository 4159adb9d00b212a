""""Why not?" from the engine: each reason a card has no legal action, and costs on cards."""

from __future__ import annotations

import random
import re

from parlor.present.whynot import cost_text, costs, why_not
from parlor.rules.cards import Card
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.notation import parse_position
from parlor.rules.state import Phase, Settings


def test_costs_are_printed_as_suit_and_generic_mnr_206_207() -> None:
    assert cost_text(Card.parse("KS").index) == "3♠+2"
    assert cost_text(Card.parse("AH").index) == "1♥+1"
    assert cost_text(Card.parse("5C").index) == "3♣+2"
    assert cost_text(Card.parse("2D").index) == "1♦+1"
    assert cost_text(Card.parse("9D").index) == "free"
    s = parse_position("phasing: 1\n1.hand: QH 7C\n")
    assert costs(s, 0) == {"QH": "2♥+2", "7C": "free"}


def test_a_card_the_pool_and_untaxed_lnds_cannot_pay_for_says_so_206() -> None:
    s = parse_position("phasing: 1\n1.hand: QH\n1.home: 7H 8S 9S{t1}\n1.pool: S1\n")
    why = why_not(s, 0)["h:QH"]
    assert why.startswith("QH costs 2♥+2: you can raise 3 mnr, 1 of them ♥")
    assert why.endswith("(206, 405)")


def test_only_one_lnd_per_turn_603() -> None:
    s = parse_position("phasing: 1\nlnd_played: yes\n1.hand: 9D\n")
    assert why_not(s, 0)["h:9D"] == "9D: 603: one Lnd per turn, and this turn's Lnd is played"


def test_only_the_phasing_rlr_plays_a_lnd_603() -> None:
    s = parse_position("phasing: 1\nphase: window2\nactor: 2\n2.hand: 9D\n2.field: KS\n"
                       "1.field: AH\ncombat: attackers=1:AH")
    assert "only the phasing Rlr" in why_not(s, 1)["h:9D"]


def test_hand_cards_wait_for_a_window_403() -> None:
    s = parse_position("phasing: 1\nphase: attack\n1.hand: 2C\n1.field: KS\n")
    assert "only in a window (403)" in why_not(s, 0)["h:2C"]


def test_summoning_sickness_303() -> None:
    s = parse_position("phasing: 1\nphase: attack\n1.field: KS{i} QS\n")
    assert why_not(s, 0)["1:KS"] == ("703: KS is inactive (it arrived this turn) and cannot "
                                     "attack until your next turn")
    assert "1:QS" not in why_not(s, 0)


def test_a_taxed_attacker_cannot_block_302_1() -> None:
    s = parse_position("phasing: 2\nphase: block\nactor: 1\n1.field: KS{t1} KH\n2.field: QC\n"
                       "combat: attackers=2:QC")
    why = why_not(s, 0)
    assert why["1:KS"].startswith("704: KS is taxed and cannot block") and "302.1" in why["1:KS"]
    assert "1:KH" not in why


def test_no_ability_or_no_target_706() -> None:
    s = parse_position("phasing: 1\nphase: ability_p\n1.field: AH QS\n2.field: JH\n"
                       "combat: attackers=1:AH blocks=2:JH>1:AH")
    why = why_not(s, 0)
    assert why["1:AH"] == "AH has no ability (707-711)"
    # QS's two abilities, each with the engine's refusal: no Lnd to Carry, no Spade to Ally
    assert why["1:QS"] == ("711: no card could be the target of QS's Carry; "
                           "710: 2:JH is not of QS's suit")


def test_why_not_gives_the_engines_refusal_of_each_ability_705() -> None:
    s = parse_position("phasing: 1\nphase: ability_p\n1.field: KH JS{i} JC{t1}\n"
                       "2.field: QC\ncombat: attackers=1:KH blocks=2:QC>1:KH")
    why = why_not(s, 0)
    assert why["1:JS"] == "703: JS is inactive (summoned this turn) and uses no ability"
    assert why["1:JC"] == "705.2: JC is taxed, and its Volley would tax it"
    assert why["1:KH"] == "708: no Cre of KH's colour blocks it"  # QC is black, KH red


def test_nothing_is_said_when_the_rlr_does_not_decide() -> None:
    s = parse_position("phasing: 1\n1.hand: KS\n")
    assert why_not(s, 1) == {}


def test_after_a_redraw_a_hand_card_says_only_one_redraw_309_2() -> None:
    s = parse_position("phasing: 1\nphase: keep\nredrawn: yes\n1.hand: 4C\ndrawn: 5H 9D\n")
    assert why_not(s, 0)["h:4C"] == ("4C: 309.2: only one Redraw is allowed per turn, and this "
                                     "turn's is made")
    s = parse_position("phasing: 1\nphase: keep\n1.hand: 4C\ndrawn: 5H 9D\n")
    assert "h:4C" not in why_not(s, 0)  # it may be named by a Redraw


def test_a_split_point_goes_only_to_a_blocker_of_the_split_attacker_1003_2() -> None:
    s = parse_position("phasing: 1\nphase: attack\n1.hand: 7C\n1.field: KS\n2.field: AH AD QC\n")
    for action in ("attack KS", "block AH 1:KS", "block AD 1:KS", "done"):
        apply(s, action)
    assert s.phase is Phase.SPLIT
    why = why_not(s, 0)
    assert why["2:QC"] == ("1003.2: 2:QC does not block 1:KS: its Pwr is split among its "
                           "blockers (2:AH, 2:AD)")
    assert "2:AH" not in why and "2:AD" not in why


def test_a_bonus_point_goes_only_to_an_opposing_cre_in_the_comparison_1003_3() -> None:
    s = parse_position("phasing: 1\nphase: attack\n1.hand: 7C\n1.field: KS AC 2C{i}\n"
                       "2.field: QS/5S\n")
    for action in ("attack KS", "attack AC", "block QS 1:KS", "done"):
        apply(s, action)
    assert (s.phase, s.actor) == (Phase.BONUS, 1)
    why = why_not(s, 1)
    assert why["1:2C"] == ("1003.3: 1:2C is not an opposing Cre in the comparison: the bonus "
                           "goes to 1:KS, 1:AC")
    assert "1:KS" not in why and "1:AC" not in why


def test_why_not_gives_a_reason_at_every_step_of_random_games() -> None:
    """At every decision of seeded random games (forced steps shown or not), each reason is
    the engine's refusal of an action the listing left out: no verify accepts what the
    listing refused (whynot asserts it), and every reason names its rule."""
    for seed in range(6):
        s = new_game(seed, Settings(auto=seed % 2 == 0))
        rng = random.Random(seed)
        while not s.is_over:
            for reason in why_not(s, s.actor).values():
                assert re.search(r"\b(R\d+|\d{3,4}(\.\d)?)\b", reason), reason
            apply(s, rng.choice(legal_actions(s)))
