"""Low-level table mechanics shared by plays and combat: spot counts of cards on the table,
moving cards between zones, taxing, damage and the event log. Drawing from an empty Draw pile
reshuffles the Recycle pile in (:func:`draw_one`); how that order is drawn, rule 307.1, is
:mod:`parlor.rules.reshuffle`."""

from __future__ import annotations

from typing import Final, cast

from parlor.rules.cards import Suit, spot
from parlor.rules.events import Event, rlr
from parlor.rules.ranking import EMPTY, Comparison, Counts, raised
from parlor.rules.reshuffle import shuffle
from parlor.rules.state import (
    C_KIND,
    C_RANK,
    C_SUIT,
    COMBAT_STATUS,
    CRE,
    DOMAIN,
    ENH,
    ENH_COUNTS,
    LND,
    NONE,
    OWNER,
    PWR_OF,
    STACK,
    TGH_OF,
    State,
    card_text,
)

SPOT: Final[tuple[int, ...]] = tuple(spot(C_RANK[c]) for c in range(104))
SUIT_NAME: Final = tuple(s.title for s in Suit)


def emit(s: State, kind: str, player: int | None = None, cards: tuple[int, ...] = (),
         amounts: tuple[int, ...] = (), rule: str = "", detail: str = "", entity: str = "",
         why: Comparison | None = None) -> None:
    """Append an event to the log (no-op when the log is switched off for playouts)."""
    if s.log is not None:
        s.log.append(Event(kind, player, cards, amounts, rule, detail, entity, why))


def end_game(s: State, e: Event) -> None:
    """The game's end (a win or a draw): its result is the event's sentence."""
    s.result = e.text
    if s.log is not None:
        s.log.append(e)


# -- spot counts on the table (R25) ----------------------------------------------------------


BASE_COUNTS: Final[tuple[Counts, ...]] = tuple(
    (SPOT[c] if C_SUIT[c] == 0 else 0, SPOT[c] if C_SUIT[c] == 1 else 0,
     SPOT[c] if C_SUIT[c] == 2 else 0, SPOT[c] if C_SUIT[c] == 3 else 0) for c in range(104))


def counts(s: State, cid: int) -> Counts:
    """Counts of a Cre or Lnd with its Enhs, or of a lone Enh (R25).

    Kept per entity as Enhs come and go (:func:`attach`, :func:`leave_play`): a card with no
    Enh on it shows its own spot only."""
    got = kept_counts(s)[cid]
    return BASE_COUNTS[cid] if got is None else got


def kept_counts(s: State) -> list[Counts | None]:
    """The kept counts by card id: a host's counts while it has Enhs on it, None for every
    other card (counted once for a state read from a position, then kept as Enhs come and
    go)."""
    ec = s.ecounts
    return _count_entities(s) if ec is None else ec


def entity_counts(s: State, cid: int) -> Counts:
    """:func:`counts` worked out from the cards (what the kept figure must equal)."""
    c = BASE_COUNTS[cid]
    on = s.enhs.get(cid)
    if on is not None:
        for e in on:
            c = raised(c, C_SUIT[e], C_RANK[e])
    return c


def kept_keys(s: State) -> list[int]:
    """:func:`expel_situation` of each card's kept counts, by card id (NO_ENH for a card
    with no Enh on it): kept beside :func:`kept_counts`."""
    keys = s.ekeys
    if keys is None:
        _count_entities(s)
        keys = s.ekeys
        assert keys is not None
    return keys


#: :func:`kept_keys` of a card with no Enh on it.
NO_ENH: Final = -2


