"""The game state: every zone of both Rlrs, the Trumps stack, pools, life and the turn (rule 100).

A physical card is an int ``cid`` in 0-103, ``owner = cid // 52`` and ``face = cid % 52`` (an
index into the tables of :mod:`parlor.rules.cards`). Zones are plain lists (the top of a pile
is the *end* of its list); per-card status lives in lists indexed by cid, so :meth:`State.clone`
is a handful of shallow copies. Players are 0 and 1 inside the engine and "Rlr 1"/"Rlr 2" in
text.

Who writes a State: only the rules modules, through :mod:`parlor.rules.engine` (``apply``
and its helpers in plays, combat, table, reshuffle and trail); the readers of text
(notation, view) build one, and the AI's determinization (``parlor.ai.determinize``) deals
hidden cards into a clone and then drops its cached legal actions. Everyone else reads.

Caches and copy-on-write
------------------------
A State holds, beside the position, figures derived from it (kept so that listing the legal
actions or starting a turn does not rescan the table) and lists it shares with its clones (a
search clones a state per iteration and most clones never write them). Two rules cover them
all, and each field's comment in :meth:`State.__init__` says which it is under:

* **A derived figure is either None ("not worked out": the next reader works it out from the
  cards) or equal to what the cards give.** Its keepers are named with it; all but ``_legal``
  are checked by :func:`parlor.rules.table.bookkeeping_errors`.
* **A shared list is written only after** ``s.own(GROUP)``. The lists a clone shares with
  its original come in four groups (:data:`COMBAT_STATUS`, :data:`ENH_COUNTS`,
  :data:`HISTORY`, :data:`TRAIL`); :meth:`State.clone` sets the group's bit in ``shared``
  on both states, and :meth:`State.own`, the one copy-on-write step, gives the state its own
  copies of the group's lists and clears the bit. A write that skips it would change the
  other state's position too: it is the one thing not to do (the test
  ``tests/rules/test_bookkeeping.py`` holds every clone independent of its original over
  every action of many random games).

The fields under each rule:

* ``trump`` (derived) -- the suit of the Trumps stack's top card; set by
  :meth:`State.restack` whenever the stack changes; clone copies it.
* ``untaxed`` (derived) -- untaxed Lnds in each Home by the suit they yield; kept by table's
  tax, untax, enter_home, attach and leave_play; None when the trump suit changes (every
  yield may change); clone copies the list.
* ``marked`` (derived) -- the cards whose status the next start of a turn may clear; None
  means "not noted" (every card in play is looked at); kept by ``table.mark``, emptied at
  each start of a turn; clone copies it.
* ``_legal`` (derived) -- the legal actions of this position (``engine._legal``), never
  mutated; None after every applied action. Clone shares it (read-only, and a clone's
  position is the same until something is applied, which drops it).
* ``ecounts`` and ``ekeys`` (derived, shared: :data:`ENH_COUNTS`) -- each host's counts with
  its Enhs on it (R25) and where those counts sit in the expel table; None until first read
  (``table.kept_counts``); kept by table's attach and leave_play as Enhs come and go.
* ``damage``, ``terminal``, ``pwr_mod``, ``tgh_mod`` (position, shared:
  :data:`COMBAT_STATUS`) -- a Cre's combat status; written by table.deal_damage,
  clear_combat_status and combat's Sally and Harry.
* ``history`` (record, shared: :data:`HISTORY`) -- the applied decisions; appended only
  through :meth:`State.add_history`.
* ``trail`` (record, shared: :data:`TRAIL`) -- the public trail of a dealt game; appended
  only through ``parlor.rules.trail.own_trail``.

Not part of the position: ``spare_combat``, the last ended Combat kept to begin the next one
in (:func:`begin_combat`); a clone starts without one.

The groups are bits of one int rather than a set of names or a wrapper list type: the write
paths (every damage, Enh move and history append of every search clone) test one bit, and a
set lookup or a list subclass would cost each of them more.

A state about to be replaced by its copy (a live web game's, at each move) lends the copy
its records instead (:meth:`State.successor`): the copy appends to them in place, and the
state is dropped, or takes its records back (:meth:`State.take_back`) when the move is refused.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from parlor.rules.cards import KIND, PWR, RANK, SUIT, TGH, Kind
from parlor.rules.events import DOMAIN_IDS, STACK_ID, Event
from parlor.rules.events import card_text as card_text  # the rules modules read them here
from parlor.rules.events import ref_text as ref_text
from parlor.rules.seeds import Seed
from parlor.rules.values import Value

if TYPE_CHECKING:
    from parlor.rules.trail import Step

N_CARDS: Final = 104
START_LIFE: Final = 20
HAND_LIMIT: Final = 7
MAX_ATTACKERS: Final = 6
MAX_BLOCKERS: Final = 3

#: Target codes beside card ids: a Rlr's Domain and the Trumps stack.
DOMAIN: Final = (200, 201)
STACK: Final = 300
assert DOMAIN == DOMAIN_IDS and STACK == STACK_ID  # the events name them too
NONE: Final = -1

OWNER: Final[tuple[int, ...]] = tuple(cid // 52 for cid in range(N_CARDS))
FACE: Final[tuple[int, ...]] = tuple(cid % 52 for cid in range(N_CARDS))
C_SUIT: Final[tuple[int, ...]] = tuple(SUIT[f] for f in FACE)
C_RANK: Final[tuple[int, ...]] = tuple(RANK[f] for f in FACE)
C_KIND: Final[tuple[Kind, ...]] = tuple(KIND[f] for f in FACE)
#: The three kinds of card (Lnd, Cre, Enh) by name: the engine tests a card's kind at every
#: tax, untax, attach and card leaving play (module constants: an enum member's lookup is
#: slow on Python 3.11).
LND: Final = Kind.LND
CRE: Final = Kind.CRE
ENH: Final = Kind.ENH
PWR_OF: Final[tuple[int, ...]] = tuple(PWR[f] for f in FACE)
TGH_OF: Final[tuple[int, ...]] = tuple(TGH[f] for f in FACE)


class Phase(enum.IntEnum):
    """Which decision the game waits for (rule 300/400)."""

    TRIM = 0  # P recycles down to 7 before drawing
    KEEP = 1  # P keeps one drawn card or Redraws
    WINDOW1 = 2  # first play window, P first
    ATTACK = 3  # P declares attackers one at a time, or ends the turn
    BLOCK = 4  # O assigns blockers one at a time
    ABILITY_P = 5  # P's ability step
    ABILITY_O = 6  # O's ability step
    WINDOW2 = 7  # second play window, O first
    SPLIT = 8  # P splits an attacker's Pwr among its blockers
    BONUS = 9  # the winning side distributes the group bonus
    DOMAIN_BONUS = 10  # O distributes the Domain's bonus to unblocked attackers
    OVER = 11


# The phases by name, as the rules write them (``s.phase is ATTACK``): the engine and the
# search compare phases at every step, and an enum member's lookup is slow on Python 3.11.
TRIM: Final = Phase.TRIM
KEEP: Final = Phase.KEEP
WINDOW1: Final = Phase.WINDOW1
ATTACK: Final = Phase.ATTACK
BLOCK: Final = Phase.BLOCK
ABILITY_P: Final = Phase.ABILITY_P
ABILITY_O: Final = Phase.ABILITY_O
WINDOW2: Final = Phase.WINDOW2
SPLIT: Final = Phase.SPLIT
BONUS: Final = Phase.BONUS
DOMAIN_BONUS: Final = Phase.DOMAIN_BONUS
OVER: Final = Phase.OVER


#: The reshuffle schemes (307.1): 1, CPython's Mersenne Twister seeded with the text
#: ``"<reshuffle seed>/<n>"`` (every game before 2026-12-04); 2, BLAKE2b of the reshuffle
#: seed, ``n`` and a counter (:func:`parlor.rules.reshuffle.hashed_fisher_yates`).
RESHUFFLE_TWISTER: Final = 1
RESHUFFLE_HASHED: Final = 2
#: Every reshuffle seed is below this (64 bits for a practice seed, 128 for a deal key's,
#: 307): scheme 2 writes it in 16 bytes.
RESHUFFLE_SEED_LIMIT: Final = 2**128


@dataclass(frozen=True, slots=True)
class Settings(Value):
    """Game settings (rulings that offer an option; tournament variants)."""

    max_turns: int = 200  # R17: a draw after this many turns in all
    match_play: bool = False  # R30: Discard piles closed to view in match play
    single_draw: tuple[bool, bool] = (False, False)  # R32: per Rlr, single-card draws
    auto: bool = True  # forced steps and single legal choices happen by themselves
    # 307.1: how the n-th reshuffle draws its order. A new game uses scheme 2; text that
    # names no scheme (every record and position written before 2026-12-04) means scheme 1,
    # so it replays as it always did.
    reshuffle: int = RESHUFFLE_HASHED

    def __post_init__(self) -> None:
        if self.reshuffle not in (RESHUFFLE_TWISTER, RESHUFFLE_HASHED):
            raise ValueError(f"307.1: the reshuffle schemes are 1 and 2, not {self.reshuffle!r}")

    def __str__(self) -> str:
        parts = [f"max_turns={self.max_turns}"]
        if self.match_play:
            parts.append("match_play")
        for p, on in enumerate(self.single_draw):
            if on:
                parts.append(f"single_draw={p + 1}")
        if not self.auto:
            parts.append("step")
        if self.reshuffle != RESHUFFLE_TWISTER:  # scheme 1 is what naming none means
            parts.append(f"reshuffle={self.reshuffle}")
        return " ".join(parts)

    @staticmethod
    def parse(text: str) -> Settings:
        """Settings from their text; a text that names no reshuffle scheme was written
        before scheme 2 existed, so it means scheme 1 (307.1)."""
        max_turns, match, single, auto = 200, False, [False, False], True
        reshuffle = RESHUFFLE_TWISTER
        for part in text.split():
            key, _, value = part.partition("=")
            if key == "max_turns":
                if not value.isdigit() or not 1 <= int(value) <= 100_000:
                    raise ValueError(f"R17: max_turns is a whole number from 1 to 100000, "
                                     f"not {value[:20]!r}")
                max_turns = int(value)
            elif key == "match_play" and part == key:
                match = True
            elif key == "single_draw":
                if value not in ("1", "2"):
                    raise ValueError(f"R32: single_draw names Rlr 1 or 2, not {value!r}")
                single[int(value) - 1] = True
            elif key == "step" and part == key:
                auto = False
            elif key == "reshuffle":
                if value not in ("1", "2"):
                    raise ValueError(f"307.1: the reshuffle schemes are 1 and 2, not {value!r}")
                reshuffle = int(value)
            else:
                raise ValueError(f"unknown setting {part[:40]!r}: the settings are max_turns=N,"
                                 " match_play, single_draw=1, single_draw=2, step and "
                                 "reshuffle=1 or 2")
        return Settings(max_turns, match, (single[0], single[1]), auto, reshuffle)


# The groups of lists a clone shares with its original until one of the two writes them: bits
# of State.shared, taken by State.own (the module docstring, "Caches and copy-on-write").
#: ``damage``, ``terminal``, ``pwr_mod``, ``tgh_mod``: a Cre's combat status (R12, R28).
COMBAT_STATUS: Final = 1
#: ``ecounts`` and ``ekeys``: the counts of the hosts with Enhs on them (R25).
ENH_COUNTS: Final = 2
#: ``history``: the applied decisions.
HISTORY: Final = 4
#: ``trail``: the public trail of a dealt game.
TRAIL: Final = 8


#: What :meth:`State.successor` lent its successor: the lengths of the history, the trail
#: and the log then, and the groups (HISTORY, TRAIL) it took over rather than shared.
Lent = tuple[int, int, int, int]


#: The fields of a :class:`Combat`, in the order of its ``__init__`` and ``repr``.
_COMBAT_FIELDS: Final = ("attackers", "blockers", "blocking", "blocked", "used", "pending",
                         "split_queue", "split_left", "bonus_left", "bonus_to", "o_dealt")


class Combat:
    """One attack of a Turn Cycle, from declaration to resolution (rule 1000).

    The attackers, who blocks whom, the abilities used and what is left to resolve
    (damage, splits, the bonus). A state begins each attack step (rule 406) in its last
    Combat, emptied (:func:`begin_combat`): read a Combat between steps, as the next combat
    empties it. Equality and ``repr`` are a dataclass's, field by field (a plain class only
    because a clone in combat copies one, and a dataclass's ``__init__`` is slower in the
    compiled build)."""

    __slots__ = _COMBAT_FIELDS

    def __init__(self, attackers: list[int] | None = None,
                 blockers: dict[int, list[int]] | None = None,
                 blocking: dict[int, int] | None = None, blocked: set[int] | None = None,
                 used: set[int] | None = None, pending: dict[int, int] | None = None,
                 split_queue: list[int] | None = None, split_left: int = 0,
                 bonus_left: int = 0, bonus_to: list[int] | None = None,
                 o_dealt: bool = False) -> None:
        self.attackers: list[int] = [] if attackers is None else attackers
        #: attacker -> its blockers
        self.blockers: dict[int, list[int]] = {} if blockers is None else blockers
        #: blocker -> attacker
        self.blocking: dict[int, int] = {} if blocking is None else blocking
        #: attackers that were ever blocked (R15)
        self.blocked: set[int] = set() if blocked is None else blocked
        #: Cres that used an ability (R28)
        self.used: set[int] = set() if used is None else used
        # resolution bookkeeping
        #: combat damage not yet dealt
        self.pending: dict[int, int] = {} if pending is None else pending
        #: attackers whose Pwr P splits
        self.split_queue: list[int] = [] if split_queue is None else split_queue
        self.split_left = split_left
        self.bonus_left = bonus_left
        #: Cres that may take bonus points
        self.bonus_to: list[int] = [] if bonus_to is None else bonus_to
        #: O was dealt damage in this combat (R16)
        self.o_dealt = o_dealt

    def _fields(self) -> tuple[object, ...]:
        return (self.attackers, self.blockers, self.blocking, self.blocked, self.used,
                self.pending, self.split_queue, self.split_left, self.bonus_left,
                self.bonus_to, self.o_dealt)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Combat):
            return NotImplemented
        return self._fields() == other._fields()

    def __repr__(self) -> str:
        shown = ", ".join(f"{n}={v!r}" for n, v in zip(_COMBAT_FIELDS, self._fields(), strict=True))
        return f"Combat({shown})"

    def reset(self) -> None:
        """Empty, as a new Combat: a state keeps its last Combat to begin the next one with
        (:func:`begin_combat`), rather than building eight new containers at every attack
        step. Only the containers that hold something are cleared: most combats leave
        several empty (no split, no ability used, no bonus to share)."""
        if len(self.attackers):
            self.attackers.clear()
        if len(self.blockers):
            self.blockers.clear()
        if len(self.blocking):
            self.blocking.clear()
        if len(self.blocked):
            self.blocked.clear()
        if len(self.used):
            self.used.clear()
        if len(self.pending):
            self.pending.clear()
        if len(self.split_queue):
            self.split_queue.clear()
        self.split_left = 0
        self.bonus_left = 0
        if len(self.bonus_to):
            self.bonus_to.clear()
        self.o_dealt = False

    def copy(self) -> Combat:
        return Combat(
            list(self.attackers),
            {a: list(b) for a, b in self.blockers.items()},
            dict(self.blocking),
            set(self.blocked),
            set(self.used),
            dict(self.pending),
            list(self.split_queue),
            self.split_left,
            self.bonus_left,
            list(self.bonus_to),
            self.o_dealt,
        )


class State:
    """A complete position. Mutate only through :mod:`parlor.rules.engine`."""

    __slots__ = (
        "_legal",
        "actor",
        "combat",
        "damage",
        "discard",
        "domain",
        "draw",
        "drawn",
        "ecounts",
        "ekeys",
        "enhs",
        "field",
        "hand",
        "history",
        "home",
        "host",
        "inactive",
        "life",
        "lnd_played",
        "log",
        "marked",
        "phase",
        "phasing",
        "pool",
        "public_recycle",
        "pwr_mod",
        "recycle",
        "redrawn",
        "result",
        "seed",
        "settings",
        "shared",
        "shuffle_seed",
        "shuffles",
        "spare_combat",
        "stack",
        "taxed",
        "terminal",
        "tgh_mod",
        "trail",
        "trump",
        "turn",
        "untaxed",
        "winner",
    )

    def __init__(self, settings: Settings | None = None, shuffle_seed: int = 0) -> None:
        """An empty table before the deal (105). Longer than 60 lines because it is the one
        list of the position's fields, one a line with what it holds and who writes it
        (the caches' rules are in the module's docstring): splitting it would scatter that
        list."""
        # Each field: what it holds; who writes it. "The engine" is parlor.rules.engine and
        # the rules modules it calls; the readers of text (notation, view) fill a new State.
        # The caches and shared lists are described in the module docstring.

        # -- the game and its randomness (written when the game is dealt or read) ----------
        #: The game's settings (rulings with options, R17, R30, R32, 307.1); never changed.
        self.settings = settings or Settings()
        #: The deal's seed, when dealt from one (for records); set by the deal.
        self.seed: Seed | None = None
        #: The reshuffle seed (307.1); set by the deal.
        self.shuffle_seed = shuffle_seed
        #: How many reshuffles the game has had (the n of 307.1); reshuffle.shuffle counts.
        self.shuffles = 0

        # -- zones, by Rlr (the top of a pile is the end of its list); the engine moves cards
        self.draw: list[list[int]] = [[], []]
        self.recycle: list[list[int]] = [[], []]
        self.discard: list[list[int]] = [[], []]
        self.hand: list[list[int]] = [[], []]
        self.home: list[list[int]] = [[], []]  # Lnds in play
        self.field: list[list[int]] = [[], []]  # Cres in play
        self.domain: list[list[int]] = [[], []]  # Enhs on a Rlr's Domain
        #: The Trumps stack, bottom first (rule 103); the engine, then :meth:`restack`.
        self.stack: list[int] = []
        #: Derived: the suit of the stack's top card (rule 103), None while it is empty; set
        #: only by :meth:`restack`, which every change of the stack calls.
        self.trump: int | None = None
        #: Host cid -> the Enh cids on it, in play order; table.attach and leave_play.
        self.enhs: dict[int, list[int]] = {}
        #: Enh cid -> its host cid, DOMAIN[p] or STACK; table.attach and leave_play.
        self.host: dict[int, int] = {}

        # -- per-card status, indexed by cid (lists: one item read or written per card) ----
        #: The Rlr on whose turn the card was taxed (R4), NONE if untaxed; table.tax, untax.
        self.taxed = [NONE] * N_CARDS
        #: 1 while the card is inactive (R5); the engine, cleared at the next turn's start.
        self.inactive = [0] * N_CARDS
        # A Cre's combat status, set only in a combat and cleared at the next start of a
        # turn; table.deal_damage, clear_combat_status and combat's Sally and Harry write
        # it. Shared with clones (COMBAT_STATUS): write only after own(COMBAT_STATUS).
        self.damage = [0] * N_CARDS  # damage marked on it (R12)
        self.terminal = [0] * N_CARDS  # 1 once its damage reached its Tgh (R12)
        self.pwr_mod = [0] * N_CARDS  # Pwr added by a Sally (R28)
        self.tgh_mod = [0] * N_CARDS  # Tgh added by a Sally, taken by a Harry (R28)

        # -- derived figures (None: not worked out yet; the first reader counts them) -------
        #: By card id: the counts of a host with Enhs on it, None for any other card (R25);
        #: table.kept_counts counts, table's attach and leave_play keep.
        self.ecounts: list[tuple[int, int, int, int] | None] | None = None
        #: Shared with clones (ENH_COUNTS): written only after own(ENH_COUNTS).
        #: By card id, beside ``ecounts``: where a host with Enhs on it sits in the table of
        #: which Enh faces expel it (table.expel_situation), so that the window listing
        #: reads one figure per host; NO_ENH for any other card. Kept and shared with it.
        self.ekeys: list[int] | None = None
        #: Untaxed Lnds in Home by the suit they yield, ``[owner * 4 + suit]`` (R21);
        #: table.untaxed_lnds counts, table's tax, untax, attach and leave_play keep.
        self.untaxed: list[int] | None = None
        #: The cards whose status the next start of a turn may clear (R4, R5, R12): [taxed
        #: on Rlr 1's turn, taxed on Rlr 2's turn, made inactive, damaged or Sallied/Harried
        #: since the last start of a turn]; noted by table.mark as each status is set,
        #: emptied by the engine's start of a turn. None: not noted, every card in play is
        #: looked at.
        self.marked: list[list[int]] | None = None

        # -- the rest of the position; the engine writes them --------------------------------
        self.life = [START_LIFE, START_LIFE]
        #: Mnr in each Rlr's pool, by suit (R21).
        self.pool: list[list[int]] = [[0, 0, 0, 0], [0, 0, 0, 0]]
        #: Cards put on each Recycle pile face up, so seen by both (R30).
        self.public_recycle: list[set[int]] = [set(), set()]
        #: The cards drawn this turn, waiting to be kept or Redrawn (R29).
        self.drawn: list[int] = []
        self.turn = 1  # turns in all, from 1 (R17)
        self.phasing = 0  # P, whose turn it is
        self.actor = 0  # who decides next
        self.phase = KEEP  # which decision the game waits for
        self.lnd_played = False  # P has played a Lnd this turn (R6)
        self.redrawn = False  # P has Redrawn this turn (R29)
        #: The attack under way (rule 1000), begun by begin_combat and ended by end_combat.
        self.combat: Combat | None = None
        #: The last combat, ended: the next begins in it (:func:`begin_combat`). Not part of
        #: the position; a clone starts without one.
        self.spare_combat: Combat | None = None
        self.winner: int | None = None  # set when the game ends in a win
        self.result = ""  # the end's sentence (table.end_game)

        # -- records of the game -------------------------------------------------------------
        #: The events, in order (table.emit); None switches the log off (playouts).
        self.log: list[Event] | None = []
        #: The decisions applied, in order; appended only by :meth:`add_history`. Shared
        #: with clones (HISTORY): a search clone would otherwise copy the whole game's
        #: decisions for a list a playout only appends to.
        self.history: list[object] = []
        #: The public trail of a dealt game (parlor.rules.trail); None: not recorded.
        #: Appended only through parlor.rules.trail.own_trail; shared with clones (TRAIL),
        #: so a clone costs no copy of a trail it may never extend.
        self.trail: list[Step] | None = None
        #: The groups of lists (COMBAT_STATUS, ENH_COUNTS, HISTORY, TRAIL, bits) this state
        #: shares with a clone or an original: set by clone, cleared group by group by own.
        self.shared = 0
        #: The legal actions of this position (engine._legal), shared with clones and never
        #: mutated; None after each applied action, listed again on the next read.
        self._legal: list[object] | None = None

    # -- small queries used everywhere -----------------------------------------------------

    @property
    def opponent(self) -> int:
        return 1 - self.phasing

    @property
    def is_over(self) -> bool:
        return self.phase is OVER

    def restack(self) -> None:
        """Read :attr:`trump` off the Trumps stack again, after the stack changed."""
        self.trump = C_SUIT[self.stack[-1]] if self.stack else None

    def cards_of(self, host: int) -> list[int]:
        return self.enhs.get(host, [])

    def clone(self) -> State:
        """An independent copy (events and history lists are copied too)."""
        return self._clone(None if self.log is None else self.log[:])

    def _clone(self, log: list[Event] | None) -> State:
        """:meth:`clone`, with ``log`` for the copy's log."""
        s = State.__new__(State)
        s.settings, s.seed = self.settings, self.seed
        s.shuffle_seed, s.shuffles = self.shuffle_seed, self.shuffles
        s.draw = [self.draw[0][:], self.draw[1][:]]
        s.recycle = [self.recycle[0][:], self.recycle[1][:]]
        s.discard = [self.discard[0][:], self.discard[1][:]]
        s.hand = [self.hand[0][:], self.hand[1][:]]
        s.home = [self.home[0][:], self.home[1][:]]
        s.field = [self.field[0][:], self.field[1][:]]
        s.domain = [self.domain[0][:], self.domain[1][:]]
        s.stack = self.stack[:]
        s.trump = self.trump
        s.enhs = {h: e[:] for h, e in self.enhs.items()}
        s.host = dict(self.host)
        s.taxed = self.taxed[:]
        s.inactive = self.inactive[:]
        s.damage, s.terminal = self.damage, self.terminal  # shared: COMBAT_STATUS
        s.pwr_mod, s.tgh_mod = self.pwr_mod, self.tgh_mod
        s.ecounts, s.ekeys = self.ecounts, self.ekeys  # shared: ENH_COUNTS
        s.untaxed = None if self.untaxed is None else self.untaxed[:]
        m = self.marked
        s.marked = None if m is None else [m[0][:], m[1][:], m[2][:]]
        s.life = self.life[:]
        s.pool = [self.pool[0][:], self.pool[1][:]]
        s.public_recycle = [set(self.public_recycle[0]), set(self.public_recycle[1])]
        s.drawn = self.drawn[:]
        s.turn, s.phasing, s.actor, s.phase = self.turn, self.phasing, self.actor, self.phase
        s.lnd_played, s.redrawn = self.lnd_played, self.redrawn
        s.combat = self.combat.copy() if self.combat else None
        s.spare_combat = None
        s.winner, s.result = self.winner, self.result
        s.log = log
        s.history = self.history  # shared: HISTORY
        s.trail = self.trail  # shared: TRAIL
        shared = COMBAT_STATUS | HISTORY
        if self.ecounts is not None:
            shared |= ENH_COUNTS
        if self.trail is not None:
            shared |= TRAIL
        s.shared = shared
        self.shared |= shared
        s._legal = self._legal
        return s

    def successor(self) -> tuple[State, Lent]:
        """A clone to apply the next decisions to in this state's place, and what it took
        (for :meth:`take_back`). It is :meth:`clone`'s copy, equal to it through any
        actions applied (tests/rules/test_bookkeeping.py), save that it takes over this
        state's records (``history``, ``trail``, ``log``) to append to in place, where a
        clone shares them copy-on-write and copies each whole at its first append: 2,500
        items, 9 us interpreted, at step 500 of a game. Each move of a live web game is
        applied to a copy of the game's state that then replaces it, and that copy cost
        more the longer the game ran.

        Until the caller settles it, this state's records read the successor's appends: it
        then either drops this state (the successor took its place) or calls
        ``take_back(lent)`` (the decisions were refused), which cuts the records back to
        this state's own; the successor is not used again. A record this state already
        shares with another clone stays shared, as :meth:`clone` shares it (appending in
        place would reach that clone's too); this state's own writes to the others copy
        first (their bits are set, as after a clone)."""
        taken = (HISTORY | TRAIL) & ~self.shared
        lent = (len(self.history), len(self.trail or ()), len(self.log or ()), taken)
        s = self._clone(self.log)
        s.shared &= ~taken
        return s, lent

    def take_back(self, lent: Lent) -> None:
        """Cut this state's records back to what they were when :meth:`successor` lent
        them (``lent``): the successor's appends undone, the taken records this state's own
        again."""
        steps, trail, events, taken = lent
        del self.history[steps:]
        if self.trail is not None:
            del self.trail[trail:]
        if self.log is not None:
            del self.log[events:]
        self.shared &= ~taken

    def own(self, group: int) -> None:
        """Make the lists of ``group`` (COMBAT_STATUS, ENH_COUNTS, HISTORY or TRAIL) this
        state's own to write, copying them if a clone or an original shares them: the one
        copy-on-write step, which every writer of a shared list takes first (the module
        docstring). Cheap when nothing is shared: one bit test."""
        if not self.shared & group:
            return
        self.shared &= ~group
        if group == COMBAT_STATUS:
            self.damage, self.terminal = self.damage[:], self.terminal[:]
            self.pwr_mod, self.tgh_mod = self.pwr_mod[:], self.tgh_mod[:]
        elif group == ENH_COUNTS:
            if self.ecounts is not None:
                self.ecounts = self.ecounts[:]
            if self.ekeys is not None:
                self.ekeys = self.ekeys[:]
        elif group == HISTORY:
            self.history = self.history[:]
        elif self.trail is not None:  # TRAIL
            self.trail = self.trail[:]

    def add_history(self, action: object) -> None:
        """Append an applied decision to ``history`` (its own copy first, :meth:`own`)."""
        if self.shared & HISTORY:
            self.own(HISTORY)
        self.history.append(action)

    def __deepcopy__(self, memo: dict[int, object]) -> State:
        """``copy.deepcopy`` is :meth:`clone` (the OpenSpiel game's clone deep-copies its
        state): the same independent copy, some 300 times faster than copying field by
        field (the immutable settings, actions and events are shared)."""
        twin = self.clone()
        memo[id(self)] = twin
        return twin

    def zones(self) -> dict[str, list[int]]:
        """Every place a card can be, by name (for invariants and notation)."""
        out: dict[str, list[int]] = {}
        for p in (0, 1):
            for name in ("draw", "recycle", "discard", "hand", "home", "field", "domain"):
                out[f"{p + 1}.{name}"] = getattr(self, name)[p]
        out["stack"] = self.stack
        out["drawn"] = self.drawn
        out["attached"] = [e for h, es in self.enhs.items() for e in es]
        return out


def begin_combat(s: State) -> Combat:
    """A new, empty combat for ``s`` (rule 406): the state's last one, emptied, if it has one."""
    cb = s.spare_combat
    if cb is None:
        cb = Combat()
    else:
        s.spare_combat = None
        cb.reset()
    s.combat = cb
    return cb


def end_combat(s: State) -> None:
    """No combat any more (R16, rule 400); the ended one is kept to begin the next in."""
    cb = s.combat
    if cb is not None:
        s.spare_combat = cb
        s.combat = None
