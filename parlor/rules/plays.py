"""Playing a Hand card in a window: Lnds, Cres, Enhs onto targets, the Trumps stack, expel,
and paying for it all out of the mnr pool (rules 500, 600, 800, 1100)."""

from __future__ import annotations

from typing import Final

from parlor.rules.actions import PASS, Action, action_of, target_row
from parlor.rules.cards import COST
from parlor.rules.events import rlr
from parlor.rules.ranking import (
    LEVEL,
    TRUMP,
    Counts,
    bonus,
    compare_counts,
    count_in,
    outshows,
    rank_counts,
)
from parlor.rules.state import (
    C_KIND,
    C_RANK,
    C_SUIT,
    CRE,
    DOMAIN,
    ENH,
    FACE,
    LND,
    NONE,
    OWNER,
    STACK,
    State,
    card_text,
)
from parlor.rules.table import (
    BASE_COUNTS,
    NO_ENH,
    attach,
    counts,
    damage_rlr,
    domain_counts,
    emit,
    enter_home,
    entity_text,
    expel_situation,
    kept_counts,
    kept_keys,
    leave_play,
    lnd_yield,
    mark,
    points,
    suit_name,
    tgh,
    to_pile,
    untaxed_lnds,
    yield_under,
)

# -- mnr available and payment (R3, R20, R21) -------------------------------------------------


def available(s: State, p: int) -> tuple[list[int], int]:
    """Mnr ``p`` could raise now, per suit and in all: the pool plus every untaxed Lnd."""
    a0, a1, a2, a3 = reach(s, p)
    return [a0, a1, a2, a3], a0 + a1 + a2 + a3


def reach(s: State, p: int) -> Counts:
    """The mnr Rlr ``p`` could spend in each suit: the pool plus the untaxed Lnds yielding
    that suit (:func:`available` per suit; the play window asks at every step)."""
    pool = s.pool[p]
    t = untaxed_lnds(s)
    b = p * 4
    return pool[0] + t[b], pool[1] + t[b + 1], pool[2] + t[b + 2], pool[3] + t[b + 3]


#: Each face's cost as plain ints, for the listing's affordability test (R20).
COST_SUIT: Final[tuple[int, ...]] = tuple(int(c.suit) for c in COST)
COST_SUITED: Final[tuple[int, ...]] = tuple(c.suited for c in COST)
COST_TOTAL: Final[tuple[int, ...]] = tuple(c.total for c in COST)
#: The rule that prices each face: 206 for a Cre, 207 for an Enh (a Lnd is free).
_COST_RULE: Final[tuple[str, ...]] = tuple("206" if C_KIND[f] is CRE else "207" for f in range(52))


def affordable(face: int, avail: list[int], total: int) -> bool:
    return avail[COST_SUIT[face]] >= COST_SUITED[face] and total >= COST_TOTAL[face]


def check_payment(s: State, p: int, face: int, taxes: tuple[int, ...] | None,
                  spend: tuple[int, ...] | None) -> str | None:
    """Why an explicit payment cannot pay for ``face`` (None when it can). Checked before any
    Lnd is taxed, since a tax is never undone (R3)."""
    cost = COST[face]
    rule = _COST_RULE[face]
    pool = s.pool[p][:]
    for lf in taxes or ():
        lnd = p * 52 + lf
        if lnd not in s.home[p]:
            return f"405: {card_text(lnd)} is not a Lnd in your Home"
        if s.taxed[lnd] != NONE:
            return f"405: {card_text(lnd)} is already taxed"
        pool[lnd_yield(s, lnd)] += 1
    if taxes is not None and len(set(taxes)) != len(taxes):
        return "405: a Lnd can be taxed only once"
    if spend is None:
        if pool[cost.suit] < cost.suited or sum(pool) < cost.total:
            return f"{rule}: {card_text(face)} costs {cost}, more than that payment raises"
        return None
    if len(spend) != cost.total:
        return f"{rule}: {card_text(face)} costs {cost.total} mnr, not {len(spend)}"
    if sum(1 for x in spend if x == cost.suit) < cost.suited:
        return f"{rule}: {card_text(face)} needs {cost.suited} {suit_name(cost.suit)} mnr"
    for suit in range(4):
        if spend.count(suit) > pool[suit]:
            return f"405: the pool would hold only {pool[suit]} {suit_name(suit)} mnr"
    return None


