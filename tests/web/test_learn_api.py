"""The Learn pages and the lessons' API: stateless (the browser sends its accepted moves),
a wrong move refused with the lesson's explanation, clear errors for bad input."""

from __future__ import annotations

from fastapi.testclient import TestClient


def test_the_learn_page_is_linked_from_the_header_and_the_home_page(client: TestClient) -> None:
    home = client.get("/").text
    assert home.count('href="/learn"') >= 2
    page = client.get("/learn")
    assert page.status_code == 200
    assert "Lnds, mnr and windows" in page.text and 'href="/learn/winning"' in page.text
    assert "<script>" not in page.text.split("</head>")[1]  # no inline scripts (CSP)


def test_a_lesson_page_carries_its_first_step(client: TestClient) -> None:
    r = client.get("/learn/lnds")
    assert r.status_code == 200 and "(206)" in r.text and "learn.js" in r.text


def test_an_expected_move_advances_and_a_wrong_one_is_explained(client: TestClient) -> None:
    ok = client.post("/api/lessons/lnds", json={"moves": [], "action": "play 9H"})
    assert ok.status_code == 200
    body = ok.json()
    assert body["moves"] == ["play 9H"] and body["lesson"]["step"] == 1
    assert body["kind"] == "lesson" and body["your_turn"]
    wrong = client.post("/api/lessons/lnds", json={"moves": [], "action": "play 10D"})
    assert wrong.status_code == 422
    assert "one Lnd per turn (603)" in wrong.json()["lesson_why"]
    illegal = client.post("/api/lessons/cres", json={"moves": ["play KS"], "action": "attack KS"})
    assert illegal.status_code == 422 and illegal.json()["rule_says"].startswith("703:")


def test_bad_lesson_requests_get_clear_errors(client: TestClient) -> None:
    assert client.post("/api/lessons/nope", json={}).status_code == 404
    bad = client.post("/api/lessons/lnds", json={"moves": ["play AH"]})
    assert bad.status_code == 400 and "do not replay" in bad.json()["message"]
    assert client.post("/api/lessons/lnds", json={"moves": "x"}).status_code == 400
    assert client.get("/learn/nope").status_code == 404


def test_a_finished_lesson_says_so_and_names_the_next(client: TestClient) -> None:
    r = client.post("/api/lessons/volley", json={"moves": [], "action": "volley JS 1:AH"})
    body = r.json()
    assert body["lesson"]["finished"] and body["status"] == "over"
    assert body["lesson"]["next"]["id"] == "sally"
