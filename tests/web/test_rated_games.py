"""Rated games (issues 43 and 46) through the JSON API, on SQLite and PostgreSQL: a rated
game moves the account's Glicko-2 rating as it ends, once, in the transaction that stores
its end; casual, practice, takeback-able, tournament and uncalibrated games stay unrated; a
game asked for as rated is refused, saying why, when it cannot be; the home page and the
levels API show each level's calibrated rating."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert

from parlor.rules.glicko import Game, Rating, rate
from parlor.store.tournaments import contests

from .helpers import play_out
from .test_accounts import app_url, c, new_game, players, ratings_file, sign_up  # noqa: F401

#: The calibrated levels of these tests: random (800, RD 40) from test_accounts' fixture,
#: and novice here; greedy is uncalibrated.
NOVICE = {"rating": 1200, "rd": 60, "interval": [1082, 1318]}


@pytest.fixture
def calibrated(ratings_file: Path) -> Path:  # noqa: F811
    ratings_file.write_text(json.dumps({"levels": {"random": {"rating": 800, "rd": 40},
                                                   "novice": NOVICE,
                                                   "greedy": {"rating": None}}}))
    return ratings_file


def account_id(c: TestClient) -> str:  # noqa: F811
    account = players(c).accounts.by_name("ann")
    assert account is not None
    return account.id


def test_a_rated_game_moves_the_rating_as_it_ends_and_counts_once(c: TestClient,  # noqa: F811
                                                                  calibrated: Path) -> None:
    sign_up(c)
    g = new_game(c, mode="match", rated=True)
    accounts = players(c).accounts
    assert accounts.rating(account_id(c), "match") is None
    play_out(c, g["id"], g["token"])
    # no profile read, no export: the game's end stored the rating
    rated = accounts.rating(account_id(c), "match")
    assert rated is not None and rated[1] == 1
    history = accounts.history(account_id(c))
    assert [p.game_id for p in history] == [g["id"]]
    score = history[0].score
    assert score in (0.0, 0.5, 1.0)
    assert rated[0] == rate(Rating(), [Game(Rating(800, 40), score)])
    # the end seen again (another server, a retried hook) rates nothing twice
    store = players(c).games.store
    with store.engine.begin() as conn:
        for hook in store.at_end:
            hook(conn, g["id"], 1e10)
    c.get("/profile")
    assert accounts.rating(account_id(c), "match") == rated
    assert len(accounts.history(account_id(c))) == 1


def test_each_rated_game_is_one_rating_period_against_its_levels_rating(
        c: TestClient, calibrated: Path) -> None:  # noqa: F811
    sign_up(c)
    first, second = (new_game(c, mode="match", rated=True, level=lv)
                     for lv in ("random", "novice"))
    for g in (first, second):
        play_out(c, g["id"], g["token"])
    points = players(c).accounts.history(account_id(c))
    assert [(p.game_id, p.level, p.opponent, p.n) for p in points] == [
        (first["id"], "random", 800, 1), (second["id"], "novice", 1200, 2)]
    expected = rate(points[0].rating, [Game(Rating(1200, 60), points[1].score)])
    assert points[1].rating == expected


def test_casual_practice_uncalibrated_tournament_and_unsigned_games_stay_unrated(
        c: TestClient, calibrated: Path) -> None:  # noqa: F811
    before_sign_in = new_game(c, mode="match")  # adopted later: not started signed in
    sign_up(c)
    contest = new_game(c, mode="match")
    with players(c).games.store.engine.begin() as conn:
        conn.execute(insert(contests).values(game_id=contest["id"], tournament_id="t1"))
    games = [before_sign_in, contest, new_game(c),  # casual: takebacks allowed
             new_game(c, mode="match", seed=3),  # a practice deal
             new_game(c, mode="match", level="greedy")]  # no calibrated rating
    for g in games:
        play_out(c, g["id"], g["token"])
    assert players(c).accounts.history(account_id(c)) == []
    assert players(c).accounts.rating(account_id(c), "match") is None


@pytest.mark.parametrize(("body", "status", "code", "words"), [
    ({"level": "greedy"}, 409, "level_not_rated", "no calibrated rating"),
    ({"mode": "casual"}, 400, "bad_action", "match game"),
    ({"seed": 7}, 400, "bad_action", "practice seed"),
])
def test_a_game_asked_for_as_rated_is_refused_when_it_cannot_be(
        c: TestClient, calibrated: Path, body: dict[str, object], status: int,  # noqa: F811
        code: str, words: str) -> None:
    sign_up(c)
    r = c.post("/api/games", json={"level": "random", "mode": "match", "rated": True, **body})
    assert r.status_code == status, r.text
    assert r.json()["error"] == code and words in r.json()["message"]
    assert players(c).games.store.count() == 0  # no game was made


def test_a_rated_game_needs_an_account(c: TestClient, calibrated: Path) -> None:  # noqa: F811
    r = c.post("/api/games", json={"level": "random", "mode": "match", "rated": True})
    assert r.status_code == 401 and r.json()["error"] == "not_signed_in"
    assert c.post("/api/games", json={"level": "random", "mode": "match"}).status_code == 201


def test_the_levels_show_their_calibrated_ratings(c: TestClient,  # noqa: F811
                                                  calibrated: Path) -> None:
    levels = c.get("/api/levels").json()
    assert levels["ratings"]["novice"] == NOVICE and "greedy" not in levels["ratings"]
    home = c.get("/").text
    assert "Rated 1200 (95%: 1082–1318)" in home
    assert "Not rated yet: it cannot be played rated." in home  # casual and the rest
