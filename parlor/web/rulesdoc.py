"""The rules page: ``parlor/docs/rules.md`` rendered to HTML on the server, with an anchor per rule.

A small Markdown renderer of our own, for the subset the docs use: headings, paragraphs,
nested ``-`` lists, tables, code fences and the inline forms ``**bold**``, ``*em*``,
`` `code` `` and ``[text](url)``. Rule paragraphs (``**903.**``) and sub-rules (``- 903.4``)
get anchors ``#r903`` and ``#r903.4``; rule numbers in the text link to them, and each
ruling tag ``[R13]`` links to an index of the rules that apply it (``#R13``)::

    >>> md = "## 900 Ranking\\n\\n**903.** Compare [R26]:\\n- 903.1 See (903.2).\\n- 903.2 Trumps."
    >>> doc = render(md)
    >>> 'id="r903"' in doc.html, 'id="r903.1"' in doc.html, 'href="#r903.2"' in doc.html
    (True, True, True)
    >>> doc.rulings["R26"]
    ['903']
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

#: The documents the app serves, shipped inside the package (package data), so an installed
#: wheel finds them where a checkout does; the repository's docs/ links to them.
DOCS = Path(__file__).resolve().parent.parent / "docs"

_RULE_HEAD = re.compile(r"^\*\*(\d{3,4})\.\*\*\s*")
_SUB_RULE = re.compile(r"^(\d{3,4}\.\d+)\s+")
_RULING = re.compile(r"\[(R\d{1,2})\]")
_NUMBER = re.compile(r"(?<![\w.:/-])(\d{3,4}(?:\.\d+)?)(?![\w%])")
_INLINE = re.compile(r"(`[^`]+`)|\*\*(.+?)\*\*|(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])"
                     r"|\[([^\]]+)\]\(([^)\s]+)\)")

#: Tooltips for the game's abbreviations (also used by the browser client).
GLOSSARY: dict[str, str] = {
    "Rlr": "Ruler: one of the two players",
    "Lnd": "Land (a 7 to 10): taxed for one point of mnr of its suit",
    "Enh": "Enhancement (a 2 to 6): played on a card, a Domain or the Trumps stack; ranks, "
           "trumps and expels",
    "Cre": "Creature (an A, J, Q or K): attacks and blocks; Pwr/Tgh A 1/1, J 1/2, Q 2/2, "
           "K 2/3",
    "Mnr": "Manor: the mana of Parlor Magic, one point per taxed Lnd, of the Lnd's suit",
    "mnr": "Manor: the mana of Parlor Magic, one point per taxed Lnd, of the Lnd's suit",
}
_TERMS = re.compile(r"\b(Rlrs?|Lnds?|Enhs?|Cres?|[Mm]nr)\b")


@dataclass(slots=True)
class RulesDoc:
    html: str
    rules: list[str] = field(default_factory=list)  # every rule id with an anchor, in order
    rulings: dict[str, list[str]] = field(default_factory=dict)  # "R13" -> rule ids
    toc: list[tuple[str, str]] = field(default_factory=list)  # (anchor, heading)


def _anchor_for_number(number: str, known: set[str]) -> str | None:
    if number in known:
        return f"r{number}"
    base = number.partition(".")[0]
    return f"r{base}" if base in known else None


def _inline(text: str, known: set[str], current: list[str]) -> str:
    """Inline Markdown to HTML, with rule numbers, rulings and abbreviations linked."""
    out: list[str] = []
    pos = 0
    for m in _INLINE.finditer(text):
        out.append(_plain(text[pos:m.start()], known, current))
        code, bold, em, label, url = m.groups()
        if code:
            out.append(f"<code>{html.escape(code[1:-1])}</code>")
        elif bold is not None:
            out.append(f"<strong>{_inline(bold, known, current)}</strong>")
        elif em is not None:
            out.append(f"<em>{_inline(em, known, current)}</em>")
        else:
            target = url
            if url.endswith("rules.md"):
                target = "/rules"
            elif url.endswith("notation.md"):
                target = "/notation"
            out.append(f'<a href="{html.escape(target)}">{html.escape(label)}</a>')
        pos = m.end()
    out.append(_plain(text[pos:], known, current))
    return "".join(out)


def _plain(text: str, known: set[str], current: list[str]) -> str:
    escaped = html.escape(text, quote=False)

    def ruling(m: re.Match[str]) -> str:
        return f'[<a class="ruling" href="#{m.group(1)}">{m.group(1)}</a>]'

    def number(m: re.Match[str]) -> str:
        anchor = _anchor_for_number(m.group(1), known)
        if anchor is None or (current and m.group(1) == current[0]):
            return m.group(0)
        return f'<a class="rule-ref" href="#{anchor}">{m.group(1)}</a>'

    def term(m: re.Match[str]) -> str:
        word = m.group(1)
        tip = GLOSSARY.get(word.rstrip("s"), GLOSSARY.get(word, ""))
        return f'<abbr class="term" title="{html.escape(tip)}">{word}</abbr>'

    parts = re.split(r"(\[R\d{1,2}\]|\[Choice\])", escaped)
    done = []
    for part in parts:
        if _RULING.fullmatch(part):
            done.append(_RULING.sub(ruling, part))
        elif part == "[Choice]":
            done.append('[<a class="ruling" href="#choices">Choice</a>]')
        else:
            done.append(_TERMS.sub(term, _NUMBER.sub(number, part)))
    return "".join(done)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def render(markdown: str) -> RulesDoc:
    """Render the rules Markdown (see the module doc for the subset)."""
    lines = markdown.splitlines()
    renderer = _Renderer(_rule_numbers(lines))
    for raw in lines:
        renderer.line(raw)
    return renderer.finish()


def _rule_numbers(lines: list[str]) -> set[str]:
    """The rules and sub-rules the document defines (the numbers in the text that link)."""
    known: set[str] = set()
    for line in lines:
        s = line.strip()
        m = _RULE_HEAD.match(s) or (_SUB_RULE.match(s[2:]) if s.startswith("- ") else None)
        if m:
            known.add(m.group(1))
    return known


class _Renderer:
    """The state of one rendering, fed line by line: the open paragraph, lists, table and
    code block, and the rule being rendered (its own number is not linked)."""

    def __init__(self, known: set[str]) -> None:
        self.known = known
        self.doc = RulesDoc("")
        self.out: list[str] = []
        self.para: list[str] = []
        self.current: list[str] = []  # the rule being rendered
        self.list_stack: list[int] = []  # indents of open <ul>s
        self.item_open: list[bool] = []
        self.table: list[str] = []
        self.in_code = False
        self.code: list[str] = []

    def inline(self, text: str) -> str:
        return _inline(text, self.known, self.current)

    def line(self, raw: str) -> None:
        if self.in_code:
            self.code_line(raw)
            return
        stripped = raw.strip()
        indent = len(raw) - len(raw.lstrip(" "))
        if stripped.startswith("```"):
            self.flush_para()
            self.close_lists()
            self.in_code = True
            return
        if stripped.startswith("|"):
            self.flush_para()
            self.close_lists()
            self.table.append(stripped)
            return
        self.flush_table()
        if not stripped:
            self.flush_para()
            self.close_lists()
        elif stripped.startswith("#"):
            self.heading(stripped)
        elif stripped.startswith("- "):
            self.item(stripped, indent)
        elif self.list_stack and indent > self.list_stack[-1]:
            self.out.append(" " + self.inline(stripped))  # continuation of an item
            # rulings on continuation lines belong to the item's rule
            self.note_rulings(stripped, self.current[0] if self.current else None)
        else:
            self.close_lists()
            self.para.append(stripped)

    def finish(self) -> RulesDoc:
        self.flush_para()
        self.close_lists()
        self.flush_table()
        self.doc.html = "\n".join(self.out)
        return self.doc

    def code_line(self, raw: str) -> None:
        if raw.strip().startswith("```"):
            # a scrollable block is focusable, so the keyboard can scroll it too
            body = html.escape(chr(10).join(self.code))
            self.out.append(f"<pre tabindex='0'><code>{body}</code></pre>")
            self.code.clear()
            self.in_code = False
        else:
            self.code.append(raw)

    def heading(self, stripped: str) -> None:
        self.flush_para()
        self.close_lists()
        level = len(stripped) - len(stripped.lstrip("#"))
        title = stripped[level:].strip()
        m = re.match(r"(\d{3,4}) ", title)
        anchor = f"s{m.group(1)}" if m else _slug(title)
        if title.startswith("Choices made"):
            anchor = "choices"
        tag = f"h{min(level, 4)}"
        if level == 2:
            self.doc.toc.append((anchor, title))
            self.current.clear()
        self.out.append(f'<{tag} id="{anchor}">{self.inline(title)}</{tag}>')

    def item(self, stripped: str, indent: int) -> None:
        """A ``- `` line: opens a nested list, or ends the previous item of its list."""
        self.flush_para()
        if not self.list_stack or indent > self.list_stack[-1]:
            if self.list_stack and not self.item_open[-1]:
                self.out.append("<li>")
                self.item_open[-1] = True
            self.out.append("<ul>")
            self.list_stack.append(indent)
            self.item_open.append(False)
        else:
            self.close_lists(indent)
            if self.item_open and self.item_open[-1]:
                self.out.append("</li>")
                self.item_open[-1] = False
        body = stripped[2:]
        m = _SUB_RULE.match(body)
        rule = m.group(1) if m else None
        if m and rule is not None:
            self.doc.rules.append(rule)
            self.note_rulings(body, rule)
            self.out.append(f'<li class="rule" id="r{rule}"><a class="num" href="#r{rule}">'
                            f"{rule}</a> {self.inline(body[m.end():])}")
        else:
            self.note_rulings(body, self.current[0] if self.current else None)
            self.out.append(f"<li>{self.inline(body)}")
        self.item_open[-1] = True

    def note_rulings(self, text: str, rule: str | None) -> None:
        if rule is None:
            return
        for r in _RULING.findall(text):
            ids = self.doc.rulings.setdefault(r, [])
            if rule not in ids:
                ids.append(rule)

    def flush_para(self) -> None:
        if not self.para:
            return
        text = " ".join(self.para)
        m = _RULE_HEAD.match(text)
        if m:
            rule = m.group(1)
            self.current[:] = [rule]
            self.doc.rules.append(rule)
            self.note_rulings(text, rule)
            body = self.inline(text[m.end():])
            self.out.append(f'<p class="rule" id="r{rule}"><a class="num" href="#r{rule}">'
                            f"{rule}.</a> {body}</p>")
        else:
            self.note_rulings(text, self.current[0] if self.current else None)
            self.out.append(f"<p>{self.inline(text)}</p>")
        self.para.clear()

    def close_lists(self, indent: int = -1) -> None:
        while self.list_stack and self.list_stack[-1] > indent:
            if self.item_open and self.item_open[-1]:
                self.out.append("</li>")
            self.item_open.pop()
            self.list_stack.pop()
            self.out.append("</ul>")

    def flush_table(self) -> None:
        if not self.table:
            return
        rows = [[c.strip() for c in r.strip().strip("|").split("|")] for r in self.table]
        self.out.append('<table class="doc-table"><thead><tr>')
        self.out.extend(f"<th>{self.inline(c)}</th>" for c in rows[0])
        self.out.append("</tr></thead><tbody>")
        for r in rows[2:]:
            self.out.append("<tr>" + "".join(f"<td>{self.inline(c)}</td>" for c in r)
                            + "</tr>")
        self.out.append("</tbody></table>")
        self.table.clear()


def ruling_index_html(doc: RulesDoc) -> str:
    """The index of rulings: each ``[Rn]`` and the rules that apply it."""
    items = []
    for r in sorted(doc.rulings, key=lambda x: int(x[1:])):
        links = ", ".join(f'<a href="#r{n}">{n}</a>' for n in doc.rulings[r])
        items.append(f'<li id="{r}"><strong>{r}</strong>: {links}</li>')
    return '<ul class="rulings">' + "".join(items) + "</ul>"


@cache
def rules_doc(name: str = "rules.md") -> RulesDoc:
    """The rendered document (cached); a short note when the docs folder is absent."""
    path = DOCS / name
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return RulesDoc(f"<p>The document {html.escape(name)} is not installed.</p>")
    return render(text)


__all__ = ["GLOSSARY", "RulesDoc", "render", "rules_doc", "ruling_index_html"]
