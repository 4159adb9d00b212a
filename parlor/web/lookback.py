"""Looking back during play (issue 41): the move list beside the game log steps back through
the positions of a casual game against the computer without leaving the table.

A past position is the engine's view of it for the player's own seat (``view(s, seat)``,
what that seat saw then), never the record's raw actions (the computer's ``keep 9C`` names a
card the player never saw) nor the deal's seed (secret until the end). A match game refuses:
players rely on memory there (109, R30). Nothing here changes the game: a past state is
replayed from the record on a copy (:meth:`Games._state_at`)."""

from __future__ import annotations

from typing import Any

from parlor.rules.engine import apply
from parlor.web.games import (
    STOPPED,
    GameError,
    GameOver,
    Games,
    LiveGame,
    WrongSeat,
    _log_entries,
    opponent_of,
    table_view,
    view_payload,
)


class NoLookBack(GameError):
    """A match game's earlier positions are not shown while it is played."""

    status, code = 409, "no_look_back"


#: Log kinds that only account for a decision (paying for it, the turn that follows): a
#: move's words are its other events.
BOOKKEEPING = frozenset({"tax", "pay", "turn", "untax", "draw", "reshuffle", "setup"})


def in_play(live: LiveGame) -> bool:
    """A game still played (not over, not stopped, not an imported record)."""
    return live.row.kind != "replay" and not live.state.is_over \
        and live.row.status not in STOPPED


def check(live: LiveGame, seat: int | None) -> None:
    """Refuse to show a game in play at all but its player's own casual view. Under
    ``live.lock``."""
    if not live.is_play:  # a game between two people opens its record once it is over
        raise GameOver("a game can be replayed once it is over", version=live.row.version)
    if live.state.settings.match_play:
        raise NoLookBack("this is a match game: its earlier positions are not shown during "
                         "play (players rely on memory, 109, R30). The replay shows them once "
                         "the game is over; casual games have the move list.",
                         version=live.row.version)
    if seat != live.human:
        raise WrongSeat("during play only your own view of the table is shown: the "
                        "computer's Hand stays hidden until the game is over",
                        version=live.row.version)


def past_position(games: Games, live: LiveGame, step: int, seat: int) -> dict[str, Any]:
    """The table after the first ``step`` actions of a game in play, as ``seat`` saw it."""
    with live.lock:
        check(live, seat)
        total = len(live.actions)
        step = max(0, min(step, total))
        s = games._state_at(live, step)
        return {
            "id": live.id,
            "kind": live.row.kind,
            "in_play": True,
            "step": step,
            "steps": total,
            "version": live.row.version,
            "takebacks": live.row.takebacks,
            "seat": seat,
            "you": live.human,
            "view": view_payload(table_view(s, seat)),
            "log_total": len(s.log or ()),
        }


def move_list(games: Games, live: LiveGame, seat: int | None, start: int) -> dict[str, Any]:
    """The moves from step ``start`` on: for each, the turn, who made it and its words as
    ``seat`` reads them in the log (None: the public log, a friend game's spectator)."""
    with live.lock:
        playing = in_play(live)
        if playing:
            check(live, seat)
        total = len(live.actions)
        start = max(0, min(start, total))
        s = games._state_at(live, start)  # a copy: replayed on below without the lock
        actions = live.actions[start:]
        head = {"id": live.id, "from": start, "steps": total, "version": live.row.version,
                "takebacks": live.row.takebacks, "in_play": playing}
        them = opponent_of(live, seat)
    moves = []
    for step, text in enumerate(actions, start + 1):
        turn, actor, before = s.turn, s.actor, len(s.log or ())
        apply(s, text)
        entries = _log_entries(s, seat, before, seat, them)
        moves.append({"step": step, "turn": turn, "by": actor, "log": before,
                      "text": words(entries, text, actor, seat, them)})
    return {**head, "moves": moves}


#: A decision the log does not tell, in words: for "you", for the other Rlr.
UNTOLD = {"pass": ("pass", "passes"), "done": ("are done", "is done"),
          "end": ("do not attack", "does not attack")}


def words(entries: list[dict[str, Any]], text: str, actor: int, seat: int | None,
          them: str) -> str:
    """A move in a few words: its first event that is not bookkeeping (its log sentence as
    the reader may read it); a decision the log does not tell (a pass, a Done) by its bare
    verb, which names no card."""
    for e in entries:
        if e["kind"] not in BOOKKEEPING and not e["automatic"]:
            return str(e["text"])
    mine, other = UNTOLD.get(text.split()[0], ("decide", "decides"))
    if actor == seat:
        return f"You {mine}"
    who = f"Rlr {actor + 1}" if seat is None else them[:1].upper() + them[1:]
    return f"{who} {other}"
