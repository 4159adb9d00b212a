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

The computer players come from :func:`parlor.ai.levels.make_agent` when it exists; a level
that is not available falls back to uniformly random legal actions, with a warning.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import random
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from rich.console import Console
from rich.padding import Padding
from rich.text import Text

from parlor.rules.actions import Action, ActionParseError, IllegalActionError
from parlor.rules.cards import PWR, TGH, Card
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.notation import RecordError, record, replay
from parlor.rules.ranking import Comparison
from parlor.rules.seeds import derive
from parlor.rules.state import Settings, State
from parlor.rules.view import SideView, TableCard, View, view

# -- computer players -----------------------------------------------------------------------------

#: Levels offered when parlor.ai.levels does not say which it has.
KNOWN_LEVELS = ("random", "novice", "greedy", "expert")
DEFAULT_LEVEL = "greedy"


class AgentLike(Protocol):
    def act(self, view: View, legal: Sequence[Action], budget: float | None = None) -> Action:
        ...


class UnknownLevelError(ValueError):
    """A level name that parlor.ai does not know."""


def _levels_module() -> Any:
    try:
        return importlib.import_module("parlor.ai.levels")
    except ImportError:
        return None


def available_levels() -> tuple[str, ...]:
    """The level names the computer players offer (KNOWN_LEVELS until parlor.ai says)."""
    mod = _levels_module()
    for attr in ("NAMES", "LEVELS"):
        names = getattr(mod, attr, None) if mod is not None else None
        if isinstance(names, dict | list | tuple) and names:
            return tuple(str(n) for n in names)
    return KNOWN_LEVELS


def canonical_level(name: str) -> str:
    """A level's name as parlor.ai spells it (it may also accept numbers: 1-5); raises
    UnknownLevelError."""
    mod = _levels_module()
    to_name = getattr(mod, "level_name", None) if mod is not None else None
    if to_name is not None:
        try:
            return str(to_name(name))
        except (KeyError, ValueError):
            pass
    elif name.strip().lower() in available_levels():
        return name.strip().lower()
    raise UnknownLevelError(f"unknown level {name!r} (available: "
                            f"{', '.join(available_levels())})")


class Computer:
    """A computer player of ``level``: the parlor.ai agent when there is one, otherwise (or
    when the agent fails or answers an illegal action) a random legal action."""

    def __init__(self, level: str, seed: int = 0, budget: float | None = None) -> None:
        self.level = level
        self.seed = seed
        self.budget = budget
        self.rng = random.Random(f"parlor-computer:{level}:{seed}")
        self.agent: AgentLike | None = None
        self.warnings: list[str] = []
        mod = _levels_module()
        make = getattr(mod, "make_agent", None) if mod is not None else None
        if make is None:
            if level != "random":
                self.warnings.append(f"computer level {level!r} is not available yet: "
                                     "it plays random legal moves")
            return
        try:
            self.agent = make(level, seed)
        except (KeyError, ValueError) as exc:
            raise UnknownLevelError(
                f"unknown level {level!r} (available: {', '.join(available_levels())})"
            ) from exc

    @property
    def fallback(self) -> bool:
        return self.agent is None

    def act(self, s: State, player: int) -> Action:
        legal = legal_actions(s)
        if len(legal) == 1:
            return legal[0]
        if self.agent is not None:
            try:
                a = self.agent.act(view(s, player), list(legal), self.budget)
            except Exception as exc:  # an AI bug must not end the human's game
                self._warn(f"the {self.level} computer failed ({exc!r}): a random move instead")
            else:
                if a in legal:
                    return a
                self._warn(f"the {self.level} computer chose an illegal {a}: a random move "
                           "instead")
        return self.rng.choice(legal)

    def _warn(self, text: str) -> None:
        if len(self.warnings) < 20:
            self.warnings.append(text)


def check_level(name: str) -> str:
    """argparse type: one of the computer levels, as its canonical name."""
    try:
        return canonical_level(name)
    except UnknownLevelError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


# -- the screen ---------------------------------------------------------------------------------

