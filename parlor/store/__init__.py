"""Saved games: each game is its settings, seed and the actions applied, one row per action.

The store knows nothing of the rules: it keeps records (docs/notation.md) and the metadata the
web app lists. A game is rebuilt by replaying its record through :mod:`parlor.rules`.
"""

from parlor.store.db import (
    CHANNEL,
    GameRow,
    GameStore,
    StoreConflict,
    StoredGame,
    default_url,
    libpq_url,
    sqlalchemy_url,
)
from parlor.store.tournaments import StoredTournament, TournamentRow, TournamentStore

__all__ = ["CHANNEL", "GameRow", "GameStore", "StoreConflict", "StoredGame", "StoredTournament",
           "TournamentRow", "TournamentStore", "default_url", "libpq_url", "sqlalchemy_url"]
