"""The analysis page tells the truth (issue 41): a decision without an estimate reads "no
estimate" (never 50%) and has no point on the chart, and the number is labelled as the
expert's estimate between equal players."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..ai.test_analysis import record_of
from .test_table_person import WIDE, page_of, serious_axe
from .ui import CHROMIUM, Server

pytestmark = pytest.mark.slow  # `make check` leaves it out: Debian's chromium

if not Path(CHROMIUM).exists():  # `make test` installs it; a bare pytest run may not have it
    pytest.skip(f"{CHROMIUM} is not installed (make test installs it)", allow_module_level=True)

#: tests/ai/test_analysis.py: in this seeded random line, Rlr 1's decision at ply 105 is a
#: split, which the expert does not estimate.
SPLIT_PLY = 105


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("analysis") / "analysis.db", pace=0.0,
               env={"PARLOR_ANALYSIS_ITERATIONS": "16"}).start()
    yield s
    s.stop()


def test_a_decision_without_an_estimate_says_so_and_the_number_is_labelled(
        browser: Any, server: Server) -> None:
    page = page_of(browser, **WIDE)
    r = page.request.post(f"{server.url}/api/records", data={"record": record_of(2, 200)})
    assert r.status == 201, r.text()
    gid = r.json()["id"]
    page.goto(f"{server.url}/g/{gid}/analysis")
    page.wait_for_function("() => window.parlorAnalysis.status().status === 'done'",
                           timeout=300_000)
    meaning = page.inner_text("#analysis-meaning")
    assert "the expert's estimate of your chance between equal players" in meaning
    data = next(d for d in page.evaluate("window.parlorAnalysis.status().decisions")
                if d["ply"] == SPLIT_PLY)
    assert (data["before"], data["after"], data["estimated"], data["mark"]) == (
        None, None, False, "")
    row = page.locator("#analysis-table tbody tr").filter(
        has=page.locator(f'a[href$="?step={SPLIT_PLY}"]'))
    assert row.locator('td[data-label="Win chance"]').inner_text() == "no estimate"
    assert page.locator(f'.wingraph a[href$="?step={SPLIT_PLY}"]').count() == 0
    assert page.locator(".wingraph a").count() > 0  # the estimated decisions have points
    assert serious_axe(page) == []
    assert page.errors == []
