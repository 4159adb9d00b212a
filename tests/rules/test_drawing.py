"""Rules 304.3 and 305-310 Drawing [R29]: trim to 7, draw two and keep one, the one-card-left
Draw pile, depleted piles, and the Redraw — with the rules text's own examples.

In these positions the drawing Rlr is Rlr 1, who starts a turn when Rlr 2 ends its own
(``phasing: 2``, ``phase: attack``, then ``end``). Every card a position does not place lies at
the bottom of its owner's Draw pile, so ``1.draw: 5H 9D`` makes 5H and 9D the next two cards;
:func:`all_but` puts the rest of a deck in the Discard pile when a scenario needs a short pile.
"""

from __future__ import annotations

from parlor.rules import engine
from parlor.rules.actions import Action
from parlor.rules.engine import legal_actions
from parlor.rules.state import DOMAIN, FACE, NONE, STACK, Phase

from .scenario import (
    all_but,
    cid,
    cids,
    options,
    random_positions,
    refused,
    said,
    setup,
    texts,
    zone,
)

TURN_ENDS = ["Rlr 2 does not attack: the turn ends", "Turn 2: Rlr 1 is the phasing Rlr"]


# -- 304.3 trim --------------------------------------------------------------------------------


def test_304_3_r29_p_recycles_down_to_7_in_hand_before_drawing() -> None:
    s = setup("""
        phasing: 2
        phase: attack
        1.hand: 4C 2S 3S 4S 5S 6S 9S 10S 7C
        1.draw: 5H 9D
    """)
    assert said(s, "end") == TURN_ENDS
    assert (s.phase, s.actor) == (Phase.TRIM, 0)
    assert options(s) == ["trim 4C", "trim 2S", "trim 3S", "trim 4S", "trim 5S", "trim 6S",
                          "trim 9S", "trim 10S", "trim 7C"]
    refused(s, "keep 5H", "R7: Rlr 1 must now recycle cards down to 7 in Hand; "
            "'keep' is not possible (trim)")
    refused(s, "trim 5H", "304.3: 5H is not in your Hand: trim a card that is in your Hand")
    assert said(s, "trim 4C") == ["Rlr 1 recycles a card to keep 7 in Hand"]
    assert s.phase is Phase.TRIM  # still 8 cards
    assert said(s, "trim 10S") == ["Rlr 1 recycles a card to keep 7 in Hand",
                                   "Rlr 1 draws 2 cards"]
    assert zone(s, "1.recycle") == "10S 4C"  # face down, the last one on top (310)
    assert zone(s, "1.hand") == "2S 3S 4S 5S 6S 9S 7C"
    assert zone(s, "drawn") == "5H 9D"
    assert [e.text_for(0) for e in (s.log or [])][-3:] == [
        "You recycle 4C to keep 7 in Hand",
        "You recycle 10S to keep 7 in Hand",
        "You draw 5H, 9D",
    ]


def test_305_r29_a_hand_of_7_is_not_trimmed_and_may_reach_8() -> None:
    s = setup("""
        phasing: 2
        phase: attack
        1.hand: 2S 3S 4S 5S 6S 9S 10S
        1.draw: 5H 9D
    """)
    assert said(s, "end") == [*TURN_ENDS, "Rlr 1 draws 2 cards"]
    said(s, "keep 9D")
    assert zone(s, "1.hand") == "2S 3S 4S 5S 6S 9S 10S 9D"
    assert len(s.hand[0]) == 8


# -- 305 draw two, keep one ----------------------------------------------------------------------


def test_305_r29_p_draws_two_keeps_one_and_recycles_the_other() -> None:
    s = setup("""
        phasing: 2
        phase: attack
        1.hand: 4C 2S
        1.home: 9S
        1.draw: 5H 9D 3C
    """)
    said(s, "end")
    assert (s.phase, s.actor, zone(s, "drawn")) == (Phase.KEEP, 0, "5H 9D")
    assert options(s) == ["keep 5H", "keep 9D", "redraw 4C", "redraw 2S"]
    refused(s, "keep 3C", "305: 3C was not just drawn: keep one of the drawn cards")
    assert said(s, "keep 9D") == ["Rlr 1 keeps a card and recycles the other"]
    assert zone(s, "1.hand") == "4C 2S 9D"
    assert zone(s, "1.recycle") == "5H"
    assert zone(s, "drawn") == ""
    assert zone(s, "1.draw").startswith("3C ")
    assert (s.phase, s.actor) == (Phase.WINDOW1, 0)
    assert (s.log or [])[-1].text_for(0) == "You keep 9D and recycle 5H"


