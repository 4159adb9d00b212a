"""Golden games: a few seeded random games with their full event logs, diffed in CI so that
every change of behaviour is deliberate. After an intended change, regenerate with
``PARLOR_UPDATE_GOLDEN=1 make test`` and review the diff of tests/rules/golden/."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.notation import record, replay

GOLDEN = Path(__file__).parent / "golden"
SEEDS = (1, 2, 3, 4)


def golden_text(seed: int) -> str:
    s = new_game(seed)
    rng = random.Random(seed)
    while not s.is_over:
        apply(s, rng.choice(legal_actions(s)))
    lines = [record(s).rstrip("\n"), "", "# events (public text | Rlr's own text)"]
    for e in s.log or ():
        secret = f" | {e.secret}" if e.secret else ""
        lines.append(f"# [{e.kind}] {e.text}{secret}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", SEEDS)
def test_golden_game_log_is_unchanged(seed: int) -> None:
    path = GOLDEN / f"seed-{seed}.txt"
    text = golden_text(seed)
    if os.environ.get("PARLOR_UPDATE_GOLDEN"):
        path.write_text(text)
    assert text == path.read_text(), f"behaviour changed: see {path}"


@pytest.mark.parametrize("seed", SEEDS)
def test_golden_record_replays_to_the_same_end(seed: int) -> None:
    s = replay((GOLDEN / f"seed-{seed}.txt").read_text())
    assert s.is_over
    assert s.log is not None
    logged = [line for line in (GOLDEN / f"seed-{seed}.txt").read_text().splitlines()
              if line.startswith("# [")]
    assert len(logged) == len(s.log)
