"""The tournament's tables in the terminal (standings after each round, the final standings
by player and by team, rule 1307) and its report as plain JSON-able data."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from parlor.present.tournament import standing_note
from parlor.rules import tournament
from parlor.rules.tournament import Tournament, standings, team_standings
from parlor.terminal.teams import Entry

Label = Callable[[int], str]  # a player's name on the screen: ``A1 (greedy)``


def show_round(console: Console, t: Tournament, number: int, lines: Sequence[str],
           label: Label) -> None:
    """A round's games (its log ``lines``) and the standings after it."""
    console.rule(f"Round {number}")
    for line in lines:
        console.print(Text("  " + line))
    console.print(standings_table(t, f"Standings after round {number}", label))


def standings_table(t: Tournament, title: str, label: Label) -> Table:
    table = Table(title=title, title_justify="left", box=None, pad_edge=False,
                  header_style="bold")
    table.add_column("#", justify="right")
    table.add_column("Player")
    table.add_column("Team")
    table.add_column("Talents", justify="right")
    table.add_column("W-L-D", justify="right")
    table.add_column("Note")
    for st in standings(t):
        place = f"{st.place}=" if st.tied else str(st.place)
        table.add_row(place, label(st.player), st.team, str(st.talents),
                      f"{st.wins}-{st.losses}-{st.draws}", standing_note(t, st),
                      style="dim" if st.out else None)
    return table


def show_final(console: Console, t: Tournament, label: Label) -> None:
    """The final standings by player and by team, and the winners."""
    console.rule("Final standings")
    console.print(standings_table(
        t, f"After {t.round} round{'s' if t.round != 1 else ''}", label))
    teams = Table(title="Teams", title_justify="left", box=None,
                  pad_edge=False, header_style="bold")
    for name, just in (("#", "right"), ("Team", "left"), ("Talents", "right"),
                       ("In", "right")):
        teams.add_column(name, justify=just)  # type: ignore[arg-type]
    for ts in team_standings(t):
        teams.add_row(str(ts.place), ts.team, str(ts.talents),
                      f"{ts.players_in}/{ts.players}")
    console.print(teams)
    console.print(Text(t.log[-1], style="bold green"))


def report(t: Tournament, entries: Sequence[Entry]) -> dict[str, Any]:
    """The whole tournament as plain JSON-able data (the web app exports the same)."""
    return tournament.report(t, [e.level for e in entries])
