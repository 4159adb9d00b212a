"""Parlor Magic: a two-player Magic: The Gathering variant for two standard 52-card decks."""

__version__ = "0.1.0"
