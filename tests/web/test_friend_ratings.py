"""Rated games between two accounts (issue 45): a friend game in match play whose seats two
different accounts took (signed in at the invitation and at its acceptance) moves both
ratings at its end, each against the other's rating before it, once; every other friend game
stays unrated. On SQLite and PostgreSQL (``db_url``)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from parlor.rules.glicko import Game, Rating, rate
from parlor.store.friends import FriendSeats
from parlor.web.rating import RATED_MODE

from .test_accounts import app_url, c, players, ratings_file, sign_up  # noqa: F401
from .test_friends import as_seat


def friend(c: TestClient, name: str | None) -> TestClient:  # noqa: F811
    """Another browser on the same app, signed in as ``name`` (None: not signed in)."""
    other = TestClient(c.app)
    if name is not None:
        assert sign_up(other, name).status_code == 303
    return other


def account_id(c: TestClient, name: str) -> str:  # noqa: F811
    found = players(c).accounts.by_name(name)
    assert found is not None
    return found.id


def rating(c: TestClient, name: str) -> tuple[Rating, int] | None:  # noqa: F811
    return players(c).accounts.rating(account_id(c, name), RATED_MODE)


def play(host: TestClient, guest: TestClient, mode: str = "match",
         seat: int = 1) -> tuple[str, dict[int, str], dict[str, Any]]:
    """``host`` invites (at ``seat``), ``guest`` accepts: the game, each seat's token, and
    the invitation's reply."""
    r = host.post("/api/friends", json={"max_turns": 6, "mode": mode, "seat": seat})
    assert r.status_code == 201, r.text
    inv = r.json()
    r = guest.post(f"/api/invitations/{inv['invitation_url'].rsplit('/', 1)[1]}", json={})
    assert r.status_code == 200 and r.json()["spectator"] is False, r.text
    got = r.json()
    return inv["id"], {inv["seat"] - 1: inv["token"], got["seat"] - 1: got["token"]}, inv


def read(c: TestClient, gid: str, token: str) -> dict[str, Any]:  # noqa: F811
    r = c.get(f"/api/friends/{gid}", headers=as_seat(token))
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def resign(c: TestClient, gid: str, token: str) -> None:  # noqa: F811
    r = c.post(f"/api/friends/{gid}/resign", headers=as_seat(token),
               json={"version": read(c, gid, token)["version"]})
    assert r.status_code == 200 and r.json()["status"] == "over", r.text


def test_a_match_between_two_accounts_moves_both_ratings_once_in_opposite_directions(
        c: TestClient) -> None:  # noqa: F811
    assert sign_up(c, "ann").status_code == 303
    bob = friend(c, "bob")
    gid, tokens, inv = play(c, bob, seat=1)  # ann sits at seat 1 (0), bob at seat 2 (1)
    assert inv["rated_text"].startswith("Rated if your friend accepts")
    snap = read(c, gid, tokens[0])
    assert snap["friend"]["rated"] is True
    assert snap["friend"]["rated_text"] == "Rated: both players are signed in."
    resign(bob, gid, tokens[1])  # bob resigns: ann wins
    ann, bobs = rating(c, "ann"), rating(c, "bob")
    assert ann is not None and bobs is not None and ann[1] == bobs[1] == 1
    # each against the other's rating before the game: both new, so both 1500 then
    assert ann[0] == rate(Rating(), [Game(Rating(), 1.0)])
    assert bobs[0] == rate(Rating(), [Game(Rating(), 0.0)])
    assert ann[0].rating > 1500 > bobs[0].rating
    assert FriendSeats(players(c).games.store).rated_at(gid) is not None
    # read again, resigned again, played on: the game counts once
    r = bob.post(f"/api/friends/{gid}/resign", headers=as_seat(tokens[1]),
                 json={"version": read(bob, gid, tokens[1])["version"]})
    assert r.status_code == 409
    assert rating(c, "ann") == ann and rating(c, "bob") == bobs
    # a second game rates each from the other's rating after the first
    gid2, tokens2, _ = play(bob, c, seat=1)  # bob invites: seat 1 is bob's
    resign(bob, gid2, tokens2[0])
    ann2, bob2 = rating(c, "ann"), rating(c, "bob")
    assert ann2 is not None and bob2 is not None and ann2[1] == bob2[1] == 2
    assert ann2[0] == rate(ann[0], [Game(bobs[0], 1.0)])
    assert bob2[0] == rate(bobs[0], [Game(ann[0], 0.0)])