RED = "red"
LETTERS = "abcdefgijklmnoprstuvwxyz"  # group letters (not h or q)
DIM = "dim"
PHASE_TASK = {
    "trim": "recycle Hand cards down to 7 before drawing (304.3)",
    "keep": "keep one drawn card, or Redraw (305, 309)",
    "window1": "first window: play a card or pass (403)",
    "attack": "declare attackers one at a time, then done; or end the turn (406)",
    "block": "declare blockers one at a time, then done (407)",
    "ability_p": "use abilities, then done (408)",
    "ability_o": "use abilities, then done (408)",
    "window2": "second window: play a card or pass (409)",
    "split": "split the attacker's Pwr among its blockers (1003.2)",
    "bonus": "give out the bonus points (1003.3)",
    "domain_bonus": "give out the Domain's bonus points (1004.1)",
    "over": "the game is over",
}


def card(text: str) -> Text:
    """A card face, red for Hearts and Diamonds."""
    return Text(text, style=RED if text[-1:] in ("H", "D") else "")


def ref(text: str, owner: int | None = None) -> Text:
    """``2:KS`` (the ``2:`` dimmed); bare when the card belongs to ``owner`` (1-based)."""
    who, sep, face = text.partition(":")
    if not sep:
        return Text(text, style="bold")
    if owner is not None and who == str(owner):
        return card(face)
    return Text.assemble((who + ":", DIM), card(face))


def marks(tc: TableCard) -> str:
    """Status marks: t1/t2 taxed (on whose turn), i inactive, Nd damage, x terminal,
    +N/-N Pwr/Tgh changes."""
    out = []
    if tc.taxed_on is not None:
        out.append(f"t{tc.taxed_on}")
    if tc.inactive:
        out.append("i")
    if tc.damage:
        out.append(f"{tc.damage}d")
    if tc.terminal:
        out.append("x")
    face = Card.parse(tc.card).index
    if tc.pwr != PWR[face] or tc.tgh != TGH[face]:
        out.append(f"{tc.pwr}/{tc.tgh}")
    return ",".join(out)


def table_card(tc: TableCard) -> Text:
    owner = int(tc.ref.partition(":")[0])
    t = card(tc.card)
    for e in tc.enhs:
        t.append("/")
        t.append_text(ref(e, owner))
    m = marks(tc)
    if m:
        t.append(f"({m})", style="yellow" if tc.damage or tc.terminal else DIM)
    if tc.taxed_on is not None:
        t.stylize("italic")
    return t


def joined(parts: Sequence[Text], empty: str = "-") -> Text:
    if not parts:
        return Text(empty, style=DIM)
    return Text(" ").join(parts)


def pool_text(pool: tuple[int, int, int, int]) -> str:
    return " ".join(f"{'CDHS'[i]}{n}" for i, n in enumerate(pool) if n) or "-"


def zone_line(label: str, body: Text) -> Text:
    return Text.assemble((f" {label:<7}", DIM), body)


def side_header(v: View, q: int, name: str) -> Text:
    sv: SideView = v.sides[q]
    t = Text("▶ " if v.phasing == q else "  ", style="bold cyan")
    t.append(f"Rlr {q + 1}", style="bold")
    t.append(f" · {name}  life ")
    t.append(str(sv.life), style="bold green" if sv.life > 8 else "bold red")
    t.append(f"  mnr {pool_text(sv.pool)}  hand {sv.hand_count}")
    t.append(f"  draw {sv.draw_count} rec {sv.recycle_count} disc {sv.discard_count}",
             style=DIM)
    if v.settings.single_draw[q]:
        t.append("  1-card draws", style="magenta")
    return t


def side_lines(v: View, q: int, name: str, top: bool) -> list[Text]:
    sv = v.sides[q]
    home = zone_line("Home", joined([table_card(c) for c in sv.home]))
    domain = zone_line("Domain", joined([ref(e, q + 1) for e in sv.domain]))
    fld = zone_line("Field", joined([table_card(c) for c in sv.field]))
    zones = [home, domain, fld] if top else [fld, domain, home]
    head = side_header(v, q, name)
    out = [head, *zones] if top else [*zones, head]
    if sv.hand is not None:
        hand = zone_line("Hand", joined([card(c) for c in sv.hand]))
        if v.drawn and v.phasing == q:
            hand.append("   drawn ", style="cyan")
            hand.append_text(joined([card(c) for c in v.drawn]))
        out.append(hand)
    return out


