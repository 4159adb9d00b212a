"""A game between two people afterwards, in real Chromium (issue 45): the friend resigns, the
end dialog of each table links to the analysis and the replay, and the friend follows them
from their own browser context; the inviter opens the analysis from their games list, the
spectator from the spectator's table (its link's key carried along). Nobody is called "the
computer". Screenshots of the end dialog and the analysis page at a phone's, a tablet's and
a desktop's width (test-output/friend-over-*.png, friend-analysis-*.png)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from .test_friends_e2e import OUT, simple
from .ui import CHROMIUM, Server, act_through_ui, snapshot, wait_for_decision

pytestmark = pytest.mark.slow  # Debian's chromium

if not Path(CHROMIUM).exists():  # `make test` installs it; a bare pytest run may not have it
    pytest.skip(f"{CHROMIUM} is not installed (make test installs it)", allow_module_level=True)
pytest.importorskip("playwright.sync_api")

WIDTHS = (390, 1024, 1440)


def shoot(page: Any, name: str) -> None:
    OUT.mkdir(exist_ok=True)
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 844 if width == 390 else 900})
        page.screenshot(path=str(OUT / f"{name}-{width}.png"))


def analysis_shown(page: Any) -> str:
    """Wait for the analysis to be done and shown; its section's text."""
    page.wait_for_selector("#analysis-table", state="visible", timeout=120_000)
    text: str = page.inner_text("#analysis")
    assert "computer" not in text.lower(), text  # a person sat across the table
    return text


def test_after_a_resignation_each_player_and_the_spectator_reach_analysis_and_replay(
        browser: Any, tmp_path: Path) -> None:
    server = Server(tmp_path / "games.db", env={"PARLOR_ANALYSIS_ITERATIONS": "8"}).start()
    try:
        contexts = [browser.new_context(viewport={"width": 1024, "height": 800})
                    for _ in range(3)]
        host, guest, watcher = (ctx.new_page() for ctx in contexts)
        errors: list[str] = []
        for page in (host, guest, watcher):
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("dialog", lambda d: d.accept())  # "Resign this game?"
        host.goto(server.url + "/")
        host.select_option("#friend-seat", "1")
        host.select_option("#friend-turns", "20")
        host.click("#invite")
        host.wait_for_url("**/f/*")
        gid = host.url.split("/f/", 1)[1].split("#", 1)[0]
        guest.goto(host.input_value("#invite-link"))
        guest.click("#take-seat")
        guest.wait_for_url(f"**/f/{gid}")
        host.wait_for_function("() => window.parlor.snapshot().friend.seated")
        watcher.goto(server.url + host.get_attribute("#watch", "href"))

        # a few decisions, each seat's, so that the inviter (Rlr 1) has some to analyse
        seats, rng = {0: host, 1: guest}, random.Random(45)
        for _ in range(4):
            actor = snapshot(host)["friend"]["to_decide"]
            snap = wait_for_decision(seats[actor])
            act_through_ui(seats[actor], simple(snap["view"]["legal"], rng))
            seats[actor].wait_for_function(
                f"() => window.parlor.snapshot().version > {snap['version']}")
            seats[1 - actor].wait_for_function(
                f"() => window.parlor.snapshot().version > {snap['version']}")

        # a live game: its analysis and replay are refused, to the players as to anyone
        live = guest.goto(f"{server.url}/g/{gid}/analysis")
        assert live is not None and live.status == 409
        guest.goto(f"{server.url}/f/{gid}")

        # the friend resigns from the Game menu; both tables end with the end dialog
        guest.click(".sidebar-head summary")
        guest.click("#friend-resign")
        for page in (host, guest):
            page.wait_for_selector("#over[open]")
            assert page.is_visible("#over-analysis") and page.is_visible("#over-replay")
        shoot(guest, "friend-over")

        # the friend (the second seat's token) follows the dialog's links
        guest.set_viewport_size({"width": 1024, "height": 800})
        guest.click("#over-analysis")
        guest.wait_for_url(f"**/g/{gid}/analysis")
        text = analysis_shown(guest)
        assert "For each of your decisions" in text  # the friend's own (migration 0014)
        shoot(guest, "friend-analysis")
        guest.set_viewport_size({"width": 1024, "height": 800})
        guest.click("#analysis a.btn:has-text('Replay')")
        guest.wait_for_url(f"**/replay/{gid}*")
        assert guest.inner_text("#seat") == "Your seat"  # the friend's own: Rlr 2's
        guest.click("#seat")
        guest.wait_for_selector("#seat:has-text(\"Rlr 1's seat\")")

        # the inviter: from the games list
        host.goto(server.url + "/")
        host.click(f"a[href='/g/{gid}/analysis']")
        hosts = analysis_shown(host)
        assert "For each of your decisions" in hosts
        assert hosts != text  # the inviter's decisions, not the friend's
        host.click("#analysis a.btn:has-text('Replay')")
        host.wait_for_url(f"**/replay/{gid}*")
        assert host.inner_text("#seat") == "Your seat"
        host.click("#seat")
        host.wait_for_selector("#seat:has-text(\"Rlr 2's seat\")")

        # the spectator: from the spectator's table, its link's key carried along
        watcher.click("#watch-analysis")  # the inviter's, as everyone's was before 0014
        assert "For each of Rlr 1’s decisions" in analysis_shown(watcher)
        watcher.click("#analysis a.btn:has-text('Replay')")
        watcher.wait_for_url(f"**/replay/{gid}*k=*")
        assert watcher.inner_text("#seat") == "Rlr 1's seat"
        watcher.click("#seat")  # the next view comes from the API, with the key
        watcher.wait_for_selector("#seat:has-text(\"Rlr 2's seat\")")
        watcher.keyboard.press("ArrowLeft")
        watcher.wait_for_function("() => new URL(location.href).searchParams.get('k')")
        assert not errors, errors
        for ctx in contexts:
            ctx.close()
    finally:
        server.stop()
