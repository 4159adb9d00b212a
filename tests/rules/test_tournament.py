"""Tournament play (docs/rules.md 1300, R32): payouts, ransoms, elimination, pairing, standings,
single-card draws in the engine."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.notation import record, replay
from parlor.rules.seeds import DealKey, derive_key
from parlor.rules.state import Phase, Settings
from parlor.rules.tournament import (
    Outcome,
    Tournament,
    TournamentError,
    TournamentSettings,
    answer_ransom,
    end_round,
    is_over,
    max_games,
    new_tournament,
    pair_round,
    pay_ransoms,
    payout,
    play_round,
    ransom_payers,
    settle,
    sit_out,
    standings,
    team_standings,
    winners,
)

# -- helpers --------------------------------------------------------------------------------------


def two_teams(a: int = 2, b: int = 2, **settings: int | bool | None) -> Tournament:
    ts = TournamentSettings(**settings)  # type: ignore[arg-type]
    return new_tournament([("A", [f"A{i}" for i in range(1, a + 1)]),
                           ("B", [f"B{i}" for i in range(1, b + 1)])], ts, seed=1)


def idx(t: Tournament, name: str) -> int:
    return [p.name for p in t.players].index(name)


def talents(t: Tournament) -> dict[str, int]:
    return {p.name: p.talents for p in t.players}


def game(t: Tournament, winner: str | None, loser: str, life: int = 20, how: str = "attack",
         rnd: int | None = None) -> Tournament:
    """Settle one game between ``winner`` and ``loser`` (``winner`` None: a draw against
    ``loser``'s opponent is not needed, so a draw is written as game(t, None, 'A1') with
    the other seat B1)."""
    r = t.round + 1 if rnd is None else rnd
    if winner is None:
        a, b = idx(t, loser), idx(t, "B1" if loser.startswith("A") else "A1")
        return settle(t, Outcome(r, 1, (a, b), 0, None, 0, 200, "draw"))
    w, lo = idx(t, winner), idx(t, loser)
    return settle(t, Outcome(r, 1, (w, lo), 0, w, life, 40, how))


# -- payouts by the winner's life (1303) ----------------------------------------------------------


@pytest.mark.parametrize(("life", "bracket", "ransom"), [
    (20, "all", 0), (9, "all", 0), (8, "ransom", 4), (7, "ransom", 3), (6, "ransom", 2),
    (5, "ransom", 1), (4, "one", 0), (1, "one", 0), (0, "one", 0), (-3, "one", 0),
])
def test_payout_brackets(life: int, bracket: str, ransom: int) -> None:
    p = payout(life)
    assert (p.bracket, p.ransom) == (bracket, ransom)


def test_above_8_the_loser_pays_all_and_is_out() -> None:
    t = game(two_teams(), "A1", "B1", life=9)
    assert talents(t) == {"A1": 8, "A2": 4, "B1": 0, "B2": 4}
    b1 = t.players[idx(t, "B1")]
    assert not b1.is_in and b1.out_round == 1 and b1.losses == 1
    assert t.players[idx(t, "A1")].wins == 1
    assert t.results[-1].bracket == "all" and t.results[-1].paid == 4
    assert any("B1 has no talents left and is out (1302)" in line for line in t.log)


def test_all_means_everything_the_loser_has() -> None:
    t = game(two_teams(), "A1", "B1", life=3)  # B1 pays 1: A1 has 5
    t = game(t, "A1", "B2", life=15)  # B2 pays all its 4
    t = game(t, "B1", "A1", life=20)  # B1 (3 talents) beats A1 (9): A1 pays all 9
    assert talents(t) == {"A1": 0, "A2": 4, "B1": 12, "B2": 0}


def test_below_5_the_loser_pays_one_talent() -> None:
    t = game(two_teams(), "B2", "A1", life=4)
    assert talents(t) == {"A1": 3, "A2": 4, "B1": 4, "B2": 5}
    assert t.results[-1].bracket == "one" and not t.ransoms


def test_one_talent_left_and_a_narrow_loss_is_out() -> None:
    t = two_teams(talents=1)
    t = game(t, "A1", "B1", life=2)
    assert talents(t)["B1"] == 0 and not t.players[idx(t, "B1")].is_in


def test_5_to_8_sets_a_ransom_and_single_card_draws() -> None:
    t = game(two_teams(a=1, b=2), "A1", "B1", life=7)
    assert talents(t) == {"A1": 4, "B1": 4, "B2": 4}  # no immediate payment
    (r,) = t.ransoms
    assert (r.prisoner, r.holder, r.amount) == (idx(t, "B1"), idx(t, "A1"), 3)
    assert t.held(idx(t, "B1")) and not t.held(idx(t, "B2"))
    assert t.results[-1].bracket == "ransom" and t.results[-1].ransom == 3


def test_the_prisoner_plays_with_single_card_draws() -> None:
    # 1 x 2: B1 holds a ransom when the next round is paired; no teammate can pay (no-ransom)
    t = two_teams(a=1, b=2, auto_ransom=False)
    t = sit_out(t, pair_round(t))
    t = end_round(game(t, "A1", "B1", life=6, rnd=1))
    assert t.held(idx(t, "B1"))
    # A1 meets whoever is paired; play rounds until it meets B1 and check the settings
    for _ in range(3):
        rnd = pair_round(t)
        (p,) = rnd.pairings
        b_seat = 0 if t.players[p.seats[0]].team == "B" else 1
        if p.seats[b_seat] == idx(t, "B1"):
            break
        t = play_round(t, rnd, [Outcome(rnd.number, 1, p.seats, p.seed, None)])
    assert p.seats[b_seat] == idx(t, "B1")
    assert p.single_draw[b_seat] and not p.single_draw[1 - b_seat]
    settings = p.game_settings(t.settings)
    assert settings.single_draw[b_seat] and settings.match_play


def test_1308_the_richest_of_the_team_pays_between_rounds() -> None:
    t = two_teams(a=3, b=2)
    t = game(t, "A1", "B1", life=20)  # A1: 8
    t = game(t, "B2", "A1", life=8)  # A1 held, ransom 4 to B2
    t = game(t, "B2", "A3", life=3)  # A3 pays 1 to B2: 3 left
    assert talents(t) == {"A1": 8, "A2": 4, "A3": 3, "B1": 0, "B2": 5}
    # the prisoner A1 is the richest of its team, and may pay (R32)
    assert ransom_payers(t, t.ransoms[0]) == [(idx(t, "A1"), 4)]
    t = end_round(t)
    assert talents(t) == {"A1": 4, "A2": 4, "A3": 3, "B1": 0, "B2": 9}
    assert not t.ransoms and not t.held(idx(t, "A1"))
    assert any("A1 is released" in line for line in t.log)
    assert t.total_talents() == 20


def test_1308_teammates_club_together_richest_first() -> None:
    t = two_teams(a=3, b=2, talents=3)
    t = game(t, "B2", "A1", life=8)  # A1 held for 4; spares: A1 2, A2 2, A3 2
    assert ransom_payers(t, t.ransoms[0]) == [(idx(t, "A1"), 2), (idx(t, "A2"), 2)]
    t = end_round(t)
    assert talents(t) == {"A1": 1, "A2": 1, "A3": 3, "B1": 3, "B2": 7}


def test_a_single_rich_teammate_pays_alone() -> None:
    t = two_teams(a=2, b=2)
    t = game(t, "A2", "B1", life=3)  # A2: 5
    t = game(t, "B2", "A1", life=6)  # A1 held for 2
    (r,) = t.ransoms
    assert ransom_payers(t, r) == [(idx(t, "A2"), 2)]  # A2 has 5 > A1's 4
    t = pay_ransoms(t)
    assert talents(t) == {"A1": 4, "A2": 3, "B1": 3, "B2": 6}
    assert any("A2 (2) pays the ransom of A1: 2 talents to B2 (1308)" in x for x in t.log)


def test_1309_payers_keep_a_talent() -> None:
    t = two_teams(a=2, b=1, talents=2)
    t = game(t, "B1", "A1", life=8)  # ransom 4; A1 and A2 have 2 each (spare 1 + 1)
    t = pay_ransoms(t)
    assert t.held(idx(t, "A1"))
    assert talents(t) == {"A1": 2, "A2": 2, "B1": 2}


def test_r32_1303_2_the_loser_may_pay_its_own_ransom() -> None:
    """Issue 19, point 2: "from any player(s) on the loser's team", the loser included. A
    prisoner whose teammates cannot pay, or who has none, frees itself."""
    t = game(two_teams(a=1, b=2), "B1", "A1", life=6)  # A1 alone in its team: ransom 2
    t = end_round(t)
    assert not t.held(idx(t, "A1"))
    assert talents(t) == {"A1": 2, "B1": 6, "B2": 4}
    assert any("A1 (2) pays the ransom of A1" in line for line in t.log)


def test_1308_issue_19_reproduction_no_ransom_after_the_last_round() -> None:
    """Issue 19, point 1: A: A1, A2 and B: B1, B2, one round, seed 7. B1 beats A1 at 8 life
    (a ransom of 4), A2 beats B2 at 3 life. After the last round nothing is left to be freed
    from: the ransom stands unpaid and A2 wins."""
    t = new_tournament([("A", ["A1", "A2"]), ("B", ["B1", "B2"])],
                       TournamentSettings(rounds=1), seed=7)
    rnd = pair_round(t)
    by_names = {frozenset(t.players[i].name for i in p.seats): p for p in rnd.pairings}
    p1, p2 = by_names[frozenset({"A1", "B1"})], by_names[frozenset({"A2", "B2"})]
    b1, a2 = idx(t, "B1"), idx(t, "A2")
    t = play_round(t, rnd, [Outcome(1, p1.table, p1.seats, p1.seed, b1, 8, 30),
                            Outcome(1, p2.table, p2.seats, p2.seed, a2, 3, 30)])
    assert is_over(t)
    assert [p.talents for p in t.players] == [4, 5, 4, 3]
    assert winners(t) == [a2]
    assert t.held(idx(t, "A1")) and not t.asked
    assert "Unpaid ransoms stand: nothing is left to be freed from (1308)" in t.log
    assert t.log[-1] == "A2 wins the tournament with 5 talents (1312)"


def test_ransoms_add_up() -> None:
    t = two_teams(a=1, b=2, talents=9, auto_ransom=False)
    t = game(t, "B1", "A1", life=5)
    t = game(t, "B2", "A1", life=8)
    assert [r.amount for r in t.ransoms] == [1, 4]
    st = {s.name: s for s in standings(t)}
    assert st["A1"].ransom_owed == 5


def test_ransoms_lapse_when_the_holder_is_out() -> None:
    t = two_teams(a=2, b=2)
    t = game(t, "B1", "A1", life=6, rnd=1)  # A1 held by B1
    t = game(t, "A2", "B1", life=12, rnd=1)  # B1 loses all: out, the ransom lapses
    assert not t.ransoms and not t.held(idx(t, "A1"))
    assert any("lapses: B1 is out, and A1 is released (1311)" in x for x in t.log)
    assert talents(t) == {"A1": 4, "A2": 8, "B1": 0, "B2": 4}


def test_ransoms_lapse_when_the_prisoner_is_out() -> None:
    t = two_teams(a=2, b=1, auto_ransom=False)
    t = game(t, "B1", "A1", life=6)
    t = game(t, "B1", "A1", life=20)  # A1 now out
    assert not t.ransoms and talents(t)["A1"] == 0


def test_a_draw_pays_nothing_and_a_resignation_pays_as_a_loss() -> None:
    t = game(two_teams(), None, "A1")
    assert talents(t) == {"A1": 4, "A2": 4, "B1": 4, "B2": 4}
    assert t.players[idx(t, "A1")].draws == 1 and t.players[idx(t, "B1")].draws == 1
    assert t.results[-1].bracket == "draw"
    t = game(t, "A1", "B1", life=18, how="resign")
    assert talents(t)["B1"] == 0
    assert "by resignation" in t.log[-3]


def test_players_of_one_team_never_meet_and_the_out_cannot_play() -> None:
    t = two_teams()
    with pytest.raises(TournamentError, match="1301"):
        settle(t, Outcome(1, 1, (0, 1), 0, 0, 20))
    t = game(t, "A1", "B1", life=20)
    with pytest.raises(TournamentError, match="out of the tournament"):
        game(t, "B1", "A2")


def test_setup_errors() -> None:
    with pytest.raises(TournamentError, match="two teams"):
        new_tournament([("A", ["x", "y"])])
    with pytest.raises(TournamentError, match="twice"):
        new_tournament([("A", ["x"]), ("B", ["x"])])
    with pytest.raises(TournamentError, match="no players"):
        new_tournament([("A", ["x"]), ("B", [])])
    with pytest.raises(TournamentError, match="at least one talent"):
        TournamentSettings(talents=0)


# -- a person is asked about its team's ransoms (1308.2) -------------------------------------------


def with_person(**settings: int | bool) -> Tournament:
    ts = TournamentSettings(**settings)  # type: ignore[arg-type]
    return new_tournament([("A", ["A1", "A2"]), ("B", ["B1", "B2"])], ts, seed=1,
                          humans=["A2"])


def test_1308_2_a_persons_team_is_asked_and_not_paid_for() -> None:
    t = game(with_person(), "B1", "A1", life=7)  # A1 held for 3; A2 is a person
    t = end_round(t)
    (r,) = t.asked
    assert (r.prisoner, r.amount) == (idx(t, "A1"), 3)
    assert talents(t) == {"A1": 4, "A2": 4, "B1": 4, "B2": 4}  # nothing paid for them
    with pytest.raises(TournamentError, match="must first answer"):
        pair_round(t)


def test_1308_2_a_person_pays_and_chooses_who_pays() -> None:
    t = end_round(game(with_person(), "B1", "A1", life=7))
    r = t.asked[0]
    t = answer_ransom(t, r, [(idx(t, "A1"), 1), (idx(t, "A2"), 2)])
    assert talents(t) == {"A1": 3, "A2": 2, "B1": 7, "B2": 4}
    assert not t.asked and not t.ransoms and not t.held(idx(t, "A1"))
    assert "A1 (1) and A2 (2) pay the ransom of A1: 3 talents to B1 (1308)" in t.log
    rnd = pair_round(t)  # the next round may start: A1 draws two cards again
    assert not any(any(p.single_draw) for p in rnd.pairings)


def test_1308_2_a_person_declines_and_the_ransom_stands() -> None:
    t = end_round(game(with_person(), "B1", "A1", life=7))
    t = answer_ransom(t, t.asked[0], None)
    assert not t.asked and t.held(idx(t, "A1"))
    assert talents(t) == {"A1": 4, "A2": 4, "B1": 4, "B2": 4}
    assert any("Team A declines to pay the ransom of A1" in line for line in t.log)
    rnd = pair_round(t)
    (a1_game,) = [p for p in rnd.pairings if idx(t, "A1") in p.seats]
    assert a1_game.single_draw[a1_game.seats.index(idx(t, "A1"))]  # 1304
    t = play_round(t, rnd, [Outcome(2, p.table, p.seats, p.seed, None) for p in rnd.pairings])
    assert t.asked  # asked again at the next break


def test_1308_2_answers_that_do_not_fit_are_refused() -> None:
    t = end_round(game(with_person(), "B1", "A1", life=7))
    r = t.asked[0]
    for payers, why in (([(idx(t, "B2"), 3)], "only players of team A"),
                        ([(idx(t, "A2"), 2)], "is 3 talents, not 2"),
                        ([(idx(t, "A2"), 4)], "keeps at least one .1309."),
                        ([(idx(t, "A2"), 1), (idx(t, "A2"), 2)], "twice"),
                        ([(idx(t, "A2"), 3), (idx(t, "A1"), 0)], "at least one talent")):
        with pytest.raises(TournamentError, match=why):
            answer_ransom(t, r, payers)
    t = answer_ransom(t, r, None)
    with pytest.raises(TournamentError, match="not waiting"):
        answer_ransom(t, r, None)


def test_1308_2_a_team_that_cannot_pay_is_not_asked() -> None:
    t = game(with_person(talents=2), "B1", "A1", life=8)  # 4 owed; spares 1 + 1
    t = end_round(t)
    assert not t.asked and t.held(idx(t, "A1"))


# -- the end: a set number of rounds or a set length of time (1312) -------------------------------


def test_1312_the_organiser_chooses_rounds_or_time() -> None:
    with pytest.raises(TournamentError, match="choose one of the two"):
        TournamentSettings(rounds=3, time_limit=600)
    with pytest.raises(TournamentError, match="choose one of the two"):
        TournamentSettings(rounds=None)
    with pytest.raises(TournamentError, match="more than 0 seconds"):
        TournamentSettings(rounds=None, time_limit=0)
    t = two_teams(rounds=None, time_limit=600)
    assert "a time limit of 10 min" in t.log[0]


def test_1312_1_no_round_starts_once_the_time_has_passed() -> None:
    t = two_teams(rounds=None, time_limit=600)
    rnd = pair_round(t)
    draws = [Outcome(rnd.number, p.table, p.seats, p.seed, None) for p in rnd.pairings]
    with pytest.raises(TournamentError, match="time elapsed"):
        play_round(t, rnd, draws)
    t = play_round(t, rnd, draws, elapsed=599.0)
    assert not is_over(t)
    rnd = pair_round(t)  # before the limit: the next round starts
    # the limit passes while the round is played: its games finish, and no round follows
    t = play_round(t, rnd, [Outcome(2, p.table, p.seats, p.seed, None)
                            for p in rnd.pairings], elapsed=601.0)
    assert is_over(t) and t.round == 2 and len(t.results) == 4
    assert any("The time limit (10 min) has passed: no new round starts (1312.1)" in line
               for line in t.log)
    with pytest.raises(TournamentError, match="over"):
        pair_round(t)


def test_1312_1_no_ransom_is_paid_when_the_time_is_up() -> None:
    t = game(two_teams(rounds=None, time_limit=60), "B1", "A1", life=7, rnd=1)
    t = end_round(t, elapsed=61.0)
    assert is_over(t) and t.held(idx(t, "A1"))
    assert talents(t) == {"A1": 4, "A2": 4, "B1": 4, "B2": 4}


def test_1302_and_1304_mark_what_r32_does_not_say_as_choices() -> None:
    """Issue 19, point 5: R32 gives neither the default dole nor trimming under single-card
    draws; docs/rules.md marks them as choices."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text()
    rules = {m.group(1): m.group(2) for m in
             re.finditer(r"\*\*(\d{4})\.\*\* (.*?)(?=\n\*\*\d{4}\.\*\*|\n## )", text, re.S)}
    assert "default 4 [Choice]" in rules["1302"]
    assert "Trimming (304.3) still applies [Choice]" in rules["1304"]
    assert "the loser included [R32]" in rules["1303"]
    assert "never the prisoner" not in rules["1308"]
    assert "1312.1" in rules["1312"]


