"""The "why" of ranking decisions, on real game logs; every rule it cites is on the rules page."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from parlor.present.explain import why
from parlor.rules.engine import apply, legal_actions, new_game
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
            w = why(e.kind, e.text, e.why)
            if e.kind in ("bonus", "expel") or e.why is not None:
                assert w is not None, e.text
                assert w["rules"] and w["text"]
                assert all(r in anchors for r in w["rules"]), w["rules"]
                assert all(f"{r})" in w["text"] or f"{r}," in w["text"] for r in w["rules"])
                seen[e.kind] += 1
            else:
                assert w is None, e.text
    assert seen["bonus"] > 50 and seen["expel"] > 50 and seen["life"] > 0, seen


def test_the_why_reads_the_comparison_not_the_sentence() -> None:
    c = compare("JC/2C/4H", "JH/4C/3H")  # 906: both hold M=4, the smaller lead wins
    w = why("bonus", "(any sentence)", c)
    assert w is not None and w["rules"] == ["1003.1", "903.3", "903.4", "905", "1003.3"]
    assert "The attacker JC/2C/4H {C2, H4} against the blocker JH/4C/3H {H3, C4}" in w["text"]
    assert "JH/4C/3H holds 4 too, in Clubs, but leads there by 2" in w["text"]
    assert "The attackers win" in w["text"]
    # The Domain wins by outtrumping, though outshown (903.5): O gains 2 life (1004.1).
    w = why("bonus", "", compare("KC/6H", "D:2S", trump="S"))
    assert w is not None and "903.5" in w["rules"] and "1004.1" in w["rules"]
    assert "KC/6H's 6 in Hearts outshows it" in w["text"] and "gains 2 life" in w["text"]
    # 1106: 4C outranks JH/3C, 1 damage, to Recycle; the JH's Enh goes with it.
    w = why("expel", "4C expels JH/3C: outranks in Clubs 4 to 3, 1 damage, to Recycle",
            compare("4C", "JH/3C"))
    assert w is not None
    assert w["rules"] == ["1102", "903.3", "903.4", "1102.2", "905", "1103.1", "1104.3",
                          "1104.4", "1104.1"]
    assert "half the differential of 1, rounded up: 1" in w["text"]
    # A lone Enh outshown: level, but enough to expel it (1102.1).
    w = why("expel", "5C expels 4S: outshows it, Clubs 5 over Spades 4, to Recycle",
            compare("5C", "4S"))
    assert w is not None and w["rules"] == ["1102", "903.4", "1102.1", "1104.3", "1104.1"]
    # Equal trumps cancel out (903.6); a Lnd is only expelled by outtrumping (1102.3).
    w = why("bonus", "", compare("JS/5H", "QS/2H", trump="S"))
    assert w is not None and "903.6" in w["rules"]
    w = why("expel", "2S expels 9D: outtrumps in Spades 2 to 0, to Discard",
            compare("2S", "9D", trump="S"))
    assert w is not None and {"1102.3", "1103.3", "1104.2"} <= set(w["rules"])
    # 1106: the expel beats the whole Domain 6S/5C, so O loses life.
    w = why("life", "Rlr 2 loses 1 life (6C beats the Domain): 19 left", compare("6C", "D:6S/5C"))
    assert w is not None and w["rules"] == ["1103.2", "903.3", "903.4", "905"]
    assert "Rlr 2 loses the bonus, 1 life" in w["text"]
    # No comparison, no why; but for the Trumps stack (805.2), told by its sentence.
    assert why("bonus", "JD/3C outranks D:2C in Clubs, 3 to 2: bonus 1") is None
    assert why("life", "Rlr 2 loses 3 life (combat): 17 left") is None
    w = why("expel", "Rlr 1 expels 3H from the Trumps stack with 5H: both to Discard, "
            "Spades are trumps")
    assert w is not None and w["rules"] == ["805.2"] and "Spades are now trumps." in w["text"]
