"""Which decisions a puzzle accepts: its line's, or the same declaration step in another order.

The attackers of one attack step (406.3) and the blockers of one block step (407.3) are
declared one at a time, but the step's outcome is the set. The mining judges such a step as
one answer (:func:`run_group`), so a page should accept the step's declarations in any
order: :func:`accepts` says whether a decision is acceptable at a place in the line, and
:func:`reorder` gives the line with it moved there (the rest of the step after it).

    >>> line = ("attack KS", "attack QH", "done", "block JC 1:KS", "done")
    >>> sorted(run_group(line, 0))
    ['attack KS', 'attack QH']
    >>> accepts(line, 0, "attack QH"), accepts(line, 0, "attack AH"), accepts(line, 2, "done")
    (True, False, True)
    >>> reorder(line, 0, "attack QH")
    ('attack QH', 'attack KS', 'done', 'block JC 1:KS', 'done')
"""

from __future__ import annotations

from collections.abc import Sequence

DECLARATIONS = ("attack", "block")


def _verb(text: str) -> str:
    return text.split(" ", 1)[0]


def run_group(line: Sequence[str], i: int) -> frozenset[str]:
    """The decisions that answer place ``i`` of the line equally: the declarations from
    ``i`` to the end of its step when ``line[i]`` is one, else ``line[i]`` alone."""
    verb = _verb(line[i])
    if verb not in DECLARATIONS:
        return frozenset({line[i]})
    out = set()
    for text in line[i:]:
        if _verb(text) != verb:
            break
        out.add(text)
    return frozenset(out)


def accepts(line: Sequence[str], i: int, decision: str) -> bool:
    """Whether ``decision`` is a right answer at place ``i`` (the line played up to ``i``)."""
    return decision in run_group(line, i)


def reorder(line: Sequence[str], i: int, decision: str) -> tuple[str, ...]:
    """The line with the accepted ``decision`` moved to place ``i`` within its step."""
    if not accepts(line, i, decision):
        raise ValueError(f"{decision!r} is not an answer at place {i + 1} of the line")
    j = list(line).index(decision, i)
    out = list(line)
    out.insert(i, out.pop(j))
    return tuple(out)


__all__ = ["DECLARATIONS", "accepts", "reorder", "run_group"]
