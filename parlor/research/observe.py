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

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from parlor.ai.tensor import (
    ATTACKING,
    BLOCKED,
    BLOCKING,
    BONUS_TO,
    CARD_FEATURES,
    DAMAGE,
    DISCARD,
    DRAWN,
    FACE_UP,
    FIELD,
    GLOBAL_FEATURES,
    HAND,
    HIDDEN,
    HOME,
    HOST_FACE,
    HOST_MINE,
    INACTIVE,
    MY_DOMAIN,
    OBS_SIZE,
    ON_HOST,
    OPP_DOMAIN,
    PWR,
    RECYCLE,
    SPLIT,
    STACK,
    STACK_POS,
    TAXED_MINE,
    TAXED_OPP,
    TERMINAL,
    TGH,
    USED,
    divisors,
    make_cells,
)
from parlor.rules.cards import CARDS
from parlor.rules.state import State, ref_text
from parlor.rules.view import SPECTATOR, SideView, TableCard, View

PHASES = ("trim", "keep", "window1", "attack", "block", "ability_p", "ability_o", "window2",
          "split", "bonus", "domain_bonus", "over")

# The columns (0-27) and sizes are parlor.ai.tensor's, which the fast path writes.

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

#: Each cell's denominator, by turn limit (the turn's is the limit), float32: the fast path's
#: numerators (int16) divided by these in float32 are the reference's numbers (see
#: :mod:`parlor.ai.tensor`).
_DIVISORS: dict[int, Tensor] = {}
_CELL = np.dtype("<i2")  # the numerators as parlor.ai.tensor writes them


def _divisors(max_turns: int) -> Tensor:
    d = _DIVISORS.get(max_turns)
    if d is None:
        d = _DIVISORS[max_turns] = np.array(divisors(max_turns), np.float32)
    return d


def fill_state_tensor(s: State, player: int, out: Tensor,
                      shown: tuple[bool, bool]) -> None:
    """The tensor :func:`fill_tensor` writes, read from the state: ``player`` (0/1) is the
    orientation (mine first) and ``shown[q]`` says whether Rlr ``q``'s private cards (its
    Hand, its drawn cards, the face-down cards of its Recycle pile) show. ``shown`` with
    only ``player``'s is ``fill_tensor(view(s, player))``; none is the public observation
    (the spectator's view oriented to ``player``); both, everything but the Draw piles.

    The fast path beside the reference: tests/research/test_observe_fast.py holds the two
    equal at every step of random games, for each ``shown``, so privacy is the view's
    (R30). :func:`parlor.ai.tensor.make_cells` (compiled in the compiled build) writes
    every cell's numerator into a buffer, a ready-made row per card for its zone and a few
    writes for a card on the table, so the cost hardly grows with the game; numpy wraps
    the buffer without a copy and divides once."""
    np.divide(state_cells(s, player, shown), _divisors(s.settings.max_turns), out=out)


def state_tensor(s: State, player: int, shown: tuple[bool, bool]) -> Tensor:
    """:func:`fill_state_tensor` into a new array (the division makes it: no zeroing)."""
    cells = np.frombuffer(make_cells(s, player, shown[0], shown[1]), _CELL)  # no copy
    return np.divide(cells, _divisors(s.settings.max_turns), dtype=np.float32)


def state_cells(s: State, player: int, shown: tuple[bool, bool]) -> npt.NDArray[np.int16]:
    """The numerators of the fast path's tensor (int16, a view of a new buffer)."""
    return np.frombuffer(make_cells(s, player, shown[0], shown[1]), _CELL)


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
           "private_string", "state_cells", "state_tensor"]
