"""The base of every frozen dataclass in :mod:`parlor.rules` and :mod:`parlor.ai`: a value
that copies and pickles by its fields, in the compiled build as in the interpreted one.

Why a base at all: mypyc compiles a dataclass to a native class whose default pickling
restores the fields one ``setattr`` at a time, and a frozen dataclass refuses that
(``FrozenInstanceError``), so ``copy.deepcopy`` and ``pickle`` failed on every frozen value
of the compiled build: the OpenSpiel game's clone deep-copies its state, the web app's worker
pool pickles views. :meth:`Value.__reduce__` rebuilds a value from its fields through its
constructor instead, which both builds accept and which re-checks the value
(``__post_init__``); equality, hashing and order stay the dataclass's own.

    >>> import copy, pickle
    >>> from parlor.rules.cards import Card
    >>> c = Card.parse("QS")
    >>> copy.deepcopy(c) == c == pickle.loads(pickle.dumps(c))
    True
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any

from mypy_extensions import mypyc_attr


@mypyc_attr(allow_interpreted_subclasses=True)  # the values of interpreted modules (seeds)
class Value:
    """A frozen dataclass's value semantics for ``copy`` and ``pickle``: subclass it, with
    ``@dataclass(frozen=True, slots=True)``; every field must be an ``__init__`` argument.

    Interpreted modules may subclass it too (a compiled class refuses interpreted subclasses
    unless it says so); its own subclasses stay closed, fully native classes."""

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, ...]:
        if not is_dataclass(self):
            raise TypeError(f"{type(self).__name__} derives from Value but is no dataclass")
        return (type(self), tuple([getattr(self, f.name) for f in fields(self)]))


__all__ = ["Value"]