def tax_lnd(s: State, p: int, lnd: int) -> None:
    """Tax ``p``'s own untaxed Lnd for one mnr of the suit it yields (R21)."""
    _tax_yielding(s, p, lnd, lnd_yield(s, lnd))


def _tax_yielding(s: State, p: int, lnd: int, suit: int) -> None:
    """:func:`tax_lnd` of a Lnd whose yield ``suit`` is known."""
    kept = s.untaxed
    taxed = s.taxed
    if kept is not None and taxed[lnd] == NONE:
        i = p * 4 + suit
        kept[i] = kept[i] - 1  # written out, as bump() is, without the call
    phasing = s.phasing
    taxed[lnd] = phasing  # as tax() does, with the yield worked out once
    marked = s.marked
    if marked is not None:  # mark(s, lnd, phasing)
        marked[phasing].append(lnd)
    pool = s.pool[p]
    pool[suit] = pool[suit] + 1
    if s.log is not None:
        emit(s, "tax", p, (lnd,), (suit,), rule="601")


def pay(s: State, p: int, face: int, taxes: tuple[int, ...] | None,
        spend: tuple[int, ...] | None) -> None:
    """Tax Lnds and spend pool points for a card. Automatic payment spends the pool first,
    then taxes the Lnds whose suit is most plentiful, keeping the most options open (R3)."""
    cost = COST[face]
    if taxes is not None:
        for lf in taxes:
            tax_lnd(s, p, p * 52 + lf)
    else:
        _auto_tax(s, p, cost.suit, cost.suited, cost.total)
    pool = s.pool[p]
    if spend is None:
        if s.log is None:
            # nothing records the mnr spent (a playout): take it straight from the pool
            _spend_from(pool, cost.suit, cost.suited, cost.total)
            return
        spend = _auto_spend(pool, cost.suit, cost.suited, cost.total)
    for suit in spend:
        pool[suit] = pool[suit] - 1
    if cost.total and s.log is not None:
        emit(s, "pay", p, (p * 52 + face,), (spend.count(0), spend.count(1), spend.count(2),
                                             spend.count(3)), rule="404")


def _auto_tax(s: State, p: int, suit: int, suited: int, total: int) -> None:
    """Tax Lnds for a payment the pool cannot make alone (R3): first the cost's own suit, from
    the first untaxed Lnds in Home order that yield it; then one mnr at a time from the first
    untaxed Lnd (in Home order) of the suit with the most untaxed Lnds left.

    The Home is walked only as far as each Lnd is found (a late Home holds some nine Lnds, a
    payment taxes two or three), and the untaxed Lnds per suit are the kept figures."""
    pool = s.pool[p]
    if pool[suit] >= suited and points(pool) >= total:
        return  # the pool pays: no Lnd is taxed
    home, taxed, trump, kept = s.home[p], s.taxed, s.trump, kept_counts(s)
    need_suited = suited - pool[suit]
    if need_suited > 0:
        for lnd in home:
            if taxed[lnd] == NONE and yield_under(lnd, trump, kept) == suit:
                _tax_yielding(s, p, lnd, suit)
                need_suited -= 1
                if need_suited == 0:
                    break
    need = total - points(pool)
    if need <= 0:
        return
    # untaxed Lnds per suit they yield, p's four from ``at``: the kept figures, which each
    # tax counts down
    by_suit, at = untaxed_lnds(s), p * 4
    while need > 0:
        most = _most(by_suit, at)
        _tax_first(s, p, home, by_suit, at, most, trump, kept)
        need -= 1


def _most(figures: list[int], at: int) -> int:
    """The largest of the four suits' figures from ``at`` (written out: a hot path)."""
    n0, n1, n2, n3 = figures[at], figures[at + 1], figures[at + 2], figures[at + 3]
    a = n0 if n0 > n1 else n1
    b = n2 if n2 > n3 else n3
    return a if a > b else b