# -- pairing (1307) -------------------------------------------------------------------------------


def test_max_games() -> None:
    assert max_games([2, 2]) == 2
    assert max_games([3, 1]) == 1
    assert max_games([1, 1, 1]) == 1
    assert max_games([3, 3, 2]) == 4
    assert max_games([5]) == 0


def test_pairing_is_across_teams_full_and_seeded() -> None:
    t = new_tournament([("A", ["a1", "a2", "a3"]), ("B", ["b1", "b2"]), ("C", ["c1"])], seed=5)
    rnd = pair_round(t)
    assert len(rnd.pairings) == 3 and not rnd.sitting_out
    for p in rnd.pairings:
        assert t.players[p.seats[0]].team != t.players[p.seats[1]].team
    assert pair_round(t) == rnd  # the same seed and round: the same pairing and deals
    other = pair_round(new_tournament([("A", ["a1", "a2", "a3"]), ("B", ["b1", "b2"]),
                                       ("C", ["c1"])], seed=6))
    assert [p.seed for p in other.pairings] != [p.seed for p in rnd.pairings]


def test_sitting_out_rotates_and_rematches_are_avoided() -> None:
    t = two_teams(a=3, b=2)  # 5 players, 2 games a round: one A player sits out
    sat: list[int] = []
    for _ in range(3):
        rnd = pair_round(t)
        assert len(rnd.pairings) == 2 and len(rnd.sitting_out) == 1
        sat += rnd.sitting_out
        t = play_round(t, rnd, [Outcome(rnd.number, p.table, p.seats, p.seed, None)
                                for p in rnd.pairings])
    assert sorted(sat) == [idx(t, "A1"), idx(t, "A2"), idx(t, "A3")]  # each A sat once
    assert all(t.players[i].byes == 1 for i in sat)


