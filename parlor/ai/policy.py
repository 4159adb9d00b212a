"""The cheap policy: a score per legal action from a few table lookups, no state copies.

It drives the search's rollouts (epsilon-greedy over these scores), the Greedy agent's
continuation after its candidate action, and the lower levels' noise ("plausible moves").
Scores are in the same rough card units as :mod:`parlor.ai.evaluate`; higher is better for
the actor; ``pass``/``done`` sit near 0 so that a play must look useful to be chosen.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from parlor.ai.evaluate import cre_base, hand_card_value
from parlor.rules.actions import Action
from parlor.rules.cards import IS_RED, Kind
from parlor.rules.combat import HARRY_TAXES, SALLY_COSTS_TGH, SALLY_TGH_COST
from parlor.rules.ranking import bonus, counts_of, merge, rank_counts
from parlor.rules.state import (
    ABILITY_O,
    ABILITY_P,
    ATTACK,
    BLOCK,
    BONUS,
    C_KIND,
    C_RANK,
    C_SUIT,
    DOMAIN,
    DOMAIN_BONUS,
    KEEP,
    NONE,
    OWNER,
    PWR_OF,
    SPLIT,
    STACK,
    TGH_OF,
    TRIM,
    WINDOW1,
    WINDOW2,
    Combat,
    State,
)
from parlor.rules.table import counts, pwr
from parlor.rules.values import Value

BAD = -100.0


@dataclass(frozen=True, slots=True)
class PolicyWeights(Value):
    """The cheap policy's constants. Scaling each by 0.5 or 1.7 in Heuristic self-play
    changed no result beyond the noise of a few hundred games."""

    lnd: float = 8.0  # play a Lnd
    cre: float = 3.0  # summon a Cre (+ cre_value x its worth)
    cre_value: float = 0.5
    enh_cost: float = 0.25  # per spot: the card and the mnr it takes
    expel_cre: float = 2.5  # (+ its worth, + expel_enhs if it carries Enhs)
    expel_enhs: float = 1.0
    expel_lnd: float = 2.0
    expel_enh: float = 0.6  # a lone Enh (+0.2 per spot)
    expel_stack: float = 0.8  # x the trump gain
    stack: float = 1.2  # x the trump gain
    stack_base: float = 0.3
    domain: float = 0.6  # x the gain (+ domain_per_attacker per opposing Cre, up to 3)
    domain_per_attacker: float = 0.3
    enh_cre: float = 0.5  # an Enh on my Cre (+ enh_cre_gain x the gain)
    enh_cre_gain: float = 1.2
    enh_lnd_trump: float = 0.4
    combat_enh: float = 1.0  # per point of combat bonus an Enh in the second window wins
    attack_base: float = 0.2
    attack_safe: float = 1.0
    attack_kills: float = 0.4
    attack_outnumber: float = 0.8
    attack_lethal: float = 2.0
    attack_free: float = 2.0  # no untaxed blockers at all
    attack_dies: float = 0.4
    done: float = 0.3
    block_tax: float = 0.6  # the blocker stays taxed through my own turn (R4)
    block_safe: float = 1.0
    block_dies: float = 0.5
    block_kills: float = 0.7
    block_chump: float = 4.0
    block_double: float = 0.5
    #: a block or attack that lets the other Rlr's ready Cres kill next turn (302.1, 1006:
    #: blockers and attackers stay taxed through the other Rlr's turn): shared/ai-misplays.md
    #: C1, where the tree's opponent blocked with the Cres that would have killed. 0 here, so
    #: that Greedy and the levels below stay the yardsticks they were; the expert's search
    #: sets it (parlor.ai.levels.EXPERT_POLICY)
    counter_lethal: float = 0.0
    #: the strike back itself: an attacker declared while P's every ready Cre attacking gets
    #: lethal damage through O's untaxed Cres, and the cost of an ability whose user taxes
    #: itself (707, 709 JH, 710, 711) when that takes it out of a lethal strike back or out of
    #: the Cres that hold one off (302.1). C1 again: the cheap opponent declared one attacker
    #: of its three and volleyed with the Cre that would have killed. 0 here, as above
    strike_back: float = 0.0
    volley_kill: float = 1.0
    volley: float = 0.3
    ally: float = 0.5
    carry: float = 0.2
    sally: float = 0.8
    harry: float = 0.8
    ability_lost: float = 0.8  # x the Pwr an ability user in combat gives up
    redraw: float = -3.0


PDEFAULT = PolicyWeights()


def _left(s: State, c: int) -> int:
    """Toughness left before a Cre becomes terminal."""
    return TGH_OF[c] + s.tgh_mod[c] - s.damage[c]


def _suit_presence(s: State, p: int) -> list[float]:
    """How much Rlr p stands to gain from each suit being trump."""
    w = [0.0, 0.0, 0.0, 0.0]
    for c in s.field[p]:
        if s.terminal[c]:
            continue
        w[C_SUIT[c]] += 1.0
        for e in s.enhs.get(c, ()):
            w[C_SUIT[e]] += 0.6
    for e in s.domain[p]:
        w[C_SUIT[e]] += 0.4
    for lnd in s.home[p]:
        w[C_SUIT[lnd]] += 0.15
    return w


def trump_gain(s: State, p: int, suit: int) -> float:
    """How much better suit ``suit`` as trump is for p than the current trump."""
    mine, theirs = _suit_presence(s, p), _suit_presence(s, 1 - p)
    cur = s.trump
    now = 0.0 if cur is None else mine[cur] - theirs[cur]
    return (mine[suit] - theirs[suit]) - now


def _enh_on_entity_gain(counts: tuple[int, int, int, int], e: int, trump: int | None) -> float:
    """How much Enh ``e`` adds to an entity's counts (0 when a higher one of its suit is
    already there)."""
    suit, r = C_SUIT[e], C_RANK[e]
    have = counts[suit]
    if r <= have:
        return 0.0
    g = 0.25 * (r - have)
    if suit == trump:
        g += 0.8
    if have == 0 and r > max(counts):
        g += 0.3  # a new top suit: outshows more
    return g


def window_score(s: State, p: int, a: Action, w: PolicyWeights = PDEFAULT) -> float:
    if a.verb == "pass":
        return 0.0
    cid = p * 52 + a.card
    kind = C_KIND[cid]
    o = 1 - p
    if kind is Kind.LND:
        return w.lnd
    if kind is Kind.CRE:
        return w.cre + cre_base(cid) * w.cre_value
    t = a.target
    r = C_RANK[cid]
    cost = w.enh_cost * r  # the card and the mnr
    trump = s.trump
    if a.verb == "expel":
        if t == STACK:
            below = s.stack[-2] if len(s.stack) > 1 else NONE
            new = None if below == NONE else C_SUIT[below]
            cur = C_SUIT[s.stack[-1]]
            gain = (0.0 if new is None else trump_gain(s, p, new)) - trump_gain(s, p, cur)
            return gain * w.expel_stack - cost
        if t < 104:
            owner = OWNER[t]
            k = C_KIND[t]
            if k is Kind.CRE:
                if owner == p:
                    return BAD
                return w.expel_cre + cre_base(t) + (w.expel_enhs if s.enhs.get(t) else 0.0) - cost
            if k is Kind.LND:
                return (w.expel_lnd - cost) if owner == o else BAD
            host = s.host.get(t, NONE)
            if host in DOMAIN:
                side = DOMAIN.index(host)
            elif host == STACK:
                return BAD
            else:
                side = OWNER[host]
            if side == p:
                return BAD
            return w.expel_enh + 0.2 * C_RANK[t] - cost
        return BAD
    # play an Enh on a target
    if t == STACK:
        return w.stack * trump_gain(s, p, C_SUIT[cid]) - cost + w.stack_base
    if t in DOMAIN:
        q = DOMAIN.index(t)
        if q != p:
            return BAD
        c = [0, 0, 0, 0]
        for e in s.domain[p]:
            if C_RANK[e] > c[C_SUIT[e]]:
                c[C_SUIT[e]] = C_RANK[e]
        g = _enh_on_entity_gain((c[0], c[1], c[2], c[3]), cid, trump)
        attackers = sum(1 for x in s.field[o] if not s.terminal[x])
        if g <= 0:
            return BAD
        return g * (w.domain + w.domain_per_attacker * min(attackers, 3)) - cost
    owner = OWNER[t]
    if owner != p:
        return BAD
    if C_KIND[t] is Kind.LND:
        if trump is not None and C_SUIT[cid] == trump and C_SUIT[t] != trump:
            return w.enh_lnd_trump - cost
        return BAD
    if s.terminal[t]:
        return BAD
    g = _enh_on_entity_gain(counts(s, t), cid, trump)
    if g <= 0:
        return BAD
    v = w.enh_cre + w.enh_cre_gain * g + 0.2 * PWR_OF[t] - cost
    if s.combat is not None and w.combat_enh:
        v += w.combat_enh * _combat_gain(s, p, t, cid)
    return v


def _combat_gain(s: State, p: int, t: int, e: int) -> float:
    """How many points of the combat's group bonus Enh ``e`` on Cre ``t`` wins for p (the
    change in p's bonus minus the opponent's), 0 when t is not in the combat."""
    cb = s.combat
    assert cb is not None
    if t not in cb.blocking and t not in cb.attackers:
        return 0.0
    blockers = list(cb.blocking)
    if not blockers or not cb.attackers:
        return 0.0
    atk_side = p == s.phasing
    before = _bonus_for(s, cb.attackers, blockers, atk_side, None, 0)
    after = _bonus_for(s, cb.attackers, blockers, atk_side, t, e)
    return float(after - before)


def _bonus_for(s: State, attackers: list[int], blockers: list[int], atk_side: bool,
               extra_on: int | None, e: int) -> int:
    """p's group bonus (negative: the opponent's), with Enh ``e`` added to Cre ``extra_on``."""

    def group(cids: list[int]) -> tuple[int, int, int, int]:
        c = merge(*(counts(s, x) for x in cids))
        if extra_on in cids:
            c = merge(c, counts_of(((C_SUIT[e], C_RANK[e]),)))
        return c

    win, _, diff, _ = rank_counts(group(attackers), group(blockers), s.trump)
    if win < 0:
        return 0
    b = bonus(diff)
    return b if (win == 0) == atk_side else -b


def counter_damage(s: State, q: int, ready: list[int], home: list[int]) -> int:
    """The damage ``ready`` (Cres of the other Rlr, untaxed at its next turn) would deal
    ``q`` if each of ``q``'s untaxed ``home`` Cres blocked one of them, the strongest first."""
    pwrs = sorted((pwr(s, x) for x in ready), reverse=True)
    return sum(pwrs[len(home):])


