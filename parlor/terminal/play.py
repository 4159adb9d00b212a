"""``parlor play``: a game against the computer in the terminal.

    parlor play [--level LEVEL] [--seed N] [--seat 1|2] [--resume FILE]

Each time it is your decision the whole spread is shown as you may see it (both Rlrs' piles
as counts, Home, Domain and Field with the Enhs on their hosts and status marks, the Trumps
stack and trump suit, life, mnr pools, your Hand; the computer's Hand as a count), then a
numbered menu of exactly the legal actions. Type a number or the action's text
(``play 4H on 2:KS``; a unique beginning such as ``play 4H on 2`` is enough). ``?`` lists the
other commands: ``save FILE``, ``log``, ``rule 304`` (quotes a rule the log cites; the log
itself prints the "why" of each ranking decision under it), ``piles``, ``menu``, ``resign``,
``quit``. A saved game is a game record (docs/notation.md) with a ``# play:`` comment naming
the seat and level; ``parlor play --resume FILE`` continues it.

The screen is drawn for the terminal's size: events scroll above it, and the spread with the
menu fits an 80x24 terminal. A menu too long for the lines left folds its biggest groups
behind letters (``a) play 3C on …(26)``: type ``a`` to see them); ``menu`` lists it all.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from parlor.ai.failure import AgentFailed
from parlor.rules.engine import new_game
from parlor.rules.notation import RecordError, replay
from parlor.rules.seeds import derive
from parlor.rules.state import Settings, State
from parlor.terminal.commands import Quit
from parlor.terminal.computer import (
    DEFAULT_LEVEL,
    Computer,
    UnknownLevelError,
    available_levels,
    check_level,
)
from parlor.terminal.game import Seat, TerminalGame


def make_console() -> Console:
    return Console(highlight=False, soft_wrap=False, emoji=False)


def console_reader(console: Console) -> Callable[[str], str]:
    if sys.platform != "win32":  # Windows has no readline; its console edits lines itself
        import readline  # noqa: F401  (line editing and history for input())

    def read(prompt: str) -> str:
        return console.input(Text(prompt, style="bold"))

    return read


def play_interactive(state: State, human: int, opponent: Computer, opponent_name: str,
                     console: Console, read: Callable[[str], str], header: str = "",
                     tournament: bool = False, human_name: str = "you") -> TerminalGame:
    """Build the game loop for ``human`` (0 or 1) against ``opponent``."""
    seats = [Seat(human_name), Seat(opponent_name, opponent)]
    if human == 1:
        seats.reverse()
    return TerminalGame(state, human, (seats[0], seats[1]), console, read, header, tournament)





def parse_header(text: str) -> dict[str, str]:
    """The ``# play: seat=1 level=greedy`` comment of a record saved by ``parlor play``."""
    for line in text.splitlines():
        body = line.lstrip("#").strip()
        if line.startswith("#") and body.startswith("play:"):
            return dict(w.split("=", 1) for w in body[5:].split() if "=" in w)
    return {}


def _seat(text: str) -> int:
    if text not in ("1", "2"):
        raise argparse.ArgumentTypeError("the seat is 1 or 2")
    return int(text)


def add_parser(sub: Any) -> None:
    """Register ``parlor play`` on the subparsers of the ``parlor`` command."""
    p = sub.add_parser(
        "play", help="play a game against the computer in the terminal",
        description="Play a game of Parlor Magic against the computer in the terminal. "
                    "Type ? during the game for help.")
    p.add_argument("--level", type=check_level, default=None, metavar="LEVEL",
                   help=f"the computer's level ({', '.join(available_levels())}; "
                        f"default {DEFAULT_LEVEL})")
    p.add_argument("--seed", type=int, default=None,
                   help="the deal's seed (default: a new one, shown at the start)")
    p.add_argument("--seat", type=_seat, default=None, metavar="1|2",
                   help="play as Rlr 1 or Rlr 2 (default 1; who goes first is dealt, 106)")
    p.add_argument("--resume", metavar="FILE", default=None,
                   help="continue a game saved with 'save FILE'")
    p.add_argument("--think", type=float, default=None, metavar="SECONDS",
                   help="the computer's time per decision (default: its level's own)")
    p.add_argument("--max-turns", type=int, default=200, metavar="N",
                   help="a draw after N turns in all (1203; default 200)")
    p.set_defaults(func=cmd_play)


def cmd_play(args: argparse.Namespace) -> int:
    console = make_console()
    header_args: dict[str, str] = {}
    if args.resume:
        try:
            text = Path(args.resume).read_text(encoding="utf-8")
            state = replay(text)
        except OSError as exc:
            print(f"parlor play: cannot read {args.resume}: {exc.strerror}", file=sys.stderr)
            return 2
        except (RecordError, ValueError) as exc:
            print(f"parlor play: {args.resume} is not a game record: {exc}", file=sys.stderr)
            return 2
        header_args = parse_header(text)
    else:
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
        state = new_game(seed, Settings(max_turns=args.max_turns))
    seat = args.seat or int(header_args.get("seat", "1"))
    level = args.level or header_args.get("level", DEFAULT_LEVEL)
    human = seat - 1
    try:
        # a record dealt from a key gives the computer a keyed hash of it (issue 13)
        base = state.seed if isinstance(state.seed, int) else \
            0 if state.seed is None else derive(state.seed, "terminal-computer", 31)
        computer = Computer(level, base * 7 + len(state.history), args.think)
    except UnknownLevelError as exc:
        print(f"parlor play: {exc}", file=sys.stderr)
        return 2
    game = play_interactive(state, human, computer, f"{level} AI", console,
                            console_reader(console), header=f"play: seat={seat} level={level}")
    if args.resume:
        game.shown = max(len(state.log or []) - 12, 0)
        game.saved_moves = len(state.history)
        console.print(Text(f"Resumed {args.resume}: {len(state.history)} moves, turn "
                           f"{state.turn}", style="green"))
    else:
        console.print(Text(f"Parlor Magic, seed {state.seed}: you are Rlr {seat} against the "
                           f"{level} computer. Type ? for help.", style="green"))
    try:
        game.run()
    except (Quit, KeyboardInterrupt):
        saved = game.saved_moves == len(state.history)
        console.print("Game left unfinished" + ("." if saved else ", and not saved."))
        return 0
    except AgentFailed as exc:
        console.print(Text(f"The game cannot go on: {exc}. That is a bug in the computer "
                           "player; the log above holds the game so far, and 'save FILE' "
                           "keeps it for a report.", style="bold red"))
        game.after()
        return 1
    game.after()
    return 0
