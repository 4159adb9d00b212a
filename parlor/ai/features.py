"""What the learned evaluation looks at: a position's features as one Rlr sees it (R30).

:func:`features` reads only what ``view(state, p)`` shows ``p``: both Rlrs' life, table,
Domain, mnr pool and zone sizes, ``p``'s own Hand (and drawn cards on ``p``'s turn), the
trump suit and the turn. The opponent's Hand and drawn cards count by number only; no Draw
pile is looked into. So two states that differ only in cards hidden from ``p`` (in search:
two determinizations of one view) have equal features — the learned evaluation judges the
agent's information set, not the sample's guesses about the opponent's Hand.

Most features are the hand-written evaluation's terms (:mod:`parlor.ai.evaluate`) per
Rlr, in the same units divided by its ``scale`` (so the hand-tuned score is, for the shared
terms, a sum of features with coefficients +1 for ``p`` and -1 for the opponent: the prior
the training starts from, :mod:`parlor.ai.train`); a few are plain counts the hand-written
terms leave out. Cheap by design: it runs at every leaf of the search.

    >>> from parlor.rules.engine import new_game
    >>> f = features(new_game(1), 0)
    >>> len(f) == len(FEATURE_NAMES)
    True
"""

from __future__ import annotations

from typing import NamedTuple

from parlor.ai.evaluate import (
    DEFAULT,
    IS_CRE,
    IS_LND,
    LND_HEAD,
    LND_TAIL,
    cre_value,
    hand_card_value,
    life_value,
    pressure,
)
from parlor.rules.plays import COST_SUIT, COST_SUITED, COST_TOTAL
from parlor.rules.ranking import MAX_BONUS, bonus, rank_counts
from parlor.rules.state import C_RANK, C_SUIT, PWR_OF, TGH_OF, State
from parlor.rules.table import group_counts, kept_counts, yield_under

#: Per Rlr (``me_`` for the deciding Rlr, ``op_`` for the opponent), in this order.
SIDE_NAMES = (
    "life_value",  # evaluate.life_value / scale: concave in life
    "life",  # life / 20
    "field",  # the Cres by evaluate.cre_value / scale
    "cres",  # Cres on the Field, not terminal, / 4
    "pwr",  # their Pwr / 10
    "tgh",  # their Tgh / 10
    "lnds",  # the Home by the diminishing Lnd values / scale
    "lnd_count",  # Lnds / 10
    "lnd_taxed_other",  # Lnds taxed on the other Rlr's turn / 5
    "lnd_trump",  # Lnds holding a trump Enh / 5
    "library",  # cards left to draw (Draw + Recycle, at most 25) / 25
    "domain_rank",  # the Domain's best spot count / 10
    "domain_trump",  # trump Enhs in the Domain / 3
    "pool",  # mnr points in the pool (they burn) / 5
    "hand_count",  # Hand (plus one for drawn cards) / 8
    "pressure",  # evaluate.pressure (the clock) / scale
)
FEATURE_NAMES: tuple[str, ...] = (
    "my_turn",  # 1 when p is the phasing Rlr
    "turn",  # turn / 100
    "group",  # who wins a combat's bonus by group ranking: -1..1
    "hand_value",  # p's own Hand by evaluate.hand_card_value / scale
    *(f"me_{n}" for n in SIDE_NAMES),
    *(f"op_{n}" for n in SIDE_NAMES),
    # p's Hand against the suits its Home yields (206, 601, 602), which hand_value and the
    # Lnd counts above cannot tell apart: a Home of Spades does not cast KH (issue 46).
    "hand_castable",  # Cres in p's Hand its Home pays for, in count and in suit / 4
    "hand_suit_short",  # Lnds of their own suit the Hand's Cres still lack (each Cre) / 8
    "hand_lnds_needed",  # Lnds in p's Hand (and drawn) of a suit a Hand Cre lacks / 4
)
N_FEATURES = len(FEATURE_NAMES)

_SCALE = DEFAULT.scale


def _side(s: State, q: int, trump: int | None, out: list[float]) -> None:
    """Append ``q``'s public side features (nothing of its Hand but the count)."""
    w = DEFAULT
    field = 0.0
    cres = 0
    pwr = 0
    tgh = 0
    for c in s.field[q]:
        if s.terminal[c]:
            continue
        field += cre_value(s, c, trump, w)
        cres += 1
        pwr += max(0, PWR_OF[c] + s.pwr_mod[c])
        tgh += TGH_OF[c] + s.tgh_mod[c]
    home = s.home[q]
    n = min(len(home), 10)
    taxed_other = 0
    lnd_trump = 0
    o = 1 - q
    for lnd in home:
        if s.taxed[lnd] == o:
            taxed_other += 1
        if trump is not None:
            for e in s.enhs.get(lnd, ()):
                if C_SUIT[e] == trump:
                    lnd_trump += 1
                    break
    dom_rank = 0
    dom_trump = 0
    for e in s.domain[q]:
        if C_RANK[e] > dom_rank:
            dom_rank = C_RANK[e]
        if trump is not None and C_SUIT[e] == trump:
            dom_trump += 1
    hand = len(s.hand[q]) + (1 if s.phasing == q and s.drawn else 0)
    life = s.life[q]
    out.extend((
        life_value(life, w) / _SCALE,
        life / 20.0,
        field / _SCALE,
        cres / 4.0,
        pwr / 10.0,
        tgh / 10.0,
        w.lnd * (LND_HEAD[n] + w.lnd_tail * LND_TAIL[n]) / _SCALE,
        len(home) / 10.0,
        taxed_other / 5.0,
        lnd_trump / 5.0,
        min(len(s.draw[q]) + len(s.recycle[q]), 25) / 25.0,
        dom_rank / 10.0,
        dom_trump / 3.0,
        sum(s.pool[q]) / 5.0,
        hand / 8.0,
        pressure(s, q, w) / _SCALE,
    ))


