"""A read of the hidden hand: determinizations weighted by what the opponent did.

The uniform sampler (:class:`~parlor.ai.determinize.Determinizer`, the same distribution as
:func:`~parlor.rules.view.resample`) deals the opponent any Hand its size allows. But the
opponent's decisions say something about its Hand: a Rlr that passed a window holding a Cre
it could pay for, or passed as P with its Lnd drop unused and a Lnd in Hand (603), is rare.
:class:`Belief` reads those decisions from the public trail in the agent's own view
(:mod:`parlor.rules.trail`: who decided what, and the mnr the decider could reach) and gives
each candidate Hand a likelihood; :class:`BeliefDeterminizer` deals ``candidates`` uniform
determinizations and keeps one with probability proportional to its likelihood
(sampling-importance-resampling), so the search plays against the Hands the opponent
probably holds.

**What it reads.** Only the opponent's window decisions since its last ``keep`` (305): a
card enters a Hand only by a draw, so every card in its Hand now was in it then, together
with the cards it has played since (public). A pass there multiplies a Hand's likelihood by

* ``PASS_CRE`` when the Hand then held a Cre the decider's reachable mnr could pay for (206);
* ``PASS_LND`` when the decider was P, had not played its Lnd, and the Hand held a Lnd (603).

Plays are not read (which of several good plays an opponent prefers says little), nor
anything before the last draw. The numbers are a noisy-rational opponent, not a fit.

**Nothing hidden.** Everything comes from the view: the trail there names no card hidden
from the viewer (``keep``, ``trim``, ``redraw`` of the other Rlr are bare), so two games that
differ only in hidden cards give the same view and therefore the same belief, the same
weights and the same samples for the same seed (tests/ai/test_belief.py).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from parlor.ai.determinize import Determinizer
from parlor.rules.actions import Action
from parlor.rules.cards import COST, KIND, Kind
from parlor.rules.state import WINDOW1, WINDOW2
from parlor.rules.trail import PublicStep
from parlor.rules.view import View

PASS_CRE = 0.35  # a pass while holding a Cre the reachable mnr pays for
PASS_LND = 0.25  # a pass as P, the Lnd drop unused, while holding a Lnd
CANDIDATES = 8  # uniform deals per determinization kept


class Clue:
    """One pass of the opponent: what it could reach then, and what it played after."""

    __slots__ = ("lnd_open", "mnr", "played_after", "total")

    def __init__(self, lnd_open: bool, mnr: tuple[int, ...],
                 played_after: frozenset[int]) -> None:
        self.lnd_open = lnd_open
        self.mnr = list(mnr)
        self.total = sum(mnr)
        self.played_after = played_after  # faces played from its Hand after this pass

    def likelihood(self, faces: set[int]) -> float:
        """How likely the pass was if its Hand now holds ``faces``."""
        hand = faces | self.played_after
        f = 1.0
        if self.lnd_open and any(KIND[x] is Kind.LND for x in hand):
            f *= PASS_LND
        mnr, total = self.mnr, self.total
        for x in hand:
            if KIND[x] is Kind.CRE:
                cost = COST[x]
                if mnr[cost.suit] >= cost.suited and total >= cost.total:
                    f *= PASS_CRE
                    break
        return f


class Belief:
    """The likelihood of the opponent's Hand given its decisions in ``view``'s trail."""

    def __init__(self, view: View) -> None:
        self.opponent = 1 - view.player
        self.clues = clues(view)

    def likelihood(self, hand: list[int]) -> float:
        """The likelihood of the opponent's Hand ``hand`` (card ids or faces)."""
        if not self.clues:
            return 1.0
        faces = {c % 52 for c in hand}
        w = 1.0
        for clue in self.clues:
            w *= clue.likelihood(faces)
        return w


def read_from(trail: Sequence[PublicStep], player: int) -> int:
    """Where :func:`clues` starts reading ``player``'s trail: the opponent's last ``keep``
    (``len(trail)`` when there is none: nothing is read). The trail from there on is all
    that any level reads of it, so a computer's job carries no more (parlor.web.games:
    the whole trail grows with the game, 650 steps at step 500, pickled at each decision)."""
    o = 1 - player
    for i in range(len(trail) - 1, -1, -1):
        st = trail[i]
        if st.rlr == o and st.action == "keep":
            return i
    return len(trail)


def clues(view: View) -> list[Clue]:
    """The opponent's passes since its last keep, read from the view's trail."""
    o = 1 - view.player
    trail = view.trail
    start = read_from(trail, view.player)
    if start == len(trail):
        return []
    own_turn = trail[start].turn
    out: list[Clue] = []
    played: set[int] = set()
    for st in reversed(trail[start + 1:]):
        if st.rlr != o or st.phase not in (WINDOW1, WINDOW2):
            continue
        if st.action == "pass":
            lnd_open = st.turn == own_turn and not st.lnd_played
            out.append(Clue(lnd_open, st.mnr, frozenset(played)))
        else:
            played.add(Action.parse(st.action).card)
    out.reverse()
    return out


class BeliefDeterminizer(Determinizer):
    """Determinizations of ``view`` with the opponent's Hand drawn from the :class:`Belief`:
    ``candidates`` uniform Hands from its hidden cards, one kept with probability
    proportional to its likelihood (sampling-importance-resampling), the rest of the hidden
    cards in a uniform order.
    ``weights`` holds the likelihoods of the candidates of the last deal (for tests)."""

    def __init__(self, view: View, rng: random.Random, candidates: int = CANDIDATES) -> None:
        super().__init__(view, rng)
        self.belief = Belief(view)
        self.candidates = candidates
        self.weights: list[float] = []

    def order_hidden(self, pool: list[int], hand_size: int) -> list[int]:
        if not self.belief.clues:
            return super().order_hidden(pool, hand_size)
        rng = self.rng
        hands = [rng.sample(pool, hand_size) for _ in range(self.candidates)]
        ws = [self.belief.likelihood(hand) for hand in hands]
        self.weights = ws
        x = rng.random() * sum(ws)
        chosen = hands[-1]
        for hand, w in zip(hands, ws, strict=True):
            x -= w
            if x < 0:
                chosen = hand
                break
        taken = set(chosen)
        rest = [c for c in pool if c not in taken]
        rng.shuffle(rest)
        return chosen + rest


__all__ = ["CANDIDATES", "PASS_CRE", "PASS_LND", "Belief", "BeliefDeterminizer", "Clue",
           "clues"]
