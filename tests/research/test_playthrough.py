"""The committed OpenSpiel playthrough (tests/research/playthroughs/parlor_magic.txt) replays
to the identical text, as OpenSpiel's own playthrough tests check its games: every string,
tensor, legal action and return of one random game, for every observation type OpenSpiel's
generator asks for (information state, observation, public and private).

After an intended change of an observation, write it anew:

    python -c "from parlor.research import spiel; from open_spiel.python.algorithms import \\
    generate_playthrough as g; open('tests/research/playthroughs/parlor_magic.txt', 'w').write(\\
    g.playthrough('parlor_magic(deals=16,max_turns=2)', None, seed=7))"
"""

from __future__ import annotations

from pathlib import Path

from absl import flags
from open_spiel.python.algorithms import generate_playthrough

from parlor.research import spiel

PLAYTHROUGH = Path(__file__).resolve().parent / "playthroughs" / "parlor_magic.txt"


def test_the_committed_playthrough_replays_identically() -> None:
    assert spiel.SHORT_NAME in PLAYTHROUGH.read_text().splitlines()[0]
    if not flags.FLAGS.is_parsed():  # the generator reads an absl flag's default
        flags.FLAGS.mark_as_parsed()
    original, again = generate_playthrough.replay(str(PLAYTHROUGH))
    assert again == original