def hand_value(s: State, p: int) -> float:
    """``p``'s own Hand as :func:`~parlor.ai.evaluate.side_score` values it: the best eight
    cards, the drawn cards (on ``p``'s turn) as the best one of them."""
    w = DEFAULT
    n = len(s.home[p])
    lnds = 0
    vals = []
    for c in s.hand[p]:
        vals.append(hand_card_value(s, p, c, n, lnds, w))
        if IS_LND[c % 52]:
            lnds += 1  # one Lnd a turn: each waits a turn longer
    if s.phasing == p and s.drawn:
        vals.append(max(hand_card_value(s, p, c, n, lnds, w) for c in s.drawn))
    if len(vals) > 8:
        vals.sort(reverse=True)
        vals = vals[:8]
    return sum(vals)


def home_suits(s: State, p: int) -> list[int]:
    """``p``'s Lnds by the suit of mnr each gives (R21, 602: its own suit, the trump suit
    under a trump Enh), indexed by suit."""
    suits = [0, 0, 0, 0]
    trump = s.trump
    kept = kept_counts(s)
    for lnd in s.home[p]:
        suits[yield_under(lnd, trump, kept)] += 1
    return suits


def hand_suit_features(s: State, p: int) -> tuple[float, float, float]:
    """The last three features: :func:`hand_suits`' castable, short and needed in the
    features' units."""
    h = hand_suits(s, p)
    return h.castable / 4.0, h.short / 8.0, h.needed / 4.0


class HandSuits(NamedTuple):
    """``p``'s Hand Cres against the suits its Home yields (206: a Cre costs its Tgh in mnr
    of its own suit; 601: its whole cost in Lnds), counted once for every reader."""

    castable: int  # Cres the Home pays for in count and in suit
    suited: int  # Cres whose own suit the Home yields enough of, whatever its size
    dead: int  # Cres the Home pays for by count but not by suit
    short: int  # the Lnds of their own suit the Cres still lack (each Cre's)
    needed: int  # the Lnds in Hand (and one drawn, on p's turn) of a lacking suit


def hand_suits(s: State, p: int) -> HandSuits:
    """:class:`HandSuits` of ``p``'s Hand now. The Lnd counts alone tie a Home's drops of
    different suits exactly; these tell them apart."""
    suits = home_suits(s, p)
    n = len(s.home[p])
    suited = dead = short = castable = 0
    lacking = [False, False, False, False]
    for c in s.hand[p]:
        f = c % 52
        if not IS_CRE[f]:
            continue
        suit = COST_SUIT[f]
        missing = COST_SUITED[f] - suits[suit]
        if missing > 0:
            short += missing
            lacking[suit] = True
            if n >= COST_TOTAL[f]:
                dead += 1
        else:
            suited += 1
            if n >= COST_TOTAL[f]:
                castable += 1
    needed = 0
    for c in s.hand[p]:
        if IS_LND[c % 52] and lacking[C_SUIT[c]]:  # a Lnd from the Hand comes bare
            needed += 1
    if s.phasing == p:  # one drawn card is kept (R29): at most one more
        for c in s.drawn:
            if IS_LND[c % 52] and lacking[C_SUIT[c]]:
                needed += 1
                break
    return HandSuits(castable, suited, dead, short, needed)


def features(s: State, p: int) -> list[float]:
    """The features of ``s`` for Rlr ``p`` (:data:`FEATURE_NAMES`), from ``p``'s view only."""
    trump = s.trump
    o = 1 - p
    group = 0.0
    mine = [c for c in s.field[p] if not s.terminal[c]]
    theirs = [c for c in s.field[o] if not s.terminal[c]]
    if mine and theirs:
        win, _, diff, _ = rank_counts(group_counts(s, mine), group_counts(s, theirs), trump)
        if win >= 0:
            b = bonus(diff) / MAX_BONUS  # the group comparison's bonus now (905), as 0-1
            group = b if win == 0 else -b
    out = [
        1.0 if s.phasing == p else 0.0,
        s.turn / 100.0,
        group,
        hand_value(s, p) / _SCALE,
    ]
    _side(s, p, trump, out)
    _side(s, o, trump, out)
    out.extend(hand_suit_features(s, p))
    return out


__all__ = ["FEATURE_NAMES", "N_FEATURES", "SIDE_NAMES", "HandSuits", "features",
           "hand_suit_features",
           "hand_suits", "hand_value", "home_suits"]
