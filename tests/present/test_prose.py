"""The log as people read it: rendered from the events' fields (kind, actor, cards, amounts,
rule), never parsed out of the engine's sentences; each event cites a section of the rules."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

import parlor.present
from parlor.present.prose import prose, result_words
from parlor.rules.cards import Card
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.events import Event
from parlor.web.rulesdoc import rules_doc


def cid(card: str, owner: int = 0) -> int:
    return owner * 52 + Card.parse(card).index


def played(seed: int) -> list[Event]:
    s = new_game(seed)
    rng = random.Random(seed)
    while not s.is_over:
        apply(s, rng.choice(legal_actions(s)))
    return list(s.log or ())


def test_every_event_of_real_games_cites_a_section_of_the_rules() -> None:
    anchors = set(rules_doc().rules)
    kinds = set()
    for seed in range(1, 11):
        for e in played(seed):
            assert e.rule in anchors, (e.kind, e.rule, e.text)
            kinds.add(e.kind)
    assert {"turn", "draw", "play", "attack", "bonus", "damage", "life"} <= kinds


EXAMPLES = [
    # (event, seat 0's words, seat 1's words, a spectator's words)
    (Event("setup", amounts=(1,), rule="105"),
     "Each Rlr is dealt 7 cards from the Lnds and Enhs; the computer goes first",
     "Each Rlr is dealt 7 cards from the Lnds and Enhs; you go first",
     "Each Rlr is dealt 7 cards from the Lnds and Enhs; Rlr 2 goes first"),
    (Event("untax", 0, amounts=(2,), rule="304.1"),
     "You untax 2 cards taxed on their turn", "The computer untaxes 2 cards taxed on their turn",
     "Rlr 1 untaxes 2 cards taxed on their turn"),
    (Event("tax", 1, (cid("9S", 1),), (2,), "601"),
     "The computer taxes 9♠: +1 Hearts mnr (trump)", "You tax 9♠: +1 Hearts mnr (trump)",
     "Rlr 2 taxes 9♠: +1 Hearts mnr (trump)"),
    (Event("play", 0, (cid("4D"), 201), rule="801", detail="enh"),
     "You play 4♦ on the computer's Domain", "The computer plays 4♦ on your Domain",
     "Rlr 1 plays 4♦ on Rlr 2's Domain"),
    (Event("ability", 1, (cid("JS", 1), cid("QH")), rule="707", detail="volley"),
     "The Jack of Spades Volleys your Queen of Hearts: 1 damage",
     "The Jack of Spades Volleys the computer's Queen of Hearts: 1 damage",
     "The Jack of Spades Volleys the Queen of Hearts: 1 damage"),
    (Event("damage", None, (cid("QH"), cid("JS", 1)), (1, 1), "1007", "Volley"),
     "Your Queen of Hearts takes 1 damage (Volley by the Jack of Spades), terminal",
     "The computer's Queen of Hearts takes 1 damage (Volley by the Jack of Spades), terminal",
     "The Queen of Hearts of Rlr 1 takes 1 damage (Volley by the Jack of Spades), terminal"),
    (Event("expel", 0, (cid("4C"), cid("JH", 1)), (1, 0, 3, 1), "1104", "Recycle", "JH/3C"),
     "4♣ expels the Jack of Hearts with 3♣: outranks in Clubs 4 to 3, 1 damage, to Recycle",
     "4♣ expels the Jack of Hearts with 3♣: outranks in Clubs 4 to 3, 1 damage, to Recycle",
     "4♣ expels the Jack of Hearts with 3♣: outranks in Clubs 4 to 3, 1 damage, to Recycle"),
    (Event("life", 1, (), (3, 17), "1005", "unblocked"),
     "The computer loses 3 life (unblocked attackers): 17 left",
     "You lose 3 life (unblocked attackers): 17 left",
     "Rlr 2 loses 3 life (unblocked attackers): 17 left"),
    (Event("win", 0, rule="1204", detail="resign"),
     "You win: the computer resigns", "The computer wins: you resign", "Rlr 1 wins: Rlr 2 resigns"),
]


@pytest.mark.parametrize(("event", "mine", "theirs", "public"), EXAMPLES,
                         ids=[e.kind for e, *_ in EXAMPLES])
def test_an_event_reads_as_you_the_computer_or_rlr_n(event: Event, mine: str, theirs: str,
                                                     public: str) -> None:
    assert prose(event, 0, 0) == mine
    assert prose(event, 1, 1) == theirs
    assert prose(event, None, None) == public


def test_r30_drawn_cards_are_named_only_to_their_player() -> None:
    draw = Event("draw", 0, (cid("AD"), cid("2C")), rule="305")
    assert prose(draw, 0, 0) == "You draw the Ace of Diamonds, 2♣"
    assert prose(draw, 1, 1) == "The computer draws 2 cards"
    assert prose(draw, None, None) == "Rlr 1 draws 2 cards"
    assert draw.text == "Rlr 1 draws 2 cards" and draw.secret == "You draw AD, 2C"
    keep = Event("keep", 1, (cid("KS", 1), cid("4H", 1)), rule="305")
    assert prose(keep, 1, 1) == "You keep the King of Spades and recycle 4♥"
    assert prose(keep, 0, 0) == "The computer keeps a card and recycles the other"


def test_the_result_is_the_end_event_in_words() -> None:
    log = played(3)
    assert log[-1].kind in ("win", "draw_game")
    words = result_words(log, log[-1].text, 0)
    assert words == prose(log[-1], 0, 0)
    assert result_words([], "Rlr 1 wins", 0) == "Rlr 1 wins"  # a position's given result


def test_no_module_of_parlor_present_parses_text_with_regular_expressions() -> None:
    """The log in words comes from the events' fields: nothing in parlor.present reads the
    engine's sentences back (issue 40), so no module there imports ``re``."""
    for path in Path(parlor.present.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                assert all(a.name != "re" for a in node.names), path.name
            if isinstance(node, ast.ImportFrom):
                assert node.module != "re", path.name