def expel_situation(host: int, ct: Counts) -> int:
    """Where a host (a Cre or Lnd) of counts ``ct`` sits in the table of which Enh faces
    expel it (plays._EXPELLERS), five places a situation for the trump suit (4: none) to be
    added; -1 for counts outside it. A host's count in its own suit is 1-10 (a Cre's spot 1
    or an Enh of its suit up to 6; a Lnd's spot 7-10, which no Enh exceeds), so that count
    and the suit also tell a Cre from a Lnd; in each other suit it holds only Enhs (0 or
    2-6)."""
    if C_KIND[host] is ENH:
        return -1
    suit = C_SUIT[host]
    c0, c1, c2, c3 = ct
    if suit == 0:
        own, x, y, z = c0, c1, c2, c3
    elif suit == 1:
        own, x, y, z = c1, c0, c2, c3
    elif suit == 2:
        own, x, y, z = c2, c0, c1, c3
    else:
        own, x, y, z = c3, c0, c1, c2
    if own < 1 or own > 10 or x > 6 or y > 6 or z > 6:
        return -1
    return ((((suit * 10 + own - 1) * 7 + x) * 7 + y) * 7 + z) * 5


def _count_entities(s: State) -> list[Counts | None]:
    ec: list[Counts | None] = [None] * 104
    keys = [NO_ENH] * 104
    for h, es in s.enhs.items():
        if es:
            ct = ec[h] = entity_counts(s, h)
            keys[h] = expel_situation(h, ct)
    s.ecounts, s.ekeys = ec, keys
    s.shared &= ~ENH_COUNTS  # new lists, shared with nobody
    return ec


def _own_counts(s: State) -> bool:
    """Make ``s.ecounts`` and ``s.ekeys`` the state's own to write to (:meth:`State.own`);
    False before they are counted (nothing to keep)."""
    if s.ecounts is None or s.ekeys is None:
        return False
    if s.shared & ENH_COUNTS:
        s.own(ENH_COUNTS)
    return True


def _recount_entity(s: State, host: int) -> None:
    """After an Enh joined or left ``host``."""
    if not _own_counts(s):
        return
    ec, keys = s.ecounts, s.ekeys
    assert ec is not None and keys is not None
    if s.enhs.get(host):
        ct = ec[host] = entity_counts(s, host)
        keys[host] = expel_situation(host, ct)
    else:
        ec[host] = None
        keys[host] = NO_ENH


def domain_counts(s: State, p: int) -> Counts:
    c = EMPTY
    for e in s.domain[p]:
        c = raised(c, C_SUIT[e], C_RANK[e])
    return c


def group_counts(s: State, cids: list[int]) -> Counts:
    """A group's counts: in each suit the highest count of any of its entities (R25, 904).
    From the kept counts, suit by suit (no look at the Enhs)."""
    kept = kept_counts(s)
    g0 = g1 = g2 = g3 = 0
    for cid in cids:
        c = kept[cid]
        c0, c1, c2, c3 = BASE_COUNTS[cid] if c is None else c
        if c0 > g0:
            g0 = c0
        if c1 > g1:
            g1 = c1
        if c2 > g2:
            g2 = c2
        if c3 > g3:
            g3 = c3
    return g0, g1, g2, g3


def entity_text(s: State, cid: int) -> str:
    """``JH/3C``: a card and the Enhs on it, as players read it."""
    if cid in DOMAIN:
        return "D:" + "/".join(card_text(e) for e in s.domain[DOMAIN.index(cid)])
    if cid == STACK:
        return "the Trumps stack"
    return "/".join([card_text(cid), *(card_text(e) for e in s.enhs.get(cid, ()))])


def group_text(s: State, cids: list[int]) -> str:
    return "+".join(entity_text(s, c) for c in cids) or "nobody"


def points(pool: list[int]) -> int:
    """The mnr in a pool of four suits, in all (R21)."""
    return pool[0] + pool[1] + pool[2] + pool[3]


def bump(figures: list[int], i: int, n: int) -> None:
    """``figures[i] += n``: a kept figure (untaxed Lnds of a suit) goes up or down by ``n``
    (a function rather than ``+=``, which is slower on a list item in the compiled build)."""
    figures[i] = figures[i] + n


def lnd_yield(s: State, lnd: int) -> int:
    """The suit of mnr a Lnd gives when taxed (R21): the trump suit if it carries a trump Enh."""
    return yield_under(lnd, s.trump, kept_counts(s))