def trumps_line(v: View) -> Text:
    t = zone_line("Trumps", joined([ref(c) for c in v.stack], "empty"))
    if v.trump is None:
        t.append("   no trump suit", style=DIM)
    else:
        name = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}[v.trump]
        t.append("   trump ")
        t.append(name, style="bold " + (RED if v.trump in "HD" else ""))
    return t


def combat_line(v: View) -> Text | None:
    cb = v.combat
    if cb is None or not cb.attackers:
        return None
    by: dict[str, list[str]] = {}
    for b, a in cb.blocks:
        by.setdefault(a, []).append(b)
    parts = []
    for a in cb.attackers:
        t = ref(a)
        if by.get(a):
            t.append(" blocked by ")
            t.append_text(Text(", ").join(ref(b) for b in by[a]))
        elif a in cb.blocked:
            t.append(" blocked (blockers gone)")
        else:
            t.append(" unblocked", style="yellow")
        parts.append(t)
    line = zone_line("Combat", Text("; ").join(parts))
    if cb.split_left:
        line.append(f"  ({cb.split_left} Pwr to split)", style="cyan")
    if cb.bonus_left:
        line.append(f"  ({cb.bonus_left} bonus to give)", style="cyan")
    return line


def header_line(v: View, title: str) -> Text:
    t = Text.assemble(("── ", DIM), (f"Turn {v.turn}", "bold"), f" · Rlr {v.phasing + 1}'s turn")
    if v.lnd_played:
        t.append(" · Lnd played", style=DIM)
    if v.redrawn:
        t.append(" · Redrawn", style=DIM)
    if v.settings.match_play:
        t.append(" · match play", style=DIM)
    if title:
        t.append(f" · {title}", style=DIM)
    t.append(" ──", style=DIM)
    return t


def spread(v: View, names: tuple[str, str], title: str = "") -> list[Text]:
    """The table as ``v.player`` sees it: the other Rlr on top, the viewer below."""
    me, other = v.player, 1 - v.player
    lines = [header_line(v, title)]
    lines += side_lines(v, other, names[other], top=True)
    lines.append(trumps_line(v))
    lines += side_lines(v, me, names[me], top=False)
    cl = combat_line(v)
    if cl is not None:
        lines.append(cl)
    return lines


