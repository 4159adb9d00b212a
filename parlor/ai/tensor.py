"""The research observation tensor's numbers, written by compiled code (R30).

:func:`parlor.research.observe.fill_state_tensor` is the fast path of the observation tensor
(layout and meaning in :mod:`parlor.research.observe`): in the compiled build this module is
C, so the per-card work that cost an interpreted loop tens of microseconds costs a few.
:func:`write_cells` writes each cell as a small integer numerator, little-endian int16, into
a zeroed ``bytearray`` of ``2 * OBS_SIZE`` bytes; :func:`divisors` gives each cell's
denominator. numpy wraps the bytes without a copy and divides once in float32, which gives
the reference's number for every cell: a float32 quotient of two float32-exact integers is
correctly rounded, as is the reference's float64 quotient stored as float32 (double rounding
through 53 bits is innocuous for a 24-bit division, 53 >= 2 * 24 + 2).
tests/research/test_observe_fast.py holds the result equal to the reference, ``fill_tensor``
of the view, at every step of random games.

Only non-zero cells are written (the buffer is zeroed), and only a card's zone costs a
write for every card, so the cost hardly depends on the game's length: a handful of writes
per card on the table, at most 104 cards.
"""

from __future__ import annotations

from typing import Final, SupportsIndex

from parlor.rules.state import PWR_OF, TGH_OF, State

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


def _put(cells: bytearray, i: int, v: int) -> None:
    """Cell ``i`` = ``v`` (int16, little-endian); the high byte only when it is not zero."""
    cells[_BYTE[i]] = v & 0xFF
    if v & ~0xFF:  # negative or above 255
        cells[2 * i + 1] = (v >> 8) & 0xFF


def write_cells(s: State, player: int, shown0: bool, shown1: bool, cells: bytearray) -> None:
    """The tensor's numerators into ``cells`` (zeroed, ``2 * OBS_SIZE`` bytes), seen by
    ``player`` (0/1, mine first); ``shown0``/``shown1`` say whether Rlr 1's / Rlr 2's
    private cards (Hand, drawn cards, face-down Recycle cards) show (as ``shown`` of
    ``fill_state_tensor``)."""
    rows, at = _ROWS[player], _BYTE
    _zones(s, player, rows, shown0, shown1, cells)
    for q in (0, 1):
        for c in s.home[q]:
            _status(s, player, rows, c, cells)
        for c in s.field[q]:
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


def _zones(s: State, player: int, rows: tuple[int, ...], shown0: bool, shown1: bool,
           cells: bytearray) -> None:
    """Each card's zone (one-hot) and the columns that go with it: face up, the Enh's host,
    the Trumps position. One write a card, wherever it lies."""
    at = _BYTE
    discard = HIDDEN if s.settings.match_play else DISCARD
    for q in (0, 1):
        shown = shown0 if q == 0 else shown1
        hand = HAND if shown else HIDDEN
        for c in s.hand[q]:
            cells[at[rows[c] + hand]] = 1
        for c in s.draw[q]:
            cells[at[rows[c] + HIDDEN]] = 1
        down = RECYCLE if shown else HIDDEN
        public = s.public_recycle[q]
        for c in s.recycle[q]:
            row = rows[c]
            if c in public:  # face up: known to both
                cells[at[row + RECYCLE]] = 1
                cells[at[row + FACE_UP]] = 1
            else:
                cells[at[row + down]] = 1
        for c in s.discard[q]:
            cells[at[rows[c] + discard]] = 1
        for c in s.home[q]:
            cells[at[rows[c] + HOME]] = 1
        for c in s.field[q]:
            cells[at[rows[c] + FIELD]] = 1
        domain = MY_DOMAIN if q == player else OPP_DOMAIN
        for c in s.domain[q]:
            cells[at[rows[c] + domain]] = 1
    drawn = DRAWN if (shown0 if s.phasing == 0 else shown1) else HIDDEN
    for c in s.drawn:
        cells[at[rows[c] + drawn]] = 1
    for host, enhs in s.enhs.items():
        mine = 1 if host // 52 == player else 0
        face = host % 52 + 1
        for e in enhs:
            row = rows[e]
            cells[at[row + ON_HOST]] = 1
            if mine:
                cells[at[row + HOST_MINE]] = 1
            _put(cells, row + HOST_FACE, face)
    for i, c in enumerate(s.stack, 1):
        row = rows[c]
        cells[at[row + STACK]] = 1
        _put(cells, row + STACK_POS, i)


def _status(s: State, player: int, rows: tuple[int, ...], c: int, cells: bytearray) -> None:
    """The status columns of a card on the table (they show there only)."""
    at = _BYTE
    row = rows[c]
    taxed = s.taxed[c]
    if taxed == player:
        cells[at[row + TAXED_MINE]] = 1
    elif taxed == 1 - player:
        cells[at[row + TAXED_OPP]] = 1
    if s.inactive[c]:
        cells[at[row + INACTIVE]] = 1
    if s.terminal[c]:
        cells[at[row + TERMINAL]] = 1
    damage = s.damage[c]
    if damage:
        _put(cells, row + DAMAGE, damage)
    pwr = PWR_OF[c] + s.pwr_mod[c]
    if pwr:
        _put(cells, row + PWR, pwr)
    tgh = TGH_OF[c] + s.tgh_mod[c]
    if tgh:
        _put(cells, row + TGH, tgh)


def _globals(s: State, player: int, cells: bytearray) -> None:
    """The 48 globals' numerators (divisors gives their denominators)."""
    at = CARD_CELLS
    for q in (player, 1 - player):
        pool = s.pool[q]
        for v in (s.life[q], pool[0], pool[1], pool[2], pool[3], len(s.hand[q]),
                  len(s.draw[q]), len(s.recycle[q]), len(s.discard[q])):
            if v:
                _put(cells, at, v)
            at += 1
    _put(cells, TURN, s.turn)
    phase = int(s.phase)
    _put(cells, PHASE_HOT + phase, 1)
    if s.actor == player:
        _put(cells, PHASE_HOT + 12, 1)
    if s.phasing == player:
        _put(cells, PHASE_HOT + 13, 1)
    _put(cells, TRUMP_HOT + (4 if s.trump is None else s.trump), 1)
    at = TRUMP_HOT + 5
    cb = s.combat
    for v in (len(s.drawn), int(s.lnd_played), int(s.redrawn),
              cb.split_left if cb is not None else 0, cb.bonus_left if cb is not None else 0,
              int(cb.o_dealt) if cb is not None else 0):
        if v:
            _put(cells, at, v)
        at += 1
    if phase == OVER:
        winner = s.winner
        _put(cells, at + (2 if winner is None else 0 if winner == player else 1), 1)
    if s.settings.match_play:
        _put(cells, at + 3, 1)
