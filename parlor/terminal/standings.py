"""The tournament's tables in the terminal (standings after each round, the final standings
by player and by team, rule 1307) and its report as plain JSON-able data."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from parlor.rules.tournament import Tournament, standings, team_standings, winners
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
        notes = []
        if st.out:
            notes.append(f"out (round {t.players[st.player].out_round})")
        if st.ransom_owed:
            notes.append(f"held: ransom {st.ransom_owed}, single draws")
        if st.byes:
            notes.append(f"sat out {st.byes}")
        place = f"{st.place}=" if st.tied else str(st.place)
        table.add_row(place, label(st.player), st.team, str(st.talents),
                      f"{st.wins}-{st.losses}-{st.draws}", "; ".join(notes),
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
    """The whole tournament as plain JSON-able data."""
    place = {st.player: st.place for st in standings(t)}
    return {
        "settings": asdict(t.settings),
        "seed": t.seed,
        "rounds_played": t.round,
        "teams": {team: [e.name for e in entries if e.team == team]
                  for team in t.teams},
        "winners": [t.players[i].name for i in winners(t)],
        "players": [
            {"name": p.name, "team": p.team, "level": entries[i].level,
             "place": place[i], "talents": p.talents, "wins": p.wins,
             "losses": p.losses, "draws": p.draws, "sat_out": p.byes,
             "out_round": p.out_round,
             "ransom_owed": sum(r.amount for r in t.ransoms if r.prisoner == i)}
            for i, p in enumerate(t.players)],
        "team_standings": [asdict(ts) for ts in team_standings(t)],
        "games": [
            {"round": st.outcome.round, "table": st.outcome.table,
             "rlr1": t.players[st.outcome.seats[0]].name,
             "rlr2": t.players[st.outcome.seats[1]].name,
             "seed": st.outcome.seed,
             "winner": None if st.outcome.winner is None
             else t.players[st.outcome.winner].name,
             "winner_life": st.outcome.winner_life, "turns": st.outcome.turns,
             "how": st.outcome.how, "bracket": st.bracket, "paid": st.paid,
             "ransom": st.ransom}
            for st in t.results],
        "open_ransoms": [
            {"prisoner": t.players[r.prisoner].name, "holder": t.players[r.holder].name,
             "amount": r.amount, "round": r.round} for r in t.ransoms],
        "log": list(t.log),
    }

