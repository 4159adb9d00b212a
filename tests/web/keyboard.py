"""Driving the table from the keyboard alone: Tab and Shift+Tab to a control, Enter or Space to
use it. Nothing here clicks; a test can count mouse events on the page to prove it."""

from __future__ import annotations

from playwright.sync_api import Page

_FOCUSED = ("() => { const a = document.activeElement; return a ?"
            " (a.dataset.key || a.dataset.act || a.dataset.action || a.id || '') : ''; }")
# Where ``want`` lies from the focus: 'here' (focused, named as _FOCUSED names it), 'ahead',
# 'behind', or null (not on the page yet). One round trip for each Tab: a whole keyboard game
# presses some 400 of them.
_WHERE = ("""want => { const a = document.activeElement;
  const name = a ? (a.dataset.key || a.dataset.act || a.dataset.action || a.id || '') : '';
  if (name === want) return 'here';
  const t = [...document.querySelectorAll('[data-key], [data-act], [data-action], [id]')]
    .find(e => (e.dataset.key || e.dataset.act || e.dataset.action || e.id) === want);
  if (!t) return null;
  return a.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING ? 'ahead' : 'behind';
}""")


def focused(page: Page) -> str:
    name: str = page.evaluate(_FOCUSED)
    return name


def tab_to(page: Page, want: str, limit: int = 120) -> None:
    """Tab (or Shift+Tab, whichever way it lies) until ``want`` has the focus: a card's key,
    a control's data-act, an option's action, or an element's id."""
    for _ in range(limit):
        where = page.evaluate(_WHERE, want)
        if where == "here":
            return
        if where is None:
            page.wait_for_timeout(30)
            continue
        page.keyboard.press("Tab" if where == "ahead" else "Shift+Tab")
    raise AssertionError(f"Tab never reached {want!r} (focus on {focused(page)!r})")


def has(page: Page, selector: str) -> bool:
    found: bool = page.evaluate(f"() => !!document.querySelector({selector!r})")
    return found


def act_by_keyboard(page: Page, action: str, me: int) -> None:
    """Make ``action`` with the keys a player would press. A payment by hand (``play X tax A
    B``) ticks "Choose Lnds to pay", picks the Lnds with Space and pays with the button (Enter
    pays from anywhere: the button's label says so)."""
    w = action.split()
    v = w[0]
    if v in ("pass", "done", "end"):
        page.keyboard.press(v[0])
        return
    if action == "redraw":
        page.keyboard.press("r")
        page.wait_for_function("document.activeElement.dataset.act === 'redraw-confirm'")
        page.keyboard.press("Enter")
        return
    taxes: list[str] = []
    if " tax " in action:
        action, rest = action.split(" tax ")
        taxes = rest.split()
        w = action.split()
        set_pay_by_hand(page, True)
    if v == "redraw":
        page.keyboard.press("r")
        tab_to(page, f"h:{w[1]}")
        page.keyboard.press("Enter")
        return
    actor = None
    if v in ("trim", "play", "expel"):
        actor = f"h:{w[1]}"
    elif v == "keep":
        actor = f"d:{w[1]}"
    elif v not in ("assign", "bonus"):
        actor = f"{me + 1}:{w[1]}"
    target = (w[1] if v in ("assign", "bonus") else
              w[3] if v in ("play", "expel") and len(w) > 3 else
              w[2] if v not in ("play", "expel") and len(w) > 2 else None)
    if actor:
        tab_to(page, actor)
        page.keyboard.press("Enter")
    if target and not _option(page, action):
        tab_to(page, target)
        page.keyboard.press("Enter")
    _option(page, action)
    if taxes:
        page.wait_for_selector('[data-act="pay-confirm"]')
        for lnd in taxes:
            tab_to(page, f"{me + 1}:{lnd}")
            page.keyboard.press("Space")
        tab_to(page, "pay-confirm")
        page.keyboard.press("Enter")


def _option(page: Page, action: str) -> bool:
    """When one card fits several decisions the page offers them as buttons: take ours."""
    page.wait_for_timeout(20)
    if has(page, f'button.option[data-action="{action}"]'):
        tab_to(page, action)
        page.keyboard.press("Enter")
        return True
    return False


def set_pay_by_hand(page: Page, on: bool) -> None:
    page.wait_for_selector("#pay-by-hand")
    if page.evaluate("document.getElementById('pay-by-hand').checked") != on:
        tab_to(page, "pay-by-hand")
        page.keyboard.press("Space")