def _tax_first(s: State, p: int, home: list[int], by_suit: list[int], at: int, most: int,
               trump: int | None, kept: list[Counts | None]) -> None:
    """Tax the first untaxed Lnd in ``home`` whose yield has ``most`` untaxed Lnds in the kept
    figures ``by_suit`` (p's from ``at``), which the tax counts down (the payment is
    affordable: one exists)."""
    taxed = s.taxed
    for lnd in home:
        if taxed[lnd] == NONE:
            y = yield_under(lnd, trump, kept)
            if by_suit[at + y] == most:
                _tax_yielding(s, p, lnd, y)
                return
    raise AssertionError("R3: the payment was not affordable")


def _auto_spend(pool: list[int], suit: int, suited: int, total: int) -> tuple[int, ...]:
    """The mnr an automatic payment spends from ``pool``, suit by suit (the pool is kept):
    the cost's own suit first, then each point from the suit with the most points left."""
    spend = [suit] * suited
    left = pool[:]
    left[suit] = left[suit] - suited
    for _ in range(total - suited):
        other = _most_left(left, suit)
        left[other] = left[other] - 1
        spend.append(other)
    return tuple(spend)


def _spend_from(pool: list[int], suit: int, suited: int, total: int) -> None:
    """Take from ``pool`` what :func:`_auto_spend` spends, without listing it: when no log
    records the payment, nobody reads which points paid (R3)."""
    pool[suit] = pool[suit] - suited
    for _ in range(total - suited):
        other = _most_left(pool, suit)
        pool[other] = pool[other] - 1


def _most_left(left: list[int], suit: int) -> int:
    """The suit with the most points ``left``, the cost's own ``suit`` last among equals
    (so that a cost paid from other suits keeps its own suit's points while it can)."""
    other, best = 0, left[0]
    x = left[1]
    if x > best or (x == best and other == suit):
        other, best = 1, x
    x = left[2]
    if x > best or (x == best and other == suit):
        other, best = 2, x
    x = left[3]
    if x > best or (x == best and other == suit):
        other = 3
    return other


# -- which plays are legal (rules 600, 800, 1100) ---------------------------------------------


def expel_outcome(s: State, e: int, target: int) -> tuple[int, int, int]:
    """Whether Enh ``e`` can expel ``target`` [R23]: ``(how, differential, suit)`` with how
    TRUMP, RANK, or -1 for a successful outshow of a lone Enh; LEVEL when it cannot."""
    trump = s.trump
    mine = [0, 0, 0, 0]
    mine[C_SUIT[e]] = C_RANK[e]
    ce = (mine[0], mine[1], mine[2], mine[3])
    if target == STACK:
        top = s.stack[-1] if s.stack else NONE
        ok = top != NONE and C_SUIT[top] == C_SUIT[e] and C_RANK[e] > C_RANK[top]
        return (TRUMP, C_RANK[e] - C_RANK[top], C_SUIT[e]) if ok else (LEVEL, 0, -1)
    return _expel_how(e, ce, target, counts(s, target), trump)


def _expel_how(e: int, ce: Counts, target: int, ct: Counts,
               trump: int | None) -> tuple[int, int, int]:
    """:func:`expel_outcome` for a target on the table whose counts are known."""
    kind = C_KIND[target]
    winner, how, diff, suit = rank_counts(ce, ct, trump)
    if kind is ENH:
        if winner == 0:
            return how, diff, suit
        if C_SUIT[target] != trump and outshows(ce, ct):
            return -1, 0, C_SUIT[e]
        return LEVEL, 0, -1
    if winner != 0 or (kind is LND and how != TRUMP):
        return LEVEL, 0, -1
    return how, diff, suit


#: Where a target sits in a row of :func:`~parlor.rules.actions.target_row`: card ids, then
#: the Domains and the stack.
_SLOT_D1: Final = 104
_SLOT_D2: Final = 105
_SLOT_STACK: Final = 106


#: Which Enh faces expel a Cre or Lnd that has Enhs on it, as a bit mask over faces, by what
#: decides it (R23): the target's counts, its suit and the trump suit, in one dense table
#: indexed by :func:`_situation` (-1: not worked out yet). Each entry is worked out once by
#: :func:`_expel_how` itself; a listing reads it where a dict would box and hash a key.
_EXPELLERS: Final[list[int]] = [-1] * (4 * 10 * 7 * 7 * 7 * 5)
_ENH_FACES: Final = tuple(f for f in range(52) if C_KIND[f] is ENH)


