"""axe-core and the contrast check on every lesson after the first, at a phone, a small laptop
and a desktop width (test_table_a11y.py, which checks the first lesson and every other page;
the lessons are a file of their own so that the suite's two processes share the pages)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .ui import CHROMIUM

pytestmark = pytest.mark.slow  # `make check` leaves it out: Debian's chromium

if not Path(CHROMIUM).exists():  # `make test` installs it; a bare pytest run may not have it
    pytest.skip(f"{CHROMIUM} is not installed (make test installs it)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")

from .test_table_a11y import (  # noqa: E402
    LESSON_PAGES,
    Site,
    axe_and_contrast_at_three_widths,
)


@pytest.fixture(scope="module")
def site(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """The same site as test_table_a11y.py's: its games, tournament and signed-in account."""
    s = Site(browser, tmp_path_factory.mktemp("a11y-lessons"))
    yield s
    s.close()


@pytest.mark.parametrize("name", LESSON_PAGES)
def test_axe_and_contrast_on_every_lesson_at_three_widths(browser: Any, site: Site,
                                                          name: str) -> None:
    axe_and_contrast_at_three_widths(browser, site, name)
