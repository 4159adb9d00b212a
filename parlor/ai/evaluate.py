"""The hand-written evaluation: how good a full state is for one Rlr.

:func:`score` is a difference of two *side scores* (mine minus the opponent's) plus a few
interaction terms, in rough "card" units (a King on the Field is worth about 5, a point of
life at 20 about 0.5, at 5 about 1.3). :func:`win_prob` squashes it into a win estimate in
[0, 1] (a finished game is exactly 1, 0 or 0.5 for a draw).

Terms, per Rlr:

* **life**, concave (``LIFE_K * log(1 + life / LIFE_C)``): the last points matter most;
* **Field**: every Cre that is not terminal, by Pwr, Tgh and ability, plus its Enhs (spot
  counts above its base) and a bonus when it holds the trump suit;
* **Home**: Lnds with diminishing returns (the first few pay for everything);
* **Hand**: each card by kind and usefulness (a Lnd while Lnds are short, a Cre that the
  Home can pay for, Enhs by value); the drawn cards count as the best one of them;
* **library**: a little per card left to draw (running out ends the draws);
* **Domain**: its highest spot count and whether it holds trumps;
* **mnr pool**: points that will burn are a loss;
* interaction: the **group ranking** of the two Fields (the side that would win a combat's
  bonus), **threatened Cres** (mine that the opposing Field outranks or out-Pwrs), and the
  **clock** (Pwr that can attack next turn against the life it faces).

The weights judge between the alternatives of one decision; they are not a fit to game
outcomes. Refitting them by logistic regression on 118,294 start-of-turn positions of
Greedy self-play predicted outcomes better (held-out log loss 0.617 -> 0.594) but made a
worse player: Greedy with the fitted weights won 34.5% of 400 games against the defaults
(it learns correlations, such as "an Enh held in Hand goes with losing", not what a play
is worth).

Hidden cards are not looked at beyond what the state holds: in search the state is a
determinization, so the opponent's Hand is a sample, and only its size and kinds matter.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from parlor.rules.cards import ABILITIES, COST, Kind
from parlor.rules.ranking import bonus, rank_counts
from parlor.rules.state import (
    C_KIND,
    C_RANK,
    C_SUIT,
    FACE,
    NONE,
    OVER,
    PWR_OF,
    TGH_OF,
    State,
)
from parlor.rules.table import group_counts
from parlor.rules.values import Value

Counts = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Weights(Value):
    """The evaluation's knobs (the defaults were tuned by Greedy self-play, see bench)."""

    life_k: float = 12.0  # life value = life_k * log(1 + life / life_c)
    life_c: float = 4.0
    cre_pwr: float = 0.65
    cre_tgh: float = 0.63
    cre_ability: float = 0.5
    cre_enh: float = 0.18  # per spot of the best Enh on a Cre
    cre_trump_enh: float = 0.4  # an Enh of the trump suit on a Cre (+0.1 per spot)
    cre_trump_base: float = 0.3
    lnd: float = 3.1  # scales the diminishing Lnd values
    lnd_tail: float = 1.0  # scales the values of the sixth Lnd on
    lnd_taxed_other: float = 0.49
    lnd_trump: float = 0.2
    hand_lnd: float = 0.6  # share of the value it will have in the Home
    hand_cre: float = 0.45  # share of its value on the Field
    hand_cre_castable: float = 0.5
    hand_enh: float = 0.55
    hand_enh_rank: float = 0.1
    library: float = 0.04
    domain_rank: float = 0.2
    domain_trump: float = 0.3
    pool: float = 0.6
    group_bonus: float = 0.45
    press_pwr: float = 0.25
    press_through: float = 2.55
    press_through_lin: float = 0.2
    press_blocker: float = 1.5
    scale: float = 10.0  # score points per logit (fitted on Greedy self-play outcomes)

    def replace(self, **changes: float) -> Weights:
        return dataclasses.replace(self, **changes)


DEFAULT = Weights()

#: Per-face constants.
IS_CRE = tuple(k is Kind.CRE for k in C_KIND[:52])
IS_LND = tuple(k is Kind.LND for k in C_KIND[:52])
_HAS_ABILITY = tuple(bool(ABILITIES[f]) for f in range(52))
_COST_TOTAL = tuple(COST[f].total for f in range(52))
_LND_VALUES = (2.2, 2.0, 1.8, 1.6, 1.3, 1.0, 0.7, 0.5, 0.35, 0.25)
LND_HEAD = tuple(sum(_LND_VALUES[: min(n, 5)]) for n in range(11))  # the first five
LND_TAIL = tuple(sum(_LND_VALUES[5:n]) for n in range(11))


def cre_base(cid: int, w: Weights = DEFAULT) -> float:
    """A Cre's worth on the Field from its printed Pwr/Tgh and ability."""
    f = cid % 52
    return w.cre_pwr * PWR_OF[cid] + w.cre_tgh * TGH_OF[cid] + (
        w.cre_ability if _HAS_ABILITY[f] else 0.0)


def life_value(life: int, w: Weights = DEFAULT) -> float:
    if life <= 0:
        return -3.0 + life * 0.5
    return w.life_k * math.log1p(life / w.life_c)


def cre_value(s: State, cid: int, trump: int | None, w: Weights = DEFAULT) -> float:
    """A Cre on the Field (0 when terminal: it leaves at the next untax)."""
    if s.terminal[cid]:
        return 0.0
    v = w.cre_pwr * max(0, PWR_OF[cid] + s.pwr_mod[cid]) + w.cre_tgh * TGH_OF[cid]
    if _HAS_ABILITY[cid % 52]:
        v += w.cre_ability
    enhs = s.enhs.get(cid)
    if enhs:
        best = 0
        for e in enhs:
            r = C_RANK[e]
            if r > best:
                best = r
            if trump is not None and C_SUIT[e] == trump:
                v += w.cre_trump_enh * (1.0 + 0.25 * r)
        v += w.cre_enh * best
    if trump is not None and C_SUIT[cid] == trump:
        v += w.cre_trump_base
    return v


