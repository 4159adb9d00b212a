"""``parlor tournament``: a tournament under rule 1300 between computer players (and at most one
human, who plays its games with the ``parlor play`` screen).

    parlor tournament --teams "A:expert,greedy B:novice,expert" --rounds 6 --seed 1
                      [--talents 4] [--max-turns 200] [--think S] [--json FILE]
                      [--records DIR] [--no-ransom]

``--teams`` lists the teams, separated by spaces, each ``NAME:LEVEL,LEVEL,...``; a player is
named after its team and place (``A1``, ``A2``…) and plays at its level, or is ``human``.
The rules module :mod:`parlor.rules.tournament` pairs the rounds, settles every game and pays
the ransoms; this module only plays the games and shows the results: a progress bar, the
games and a standings table after each round, and a final report (a table, and JSON with
``--json``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from parlor.play import (
    Computer,
    Quit,
    UnknownLevelError,
    available_levels,
    canonical_level,
    console_reader,
    make_console,
    play_interactive,
)
from parlor.rules.engine import apply, new_game
from parlor.rules.notation import record
from parlor.rules.state import State
from parlor.rules.tournament import (
    DEFAULT_ROUNDS,
    DEFAULT_TALENTS,
    Outcome,
    Pairing,
    Tournament,
    TournamentError,
    TournamentSettings,
    answer_ransom,
    is_over,
    max_games,
    new_tournament,
    pair_round,
    play_round,
    ransom_payers,
    report,
    standings,
    team_standings,
)

HUMAN = "human"
DEFAULT_TEAMS = "A:greedy,novice B:greedy,novice"  # fast levels: seconds in all
MAX_DECISIONS = 50_000  # a safety net: a game that never ends is scored as a draw


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
            return level
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


# -- playing the games ------------------------------------------------------------------------


def outcome_of(s: State, p: Pairing) -> Outcome:
    """The tournament's view of a finished (or abandoned) game."""
    if s.winner is None:
        return Outcome(p.round, p.table, p.seats, p.seed, None, 0, s.turn, "draw")
    resigned = bool(s.history) and getattr(s.history[-1], "verb", "") == "resign"
    return Outcome(p.round, p.table, p.seats, p.seed, p.seats[s.winner], s.life[s.winner],
                   s.turn, "resign" if resigned else "attack")


def play_computer_game(p: Pairing, t: Tournament, computers: tuple[Computer, Computer]) -> State:
    """One game between two computers, without an event log (for speed)."""
    s = new_game(p.seed, p.game_settings(t.settings))
    s.log = None
    n = 0
    while not s.is_over and n < MAX_DECISIONS:
        apply(s, computers[s.actor].act(s, s.actor))
        n += 1
    return s


