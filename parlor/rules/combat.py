"""Attacks, blocks, the five abilities and combat resolution (rules 406-409, 700, 1000).

Resolution follows R13: (1) blocked combat damage with the group bonus, (2) unblocked
attackers against O's Domain, (3) unblocked Pwr to O, (4) the win check. Choices inside it
(splitting an attacker's Pwr among its blockers, distributing bonus points) are atomic
decisions, one point at a time, and only when there is a real choice (R11, R14).
"""

from __future__ import annotations

from typing import Final

from parlor.rules.actions import DONE, END, Action, action_of, target_row
from parlor.rules.cards import ABILITIES, IS_RED, Ability
from parlor.rules.events import Event
from parlor.rules.ranking import (
    EMPTY,
    TRUMP,
    Counts,
    bonus,
    compare_counts,
    count_in,
    raised,
    rank_counts,
)
from parlor.rules.state import (
    BONUS,
    C_KIND,
    C_RANK,
    C_SUIT,
    DOMAIN,
    DOMAIN_BONUS,
    FACE,
    LND,
    MAX_ATTACKERS,
    MAX_BLOCKERS,
    NONE,
    OVER,
    OWNER,
    SPLIT,
    Combat,
    Phase,
    State,
    end_combat,
)
from parlor.rules.table import (
    BASE_COUNTS,
    bump,
    counts,
    damage_rlr,
    deal_damage,
    domain_counts,
    emit,
    end_game,
    entity_text,
    group_counts,
    group_text,
    kept_counts,
    lnd_yield,
    mark,
    pwr,
    tax,
    tgh,
    untaxed_lnds,
)

CARRY_BOOST: Final = 4
#: Each face's abilities in a fixed order. Iterating the frozensets of ABILITIES follows string
#: hashing, which changes from process to process, and the order of legal actions must not
#: (seeded games must replay). Carry before Ally keeps the golden game logs as recorded.
_ORDER: Final = (Ability.VOLLEY, Ability.SALLY, Ability.HARRY, Ability.CARRY, Ability.ALLY)
ABILITY_ORDER: Final[tuple[tuple[Ability, ...], ...]] = tuple(
    tuple(a for a in _ORDER if a in ABILITIES[f]) for f in range(52))
# The members as module constants: on Python 3.11 ``Ability.VOLLEY`` is looked up through
# the enum's metaclass (about 80 ns, in the compiled build too), and the ability listing
# compared each of a Cre's abilities with up to five of them (Final: a C static when compiled).
VOLLEY: Final = Ability.VOLLEY
SALLY: Final = Ability.SALLY
HARRY: Final = Ability.HARRY
ALLY: Final = Ability.ALLY
CARRY: Final = Ability.CARRY


# The shared actions of the combat listings (actions.action_of), in tables by card id: a
# listing builds several per step late in a game, and action_of builds a key tuple and
# looks it up in a dict for each.
_ATTACK: Final = tuple(action_of("attack", FACE[c]) for c in range(104))
_SALLY: Final = tuple(action_of("sally", FACE[c]) for c in range(104))
_HARRY: Final = tuple(action_of("harry", FACE[c]) for c in range(104))
_ASSIGN: Final = tuple(action_of("assign", NONE, c) for c in range(104))
_BONUS: Final = tuple(action_of("bonus", NONE, c) for c in range(104))
#: ``verb FACE REF`` actions by target card id, one row per face, filled on first use.
_BLOCK: Final[list[list[Action] | None]] = [None] * 52
_VOLLEY: Final[list[list[Action] | None]] = [None] * 52
_ALLY: Final[list[list[Action] | None]] = [None] * 52
_CARRY: Final[list[list[Action] | None]] = [None] * 52


def _targets(rows: list[list[Action] | None], verb: str, face: int) -> list[Action]:
    """:func:`~parlor.rules.actions.target_row` of ``verb`` and ``face`` (indexed by target
    card id), kept in ``rows`` by face: no dict key to build per listed action."""
    row = rows[face]
    if row is None:
        row = rows[face] = target_row(verb, face)
    return row


# -- declaring attackers and blockers (R8-R10) -----------------------------------------------


def attack_actions(s: State) -> list[Action]:
    cb = s.combat
    assert cb is not None
    out: list[Action] = []
    if len(cb.attackers) < MAX_ATTACKERS:
        # the declared attackers (all P's) as a bit set over faces: a test per Cre, where
        # ``in`` a list compares it with every attacker through generic calls
        declared = 0
        for a in cb.attackers:
            declared |= 1 << FACE[a]
        taxed, inactive = s.taxed, s.inactive
        for c in s.field[s.phasing]:
            if taxed[c] == NONE and not inactive[c] and not (declared >> FACE[c]) & 1:
                out.append(_ATTACK[c])
    out.append(DONE if cb.attackers else END)
    return out


