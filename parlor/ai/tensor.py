"""The research observation tensor's numbers, written by compiled code (R30).

:func:`parlor.research.observe.fill_state_tensor` is the fast path of the observation tensor
(layout and meaning in :mod:`parlor.research.observe`): in the compiled build this module is
C, so the per-card work that cost an interpreted loop tens of microseconds costs a few.
:func:`make_cells` writes each cell as a small integer numerator, little-endian int16, into
a ``bytearray`` of ``2 * OBS_SIZE`` bytes; :func:`divisors` gives each cell's
denominator. numpy wraps the bytes without a copy and divides once in float32, which gives
the reference's number for every cell: a float32 quotient of two float32-exact integers is
correctly rounded, as is the reference's float64 quotient stored as float32 (double rounding
through 53 bits is innocuous for a 24-bit division, 53 >= 2 * 24 + 2).
tests/research/test_observe_fast.py holds the result equal to the reference, ``fill_tensor``
of the view, at every step of random games.

Each card's row starts as a ready-made row for where it lies (one list store a card; the
104 rows joined in C; a card on the table's row carries its printed Pwr and Tgh, and a
taxed card's its taxed cell), then the rest of the status is written cell by cell, for the
cards whose status is set only: the cards the engine marked (``State.marked``: taxed, made
inactive, damaged, Sallied or Harried since the last start of a turn), not every card on
the table. So the cost does not depend on the game's length (nothing here reads its
record: log, history or trail): every card costs the same store, and a card with a status
a handful of writes more. What still grows is the late table itself: more cards with a
status, Enhs on hosts, a combat (docs/research.md has the figures).
"""

from __future__ import annotations

from typing import Final, SupportsIndex

from parlor.rules.state import C_KIND, CRE, PWR_OF, TGH_OF, State

CARD_FEATURES: Final = 28
GLOBAL_FEATURES: Final = 48
CARD_CELLS: Final = 104 * CARD_FEATURES
OBS_SIZE: Final = CARD_CELLS + GLOBAL_FEATURES

# The card columns (parlor.research.observe documents them).
HAND: Final = 0
DRAWN: Final = 1
HOME: Final = 2
FIELD: Final = 3
MY_DOMAIN: Final = 4
OPP_DOMAIN: Final = 5
ON_HOST: Final = 6
STACK: Final = 7
RECYCLE: Final = 8
DISCARD: Final = 9
HIDDEN: Final = 10
FACE_UP: Final = 11
TAXED_MINE: Final = 12
TAXED_OPP: Final = 13
INACTIVE: Final = 14
TERMINAL: Final = 15
DAMAGE: Final = 16
PWR: Final = 17
TGH: Final = 18
ATTACKING: Final = 19
BLOCKING: Final = 20
BLOCKED: Final = 21
USED: Final = 22
BONUS_TO: Final = 23
SPLIT: Final = 24
HOST_MINE: Final = 25
HOST_FACE: Final = 26
STACK_POS: Final = 27

#: The globals' offsets (after the card cells): each Rlr's nine, then the turn, the phase's
#: one-hot (12), the two flags, the trump's one-hot (5), then the rest in order.
TURN: Final = CARD_CELLS + 18
PHASE_HOT: Final = TURN + 1
OVER: Final = 11  # Phase.OVER, the last of the phase one-hot's twelve
TRUMP_HOT: Final = PHASE_HOT + 14


def divisors(max_turns: int) -> list[float]:
    """Each cell's denominator: the reference's ``x / 10``, ``(face + 1) / 52``, the
    globals' ``life / 20`` … ``turn / max_turns``; 1 for flags and one-hots."""
    out = [1.0] * OBS_SIZE
    for row in range(104):
        base = row * CARD_FEATURES
        for col in (DAMAGE, PWR, TGH, STACK_POS):
            out[base + col] = 10.0
        out[base + HOST_FACE] = 52.0
    for side in (CARD_CELLS, CARD_CELLS + 9):
        out[side] = 20.0  # life
        for i in range(1, 5):
            out[side + i] = 10.0  # the pool's four suits
        for i in range(5, 9):
            out[side + i] = 52.0  # Hand, Draw, Recycle, Discard counts
    out[TURN] = float(max_turns)
    rest = TRUMP_HOT + 5
    out[rest] = 2.0  # drawn cards
    out[rest + 3] = 10.0  # points left to split
    out[rest + 4] = 10.0  # bonus points left
    return out


