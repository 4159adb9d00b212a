"""The terminal's computer players: a level's agent, an unknown level refused where it is
chosen, and an agent that raises or answers an illegal action reported with the position —
never replaced by another level or a random move."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import pytest

from parlor.ai.failure import AgentFailed
from parlor.cli import main
from parlor.rules.actions import Action
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.notation import replay
from parlor.rules.state import State
from parlor.rules.view import View
from parlor.terminal import computer as computer_module
from parlor.terminal.computer import Computer, UnknownLevelError, canonical_level


class Broken:
    name = "broken"

    def act(self, view: View, legal: Sequence[Action], budget: float | None = None) -> Action:
        raise RuntimeError("bug in the search")


class Cheat:
    name = "cheat"

    def act(self, view: View, legal: Sequence[Action], budget: float | None = None) -> Action:
        return Action.parse("attack AS")


def a_position_with_choices() -> tuple[State, int]:
    s = new_game(8)
    while len(legal_actions(s)) < 2:
        apply(s, legal_actions(s)[0])
    return s, s.actor


def test_levels_by_name_or_number_and_an_unknown_level_is_refused() -> None:
    assert canonical_level("EXPERT") == "expert" and canonical_level("1") == "novice"
    assert Computer("3", 1).level == "intermediate"
    with pytest.raises(UnknownLevelError, match="unknown level 'wizard'"):
        Computer("wizard", 1)


@pytest.mark.parametrize(("agent", "said"), [(Broken(), "raised RuntimeError"),
                                             (Cheat(), "answered 'attack AS', not a legal")])
def test_a_failing_or_illegal_computer_is_reported_not_replaced(
        agent: object, said: str, caplog: pytest.LogCaptureFixture) -> None:
    s, actor = a_position_with_choices()
    c = Computer("greedy", 1)
    c.agent = agent  # type: ignore[assignment]
    before = len(s.history)
    with caplog.at_level(logging.ERROR, logger="parlor.terminal"), \
            pytest.raises(AgentFailed, match=said):
        c.act(s, actor)
    assert len(s.history) == before  # nothing was played
    [entry] = [r for r in caplog.records if r.name == "parlor.terminal"]
    assert said.split()[0] in entry.getMessage()
    # the operator's log holds the record, which replays to the very position
    logged = entry.getMessage().split("the game so far:\n", 1)[1]
    assert replay(logged).history == s.history


def test_parlor_play_stops_with_a_clear_message_when_the_computer_fails(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(computer_module, "make_agent", lambda level, seed: Broken())
    answers = iter(["1"] * 400)

    def fake_reader(console: object) -> object:
        def read(prompt: str) -> str:
            if prompt.startswith("save FILE"):
                return ""  # leave
            return next(answers)
        return read

    monkeypatch.setattr("parlor.terminal.play.console_reader", fake_reader)
    assert main(["play", "--seed", "5", "--level", "expert"]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert "The game cannot go on: the broken computer raised RuntimeError" in out
    assert "random" not in out


def test_parlor_play_refuses_an_unknown_level(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--level", "wizard"]) == 2
    assert "unknown level 'wizard'" in capsys.readouterr().err


def test_a_tournament_stops_when_a_computer_fails(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(computer_module, "make_agent", lambda level, seed: Cheat())
    assert main(["tournament", "--teams", "A:random B:random", "--rounds", "1"]) == 1
    err = capsys.readouterr().err
    assert "the cheat computer answered 'attack AS'" in err
    assert "in round 1 at table 1" in err and "the tournament stops" in err