def block_actions(s: State) -> list[Action]:
    cb = s.combat
    assert cb is not None
    out: list[Action] = []
    open_attackers: list[int] = []
    for a in cb.attackers:
        on = cb.blockers.get(a)  # typed, where a default () would make len() generic
        if on is None or len(on) < MAX_BLOCKERS:
            open_attackers.append(a)
    # the declared blockers (all O's) as a bit set over faces, as for the attackers
    blocking = 0
    for b in cb.blocking:
        blocking |= 1 << FACE[b]
    taxed = s.taxed
    for b in s.field[s.opponent]:
        if taxed[b] == NONE and not (blocking >> FACE[b]) & 1:
            row = _targets(_BLOCK, "block", FACE[b])
            for a in open_attackers:
                out.append(row[a])
    out.append(DONE)
    return out


def declare_attacker(s: State, cid: int) -> None:
    assert s.combat is not None
    s.combat.attackers.append(cid)
    if s.log is not None:
        emit(s, "attack", s.phasing, (cid,), rule="406")


def declare_blocker(s: State, b: int, a: int) -> None:
    cb = s.combat
    assert cb is not None
    cb.blocking[b] = a
    cb.blockers.setdefault(a, []).append(b)
    cb.blocked.add(a)
    if s.log is not None:
        emit(s, "block", OWNER[b], (a, b), rule="407")


# -- abilities (R27, R28) ---------------------------------------------------------------------


def fight(cb: Combat, cid: int) -> int:
    """The attacker whose fight ``cid`` is in (itself if attacking), or NONE."""
    if cid in cb.blocking:
        return cb.blocking[cid]
    return cid if cid in cb.attackers else NONE


def side_counts(s: State, cid: int) -> Counts:
    """``cid``'s side in an ability check, user or target alike (706.1, R27): a blocker's
    side is the group of all blockers on its attacker; an attacker, or a card outside the
    combat, is its own side."""
    return side_with(s, cid, counts(s, cid))


def side_with(s: State, cid: int, mine: Counts) -> Counts:
    """:func:`side_counts` with ``mine`` standing for ``cid``'s own counts (a Queen's Carry
    booster, 706.3). Two functions, not an optional argument: an optional count tuple is
    boxed at every call in the compiled build."""
    cb = s.combat
    assert cb is not None
    if not cb.blocking:
        return mine
    a = cb.blocking.get(cid, NONE)
    if a == NONE:
        return mine
    rest = group_counts(s, [b for b in cb.blockers[a] if b != cid])
    return (max(rest[0], mine[0]), max(rest[1], mine[1]), max(rest[2], mine[2]),
            max(rest[3], mine[3]))


def carry_counts(s: State, queen: int) -> Counts:
    """A Queen's counts for Carry: her own-suit Enhs count +4 (R27). Her kept counts with her
    own suit raised: an Enh of her suit (2-6) is above her own spot (1) there, so her count
    in it is 1 without one and the highest such Enh with them."""
    c = counts(s, queen)
    suit = C_SUIT[queen]
    own = count_in(c, suit)
    return raised(c, suit, own + CARRY_BOOST) if own > 1 else c


#: Each face's abilities as bits, in the order of :data:`ABILITY_ORDER`, so that a listing
#: passes over a Cre with none (Aces; most Cres of a Field) at one look.
_VOLLEY_BIT: Final = 1
_SALLY_BIT: Final = 2
_HARRY_BIT: Final = 4
_ALLY_BIT: Final = 8
_CARRY_BIT: Final = 16
_BIT_OF: Final = {VOLLEY: _VOLLEY_BIT, SALLY: _SALLY_BIT, HARRY: _HARRY_BIT, ALLY: _ALLY_BIT,
                  CARRY: _CARRY_BIT}
ABILITY_BITS: Final[tuple[int, ...]] = tuple(
    sum(_BIT_OF[a] for a in ABILITY_ORDER[f]) for f in range(52))
#: The Cres whose abilities carry a rule of their own (707.1, 709.1, by card id of either
#: owner): the javelin-bearing JC may not Volley an unblocked attacker; the feather-bearing
#: JH Harries only untaxed, since Harrying taxes it.
_JAVELIN: Final[tuple[bool, ...]] = tuple(C_RANK[c] == 11 and C_SUIT[c] == 0 for c in range(104))
_FEATHER: Final[tuple[bool, ...]] = tuple(C_RANK[c] == 11 and C_SUIT[c] == 2 for c in range(104))


