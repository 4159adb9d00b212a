"""Rules 600 Lnds: one mnr of the base suit whatever the value (601, R21), trump-sourced mnr
(602, R21) that keeps its suit (501), and the Lnd play limit (603, R6) with the rules text's
example of a P who summons first."""

from __future__ import annotations

from parlor.rules.state import Phase

from .scenario import options, refused, said, setup, zone

# -- 601, 602 the mnr a Lnd gives -----------------------------------------------------------


def test_601_r21_every_lnd_gives_one_mnr_of_its_base_suit_whatever_its_value() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        1.hand: KS
        1.home: 10S 7S 9S/2H 8D/2:6D 7C
    """)
    assert said(s, "play KS tax 10S 7S 9S 8D 7C spend SSSDC")[:5] == [
        "Rlr 1 taxes 10S: +1 Spades mnr",
        "Rlr 1 taxes 7S: +1 Spades mnr",
        "Rlr 1 taxes 9S: +1 Spades mnr",  # an Enh of another suit changes nothing (no trumps)
        "Rlr 1 taxes 8D: +1 Diamonds mnr",
        "Rlr 1 taxes 7C: +1 Clubs mnr",
    ]
    assert zone(s, "1.pool") == ""


def test_602_r21_a_lnd_carrying_an_enh_of_the_trump_suit_gives_trump_mnr() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        trumps: 2:2H
        1.hand: AH
        1.home: 9S/3H 8S 7S/2:4C
    """)
    # 9S carries a Hearts Enh and Hearts are trumps: it pays AH's Hearts point
    assert said(s, "play AH") == [
        "Rlr 1 taxes 9S: +1 Hearts mnr (trump)",
        "Rlr 1 taxes 8S: +1 Spades mnr",
        "Rlr 1 pays 1 Hearts, 1 Spades mnr for AH",
        "Rlr 1 summons AH to the Field (inactive)",
    ]


def test_602_r21_without_that_trump_the_same_lnd_gives_its_base_suit() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        trumps: 2:2C
        1.hand: AH
        1.home: 9S/3H 8S
    """)
    assert options(s) == ["pass"]
    # Clubs are trumps, so 9S/3H gives a Spade and no Hearts point can be raised
    refused(s, "play AH", "206: AH costs 1H+1, more mnr than Rlr 1 can raise")
    refused(s, "play AH tax 9S 8S", "206: AH costs 1H+1, more mnr than Rlr 1 can raise")


def test_501_r21_mnr_keeps_the_suit_it_was_made_in_when_the_trump_suit_changes() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        trumps: 2:2H
        1.hand: 4S AH
        1.home: 9S/3H 8S 7S 10S 7C 8C
        2.hand: 2D
        2.home: 7D 8D
    """)
    # P taxes 9S while Hearts are trumps, keeps that Hearts point, and makes Spades trumps
    said(s, "play 4S on T tax 9S 8S 7S 10S 7C spend SSSC")
    assert (zone(s, "trumps"), zone(s, "1.pool")) == ("2:2H 1:4S", "H1")
    said(s, "play 2D on D2")
    # the point is still Hearts: it pays AH's Hearts point, 8C the generic one
    assert said(s, "play AH") == [
        "Rlr 1 taxes 8C: +1 Clubs mnr",
        "Rlr 1 pays 1 Clubs, 1 Hearts mnr for AH",
        "Rlr 1 summons AH to the Field (inactive)",
    ]
    assert zone(s, "1.pool") == ""


# -- 603 the Lnd play limit [R6] ---------------------------------------------------------------


def test_603_r6_a_lnd_is_free_goes_home_and_is_the_one_card_of_p_option() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        1.hand: 9S
        2.hand: 5H
    """)
    assert options(s) == ["play 9S", "pass"]
    assert said(s, "play 9S") == ["Rlr 1 plays the Lnd 9S to Home"]
    assert (zone(s, "1.home"), zone(s, "1.hand"), zone(s, "lnd_played")) == ("9S", "", "yes")
    assert (s.phase, s.actor) == (Phase.WINDOW1, 1)


def test_603_r6_a_lnd_takes_no_target() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        1.hand: 9S
        1.field: KS
    """)
    refused(s, "play 9S on D1", "603: a Lnd is played to its Home, with no target")
    refused(s, "play 9S on 1:KS", "603: a Lnd is played to its Home, with no target")
    refused(s, "expel 9S at 1:KS", "603: a Lnd is played to its Home, with no target")