def _situation(target: int, ct: Counts, trump: int | None) -> int:
    """The index of :data:`_EXPELLERS`, or -1 for counts outside it: the host's place
    (:func:`~parlor.rules.table.expel_situation`, kept per host as Enhs come and go) and
    the trump suit. A lone Enh (expelled by outshowing too) has a table of its own
    (:func:`_bare_expellers`)."""
    key = expel_situation(target, ct)
    return -1 if key < 0 else key + (4 if trump is None else trump)


def _expellers(target: int, ct: Counts, trump: int | None) -> int:
    key = _situation(target, ct, trump)
    mask = _EXPELLERS[key] if key >= 0 else -1
    return mask if mask >= 0 else _work_out_expellers(target, ct, trump, key)


def _work_out_expellers(target: int, ct: Counts, trump: int | None, key: int) -> int:
    """:func:`_expellers` from :func:`_expel_how` of every Enh face, kept in the table at
    ``key`` (when it has a place there)."""
    mask = 0
    for f in _ENH_FACES:
        mine = [0, 0, 0, 0]
        mine[C_SUIT[f]] = C_RANK[f]
        ce = (mine[0], mine[1], mine[2], mine[3])
        if _expel_how(f, ce, target, ct, trump)[0] != LEVEL:
            mask |= 1 << f
    if key >= 0:
        _EXPELLERS[key] = mask
    return mask


#: :func:`_bare_expellers` by the trump suit's place (0-3, 4 for none; filled on first use).
_BARE: Final[list[list[int] | None]] = [None] * 5


def _bare_expellers(trump: int | None) -> list[int]:
    """:func:`_expellers` of every card with no Enh on it, by card id, under ``trump``."""
    at = 4 if trump is None else trump
    row = _BARE[at]
    if row is None:
        row = _BARE[at] = [_expellers(t, BASE_COUNTS[t], trump) for t in range(104)]
    return row


#: The shared ``play FACE`` actions (a Lnd or a Cre, which take no target), by face.
_PLAY: Final = tuple(action_of("play", face) for face in range(52))
#: :func:`~parlor.rules.actions.target_row` of each Enh face, by face (filled on first use;
#: no dict key to build).
_PLAY_ROWS: Final[list[list[Action] | None]] = [None] * 52
_EXPEL_ROWS: Final[list[list[Action] | None]] = [None] * 52


#: The refusals of a Lnd's play (603), answered by :func:`verify_lnd` (constants: the
#: listing asks it at every window).
_LND_NOT_PHASING: Final = "603: only the phasing Rlr plays a Lnd, on its own turn"
_LND_PLAYED: Final = "603: one Lnd per turn, and this turn's Lnd is played"


def verify_lnd(s: State, p: int) -> str | None:
    """Why ``p`` may not play a Lnd from the Hand now (603, R6); None when ``p`` may. The
    window's listing, apply's refusal and "why not" all ask this."""
    if p != s.phasing:
        return _LND_NOT_PHASING
    if s.lnd_played:
        return _LND_PLAYED
    return None


def window_actions(s: State, p: int) -> list[Action]:
    """Every card ``p`` may play now, paid automatically, plus pass (R6, R7, R22, R23)."""
    out: list[Action] = []
    avail = reach(s, p)
    total = avail[0] + avail[1] + avail[2] + avail[3]
    enh_faces = []
    lnd_ok = verify_lnd(s, p) is None
    for cid in s.hand[p]:
        face = FACE[cid]
        kind = C_KIND[cid]
        if kind is LND:
            if lnd_ok:
                out.append(_PLAY[face])
        elif total >= COST_TOTAL[face] and count_in(avail, COST_SUIT[face]) >= COST_SUITED[face]:
            if kind is CRE:
                out.append(_PLAY[face])
            else:
                enh_faces.append(face)
    if enh_faces:
        _list_enh_plays(s, enh_faces, out)
    out.append(PASS)
    return out


