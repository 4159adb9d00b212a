"""One game in the terminal between the human and a computer: the loop that asks whoever is
to act, the log printed as it grows (with the "why" of each ranking decision), the screen
redrawn at each of the human's decisions, saving and the look back once the game is over.

What the human types is read by :mod:`parlor.terminal.commands`; the table is drawn by
:mod:`parlor.terminal.spread` and the menu by :mod:`parlor.terminal.menu`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.padding import Padding
from rich.text import Text

from parlor.present.explain import why
from parlor.present.prose import automatic
from parlor.rules.actions import Action, IllegalActionError
from parlor.rules.engine import apply, legal_actions
from parlor.rules.events import Event
from parlor.rules.notation import record
from parlor.rules.state import State
from parlor.rules.view import view
from parlor.terminal import commands
from parlor.terminal.commands import Quit
from parlor.terminal.computer import Computer
from parlor.terminal.menu import Menu
from parlor.terminal.spread import DIM, RED, piles, screen, spread


@dataclass
class Seat:
    """Who plays a seat: a name for the screen, and a computer (None: the human)."""

    name: str
    computer: Computer | None = None


@dataclass
class TerminalGame:
    """One game in the terminal between the human (one seat) and a computer."""

    state: State
    human: int
    seats: tuple[Seat, Seat]
    console: Console
    read: Callable[[str], str]
    header: str = ""  # a comment line kept in saved records (how to resume)
    tournament: bool = False
    shown: int = 0  # log events already printed
    saved_moves: int = -1
    messages: list[str] = field(default_factory=list)
    letters: dict[str, int] = field(default_factory=dict)  # collapsed menu groups
    redraw: bool = True

    def names(self) -> tuple[str, str]:
        out = []
        for q, seat in enumerate(self.seats):
            out.append("you" if q == self.human else seat.name)
        return out[0], out[1]

    # -- output ------------------------------------------------------------------------------

    def show_log(self) -> None:
        log = self.state.log or []
        for e in log[self.shown:]:
            self.print_event(e)
        self.shown = len(log)

    def show_last(self, n: int) -> None:
        """The last ``n`` events of the log, again."""
        for e in (self.state.log or [])[-n:]:
            self.print_event(e)

    def sentence(self, e: Event) -> str:
        """The event as the human may read it; a forced decision says it was automatic."""
        text = e.text_for(self.human)
        return automatic(text) if e.automatic else text

    def print_event(self, e: Event) -> None:
        """One line of the game log, with the reasoning behind ranking decisions (from the
        event's comparison, ``Event.why``)."""
        self.console.print(self.event_text(self.sentence(e), e.rule))
        reason = why(e)
        if reason is not None:
            self.console.print(Padding(Text("why: " + reason["text"], style=DIM),
                                       (0, 0, 0, 4)))

    @staticmethod
    def event_text(text: str, rule: str) -> Text:
        t = Text("  " + text)
        if rule:
            t.append(f"  ({rule})", style=DIM)
        return t

    def screen(self, menu: Menu) -> list[Text]:
        """The spread, the decision and the menu, fitted to the terminal's height."""
        lines, self.letters = screen(view(self.state, self.human), self.names(), menu,
                                     self.messages, self.console)
        return lines

    def show_piles(self) -> None:
        for t in piles(view(self.state, self.human), self.names()):
            self.console.print(t)

    def prompt(self) -> str:
        return f"#{len(self.state.history) + 1} > "

    # -- input -------------------------------------------------------------------------------

    def ask(self, question: str) -> bool:
        try:
            answer = self.read(f"{question} (y/n) ")
        except EOFError:
            return False
        return answer.strip().lower() in ("y", "yes")

    def save(self, path_text: str) -> None:
        path = Path(path_text).expanduser()
        text = record(self.state)
        if self.header:
            first, _, rest = text.partition("\n")
            text = f"{first}\n# {self.header}\n{rest}"
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            self.console.print(Text(f"cannot save to {path}: {exc.strerror}", style=RED))
            return
        self.saved_moves = len(self.state.history)
        self.console.print(Text(f"saved {len(self.state.history)} moves to {path}; resume "
                                f"with: parlor play --resume {path}", style="green"))

    def command(self, line: str, menu: Menu) -> Action | None:
        """Run one line typed by the human: an action to apply, or None after a command."""
        return commands.run(self, line, menu)

    def wait(self) -> None:
        """After a long listing, let the human read it before the screen is drawn again."""
        if self.console.height <= 30:
            with contextlib.suppress(EOFError):
                self.read("(Enter to go back to the game) ")

    # -- the loop ----------------------------------------------------------------------------

    def human_turn(self) -> None:
        s = self.state
        menu = Menu.of(legal_actions(s))
        self.show_log()
        self.redraw = True
        while True:
            if self.redraw:
                for t in self.screen(menu):
                    self.console.print(t)
            else:
                for m in self.messages:
                    self.console.print(Text(m, style="yellow"))
            self.messages.clear()
            self.redraw = True
            try:
                line = self.read(self.prompt())
            except EOFError:
                raise Quit from None
            except KeyboardInterrupt:
                self.console.print()
                raise Quit from None
            action = self.command(line, menu)
            if action is None:
                continue
            try:
                apply(s, action, self.human)
            except IllegalActionError as exc:
                self.messages.append(f"not allowed: {exc}")
                continue
            return

    def computer_turn(self) -> None:
        s = self.state
        seat = self.seats[s.actor]
        assert seat.computer is not None
        apply(s, seat.computer.act(s, s.actor))

    def run(self) -> State:
        """Play until the game ends; raises Quit if the human quits first."""
        s = self.state
        status = None
        while not s.is_over:
            if s.actor == self.human:
                if status is not None:
                    status.stop()
                    status = None
                self.human_turn()
            else:
                if status is None and self.console.is_terminal:
                    status = self.console.status(f"{self.seats[s.actor].name} is thinking…")
                    status.start()
                self.computer_turn()
        if status is not None:
            status.stop()
        self.show_log()
        self.final()
        return s

    def final(self) -> None:
        s = self.state
        for t in spread(view(s, self.human), self.names(), "game over"):
            self.console.print(t)
        if s.winner is None:
            verdict = Text(f"{s.result}", style="bold yellow")
        elif s.winner == self.human:
            verdict = Text(f"You win! {s.result}", style="bold green")
        else:
            verdict = Text(f"You lose. {s.result}", style="bold red")
        self.console.print(verdict)

    def after(self) -> None:
        """Once the game is over: save, look back, or leave (Enter or quit)."""
        while True:
            try:
                line = self.read("save FILE, log, piles, or Enter to leave > ")
            except (EOFError, KeyboardInterrupt):
                return
            words = line.split()
            if not words or words[0].lower() in ("q", "quit", "exit"):
                return
            if words[0].lower() == "save" and len(words) > 1:
                self.save(" ".join(words[1:]))
            elif words[0].lower() == "log":
                self.show_last(int(words[1]) if len(words) > 1 and words[1].isdigit() else 20)
            elif words[0].lower() == "piles":
                self.show_piles()
            else:
                self.console.print("save FILE, log [N], piles, or Enter to leave")