def test_rematches_come_last() -> None:
    t = two_teams()
    r1 = pair_round(t)
    t = play_round(t, r1, [Outcome(1, p.table, p.seats, p.seed, None) for p in r1.pairings])
    r2 = pair_round(t)
    first = {frozenset(p.seats) for p in r1.pairings}
    assert not first & {frozenset(p.seats) for p in r2.pairings}


def test_the_richest_play_each_other_first() -> None:
    t = two_teams(a=2, b=2)
    t = game(t, "A1", "B1", life=3, rnd=1)  # A1 5, B1 3
    t = game(t, "B2", "A2", life=3, rnd=1)  # B2 5, A2 3
    t = end_round(t)
    rnd = pair_round(t)
    top = rnd.pairings[0]
    assert {t.players[i].name for i in top.seats} == {"A1", "B2"}


def test_elimination_ends_the_tournament_early() -> None:
    t = two_teams()
    t = game(t, "A1", "B1", life=20, rnd=1)
    t = game(t, "A2", "B2", life=20, rnd=1)
    t = end_round(t)
    assert is_over(t) and t.round == 1
    assert winners(t) == [idx(t, "A1"), idx(t, "A2")]
    assert "share the win with 8 talents each (1312)" in t.log[-1]
    with pytest.raises(TournamentError, match="over"):
        pair_round(t)