@dataclass
class Runner:
    """Plays a tournament: the games, the progress bar and the report on ``console``."""

    entries: list[Entry]
    settings: TournamentSettings
    seed: int
    console: Console
    read: Callable[[str], str] | None = None
    think: float | None = None
    records: Path | None = None
    quiet: bool = False  # no per-round tables (the final report only)
    warnings: list[str] = field(default_factory=list)

    def level(self, player: int) -> str:
        return self.entries[player].level

    def label(self, player: int) -> str:
        e = self.entries[player]
        return f"{e.name} ({'you' if e.level == HUMAN else e.level})"

    def computer(self, player: int, game_seed: int, seat: int) -> Computer:
        return Computer(self.level(player), game_seed * 2 + seat, self.think)

    def note(self, p: Pairing, c: Computer) -> None:
        """Keep (and show) what went wrong with a computer player: a failing or illegal
        agent is replaced by a random move for that decision (parlor.play.Computer)."""
        for w in c.warnings:
            if c.fallback and "not available" in w:
                continue  # said once at the start
            line = f"round {p.round} table {p.table}: {w}"
            self.warnings.append(line)
            self.console.print(Text("note: " + line, style="yellow"))

    def save_record(self, p: Pairing, s: State) -> None:
        if self.records is None:
            return
        self.records.mkdir(parents=True, exist_ok=True)
        names = " vs ".join(self.label(i) for i in p.seats)
        text = record(s)
        first, _, rest = text.partition("\n")
        path = self.records / f"round{p.round}-table{p.table}.txt"
        path.write_text(f"{first}\n# tournament round {p.round} table {p.table}: {names}\n"
                        f"{rest}", encoding="utf-8")

    def play_human(self, p: Pairing, t: Tournament) -> State:
        seat = 0 if self.level(p.seats[0]) == HUMAN else 1
        other = p.seats[1 - seat]
        s = new_game(p.seed, p.game_settings(t.settings))
        me = self.entries[p.seats[seat]]
        self.console.rule(f"Round {p.round}: your game, as Rlr {seat + 1} ({me.name}) against "
                          f"{self.label(other)}")
        mine, theirs = t.players[p.seats[seat]], t.players[other]
        self.console.print(Text(
            f"Talents: you {mine.talents}, {theirs.name} {theirs.talents}. The winner's life "
            "decides the payment: above 8 all the loser's talents, 5-8 a ransom, below 5 "
            "one (1303).", style="cyan"))
        if p.single_draw[seat]:
            self.console.print(Text("You are held for a ransom: single-card draws (1304).",
                                    style="magenta"))
        assert self.read is not None
        game = play_interactive(s, seat, self.computer(other, p.seed, 1 - seat),
                                self.label(other), self.console, self.read,
                                header=f"tournament round {p.round} table {p.table}",
                                tournament=True, human_name=me.name)
        game.run()
        with contextlib.suppress(EOFError, KeyboardInterrupt):
            self.read("(Enter to go on with the tournament) ")
        return s

    def run(self) -> Tournament:
        teams: dict[str, list[str]] = {}
        for e in self.entries:
            teams.setdefault(e.team, []).append(e.name)
        people = [e.name for e in self.entries if e.level == HUMAN]
        t = new_tournament(list(teams.items()), self.settings, self.seed, people)
        rounds = self.settings.rounds or 1  # the command always sets rounds
        self.console.print(Text(t.log[0], style="bold"))
        done = 0
        progress = Progress(TextColumn("{task.description}"), BarColumn(),
                            MofNCompleteColumn(), TimeElapsedColumn(), console=self.console,
                            disable=not self.console.is_terminal, transient=True)
        per_round = max_games([len(v) for v in teams.values()])
        task = progress.add_task("tournament", total=per_round * rounds)
        shown = len(t.log)
        with progress:
            while not is_over(t):
                rnd = pair_round(t)
                left = rounds - rnd.number
                progress.update(task, total=done + len(rnd.pairings) * (left + 1),
                                description=f"round {rnd.number}/{rounds}",
                                refresh=True)
                outcomes = []
                humans = [p for p in rnd.pairings
                          if HUMAN in (self.level(p.seats[0]), self.level(p.seats[1]))]
                for p in humans:
                    progress.stop()
                    s = self.play_human(p, t)
                    progress.start()
                    outcomes.append(outcome_of(s, p))
                    self.save_record(p, s)
                    done += 1
                    progress.update(task, completed=done, refresh=True)
                for p in rnd.pairings:
                    if p in humans:
                        continue
                    comps = (self.computer(p.seats[0], p.seed, 0),
                             self.computer(p.seats[1], p.seed, 1))
                    s = play_computer_game(p, t, comps)
                    for c in comps:
                        self.note(p, c)
                    outcomes.append(outcome_of(s, p))
                    self.save_record(p, s)
                    done += 1
                    progress.update(task, completed=done, refresh=True)
                t = play_round(t, rnd, sorted(outcomes, key=lambda o: o.table))
                if not self.quiet:
                    self.show_round(t, rnd.number, t.log[shown:])
                shown = len(t.log)
                if t.asked:
                    progress.stop()
                    t = self.ask_ransoms(t)
                    progress.start()
        self.show_final(t)
        return t

    def ask_ransoms(self, t: Tournament) -> Tournament:
        """The person's team answers each ransom it owes (1308.2): pay (who pays), or not."""
        assert self.read is not None
        while t.asked:
            r = t.asked[0]
            offer = ransom_payers(t, r)
            names = {p.name.lower(): i for i, p in enumerate(t.players)}
            who = ",".join(f"{t.players[i].name}:{n}" for i, n in offer)
            answer = self.read(
                f"Pay the ransom of {t.players[r.prisoner].name} ({r.amount} to "
                f"{t.players[r.holder].name})? Enter for {who}, NAME:N,... to choose, "
                "'no' to decline: ").strip()
            try:
                if answer.lower() in ("n", "no"):
                    t = answer_ransom(t, r, None)
                elif not answer:
                    t = answer_ransom(t, r, offer)
                else:
                    payers = [(names[n.strip().lower()], int(k)) for n, _, k in
                              (part.partition(":") for part in answer.split(","))]
                    t = answer_ransom(t, r, payers)
            except (KeyError, ValueError) as exc:  # TournamentError is a ValueError
                self.console.print(Text(f"{exc}: try again", style="red"))
                continue
            self.console.print(Text("  " + t.log[-1]))
        return t

    # -- reporting ----------------------------------------------------------------------------

    def show_round(self, t: Tournament, number: int, lines: Sequence[str]) -> None:
        self.console.rule(f"Round {number}")
        for line in lines:
            self.console.print(Text("  " + line))
        self.console.print(self.standings_table(t, f"Standings after round {number}"))

    def standings_table(self, t: Tournament, title: str) -> Table:
        table = Table(title=title, title_justify="left", box=None, pad_edge=False,
                      header_style="bold")
        table.add_column("#", justify="right")
        table.add_column("Player")
        table.add_column("Team")
        table.add_column("Talents", justify="right")
        table.add_column("W-L-D", justify="right")
        table.add_column("Note")
        for st in standings(t):
            notes = []
            if st.out:
                notes.append(f"out (round {t.players[st.player].out_round})")
            if st.ransom_owed:
                notes.append(f"held: ransom {st.ransom_owed}, single draws")
            if st.byes:
                notes.append(f"sat out {st.byes}")
            place = f"{st.place}=" if st.tied else str(st.place)
            table.add_row(place, self.label(st.player), st.team, str(st.talents),
                          f"{st.wins}-{st.losses}-{st.draws}", "; ".join(notes),
                          style="dim" if st.out else None)
        return table

    def show_final(self, t: Tournament) -> None:
        self.console.rule("Final standings")
        self.console.print(self.standings_table(
            t, f"After {t.round} round{'s' if t.round != 1 else ''}"))
        teams = Table(title="Teams", title_justify="left", box=None,
                      pad_edge=False, header_style="bold")
        for name, just in (("#", "right"), ("Team", "left"), ("Talents", "right"),
                           ("In", "right")):
            teams.add_column(name, justify=just)  # type: ignore[arg-type]
        for ts in team_standings(t):
            teams.add_row(str(ts.place), ts.team, str(ts.talents),
                          f"{ts.players_in}/{ts.players}")
        self.console.print(teams)
        self.console.print(Text(t.log[-1], style="bold green"))

    def report(self, t: Tournament) -> dict[str, Any]:
        """The whole tournament as plain JSON-able data."""
        return report(t, [e.level for e in self.entries], self.warnings)