def ability_actions(s: State, p: int) -> list[Action]:
    """Every ability ``p`` may activate in its ability step, plus done (R28)."""
    cb = s.combat
    assert cb is not None
    q = 1 - p
    trump = s.trump
    out: list[Action] = []
    inactive, terminal, taxed = s.inactive, s.terminal, s.taxed
    combatants: list[int] | None = None  # q's Cres in the fight, for Volley: made once
    used = cb.used
    any_used = len(used) > 0  # a set's truth is a generic call when compiled; its size is not
    for u in s.field[p]:
        face = FACE[u]
        bits = ABILITY_BITS[face]
        if not bits or inactive[u] or terminal[u] or (any_used and u in used):
            continue
        untaxed = taxed[u] == NONE
        if bits & _VOLLEY_BIT and untaxed:
            if combatants is None:  # one list, appended to (+= of lists is a generic call)
                combatants = [c for c in cb.attackers if OWNER[c] == q]
                for c in cb.blocking:
                    if OWNER[c] == q:
                        combatants.append(c)
            if combatants:
                mine = side_counts(s, u)
                for t in combatants:
                    if _JAVELIN[u] and t not in cb.blocked and t in cb.attackers:
                        continue  # the javelin may not target an unblocked attacker
                    if not side_beats(side_counts(s, t), mine, trump):
                        out.append(_targets(_VOLLEY, "volley", face)[t])
        if bits & _SALLY_BIT:
            blockers = cb.blockers.get(u)  # looked up first: most Cres have none
            if blockers and u in cb.attackers and any(
                IS_RED[FACE[b]] == IS_RED[face] for b in blockers
            ) and (
                # the target: all its blockers (706.2)
                not side_beats(side_counts(s, blockers[0]), side_counts(s, u), trump)
            ):
                out.append(_SALLY[u])
        if bits & _HARRY_BIT:
            a = cb.blocking.get(u, NONE)
            if a != NONE and IS_RED[FACE[a]] != IS_RED[face] and (
                untaxed or not _FEATHER[u]
            ) and (
                # the target: the attacker it blocks (706.2)
                not side_beats(side_counts(s, a), side_counts(s, u), trump)
            ):
                out.append(_HARRY[u])
        if not untaxed:
            continue  # Carry and Ally tax the user
        if bits & _CARRY_BIT and _carry_candidates(s, q, IS_RED[face]):
            # a blocking Queen's side is her group (706.1), with her Carry counts
            mine = side_with(s, u, carry_counts(s, u))
            red = IS_RED[face]
            bare = -1  # the bare Lnd faces that beat her side: looked up at the first
            kept = kept_counts(s)
            for lnd in s.home[q]:
                # A Lnd is never in a combat: its side is its own counts (706.1), kept per
                # entity as Enhs come and go
                if IS_RED[FACE[lnd]] != red or taxed[lnd] != NONE:
                    continue
                ct = kept[lnd]
                if ct is None:
                    if bare < 0:
                        bare = _bare_lnds_beating(mine, trump)
                    beaten = (bare >> FACE[lnd]) & 1 == 1
                else:
                    beaten = side_beats(ct, mine, trump)
                if not beaten:
                    out.append(_targets(_CARRY, "carry", face)[lnd])
        if bits & _ALLY_BIT:
            suit = C_SUIT[u]
            have_mine = False  # her side, worked out at the first Cre she could tax
            mine = EMPTY
            for t in s.field[q]:
                if C_SUIT[t] == suit and taxed[t] == NONE:
                    if not have_mine:
                        mine, have_mine = side_counts(s, u), True
                    if not side_beats(side_counts(s, t), mine, trump):
                        out.append(_targets(_ALLY, "ally", face)[t])
    out.append(DONE)
    return out


def _carry_candidates(s: State, q: int, red: bool) -> bool:
    """Whether ``q``'s Home holds an untaxed Lnd of the colour ``red``: what a Queen of that
    colour could Carry at all (711), read from the kept figures of untaxed Lnds by the suit
    they yield. A Lnd that yields the trump suit is counted there, not under its own, so
    only the figures of the colour's suits and no trump say there is none."""
    t = untaxed_lnds(s)
    b = q * 4
    trump = s.trump
    if t[b] + t[b + 1] + t[b + 2] + t[b + 3] == 0:
        return False
    if trump is not None and t[b + trump] > 0:
        return True  # a Lnd of either colour may yield the trump suit
    # suits 0-3 are Clubs, Diamonds, Hearts, Spades: red are 1 and 2
    return t[b + 1] + t[b + 2] > 0 if red else t[b] + t[b + 3] > 0