def test_out_players_are_never_paired() -> None:
    t = two_teams(a=2, b=3)
    t = game(t, "A1", "B1", life=20, rnd=1)
    t = end_round(t)
    for _ in range(3):
        rnd = pair_round(t)
        assert idx(t, "B1") not in {i for p in rnd.pairings for i in p.seats}
        assert idx(t, "B1") not in rnd.sitting_out
        t = play_round(t, rnd, [Outcome(rnd.number, p.table, p.seats, p.seed, None)
                                for p in rnd.pairings])


def test_the_set_number_of_rounds_ends_it() -> None:
    t = two_teams(rounds=2)
    for _ in range(2):
        rnd = pair_round(t)
        t = play_round(t, rnd, [Outcome(rnd.number, p.table, p.seats, p.seed, None)
                                for p in rnd.pairings])
    assert is_over(t) and t.round == 2


# -- standings (1312) -----------------------------------------------------------------------------


def test_standings_share_places_on_equal_talents() -> None:
    t = game(two_teams(), "A1", "B1", life=3)  # A1 5, B1 3, others 4
    st = standings(t)
    assert [(s.name, s.place, s.tied) for s in st] == [
        ("A1", 1, False), ("A2", 2, True), ("B2", 2, True), ("B1", 4, False)]
    assert winners(t) == [idx(t, "A1")]
    assert [(ts.team, ts.talents) for ts in team_standings(t)] == [("A", 9), ("B", 7)]


