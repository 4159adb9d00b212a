"""Observation strings and tensors, built from ``view(state, player)`` alone (R30).

The reference reads no engine state: every function takes a
:class:`~parlor.rules.view.View`, so two states that look the same to a Rlr give that Rlr the
same string and the same tensor, whatever the hidden cards are. One fast path,
:func:`fill_state_tensor`, writes the same tensor from the state at a cost independent of the
game's length; tests/research/test_observe_fast.py holds it equal to :func:`fill_tensor` of
the view at every step of random games, so it shows no more than the view.

**The tensor** (float32, :data:`OBS_SIZE` = 104 x 28 + 48 = 2,960 numbers) is seen from the
viewer's side: *mine* first, then *the opponent's*.

* ``cards`` (104 x 28): one row per physical card, the viewer's 52 (face order ``AC`` … ``KS``)
  then the opponent's 52. Columns:

  - 0-10 where the viewer sees it (one-hot): Hand, drawn (awaiting keep), Home, Field,
    my Domain, the opponent's Domain, on a Lnd/Cre (an Enh), the Trumps stack, a Recycle pile
    where the viewer knows it (all of the viewer's own, face-up cards of the opponent's),
    Discard (when open), hidden (anywhere the viewer cannot see: a Hand, Draw pile, a
    face-down Recycle card, a closed Discard);
  - 11 face up in a Recycle pile (known to both);
  - 12-18 status on the table: taxed on my turn, taxed on the opponent's turn, inactive,
    terminal, damage / 10, Pwr / 10, Tgh / 10;
  - 19-24 combat: attacking, blocking, was blocked, used an ability, may take bonus points,
    waits for its Pwr to be split;
  - 25-26 for an Enh on a Lnd/Cre: 1 when the host is mine, and (host face + 1) / 52;
  - 27 position in the Trumps stack: (index from the bottom + 1) / 10.

* ``globals`` (48): for me then the opponent, life / 20, the pool's four suits / 10, Hand,
  Draw, Recycle and Discard counts / 52 (9 each); the turn / the turn limit; the phase
  (one-hot, 12: ``trim keep window1 attack block ability_p ability_o window2 split bonus
  domain_bonus over``); I decide now; I am the phasing Rlr; the trump suit (one-hot ``C D H
  S`` or none, 5); drawn cards / 2; a Lnd was played this turn; the phasing Rlr Redrew;
  points left to split / 10; bonus points left / 10; the opponent was dealt damage this
  combat; the winner is me / the opponent / nobody (only once the game is over, 3); match
  play.

**The strings**: :func:`observation_string` writes the view in the notation of
docs/notation.md, one zone a line; :func:`information_state_string` puts the game log as the
viewer read it (every event, with the viewer's private wording: "You draw 5H") before it,
so it recalls everything the viewer has seen.

**Privacy** (OpenSpiel's observation types, :class:`parlor.research.spiel.ParlorObserver`):
a public observation is these functions on the spectator's view (``view(s, SPECTATOR)``,
which holds nobody's Hand, drawn or face-down Recycle cards), oriented to the observer;
:func:`private_cards` are what only a view's own Rlr sees, and :func:`fill_private_tensor`
and :func:`private_string` show them alone.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from parlor.rules.cards import CARDS
from parlor.rules.state import PWR_OF, TGH_OF, Combat, State, ref_text
from parlor.rules.view import SPECTATOR, SideView, TableCard, View

CARD_FEATURES = 28
GLOBAL_FEATURES = 48
OBS_SIZE = 104 * CARD_FEATURES + GLOBAL_FEATURES
PHASES = ("trim", "keep", "window1", "attack", "block", "ability_p", "ability_o", "window2",
          "split", "bonus", "domain_bonus", "over")

HAND, DRAWN, HOME, FIELD, MY_DOMAIN, OPP_DOMAIN, ON_HOST, STACK, RECYCLE, DISCARD, HIDDEN = (
    range(11))
FACE_UP, TAXED_MINE, TAXED_OPP, INACTIVE, TERMINAL, DAMAGE, PWR, TGH = range(11, 19)
ATTACKING, BLOCKING, BLOCKED, USED, BONUS_TO, SPLIT, HOST_MINE, HOST_FACE, STACK_POS = (
    range(19, 28))

Tensor = npt.NDArray[np.float32]


def new_tensor() -> Tensor:
    return np.zeros(OBS_SIZE, np.float32)


#: The view writes cards in their canonical text (``card_text``, ``ref_text``); these tables
#: read them back without parsing (a text outside them is a fault and raises KeyError).
FACE_INDEX: dict[str, int] = {str(c): c.index for c in CARDS}
REF_CID: dict[str, int] = {ref_text(cid): cid for cid in range(104)}


def _row(v: View, owner: int, face: str) -> int:
    """The tensor row of the card ``face`` owned by Rlr ``owner`` (0/1): mine first."""
    return (0 if owner == v.player else 52) + FACE_INDEX[face]


def _ref_row(v: View, ref: str) -> int:
    """The row of an owner-qualified card (``2:KS``)."""
    cid = REF_CID[ref]
    return (0 if cid // 52 == v.player else 52) + cid % 52


class _Cells:
    """The tensor's non-zero cells as flat indices, gathered first and written in two numpy
    assignments (numpy cell by cell costs more than building the view)."""

    __slots__ = ("ones", "placed", "vals", "where")

    def __init__(self) -> None:
        self.placed = [False] * 104  # rows in a zone the viewer sees
        self.ones: list[int] = []
        self.where: list[int] = []
        self.vals: list[float] = []

    def place(self, row: int, zone: int) -> None:
        self.placed[row] = True
        self.ones.append(row * CARD_FEATURES + zone)

    def set(self, row: int, col: int, value: float) -> None:
        if value:
            self.where.append(row * CARD_FEATURES + col)
            self.vals.append(value)


def fill_tensor(v: View, out: Tensor) -> None:
    """Write the tensor of view ``v`` into ``out`` (length :data:`OBS_SIZE`)."""
    cells = _Cells()
    me = v.player
    for q, side in enumerate(v.sides):
        for zone, faces in ((HAND, side.hand or ()), (RECYCLE, side.recycle_known),
                            (DISCARD, side.discard or ())):
            for f in faces:
                cells.place(_row(v, q, f), zone)
        for f in side.recycle_face_up:
            cells.set(_row(v, q, f), FACE_UP, 1.0)
        for zone, table in ((HOME, side.home), (FIELD, side.field)):
            for tc in table:
                _table_card(v, cells, tc, zone)
        for e in side.domain:
            cells.place(_ref_row(v, e), MY_DOMAIN if q == me else OPP_DOMAIN)
    for f in v.drawn or ():
        cells.place(_row(v, v.phasing, f), DRAWN)
    for i, e in enumerate(v.stack):
        row = _ref_row(v, e)
        cells.place(row, STACK)
        cells.set(row, STACK_POS, (i + 1) / 10)
    if v.combat is not None:
        cb = v.combat
        for col, refs in ((ATTACKING, cb.attackers), (BLOCKING, tuple(b for b, _ in cb.blocks)),
                          (BLOCKED, cb.blocked), (USED, cb.used), (BONUS_TO, cb.bonus_to),
                          (SPLIT, cb.split)):
            for r in refs:
                cells.set(_ref_row(v, r), col, 1.0)
    ones = cells.ones
    ones += [r * CARD_FEATURES + HIDDEN for r in range(104) if not cells.placed[r]]
    out.fill(0.0)
    out[ones] = 1.0
    out[cells.where] = cells.vals
    _fill_globals(v, out[104 * CARD_FEATURES:])


# -- the fast path: the same tensor read from the state ---------------------------------------

#: What divides each column's small integer into the tensor's number (the reference's
#: ``x / 10``, ``(face + 1) / 52``): the fast path writes integers and divides once, in
#: float32, which gives the reference's numbers for every int8 (checked for all 256 by
#: tests/research/test_observe_fast.py).
_DIVISOR = np.ones((CARD_FEATURES, 1), np.float32)
_DIVISOR[[DAMAGE, PWR, TGH, STACK_POS]] = 10.0
_DIVISOR[HOST_FACE] = 52.0
_PWR_OF = np.array(PWR_OF, np.int8)  # Pwr and Tgh printed on each card, cid order
_TGH_OF = np.array(TGH_OF, np.int8)
#: A status byte read as a flag (the reference's ``bool``), and a taxed byte (the taxing
#: Rlr, 0xFF for none) as "taxed on the viewer's turn" / "on the opponent's", by viewer.
_FLAG = bytes([0] + [1] * 255)
_TAXED_ON = tuple(bytes(1 if b == q else 0 for b in range(256)) for q in (0, 1))
_OVER = PHASES.index("over")


def fill_state_tensor(s: State, player: int, out: Tensor,
                      shown: tuple[bool, bool]) -> None:
    """The tensor :func:`fill_tensor` writes, read from the state: ``player`` (0/1) is the
    orientation (mine first) and ``shown[q]`` says whether Rlr ``q``'s private cards (its
    Hand, its drawn cards, the face-down cards of its Recycle pile) show. ``shown`` with
    only ``player``'s is ``fill_tensor(view(s, player))``; none is the public observation
    (the spectator's view oriented to ``player``); both, everything but the Draw piles.

    The fast path beside the reference: tests/research/test_observe_fast.py holds the two
    equal at every step of random games, for each ``shown``, so privacy is the view's
    (R30). Its cost does not grow with the game: each of the 104 cards has its zone written
    once, wherever it lies (the hidden ones too), and the status columns are copied whole
    from the state's per-card lists (C-level byte copies) and masked to the table in numpy,
    rather than written card by card for the cards on the table (which a late game has many
    of). The cells are small integers in a byte matrix, a row per column in card order,
    turned into the tensor's numbers by one division."""
    cells = bytearray(CARD_FEATURES * 104)  # cells[col * 104 + cid]
    _zones(s, player, shown, cells)
    for col, flags in ((INACTIVE, s.inactive), (TERMINAL, s.terminal)):
        cells[col * 104:(col + 1) * 104] = bytes(flags).translate(_FLAG)
    cells[DAMAGE * 104:(DAMAGE + 1) * 104] = bytes(s.damage)
    # the taxing Rlr (-1 for none) and the Sally/Harry changes may be negative: signed bytes
    taxed = array("b", s.taxed).tobytes()
    cells[TAXED_MINE * 104:(TAXED_MINE + 1) * 104] = taxed.translate(_TAXED_ON[player])
    cells[TAXED_OPP * 104:(TAXED_OPP + 1) * 104] = taxed.translate(_TAXED_ON[1 - player])
    for col, values in ((PWR, s.pwr_mod), (TGH, s.tgh_mod)):
        cells[col * 104:(col + 1) * 104] = array("b", values).tobytes()
    if s.combat is not None:
        _combat_cells(s.combat, cells)
    m = np.frombuffer(cells, np.int8).reshape(CARD_FEATURES, 104)
    m[PWR] += _PWR_OF
    m[TGH] += _TGH_OF
    m[TAXED_MINE:TGH + 1] *= m[HOME] | m[FIELD]  # status shows on the table only
    rows = out[:104 * CARD_FEATURES].reshape(2, 52, CARD_FEATURES)
    if player == 1:
        rows = rows[::-1]  # the viewer's own cards first
    rows[...] = (m / _DIVISOR).T.reshape(2, 52, CARD_FEATURES)
    _fill_state_globals(s, player, out[104 * CARD_FEATURES:])


def _zones(s: State, player: int, shown: tuple[bool, bool], cells: bytearray) -> None:
    """Each card's zone (columns 0-10, one-hot) and the columns written with it: face up
    (11), the Trumps position (27), the host of an Enh (25-26). Every card costs the same
    one write, wherever it lies (a zone's offset is worked out once, not per card)."""
    hidden, home, field, recycle = HIDDEN * 104, HOME * 104, FIELD * 104, RECYCLE * 104
    face_up = FACE_UP * 104
    discard = hidden if s.settings.match_play else DISCARD * 104
    for q in (0, 1):
        off = HAND * 104 if shown[q] else hidden
        for c in s.hand[q]:
            cells[off + c] = 1
        for c in s.draw[q]:
            cells[hidden + c] = 1
        off = recycle if shown[q] else hidden
        for c in s.recycle[q]:
            cells[off + c] = 1
        # the face-up cards still there (known to both): a set operation, not a test a card
        for c in s.public_recycle[q].intersection(s.recycle[q]):
            cells[off + c] = 0
            cells[recycle + c] = cells[face_up + c] = 1
        for c in s.discard[q]:
            cells[discard + c] = 1
        for c in s.home[q]:
            cells[home + c] = 1
        for c in s.field[q]:
            cells[field + c] = 1
        off = (MY_DOMAIN if q == player else OPP_DOMAIN) * 104
        for c in s.domain[q]:
            cells[off + c] = 1
    off = DRAWN * 104 if shown[s.phasing] else hidden
    for c in s.drawn:
        cells[off + c] = 1
    on_host, host_mine, host_face = ON_HOST * 104, HOST_MINE * 104, HOST_FACE * 104
    for host, enhs in s.enhs.items():
        mine, face = host // 52 == player, host % 52 + 1
        for e in enhs:
            cells[on_host + e] = 1
            cells[host_mine + e] = mine
            cells[host_face + e] = face
    stack, stack_pos = STACK * 104, STACK_POS * 104
    for i, c in enumerate(s.stack, 1):
        cells[stack + c] = 1
        cells[stack_pos + c] = i


def _combat_cells(cb: Combat, cells: bytearray) -> None:
    """Columns 19-24: a handful of cards in one attack, whatever the game's length."""
    lists = (cb.attackers, cb.blocking, cb.blocked, cb.used, cb.bonus_to, cb.split_queue)
    for off, cids in zip(_COMBAT_OFFSETS, lists, strict=True):
        for c in cids:
            cells[off + c] = 1


#: Where each combat list's column starts in the fast path's cells (attackers, blockers,
#: blocked, used an ability, may take bonus points, waits for its Pwr to be split).
_COMBAT_OFFSETS = tuple(col * 104 for col in (ATTACKING, BLOCKING, BLOCKED, USED, BONUS_TO,
                                              SPLIT))


def _fill_state_globals(s: State, player: int, g: Tensor) -> None:
    """:func:`_fill_globals` of the state (the same 48 numbers)."""
    values: list[float] = []
    for q in (player, 1 - player):
        pool = s.pool[q]
        values += (s.life[q] / 20, pool[0] / 10, pool[1] / 10, pool[2] / 10, pool[3] / 10,
                   len(s.hand[q]) / 52, len(s.draw[q]) / 52, len(s.recycle[q]) / 52,
                   len(s.discard[q]) / 52)
    values.append(s.turn / s.settings.max_turns)
    values += _PHASE_HOT[int(s.phase)]
    values += (float(s.actor == player), float(s.phasing == player))
    values += _TRUMP_HOT[4 if s.trump is None else s.trump]
    cb = s.combat
    values += (len(s.drawn) / 2, float(s.lnd_played), float(s.redrawn),
               (cb.split_left if cb else 0) / 10, (cb.bonus_left if cb else 0) / 10,
               float(cb.o_dealt if cb else False))
    over = int(s.phase) == _OVER
    values += (float(over and s.winner == player), float(over and s.winner == 1 - player),
               float(over and s.winner is None), float(s.settings.match_play))
    g[:] = values


def private_cards(v: View) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """What only ``v``'s Rlr sees of its own cards (R30): its Hand, its drawn cards (while it
    is the phasing Rlr) and the face-down cards of its Recycle pile."""
    side = v.sides[v.player]
    drawn = v.drawn if v.drawn is not None and v.phasing == v.player else ()
    up = set(side.recycle_face_up)
    return side.hand or (), drawn, tuple(f for f in side.recycle_known if f not in up)


def fill_private_tensor(me: int, parts: Sequence[View], out: Tensor) -> None:
    """The private cards of each view in ``parts`` (of its own Rlr) in the tensor's layout,
    oriented to Rlr ``me``; every other cell is zero (OpenSpiel's private-only observation)."""
    out.fill(0.0)
    for v in parts:
        base = 0 if v.player == me else 52
        for zone, faces in zip((HAND, DRAWN, RECYCLE), private_cards(v), strict=True):
            for f in faces:
                out[(base + FACE_INDEX[f]) * CARD_FEATURES + zone] = 1.0


def private_string(parts: Sequence[View]) -> str:
    """The private cards of each view in ``parts``, one line a zone."""
    lines = []
    for v in parts:
        hand, drawn, down = private_cards(v)
        k = f"{v.player + 1}."
        lines += [f"{k}hand: {' '.join(hand)}", f"{k}drawn: {' '.join(drawn)}",
                  f"{k}recycle face down: {' '.join(down)}"]
    return "\n".join(lines)


def _table_card(v: View, cells: _Cells, tc: TableCard, zone: int) -> None:
    row = _ref_row(v, tc.ref)
    cells.place(row, zone)
    if tc.taxed_on is not None:
        cells.set(row, TAXED_MINE if tc.taxed_on - 1 == v.player else TAXED_OPP, 1.0)
    cells.set(row, INACTIVE, float(tc.inactive))
    cells.set(row, TERMINAL, float(tc.terminal))
    cells.set(row, DAMAGE, tc.damage / 10)
    cells.set(row, PWR, tc.pwr / 10)
    cells.set(row, TGH, tc.tgh / 10)
    for e in tc.enhs:
        erow = _ref_row(v, e)
        cells.place(erow, ON_HOST)
        cells.set(erow, HOST_MINE, float(row < 52))
        cells.set(erow, HOST_FACE, (row % 52 + 1) / 52)


def _side_globals(side: SideView) -> list[float]:
    return [side.life / 20, *(n / 10 for n in side.pool), side.hand_count / 52,
            side.draw_count / 52, side.recycle_count / 52, side.discard_count / 52]


def _fill_globals(v: View, g: Tensor) -> None:
    me, opp = v.sides[v.player], v.sides[1 - v.player]
    values: list[float] = [*_side_globals(me), *_side_globals(opp),
                           v.turn / v.settings.max_turns]
    values += _one_hot(PHASES.index(v.phase), len(PHASES))
    values += [float(v.actor == v.player), float(v.phasing == v.player)]
    values += _one_hot("CDHS".index(v.trump) if v.trump else 4, 5)
    cb = v.combat
    values += [v.drawn_count / 2, float(v.lnd_played), float(v.redrawn),
               (cb.split_left if cb else 0) / 10, (cb.bonus_left if cb else 0) / 10,
               float(cb.o_dealt if cb else False)]
    over = v.phase == "over"
    values += [float(over and v.winner == v.player),
               float(over and v.winner == 1 - v.player),
               float(over and v.winner is None), float(v.settings.match_play)]
    g[:] = values


def _one_hot(i: int, n: int) -> list[float]:
    return [1.0 if j == i else 0.0 for j in range(n)]


#: The one-hot phase (12) and trump suit (``C D H S`` or none, 5) of the globals.
_PHASE_HOT = tuple(tuple(_one_hot(i, len(PHASES))) for i in range(len(PHASES)))
_TRUMP_HOT = tuple(tuple(_one_hot(i, 5)) for i in range(5))


# -- strings --------------------------------------------------------------------------------


def _table(cards: Sequence[TableCard]) -> str:
    out = []
    for tc in cards:
        marks = [f"t{tc.taxed_on}"] if tc.taxed_on is not None else []
        if tc.inactive:
            marks.append("i")
        if tc.damage:
            marks.append(f"d{tc.damage}")
        if tc.terminal:
            marks.append("x")
        marks.append(f"{tc.pwr}/{tc.tgh}")
        out.append(f"{'/'.join((tc.ref, *tc.enhs))}{{{','.join(marks)}}}")
    return " ".join(out)


def observation_string(v: View) -> str:
    """The view as text, one zone a line (everything the viewer sees now, nothing else)."""
    viewer = "public" if v.player == SPECTATOR else v.player + 1
    lines = [f"viewer: {viewer}", f"settings: {v.settings}", f"turn: {v.turn}",
             f"phasing: {v.phasing + 1}", f"phase: {v.phase}", f"actor: {v.actor + 1}",
             f"trumps: {' '.join(v.stack)}", f"lnd_played: {v.lnd_played}",
             f"redrawn: {v.redrawn}"]
    lines.append("drawn: " + (" ".join(v.drawn) if v.drawn is not None
                              else f"{v.drawn_count} hidden"))
    for q, side in enumerate(v.sides):
        k = f"{q + 1}."
        pool = " ".join(f"{'CDHS'[i]}{n}" for i, n in enumerate(side.pool) if n)
        lines += [f"{k}life: {side.life}", f"{k}pool: {pool}",
                  f"{k}hand: " + (" ".join(side.hand) if side.hand is not None
                                  else f"{side.hand_count} hidden"),
                  f"{k}draw: {side.draw_count}",
                  f"{k}recycle: {side.recycle_count}: {' '.join(side.recycle_known)}"
                  f" face up: {' '.join(side.recycle_face_up)}",
                  f"{k}discard: " + (" ".join(side.discard) if side.discard is not None
                                     else f"{side.discard_count} closed"),
                  f"{k}home: {_table(side.home)}", f"{k}field: {_table(side.field)}",
                  f"{k}domain: {' '.join(side.domain)}"]
    if v.combat is not None:
        cb = v.combat
        lines.append(
            f"combat: attackers={' '.join(cb.attackers)} "
            f"blocks={' '.join(f'{b}>{a}' for b, a in cb.blocks)} "
            f"blocked={' '.join(cb.blocked)} used={' '.join(cb.used)} "
            f"pending={' '.join(f'{c}:{n}' for c, n in cb.pending)} "
            f"split={' '.join(cb.split)} split_left={cb.split_left} "
            f"bonus_left={cb.bonus_left} bonus_to={' '.join(cb.bonus_to)} dealt={cb.o_dealt}")
    if v.phase == "over":
        lines.append(f"result: {v.result}")
    return "\n".join(lines)


def information_state_string(v: View, earlier: Sequence[str] = ()) -> str:
    """``earlier`` log lines (a resampled state's past, as the viewer read it), the view's
    own log, then the observation: all that the viewer has seen, in order."""
    return "\n".join((*earlier, *v.log, "--", observation_string(v)))


__all__ = ["GLOBAL_FEATURES", "OBS_SIZE", "fill_private_tensor", "fill_state_tensor",
           "fill_tensor",
           "information_state_string", "new_tensor", "observation_string", "private_cards",
           "private_string"]
