"""What a tournament is made of (:class:`Spec`): the organiser's choices, read and checked from
the creation form by :func:`parse_spec`. With the tournament's steps it rebuilds the tournament
(:mod:`parlor.web.tournaments.state`)."""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import asdict, dataclass
from typing import Any

from parlor.rules.seeds import KEY_BYTES, DealKey, Seed
from parlor.rules.tournament import Tournament, TournamentError, TournamentSettings, new_tournament
from parlor.web.games import BadAction, seed_json

HUMAN = "human"
MAX_TEAMS = 8
MAX_TEAM_SIZE = 8
MAX_PLAYERS = 16
MAX_ROUNDS = 20
MAX_MINUTES = 240
MAX_TALENTS = 50
_TEAM = re.compile(r"^[A-Za-z][A-Za-z0-9]{0,11}$")


@dataclass(frozen=True, slots=True)
class Entry:
    name: str
    team: str
    level: str  # a computer level, or "human" for the person


@dataclass(frozen=True, slots=True)
class Spec:
    """What the organiser chose: it and the steps rebuild the tournament."""

    title: str
    seed: Seed  # a deal key the server drew, or the organiser's practice number
    settings: TournamentSettings
    entries: tuple[Entry, ...]

    @property
    def practice(self) -> bool:
        """Dealt from a number (the organiser's, or from before deal keys): guessable."""
        return isinstance(self.seed, int)

    def to_json(self) -> str:
        return json.dumps({"title": self.title, "seed": seed_json(self.seed),
                           "settings": asdict(self.settings),
                           "entries": [asdict(e) for e in self.entries]})

    @staticmethod
    def from_json(text: str) -> Spec:
        d = json.loads(text)
        seed = d["seed"] if isinstance(d["seed"], int) else DealKey.parse(d["seed"])
        return Spec(d["title"], seed, TournamentSettings(**d["settings"]),
                    tuple(Entry(**e) for e in d["entries"]))

    def start(self) -> Tournament:
        teams: dict[str, list[str]] = {}
        for e in self.entries:
            teams.setdefault(e.team, []).append(e.name)
        people = [e.name for e in self.entries if e.level == HUMAN]
        return new_tournament(list(teams.items()), self.settings, self.seed, people)


def parse_spec(data: dict[str, Any], accepted: list[str]) -> Spec:
    """The creation form, checked: BadAction (400) with a sentence for anything wrong."""
    teams = data.get("teams")
    if not isinstance(teams, list) or len(teams) < 2:
        raise BadAction("a tournament needs at least two teams (1301)")
    if len(teams) > MAX_TEAMS:
        raise BadAction(f"at most {MAX_TEAMS} teams")
    entries: list[Entry] = []
    names: set[str] = set()
    for n, team in enumerate(teams, 1):
        if not isinstance(team, dict):
            raise BadAction("each team is {\"name\": \"A\", \"players\": [\"greedy\", ...]}")
        name = str(team.get("name") or "").strip()
        if not _TEAM.match(name):
            raise BadAction(f"team {n}: a name is a letter then up to 11 letters or digits, "
                            f"not {name!r}")
        if name in names:
            raise BadAction(f"team {name!r} is given twice")
        names.add(name)
        players = team.get("players")
        if not isinstance(players, list) or not players:
            raise BadAction(f"team {name} has no players")
        if len(players) > MAX_TEAM_SIZE:
            raise BadAction(f"team {name}: at most {MAX_TEAM_SIZE} players")
        for k, level in enumerate(players, 1):
            if not isinstance(level, str) or (level != HUMAN and level not in accepted):
                raise BadAction(f"team {name}: unknown level {level!r} (choose from "
                                f"{', '.join(accepted)} or {HUMAN})")
            entries.append(Entry(f"{name}{k}", name, level))
    if len({e.name for e in entries}) != len(entries):
        raise BadAction("two players would have the same name: give the teams other names")
    if len(entries) > MAX_PLAYERS:
        raise BadAction(f"at most {MAX_PLAYERS} players in all")
    if sum(e.level == HUMAN for e in entries) > 1:
        raise BadAction("you can be on one team only")
    rounds = _int(data, "rounds", None, 1, MAX_ROUNDS)
    minutes = _int(data, "minutes", None, 1, MAX_MINUTES)
    if (rounds is None) == (minutes is None):
        raise BadAction("choose either a number of rounds or a time limit in minutes (1312)")
    try:
        settings = TournamentSettings(
            rounds=rounds, time_limit=None if minutes is None else minutes * 60.0,
            talents=_int(data, "talents", 4, 1, MAX_TALENTS) or 4,
            max_turns=_int(data, "max_turns", 200, 2, 1000) or 200)
    except TournamentError as exc:
        raise BadAction(str(exc)) from None
    seed = _int(data, "seed", None, 0, 2**31 - 1)
    title = str(data.get("title") or "").strip()[:60] or "Tournament"
    if seed is None:  # R31: 128 secret bits, so no contest's cards pin down another's deal
        return Spec(title, DealKey(secrets.token_bytes(KEY_BYTES)), settings, tuple(entries))
    return Spec(f"{title} (practice, seed {seed})", seed, settings, tuple(entries))


def _int(data: dict[str, Any], key: str, default: int | None, lo: int, hi: int) -> int | None:
    raw = data.get(key)
    if raw is None or raw == "":
        return default
    if isinstance(raw, bool):
        raise BadAction(f"{key} must be a whole number")
    try:
        n = int(str(raw).strip())
    except ValueError:
        raise BadAction(f"{key} must be a whole number, not {raw!r}") from None
    if not lo <= n <= hi:
        raise BadAction(f"{key} must be between {lo} and {hi}")
    return n