# -- the command --------------------------------------------------------------------------------


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def add_parser(sub: Any) -> None:
    """Register ``parlor tournament`` on the subparsers of the ``parlor`` command."""
    p = sub.add_parser(
        "tournament", help="run a tournament between computer players (rules 1300)",
        description="Run a tournament (docs/rules.md 1300): teams, talents, payouts by the "
                    "winner's life, ransoms and single-card draws. One player may be 'human' "
                    "and plays its games in the terminal.")
    p.add_argument("--teams", default=DEFAULT_TEAMS, metavar="TEAMS",
                   help=f"teams as 'NAME:LEVEL,LEVEL NAME:LEVEL,...' with levels from: "
                        f"{', '.join(available_levels())}, {HUMAN} (default {DEFAULT_TEAMS!r})")
    p.add_argument("--rounds", type=_positive, default=DEFAULT_ROUNDS,
                   help=f"rounds to play (default {DEFAULT_ROUNDS})")
    p.add_argument("--talents", type=_positive, default=DEFAULT_TALENTS,
                   help=f"each player's dole (1302; default {DEFAULT_TALENTS})")
    p.add_argument("--seed", type=int, default=0, help="the tournament's seed (default 0)")
    p.add_argument("--max-turns", type=_positive, default=200, metavar="N",
                   help="a game is a draw after N turns (1203; default 200)")
    p.add_argument("--think", type=float, default=None, metavar="SECONDS",
                   help="the computers' time per decision (default: each level's own)")
    p.add_argument("--no-ransom", action="store_true",
                   help="teammates never pay ransoms (1308): prisoners keep single draws")
    p.add_argument("--json", metavar="FILE", default=None,
                   help="write the final report as JSON to FILE ('-' for standard output)")
    p.add_argument("--records", metavar="DIR", default=None,
                   help="save every game's record in DIR")
    p.add_argument("--quiet", action="store_true",
                   help="print only the final report (no table after each round)")
    p.set_defaults(func=cmd_tournament)


def cmd_tournament(args: argparse.Namespace) -> int:
    try:
        entries = parse_teams(args.teams)
        settings = TournamentSettings(rounds=args.rounds, talents=args.talents,
                                      max_turns=args.max_turns,
                                      auto_ransom=not args.no_ransom)
        for e in entries:
            if e.level != HUMAN:
                Computer(e.level, 0)
    except (ValueError, TournamentError, UnknownLevelError) as exc:
        print(f"parlor tournament: {exc}", file=sys.stderr)
        return 2
    to_stdout = args.json == "-"
    console = make_console() if not to_stdout else Console(stderr=True, highlight=False)
    has_human = any(e.level == HUMAN for e in entries)
    runner = Runner(entries, settings, args.seed, console,
                    console_reader(console) if has_human else None, args.think,
                    Path(args.records) if args.records else None, args.quiet)
    fallbacks = sorted({e.level for e in entries if e.level != HUMAN
                        and Computer(e.level, 0).fallback and e.level != "random"})
    if fallbacks:
        console.print(Text(f"note: level(s) {', '.join(fallbacks)} not available yet: they "
                           "play random legal moves", style="yellow"))
    try:
        t = runner.run()
    except Quit:
        console.print("Tournament stopped.")
        return 1
    except KeyboardInterrupt:
        console.print("Tournament interrupted.")
        return 130
    if args.json:
        text = json.dumps(runner.report(t), indent=2) + "\n"
        if to_stdout:
            sys.stdout.write(text)
        else:
            try:
                Path(args.json).write_text(text, encoding="utf-8")
            except OSError as exc:
                print(f"parlor tournament: cannot write {args.json}: {exc.strerror}",
                      file=sys.stderr)
                return 1
            console.print(f"report written to {args.json}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="parlor")
    sub = parser.add_subparsers(dest="command", required=True)
    add_parser(sub)
    args = parser.parse_args(["tournament", *(sys.argv[1:] if argv is None else argv)])
    code: int = args.func(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
