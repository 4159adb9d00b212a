"""Events: every change to a game, as a value with an English sentence (the game log)."""

from __future__ import annotations

from dataclasses import dataclass, field

from parlor.rules.ranking import Comparison
from parlor.rules.values import Value


@dataclass(frozen=True, slots=True)
class Event(Value):
    """One thing that happened. ``text`` is public; ``secret``, when set, replaces it for
    ``player`` alone (a draw names the cards only to the Rlr who drew them, R30)."""

    kind: str
    text: str
    player: int | None = None
    secret: str | None = None
    rule: str = ""
    #: For a ranking decision (a combat or Domain bonus, an expel): the comparison behind it,
    #: with both sides' counts, so that a "why" needs no parsing of the sentence.
    why: Comparison | None = field(default=None, compare=False)
    #: The event records a decision nobody made: the only legal choice, taken by the engine
    #: (``settings.auto``), e.g. "does not attack" for a Rlr with no Cre able to attack.
    automatic: bool = False

    def text_for(self, viewer: int | None) -> str:
        """The sentence as ``viewer`` may read it (None: the public sentence)."""
        if self.secret is not None and viewer == self.player:
            return self.secret
        return self.text

    def __str__(self) -> str:
        return self.text
