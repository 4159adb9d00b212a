"""The spread as the terminal draws it: both Rlrs' zones, the Trumps stack, the combat, with
status marks and red Hearts and Diamonds (rich ``Text``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

from parlor.present.phases import task
from parlor.rules.cards import PWR, TGH, Card
from parlor.rules.view import SideView, TableCard, View

if TYPE_CHECKING:
    from parlor.terminal.menu import Menu


RED = "red"
DIM = "dim"


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


def screen(v: View, names: tuple[str, str], menu: Menu, messages: Sequence[str],
           console: Console) -> tuple[list[Text], dict[str, int]]:
    """The spread, the decision, the menu and ``messages``, fitted to the console's height;
    and the letters of the menu's collapsed groups."""
    width = console.width
    lines = spread(v, names)
    lines.append(Text.assemble(("Your decision: ", "bold cyan"), task(v.phase)))
    notes = [Text(m, style="yellow") for m in messages]
    used = sum(len(t.wrap(console, width)) for t in lines + notes)
    budget = max(console.height - used - 1, 2)
    menu_lines, letters = menu.layout(width, budget)
    return lines + menu_lines + notes, letters


def piles(v: View, names: tuple[str, str]) -> list[Text]:
    """The Discard piles and the Recycle cards ``v.player`` has seen face up."""
    me = v.player
    out = []
    for q in (1 - me, me):
        sv = v.sides[q]
        who = f"Rlr {q + 1} ({names[q]})"
        if sv.discard is None:
            disc = Text(f"{sv.discard_count} cards, closed in match play (109)", style=DIM)
        else:
            disc = joined([card(c) for c in sv.discard], "empty")
        out.append(Text.assemble((f"{who} Discard: ", "bold"), disc))
        label = "Recycle" if q == me else "Recycle, face up"
        out.append(Text.assemble(
            (f"{who} {label}: ", "bold"), joined([card(c) for c in sv.recycle_known],
                                                 "none known"),
            (f" of {sv.recycle_count}", DIM)))
    return out
