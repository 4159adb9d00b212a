"""The rules page and the "why" of ranking decisions, on real game logs."""

from __future__ import annotations

import random

from parlor.rules.engine import apply, legal_actions, new_game
from parlor.web.explain import why
from parlor.web.rulesdoc import render, rules_doc


def test_every_ranking_sentence_of_real_games_has_a_why() -> None:
    seen = 0
    for seed in range(40):
        s = new_game(seed)
        rng = random.Random(seed)
        while not s.is_over:
            apply(s, rng.choice(legal_actions(s)))
        for e in s.log or []:
            if e.kind in ("bonus", "expel"):
                w = why(e.kind, e.text)
                assert w is not None, e.text
                assert w["rules"] and w["text"]
                seen += 1
            else:
                assert why(e.kind, e.text) is None
    assert seen > 50


def test_rules_page_has_an_anchor_for_every_rule_cited_by_the_why() -> None:
    doc = rules_doc()
    anchors = set(doc.rules)
    for rule in ("903.2", "903.3", "903.4", "905", "1003", "1004", "1102.1", "1103",
                 "1104", "805.2"):
        assert rule in anchors or rule.partition(".")[0] in anchors, rule
    assert len(doc.rulings) == 32  # R1-R32 each link to the rules applying them


def test_the_renderer() -> None:
    doc = render("# T\n\n**101.** One (see 102).\n\n**102.** Two `x<y>` **b** *i* [R3].\n"
                 "- 102.1 A sub-rule\n  continued\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
                 "\n```\ncode <here>\n```\n")
    html = doc.html
    assert '<p class="rule" id="r101">' in html and 'href="#r102"' in html
    assert "<code>x&lt;y&gt;</code>" in html and "<strong>b</strong>" in html
    assert "<em>i</em>" in html and 'href="#R3"' in html
    assert 'id="r102.1"' in html and "continued" in html
    assert "<td>1</td>" in html and "code &lt;here&gt;" in html
    assert doc.rulings == {"R3": ["102"]}
