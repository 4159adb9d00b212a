"""Parlor Magic for game-AI research (the optional ``research`` extra).

Importing this package registers the game with each library (docs/research.md):

* OpenSpiel: ``pyspiel.load_game("parlor_magic")`` (:mod:`parlor.research.spiel`, which
  registers it on import);
* PettingZoo: :func:`env`, or in the classic style ``parlor_magic_v0.env()`` /
  ``parlor_magic_v0.raw_env()`` (:mod:`parlor.research.petting`);
* Gymnasium: ``gymnasium.make("ParlorMagic-v0")`` (:class:`ParlorGymEnv`, one seat against
  an opponent), also ``gymnasium.make("parlor.research:ParlorMagic-v0")`` without the import.

:mod:`parlor.research.numbering` is the fixed action numbering they share;
:mod:`parlor.research.agents` OpenSpiel's ISMCTS as an agent (bench/ai.py ``os_ismcts``).
The core never imports this package.
"""

import gymnasium

from parlor.research import parlor_magic_v0, spiel
from parlor.research.gym_env import ParlorGymEnv
from parlor.research.petting import env

GYM_ID = "ParlorMagic-v0"

if GYM_ID not in gymnasium.registry:  # a second import (importlib reload) registers nothing
    gymnasium.register(id=GYM_ID, entry_point="parlor.research.gym_env:ParlorGymEnv")

__all__ = ["GYM_ID", "ParlorGymEnv", "env", "parlor_magic_v0", "spiel"]