# -- 306, 307 one card left: take it, then shuffle the Recycle pile in ---------------------------


def test_306_r29_one_card_left_is_taken_first_then_the_recycle_pile_is_shuffled_in() -> None:
    # The rules text: "If but one card remains in a Rlr's Draw pile at the start of his turn,
    # he takes that as the first drawn card before shuffling the Recycle pile back into his
    # Draw pile and taking the second drawn card from it."
    s = setup(f"""
        phasing: 2
        phase: attack
        1.hand: 4C 2S
        1.draw: 5H
        1.recycle: 9D
        1.discard: {all_but("4C 2S 5H 9D")}
    """)
    events = said(s, "end")
    assert events[:2] == TURN_ENDS
    # (the engine writes "(1 cards)"; the wording is not the point here)
    assert events[2].startswith("Rlr 1 shuffles the Recycle pile into the Draw pile (1 card")
    assert events[3:] == ["Rlr 1 draws 2 cards"]
    assert zone(s, "drawn") == "5H 9D"
    assert (zone(s, "1.draw"), zone(s, "1.recycle")) == ("", "")


def test_306_r29_the_second_card_comes_from_the_shuffled_recycle_pile() -> None:
    s = setup(f"""
        phasing: 2
        phase: attack
        shuffle: 77 0
        1.hand: 4C 2S
        1.draw: 5H
        1.recycle: 9D 3C 8H
        1.discard: {all_but("4C 2S 5H 9D 3C 8H")}
    """)
    assert said(s, "end")[2] == "Rlr 1 shuffles the Recycle pile into the Draw pile (3 cards)"
    first, second = s.drawn
    assert first == cids(1, "5H")[0]
    assert sorted([second, *s.draw[0]]) == sorted(cids(1, "9D 3C 8H"))
    assert (len(s.draw[0]), s.recycle[0]) == (2, [])
    assert zone(s, "shuffle") == "77 1"  # the first reshuffle of this game's shuffle seed


def test_307_r31_a_reshuffle_is_seeded() -> None:
    text = f"""
        phasing: 2
        phase: attack
        shuffle: {{seed}} 0
        1.hand: 4C
        1.recycle: 2H 3H 4H 5H 6H 7H 8H 9H 10H
        1.discard: {all_but("4C 2H 3H 4H 5H 6H 7H 8H 9H 10H")}
    """
    orders = []
    for seed in (1, 1, 2, 3):
        s = setup(text.format(seed=seed))
        said(s, "end")
        orders.append(zone(s, "drawn") + " / " + zone(s, "1.draw"))
    assert orders[0] == orders[1]
    assert len(set(orders)) == 3


def test_307_r29_the_recycle_pile_is_shuffled_in_only_when_a_card_must_be_drawn() -> None:
    s = setup(f"""
        phasing: 2
        phase: attack
        1.hand: 4C 9S
        1.draw: 5H 9D
        1.recycle: 3C
        1.discard: {all_but("4C 9S 5H 9D 3C")}
        2.hand: 7S
    """)
    said(s, "end", "keep 5H")
    # the Draw pile is empty now, but nothing needs drawing: the Recycle pile waits
    assert (zone(s, "1.draw"), zone(s, "1.recycle")) == ("", "9D 3C")
    assert all("shuffles" not in t for t in texts(s))
    # P plays its Lnd and, having no Cre, does not attack; Rlr 2 keeps a card and passes;
    # then Rlr 1 needs a card again: now the pile is shuffled in
    said(s, "play 9S", "keep AC", "pass")
    assert texts(s)[-2:] == [
        "Rlr 1 shuffles the Recycle pile into the Draw pile (2 cards)",
        "Rlr 1 draws 2 cards",
    ]
    assert sorted(s.drawn) == sorted(cids(1, "9D 3C"))


# -- 308 depleted piles -------------------------------------------------------------------------


