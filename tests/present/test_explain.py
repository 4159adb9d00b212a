"""The "why" of ranking decisions, on real game logs; every rule it cites is on the rules page."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from parlor.present.explain import why
from parlor.rules.cards import Card
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.events import Event
from parlor.rules.ranking import compare
from parlor.web.rulesdoc import rules_doc


@pytest.mark.slow
def test_every_ranking_decision_of_real_games_has_a_why() -> None:
    """From the events' comparisons (``Event.why``): every bonus and expel, and the life an
    expel takes from a Domain; each rule the "why" cites is on the rules page."""
    anchors = set(rules_doc().rules)
    seen: Counter[str] = Counter()
    for seed in range(40):
        s = new_game(seed)
        rng = random.Random(seed)
        while not s.is_over:
            apply(s, rng.choice(legal_actions(s)))
        for e in s.log or []:
            w = why(e)
            if e.kind in ("bonus", "expel") or e.why is not None:
                assert w is not None, e.text
                assert w["rules"] and w["text"]
                assert all(r in anchors for r in w["rules"]), w["rules"]
                assert all(f"{r})" in w["text"] or f"{r}," in w["text"] for r in w["rules"])
                seen[e.kind] += 1
            else:
                assert w is None, e.text
    assert seen["bonus"] > 50 and seen["expel"] > 50 and seen["life"] > 0, seen


def cid(card: str, owner: int = 0) -> int:
    return owner * 52 + Card.parse(card).index


def expel(ex: str, target: str, how: tuple[int, ...], dest: str, trump: str | None = None,
          ) -> Event:
    """An expel event of Rlr 1's ``ex`` against Rlr 2's ``target`` (an entity)."""
    return Event("expel", 0, (cid(ex), cid(target.split("/")[0], 1)), how, "1104", dest,
                 target, compare(ex, target, trump=trump))


def test_the_why_reads_the_comparison_and_the_events_fields() -> None:
    c = compare("JC/2C/4H", "JH/4C/3H")  # 906: both hold M=4, the smaller lead wins
    w = why(Event("bonus", 0, why=c))
    assert w is not None and w["rules"] == ["1003.1", "903.3", "903.4", "905", "1003.3"]
    assert "The attacker JC/2C/4H {C2, H4} against the blocker JH/4C/3H {H3, C4}" in w["text"]
    assert "JH/4C/3H holds 4 too, in Clubs, but leads there by 2" in w["text"]
    assert "The attackers win" in w["text"]
    # The Domain wins by outtrumping, though outshown (903.5): O gains 2 life (1004.1).
    w = why(Event("bonus", 1, why=compare("KC/6H", "D:2S", trump="S")))
    assert w is not None and "903.5" in w["rules"] and "1004.1" in w["rules"]
    assert "KC/6H's 6 in Hearts outshows it" in w["text"] and "gains 2 life" in w["text"]
    # 1106: 4C outranks JH/3C, 1 damage, to Recycle; the JH's Enh goes with it.
    e = expel("4C", "JH/3C", (1, 0, 3, 1), "Recycle")
    assert e.text == "4C expels JH/3C: outranks in Clubs 4 to 3, 1 damage, to Recycle"
    w = why(e)
    assert w is not None
    assert w["rules"] == ["1102", "903.3", "903.4", "1102.2", "905", "1103.1", "1104.3",
                          "1104.4", "1104.1"]
    assert "half the differential of 1, rounded up: 1" in w["text"]
    # A lone Enh outshown: level, but enough to expel it (1102.1).
    e = expel("5C", "4S", (0, 0, 0), "Recycle")
    assert e.text == "5C expels 4S: outshows it, Clubs 5 over Spades 4, to Recycle"
    w = why(e)
    assert w is not None and w["rules"] == ["1102", "903.4", "1102.1", "1104.3", "1104.1"]
    # Equal trumps cancel out (903.6); a Lnd is only expelled by outtrumping (1102.3).
    w = why(Event("bonus", 0, why=compare("JS/5H", "QS/2H", trump="S")))
    assert w is not None and "903.6" in w["rules"]
    e = expel("2S", "9D", (2, 3, 0), "Discard", trump="S")
    assert e.text == "2S expels 9D: outtrumps in Spades 2 to 0, to Discard"
    w = why(e)
    assert w is not None and {"1102.3", "1103.3", "1104.2"} <= set(w["rules"])
    # 1106: the expel beats the whole Domain 6S/5C, so O loses life.
    e = Event("life", 1, (cid("6C"),), (1, 19), "1103.2", "expel",
              why=compare("6C", "D:6S/5C"))
    assert e.text == "Rlr 2 loses 1 life (6C beats the Domain): 19 left"
    w = why(e)
    assert w is not None and w["rules"] == ["1103.2", "903.3", "903.4", "905"]
    assert "Rlr 2 loses the bonus, 1 life" in w["text"]
    # No comparison, no why; but for the Trumps stack (805.2), told by its fields.
    assert why(Event("life", 1, (), (3, 17), "1005", "unblocked")) is None
    e = Event("expel", 0, (cid("3H", 1), cid("5H")), (3,), "805.2", "stack")
    assert e.text == ("Rlr 1 expels 3H from the Trumps stack with 5H: both to Discard, "
                      "Spades are trumps")
    w = why(e)
    assert w is not None and w["rules"] == ["805.2"] and "Spades are now trumps." in w["text"]
