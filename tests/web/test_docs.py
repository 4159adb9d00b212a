"""The rules page: docs/rules.md rendered, with an anchor for every rule the "why" cites."""

from __future__ import annotations

from parlor.web.rulesdoc import render, rules_doc


def test_rules_page_has_an_anchor_for_every_rule_cited_by_the_why() -> None:
    doc = rules_doc()
    anchors = set(doc.rules)
    for rule in ("903.2", "903.3", "903.4", "903.5", "903.6", "905", "1003.1", "1003.3",
                 "1004", "1004.1", "1004.2", "1102", "1102.1", "1102.2", "1102.3", "1103.1",
                 "1103.2", "1103.3", "1104.1", "1104.2", "1104.3", "1104.4", "805.2"):
        assert rule in anchors, rule
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
