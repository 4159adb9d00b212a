"""Puzzles: positions from real games where one line of the solver's decisions is clearly best
(issue 44). :mod:`parlor.puzzles.model` is the value and its text form; the shipped set is
``data/puzzles.jsonl``, one puzzle per line."""
