"""Plays a tournament under rule 1300 in the terminal: the computers' games, the human's
games on the ``parlor play`` screen, a progress bar, and the tables after each round.

The rules module :mod:`parlor.rules.tournament` pairs the rounds, settles every game and pays
the ransoms; the tables and the report are drawn by :mod:`parlor.terminal.standings`.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.text import Text

from parlor.ai.failure import AgentFailed
from parlor.present.tournament import ransom_question
from parlor.rules.engine import apply, new_game
from parlor.rules.notation import record
from parlor.rules.seeds import Seed, derive
from parlor.rules.state import State
from parlor.rules.tournament import (
    Outcome,
    Pairing,
    Tournament,
    TournamentSettings,
    answer_ransom,
    is_over,
    max_games,
    new_tournament,
    pair_round,
    play_round,
    ransom_payers,
)
from parlor.terminal import standings
from parlor.terminal.computer import Computer
from parlor.terminal.play import play_interactive
from parlor.terminal.teams import HUMAN, Entry

MAX_DECISIONS = 50_000  # a safety net: a game that never ends is scored as a draw


def outcome_of(s: State, p: Pairing) -> Outcome:
    """The tournament's view of a finished (or abandoned) game."""
    if s.winner is None:
        return Outcome(p.round, p.table, p.seats, p.seed, None, 0, s.turn, "draw")
    resigned = bool(s.history) and getattr(s.history[-1], "verb", "") == "resign"
    return Outcome(p.round, p.table, p.seats, p.seed, p.seats[s.winner], s.life[s.winner],
                   s.turn, "resign" if resigned else "attack")


def play_computer_game(p: Pairing, t: Tournament, computers: tuple[Computer, Computer]) -> State:
    """One game between two computers, without an event log (for speed). A computer that
    fails stops the tournament: AgentFailed, naming the round and table."""
    s = new_game(p.seed, p.game_settings(t.settings))
    s.log = None
    n = 0
    while not s.is_over and n < MAX_DECISIONS:
        try:
            action = computers[s.actor].act(s, s.actor)
        except AgentFailed as exc:
            raise AgentFailed(exc.level, f"{exc.reason}, in round {p.round} at table "
                                         f"{p.table}") from exc
        apply(s, action)
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

    def level(self, player: int) -> str:
        return self.entries[player].level

    def label(self, player: int) -> str:
        e = self.entries[player]
        return f"{e.name} ({'you' if e.level == HUMAN else e.level})"

    def computer(self, player: int, game_seed: Seed, seat: int) -> Computer:
        # a keyed deal's computer seed is a keyed hash of it, so it reveals nothing of it
        seed = game_seed * 2 + seat if isinstance(game_seed, int) \
            else derive(game_seed, f"terminal-computer/{seat}", 31)
        return Computer(self.level(player), seed, self.think)

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
        rounds = self.settings.rounds or 1  # by time: the bar counts one round at a time
        of = f"/{self.settings.rounds}" if self.settings.rounds else ""
        started = time.monotonic()
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
                left = max(0, rounds - rnd.number)
                progress.update(task, total=done + len(rnd.pairings) * (left + 1),
                                description=f"round {rnd.number}{of}",
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
                    outcomes.append(outcome_of(s, p))
                    self.save_record(p, s)
                    done += 1
                    progress.update(task, completed=done, refresh=True)
                t = play_round(t, rnd, sorted(outcomes, key=lambda o: o.table),
                               time.monotonic() - started)
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
            self.console.print(Text(ransom_question(t, r), style="magenta"))
            answer = self.read(f"Pay it? Enter for {who}, NAME:N,... to choose who pays, "
                               "'no' not to pay: ").strip()
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
        standings.show_round(self.console, t, number, lines, self.label)

    def show_final(self, t: Tournament) -> None:
        standings.show_final(self.console, t, self.label)

    def report(self, t: Tournament) -> dict[str, Any]:
        """The whole tournament as plain JSON-able data."""
        return standings.report(t, self.entries)
