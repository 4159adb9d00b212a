"""Leaving a game between two people and coming back (issue 45, docs/rules.md 1314): the
other sees "disconnected" once the leaver's table has not read the game for GONE_SECONDS,
and may claim it (a win) after CLAIM_SECONDS, or wait; a player resumes from their games
list or their account, the friend who accepted the invitation as well as the inviter. Time
is the server's controlled clock (``Games.now``): no test sleeps."""

from __future__ import annotations

from fastapi.testclient import TestClient

from parlor.web.friends import CLAIM_SECONDS, GONE_SECONDS
from parlor.web.games import Games

from .test_friend_clocks import Clock, read
from .test_friends import accept, as_seat, invite


def test_the_other_sees_disconnected_then_may_claim_the_game_or_wait(
        client: TestClient) -> None:
    games: Games = client.app.state.games  # type: ignore[attr-defined]
    now = Clock()
    games.now = now
    inv = invite(client, seat=1)
    got = accept(client, inv)
    gid, tokens = inv["id"], {0: inv["token"], 1: got["token"]}
    for p in (0, 1):
        assert not read(client, gid, tokens[p])["friend"]["other_gone"]
    now.t += GONE_SECONDS - 1  # Rlr 2 stops reading; Rlr 1 goes on
    assert not read(client, gid, tokens[0])["friend"]["other_gone"]
    now.t += 1
    snap = read(client, gid, tokens[0])
    assert snap["friend"]["other_gone"] and not snap["friend"]["can_claim"]
    assert "Rlr 2 has disconnected: you may claim the game if they are not back within " \
        f"{CLAIM_SECONDS - GONE_SECONDS} s." in snap["friend"]["activity"]
    r = client.post(f"/api/friends/{gid}/claim", headers=as_seat(tokens[0]),
                    json={"version": snap["version"]})
    assert r.status_code == 409 and r.json()["error"] == "not_gone"
    # Rlr 2 comes back: nothing to claim; then leaves again for good
    assert not read(client, gid, tokens[1])["friend"]["other_gone"]
    assert not read(client, gid, tokens[0])["friend"]["other_gone"]
    now.t += CLAIM_SECONDS
    snap = read(client, gid, tokens[0])
    assert snap["friend"]["can_claim"] and "you may claim the game, or wait" in \
        snap["friend"]["activity"]
    # waiting is doing nothing: the game stays live for as long as Rlr 1 likes
    now.t += 3600
    assert read(client, gid, tokens[0])["status"] == "live"
    # Rlr 2 cannot claim against the player who stayed
    r = client.post(f"/api/friends/{gid}/claim", headers=as_seat(tokens[1]),
                    json={"version": snap["version"]})
    assert r.status_code == 409 and r.json()["error"] == "not_gone"
    now.t += CLAIM_SECONDS  # (Rlr 2's refused claim was a read: they are back, then gone)
    snap = read(client, gid, tokens[0])
    r = client.post(f"/api/friends/{gid}/claim", headers=as_seat(tokens[0]),
                    json={"version": snap["version"]})
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "over"
    assert r.json()["result_text"] == "Rlr 2 left the table: Rlr 1 claimed the game (rule 1314)."
    live = games.get(gid)
    assert live.state.winner == 0 and live.actions[-1] == "resign 2"
    back = read(client, gid, tokens[1])
    assert back["status"] == "over" and back["result_text"] == r.json()["result_text"]


def test_a_waiting_table_is_told_when_the_other_has_gone(client: TestClient) -> None:
    """The long poll wakes for the absence (``wake_in``), not only for a move: with the
    server's clock moved past GONE_SECONDS, a poll answers at once with the news."""
    games: Games = client.app.state.games  # type: ignore[attr-defined]
    now = Clock()
    games.now = now
    inv = invite(client, seat=1)
    got = accept(client, inv)
    gid = inv["id"]
    snap = read(client, gid, got["token"])
    assert snap["friend"]["wake_in"] is not None
    now.t += GONE_SECONDS + 1
    news = read(client, gid, got["token"], after=snap["version"], wait=20,
                news=snap["friend"]["news"])
    assert news["friend"]["other_gone"] and news["friend"]["news"] != snap["friend"]["news"]


def test_the_friend_who_accepted_finds_the_game_in_their_games_list(client: TestClient) -> None:
    inv = invite(client, seat=1)
    guest = TestClient(client.app)
    r = guest.post(f"/api/invitations/{inv['invitation_url'].rsplit('/', 1)[1]}", json={})
    assert r.status_code == 200
    listed = guest.get("/api/games").json()
    ids = [g["id"] for g in (listed["games"] if isinstance(listed, dict) else listed)]
    assert inv["id"] in ids
    # the list's link opens the friend table (/g/ sends a friend game to /f/)
    page = guest.get(f"/g/{inv['id']}", follow_redirects=False)
    assert page.status_code == 303 and page.headers["location"] == f"/f/{inv['id']}"
    assert guest.get(f"/f/{inv['id']}").status_code == 200
    assert inv["id"] in guest.get("/").text
    stranger = TestClient(client.app)
    assert stranger.get(f"/f/{inv['id']}").status_code == 403
