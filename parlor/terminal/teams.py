"""The teams of ``parlor tournament --teams "A:expert,greedy B:novice,human"``: each player
named after its team and place (``A1``, ``A2``…), at a computer level or ``human``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from parlor.terminal.computer import UnknownLevelError, available_levels, canonical_level

HUMAN = "human"


@dataclass(frozen=True, slots=True)
class Entry:
    """A player as entered: its name, team and level (``human`` for the person)."""

    name: str
    team: str
    level: str


def parse_teams(text: str, levels: Sequence[str] | None = None) -> list[Entry]:
    """``"A:expert,greedy B:novice,human"`` → the entries A1, A2, B1, B2.

    >>> [(e.name, e.level) for e in parse_teams("A:greedy,random B:human")]
    [('A1', 'greedy'), ('A2', 'random'), ('B1', 'human')]
    """
    known = tuple(levels if levels is not None else available_levels())

    def canonical(level: str) -> str:
        if level == HUMAN or levels is not None:
            return level
        try:
            return canonical_level(level)
        except UnknownLevelError:
            return level  # refused just below, with the list that names human too

    entries: list[Entry] = []
    teams: set[str] = set()
    for part in text.replace(";", " ").split():
        team, sep, members = part.partition(":")
        if not sep or not team or not members:
            raise ValueError(f"{part!r}: write a team as NAME:LEVEL,LEVEL (e.g. A:greedy,random)")
        if team in teams:
            raise ValueError(f"team {team!r} is given twice")
        teams.add(team)
        for n, level in enumerate(members.split(","), 1):
            level = canonical(level.strip().lower())
            if level != HUMAN and level not in known:
                raise ValueError(f"unknown level {level!r} (available: {', '.join(known)}, "
                                 f"{HUMAN})")
            entries.append(Entry(f"{team}{n}", team, level))
    if len(teams) < 2:
        raise ValueError("a tournament needs at least two teams (1301)")
    if sum(e.level == HUMAN for e in entries) > 1:
        raise ValueError("at most one human player can join a tournament")
    return entries