#: The byte offset of each cell (2 bytes a cell), as int objects made once: mypyc boxes an
#: int index for a bytearray write, and an int above 256 is a new object each time (an
#: allocation per write); an element of this list is an object already.
_BYTE: Final[list[SupportsIndex]] = [2 * i for i in range(OBS_SIZE)]
#: The first cell of each card's row, by viewer: the viewer's own 52 cards first.
_ROWS: Final = (tuple(c * CARD_FEATURES for c in range(104)),
                tuple((c + 52) % 104 * CARD_FEATURES for c in range(104)))
#: Each card's row number, by viewer.
_ROW_OF: Final = (tuple(range(104)), tuple((c + 52) % 104 for c in range(104)))


def _row_bytes(cells: dict[int, int]) -> bytes:
    """A card's row (28 int16 cells, little-endian) with these ``{column: value}``."""
    out = bytearray(2 * CARD_FEATURES)
    for col, v in cells.items():
        out[2 * col] = v & 0xFF
        out[2 * col + 1] = (v >> 8) & 0xFF
    return bytes(out)


#: A card's row by where it lies: each zone's one-hot, a face-up Recycle card, an Enh on a
#: host (the host mine or not, the host's face): most cards' whole row, ready made, so that
#: a card costs one list store and the rows are joined in C.
_ZERO_ROW: Final = bytes(2 * CARD_FEATURES)
_ZONE_ROW: Final = tuple(_row_bytes({z: 1}) for z in range(HIDDEN + 1))
_FACE_UP_ROW: Final = _row_bytes({RECYCLE: 1, FACE_UP: 1})
_HOSTED_ROW: Final = tuple(tuple(_row_bytes({ON_HOST: 1, HOST_MINE: mine, HOST_FACE: face})
                                 for face in range(53)) for mine in (0, 1))
