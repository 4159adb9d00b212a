"""The rules the game log cites, quoted in the terminal: ``rule 304``, ``rule 304.3`` or, for
a ruling, ``rule R29`` (the rules that apply it), from parlor/docs/rules.md."""

from __future__ import annotations

import re
from pathlib import Path

# shipped inside the package (package data), as the web app's /rules page reads it
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