def test_random_tournaments_conserve_talents() -> None:
    rng = random.Random(3)
    for seed in range(40):
        teams = [(f"T{k}", [f"T{k}p{i}" for i in range(rng.randint(1, 3))])
                 for k in range(rng.randint(2, 3))]
        t = new_tournament(teams, TournamentSettings(rounds=8, talents=rng.randint(1, 5),
                                                     auto_ransom=rng.random() < 0.7), seed)
        total = t.total_talents()
        while not is_over(t):
            rnd = pair_round(t)
            outs = []
            for p in rnd.pairings:
                for i in p.seats:
                    assert t.players[i].is_in
                    assert p.single_draw[p.seats.index(i)] == t.held(i)
                w = rng.choice([None, *p.seats])
                outs.append(Outcome(rnd.number, p.table, p.seats, p.seed, w,
                                    rng.randint(-2, 20)))
            t = play_round(t, rnd, outs)
            assert t.total_talents() == total
            assert all(p.talents >= 0 for p in t.players)
            for r in t.ransoms:
                assert t.players[r.prisoner].is_in and t.players[r.holder].is_in
        assert t.round <= 8


# -- single-card draws in the engine (1304, R32) --------------------------------------------------


def test_single_draw_draws_exactly_one_card_and_never_offers_a_redraw() -> None:
    settings = Settings(single_draw=(True, False))
    s = new_game(11, settings)
    rng = random.Random(11)
    turns_of_1 = 0
    while not s.is_over and s.turn < 80:
        if s.phasing == 0:
            assert s.phase is not Phase.KEEP
            assert not any(a.verb in ("keep", "redraw") for a in legal_actions(s))
        apply(s, rng.choice(legal_actions(s)))
    assert s.log is not None
    draws = [e for e in s.log if e.kind == "draw" and e.player == 0]
    turns_of_1 = sum(1 for e in s.log if e.kind == "turn" and e.player == 0)
    assert draws and all(e.text == "Rlr 1 draws 1 card" for e in draws
                         if "no cards" not in e.text)
    assert sum(1 for e in s.log if e.kind == "keep" and e.player == 0
               and e.detail == "single") == len(draws)
    assert len(draws) == turns_of_1  # one draw per turn, no Redraws
    assert not any(e.kind == "redraw" and e.player == 0 for e in s.log)
    assert any(e.kind == "redraw" and e.player == 1 for e in s.log)  # Rlr 2 draws two