def hand_card_value(s: State, p: int, cid: int, n_lnds: int, lnds_in_hand: int,
                    w: Weights = DEFAULT) -> float:
    """A Hand card's worth: a share of what it will be worth once played. ``lnds_in_hand``
    counts the Lnds already valued (one Lnd per turn: each waits a turn longer)."""
    f = cid % 52
    if IS_LND[f]:
        k = n_lnds + lnds_in_hand
        if k >= 10:
            return 0.1
        return w.hand_lnd * w.lnd * _LND_VALUES[k] * (w.lnd_tail if k >= 5 else 1.0)
    if IS_CRE[f]:
        v = w.hand_cre * cre_base(cid, w)
        if n_lnds >= _COST_TOTAL[f]:
            v += w.hand_cre_castable
        return v
    r = C_RANK[cid]
    return w.hand_enh + w.hand_enh_rank * r + (0.2 if n_lnds >= r else 0.0)


def side_score(s: State, p: int, trump: int | None, w: Weights = DEFAULT) -> float:
    v = life_value(s.life[p], w)
    for c in s.field[p]:
        v += cre_value(s, c, trump, w)
    home = s.home[p]
    n = len(home)
    v += w.lnd * (LND_HEAD[min(n, 10)] + w.lnd_tail * LND_TAIL[min(n, 10)])
    o = 1 - p
    for lnd in home:
        if s.taxed[lnd] == o:
            v -= w.lnd_taxed_other  # taxed on the other Rlr's turn: no mnr on my next turn
        if trump is not None:
            for e in s.enhs.get(lnd, ()):
                if C_SUIT[e] == trump:
                    v += w.lnd_trump
                    break
    lnds_in_hand = 0
    vals = []
    for c in s.hand[p]:
        vals.append(hand_card_value(s, p, c, n, lnds_in_hand, w))
        if IS_LND[c % 52]:
            lnds_in_hand += 1
    if s.phasing == p and s.drawn:
        # The drawn cards become one Hand card (the better one).
        vals.append(max(hand_card_value(s, p, c, n, lnds_in_hand, w) for c in s.drawn))
    if len(vals) > 8:
        vals.sort(reverse=True)
        vals = vals[:8]
    v += sum(vals)
    v += w.library * min(len(s.draw[p]) + len(s.recycle[p]), 25)
    dom = s.domain[p]
    if dom:
        best = 0
        for e in dom:
            if C_RANK[e] > best:
                best = C_RANK[e]
            if trump is not None and C_SUIT[e] == trump:
                v += w.domain_trump
        v += w.domain_rank * best
    pool = sum(s.pool[p])
    if pool:
        v -= w.pool * pool
    return v


def _ready_next(s: State, q: int) -> list[int]:
    """q's Cres that will be able to attack on q's next turn (not terminal, and untaxed by
    then: untaxed now, or taxed on q's own turn)."""
    out = []
    for c in s.field[q]:
        if not s.terminal[c]:
            t = s.taxed[c]
            if t in (NONE, q):
                out.append(c)
    return out


def score(s: State, p: int, w: Weights = DEFAULT) -> float:
    """The evaluation of ``s`` for Rlr ``p`` (positive: p is ahead)."""
    trump = s.trump
    o = 1 - p
    v = side_score(s, p, trump, w) - side_score(s, o, trump, w)
    mine = [c for c in s.field[p] if not s.terminal[c]]
    theirs = [c for c in s.field[o] if not s.terminal[c]]
    if mine and theirs:
        win, _, diff, _ = rank_counts(group_counts(s, mine), group_counts(s, theirs), trump)
        if win >= 0:
            b = bonus(diff)  # what the group comparison would give now (905)
            v += (w.group_bonus * b) if win == 0 else (-w.group_bonus * b)
    # The clock: Pwr ready to attack against the life (and blockers) it faces.
    v += pressure(s, p, w) - pressure(s, o, w)
    return v


def pressure(s: State, p: int, w: Weights = DEFAULT) -> float:
    o = 1 - p
    atk = _ready_next(s, p)
    if not atk:
        return 0.0
    pw = sum(PWR_OF[c] for c in atk)
    blockers = sum(1 for c in s.field[o] if not s.terminal[c] and s.taxed[c] != p)
    # Blockers soak roughly one attacker each; what gets through threatens life.
    through = pw - w.press_blocker * blockers
    life = max(1, s.life[o])
    v = w.press_pwr * pw
    if through > 0:
        v += w.press_through * min(1.0, through / life) + w.press_through_lin * through
    return v


def win_prob(s: State, p: int, w: Weights = DEFAULT) -> float:
    """A win estimate for ``p`` in [0, 1]."""
    if s.phase is OVER:
        if s.winner is None:
            return 0.5
        return 1.0 if s.winner == p else 0.0
    x = score(s, p, w) / w.scale
    left = s.settings.max_turns - s.turn
    if left < 20:  # a draw at the turn limit pulls every estimate toward one half
        x *= max(0.0, left) / 20.0
    if x > 30:
        return 1.0
    if x < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


__all__ = ["FACE", "IS_CRE", "IS_LND", "LND_HEAD", "LND_TAIL", "cre_value", "hand_card_value",
           "life_value", "pressure", "score", "win_prob"]