def yield_under(lnd: int, trump: int | None, kept: list[Counts | None]) -> int:
    """:func:`lnd_yield` with the trump suit and the kept counts at hand, for callers that
    look at several Lnds in a row (the trump is read once, not once per Lnd). A Lnd's count
    in a suit other than its own comes from its Enhs alone, so a count in the trump suit
    means a trump Enh on it; in its own suit the count is its spot, and it yields that suit
    either way."""
    if trump is not None:
        # only the trump suit's count matters here (cast: read one item, for speed)
        c = cast("list[tuple[int, ...] | None]", kept)[lnd]
        if c is not None and c[trump] > 0:
            return trump
    return C_SUIT[lnd]


def untaxed_lnds(s: State) -> list[int]:
    """Untaxed Lnds in each Home by the suit they yield, ``[owner * 4 + suit]`` (R21).

    Kept up to date as Lnds are played, taxed, untaxed and leave play, and as Enhs join or
    leave them; counted afresh (lazily) only after the trump suit changes."""
    t = s.untaxed
    if t is None:
        t = s.untaxed = count_untaxed(s)
    return t


def count_untaxed(s: State) -> list[int]:
    """:func:`untaxed_lnds` worked out from the cards (what the kept figures must equal)."""
    t = [0] * 8
    taxed = s.taxed
    for p in (0, 1):
        for lnd in s.home[p]:
            if taxed[lnd] == NONE:
                bump(t, p * 4 + lnd_yield(s, lnd), 1)
    return t


def bookkeeping_errors(s: State) -> list[str]:
    """Where the kept figures (:func:`counts`, :func:`untaxed_lnds`, the marked cards of
    :func:`mark`) differ from the cards: the debug check of the incremental bookkeeping
    (empty when all agree)."""
    out = []
    if s.trump != (C_SUIT[s.stack[-1]] if s.stack else None):
        out.append(f"trump suit kept as {s.trump}, the stack's top is of another")
    if s.untaxed is not None and s.untaxed != count_untaxed(s):
        out.append(f"untaxed Lnds kept as {s.untaxed}, counted {count_untaxed(s)}")
    ec = s.ecounts
    if ec is not None:
        for h in range(104):
            if (ec[h] is not None) != bool(s.enhs.get(h)):
                out.append(f"{card_text(h)}: counts kept {'without' if ec[h] is None else 'with'}"
                           " Enhs on it")
            elif counts(s, h) != entity_counts(s, h):
                out.append(f"{card_text(h)}: counts kept as {counts(s, h)}, "
                           f"counted {entity_counts(s, h)}")
            elif kept_keys(s)[h] != (NO_ENH if ec[h] is None else expel_situation(h, counts(s, h))):
                out.append(f"{card_text(h)}: expel situation kept as {kept_keys(s)[h]}")
    m = s.marked
    noted = [set(m[0]), set(m[1]), set(m[2])] if m is not None else None
    in_play = set(s.home[0] + s.home[1] + s.field[0] + s.field[1])
    for cid in range(104):
        taxed = s.taxed[cid]
        changed = (s.inactive[cid] or s.damage[cid] or s.terminal[cid] or s.pwr_mod[cid]
                   or s.tgh_mod[cid])
        if (taxed != NONE or changed) and cid not in in_play:
            out.append(f"{card_text(cid)} of {rlr(OWNER[cid])} has a status out of play")
        if noted is not None and taxed != NONE and cid not in noted[taxed]:
            out.append(f"{card_text(cid)} of {rlr(OWNER[cid])} is taxed but not marked")
        if noted is not None and changed and cid not in noted[CHANGED]:
            out.append(f"{card_text(cid)} of {rlr(OWNER[cid])} has a status not marked")
    return out


# -- Cre status ------------------------------------------------------------------------------


def pwr(s: State, cid: int) -> int:
    """Damage a Cre deals: nothing while inactive or taxed (rules 703, 704)."""
    if s.inactive[cid] or s.taxed[cid] != NONE:
        return 0
    return max(0, PWR_OF[cid] + s.pwr_mod[cid])


def tgh(s: State, cid: int) -> int:
    return TGH_OF[cid] + s.tgh_mod[cid]


