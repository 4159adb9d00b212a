"""Fast determinizations: many full states consistent with one view.

:func:`~parlor.rules.view.resample` rebuilds a state from the view's text every time.
A :class:`Determinizer` does that once, then deals each new determinization by cloning the
base state and reshuffling exactly the cards the viewer cannot see among the zones that hide
them (the opponent's Hand, its hidden drawn cards, the face-down part of its Recycle pile,
both Draw piles' order, closed Discard piles), keeping every zone's size. The cards and sizes
are those ``resample`` uses, so the deals have the same distribution, only cheaper.
"""

from __future__ import annotations

import random

from mypy_extensions import mypyc_attr

from parlor.rules.state import State
from parlor.rules.view import View, resample


# bench/perfect.py's true state is an interpreted subclass (a search over the true state)
@mypyc_attr(allow_interpreted_subclasses=True)
class Determinizer:
    def __init__(self, view: View, rng: random.Random) -> None:
        self.rng = rng
        self.base = resample(view, rng)
        self.me = view.player
        b = self.base
        closed = view.settings.match_play
        self._opp_drawn = view.drawn is None and b.phasing != self.me
        self._closed = closed

    def deal(self) -> State:
        """A new determinization (an independent state)."""
        s = self.base.clone()
        s._legal = None
        rng = self.rng
        me = self.me
        o = 1 - me
        # The viewer's own side: only the order of the Draw pile (and a closed Discard).
        if self._closed:
            pool = s.draw[me] + s.discard[me]
            rng.shuffle(pool)
            n = len(s.draw[me])
            s.draw[me], s.discard[me] = pool[:n], pool[n:]
        else:
            rng.shuffle(s.draw[me])
        # The opponent's side.
        known = s.public_recycle[o]
        rec_known = [c for c in s.recycle[o] if c in known]
        rec_hidden = [c for c in s.recycle[o] if c not in known]
        pool = s.hand[o] + rec_hidden + s.draw[o]
        if self._opp_drawn:
            pool += s.drawn
        if self._closed:
            pool += s.discard[o]
        pool = self.order_hidden(pool, len(s.hand[o]))
        i = len(s.hand[o])
        s.hand[o] = pool[:i]
        if self._opp_drawn:
            j = i + len(s.drawn)
            s.drawn = pool[i:j]
            i = j
        j = i + len(rec_hidden)
        s.recycle[o] = rec_known + pool[i:j]
        i = j
        if self._closed:
            j = i + len(s.discard[o])
            s.discard[o] = pool[i:j]
            i = j
        s.draw[o] = pool[i:]
        return s

    def order_hidden(self, pool: list[int], hand_size: int) -> list[int]:
        """The opponent's hidden cards in a random order: the first ``hand_size`` become its
        Hand (uniform here; :class:`~parlor.ai.belief.BeliefDeterminizer` weighs them)."""
        self.rng.shuffle(pool)
        return pool


__all__ = ["Determinizer"]