def test_single_draw_keeps_the_card_and_the_record_replays() -> None:
    s = new_game(4, Settings(single_draw=(False, True)))
    rng = random.Random(4)
    while not s.is_over and s.turn < 30:
        before, turn = len(s.hand[1]), s.turn
        apply(s, rng.choice(legal_actions(s)))
        if s.turn != turn and s.phasing == 1 and s.phase is Phase.WINDOW1:
            trimmed = max(before - 7, 0)  # trimming to 7 still happens (1304)
            assert len(s.hand[1]) == before - trimmed + 1
    text = record(s)
    assert "single_draw=2" in text.splitlines()[1]
    assert replay(text).history == s.history


# -- parlor tournament end to end -----------------------------------------------------------------


def test_r1307_a_keyed_tournament_deals_each_game_from_a_key_of_its_own() -> None:
    """From a deal key (R31) every game of every round has a 128-bit key of its own, derived
    from the tournament's: the same tournament deals the same games again, another key deals
    others, and a practice number deals its 32-bit seeds as ever."""
    teams = [("A", ["A1", "A2"]), ("B", ["B1", "B2"]), ("C", ["C1", "C2"])]
    key = DealKey(bytes(range(16)))
    t = new_tournament(teams, TournamentSettings(rounds=2), seed=key)
    seeds = [p.seed for p in pair_round(t).pairings]
    assert seeds == [derive_key(key, f"tournament/deal/1/{n}") for n in (1, 2, 3)]
    assert all(isinstance(s, DealKey) and len(s.key) == 16 for s in seeds)
    assert len(set(map(str, seeds))) == 3
    again = new_tournament(teams, TournamentSettings(rounds=2), seed=DealKey(bytes(range(16))))
    assert pair_round(again) == pair_round(t)
    other = new_tournament(teams, TournamentSettings(rounds=2), seed=DealKey(bytes(16)))
    assert not {str(p.seed) for p in pair_round(other).pairings} & set(map(str, seeds))
    practice = new_tournament(teams, TournamentSettings(rounds=2), seed=7)
    rng = random.Random("parlor-tournament:7:1")
    for _ in range(6):  # the lot, then the deals: as every tournament before deal keys
        rng.random()
    assert [p.seed for p in pair_round(practice).pairings] == [rng.getrandbits(32)
                                                               for _ in range(3)]
