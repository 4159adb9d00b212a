"""``parlor tournament`` end to end with random players: the teams, the outcome of a game,
the standings after each round, the JSON report, a human's games, the progress bar."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path

import pytest
from rich.console import Console

from parlor.cli import main
from parlor.rules.engine import apply, new_game
from parlor.rules.notation import replay
from parlor.rules.tournament import Pairing, Ransom, TournamentSettings, new_tournament
from parlor.terminal.runner import Runner, outcome_of
from parlor.terminal.teams import Entry, parse_teams

# -- parlor tournament end to end -----------------------------------------------------------------


def test_parse_teams() -> None:
    entries = parse_teams("A:random,random B:random", levels=["random"])
    assert entries == [Entry("A1", "A", "random"), Entry("A2", "A", "random"),
                       Entry("B1", "B", "random")]
    for bad, why in (("A:random", "two teams"), ("A:random A:random", "twice"),
                     ("A random", "NAME:LEVEL"), ("A:wizard B:random", "unknown level"),
                     ("A:human B:human", "one human")):
        with pytest.raises(ValueError, match=why):
            parse_teams(bad, levels=["random"])


def test_outcome_of_a_finished_game() -> None:
    p = Pairing(1, 1, (3, 5), 9, (False, False))
    s = new_game(9)
    apply(s, "resign", player=1)
    o = outcome_of(s, p)
    assert (o.winner, o.winner_life, o.how) == (3, 20, "resign")


def test_tournament_command_prints_standings_and_writes_json(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report.json"
    records = tmp_path / "games"
    code = main(["tournament", "--teams", "A:random,random B:random,random,random",
                 "--rounds", "3", "--seed", "2", "--max-turns", "60", "--json", str(out),
                 "--records", str(records)])
    assert code == 0
    text = capsys.readouterr().out
    assert "Standings after round 1" in text and "Final standings" in text
    report = json.loads(out.read_text())
    assert sum(p["talents"] for p in report["players"]) == 5 * 4
    assert report["rounds_played"] <= 3 and report["games"]
    assert report["winners"]
    best = max(p["talents"] for p in report["players"])
    assert {p["name"] for p in report["players"] if p["talents"] == best} == set(
        report["winners"])
    for g in report["games"]:
        assert g["bracket"] in ("all", "ransom", "one", "draw")
        rec = records / f"round{g['round']}-table{g['table']}.txt"
        s = replay(rec.read_text())
        assert s.is_over
        if s.winner is None:
            assert g["winner"] is None
        else:
            assert g["winner_life"] == s.life[s.winner]
    # the same seed gives the same tournament
    again = tmp_path / "again.json"
    assert main(["tournament", "--teams", "A:random,random B:random,random,random",
                 "--rounds", "3", "--seed", "2", "--max-turns", "60", "--json",
                 str(again), "--quiet"]) == 0
    assert json.loads(again.read_text())["games"] == report["games"]


def test_tournament_command_rejects_bad_teams(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--teams", "A:random"]) == 2
    assert "two teams" in capsys.readouterr().err
    assert main(["tournament", "--teams", "A:wizard B:random"]) == 2
    assert "unknown level 'wizard'" in capsys.readouterr().err


def test_a_human_joins_a_tournament(monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str],
                                    tmp_path: Path) -> None:
    """The human's games use the parlor play screen; here it resigns each of them."""
    answers = iter(["?", "", "resign", "y", ""] * 20)
    prompts: list[str] = []

    def fake_reader(console: object) -> object:
        def read(prompt: str) -> str:
            prompts.append(prompt)
            return next(answers)
        return read

    monkeypatch.setattr("parlor.terminal.tournament.console_reader", fake_reader)
    out = tmp_path / "r.json"
    assert main(["tournament", "--teams", "A:human,random B:random,random", "--rounds", "2",
                 "--seed", "1", "--max-turns", "40", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "Round 1: your game" in text and "Your decision" in text
    assert "You lose" in text and "resigns" in text
    report = json.loads(out.read_text())
    me = report["players"][0]
    assert me["name"] == "A1" and me["level"] == "human"
    assert me["losses"] >= 1
    mine = [g for g in report["games"] if "A1" in (g["rlr1"], g["rlr2"])]
    assert mine and all(g["how"] == "resign" for g in mine)
    assert any(p.startswith("#") for p in prompts)


def test_a_terminal_gets_a_progress_bar() -> None:
    buf = io.StringIO()
    con = Console(file=buf, width=80, force_terminal=True, color_system=None)
    entries = parse_teams("A:random,random B:random,random", levels=["random"])
    runner = Runner(entries, TournamentSettings(rounds=2, max_turns=40), 3, con)
    t = runner.run()
    out = buf.getvalue()
    assert "round 1/2" in out and "━" in out  # the bar, redrawn while the games run
    assert "Final standings" in out
    assert runner.report(t)["rounds_played"] == t.round


def test_1312_1_a_tournament_by_time_in_the_terminal(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    clock = iter(range(0, 10_000, 40))  # each look at the clock: 40 s later
    monkeypatch.setattr("parlor.terminal.runner.time.monotonic", lambda: next(clock))
    out = tmp_path / "r.json"
    assert main(["tournament", "--teams", "A:random B:random", "--minutes", "1",
                 "--max-turns", "20", "--seed", "3", "--quiet", "--json", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["settings"]["rounds"] is None and report["settings"]["time_limit"] == 60.0
    assert report["rounds_played"] == 2  # 40 s after round 1, 80 s after round 2: no more
    assert any("no new round starts (1312.1)" in line for line in report["log"])


def test_1308_2_the_person_is_asked_in_the_terminal() -> None:
    answers = iter(["A9:3", "no", "", "A1:1,A2:2"])
    buf = io.StringIO()
    entries = parse_teams("A:human,random B:random,random", levels=["random"])
    runner = Runner(entries, TournamentSettings(rounds=3), 1, Console(file=buf, width=100),
                    lambda _: next(answers))
    start = new_tournament([("A", ["A1", "A2"]), ("B", ["B1", "B2"])], seed=1, humans=["A1"])
    r = Ransom(0, 2, 3, 1)  # A1 owes B1 3
    asked = replace(start, ransoms=(r,), asked=(r,))
    t = runner.ask_ransoms(asked)  # a wrong name ("try again"), then "no"
    assert "try again" in buf.getvalue()
    assert t.ransoms == (r,) and not t.asked and "declines" in t.log[-1]
    t = runner.ask_ransoms(asked)  # Enter: what the team would pay by itself
    assert not t.ransoms and [p.talents for p in t.players] == [1, 4, 7, 4]
    t = runner.ask_ransoms(asked)  # the person chooses who pays
    assert not t.ransoms and [p.talents for p in t.players] == [3, 2, 7, 4]