#: Which Lnd faces, bare (no Enh on them), beat a side (R26), as a bit mask over faces, by
#: the side's counts and the trump suit in one dense table (-1: not worked out yet), for the
#: Carry listing (711): a Queen's side has at most 10 in a suit (an Enh of 6 and her
#: booster), so the counts index it in base 11.
_LNDS_BEATING: Final[list[int]] = [-1] * (11 * 11 * 11 * 11 * 5)
_LND_FACES: Final = tuple(f for f in range(52) if C_KIND[f] is LND)


def _bare_lnds_beating(side: Counts, trump: int | None) -> int:
    """The bit mask of :data:`_LNDS_BEATING` for ``side`` (worked out once, then read)."""
    c0, c1, c2, c3 = side
    key = -1
    if c0 <= 10 and c1 <= 10 and c2 <= 10 and c3 <= 10:
        key = (((c0 * 11 + c1) * 11 + c2) * 11 + c3) * 5 + (4 if trump is None else trump)
        mask = _LNDS_BEATING[key]
        if mask >= 0:
            return mask
    mask = 0
    for f in _LND_FACES:
        if side_beats(BASE_COUNTS[f], side, trump):
            mask |= 1 << f
    if key >= 0:
        _LNDS_BEATING[key] = mask
    return mask


def side_beats(a: Counts, b: Counts, trump: int | None) -> bool:
    """Side ``a`` outranks or outtrumps side ``b`` (903, R26): the ability check of 706."""
    return rank_counts(a, b, trump)[0] == 0


def use_ability(s: State, p: int, a: Action) -> None:
    cb = s.combat
    assert cb is not None
    u = p * 52 + a.card
    cb.used.add(u)
    t = a.target
    log = s.log is not None  # playouts switch the log off
    if a.verb == "volley":
        tax(s, u)
        if log:
            emit(s, "ability", p, (u, t), rule="707", detail="volley")
        deal_damage(s, t, 1, "Volley", u)
    elif a.verb == "sally":
        s.own_combat_status()
        s.pwr_mod[u] = s.pwr_mod[u] + 1
        mark(s, u)
        lost = 0
        if C_SUIT[u] == 2:  # the awkward KH pays Tgh for it
            s.tgh_mod[u] = s.tgh_mod[u] - 1
            lost = 1
            if s.damage[u] >= tgh(s, u):
                s.terminal[u] = 1
        if log:
            emit(s, "ability", p, (u,), (lost,), rule="708", detail="sally")
    elif a.verb == "harry":
        s.own_combat_status()
        s.tgh_mod[u] = s.tgh_mod[u] + 1
        mark(s, u)
        if C_RANK[u] == 11 and C_SUIT[u] == 2:  # the feather-bearing JH is taxed
            tax(s, u)
        if log:
            emit(s, "ability", p, (u,), rule="709", detail="harry")
    elif a.verb == "ally":
        tax(s, u)
        tax(s, t)
        if log:
            emit(s, "ability", p, (u, t), rule="710", detail="ally")
    else:  # carry
        tax(s, u)
        suit = lnd_yield(s, t)
        tax(s, t)
        bump(s.pool[p], suit, 1)
        if log:
            emit(s, "ability", p, (u, t), (suit,), rule="711", detail="carry")


# -- resolution (R11-R16) ---------------------------------------------------------------------


def start_resolution(s: State) -> bool:
    """Begin resolving; True when the combat is over (False: a decision is pending)."""
    cb = s.combat
    assert cb is not None
    for b, a in cb.blocking.items():
        if a != NONE:
            cb.pending[a] = cb.pending.get(a, 0) + pwr(s, b)
    for a in cb.attackers:
        blockers = cb.blockers.get(a)
        if not blockers:
            continue
        dealt = pwr(s, a)
        if not dealt:
            continue
        if len(blockers) == 1:
            cb.pending[blockers[0]] = cb.pending.get(blockers[0], 0) + dealt
        else:
            cb.split_queue.append(a)
    return _next_split(s)


def _next_split(s: State) -> bool:
    cb = s.combat
    assert cb is not None
    if cb.split_queue:
        cb.split_left = pwr(s, cb.split_queue[0])
        s.phase, s.actor = SPLIT, s.phasing
        return False
    return _group_bonus(s)


def split_actions(s: State) -> list[Action]:
    cb = s.combat
    assert cb is not None
    return [_ASSIGN[b] for b in cb.blockers[cb.split_queue[0]]]