# -- the menu -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Menu:
    """The legal actions numbered 1..n, grouped by everything but their last word."""

    actions: tuple[Action, ...]
    groups: tuple[tuple[str, tuple[tuple[int, str], ...]], ...]  # key, (number, label)

    @staticmethod
    def of(legal: Sequence[Action]) -> Menu:
        bare = [a for a in legal if " " not in str(a)]
        grouped: dict[str, list[Action]] = {}
        for a in legal:
            text = str(a)
            if " " in text:
                grouped.setdefault(text.rsplit(" ", 1)[0], []).append(a)
        actions: list[Action] = []
        groups: list[tuple[str, tuple[tuple[int, str], ...]]] = []
        for a in bare:
            actions.append(a)
            groups.append(("", ((len(actions), str(a)),)))
        for key, members in grouped.items():
            items = []
            for a in members:
                actions.append(a)
                items.append((len(actions), str(a).rsplit(" ", 1)[1]))
            groups.append((key, tuple(items)))
        return Menu(tuple(actions), tuple(groups))

    def pick(self, number: int) -> Action | None:
        return self.actions[number - 1] if 1 <= number <= len(self.actions) else None

    def flow(self, width: int, collapsed: dict[int, str] | None = None,
             only: int | None = None) -> tuple[list[Text], list[int]]:
        """The menu flowed into lines of ``width`` and the number of actions on each line.
        A collapsed group shows as ``a) play 3C on … (26)``; ``only`` flows one group."""
        collapsed = collapsed or {}
        tokens: list[tuple[Text, bool, int]] = []  # text, starts a group, actions in it
        for g, (key, items) in enumerate(self.groups):
            if only is not None and g != only:
                continue
            if g in collapsed:
                t = Text.assemble((f"{collapsed[g]})", "bold magenta"), (f"{key} …", "bold"),
                                  (f"({len(items)})", DIM))
                tokens.append((t, True, len(items)))
                continue
            for n, (num, label) in enumerate(items):
                t = Text()
                if n == 0 and key:
                    t.append(key + " ", style="bold")
                t.append(f"{num})", style="cyan")
                t.append(label, style="bold" if not key else "")
                tokens.append((t, n == 0, 1))
        lines: list[Text] = []
        counts: list[int] = []
        cur, count = Text(), 0
        for t, first, k in tokens:
            sep = "   " if first else " "
            if cur.plain and len(cur.plain) + len(sep) + len(t.plain) > width:
                lines.append(cur)
                counts.append(count)
                cur, count = Text(), 0
                sep = "" if first else "  "
            elif not cur.plain:
                sep = ""
            cur.append(sep)
            cur.append_text(t)
            count += k
        if cur.plain:
            lines.append(cur)
            counts.append(count)
        return lines, counts

    def layout(self, width: int, budget: int | None = None) -> tuple[list[Text], dict[str, int]]:
        """The menu in at most ``budget`` lines: the biggest groups are collapsed behind a
        letter until it fits (the letters map to group indices); cut as a last resort."""
        lines, counts = self.flow(width)
        collapsed: dict[int, str] = {}
        if budget is not None:
            by_size = sorted(range(len(self.groups)), key=lambda g: -len(self.groups[g][1]))
            for g in by_size:
                if len(lines) <= budget or len(self.groups[g][1]) < 3:
                    break
                collapsed[g] = ""
                for n, c in enumerate(sorted(collapsed)):
                    collapsed[c] = LETTERS[n]
                lines, counts = self.flow(width, collapsed)
            if len(lines) > budget:
                keep = max(budget - 1, 1)
                hidden = sum(counts[keep:])
                lines = lines[:keep]
                lines.append(Text(f"… and {hidden} more: type 'menu' to list them all",
                                  style="yellow"))
        return lines, {letter: g for g, letter in collapsed.items()}

    def lines(self, width: int, budget: int | None = None) -> list[Text]:
        return self.layout(width, budget)[0]

    def matching(self, words: list[str]) -> list[Action]:
        """The actions whose text starts with ``words`` (case-insensitive, whole words, the
        last one a prefix)."""
        out = []
        for a in self.actions:
            have = str(a).lower().split()
            if len(have) < len(words):
                continue
            if have[: len(words) - 1] == words[:-1] and have[len(words) - 1].startswith(
                    words[-1]):
                out.append(a)
        return out


# -- the game loop ----------------------------------------------------------------------------

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


def help_text() -> Text:
    return Text("\n").join(Text.assemble((head + "  ", "bold"), body) for head, body in HELP)


RULES_MD = Path(__file__).resolve().parent.parent / "docs" / "rules.md"