def test_a_draw_by_agreement_between_two_accounts_counts_half(c: TestClient) -> None:  # noqa: F811
    assert sign_up(c, "ann").status_code == 303
    bob = friend(c, "bob")
    gid, tokens, _ = play(c, bob)
    v = read(c, gid, tokens[0])["version"]
    r = c.post(f"/api/friends/{gid}/offer", headers=as_seat(tokens[0]),
               json={"offer": "draw", "version": v})
    assert r.status_code == 200, r.text
    r = bob.post(f"/api/friends/{gid}/answer", headers=as_seat(tokens[1]),
                 json={"accept": True, "version": v})
    assert r.status_code == 200 and r.json()["status"] == "drawn", r.text
    ann, bobs = rating(c, "ann"), rating(c, "bob")
    assert ann is not None and bobs is not None
    assert ann[0] == bobs[0] == rate(Rating(), [Game(Rating(), 0.5)])


def unrated(c: TestClient, gid: str, token: str) -> None:  # noqa: F811
    assert read(c, gid, token)["friend"]["rated"] is False
    assert FriendSeats(players(c).games.store).rated_at(gid) is None


def test_casual_unsigned_one_account_and_aborted_friend_games_stay_unrated(
        c: TestClient) -> None:  # noqa: F811
    assert sign_up(c, "ann").status_code == 303
    bob = friend(c, "bob")
    # casual
    gid, tokens, inv = play(c, bob, mode="casual")
    assert inv["rated_text"] == "Unrated: a casual game."
    unrated(c, gid, tokens[0])
    resign(bob, gid, tokens[1])
    unrated(c, gid, tokens[0])
    # the friend not signed in
    gid, tokens, _ = play(c, friend(c, None))
    assert read(c, gid, tokens[0])["friend"]["rated_text"].startswith("Unrated: the invitation "
                                                                      "was accepted without")
    resign(c, gid, tokens[0])
    unrated(c, gid, tokens[0])
    # the inviter not signed in
    gid, tokens, inv = play(friend(c, None), bob)
    assert inv["rated_text"].startswith("Unrated: the invitation was made without")
    resign(bob, gid, tokens[1])
    unrated(bob, gid, tokens[1])
    # one account at both seats (two browsers signed in to it)
    ann2 = TestClient(c.app)
    ann2.cookies.update(c.cookies)
    gid, tokens, _ = play(c, ann2)
    assert read(c, gid, tokens[0])["friend"]["rated_text"] == \
        "Unrated: one account holds both seats."
    resign(ann2, gid, tokens[1])
    unrated(c, gid, tokens[0])
    # aborted before both decided: no result
    gid, tokens, _ = play(c, bob)
    r = c.post(f"/api/friends/{gid}/abort", headers=as_seat(tokens[0]),
               json={"version": read(c, gid, tokens[0])["version"]})
    assert r.status_code == 200, r.text
    unrated(c, gid, tokens[0])
    assert rating(c, "ann") is None and rating(c, "bob") is None


def test_a_rematch_keeps_the_players_accounts_seats_swapped_and_is_rated_too(
        c: TestClient) -> None:  # noqa: F811
    assert sign_up(c, "ann").status_code == 303
    bob = friend(c, "bob")
    gid, tokens, _ = play(c, bob, seat=1)
    resign(bob, gid, tokens[1])
    mine = c.post(f"/api/friends/{gid}/rematch", headers=as_seat(tokens[0]), json={}).json()
    theirs = bob.post(f"/api/friends/{gid}/rematch", headers=as_seat(tokens[1]), json={}).json()
    assert mine["id"] == theirs["id"] and (mine["seat"], theirs["seat"]) == (2, 1)
    again = mine["id"]
    assert read(c, again, mine["token"])["friend"]["rated"] is True
    resign(c, again, mine["token"])  # ann resigns the rematch: both back where they began
    ann, bobs = rating(c, "ann"), rating(c, "bob")
    assert ann is not None and bobs is not None and ann[1] == bobs[1] == 2


def test_a_game_whose_account_was_deleted_meanwhile_ends_unrated(c: TestClient) -> None:  # noqa: F811
    assert sign_up(c, "ann").status_code == 303
    bob = friend(c, "bob")
    gid, tokens, _ = play(c, bob)
    players(c).accounts.delete(account_id(c, "bob"), games_too=False)
    resign(c, gid, tokens[0])  # the end is stored all the same
    assert FriendSeats(players(c).games.store).rated_at(gid) is None
    assert rating(c, "ann") is None