def _list_enh_plays(s: State, enh_faces: list[int], out: list[Action]) -> None:
    """The plays and expels of the affordable Enh faces ``enh_faces`` of the Hand, face by
    face, onto ``out``: a play on every host, each Domain and (when its rank allows) the
    stack; an expel of the stack's top, then of each target the face can expel, in target
    order: hosts, then the Enhs on hosts (host by host), then those in the Domains.

    With one face, the common case, its plays on hosts are listed by :func:`_expel_targets`
    on its walk of the hosts, and every target found is one of its expels."""
    one = len(enh_faces) == 1
    targets, masks = _expel_targets(s, enh_faces, out)
    top = s.stack[-1] if s.stack else NONE
    for face in enh_faces:
        row = _play_row(face)
        if not one:
            for zone in range(4):
                for h in s.home[zone] if zone < 2 else s.field[zone - 2]:
                    out.append(row[h])
        out.append(row[_SLOT_D1])
        out.append(row[_SLOT_D2])
        if top == NONE or C_RANK[face] >= C_RANK[top]:
            out.append(row[_SLOT_STACK])
        expel = _expel_row(face)
        if top != NONE and C_SUIT[top] == C_SUIT[face] and C_RANK[face] > C_RANK[top]:
            out.append(expel[_SLOT_STACK])
        if one:
            for t in targets:
                out.append(expel[t])
        else:
            for i in range(len(targets)):
                if (masks[i] >> face) & 1:
                    out.append(expel[targets[i]])


def _expel_targets(s: State, enh_faces: list[int], out: list[Action]) -> tuple[list[int],
                                                                              list[int]]:
    """The targets some face of ``enh_faces`` can expel, in target order, and (with more
    than one face) which faces expel each, as a bit mask per target. With one face, its plays
    on the hosts go onto ``out`` on the same walk.

    The targets are judged once per listing, walking the zones in place (no list of all
    hosts is built)."""
    one = len(enh_faces) == 1
    in_hand = 0
    for face in enh_faces:
        in_hand |= 1 << face
    row = _play_row(enh_faces[0])  # read only with one face
    trump = s.trump
    bare = _bare_expellers(trump)
    keys = kept_keys(s)
    enhs = s.enhs
    t_at = 4 if trump is None else trump  # the trump suit's place in an _EXPELLERS key
    targets: list[int] = []
    masks: list[int] = []  # with more faces: which of them expel each target
    # the Enhs on hosts that some face expels, host by host, found on the same walk: they
    # follow every host among the targets
    on_hosts: list[int] = []
    on_host_masks: list[int] = []
    for zone in range(4):  # both Homes, then both Fields: the hosts an Enh may go on
        for t in s.home[zone] if zone < 2 else s.field[zone - 2]:
            if one:
                out.append(row[t])
            key = keys[t]
            if key == NO_ENH:
                m = bare[t] & in_hand
            else:
                e = _EXPELLERS[key + t_at] if key >= 0 else -1
                if e < 0:
                    e = _work_out_expellers(t, counts(s, t), trump,
                                            key + t_at if key >= 0 else -1)
                m = e & in_hand
                for h in enhs[t]:
                    hm = bare[h] & in_hand
                    if hm:
                        on_hosts.append(h)
                        if not one:
                            on_host_masks.append(hm)
            if m:
                targets.append(t)
                if not one:
                    masks.append(m)
    if on_hosts:
        targets.extend(on_hosts)
        if not one:
            masks.extend(on_host_masks)
    for d in range(2):
        for t in s.domain[d]:
            m = bare[t] & in_hand
            if m:
                targets.append(t)
                if not one:
                    masks.append(m)
    return targets, masks


def window_actions_reference(s: State, p: int) -> list[Action]:
    """:func:`window_actions` written as the rules say it, for tests to hold the two equal
    (``tests/rules/test_enhs.py``): slow, with none of its tables.

    Every candidate that :func:`verify_play` accepts, in this order: the Lnds and Cres of the
    Hand, in Hand order; then each Enh of the Hand, in Hand order: played on every Lnd and
    Cre on the table (both Homes, then both Fields), on each Domain, and on the Trumps stack;
    then expelling the stack's top, and every other card on the table: the Lnds and Cres,
    then the Enhs on them host by host, then the Enhs in the Domains. Then pass."""
    out: list[Action] = []
    hand = [FACE[c] for c in s.hand[p]]
    for face in hand:
        if C_KIND[face] is not ENH and verify_play(s, p, Action("play", face)) is None:
            out.append(Action("play", face))
    hosts = s.home[0] + s.home[1] + s.field[0] + s.field[1]
    on_hosts = [e for h in hosts for e in s.enhs.get(h, ())]
    targets = hosts + on_hosts + s.domain[0] + s.domain[1]
    for face in hand:
        if C_KIND[face] is ENH:
            candidates = [Action("play", face, h) for h in (*hosts, *DOMAIN, STACK)]
            candidates += [Action("expel", face, t) for t in (STACK, *targets)]
            out += [a for a in candidates if verify_play(s, p, a) is None]
    out.append(PASS)
    return out


