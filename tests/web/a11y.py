"""Accessibility checks run inside the browser tests: axe-core (the copy that the
``axe-playwright-python`` package ships, so nothing is fetched at test time), page overflow and
overlap measured from the layout."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

VIEWPORTS = ((390, 844), (1024, 768), (1440, 900))
_AXE = Axe()


def axe_problems(page: Page) -> list[str]:
    """Every serious or critical axe violation, and every contrast failure of any impact
    (text under 4.5:1 fails WCAG AA), as '<rule> (<impact>): <target> <summary>' lines."""
    # label-content-name-mismatch is experimental: axe leaves it out unless asked (issue 41
    # found it on the Hand's cards)
    results = _AXE.run(page, options={"resultTypes": ["violations"], "rules": {
        "label-content-name-mismatch": {"enabled": True}}}).response
    out = []
    for v in results["violations"]:
        if v["impact"] in ("serious", "critical") or v["id"].startswith("color-contrast"):
            for node in v["nodes"]:
                out.append(f"{v['id']} ({v['impact']}): {node['target']} "
                           f"{node.get('failureSummary', '')[:160]}")
    return out


def overflow(page: Page) -> dict[str, Any]:
    """The document's width against the viewport's: a page that scrolls sideways fails."""
    got: dict[str, Any] = page.evaluate(
        "() => ({scroll: document.documentElement.scrollWidth,"
        " client: document.documentElement.clientWidth,"
        " wide: [...document.querySelectorAll('body *')].filter(e => {"
        "   const r = e.getBoundingClientRect();"
        "   return r.width && r.right > document.documentElement.clientWidth + 1 &&"
        "     !e.closest('.sr-only, .sprite, .cards, .pile-pop, .menu-body, dialog:not([open])');"
        " }).slice(0, 5).map(e => e.tagName + '.' + e.className)})")
    return got


def covered(page: Page, selector: str) -> list[str]:
    """Which of the elements matching ``selector`` are covered, at their centre or corners, by
    something that is not inside them (e.g. a sticky bar over your life)."""
    hits: list[str] = page.evaluate(
        """sel => [...document.querySelectorAll(sel)].flatMap(el => {
             el.scrollIntoView({block: 'center'});
             const r = el.getBoundingClientRect();
             const pts = [[r.left + r.width / 2, r.top + r.height / 2], [r.left + 2, r.top + 2],
                          [r.right - 2, r.bottom - 2]];
             return pts.filter(([x, y]) => {
               const top = document.elementFromPoint(x, y);
               return top && !el.contains(top) && !top.contains(el);
             }).map(([x, y]) => `${el.className} at ${Math.round(x)},${Math.round(y)} under ` +
                   document.elementFromPoint(x, y).className);
           })""", selector)
    return hits


# The contrast of every visible text against every colour that can be behind it: solid
# backgrounds and each stop of a gradient (axe leaves text on gradients "incomplete"), with
# translucent layers and opacity composited, so a label on the felt is measured too.
_CONTRAST_JS = (Path(__file__).parent / "contrast.js").read_text()


def low_contrast(page: Page) -> list[str]:
    """Every visible text under 4.5:1 against the worst colour behind it."""
    found: list[str] = page.evaluate(_CONTRAST_JS)
    return found
