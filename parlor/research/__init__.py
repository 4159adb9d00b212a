"""Parlor Magic for game-AI research (the optional ``research`` extra).

* :mod:`parlor.research.spiel`: the OpenSpiel game ``parlor_magic`` (registered on import);
* :func:`env`: the PettingZoo AEC environment (:mod:`parlor.research.petting`);
* :class:`ParlorGymEnv`: a Gymnasium single-agent environment against a computer level;
* :mod:`parlor.research.numbering`: the fixed action numbering they share;
* :mod:`parlor.research.agents`: OpenSpiel's ISMCTS as an agent (bench/ai.py ``os_ismcts``).

See docs/research.md. The core never imports this package.
"""

from parlor.research import spiel
from parlor.research.gym_env import ParlorGymEnv
from parlor.research.petting import env

__all__ = ["ParlorGymEnv", "env", "spiel"]