def lethal_for(s: State, q: int, damage: int) -> bool:
    """Whether ``damage`` getting through ends ``q``'s game (at 0 life or less any does)."""
    return damage > 0 and damage >= s.life[q]


def _ready_next_turn(s: State, q: int, cb: Combat) -> list[int]:
    """``q``'s Cres that can attack at ``q``'s next turn: untaxed or taxed on its own turn
    (302), not terminal, not blocking in this combat (302.1)."""
    return [x for x in s.field[q] if not s.terminal[x] and x not in cb.blocking
            and (s.taxed[x] == NONE or s.taxed[x] == q)]


def _stay_home(s: State, q: int, cb: Combat | None) -> list[int]:
    """``q``'s untaxed Cres that do not attack in this combat: its blockers at the other
    Rlr's next turn (attackers stay taxed through it, 1006, 302)."""
    attackers = cb.attackers if cb is not None else []
    return [x for x in s.field[q] if not s.terminal[x] and s.taxed[x] == NONE
            and x not in attackers]


def attack_score(s: State, a: Action, w: PolicyWeights = PDEFAULT) -> float:
    p = s.phasing
    o = 1 - p
    if a.verb == "done":
        return w.done
    if a.verb == "end":
        return 0.0
    c = p * 52 + a.card
    blockers = [b for b in s.field[o] if s.taxed[b] == NONE]
    if not blockers:
        return w.attack_free
    if _strikes_lethal(s, p, blockers, w):
        return w.attack_base + w.strike_back
    cb = s.combat
    declared = len(cb.attackers) if cb is not None else 0
    mine_pwr = pwr(s, c)
    left = _left(s, c)
    best_block = max(pwr(s, b) for b in blockers)
    mine = counts(s, c)
    outranked = any(rank_counts(counts(s, b), mine, s.trump)[0] == 0 for b in blockers)
    v = w.attack_base
    if left > best_block and not outranked:
        v += w.attack_safe  # survives any single blocker
    if any(_left(s, b) <= mine_pwr for b in blockers):
        v += w.attack_kills  # a blocker would die
    if len(blockers) <= declared:
        v += w.attack_outnumber  # more attackers than blockers: some get through
    total = sum(pwr(s, x) for x in s.field[p] if s.taxed[x] == NONE)
    if total >= s.life[o] + 2 * len(blockers):
        v += w.attack_lethal
    if left <= best_block:
        v -= w.attack_dies * cre_base(c) / 3.0
    return v - _exposure(s, p, c, cb, w)


