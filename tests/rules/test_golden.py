"""Golden games: a few seeded random games with their full event logs, diffed in CI so that
every change of behaviour is deliberate. After an intended change, regenerate with
``PARLOR_UPDATE_GOLDEN=1 make test`` and review the diff of tests/rules/golden/.

``golden/`` holds games of a new game's reshuffle scheme (2); ``golden/reshuffle-1/`` the same
seeds under scheme 1 (307.1), recorded before scheme 2 existed and never regenerated: every
record of that time must still replay, event for event."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.notation import record, replay
from parlor.rules.state import RESHUFFLE_HASHED, RESHUFFLE_TWISTER, Settings

GOLDEN = Path(__file__).parent / "golden"
SEEDS = (1, 2, 3, 4)
#: Where each reshuffle scheme's golden games lie.
FOLDERS = {RESHUFFLE_HASHED: GOLDEN, RESHUFFLE_TWISTER: GOLDEN / "reshuffle-1"}


def golden_text(seed: int, reshuffle: int) -> str:
    s = new_game(seed, Settings(reshuffle=reshuffle))
    rng = random.Random(seed)
    while not s.is_over:
        apply(s, rng.choice(legal_actions(s)))
    lines = [record(s).rstrip("\n"), "", "# events (public text | Rlr's own text)"]
    for e in s.log or ():
        secret = f" | {e.secret}" if e.secret else ""
        lines.append(f"# [{e.kind}] {e.text}{secret}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("reshuffle", sorted(FOLDERS))
@pytest.mark.parametrize("seed", SEEDS)
def test_golden_game_log_is_unchanged(seed: int, reshuffle: int) -> None:
    path = FOLDERS[reshuffle] / f"seed-{seed}.txt"
    text = golden_text(seed, reshuffle)
    if os.environ.get("PARLOR_UPDATE_GOLDEN") and reshuffle == RESHUFFLE_HASHED:
        path.write_text(text)
    assert text == path.read_text(), f"behaviour changed: see {path}"


@pytest.mark.parametrize("reshuffle", sorted(FOLDERS))
@pytest.mark.parametrize("seed", SEEDS)
def test_golden_record_replays_to_the_same_end(seed: int, reshuffle: int) -> None:
    text = (FOLDERS[reshuffle] / f"seed-{seed}.txt").read_text()
    s = replay(text)
    assert s.is_over
    assert s.settings.reshuffle == reshuffle
    assert s.shuffles > 0  # each golden game reshuffles: the scheme is exercised
    assert s.log is not None
    logged = [line for line in text.splitlines() if line.startswith("# [")]
    assert [f"# [{e.kind}] {e.text}{f' | {e.secret}' if e.secret else ''}"
            for e in s.log] == logged