def rated_row(c: TestClient, gid: str) -> str:  # noqa: F811
    """The profile's row of a rated game, its cells' text joined by " | "."""
    page = c.get("/profile")
    assert page.status_code == 200, page.text
    table = page.text.split('id="rated-games"', 1)[1].split("</table>", 1)[0]
    row = table.split(f'data-rated-game="{gid}">', 1)[1].split("</tr>", 1)[0]
    return " | ".join(cell.split("</td>", 1)[0].replace('<span class="muted">', "")
                      .replace("</span>", "") for cell in row.split("<td>")[1:])


def test_a_rated_friend_game_is_in_both_histories_naming_the_other(c: TestClient) -> None:  # noqa: F811
    assert sign_up(c, "ann").status_code == 303
    bob = friend(c, "bob")
    gid, tokens, _ = play(c, bob, seat=1)
    resign(bob, gid, tokens[1])
    accounts = players(c).accounts
    ann_id, bob_id = account_id(c, "ann"), account_id(c, "bob")
    mine, theirs = accounts.history(ann_id, RATED_MODE), accounts.history(bob_id, RATED_MODE)
    assert [(p.game_id, p.n, p.score, p.opponent_account, p.opponent_name) for p in mine] == \
        [(gid, 1, 1.0, bob_id, "bob")]
    assert [(p.game_id, p.n, p.score, p.opponent_account, p.opponent_name) for p in theirs] == \
        [(gid, 1, 0.0, ann_id, "ann")]
    ann, bobs = rating(c, "ann"), rating(c, "bob")
    assert ann is not None and bobs is not None
    assert (mine[0].rating, theirs[0].rating) == (ann[0], bobs[0])  # the point is the rating
    # each profile lists it against the other, with the rating after it
    assert rated_row(c, gid).split(" | ")[2:] == ["bob (a friend game)", "won",
                                                 str(round(ann[0].rating))]
    assert rated_row(bob, gid).split(" | ")[2:] == ["ann (a friend game)", "lost",
                                                   str(round(bobs[0].rating))]
    # bob's account goes: the game stays in ann's history, its opponent unnamed
    accounts.delete(bob_id, games_too=False)
    assert rated_row(c, gid).split(" | ")[2] == "a deleted account (a friend game)"


def invitation_words(c: TestClient, inv: dict[str, Any]) -> str:  # noqa: F811
    page = c.get(inv["invitation_url"])
    assert page.status_code == 200, page.text
    return page.text.split('id="invite-rated">', 1)[1].split("</p>", 1)[0]


def test_the_invitation_says_whether_the_game_will_be_rated_for_whoever_opens_it(
        c: TestClient) -> None:  # noqa: F811
    assert sign_up(c, "ann").status_code == 303
    bob, nobody = friend(c, "bob"), friend(c, None)
    r = c.post("/api/friends", json={"max_turns": 6, "mode": "match"})
    inv = r.json()
    assert invitation_words(bob, inv).startswith("Rated: a match between two accounts; "
                                                 "taking the seat as bob")
    unsigned = invitation_words(nobody, inv)
    assert unsigned.startswith("Unrated as things are: you are not signed in. Sign in first")
    assert 'href="/account"' in unsigned
    ann2 = TestClient(c.app)  # ann's own account in another browser
    ann2.cookies.update({k: v for k, v in c.cookies.items() if not k.startswith("pm_")})
    assert invitation_words(ann2, inv).startswith("Unrated: you are signed in to the account "
                                                  "that made the invitation")
    casual = c.post("/api/friends", json={"max_turns": 6, "mode": "casual"}).json()
    assert invitation_words(bob, casual).startswith("Unrated: a casual game")
    by_nobody = nobody.post("/api/friends", json={"max_turns": 6, "mode": "match"}).json()
    assert invitation_words(bob, by_nobody).startswith("Unrated: your friend made the "
                                                       "invitation without signing in")
    # and what it said holds: bob takes the seat signed in, the game is rated
    r = bob.post(f"/api/invitations/{inv['invitation_url'].rsplit('/', 1)[1]}", json={})
    assert r.status_code == 200, r.text
    assert read(bob, inv["id"], r.json()["token"])["friend"]["rated"] is True