def assign_point(s: State, target: int) -> bool:
    cb = s.combat
    assert cb is not None
    cb.pending[target] = cb.pending.get(target, 0) + 1
    cb.split_left -= 1
    if cb.split_left > 0:
        return False
    cb.split_queue.pop(0)
    return _next_split(s)


def _group_bonus(s: State) -> bool:
    """All attackers against all blockers; the winner's bonus is distributed (R13.1, R14)."""
    cb = s.combat
    assert cb is not None
    if cb.blocking and cb.attackers:
        # a comprehension walks the dict in place (list() of a dict makes an iterator)
        blockers = [b for b in cb.blocking]
        ca, cd = group_counts(s, cb.attackers), group_counts(s, blockers)
        winner, _how, diff, _suit = rank_counts(ca, cd, s.trump)
        if winner >= 0:
            b = bonus(diff)
            side = (s.phasing, s.opponent)[winner]
            losers = blockers if winner == 0 else cb.attackers[:]
            if s.log is not None:
                why = compare_counts(group_text(s, cb.attackers), group_text(s, blockers),
                                     ca, cd, s.trump)
                emit(s, "bonus", side, rule="1003", why=why)
            return _distribute(s, side, b, losers, BONUS)
    return _after_blocked(s)


def _distribute(s: State, side: int, points: int, to: list[int], phase: Phase) -> bool:
    cb = s.combat
    assert cb is not None
    if len(to) == 1:
        cb.pending[to[0]] = cb.pending.get(to[0], 0) + points
        return _after_bonus(s, phase)
    cb.bonus_left, cb.bonus_to = points, to
    s.phase, s.actor = phase, side
    return False


def bonus_actions(s: State) -> list[Action]:
    cb = s.combat
    assert cb is not None
    return [_BONUS[c] for c in cb.bonus_to]


def bonus_point(s: State, target: int) -> bool:
    cb = s.combat
    assert cb is not None
    cb.pending[target] = cb.pending.get(target, 0) + 1
    cb.bonus_left -= 1
    if cb.bonus_left > 0:
        return False
    cb.bonus_to = []
    return _after_bonus(s, s.phase)


def _after_bonus(s: State, phase: Phase) -> bool:
    if phase is BONUS:
        return _after_blocked(s)
    _deal_pending(s, "Domain bonus")
    return _unblocked_damage(s)


def _deal_pending(s: State, why: str) -> None:
    cb = s.combat
    assert cb is not None
    for cid, amount in cb.pending.items():
        deal_damage(s, cid, amount, why)
    cb.pending.clear()


def _after_blocked(s: State) -> bool:
    """Step 2: unblocked attackers against O's Domain (R13)."""
    _deal_pending(s, "combat")
    cb = s.combat
    assert cb is not None
    o = s.opponent
    unblocked = [a for a in cb.attackers if a not in cb.blocked]
    if not unblocked:
        return _unblocked_damage(s)
    ca, cd = group_counts(s, unblocked), domain_counts(s, o)
    winner, how, diff, _suit = rank_counts(ca, cd, s.trump)
    if winner < 0:
        return _unblocked_damage(s)
    b = bonus(diff)
    if s.log is not None:
        domain = entity_text(s, DOMAIN[o])
        why = compare_counts(group_text(s, unblocked), domain, ca, cd, s.trump)
        emit(s, "bonus", (s.phasing, o)[winner], rule="1004", why=why)
    if winner == 0:
        cb.o_dealt = True
        damage_rlr(s, o, b, "attackers", "1004.2")
        return _unblocked_damage(s)
    gain = 2 if how == TRUMP else 1
    s.life[o] += gain
    if s.log is not None:
        emit(s, "life", o, amounts=(gain, s.life[o]), rule="1004.1", detail="gain")
    return _distribute(s, o, b, unblocked, DOMAIN_BONUS)


def _unblocked_damage(s: State) -> bool:
    """Steps 3 and 4: unblocked Pwr to O, then the win check (R13, R16)."""
    cb = s.combat
    assert cb is not None
    o = s.opponent
    total = sum(pwr(s, a) for a in cb.attackers if a not in cb.blocked)
    if total:
        cb.o_dealt = True
        damage_rlr(s, o, total, "unblocked", "1005")
    taxed = s.taxed
    for c in cb.attackers:  # taxing moves no card: the combat's tables are walked in place
        if taxed[c] == NONE:
            tax(s, c)
    for c in cb.blocking:
        if taxed[c] == NONE:
            tax(s, c)
    if cb.o_dealt and s.life[o] <= 0:
        s.winner = s.phasing
        s.phase = OVER
        end_game(s, Event("win", s.phasing, amounts=(s.life[o],), rule="1201", detail="attack"))
    end_combat(s)
    return True