def rule_text(key: str, path: Path = RULES_MD) -> str | None:
    """The text of rule ``304``, sub-rule ``304.3`` or, for a ruling ``R29``, of the rules
    that apply it, from docs/rules.md (None when there is no such rule or no docs)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    key = key.strip().rstrip(".").upper()

    def paragraph(start: int) -> list[str]:
        out = [lines[start]]
        for line in lines[start + 1:]:
            if not line.strip() or line.startswith(("**", "#")):
                break
            out.append(line)
        return out

    def sub_rule(start: int) -> list[str]:
        out = [lines[start]]
        for line in lines[start + 1:]:
            if not line.startswith("  ") or line.lstrip().startswith("- "):
                break
            out.append(line)
        return out

    if re.fullmatch(r"R\d{1,2}", key):
        heads = [i for i, line in enumerate(lines) if f"[{key}]" in line]
        found: list[str] = []
        for i in heads:
            j = i
            while j > 0 and not lines[j].startswith("**") and lines[j].strip():
                j -= 1
            m = re.match(r"\*\*(\d+)\.\*\*", lines[j])
            if m and m.group(1) not in found:
                found.append(m.group(1))
        if not found:
            return None
        first = rule_text(found[0], path) or ""
        more = f"\n{key} is also applied in {', '.join(found[1:])}." if found[1:] else ""
        return first + more
    if re.fullmatch(r"\d{3,4}", key):
        for i, line in enumerate(lines):
            if line.startswith(f"**{key}.**"):
                return reflow(paragraph(i))
    if re.fullmatch(r"\d{3,4}\.\d+", key):
        for i, line in enumerate(lines):
            if line.startswith(f"- {key} "):
                return reflow(sub_rule(i)).removeprefix("- ")
    return None


def reflow(lines: list[str]) -> str:
    """Markdown lines as text for the terminal to wrap: one line per item."""
    out: list[str] = []
    for line in lines:
        item = line.strip()
        if out and not item.startswith("- "):
            out[-1] += " " + item
        else:
            out.append(item)
    return "\n".join(out).replace("**", "")


def _why_function() -> Callable[[str, str, Comparison | None], Any] | None:
    """The web app's explanation of ranking decisions (parlor.web.explain.why), if present."""
    try:
        mod = importlib.import_module("parlor.web.explain")
    except ImportError:
        return None
    f = getattr(mod, "why", None)
    return f if callable(f) else None


WHY = _why_function()


@dataclass
class Seat:
    """Who plays a seat: a name for the screen, and a computer (None: the human)."""

    name: str
    computer: Computer | None = None


