"""What the human types at the game's prompt: a menu number, an action's text (or a unique
beginning of it), or one of the commands ``?``, ``menu``, a group letter, ``log [N]``,
``rule 304``, ``piles``, ``save FILE``, ``quit``, ``resign``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.padding import Padding
from rich.text import Text

from parlor.rules.actions import Action, ActionParseError
from parlor.terminal.menu import Menu
from parlor.terminal.rulebook import rule_text

if TYPE_CHECKING:
    from parlor.terminal.game import TerminalGame

HELP = (
    ("Choosing", "type a menu number, or an action's text: play 4H on 2:KS, keep 9D, pass. "
                 "A unique beginning is enough (play 4H on 2). Explicit payment works too: "
                 "play KS tax 9S 8S spend SSC (automatic payment is the default)."),
    ("Commands", "? help · menu: all actions · log [N]: the last N events · rule 304, rule "
                 "R29: a rule cited in the log · piles: Discard piles and face-up Recycle "
                 "cards · save FILE: the game record · resign · quit"),
    ("Table", "2:KS = Rlr 2's King of Spades; bare cards belong to the zone's Rlr. D1, D2 = "
              "the Domains, T = the Trumps stack. KS/4H = a KS carrying a 4H Enh."),
    ("Marks", "(t1) taxed on Rlr 1's turn: it untaxes when Rlr 1's next turn starts · (i) "
              "inactive · (2d) damage · (x) terminal: to Discard at the next untax · (3/2) "
              "changed Pwr/Tgh"),
    ("Cards", "2-6 Enh, 7-10 Lnd, A J Q K Cre (1/1 1/2 2/2 2/3). Cre cost: its Tgh in its "
              "suit + its Pwr in any; Enh: its value, half (rounded up) in its suit. Log "
              "lines cite docs/rules.md (R = rulings)."),
    ("Turn", "untax, burn, trim to 7, draw 2 and keep 1 (or Redraw, which ends the turn); "
             "then cycles of window 1, attack, blocks, abilities, window 2, combat. Not "
             "attacking ends the turn."),
)


class Quit(Exception):
    """The human quit (the game is left unfinished)."""


def help_text() -> Text:
    return Text("\n").join(Text.assemble((head + "  ", "bold"), body) for head, body in HELP)


def run(game: TerminalGame, line: str, menu: Menu) -> Action | None:
    """Run one line typed by the human: an action to apply, or None after a command."""
    words = line.strip().split()
    if not words:
        return None
    if _listing(game, words, menu) or _session(game, words):
        return None
    if words[0].lower() == "resign":
        if len(words) == 1 and game.ask("resign this game?"):
            return Action("resign", -1, game.human)
        return None
    return _action(game, line, menu)


def _listing(game: TerminalGame, words: list[str], menu: Menu) -> bool:
    """Help, the menu, the log, a rule or the piles; True when ``words`` asked for one."""
    verb, console = words[0].lower(), game.console
    if verb in ("?", "h", "help"):
        console.print(help_text())
    elif verb == "menu":
        for t in menu.lines(console.width):
            console.print(t)
        game.redraw = False
        return True
    elif len(words) == 1 and verb in game.letters:
        for t in menu.flow(console.width, only=game.letters[verb])[0]:
            console.print(t)
        game.redraw = False
        return True
    elif verb == "log":
        game.show_last(int(words[1]) if len(words) > 1 and words[1].isdigit() else 20)
    elif verb in ("rule", "why") and len(words) == 2:
        text = rule_text(words[1])
        if text is None:
            game.messages.append(f"no rule {words[1]} (write e.g. rule 304, rule 304.3 or "
                                 "rule R29)")
            return True
        console.print(Padding(Text(text), (0, 0, 0, 2)))
    elif verb == "piles":
        game.show_piles()
    else:
        return False
    game.wait()
    return True


def _session(game: TerminalGame, words: list[str]) -> bool:
    """Save or quit; True when ``words`` asked for one."""
    verb = words[0].lower()
    if verb == "save":
        if len(words) < 2:
            game.messages.append("write save FILE, e.g. save game.txt")
        else:
            game.save(" ".join(words[1:]))
        return True
    if verb in ("quit", "exit", "q"):
        unsaved = game.saved_moves != len(game.state.history)
        what = "stop the tournament" if game.tournament else "quit"
        if not unsaved or game.ask(f"{what} without saving this game?"):
            raise Quit
        return True
    return False


def _action(game: TerminalGame, line: str, menu: Menu) -> Action | None:
    """The action ``line`` names: by menu number, full text or a unique beginning."""
    words = line.strip().split()
    if len(words) == 1 and words[0].isdigit():
        a = menu.pick(int(words[0]))
        if a is None:
            game.messages.append(f"choose 1 to {len(menu.actions)}")
        return a
    try:
        parsed = Action.parse(" ".join(words))
    except ActionParseError:
        parsed = None
    if parsed is not None and (parsed in menu.actions or parsed.base in menu.actions):
        return parsed
    found = menu.matching([w.lower() for w in words])
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        opts = ", ".join(f"{menu.actions.index(a) + 1}) {a}" for a in found[:8])
        more = f" … {len(found) - 8} more" if len(found) > 8 else ""
        game.messages.append(f"which one? {opts}{more}")
        return None
    if parsed is not None:
        return parsed  # illegal: apply explains which rule forbids it
    game.messages.append(f"{line.strip()!r} is neither a menu number, an action nor a "
                         "command: ? for help")
    return None