def test_308_r29_with_one_card_in_all_p_keeps_it_or_redraws() -> None:
    s = setup(f"""
        phasing: 2
        phase: attack
        1.hand: 4C 2S
        1.draw: 5H
        1.discard: {all_but("4C 2S 5H")}
    """)
    assert said(s, "end") == [*TURN_ENDS, "Rlr 1 draws 1 card"]
    assert zone(s, "drawn") == "5H"
    assert options(s) == ["keep 5H", "redraw 4C", "redraw 2S"]
    said(s, "keep 5H")
    assert zone(s, "1.hand") == "4C 2S 5H"
    assert zone(s, "1.recycle") == ""


def test_308_r29_with_draw_and_recycle_depleted_p_draws_nothing_and_plays_on() -> None:
    s = setup(f"""
        phasing: 2
        phase: attack
        1.hand: 4C 9S
        1.discard: {all_but("4C 9S")}
    """)
    assert said(s, "end") == [*TURN_ENDS, "Rlr 1 has no cards left to draw"]
    assert (s.phase, s.actor, zone(s, "drawn")) == (Phase.WINDOW1, 0, "")
    assert zone(s, "1.hand") == "4C 9S"
    assert options(s) == ["play 9S", "pass"]


# -- 309 Redraw --------------------------------------------------------------------------------


def test_309_r29_redraw_recycles_a_hand_card_with_both_drawn_cards_and_draws_again() -> None:
    # The rules text: "To Redraw, the Rlr first needs to select one card currently out of his
    # Hand (not including the two presently drawn cards) which will be recycled along with the
    # two drawn cards. ... Then, after recycling the drawn cards and any selected card, another
    # Draw as usual is performed. The Rlr's current turn is ended upon performing a Redraw: an
    # opponent immediately becomes the phasing Rlr."
    s = setup("""
        phasing: 2
        phase: attack
        1.hand: 4C 2S
        1.draw: 5H 9D 3C 8C
        2.draw: 6H 6D
    """)
    said(s, "end")
    assert said(s, "redraw 4C") == [
        "Rlr 1 Redraws, recycling 3 cards; the turn ends",
        "Rlr 1 draws 2 cards",
    ]
    assert (s.log or [])[-2].text_for(0) == "You Redraw, recycling 5H, 9D, 4C"
    assert zone(s, "1.recycle") == "4C 9D 5H"
    assert zone(s, "1.hand") == "2S"
    assert (s.phase, zone(s, "drawn")) == (Phase.KEEP, "3C 8C")
    # the second draw is as usual, but there is no second Redraw
    assert options(s) == ["keep 3C", "keep 8C"]
    refused(s, "redraw 2S", "309.2: only one Redraw is allowed per turn, and this turn's is made")
    assert said(s, "keep 3C") == [
        "Rlr 1 keeps a card and recycles the other",
        "Turn 3: Rlr 2 is the phasing Rlr",
        "Rlr 2 draws 2 cards",
    ]
    assert zone(s, "1.hand") == "2S 3C"
    assert zone(s, "1.recycle") == "8C 4C 9D 5H"
    assert (s.phasing, s.phase, zone(s, "drawn")) == (1, Phase.KEEP, "6H 6D")


def test_309_1_r29_a_redraw_names_a_hand_card_not_a_drawn_one() -> None:
    s = setup("""
        phasing: 2
        phase: attack
        1.hand: 4C 2S
        1.draw: 5H 9D
    """)
    said(s, "end")
    refused(s, "redraw 5H", "309.1: 5H is not in your Hand: a Redraw recycles the drawn cards "
            "with one Hand card that was not just drawn")
    refused(s, "redraw", "309.1: a Redraw names one card from your Hand")
    refused(s, "redraw 7C", "309.1: 7C is not in your Hand: a Redraw recycles the drawn cards "
            "with one Hand card that was not just drawn")


def test_309_1_r29_with_an_empty_hand_a_redraw_recycles_only_the_drawn_cards() -> None:
    s = setup("""
        phasing: 2
        phase: attack
        1.draw: 5H 9D 3C 8C
    """)
    said(s, "end")
    assert options(s) == ["keep 5H", "keep 9D", "redraw"]
    refused(s, "redraw 5H", "309.1: your Hand is empty: a Redraw names no card "
            "(say 'redraw' alone)")
    assert said(s, "redraw") == [
        "Rlr 1 Redraws, recycling 2 cards; the turn ends",
        "Rlr 1 draws 2 cards",
    ]
    assert zone(s, "1.recycle") == "9D 5H"
    assert zone(s, "drawn") == "3C 8C"