class Quit(Exception):
    """The human quit (the game is left unfinished)."""


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
            self.print_event(e.kind, e.text_for(self.human), e.rule, e.why)
        self.shown = len(log)

    def print_event(self, kind: str, text: str, rule: str,
                    comparison: Comparison | None = None) -> None:
        """One line of the game log, with the reasoning behind ranking decisions (from the
        event's comparison, ``Event.why``)."""
        self.console.print(self.event_text(text, rule))
        if WHY is None:
            return
        try:
            why = WHY(kind, text, comparison)
        except Exception:  # the explanation is a help, never a reason to stop
            why = None
        if isinstance(why, dict) and isinstance(why.get("text"), str):
            self.console.print(Padding(Text("why: " + why["text"], style=DIM), (0, 0, 0, 4)))

    @staticmethod
    def event_text(text: str, rule: str) -> Text:
        t = Text("  " + text)
        if rule:
            t.append(f"  ({rule})", style=DIM)
        return t

    def screen(self, menu: Menu) -> list[Text]:
        """The spread, the decision and the menu, fitted to the terminal's height."""
        v = view(self.state, self.human)
        width = self.console.width
        lines = spread(v, self.names())
        task = PHASE_TASK.get(v.phase, v.phase)
        lines.append(Text.assemble(("Your decision: ", "bold cyan"), task))
        notes = [Text(m, style="yellow") for m in self.messages]
        used = sum(len(t.wrap(self.console, width)) for t in lines + notes)
        budget = max(self.console.height - used - 1, 2)
        menu_lines, self.letters = menu.layout(width, budget)
        return lines + menu_lines + notes

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
        words = line.strip().split()
        if not words:
            return None
        verb = words[0].lower()
        if verb in ("?", "h", "help"):
            self.console.print(help_text())
            self.wait()
            return None
        if verb == "menu":
            for t in menu.lines(self.console.width):
                self.console.print(t)
            self.redraw = False
            return None
        if len(words) == 1 and verb in self.letters:
            for t in menu.flow(self.console.width, only=self.letters[verb])[0]:
                self.console.print(t)
            self.redraw = False
            return None
        if verb == "log":
            n = int(words[1]) if len(words) > 1 and words[1].isdigit() else 20
            for e in (self.state.log or [])[-n:]:
                self.print_event(e.kind, e.text_for(self.human), e.rule, e.why)
            self.wait()
            return None
        if verb in ("rule", "why") and len(words) == 2:
            text = rule_text(words[1])
            if text is None:
                self.messages.append(f"no rule {words[1]} (write e.g. rule 304, rule 304.3 or "
                                     "rule R29)")
                return None
            self.console.print(Padding(Text(text), (0, 0, 0, 2)))
            self.wait()
            return None
        if verb == "piles":
            self.show_piles()
            self.wait()
            return None
        if verb == "save":
            if len(words) < 2:
                self.messages.append("write save FILE, e.g. save game.txt")
            else:
                self.save(" ".join(words[1:]))
            return None
        if verb in ("quit", "exit", "q"):
            unsaved = self.saved_moves != len(self.state.history)
            what = "stop the tournament" if self.tournament else "quit"
            if not unsaved or self.ask(f"{what} without saving this game?"):
                raise Quit
            return None
        if verb == "resign":
            if len(words) == 1 and self.ask("resign this game?"):
                return Action("resign", -1, self.human)
            return None
        if len(words) == 1 and verb.isdigit():
            a = menu.pick(int(verb))
            if a is None:
                self.messages.append(f"choose 1 to {len(menu.actions)}")
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
            self.messages.append(f"which one? {opts}{more}")
            return None
        if parsed is not None:
            return parsed  # illegal: apply explains which rule forbids it
        self.messages.append(f"{line.strip()!r} is neither a menu number, an action nor a "
                             "command: ? for help")
        return None

    def wait(self) -> None:
        """After a long listing, let the human read it before the screen is drawn again."""
        if self.console.height <= 30:
            with contextlib.suppress(EOFError):
                self.read("(Enter to go back to the game) ")

    def show_piles(self) -> None:
        v = view(self.state, self.human)
        for q in (1 - self.human, self.human):
            sv = v.sides[q]
            who = f"Rlr {q + 1} ({self.names()[q]})"
            if sv.discard is None:
                disc = Text(f"{sv.discard_count} cards, closed in match play (109)", style=DIM)
            else:
                disc = joined([card(c) for c in sv.discard], "empty")
            self.console.print(Text.assemble((f"{who} Discard: ", "bold"), disc))
            label = "Recycle" if q == self.human else "Recycle, face up"
            self.console.print(Text.assemble(
                (f"{who} {label}: ", "bold"), joined([card(c) for c in sv.recycle_known],
                                                     "none known"),
                (f" of {sv.recycle_count}", DIM)))

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
        for seat in self.seats:
            if seat.computer is not None:
                for w in seat.computer.warnings:
                    self.console.print(Text(f"note: {w}", style=DIM))

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
                n = int(words[1]) if len(words) > 1 and words[1].isdigit() else 20
                for e in (self.state.log or [])[-n:]:
                    self.print_event(e.kind, e.text_for(self.human), e.rule, e.why)
            elif words[0].lower() == "piles":
                self.show_piles()
            else:
                self.console.print("save FILE, log [N], piles, or Enter to leave")


def make_console() -> Console:
    return Console(highlight=False, soft_wrap=False, emoji=False)


def console_reader(console: Console) -> Callable[[str], str]:
    with contextlib.suppress(ImportError):
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


# -- the command --------------------------------------------------------------------------------


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


def _level(text: str) -> str:
    return check_level(text)


def add_parser(sub: Any) -> None:
    """Register ``parlor play`` on the subparsers of the ``parlor`` command."""
    p = sub.add_parser(
        "play", help="play a game against the computer in the terminal",
        description="Play a game of Parlor Magic against the computer in the terminal. "
                    "Type ? during the game for help.")
    p.add_argument("--level", type=_level, default=None, metavar="LEVEL",
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
    for w in computer.warnings:
        console.print(Text(f"note: {w}", style="yellow"))
    try:
        game.run()
    except (Quit, KeyboardInterrupt):
        saved = game.saved_moves == len(state.history)
        console.print("Game left unfinished" + ("." if saved else ", and not saved."))
        return 0
    game.after()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="parlor")
    sub = parser.add_subparsers(dest="command", required=True)
    add_parser(sub)
    args = parser.parse_args(["play", *(sys.argv[1:] if argv is None else argv)])
    code: int = args.func(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