#: An Enh's row by the viewer and its host's card id (the host mine or not, its face).
_HOSTED_BY: Final = tuple(tuple(_HOSTED_ROW[1 if h // 52 == p else 0][h % 52 + 1]
                                for h in range(104)) for p in (0, 1))
_NO_GLOBALS: Final = bytes(2 * GLOBAL_FEATURES)
#: A card on the table, by card id: Home or Field with its printed Pwr and Tgh, so that
#: only a changed status costs a write (a late game has dozens of cards on the table, and
#: an observation must cost about the same at any step).
_HOME_ROW: Final = tuple(_row_bytes({HOME: 1, PWR: PWR_OF[c], TGH: TGH_OF[c]})
                         for c in range(104))
_FIELD_ROW: Final = tuple(_row_bytes({FIELD: 1, PWR: PWR_OF[c], TGH: TGH_OF[c]})
                          for c in range(104))
#: A taxed card's row, by the taxed cell's column (0: TAXED_MINE, 1: TAXED_OPP) then card
#: id: a Lnd's in Home, a Cre's in Field (only cards on the table are taxed, R4), so that a
#: taxed card costs a list store, as any other card, and not writes into the buffer (a late
#: table has half a dozen taxed Lnds).
_TAXED_ROW: Final[tuple[tuple[bytes, ...], ...]] = tuple(
    tuple(_row_bytes({FIELD if C_KIND[c] is CRE else HOME: 1, PWR: PWR_OF[c],
                      TGH: TGH_OF[c], taxed: 1})
          for c in range(104))
    for taxed in (TAXED_MINE, TAXED_OPP))


def _put(cells: bytearray, i: int, v: int) -> None:
    """Cell ``i`` = ``v`` (int16, little-endian); the high byte only when it is not zero."""
    cells[_BYTE[i]] = v & 0xFF
    if v & ~0xFF:  # negative or above 255
        cells[2 * i + 1] = (v >> 8) & 0xFF


def _overwrite(cells: bytearray, i: int, v: int) -> None:
    """Cell ``i`` = ``v`` over a ready-made value: both bytes."""
    cells[_BYTE[i]] = v & 0xFF
    cells[2 * i + 1] = (v >> 8) & 0xFF


def make_cells(s: State, player: int, shown0: bool, shown1: bool) -> bytearray:
    """The tensor's numerators (``2 * OBS_SIZE`` bytes, little-endian int16), seen by
    ``player`` (0/1, mine first); ``shown0``/``shown1`` say whether Rlr 1's / Rlr 2's
    private cards (Hand, drawn cards, face-down Recycle cards) show (as ``shown`` of
    ``fill_state_tensor``)."""
    cells = bytearray().join(_card_rows(s, player, shown0, shown1))
    rows, at = _ROWS[player], _BYTE
    for i, c in enumerate(s.stack, 1):
        _put(cells, rows[c] + STACK_POS, i)
    marked = s.marked
    if marked is None:  # not noted (a position read from text): every card on the table
        for q in (0, 1):
            for c in s.home[q]:
                _status(s, player, rows, c, cells)
            for c in s.field[q]:
                _status(s, player, rows, c, cells)
    else:
        # Only a marked card can have a status: table.mark notes each card as its status
        # is set, and the start of a turn clears the status with the note (the engine's
        # bookkeeping, held by table.bookkeeping_errors). So the cost follows what this
        # turn and the last changed, not how many cards the table has gathered. A noted
        # card that has since left play has no status, and one noted twice is written
        # twice alike. The taxed cards (marked[0] and [1]) have their rows already
        # (_card_rows); the rest of the status is noted in marked[2].
        for c in marked[2]:
            _status(s, player, rows, c, cells)
    cb = s.combat
    if cb is not None:
        for c in cb.attackers:
            cells[at[rows[c] + ATTACKING]] = 1
        for c in cb.blocking:
            cells[at[rows[c] + BLOCKING]] = 1
        for c in cb.blocked:
            cells[at[rows[c] + BLOCKED]] = 1
        for c in cb.used:
            cells[at[rows[c] + USED]] = 1
        for c in cb.bonus_to:
            cells[at[rows[c] + BONUS_TO]] = 1
        for c in cb.split_queue:
            cells[at[rows[c] + SPLIT]] = 1
    _globals(s, player, cells)
    return cells


def _card_rows(s: State, player: int, shown0: bool, shown1: bool) -> list[bytes]:
    """Each card's row as its zone makes it (one-hot, and with it face up or the Enh's
    host), in the viewer's order, then the globals' (zero): one list store a card,
    wherever it lies."""
    parts = [_ZERO_ROW] * 104
    parts.append(_NO_GLOBALS)
    where = _ROW_OF[player]
    hidden = _ZONE_ROW[HIDDEN]
    discard = hidden if s.settings.match_play else _ZONE_ROW[DISCARD]
    for q in (0, 1):
        shown = shown0 if q == 0 else shown1
        hand = _ZONE_ROW[HAND] if shown else hidden
        for c in s.hand[q]:
            parts[where[c]] = hand
        for c in s.draw[q]:
            parts[where[c]] = hidden
        down = _ZONE_ROW[RECYCLE] if shown else hidden
        public = s.public_recycle[q]
        for c in s.recycle[q]:
            parts[where[c]] = _FACE_UP_ROW if c in public else down  # face up: known to both
        for c in s.discard[q]:
            parts[where[c]] = discard
        for c in s.home[q]:
            parts[where[c]] = _HOME_ROW[c]
        for c in s.field[q]:
            parts[where[c]] = _FIELD_ROW[c]
        row = _ZONE_ROW[MY_DOMAIN if q == player else OPP_DOMAIN]
        for c in s.domain[q]:
            parts[where[c]] = row
    row = _ZONE_ROW[DRAWN] if (shown0 if s.phasing == 0 else shown1) else hidden
    for c in s.drawn:
        parts[where[c]] = row
    hosted = _HOSTED_BY[player]
    for host, enhs in s.enhs.items():  # hosts are cards (Domain and stack Enhs are above)
        row = hosted[host]
        for e in enhs:
            parts[where[e]] = row
    marked = s.marked
    if marked is not None:  # else make_cells walks the table
        _taxed_rows(s, player, marked, where, parts)
    row = _ZONE_ROW[STACK]
    for c in s.stack:
        parts[where[c]] = row
    return parts


def _taxed_rows(s: State, player: int, marked: list[list[int]], where: tuple[int, ...],
                parts: list[bytes]) -> None:
    """The rows of the cards taxed on Rlr 1's and Rlr 2's turns (``marked[0]``, ``[1]``;
    those still taxed so are on the table): a taxed Lnd's row in Home, a Cre's in Field."""
    taxed = s.taxed
    for slot in range(2):
        rows = _TAXED_ROW[0 if slot == player else 1]
        for c in marked[slot]:
            if taxed[c] == slot:
                parts[where[c]] = rows[c]


def _status(s: State, player: int, rows: tuple[int, ...], c: int, cells: bytearray) -> None:
    """The status cells of a card on the table that differ from its ready-made row (taxed,
    inactive, terminal, damage, a changed Pwr or Tgh): they show on the table only."""
    at = _BYTE
    row = rows[c]
    taxed = s.taxed[c]
    if taxed == player:
        cells[at[row + TAXED_MINE]] = 1
    elif taxed == 1 - player:
        cells[at[row + TAXED_OPP]] = 1
    if s.inactive[c]:
        cells[at[row + INACTIVE]] = 1
    if C_KIND[c] is not CRE:  # the rest is a Cre's combat status (most marked are Lnds)
        return
    if s.terminal[c]:
        cells[at[row + TERMINAL]] = 1
    damage = s.damage[c]
    if damage:
        _put(cells, row + DAMAGE, damage)
    mod = s.pwr_mod[c]
    if mod:
        _overwrite(cells, row + PWR, PWR_OF[c] + mod)
    mod = s.tgh_mod[c]
    if mod:
        _overwrite(cells, row + TGH, TGH_OF[c] + mod)


def _globals(s: State, player: int, cells: bytearray) -> None:
    """The 48 globals' numerators (divisors gives their denominators)."""
    at = CARD_CELLS
    for q in (player, 1 - player):
        pool = s.pool[q]
        _put(cells, at, s.life[q])
        for i in range(4):
            if pool[i]:
                _put(cells, at + 1 + i, pool[i])
        _put(cells, at + 5, len(s.hand[q]))
        _put(cells, at + 6, len(s.draw[q]))
        _put(cells, at + 7, len(s.recycle[q]))
        _put(cells, at + 8, len(s.discard[q]))
        at += 9
    _put(cells, TURN, s.turn)
    phase = int(s.phase)
    byte = _BYTE
    cells[byte[PHASE_HOT + phase]] = 1
    if s.actor == player:
        cells[byte[PHASE_HOT + 12]] = 1
    if s.phasing == player:
        cells[byte[PHASE_HOT + 13]] = 1
    cells[byte[TRUMP_HOT + (4 if s.trump is None else s.trump)]] = 1
    at = TRUMP_HOT + 5
    if s.drawn:
        _put(cells, at, len(s.drawn))
    if s.lnd_played:
        cells[byte[at + 1]] = 1
    if s.redrawn:
        cells[byte[at + 2]] = 1
    cb = s.combat
    if cb is not None:
        _put(cells, at + 3, cb.split_left)
        _put(cells, at + 4, cb.bonus_left)
        if cb.o_dealt:
            cells[byte[at + 5]] = 1
    if phase == OVER:
        winner = s.winner
        cells[byte[at + 6 + (2 if winner is None else 0 if winner == player else 1)]] = 1
    if s.settings.match_play:
        cells[byte[at + 9]] = 1
