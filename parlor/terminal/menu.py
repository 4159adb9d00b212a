"""The numbered menu of the legal actions, grouped by everything but their last word, folded
to fit the terminal's height."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text

from parlor.rules.actions import Action
from parlor.terminal.spread import DIM

LETTERS = "abcdefgijklmnoprstuvwxyz"  # group letters (not h or q)


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