def test_309_2_r29_a_redraw_draws_as_usual_even_from_the_recycle_pile() -> None:
    s = setup(f"""
        phasing: 2
        phase: attack
        1.hand: 4C
        1.draw: 5H 9D
        1.discard: {all_but("4C 5H 9D")}
    """)
    said(s, "end")
    assert said(s, "redraw 4C") == [
        "Rlr 1 Redraws, recycling 3 cards; the turn ends",
        "Rlr 1 shuffles the Recycle pile into the Draw pile (3 cards)",
        "Rlr 1 draws 2 cards",
    ]
    assert sorted([*s.drawn, *s.draw[0]]) == sorted(cids(1, "4C 5H 9D"))
    assert len(s.drawn) == 2


def test_309_3_r1_r29_a_redraw_turn_still_untaxed_and_burned() -> None:
    s = setup("""
        phasing: 2
        phase: attack
        1.pool: S2
        1.hand: 4C
        1.home: 9S{t1} 8S{t2}
        1.field: AS{i}
        1.draw: 5H 9D 3C 8C
    """)
    said(s, "end", "redraw 4C", "keep 8C")
    assert texts(s)[:5] == [
        "Rlr 2 does not attack: the turn ends",
        "Turn 2: Rlr 1 is the phasing Rlr",
        "Rlr 1 untaxes 1 card taxed on their turn",
        "Rlr 1 burns 2 mnr: 18 life",
        "Rlr 1 draws 2 cards",
    ]
    assert (s.turn, s.phasing) == (3, 1)
    assert (s.life[0], zone(s, "1.pool")) == (18, "")
    assert zone(s, "1.home") == "9S 8S"  # 8S untaxed when Rlr 2's turn 3 started
    assert zone(s, "1.field") == "AS"
    assert zone(s, "1.hand") == "8C"


# -- one verify per verb: the listing, apply's refusal and "why not" ask the same ----------------


def test_304_3_305_309_trims_keeps_and_redraws_are_listed_exactly_when_their_verify_accepts(
) -> None:
    """The trim, keep and Redraw listings agree with engine.verify_trim, verify_keep and
    verify_redraw (which apply's refusal and "why not" render): at every trim and keep step
    of seeded random games, an action naming any card of P's (and a Redraw naming none) is
    listed exactly when its verify answers None."""
    seen: set[Phase] = set()
    for seed, s in random_positions(range(40)):
        if s.phase in (Phase.TRIM, Phase.KEEP):
            seen.add(s.phase)
            listed = set(legal_actions(s))
            p = s.phasing
            verifies = ((("trim", engine.verify_trim),) if s.phase is Phase.TRIM else
                        (("keep", engine.verify_keep), ("redraw", engine.verify_redraw)))
            for verb, verify in verifies:
                for c in range(p * 52, p * 52 + 52):
                    ok = verify(s, c) is None
                    assert ok == (Action(verb, FACE[c]) in listed), (seed, verb, c)
            ok = engine.verify_redraw(s, NONE) is None and s.phase is Phase.KEEP
            assert ok == (Action("redraw") in listed), seed
    assert seen == {Phase.TRIM, Phase.KEEP}


def test_r7_a_draw_decision_of_the_wrong_form_is_refused_with_the_form() -> None:
    """Actions no text parses to: a trim or keep naming no card, or a target; a Redraw
    naming a target; a pass naming a card."""
    s = setup("""
        phasing: 2
        phase: attack
        1.hand: 4C 2S
        1.draw: 5H 9D
    """)
    said(s, "end")
    refused(s, Action("keep"), "R7: 'keep' names one card of yours and no target")
    refused(s, Action("keep", FACE[cid("1:5H")], STACK),
            "R7: 'keep' names one card of yours and no target")
    refused(s, Action("redraw", FACE[cid("1:4C")], DOMAIN[0]),
            "R7: 'redraw' names one card of your Hand, or none, and no target")
    said(s, "keep 9D")
    assert s.phase is Phase.WINDOW1  # play the Lnd 9D, or pass
    refused(s, Action("pass", FACE[cid("1:4C")]),
            "R7: 'pass' is said alone, with no card or target")