def _strikes_lethal(s: State, p: int, blockers: list[int], w: PolicyWeights) -> bool:
    """Whether P attacking with every Cre it can gets lethal damage through O's untaxed
    Cres, each blocking one attacker, the strongest first (407.2, 1005, 1201): then every
    further attacker is worth declaring (the strike back of shared/ai-misplays.md C1, which
    the cheap policy stopped after one attacker). Only with ``strike_back`` set."""
    if w.strike_back == 0.0:
        return False
    ready = [x for x in s.field[p] if s.taxed[x] == NONE and not s.terminal[x]
             and not s.inactive[x]]
    return lethal_for(s, 1 - p, counter_damage(s, 1 - p, ready, blockers))


def _exposure(s: State, p: int, c: int, cb: Combat | None, w: PolicyWeights) -> float:
    """``counter_lethal`` when attacking with ``c`` turns O's counter-attack lethal for P
    (its Cres staying home, ``c`` among them, could otherwise hold it off), unless this
    attack is itself lethal enough not to matter."""
    if w.counter_lethal == 0.0:
        return 0.0
    o = 1 - p
    total = sum(pwr(s, x) for x in s.field[p] if s.taxed[x] == NONE)
    if total >= s.life[o] + 2 * len(_stay_home(s, o, None)):
        return 0.0  # an attack that may well end the game fears no counter-attack
    home = _stay_home(s, p, cb)
    ready = [x for x in s.field[o] if not s.terminal[x]
             and (s.taxed[x] == NONE or s.taxed[x] == o)]
    if not ready:
        return 0.0
    with_c = counter_damage(s, p, ready, home)
    without_c = counter_damage(s, p, ready, [x for x in home if x != c])
    if lethal_for(s, p, without_c) and not lethal_for(s, p, with_c):
        return w.counter_lethal
    return 0.0


