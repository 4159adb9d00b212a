"""Issue 46: a search its wall-clock cap cut short is counted where an operator reads it, the
serving process's ``/metrics``, also when it ran in a worker process of the server's pools
(the computer's moves and the hints), and on a ``parlor worker``'s health port."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient
from prometheus_client import generate_latest

from parlor.ai.search import cap_stats
from parlor.web import jobs
from parlor.web.app import create_app

from .helpers import config_for, new_game, wait_for_human
from .test_metrics import sample


def capped(c: TestClient) -> float:
    return sample(c.get("/metrics").text, "parlor_search_capped_total", result="capped")


def test_a_computer_move_capped_in_the_process_pool_counts_on_the_servers_metrics(
        tmp_path: Path) -> None:
    """The computer (strong, a searching level) thinks in the default process pool with a
    tiny think budget (``PARLOR_THINK``): its searches are cut short there, and the serving
    process counts them."""
    config = config_for(tmp_path / "games.db", worker_kind="process", workers=1,
                        think_budget=0.001)
    with TestClient(create_app(config)) as c:
        before = capped(c)
        g = new_game(c, level="strong")
        headers = {"X-Parlor-Token": g["token"]}
        snap = wait_for_human(c, g["id"], g["token"], timeout=120)
        while capped(c) == before and snap["status"] != "over":
            r = c.post(f"/api/games/{g['id']}/actions", headers=headers,
                       json={"action": snap["view"]["legal"][0], "version": snap["version"]})
            assert r.status_code == 200, r.text
            snap = wait_for_human(c, g["id"], g["token"], timeout=120)
        assert capped(c) > before
        assert cap_stats()[1] == capped(c)  # the pool's counts, added to this process's


def test_hints_capped_in_their_process_pool_count_once_each(tmp_path: Path) -> None:
    """Each hint the cap cut short (its budget says so) counts once on /metrics; the computer
    (random) never searches, so the count is the hints' alone."""
    config = config_for(tmp_path / "games.db", worker_kind="process", workers=1,
                        hint_workers=1, hint_budget=0.001)
    with TestClient(create_app(config)) as c:
        before = capped(c)
        g = new_game(c, level="random")
        headers = {"X-Parlor-Token": g["token"]}
        snap = wait_for_human(c, g["id"], g["token"], timeout=120)
        cut = 0
        while cut < 2 and snap["status"] != "over":
            r = c.get(f"/api/games/{g['id']}/hint", params={"version": snap["version"]})
            assert r.status_code == 200, r.text
            cut += "cut at" in r.json()["budget"]
            r = c.post(f"/api/games/{g['id']}/actions", headers=headers,
                       json={"action": snap["view"]["legal"][0], "version": snap["version"]})
            assert r.status_code == 200, r.text
            snap = wait_for_human(c, g["id"], g["token"], timeout=120)
        assert cut >= 1
        assert capped(c) - before == cut


def test_a_parlor_workers_health_port_exports_its_capped_searches() -> None:
    """A ``parlor worker`` thinks in its own threads: its health port's /metrics (the
    registry it serves) carries the same counter, read from its own counts."""
    text = generate_latest(jobs.REGISTRY).decode()
    assert sample(text, "parlor_search_capped_total", result="capped") == cap_stats()[1]
    assert sample(text, "parlor_search_capped_total", result="full") == \
        cap_stats()[0] - cap_stats()[1]