def _play_row(face: int) -> list[Action]:
    row = _PLAY_ROWS[face]
    if row is None:
        row = _PLAY_ROWS[face] = target_row("play", face)
    return row


def _expel_row(face: int) -> list[Action]:
    row = _EXPEL_ROWS[face]
    if row is None:
        row = _EXPEL_ROWS[face] = target_row("expel", face)
    return row


# -- carrying a play out ----------------------------------------------------------------------


def play_card(s: State, p: int, a: Action) -> None:
    """Pay for and lay the card (the action is already known to be legal)."""
    cid = p * 52 + a.card
    s.hand[p].remove(cid)
    kind = C_KIND[cid]
    if kind is LND:
        enter_home(s, cid)
        s.lnd_played = True
        if a.tax:
            for lf in a.tax:
                tax_lnd(s, p, p * 52 + lf)
        if s.log is not None:
            emit(s, "play", p, (cid,), rule="603", detail="lnd")
        return
    pay(s, p, a.card, a.tax, a.spend)
    if kind is CRE:
        s.field[p].append(cid)
        s.inactive[cid] = 1
        mark(s, cid)
        if s.log is not None:
            emit(s, "play", p, (cid,), rule="701", detail="summon")
    elif a.verb == "expel":
        _expel(s, p, cid, a.target)
    else:
        _attach(s, p, cid, a.target)


def _attach(s: State, p: int, e: int, target: int) -> None:
    attach(s, e, target)
    if s.log is None:
        return
    on_card = target != STACK and target not in DOMAIN
    emit(s, "play", p, (e, target), rule="805" if target == STACK else "801", detail="enh",
         entity=entity_text(s, target) if on_card else "")


def _expel(s: State, p: int, e: int, target: int) -> None:
    """Expel (rule 1100): destinations and damage per R22-R24."""
    how, diff, suit = expel_outcome(s, e, target)
    assert how != LEVEL
    trumped = how == TRUMP
    b = bonus(diff) if how in (TRUMP,) or how > LEVEL else 0
    log = s.log is not None  # the sentences are built only for a logged game
    what = entity_text(s, target) if log else ""
    if target == STACK:
        top = s.stack[-1]
        leave_play(s, top, discard=True)
        to_pile(s, e, discard=True)
        if log:
            t = s.trump
            emit(s, "expel", p, (top, e), (-1 if t is None else t,), rule="805.2",
                 detail="stack")
        return
    kind = C_KIND[target]
    where = s.host.get(target, NONE)
    mine = [0, 0, 0, 0]
    mine[C_SUIT[e]] = C_RANK[e]
    ce = (mine[0], mine[1], mine[2], mine[3])
    why = compare_counts(card_text(e), what, ce, counts(s, target), s.trump) if log else None
    dom_why = None
    if kind is ENH and where in DOMAIN and DOMAIN.index(where) != p:
        q = DOMAIN.index(where)
        dom_why = compare_counts(card_text(e), entity_text(s, where), ce, domain_counts(s, q),
                                 s.trump)
    # how it beats the target (2 outtrumps, 1 outranks, 0 outshows), before it leaves play
    beat: tuple[int, ...] = ()
    if log:
        beat = (2 if how == TRUMP else 0 if how == -1 else 1, suit,
                counts(s, target)[suit] if suit >= 0 else 0)
    dest = "Discard" if trumped else "Recycle"
    if kind is CRE:
        dmg = b
        total = s.damage[target] + dmg
        if total >= tgh(s, target):
            trumped = True
            dest = "Discard (eliminated)"
        leave_play(s, target, discard=trumped)
        to_pile(s, e, discard=True)
        if log:
            emit(s, "expel", p, (e, target), (*beat, dmg), "1104", dest, what, why)
        return
    leave_play(s, target, discard=trumped)
    to_pile(s, e, discard=True)
    if log:
        emit(s, "expel", p, (e, target), beat, "1104", dest, what, why)
    if dom_why is not None and dom_why.winner == 0:
        q = DOMAIN.index(where)
        damage_rlr(s, q, dom_why.bonus, "expel", "1103.2", dom_why, e)