def tax(s: State, cid: int) -> None:
    """Turn a card; it untaxes at the start of the phasing Rlr's next turn (R4)."""
    t = s.untaxed
    if t is not None and C_KIND[cid] is LND and s.taxed[cid] == NONE:
        bump(t, OWNER[cid] * 4 + lnd_yield(s, cid), -1)
    s.taxed[cid] = s.phasing
    mark(s, cid, s.phasing)


#: Where :func:`mark` notes a card whose status other than taxed is set.
CHANGED: Final = 2


def mark(s: State, cid: int, slot: int = CHANGED) -> None:
    """Note that ``cid``'s status is set, so that the start of a turn looks at it: taxed on
    Rlr ``slot``'s turn (untaxed at the start of their next turn, R4), or made inactive,
    damaged, Sallied or Harried (``CHANGED``: cleared at the next start of a turn, R5, R12)."""
    marked = s.marked
    if marked is not None:
        marked[slot].append(cid)


def untax_all(s: State, p: int, cards: list[int]) -> int:
    """The untax step (304.1, R4): every card of ``cards`` still taxed on ``p``'s turn untaxes
    (the others untaxed already or left play since). A Lnd in Home counts again among the
    untaxed Lnds of the suit it yields. Returns how many untaxed."""
    taxed = s.taxed
    kept = s.untaxed
    trump = s.trump  # an untax changes no yield: read once
    counts = kept_counts(s)
    n = 0
    for cid in cards:
        if taxed[cid] == p:
            if kept is not None and C_KIND[cid] is LND:
                bump(kept, OWNER[cid] * 4 + yield_under(cid, trump, counts), 1)
            taxed[cid] = NONE
            n += 1
    return n


def deal_damage(s: State, cid: int, amount: int, cause: str, by: int = NONE) -> None:
    """Mark damage on a Cre; at its Tgh it becomes terminal but stays until untax (R12).
    ``cause`` is "combat", "Domain bonus" or "Volley" (``by`` the Volley's user)."""
    if amount <= 0:
        return
    s.own(COMBAT_STATUS)
    damage = s.damage
    damage[cid] = damage[cid] + amount
    mark(s, cid)
    terminal = 0
    if damage[cid] >= tgh(s, cid) and not s.terminal[cid]:
        s.terminal[cid] = 1
        terminal = 1
    if s.log is not None:
        emit(s, "damage", cards=(cid,) if by == NONE else (cid, by),
             amounts=(amount, terminal), rule="1007", detail=cause)


def damage_rlr(s: State, p: int, amount: int, cause: str, rule: str,
               why: Comparison | None = None, by: int = NONE) -> None:
    """``p`` loses life; ``cause`` is "attackers", "unblocked" or "expel" (``by`` the expel;
    :data:`parlor.rules.events.LIFE_CAUSES`)."""
    if amount <= 0:
        return
    s.life[p] -= amount
    if s.log is not None:
        emit(s, "life", p, () if by == NONE else (by,), (amount, s.life[p]), rule, cause,
             why=why)


# -- moving cards -----------------------------------------------------------------------------


def to_pile(s: State, cid: int, discard: bool, face_up: bool = True) -> None:
    """Put a card on its owner's Discard or Recycle pile (R19, R24)."""
    owner = OWNER[cid]
    if discard:
        s.discard[owner].append(cid)
    else:
        s.recycle[owner].append(cid)
        if face_up:
            s.public_recycle[owner].add(cid)


def clear_status(s: State, cid: int) -> None:
    s.taxed[cid] = NONE
    s.inactive[cid] = 0
    if s.damage[cid] or s.terminal[cid] or s.pwr_mod[cid] or s.tgh_mod[cid]:
        clear_combat_status(s, cid)


def clear_combat_status(s: State, cid: int) -> None:
    """Damage, terminal and Sally or Harry changes end (R12, R28)."""
    s.own(COMBAT_STATUS)
    s.damage[cid] = s.terminal[cid] = s.pwr_mod[cid] = s.tgh_mod[cid] = 0


