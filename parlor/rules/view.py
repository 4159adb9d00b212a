"""What one Rlr may see (R30), and full states resampled from it for search.

:func:`view` is a projection: two states that differ only in cards hidden from ``player``
give equal views. Nothing hidden leaves in it, not even as a card id: hidden zones are
counts. :func:`resample` builds a full state that agrees with a view, filling the hidden
cards at random (OpenSpiel's ``resample_from_infostate``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, fields
from operator import itemgetter
from typing import Any

from parlor.rules.cards import Card
from parlor.rules.ranking import Comparison
from parlor.rules.state import (
    DOMAIN,
    N_CARDS,
    NONE,
    PWR_OF,
    STACK,
    TGH_OF,
    Combat,
    Phase,
    Settings,
    State,
    card_text,
    ref_text,
)
from parlor.rules.trail import PublicStep, public_step
from parlor.rules.values import Value

#: The viewer of :func:`view` who plays neither side: a spectator sees both sides as an
#: opponent does (no Hand, no Draw order, no drawn cards) and the public log sentences (R30).
SPECTATOR = -1


@dataclass(frozen=True, slots=True)
class TableCard(Value):
    """A Lnd or Cre on the table with its Enhs and status, as anyone sees it."""

    ref: str  # owner-qualified, "2:KS"
    card: str  # "KS"
    enhs: tuple[str, ...]  # owner-qualified Enhs on it, in play order
    text: str  # "KS/4S"
    taxed_on: int | None  # the Rlr (1/2) on whose turn it was taxed
    inactive: bool = False
    damage: int = 0
    terminal: bool = False
    pwr: int = 0
    tgh: int = 0

    def __reduce__(self) -> tuple[Any, ...]:
        """:class:`Value`'s, its fields written out (tests/rules/test_view_text.py holds
        them equal): ``Value.__reduce__`` asks ``dataclasses.fields`` at each call, and a
        computer's view goes to its process pool pickled, 23 table cards at step 500."""
        return (TableCard, (self.ref, self.card, self.enhs, self.text, self.taxed_on,
                            self.inactive, self.damage, self.terminal, self.pwr, self.tgh))


@dataclass(frozen=True, slots=True)
class SideView(Value):
    """One Rlr's half of the spread."""

    life: int
    pool: tuple[int, int, int, int]
    hand: tuple[str, ...] | None  # None when hidden from the viewer
    hand_count: int
    draw_count: int
    recycle_count: int
    recycle_known: tuple[str, ...]  # face-up cards there, or all of them for their owner
    recycle_face_up: tuple[str, ...]  # put there face up by an expel: known to both
    discard: tuple[str, ...] | None  # None when closed (match play)
    discard_count: int
    home: tuple[TableCard, ...]
    field: tuple[TableCard, ...]
    domain: tuple[str, ...]  # owner-qualified Enhs

    def __reduce__(self) -> tuple[Any, ...]:
        """:class:`Value`'s, its fields written out, as :meth:`TableCard.__reduce__`."""
        return (SideView, (self.life, self.pool, self.hand, self.hand_count, self.draw_count,
                           self.recycle_count, self.recycle_known, self.recycle_face_up,
                           self.discard, self.discard_count, self.home, self.field,
                           self.domain))


@dataclass(frozen=True, slots=True)
class CombatView(Value):
    attackers: tuple[str, ...]
    blocks: tuple[tuple[str, str], ...]  # (blocker, attacker or "-")
    blocked: tuple[str, ...]
    used: tuple[str, ...]
    pending: tuple[tuple[str, int], ...]
    split: tuple[str, ...]
    split_left: int
    bonus_left: int
    bonus_to: tuple[str, ...]
    o_dealt: bool


