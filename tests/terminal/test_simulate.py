"""``parlor simulate``: the summary, seats alternating, workers, the progress bar."""

from __future__ import annotations

import io
import re

import pytest

from parlor.cli import main
from parlor.terminal.progress import Progress
from parlor.terminal.simulate import play_game

LINE = re.compile(r"^(p1 wins|p2 wins|Rlr 1 wins|Rlr 2 wins|draws|mean turns|mean dec\.|games/s)"
                  r"\s+([\d.]+)", re.MULTILINE)


def summary(out: str) -> dict[str, float]:
    return {label: float(value) for label, value in LINE.findall(out)}


def test_simulate_prints_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "-n", "5", "--seed", "1"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[0] == "5 games, seeds 1..5, p1: random, p2: random (seats alternate)"
    got = summary(out)
    assert set(got) == {"p1 wins", "p2 wins", "Rlr 1 wins", "Rlr 2 wins", "draws", "mean turns",
                        "mean dec.", "games/s"}
    assert got["Rlr 1 wins"] + got["Rlr 2 wins"] + got["draws"] == 5
    assert got["p1 wins"] + got["p2 wins"] + got["draws"] == 5
    assert "95% CI" in out
    assert got["mean turns"] > 1
    assert got["games/s"] > 0
    assert err == ""  # no progress bar when stderr is not a terminal


def test_simulate_counts_match_the_games(capsys: pytest.CaptureFixture[str]) -> None:
    results = [play_game(seed, swapped=(seed - 1) % 2 == 1) for seed in range(1, 6)]
    assert main(["simulate", "-n", "5", "--seed", "1"]) == 0
    got = summary(capsys.readouterr().out)
    assert got["Rlr 1 wins"] == sum(r.winner == 0 for r in results)
    assert got["Rlr 2 wins"] == sum(r.winner == 1 for r in results)
    assert got["draws"] == sum(r.winner is None for r in results)
    assert got["p1 wins"] == sum(r.winner_player == 0 for r in results)
    assert got["mean turns"] == pytest.approx(sum(r.turns for r in results) / 5, abs=0.05)


def test_simulate_replays_and_workers_agree(capsys: pytest.CaptureFixture[str]) -> None:
    def run(*extra: str) -> dict[str, float]:
        assert main(["simulate", "-n", "4", "--seed", "11", *extra]) == 0
        got = summary(capsys.readouterr().out)
        del got["games/s"]
        return got

    first = run()
    assert run() == first
    assert run("--workers", "2") == first


def test_unknown_level_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "-n", "5", "--p1", "grandmaster"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "argument --p1: unknown level 'grandmaster' (available: novice, casual," in err

    assert main(["simulate", "--p2", "9"]) != 0
    assert "argument --p2: unknown level '9'" in capsys.readouterr().err


def test_simulate_levels_alternate_seats_and_report_think_times(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "-n", "2", "--seed", "5", "--p1", "1", "--p2", "random"]) == 0
    out = capsys.readouterr().out
    assert "p1: novice, p2: random" in out
    assert re.search(r"^think p1 +p50 [\d.]+ s +p95 [\d.]+ s", out, re.MULTILINE)
    first, second = play_game(5, "novice", "random"), play_game(6, "novice", "random", True)
    assert not first.swapped and second.swapped
    assert len(first.think[0]) > 0 and len(second.think[0]) > 0


@pytest.mark.parametrize("bad", ["0", "-3", "many"])
def test_game_count_must_be_positive(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "-n", bad]) == 2
    assert "argument -n/--games" in capsys.readouterr().err


def test_help_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--help"]) == 0
    assert "--workers" in capsys.readouterr().out


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_draws_on_one_line_only_on_a_terminal() -> None:
    tty = FakeTTY()
    bar = Progress(4, stream=tty, label="sim ", interval=0.0)
    for done in range(1, 5):
        bar.update(done)
    bar.close()
    text = tty.getvalue()
    assert "\n" not in text
    assert text.count("\r") == 5  # four redraws and the final erase
    assert "[##############################] 4/4 100%" in text

    plain = io.StringIO()
    bar = Progress(4, stream=plain, interval=0.0)
    bar.update(4)
    bar.close()
    assert plain.getvalue() == ""
