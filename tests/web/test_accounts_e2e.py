"""Accounts end to end in real Chromium (issue 43): sign up with a password on a browser that
has a game, sign in on a second browser context and find the same games; a rated game
draws the rating graph (SVG, by the page); lesson progress follows the account."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from .ui import CHROMIUM, ROOT, Server

pytestmark = pytest.mark.slow  # `make check` leaves it out: Debian's chromium

OUT = ROOT / "test-output"
PASSWORD = "a long enough passphrase"

if not Path(CHROMIUM).exists():  # `make test` installs it; a bare pytest run may not have it
    pytest.skip(f"{CHROMIUM} is not installed (make test installs it)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture
def server(tmp_path: Path) -> Any:
    ratings = tmp_path / "ratings.json"
    ratings.write_text(json.dumps({"levels": {"random": {"rating": 800, "rd": 40}}}))
    s = Server(tmp_path / "acc.db", env={"PARLOR_LEVEL_RATINGS": str(ratings)}).start()
    try:
        yield s
    finally:
        s.stop()


def deal(page: Any, url: str) -> str:
    page.goto(url + "/")
    page.select_option("#level", "novice")
    page.click("#deal")
    page.wait_for_url("**/g/*")
    return str(page.url.rsplit("/", 1)[1])


def play_rated_game(page: Any, url: str) -> str:
    """A match game against ``random`` (calibrated here) played out through the API with
    the page's own cookies: the game joins the signed-in account as it starts."""
    r = page.request.post(url + "/api/games", data={"level": "random", "mode": "match",
                                                     "max_turns": 6})
    assert r.status == 201, r.text()
    game = r.json()
    rng = random.Random(3)
    headers = {"X-Parlor-Token": game["token"]}
    snap = game["snapshot"]
    for _ in range(2000):
        if snap["status"] == "over":
            return str(game["id"])
        if snap["your_turn"]:
            r = page.request.post(f"{url}/api/games/{game['id']}/actions", headers=headers,
                                  data={"action": rng.choice(snap["view"]["legal"]),
                                        "version": snap["version"]})
            assert r.status == 200, r.text()
        else:
            r = page.request.get(f"{url}/api/games/{game['id']}?after={snap['version']}&wait=2",
                                 headers=headers)
        snap = r.json()
    raise AssertionError("the game did not end")


def test_password_sign_up_then_a_second_browser_signs_in_and_sees_the_same_games(
        browser: Any, server: Server) -> None:
    OUT.mkdir(exist_ok=True)
    first = browser.new_context(viewport={"width": 1280, "height": 900})
    page = first.new_page()
    game_id = deal(page, server.url)
    page.evaluate("""() => localStorage.setItem("pm-learn",
                     JSON.stringify({"overview": {"done": true, "moves": []}}))""")
    page.goto(server.url + "/")
    page.click("nav >> text=Account")
    page.fill("#signup-name", "ann")
    page.fill("#signup-password", PASSWORD)
    page.click("#signup")
    page.wait_for_url("**/profile")
    assert page.locator(f'[data-game="{game_id}"]').count() == 1  # adopted
    page.wait_for_function("() => document.body.dataset.prefsSynced === '1'")
    cookies = {c["name"]: c for c in first.cookies()}
    session = cookies["parlor_session"]
    assert session["httpOnly"] and session["sameSite"] == "Lax" and not session["secure"]

    rated = play_rated_game(page, server.url)
    page.goto(server.url + "/profile")
    assert page.locator("#rating-graph circle.point").count() == 1
    assert page.locator("#rating-graph polyline.line").count() == 1
    assert page.inner_text("#rating-value").strip().isdigit()
    page.screenshot(path=str(OUT / "profile.png"), full_page=True)

    second = browser.new_context()
    other = second.new_page()
    other.goto(server.url + "/account")
    other.fill("#signin-name", "ann")
    other.fill("#signin-password", PASSWORD)
    other.click("#signin")
    other.wait_for_url("**/profile")
    for gid in (game_id, rated):
        assert other.locator(f'[data-game="{gid}"]').count() == 1
    assert other.inner_text("#rating-value") == page.inner_text("#rating-value")
    other.wait_for_function("() => document.body.dataset.prefsSynced === '1'")
    progress = json.loads(other.evaluate("() => localStorage.getItem('pm-learn')"))
    assert progress["overview"]["done"] is True  # lesson progress followed the account
    other.goto(server.url + "/")
    assert other.locator(f'a[href="/g/{game_id}"]').count() >= 1  # "Your games" here too
    other.click(f'[href="/g/{game_id}"] >> nth=0')
    other.wait_for_url(f"**/g/{game_id}")
    assert other.locator("#table, .table").count() >= 1

    other.goto(server.url + "/profile")
    other.click("#signout-all")
    other.wait_for_url("**/account")
    page.goto(server.url + "/profile")
    page.wait_for_url("**/account")  # signed out everywhere: the first browser too
    first.close()
    second.close()