def block_score(s: State, a: Action, w: PolicyWeights = PDEFAULT) -> float:
    o = s.opponent
    cb = s.combat
    assert cb is not None
    if a.verb == "done":
        return 0.0
    b = o * 52 + a.card
    t = a.target
    incoming = sum(pwr(s, x) for x in cb.attackers if x not in cb.blocked)
    already = cb.blockers.get(t, [])
    atk_pwr = pwr(s, t)
    survives = _left(s, b) > atk_pwr or (already and atk_pwr <= 1)
    kills = pwr(s, b) + sum(pwr(s, x) for x in already) >= _left(s, t)
    outranked = rank_counts(counts(s, t), counts(s, b), s.trump)[0] == 0
    v = -w.block_tax
    if survives and not outranked:
        v += w.block_safe + 0.3 * atk_pwr
    elif not survives:
        v -= cre_base(b) * w.block_dies
    if kills:
        v += cre_base(t) * w.block_kills
    if incoming >= s.life[o] - 1:
        v += w.block_chump + atk_pwr  # a chump block to stay alive
    if already:
        v -= w.block_double
    if incoming < s.life[o]:  # a chump block that keeps O alive is never given up
        v -= _block_cost(s, o, b, cb, w)
    return v


def _block_cost(s: State, o: int, b: int, cb: Combat, w: PolicyWeights) -> float:
    """``counter_lethal`` when blocking with ``b`` takes the lethal counter-attack away
    from O: ``b`` stays taxed through O's next turn (302.1), and without it O's ready Cres
    no longer kill P through P's Cres that stay home."""
    if w.counter_lethal == 0.0:
        return 0.0
    p = 1 - o
    ready = _ready_next_turn(s, o, cb)
    home = _stay_home(s, p, cb)
    with_b = counter_damage(s, p, ready, home)
    without_b = counter_damage(s, p, [x for x in ready if x != b], home)
    if lethal_for(s, p, with_b) and not lethal_for(s, p, without_b):
        return w.counter_lethal
    return 0.0


#: Abilities whose user taxes itself (707, 709 for JH, 710, 711): a Cre taxed on P's turn
#: stays taxed through O's next turn (302.1), so O's user cannot strike back then, and P's
#: user cannot block then.
SELF_TAXING = frozenset({"volley", "harry", "ally", "carry"})


def _self_tax_cost(s: State, q: int, u: int, cb: Combat, w: PolicyWeights) -> float:
    """``strike_back`` when ``q`` taxing its Cre ``u`` for an ability changes whether the
    counter-attack at O's next turn kills: O's ``u`` taken out of a lethal strike back, or
    P's ``u`` taken from the Cres that hold O's strike off. A Cre in the combat is taxed
    anyway (1006)."""
    if w.strike_back == 0.0 or u in cb.attackers or u in cb.blocking:
        return 0.0
    p = s.phasing
    o = 1 - p
    ready = _ready_next_turn(s, o, cb)
    home = _stay_home(s, p, cb)
    if q == o:
        before, after = ready, [x for x in ready if x != u]
        if lethal_for(s, p, counter_damage(s, p, before, home)) \
                and not lethal_for(s, p, counter_damage(s, p, after, home)):
            return w.strike_back
        return 0.0
    rest = [x for x in home if x != u]
    if lethal_for(s, p, counter_damage(s, p, ready, rest)) \
            and not lethal_for(s, p, counter_damage(s, p, ready, home)):
        return w.strike_back
    return 0.0


