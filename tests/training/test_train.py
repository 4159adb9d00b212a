"""``parlor train``: the same seed gives the same weights, byte for byte."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parlor.ai.features import FEATURE_NAMES
from parlor.ai.value import model_from_dict
from parlor.cli import main
from parlor.training.selfplay import positions

pytestmark = pytest.mark.slow  # `make check` leaves it out: self-play and fitting, 2-17 s each


def test_selfplay_positions_are_seeded() -> None:
    a, b = positions(seed=11, games=2), positions(seed=11, games=2)
    assert a.rows == b.rows and a.targets == b.targets
    assert {t for t in a.targets} <= {0.0, 0.5, 1.0}
    assert all(len(r) == len(FEATURE_NAMES) for r in a.rows)


def test_parlor_train_on_a_tiny_seed_reproduces_identical_weights(tmp_path: Path) -> None:
    args = ["train", "--seed", "4", "--games", "5", "--steps", "30", "--hidden", "2"]
    assert main([*args, "--out", str(tmp_path / "a.json")]) == 0
    assert main([*args, "--out", str(tmp_path / "b.json")]) == 0
    a = (tmp_path / "a.json").read_bytes()
    assert a == (tmp_path / "b.json").read_bytes()
    data = json.loads(a)
    assert data["seed"] == 4 and data["games"] == 5
    assert data["command"] == "parlor train --seed 4 --games 5 --steps 30 --hidden 2"
    model = model_from_dict(data)  # what it wrote, the agents can read
    assert len(model.hidden) == 2


def test_selfplay_on_two_processes_gives_the_same_rows() -> None:
    pairings = (("greedy", "novice"), ("expert@iters=3", "greedy"))
    one, two = positions(21, 3, pairings), positions(21, 3, pairings, workers=2)
    assert (one.rows, one.targets, one.games, one.turns_left) == (
        two.rows, two.targets, two.games, two.turns_left)
    assert sorted(set(one.games)) == [0, 1, 2]


def test_parlor_train_names_its_pairings_in_the_command_and_the_file(tmp_path: Path) -> None:
    out = tmp_path / "w.json"
    args = ["train", "--seed", "4", "--games", "5", "--steps", "5", "--pairing",
            "greedy:Novice", "--pairing", "5@iters=3:greedy", "--workers", "2"]
    assert main([*args, "--out", str(out)]) == 0
    data = json.loads(out.read_bytes())
    assert data["pairings"] == ["greedy:novice", "expert@iters=3:greedy"]
    assert data["command"] == ("parlor train --seed 4 --games 5 --steps 5 --hidden 16 "
                               "--pairing greedy:novice --pairing expert@iters=3:greedy")


def test_parlor_train_refuses_pairings_the_holdout_would_never_train_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Game i is played by pairing i % 5 and held out when i % 5 == 4: the fifth pairing's
    games would all be validation."""
    args = ["train", "--seed", "4", "--games", "5", "--steps", "5",
            *[x for p in ("greedy:novice", "novice:greedy", "greedy:greedy",
                          "novice:novice", "random:greedy") for x in ("--pairing", p)]]
    assert main([*args, "--out", str(tmp_path / "w.json")]) == 2
    assert "never be trained on" in capsys.readouterr().err
    assert not (tmp_path / "w.json").exists()
    assert main([*args, "--pairing", "greedy:novice", "--out", str(tmp_path / "w.json")]) == 0


def test_parlor_train_with_no_options_rebuilds_the_packages_weights() -> None:
    """The defaults are the shipped file's command, so ``parlor train`` alone remakes it."""
    from parlor.training.command import (
        DEFAULT_GAMES,
        DEFAULT_HIDDEN,
        DEFAULT_SEED,
        DEFAULT_STEPS,
        PACKAGED,
    )

    data = json.loads(PACKAGED.read_text("utf-8"))
    assert data["command"] == (f"parlor train --seed {DEFAULT_SEED} --games {DEFAULT_GAMES} "
                               f"--steps {DEFAULT_STEPS} --hidden {DEFAULT_HIDDEN}")
    assert len(data["hidden"]) == DEFAULT_HIDDEN