def virtual_authenticator(context: Any, page: Any) -> tuple[Any, str]:
    """Chromium's virtual authenticator for ``page`` (DevTools protocol): a platform
    authenticator that holds passkeys, verifies the user and needs no touch."""
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    added = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
        "hasUserVerification": True, "isUserVerified": True,
        "automaticPresenceSimulation": True}})
    return cdp, str(added["authenticatorId"])


def test_passkey_sign_up_then_sign_in_on_a_second_browser_with_the_same_passkey(
        browser: Any, server: Server) -> None:
    url = server.url.replace("127.0.0.1", "localhost")  # an IP address is no passkey site
    first = browser.new_context()
    page = first.new_page()
    cdp, authenticator = virtual_authenticator(first, page)
    game_id = deal(page, url)
    page.goto(url + "/account")
    page.fill("#signup-name", "pat")
    page.click("#passkey-signup")
    page.wait_for_url("**/profile")
    assert page.locator(f'[data-game="{game_id}"]').count() == 1
    assert "1 passkey" in page.inner_text("#manage-h + p")
    held = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})
    assert len(held["credentials"]) == 1 and held["credentials"][0]["isResidentCredential"]

    second = browser.new_context()
    other = second.new_page()
    other_cdp, other_authenticator = virtual_authenticator(second, other)
    # the same passkey on the second device (as a synced passkey would be)
    other_cdp.send("WebAuthn.addCredential", {"authenticatorId": other_authenticator,
                                              "credential": held["credentials"][0]})
    other.goto(url + "/account")
    other.click("#passkey-signin")
    other.wait_for_url("**/profile")
    assert "pat" in other.inner_text("#profile-h")
    assert other.locator(f'[data-game="{game_id}"]').count() == 1

    stranger = browser.new_context()
    lost = stranger.new_page()
    virtual_authenticator(stranger, lost)  # an authenticator without this site's passkey
    lost.goto(url + "/account")
    lost.click("#passkey-signin")
    lost.wait_for_function("() => document.getElementById('passkey-message').textContent")
    assert "/account" in lost.url
    for ctx in (first, second, stranger):
        ctx.close()


def test_export_downloads_a_zip_and_delete_removes_the_account_and_its_games(
        browser: Any, server: Server, tmp_path: Path) -> None:
    import zipfile

    ctx = browser.new_context(accept_downloads=True)
    page = ctx.new_page()
    game_id = deal(page, server.url)
    page.goto(server.url + "/account")
    page.fill("#signup-name", "dee")
    page.fill("#signup-password", PASSWORD)
    page.click("#signup")
    page.wait_for_url("**/profile")
    with page.expect_download() as download:
        page.click("#export")
    path = tmp_path / "export.zip"
    download.value.save_as(path)
    summary = json.loads(zipfile.ZipFile(path).read("account.json"))
    assert summary["username"] == "dee" and [g["id"] for g in summary["games"]] == [game_id]
    page.click(".delete-account summary")
    page.check('input[name="games"][value="delete"]')
    page.fill("#confirm", "dee")
    page.click("#delete")
    page.wait_for_url("**/account")
    page.goto(server.url + f"/g/{game_id}")
    assert "No such game" in page.inner_text("main")
    page.goto(server.url + "/account")
    page.fill("#signin-name", "dee")
    page.fill("#signin-password", PASSWORD)
    page.click("#signin")
    assert "do not match" in page.inner_text("#account-error")
    ctx.close()


def test_the_account_and_profile_pages_pass_axe(browser: Any, server: Server) -> None:
    from .a11y import axe_problems

    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(server.url + "/account")
    page.fill("#signin-name", "nobody")
    page.fill("#signin-password", "wrong password")
    page.click("#signin")  # the page with its error shown
    problems = axe_problems(page)
    page.fill("#signup-name", "eve")
    page.fill("#signup-password", PASSWORD)
    page.click("#signup")
    page.wait_for_url("**/profile")
    play_rated_game(page, server.url)
    page.goto(server.url + "/profile")
    problems += axe_problems(page)
    assert not problems, "\n".join(problems)
    ctx.close()


def test_the_account_page_fits_a_phone_without_scrolling_sideways(browser: Any,
                                                                  server: Server) -> None:
    """At 390 px the sign-up form's labels (with their long hints) stand above their fields:
    side by side they pushed the page to 587 px."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    page.goto(server.url + "/account")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    box = page.locator("#signup-password").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390
    ctx.close()