def ability_score(s: State, p: int, a: Action, w: PolicyWeights = PDEFAULT) -> float:
    if a.verb == "done":
        return 0.0
    u = p * 52 + a.card
    cb = s.combat
    assert cb is not None
    in_combat = u in cb.attackers or u in cb.blocking
    lost = w.ability_lost * pwr(s, u) if in_combat else 0.0
    t = a.target
    if a.verb in SELF_TAXING and (a.verb != "harry" or HARRY_TAXES[u]):
        lost += _self_tax_cost(s, p, u, cb, w)
    if a.verb == "volley":
        if _left(s, t) <= 1 + cb.pending.get(t, 0):
            return w.volley_kill + cre_base(t) - lost
        return w.volley - lost
    if a.verb == "ally":
        return w.ally + 0.8 * pwr(s, t) + 0.3 * PWR_OF[t] - lost
    if a.verb == "carry":
        return w.carry - lost if s.hand[p] else -0.3
    if a.verb == "sally":
        if SALLY_COSTS_TGH[u] and _left(s, u) <= SALLY_TGH_COST:
            return -1.0  # the Sally's Tgh cost would make it terminal
        return w.sally
    if a.verb == "harry":
        if HARRY_TAXES[u]:
            return 0.3 - lost
        return w.harry
    return 0.0


def point_score(s: State, a: Action) -> float:
    """Splitting Pwr or bonus points: finish off the Cre closest to terminal, no overkill."""
    t = a.target
    cb = s.combat
    pending = cb.pending.get(t, 0) if cb is not None else 0
    left = _left(s, t) - pending
    if left <= 0:
        return -5.0
    return 2.0 + 0.3 * cre_base(t) - 0.7 * left


def keep_score(s: State, a: Action, w: PolicyWeights = PDEFAULT) -> float:
    p = s.phasing
    if a.verb == "redraw":
        return w.redraw
    cid = p * 52 + a.card
    n = len(s.home[p])
    lnds = sum(1 for c in s.hand[p] if C_KIND[c] is Kind.LND)
    return hand_card_value(s, p, cid, n, lnds)


def trim_score(s: State, a: Action) -> float:
    p = s.phasing
    cid = p * 52 + a.card
    n = len(s.home[p])
    lnds = sum(1 for c in s.hand[p] if C_KIND[c] is Kind.LND and c != cid)
    return -hand_card_value(s, p, cid, n, lnds)


def action_score(s: State, a: Action, w: PolicyWeights = PDEFAULT) -> float:
    """The cheap score of ``a`` for the Rlr to act in ``s``."""
    ph = s.phase
    if ph is WINDOW1 or ph is WINDOW2:
        return window_score(s, s.actor, a, w)
    if ph is ATTACK:
        return attack_score(s, a, w)
    if ph is BLOCK:
        return block_score(s, a, w)
    if ph is ABILITY_P or ph is ABILITY_O:
        return ability_score(s, s.actor, a, w)
    if ph is SPLIT or ph is BONUS or ph is DOMAIN_BONUS:
        return point_score(s, a)
    if ph is KEEP:
        return keep_score(s, a, w)
    if ph is TRIM:
        return trim_score(s, a)
    return 0.0


def best_action(s: State, legal: Sequence[Action], w: PolicyWeights = PDEFAULT) -> Action:
    best = legal[0]
    best_v = -1e9
    for a in legal:
        v = action_score(s, a, w)
        if v > best_v:
            best, best_v = a, v
    return best


def ranked(s: State, legal: Sequence[Action],
           w: PolicyWeights = PDEFAULT) -> list[tuple[float, Action]]:
    """Legal actions with their cheap scores, best first (stable for ties)."""
    scored = [(action_score(s, a, w), i, a) for i, a in enumerate(legal)]
    scored.sort(key=lambda x: (-x[0], x[1]))
    return [(v, a) for v, _, a in scored]


def epsilon_action(s: State, legal: Sequence[Action], rng: random.Random,
                   epsilon: float, w: PolicyWeights = PDEFAULT) -> Action:
    """The cheap policy's choice; with probability ``epsilon`` a random action among those
    that do not look outright bad."""
    if epsilon > 0.0 and rng.random() < epsilon:
        ok = [a for a in legal if action_score(s, a, w) > BAD / 2]
        return rng.choice(ok or list(legal))
    return best_action(s, legal, w)


__all__ = ["IS_RED", "action_score", "best_action", "epsilon_action", "ranked"]