def test_603_r6_only_the_phasing_rlr_may_play_a_lnd() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        1.hand: 2S
        1.home: 9S 8S
        2.hand: 9D 2D
        2.home: 7D 8D
    """)
    said(s, "play 2S on D1")
    assert (s.actor, options(s)[-1]) == (1, "pass")
    assert "play 9D" not in options(s)
    refused(s, "play 9D", "603: only the phasing Rlr plays a Lnd, on its own turn")


def test_603_r6_at_most_one_lnd_per_turn() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        1.hand: 9S 8S
        2.hand: 2D
        2.home: 7D 8D
        1.draw: 5H 9D
    """)
    said(s, "play 9S", "play 2D on D2")
    assert options(s) == ["pass"]
    refused(s, "play 8S", "603: one Lnd per turn, and this turn's Lnd is played")
    # the limit is per turn: P's next turn may play one again
    said(s, "pass", "end", "keep AC", "pass", "end", "keep 5H")
    assert (s.turn, s.phasing, zone(s, "lnd_played")) == (3, 0, "no")
    assert options(s) == ["play 8S", "pass"]


def test_603_r6_a_lnd_may_be_taxed_on_the_turn_it_is_played() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        1.hand: 9S 2S
        1.home: 7C
        2.hand: 2D
        2.home: 7D 8D
    """)
    assert options(s) == ["play 9S", "pass"]  # 2S (1 Spades + 1) is out of reach
    said(s, "play 9S", "play 2D on D2")
    assert said(s, "play 2S on D1") == [
        "Rlr 1 taxes 9S: +1 Spades mnr",
        "Rlr 1 taxes 7C: +1 Clubs mnr",
        "Rlr 1 pays 1 Clubs, 1 Spades mnr for 2S",
        "Rlr 1 plays 2S on Rlr 1's Domain",
    ]


def test_603_r6_p_may_play_its_lnd_in_the_second_window_after_o_plays() -> None:
    s = setup("""
        phasing: 1
        phase: window1
        1.hand: AS 7S
        1.home: 9S 8S
        1.field: KS
        2.hand: 2H
        2.home: 7H 8H
    """)
    said(s, "play AS", "pass", "attack KS")
    assert (s.phase, s.actor) == (Phase.WINDOW2, 1)
    said(s, "play 2H on D2")
    assert (s.phase, s.actor, options(s)) == (Phase.WINDOW2, 0, ["play 7S", "pass"])
    assert said(s, "play 7S")[0] == "Rlr 1 plays the Lnd 7S to Home"


def test_603_example_p_summons_first_and_o_passes_so_p_must_attack_to_play_its_lnd() -> None:
    # The rules text: "If it's preferred to instead summon a card on the phasing Rlr's first
    # action option, and the opponent passes, the Rlr would have to initiate an attack in order
    # to be able to drop a Lnd card upon the option following combat resolution, or else yield
    # the turn to the opponent without playing a Lnd."
    s = setup("""
        phasing: 1
        phase: window1
        1.hand: AS 7S
        1.home: 9S 8S
        1.field: KS
        2.hand: 2H
        2.home: 7H 8H
    """)
    assert options(s) == ["play AS", "play 7S", "pass"]
    said(s, "play AS")
    said(s, "pass")  # O passes: the first window is closed
    assert (s.phase, s.actor, options(s)) == (Phase.ATTACK, 0, ["attack KS", "end"])
    refused(s, "play 7S", "R7: Rlr 1 must now declare attackers, or end the turn; "
            "'play' is not possible (attack, done, end)")

    # either P yields the turn without its Lnd ...
    yielded = s.clone()
    said(yielded, "end")
    assert (yielded.phasing, zone(yielded, "1.hand"), zone(yielded, "1.home")) == (
        1, "7S", "9S{t1} 8S{t1}")

    # ... or P attacks; O passes the second window too, so P's next option is the first
    # window of the next Turn Cycle, after the combat
    said(s, "attack KS")
    assert (s.phase, s.actor) == (Phase.WINDOW2, 1)
    assert said(s, "pass") == ["Rlr 2 loses 2 life (unblocked attackers): 18 left"]
    assert (s.phase, s.actor, options(s)) == (Phase.WINDOW1, 0, ["play 7S", "pass"])
    assert said(s, "play 7S")[0] == "Rlr 1 plays the Lnd 7S to Home"
    assert zone(s, "1.home") == "9S{t1} 8S{t1} 7S"


def test_604_enhs_may_be_played_on_the_lnds_of_either_rlr() -> None:
    s = setup("""
        settings: step
        phasing: 1
        phase: window1
        1.hand: 2S
        1.home: 9S 8S
        2.home: 7D
    """)
    assert options(s) == [
        "play 2S on 1:9S", "play 2S on 1:8S", "play 2S on 2:7D",
        "play 2S on D1", "play 2S on D2", "play 2S on T", "pass",
    ]
    said(s, "play 2S on 2:7D")
    assert zone(s, "2.home") == "7D/1:2S"