def verify_play(s: State, p: int, a: Action) -> str | None:
    """Why ``p`` may not make the play or expel ``a`` (paid automatically) now, naming the
    section; None when ``p`` may. The rules as the text says them: a card of the Hand (403.1);
    a Lnd by its own verify (:func:`verify_lnd`, 603); else a card ``p`` can pay for (206,
    207, 405): a Cre to its Field (701), an Enh onto a Lnd or Cre on the table, a Domain or
    the Trumps stack (801, 805.1), or expelling what it beats (805.2, 1101-1102).
    :func:`window_actions_reference` lists the candidates it accepts, a test holds the fast
    :func:`window_actions` equal to that, and apply's refusal renders it."""
    cid = p * 52 + a.card
    if cid not in s.hand[p]:
        return f"403.1: {card_text(cid)} is not in {rlr(p)}'s Hand"
    kind = C_KIND[cid]
    if kind is LND:
        if a.target != NONE or a.verb != "play":
            return "603: a Lnd is played to its Home, with no target"
        return verify_lnd(s, p)
    avail, total = available(s, p)
    if not affordable(a.card, avail, total):
        return (f"{_COST_RULE[a.card]}: {card_text(cid)} costs {COST[a.card]}, more mnr than "
                f"{rlr(p)} can raise")
    if kind is CRE:
        ok = a.verb == "play" and a.target == NONE
        return None if ok else "701: a Cre is played to its own Field, with no target"
    if a.target == NONE:
        return "801: an Enh needs a target: a Lnd, a Cre, a Domain or the Trumps stack"
    if a.verb == "expel":
        return _expel_refusal(s, cid, a.target)
    return _enh_play_refusal(s, cid, a.target)


def _enh_play_refusal(s: State, e: int, target: int) -> str | None:
    """801, 805.1: an Enh is played onto a Lnd or Cre on the table, a Domain, or the Trumps
    stack when its value is at least the top card's."""
    if target == STACK:
        if not s.stack or C_RANK[e] >= C_RANK[s.stack[-1]]:
            return None
        return (f"805.1: an Enh goes on the Trumps stack only if at least the top card's value "
                f"({card_text(s.stack[-1])})")
    if target in DOMAIN:
        return None
    if 0 <= target < 104 and (target in s.home[OWNER[target]] or target in s.field[OWNER[target]]):
        return None
    return "801: that is not a target on the table"


def _expel_refusal(s: State, e: int, target: int) -> str | None:
    """805.2, 805.3, 1101, 1102: what an Enh may expel, and what it must beat to."""
    if target == STACK:
        if s.stack and expel_outcome(s, FACE[e], STACK)[0] != LEVEL:
            return None
        return "805.2: only a higher Enh of the top card's suit expels the top of the Trumps stack"
    if target in DOMAIN or not _on_table(s, target):
        return "1101: expel a Cre, a Lnd or one Enh that is on the table"
    if s.host.get(target) == STACK:  # 805.3: the stack is expelled only through its top
        return ("805.3: only the top card of the Trumps stack can be expelled, by a higher Enh "
                f"of its suit ('expel {card_text(e)} at T')")
    if expel_outcome(s, FACE[e], target)[0] != LEVEL:
        return None
    what = entity_text(s, target)
    kind = C_KIND[target]
    if kind is LND:
        return (f"1102.3: a Lnd is expelled only by outtrumping it, and {card_text(e)} cannot "
                f"({what})")
    if kind is CRE:
        return f"1102.2: a Cre is expelled only by outranking or outtrumping it ({what})"
    if C_SUIT[target] == s.trump:
        return f"1102.2: a trump-suit Enh is expelled only by outtrumping it ({what})"
    return f"1102.1: {card_text(e)} must outshow, outrank or outtrump {what}"


def _on_table(s: State, cid: int) -> bool:
    if not 0 <= cid < 104:
        return False
    owner = OWNER[cid]
    return cid in s.host or cid in s.field[owner] or cid in s.home[owner]