@dataclass(frozen=True, slots=True)
class View(Value):
    """The game as ``player`` (0 or 1) sees it."""

    player: int
    settings: Settings
    turn: int
    phasing: int
    phase: str
    actor: int
    trump: str | None  # suit letter
    stack: tuple[str, ...]  # owner-qualified, bottom to top
    sides: tuple[SideView, SideView]
    drawn: tuple[str, ...] | None  # the phasing Rlr's drawn cards (None if hidden)
    drawn_count: int
    lnd_played: bool
    redrawn: bool
    combat: CombatView | None
    legal: tuple[str, ...]  # the viewer's legal actions, when it is the viewer's decision
    winner: int | None
    result: str
    log: tuple[str, ...] = field(default=(), compare=False)
    #: Aligned with ``log``: the comparison behind each ranking decision (None elsewhere).
    log_why: tuple[Comparison | None, ...] = field(default=(), compare=False)
    #: The public trail of the game so far (parlor.rules.trail), as this viewer may see it:
    #: every Rlr's decisions, the cards hidden from the viewer left out (107.1). Empty for
    #: a position set up from text, and in match play (players rely on memory there, 109).
    #: For the computer opponents; not sent to browsers.
    trail: tuple[PublicStep, ...] = field(default=(), compare=False)

    def __reduce__(self) -> tuple[Any, ...]:
        """As :class:`Value`'s, the trail sent as plain tuples, a column per field of its
        steps: a computer's view goes to its process pool pickled, and a NamedTuple
        pickles through a Python call each (its trail has a step per action: 650 of them,
        3 times the time at step 500); columns pickle in half the time of a tuple a step."""
        values = tuple([getattr(self, name) for name in _PICKLED])
        return (_unpickle_view, (values, tuple(zip(*self.trail, strict=True))))

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data."""
        from dataclasses import asdict

        d = asdict(self)
        del d["trail"]  # the agents' reading; a browser has the log
        d["settings"] = str(self.settings)
        return d


#: Every card's face text and table reference, written once: a view names each card it shows
#: (156 names at step 500 of a game, bench/web_reply.py), and ``card_text`` / ``ref_text``
#: (the reference, held equal by tests/rules/test_view_text.py) build each name anew.
CARD_TEXT: tuple[str, ...] = tuple(card_text(c) for c in range(N_CARDS))
REF_TEXT: tuple[str, ...] = tuple(ref_text(c) for c in range(N_CARDS))


def face_names(cids: list[int]) -> tuple[str, ...]:
    """The cards ``cids`` by their faces (a pile, a Hand), as a view names them."""
    return tuple(map(CARD_TEXT.__getitem__, cids))  # a pile grows with the game: C speed


def ref_names(cids: list[int]) -> tuple[str, ...]:
    """The cards ``cids`` by their table references (a domain, a card's Enhs)."""
    return tuple(map(REF_TEXT.__getitem__, cids))


#: The fields of :class:`View` pickled as they are: all but the last, the trail (sent apart,
#: as plain tuples).
_PICKLED: tuple[str, ...] = tuple(f.name for f in fields(View)[:-1])
assert fields(View)[-1].name == "trail"


def _unpickle_view(values: tuple[Any, ...], columns: tuple[tuple[Any, ...], ...]) -> View:
    return View(**dict(zip(_PICKLED, values, strict=True)),
                trail=tuple([PublicStep(*step) for step in zip(*columns, strict=True)]))


#: What a table card shows, all that :func:`make_table_card` reads of the state: the card,
#: its taxed Rlr, inactive, damage, terminal, Pwr and Tgh added, and its Enhs (None: none).
TableKey = tuple[int, int, int, int, int, int, int, tuple[int, ...] | None]

#: The table cards made so far, by what they show (:data:`TableKey`). A card on the table
#: mostly shows the same from one view to the next, and making a frozen TableCard costs ten
#: times finding it (3.6 against 0.3 microseconds, compiled): a late table of 23 cards was
#: most of a view's cost, so a view made at each move cost more the longer the game ran.
#: Values, made from the key alone, and public (a table card is seen by both Rlrs), so one
#: table serves every game and viewer; cleared when full, so that it stays bounded.
_TABLE_CARDS: dict[TableKey, TableCard] = {}
TABLE_CARDS_KEPT = 20_000


def _table_card(s: State, cid: int) -> TableCard:
    """``make_table_card(s, cid)`` (the reference, held equal by tests/rules/test_view.py),
    made once for what it shows and then found."""
    on = s.enhs.get(cid)
    key: TableKey = (cid, s.taxed[cid], s.inactive[cid], s.damage[cid], s.terminal[cid],
                     s.pwr_mod[cid], s.tgh_mod[cid], tuple(on) if on else None)
    tc = _TABLE_CARDS.get(key)
    if tc is None:
        if len(_TABLE_CARDS) >= TABLE_CARDS_KEPT:
            _TABLE_CARDS.clear()
        tc = _TABLE_CARDS[key] = make_table_card(s, cid)
    return tc


#: A zone's table cards (a Home or a Field), by what they show: the zone's cards in order,
#: their status columns (each read for all of them at once, at C speed, by an
#: ``itemgetter``) and the Enhs on the table. A late table holds 20 cards or more, most of
#: them showing the same from one view to the next: finding each card by its own key
#: (:func:`_table_card`) cost a view 1 microsecond a card, so a view cost more the more
#: cards lay on the table; a zone found whole costs about the same for 2 cards as for 20.
#: Public values, as :data:`_TABLE_CARDS`; cleared when full.
_ZONES: dict[tuple[Any, ...], tuple[TableCard, ...]] = {}
ZONES_KEPT = 5_000


def table_zone(s: State, cards: list[int]) -> tuple[TableCard, ...]:
    """``tuple(make_table_card(s, c) for c in cards)`` (the reference, held equal by
    tests/rules/test_view_text.py), found whole when the zone shows what it showed before
    (:data:`_ZONES`)."""
    if not cards:
        return ()
    got = itemgetter(*cards)  # one card: its value, not a 1-tuple (the cards tell which)
    enhs = s.enhs
    key = (tuple(cards), got(s.taxed), got(s.inactive), got(s.damage), got(s.terminal),
           got(s.pwr_mod), got(s.tgh_mod),
           # every host's Enhs (a few): a zone's cards are among the hosts
           tuple([(h, tuple(on)) for h, on in enhs.items() if on]) if enhs else ())
    zone = _ZONES.get(key)
    if zone is None:
        if len(_ZONES) >= ZONES_KEPT:
            _ZONES.clear()
        zone = _ZONES[key] = tuple([_table_card(s, c) for c in cards])
    return zone


def make_table_card(s: State, cid: int) -> TableCard:
    """Card ``cid`` on the table of ``s``, as anyone sees it."""
    t = s.taxed[cid]
    on = s.enhs.get(cid)
    return TableCard(
        ref=REF_TEXT[cid],
        card=CARD_TEXT[cid],
        enhs=ref_names(on) if on else (),
        # entity_text(s, cid) for a card on the table: its face and its Enhs' faces
        text="/".join([CARD_TEXT[cid], *[CARD_TEXT[e] for e in on]]) if on
        else CARD_TEXT[cid],
        taxed_on=None if t == NONE else t + 1,
        inactive=bool(s.inactive[cid]),
        damage=s.damage[cid],
        terminal=bool(s.terminal[cid]),
        pwr=PWR_OF[cid] + s.pwr_mod[cid],
        tgh=TGH_OF[cid] + s.tgh_mod[cid],
    )


def recycle_face_up(s: State, q: int) -> list[int]:
    """The cards of Rlr ``q``'s recycle pile that both Rlrs have seen, in card order."""
    return sorted(s.public_recycle[q].intersection(s.recycle[q]))


def make_side(s: State, q: int, viewer: int,
              zones: tuple[tuple[TableCard, ...], tuple[TableCard, ...]] | None = None
              ) -> SideView:
    """Rlr ``q``'s half of the table as ``viewer`` sees it. What it reads of ``s`` is
    listed by parlor.web.games.side_reads (which keeps a side while those read the same):
    a new read here goes there too (tests/web/test_reply_cache.py holds them together).
    ``zones``, when given, are its Home and Field as a caller knows them to be now
    (parlor.web.games.kept_sides: a side whose Hand or life changed, its table not)."""
    own = q == viewer
    face_up = recycle_face_up(s, q)
    closed = s.settings.match_play
    return SideView(
        life=s.life[q],
        pool=(s.pool[q][0], s.pool[q][1], s.pool[q][2], s.pool[q][3]),
        hand=face_names(s.hand[q]) if own else None,
        hand_count=len(s.hand[q]),
        draw_count=len(s.draw[q]),
        recycle_count=len(s.recycle[q]),
        recycle_known=face_names(sorted(s.recycle[q]) if own else face_up),
        recycle_face_up=face_names(face_up),
        discard=None if closed else face_names(s.discard[q]),
        discard_count=len(s.discard[q]),
        home=table_zone(s, s.home[q]) if zones is None else zones[0],
        field=table_zone(s, s.field[q]) if zones is None else zones[1],
        domain=ref_names(s.domain[q]),
    )


def make_combat(cb: Combat) -> CombatView:
    """The combat as anyone sees it. What it reads of ``cb`` is listed by
    parlor.web.games.combat_reads (which keeps a combat's view while those read the same):
    a new read here goes there too."""
    return CombatView(
        attackers=ref_names(cb.attackers),
        blocks=tuple([(REF_TEXT[b], "-" if a == NONE else REF_TEXT[a])
                      for b, a in cb.blocking.items()]),
        blocked=ref_names(sorted(cb.blocked)),
        used=ref_names(sorted(cb.used)),
        pending=tuple([(REF_TEXT[c], n) for c, n in sorted(cb.pending.items())]),
        split=ref_names(cb.split_queue),
        split_left=cb.split_left,
        bonus_left=cb.bonus_left,
        bonus_to=ref_names(cb.bonus_to),
        o_dealt=cb.o_dealt,
    )


def view(s: State, player: int, log: bool = True, trail: bool = True,
         sides: tuple[SideView, SideView] | None = None,
         combat: CombatView | None = None) -> View:
    """Everything ``player`` may see now, and nothing else (R30); ``player`` may be
    :data:`SPECTATOR`, who sees only what is public. ``log=False`` leaves the
    game log out (callers that already hold it need not rebuild it every move);
    ``trail=False`` leaves the trail out (a table sent to a browser, which never carries
    it). Both grow with the game, so a caller that does not read them pays for neither.
    ``sides``, when given, are ``make_side(s, 0, player)`` and ``make_side(s, 1, player)``,
    kept by the caller from an earlier view whose sides read the same (the web's replies:
    parlor.web.games.kept_sides); ``combat``, when given and ``s`` has a combat, is
    ``make_combat(s.combat)``, likewise kept (parlor.web.games.kept_combat)."""
    from parlor.rules.engine import legal_actions

    own_draw = s.phasing == player
    return View(
        player=player,
        settings=s.settings,
        turn=s.turn,
        phasing=s.phasing,
        phase=s.phase.name.lower(),
        actor=s.actor,
        trump=None if s.trump is None else "CDHS"[s.trump],
        stack=ref_names(s.stack),
        sides=(make_side(s, 0, player), make_side(s, 1, player)) if sides is None else sides,
        drawn=face_names(s.drawn) if own_draw else None,
        drawn_count=len(s.drawn),
        lnd_played=s.lnd_played,
        redrawn=s.redrawn,
        combat=None if not s.combat else make_combat(s.combat) if combat is None else combat,
        legal=tuple([str(a) for a in legal_actions(s)]) if s.actor == player else (),
        winner=s.winner,
        result=s.result,
        log=tuple(e.text_for(player) for e in s.log or ()) if log else (),
        log_why=tuple(e.why for e in s.log or ()) if log else (),
        trail=(tuple(public_step(st, player) for st in s.trail)
               if trail and s.trail and not s.settings.match_play else ()),
    )


# -- resampling ---------------------------------------------------------------------------------


def resample(v: View, rng: random.Random) -> State:
    """A full state consistent with view ``v``: public zones as shown, hidden cards dealt at
    random into the hidden zones with the sizes the view shows."""
    from parlor.rules.actions import parse_ref

    s = State(v.settings, shuffle_seed=rng.getrandbits(64))
    s.log = None
    s.turn, s.phasing, s.actor = v.turn, v.phasing, v.actor
    s.phase = Phase[v.phase.upper()]
    s.lnd_played, s.redrawn = v.lnd_played, v.redrawn
    s.winner, s.result = v.winner, v.result
    seen: set[int] = set()
    for e in v.stack:
        cid = parse_ref(e)
        s.stack.append(cid)
        s.host[cid] = STACK
    s.restack()
    for q, side in enumerate(v.sides):
        _place_side(s, q, side)
    if v.drawn is not None:
        s.drawn = [_face(v.phasing, c) for c in v.drawn]
    for zone in (s.stack, *s.home, *s.field, *s.domain, *s.discard, *s.hand, *s.recycle,
                 s.drawn, *(es for es in s.enhs.values())):
        seen.update(zone)
    if v.combat is not None:
        s.combat = _combat_from(v.combat)
    _deal_hidden(s, v, rng, seen)
    return s


def _face(owner: int, text: str) -> int:
    """The card id of a face (``"7H"``) of ``owner``'s deck."""
    return owner * 52 + Card.parse(text).index


def _place_side(s: State, q: int, side: SideView) -> None:
    """Player ``q``'s public zones, and the hidden ones the view shows, into ``s``."""
    from parlor.rules.actions import parse_ref

    s.life[q] = side.life
    s.pool[q] = list(side.pool)
    for zone, cards in ((s.home[q], side.home), (s.field[q], side.field)):
        for tc in cards:
            cid = parse_ref(tc.ref)
            zone.append(cid)
            s.taxed[cid] = NONE if tc.taxed_on is None else tc.taxed_on - 1
            s.inactive[cid], s.damage[cid], s.terminal[cid] = (
                int(tc.inactive), tc.damage, int(tc.terminal))
            s.pwr_mod[cid] = tc.pwr - PWR_OF[cid]
            s.tgh_mod[cid] = tc.tgh - TGH_OF[cid]
            for e in tc.enhs:
                ecid = parse_ref(e)
                s.enhs.setdefault(cid, []).append(ecid)
                s.host[ecid] = cid
    for e in side.domain:
        ecid = parse_ref(e)
        s.domain[q].append(ecid)
        s.host[ecid] = DOMAIN[q]
    if side.discard is not None:
        s.discard[q] = [_face(q, c) for c in side.discard]
    if side.hand is not None:
        s.hand[q] = [_face(q, c) for c in side.hand]
    s.recycle[q] = [_face(q, c) for c in side.recycle_known]
    s.public_recycle[q] = {_face(q, c) for c in side.recycle_face_up}


def _deal_hidden(s: State, v: View, rng: random.Random, seen: set[int]) -> None:
    """The cards not ``seen`` dealt at random into each side's hidden zones, sized as the
    view shows them; the rest is the side's draw pile."""
    for q, side in enumerate(v.sides):
        unknown = [c for c in range(q * 52, q * 52 + 52) if c not in seen]
        rng.shuffle(unknown)
        if side.hand is None:
            s.hand[q], unknown = unknown[: side.hand_count], unknown[side.hand_count:]
        if v.drawn is None and q == v.phasing:
            s.drawn, unknown = unknown[: v.drawn_count], unknown[v.drawn_count:]
        hidden_recycle = side.recycle_count - len(s.recycle[q])
        s.recycle[q] += unknown[:hidden_recycle]
        unknown = unknown[hidden_recycle:]
        if side.discard is None:
            s.discard[q], unknown = unknown[: side.discard_count], unknown[side.discard_count:]
        s.draw[q] = unknown


def _combat_from(cv: CombatView) -> Combat:
    from parlor.rules.actions import parse_ref

    cb = Combat()
    cb.attackers = [parse_ref(a) for a in cv.attackers]
    for b, a in cv.blocks:
        bc = parse_ref(b)
        ac = NONE if a == "-" else parse_ref(a)
        cb.blocking[bc] = ac
        if ac != NONE:
            cb.blockers.setdefault(ac, []).append(bc)
    cb.blocked = {parse_ref(a) for a in cv.blocked}
    cb.used = {parse_ref(u) for u in cv.used}
    cb.pending = {parse_ref(c): n for c, n in cv.pending}
    cb.split_queue = [parse_ref(a) for a in cv.split]
    cb.split_left, cb.bonus_left = cv.split_left, cv.bonus_left
    cb.bonus_to = [parse_ref(c) for c in cv.bonus_to]
    cb.o_dealt = cv.o_dealt
    return cb


__all__ = ["SPECTATOR", "View", "resample", "view"]
