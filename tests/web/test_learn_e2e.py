"""End to end in real Chromium: a learner opens /learn, completes the first lesson and a
combat lesson only by clicks (a wrong move on the way is explained and changes nothing), and
the pages fit a phone. Screenshots go to test-output/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from parlor.learn.lessons import load_all

from .ui import CHROMIUM, ROOT, Server, act_through_ui, wait_for_decision

pytestmark = pytest.mark.slow  # `make check` leaves it out: Debian's chromium

OUT = ROOT / "test-output"

if not Path(CHROMIUM).exists():  # `make test` installs it; a bare pytest run may not have it
    pytest.skip(f"{CHROMIUM} is not installed (make test installs it)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")
LESSONS = {x.id: x for x in load_all()}



@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("learn") / "learn.db").start()
    yield s
    s.stop()


def play_lesson(page: object, lesson_id: str, wrong: str | None = None) -> None:
    """Every step's move through the table's controls, with a wrong try first if given."""
    lesson = LESSONS[lesson_id]
    for n, step in enumerate(lesson.steps):
        snap = wait_for_decision(page)  # type: ignore[arg-type]
        assert snap["lesson"]["step"] == n
        if wrong is not None and n == 0:
            act_through_ui(page, wrong)  # type: ignore[arg-type]
            page.wait_for_function(  # type: ignore[attr-defined]
                "() => document.getElementById('lesson-feedback').textContent.length > 0")
            assert page.evaluate("window.parlor.snapshot().version") == 0  # type: ignore[attr-defined]
            page.screenshot(path=str(OUT / f"lesson-{lesson_id}-wrong.png"))  # type: ignore[attr-defined]
            page.locator('[data-act="cancel"]').first.click() if page.locator(  # type: ignore[attr-defined]
                '[data-act="cancel"]').count() else None
        version = snap["version"]
        act_through_ui(page, step.solution)  # type: ignore[arg-type]
        page.wait_for_function(  # type: ignore[attr-defined]
            f"() => window.parlor.snapshot().version > {version}")
    page.wait_for_function(  # type: ignore[attr-defined]
        "() => window.parlor.snapshot().lesson.finished")


def test_a_learner_completes_the_first_lesson_and_a_combat_lesson_by_clicks(
        browser: object, server: Server) -> None:
    OUT.mkdir(exist_ok=True)
    ctx = browser.new_context(viewport={"width": 1280, "height": 860})  # type: ignore[attr-defined]
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/")
    page.click("header >> text=Learn")
    page.wait_for_url("**/learn")
    page.screenshot(path=str(OUT / "learn-desktop.png"), full_page=True)
    page.click("#learn-start")
    page.wait_for_url("**/learn/lnds")
    play_lesson(page, "lnds", wrong="play 10D")
    assert "Lesson complete" in page.inner_text("#over")
    page.screenshot(path=str(OUT / "lesson-lnds-done.png"))
    page.click("#over-close")

    page.goto(server.url + "/learn")
    assert "done" in page.inner_text('[data-state="lnds"]')  # remembered in this browser
    page.click('a[href="/learn/attack"]')
    page.wait_for_url("**/learn/attack")
    play_lesson(page, "attack", wrong="attack KH")
    page.screenshot(path=str(OUT / "lesson-attack-done.png"))
    page.goto(server.url + "/learn")
    assert "done" in page.inner_text('[data-state="attack"]')
    assert errors == []
    ctx.close()


def test_a_lesson_resumes_where_the_browser_left_it(browser: object, server: Server) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 860})  # type: ignore[attr-defined]
    page = ctx.new_page()
    page.goto(server.url + "/learn/cres")
    wait_for_decision(page)
    assert page.inner_text('[data-key="h:KS"]').strip().endswith("3♠+2")  # costs on cards
    page.click('[data-key="h:QH"]')  # not castable: the page says why, from the engine
    assert "Why not? QH costs 2♥+2" in page.inner_text("#message")
    act_through_ui(page, "play KS")
    page.wait_for_function("() => window.parlor.snapshot().version === 1")
    page.reload()
    wait_for_decision(page)
    assert page.evaluate("window.parlor.snapshot().lesson.step") == 1
    page.focus('[data-key="h:QH"]')  # a keyboard user hears why not, too
    assert "Why not? QH: Hand cards are played only in a window (403)" in page.inner_text(
        "#message")
    ctx.close()


def test_a_lesson_is_completed_on_a_phone(browser: object, server: Server) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844},  # type: ignore[attr-defined]
                              is_mobile=True, has_touch=True)
    page = ctx.new_page()
    page.goto(server.url + "/learn/sally")
    play_lesson(page, "sally")
    page.screenshot(path=str(OUT / "lesson-sally-phone-done.png"))
    ctx.close()


@pytest.mark.parametrize(("path", "width"), [("/learn", 390), ("/learn", 320),
                                             ("/learn/blocking", 390)])
def test_the_learn_pages_fit_a_phone(browser: object, server: Server, path: str,
                                     width: int) -> None:
    ctx = browser.new_context(viewport={"width": width, "height": 844},  # type: ignore[attr-defined]
                              is_mobile=True, has_touch=True)
    page = ctx.new_page()
    page.goto(server.url + path)
    if path != "/learn":
        wait_for_decision(page)
    name = path.strip("/").replace("/", "-")
    page.screenshot(path=str(OUT / f"{name}-phone-{width}.png"), full_page=True)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1
    ctx.close()