def enter_home(s: State, lnd: int) -> None:
    """A Lnd played to its owner's Home, untaxed and bare (R6)."""
    s.home[OWNER[lnd]].append(lnd)
    t = s.untaxed
    if t is not None:
        bump(t, OWNER[lnd] * 4 + C_SUIT[lnd], 1)


def attach(s: State, e: int, target: int) -> None:
    """Put Enh ``e`` on a Cre or Lnd, a Domain or the Trumps stack (R18)."""
    s.host[e] = target
    if target == STACK:
        before = s.trump
        s.stack.append(e)
        s.restack()
        if s.trump != before:
            s.untaxed = None  # every Lnd's yield may change: count afresh
    elif target in DOMAIN:
        s.domain[DOMAIN.index(target)].append(e)
    else:
        _on_host(s, target, e, add=True)


def _on_host(s: State, host: int, e: int, add: bool) -> None:
    """Add or take Enh ``e`` on ``host``, keeping its counts and (a Lnd) its yield."""
    t = s.untaxed
    lnd = t is not None and C_KIND[host] is LND and s.taxed[host] == NONE
    old = lnd_yield(s, host) if lnd else 0
    if add:
        s.enhs.setdefault(host, []).append(e)
    else:
        s.enhs[host].remove(e)
    _recount_entity(s, host)  # first: the yield is read from the kept counts
    if lnd:
        new = lnd_yield(s, host)
        if new != old:
            assert t is not None
            base = OWNER[host] * 4
            bump(t, base + old, -1)
            bump(t, base + new, 1)


def leave_play(s: State, cid: int, discard: bool) -> None:
    """Take a card off the table with the Enhs on it, each to its owner's pile of the same
    kind (R19); a Cre also leaves any combat (R15)."""
    kind = C_KIND[cid]
    owner = OWNER[cid]
    if kind is ENH:
        where = s.host.pop(cid)
        if where == STACK:
            before = s.trump
            s.stack.remove(cid)
            s.restack()
            if s.trump != before:
                s.untaxed = None
        elif where in DOMAIN:
            s.domain[DOMAIN.index(where)].remove(cid)
        else:
            _on_host(s, where, cid, add=False)
    else:
        t = s.untaxed
        if t is not None and kind is LND and s.taxed[cid] == NONE:
            bump(t, owner * 4 + lnd_yield(s, cid), -1)
        (s.field if kind is CRE else s.home)[owner].remove(cid)
        for e in s.enhs.pop(cid, ()):
            del s.host[e]
            to_pile(s, e, discard)
        ec = s.ecounts
        if ec is not None and ec[cid] is not None:
            _own_counts(s)
            ec, keys = s.ecounts, s.ekeys
            assert ec is not None and keys is not None
            ec[cid] = None
            keys[cid] = NO_ENH
        if s.combat is not None:
            leave_combat(s, cid)
    clear_status(s, cid)
    to_pile(s, cid, discard)


def leave_combat(s: State, cid: int) -> None:
    cb = s.combat
    assert cb is not None
    if cid in cb.blocking:
        attacker = cb.blocking.pop(cid)
        if attacker != NONE:  # NONE: its attacker has already left the combat
            cb.blockers[attacker].remove(cid)
    if cid in cb.blockers:
        for b in cb.blockers.pop(cid):
            cb.blocking[b] = NONE  # still a participant, blocking nobody (R15)
    if cid in cb.attackers:
        cb.attackers.remove(cid)
    cb.pending.pop(cid, None)
    if cid in cb.bonus_to:
        cb.bonus_to.remove(cid)


def draw_one(s: State, p: int) -> int | None:
    """The top card of the Draw pile, reshuffling the Recycle pile in when Draw is empty and a
    card is needed (R29); None when both are depleted."""
    if not s.draw[p]:
        if not s.recycle[p]:
            return None
        s.draw[p] = s.recycle[p]
        s.recycle[p] = []
        s.public_recycle[p].clear()
        shuffle(s, s.draw[p])
        if s.log is not None:
            emit(s, "reshuffle", p, amounts=(len(s.draw[p]),), rule="307")
    return s.draw[p].pop()


def suit_name(suit: int) -> str:
    return SUIT_NAME[suit]

