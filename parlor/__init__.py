"""Parlor Magic: a two-player Magic: The Gathering variant for two standard 52-card decks.

The packages, lowest layer first (``tests/test_layers.py`` holds them to it):

* :mod:`parlor.rules` — the game: pure, seeded, replayable; imports nothing else of parlor;
* :mod:`parlor.ai` — computer opponents, through the engine's public API and views only;
* :mod:`parlor.present` — the sentences people read, shared by the front-ends;
* :mod:`parlor.store` — saved games (SQLite or any SQLAlchemy URL);
* :mod:`parlor.research` — OpenSpiel, PettingZoo and Gymnasium adapters (rules and ai only);
* the front-ends, which never import one another: :mod:`parlor.web` (the web app) and
  :mod:`parlor.terminal` (``parlor play``, ``tournament``, ``simulate``);
* :mod:`parlor.cli` — the ``parlor`` command, a thin dispatcher to the front-ends.
"""

__version__ = "0.1.0"
