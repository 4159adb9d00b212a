"""Live games: the in-memory cache of states, one lock per game, and every change committed
to the store before it is accepted. No HTTP here: :mod:`parlor.web.app` calls these methods
from its worker threads.

Each game has a *version*, the number of actions in its record. A client sends the version
it saw with each action; any other version (a double click, a second tab, a replayed
request) is refused and changes nothing. A takeback (R30) lowers the version, and new moves
raise it again on another line, so a game also counts its *takebacks*: a cached game, a
computer's decision or a hint is trusted only at the (takebacks, version) it was made at.
A game is rebuilt after a restart by replaying its record from the store, so it resumes
exactly.

Only :func:`parlor.rules.view.view` data for the human, the human's legal actions and the
log sentences as the human may read them leave through :meth:`Games.snapshot`.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from operator import itemgetter
from pathlib import Path
from typing import Any, TypedDict

from sqlalchemy.exc import SQLAlchemyError

from parlor.ai.belief import read_from
from parlor.ai.failure import AgentFailed
from parlor.ai.levels import NAMES
from parlor.ai.ratings import LevelRatings
from parlor.present.coach import coach
from parlor.present.explain import why
from parlor.present.failure import computer_failed, computer_lost, hint_failed
from parlor.present.forecast import forecast_lines
from parlor.present.phases import task
from parlor.present.prose import prose, result_words
from parlor.present.whynot import costs, why_not
from parlor.rules.actions import Action, ActionParseError, GameOverError, IllegalActionError
from parlor.rules.actions import WrongTurnError as EngineWrongTurn
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.events import Event
from parlor.rules.notation import RecordError, parse_record, record
from parlor.rules.seeds import KEY_BYTES, DealKey, Seed, check_seed, derive
from parlor.rules.state import NONE, Combat, Lent, Settings, State, card_text, ref_text
from parlor.rules.trail import PublicStep, public_step
from parlor.rules.view import (
    SPECTATOR,
    CombatView,
    SideView,
    TableCard,
    View,
    face_names,
    make_combat,
    make_side,
    recycle_face_up,
    ref_names,
    table_zone,
    view,
)
from parlor.store import GameRow, GameStore, StoreConflict
from parlor.store.friends import FriendSeats
from parlor.web.rating import RateAtEnd, RateFriendsAtEnd

log = logging.getLogger("parlor.web")

#: A game's status once its computer player failed: stored, shown, never played on.
FAILED = "failed"
#: The kind of a game between two people (parlor.web.friends): no computer ever moves in it.
FRIEND = "friend"
#: A friend game's status once a player aborted it before both had decided: no result.
ABORTED = "aborted"
#: A friend game the two players agreed to draw (issue 45): ended by them, not by the rules.
DRAWN = "drawn"
#: What ends a game beside the rules (stored on its row, not in its record).
STOPPED = (ABORTED, DRAWN)
#: Replay checkpoints: a saved state every this many actions.
CHECKPOINT = 32
MAX_RECORD_BYTES = 256 * 1024
MAX_RECORD_ACTIONS = 20_000


_UNAVAILABLE = ("the game store cannot save right now, so nothing was changed; try again in a "
                "moment")


def _sqlite_file(url: str) -> Path | None:
    """The file of a SQLite URL (None for memory databases and other databases)."""
    if not url.startswith("sqlite:///") or url in ("sqlite:///:memory:",):
        return None
    return Path(url[len("sqlite:///"):].split("?", 1)[0])


def _identity(path: Path | None) -> tuple[int, int] | None:
    try:
        st = os.stat(path) if path is not None else None
    except FileNotFoundError:
        return None
    return None if st is None else (st.st_dev, st.st_ino)


class GameError(Exception):
    """A request the game refuses; ``status`` is the HTTP status, ``code`` a short name."""

    status = 400
    code = "bad_request"

    def __init__(self, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        self.extra = extra


class GameNotFound(GameError):
    status, code = 404, "not_found"


class NotYourGame(GameError):
    status, code = 403, "forbidden"


class StaleVersion(GameError):
    status, code = 409, "stale"


class WrongTurn(GameError):
    status, code = 409, "not_your_turn"


class GameOver(GameError):
    status, code = 409, "game_over"


#: The decisions a player declares one by one and may take back before the declaration is
#: final (Games.preview): attackers (R8), blockers (R10), a split (1003.2), bonus points.
DECLARATIONS = frozenset({"attack", "block", "assign", "bonus"})


class BadAction(GameError):
    status, code = 400, "bad_action"


class IllegalAction(GameError):
    status, code = 422, "illegal"


class NoTakeback(GameError):
    status, code = 409, "no_takeback"


class GameBroken(GameError):
    status, code = 500, "broken"


class StaleForm(GameError):
    """A form without the CSRF token its page was given (an old page, or another site's)."""

    status, code = 403, "stale_form"


class WrongSeat(GameError):
    status, code = 403, "not_your_seat"


class Unavailable(GameError):
    """The store cannot make a change durable: nothing was changed (try again later)."""

    status, code = 503, "unavailable"


class ComputerFailed(GameError):
    """The computer player raised or answered an illegal action (a bug, in the log)."""

    status, code = 500, "computer_failed"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def watch_key(token_hash: str) -> str:
    """The key of a game's read-only spectator link. It is derived from the stored hash of the
    player's token, so the server keeps nothing new and the key reveals nothing of the token."""
    return hashlib.sha256(f"watch:{token_hash}".encode()).hexdigest()[:32]


def new_id() -> str:
    return secrets.token_urlsafe(9)


def agent_seed(seed: Seed, version: int, purpose: str = "agent") -> int:
    """The computer's seed for its decision at ``version`` (a replayed game decides alike):
    a keyed hash of the deal's seed, so the computer's play reveals nothing of the deal."""
    return derive(seed, f"{purpose}/{version}", 63)


def seed_of(row: GameRow) -> Seed:
    """The seed a stored game was dealt from: its deal key, or its practice number."""
    return DealKey.parse(row.deal) if row.deal else row.seed


def seed_json(seed: Seed) -> int | str:
    """A seed in a JSON reply: a practice number stays a number, a deal key is its text."""
    return seed if isinstance(seed, int) else str(seed)


def is_practice(row: GameRow) -> bool:
    """A game dealt from a number someone chose (or from before deal keys): anyone who knows
    the number knows the deal, so it is marked as practice."""
    return row.kind == "play" and not row.deal


class LiveGame:
    """A game in memory: its row, its state and its lock."""

    __slots__ = ("actions", "changed_at", "checkpoints", "combat", "driving", "last_human",
                 "lock", "logs", "positions", "public_trail", "row", "sides", "state",
                 "token_hash")

    def __init__(self, row: GameRow, token_hash: str, state: State, actions: list[str]) -> None:
        self.row = row
        self.token_hash = token_hash
        self.state = state
        self.actions = actions  # the record's actions (kept for replays)
        self.lock = threading.Lock()
        self.changed_at = time.monotonic()
        self.checkpoints: dict[int, State] = {}
        self.driving = False
        #: (takebacks, version) -> index of the human's last decision in the record: worked
        #: out once per position, for the snapshot's takeback offer and the takeback itself
        self.last_human: tuple[tuple[int, int], int | None] | None = None
        #: (takebacks, each seat's public trail so far): see :func:`live_agent_view`
        self.public_trail: tuple[int, tuple[list[PublicStep], list[PublicStep]]] | None = None
        #: (player, reader) -> the log entries written so far: see :func:`log_since`
        self.logs: dict[tuple[int | None, int | None], LogKept] = {}
        #: seat -> the reply's parts fixed by the live table: see :func:`position`
        self.positions: dict[int, Position] = {}
        #: viewer -> each side of the last table made, what it was made from and its
        #: JSON: see :func:`kept_sides` and :func:`encoded_payload`
        self.sides: dict[int, KeptSides] = {}
        #: the last combat's view made, what it was made from and its JSON: kept_combat
        self.combat: KeptCombat | None = None

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def human(self) -> int:
        return self.row.human

    @property
    def computer(self) -> int:
        return 1 - self.row.human

    @property
    def is_play(self) -> bool:
        return self.row.kind == "play"

    @property
    def is_friend(self) -> bool:
        return self.row.kind == FRIEND

    @property
    def failed(self) -> bool:
        """The computer player failed: the game stops (its row keeps the sentence)."""
        return self.row.status == FAILED

    def computer_to_act(self) -> bool:
        s = self.state
        return self.is_play and not self.failed and not s.is_over and s.actor == self.computer


@dataclass(frozen=True, slots=True)
class ComputerJob:
    """Everything the computer needs for one decision, and nothing from the live state."""

    game_id: str
    version: int
    level: str
    seed: int
    view: View
    legal: list[str]
    takebacks: int = 0  # the line the decision is made on (with ``version``)


@dataclass(frozen=True, slots=True)
class HintJob:
    version: int
    seed: int
    view: View
    legal: list[str]
    takebacks: int = 0


def _wait_for(live: LiveGame, actor: int) -> str:
    """Why a seat cannot decide now: whose decision it is."""
    if live.is_friend:
        return f"it is Rlr {actor + 1}'s decision: wait for it"
    return "it is the computer's decision: wait for it"


def _status(s: State) -> str:
    return "over" if s.is_over else "live"


def opponent_of(live: LiveGame | None, reader: int | None) -> str:
    """What the log, the result and the coach call the reader's opponent: "the computer",
    or across a table between two people (issue 45) "Rlr 2"."""
    if live is not None and live.is_friend and reader is not None:
        return f"Rlr {2 - reader}"
    return "the computer"


def _log_entries(s: State, player: int | None, start: int,
                 reader: int | None = None,
                 opponent: str = "the computer") -> list[dict[str, Any]]:
    """Log events as ``player`` may read them (``Event.text_for``; None: the public events),
    in prose for the person at seat ``reader`` ("you", "the computer"; None: "Rlr 1", "Rlr
    2"), with the sentence in notation, kind, rule and "why", all rendered from the event."""
    events = s.log or []
    out = []
    for i in range(max(0, start), len(events)):
        e = events[i]
        entry: dict[str, Any] = {"n": i, "text": prose(e, reader, player, opponent),
                                 "notation": e.text_for(player), "kind": e.kind,
                                 "rule": e.rule, "automatic": e.automatic}
        w = why(e)
        if w is not None:
            entry["why"] = w
        out.append(entry)
    return out


#: The log entries a game keeps written per reader: the last ones (a reply sends the
#: entries its client lacks, mostly those of the last action or two); older ones are
#: written again on demand (a reload), so a long game's memory does not grow with them.
LOG_KEPT = 64


@dataclass(slots=True)
class LogKept:
    """The log of one line of play as one reader is sent it (:func:`log_since`): the events
    seen so far, and the entries of those from ``base`` on, each written once."""

    events: list[Event]
    base: int
    entries: list[dict[str, Any]]


def log_since(live: LiveGame, s: State, player: int | None, start: int,
              reader: int | None = None) -> list[dict[str, Any]]:
    """``_log_entries(s, player, start, reader)`` (the reference, held equal by
    tests/web/test_reply_cache.py), the last entries written once per line of play and
    kept in ``live``: a reply writes only the entries of the events it has not yet seen,
    and copies those from ``start`` on, so that it costs the same late in a game as early.
    Entries older than the kept ones (:data:`LOG_KEPT`) are written for the reply that
    sends them (a reload): a reply writes no entry it does not send.

    A log only grows on one line of play, its events shared by every later state; another
    line (a takeback, a reload from the store) has other event objects, and starts the
    kept entries anew. Only the live state's entries are kept: a trial state's (a preview)
    are written and dropped. Call it under ``live.lock``."""
    events = s.log or []
    start = max(0, start)
    them = opponent_of(live, reader)  # one name per game and reader: kept entries stay good
    kept = live.logs.get((player, reader))
    if kept is None:
        kept = live.logs[(player, reader)] = LogKept([], 0, [])
    seen = kept.events
    m = min(len(seen), len(events))
    if m and (events[m - 1] is not seen[m - 1] or events[0] is not seen[0]):
        if s is not live.state:  # another line than the kept one, and not the live one
            return _log_entries(s, player, start, reader, them)
        seen.clear()
        m = 0
    if not seen:  # nothing kept: from the first entry this reply sends
        kept.base = min(start, len(events))
        kept.entries.clear()
    if s is live.state and len(events) > len(seen):
        kept.entries.extend(_log_entries(s, player, max(len(seen), kept.base), reader, them))
        seen.extend(events[len(seen):])
        m = len(events)
        if len(kept.entries) > 2 * LOG_KEPT:
            del kept.entries[:len(kept.entries) - LOG_KEPT]
            kept.base = m - LOG_KEPT
    # events[:m] are seen; of those, entries from kept.base on are kept
    base, entries = kept.base, kept.entries
    if m < base:  # an earlier state than those kept (never expected)
        return _log_entries(s, player, start, reader, them)
    if start >= base:
        out = entries[start - base:m - base]
    else:  # older entries than those kept: written for this reply
        out = _log_entries(s, player, start, reader, them)[:base - start] + entries[:m - base]
    if len(events) > m:  # a trial state's own entries, not kept
        out += _log_entries(s, player, max(start, m), reader, them)
    return out


class Encoded(dict[str, Any]):
    """A dict that carries its own JSON text (``json``, and ``raw`` in UTF-8), written once,
    for :func:`encode_reply`: equal to the plain dict, encoded alike by ``json.dumps``."""

    __slots__ = ("json", "raw")

    def __init__(self, d: dict[str, Any], json: str | None = None) -> None:
        """``json``, when given, is ``d``'s own JSON, written by the caller
        (:func:`encoded_side`)."""
        super().__init__(d)
        self.json = _encode(d) if json is None else json
        self.raw = self.json.encode("utf-8")


#: JSON as starlette's ``JSONResponse`` writes it (one encoder: ``json.dumps`` with these
#: options builds one per call).
_dumps = json.JSONEncoder(ensure_ascii=False, allow_nan=False, indent=None,
                          separators=(",", ":")).encode


def encode_reply(content: Any) -> bytes:
    """``content`` as starlette's ``JSONResponse`` encodes it, byte for byte, with the
    text its :class:`Encoded` values (the table, its sides, the learning aids' "why
    not") already carry: the table's JSON grows with the cards on it (4.5 KB at step
    500, 100 µs to encode), and every reply at one position carries the same."""
    pieces = _spliced(content)
    return b"".join([p if isinstance(p, bytes) else p.encode("utf-8") for p in pieces])


def _encode(content: Any) -> str:
    """``_dumps(content)`` with the text of the :class:`Encoded` dicts it holds spliced in
    (:func:`_spliced`)."""
    return "".join([p if isinstance(p, str) else p.decode("utf-8")
                    for p in _spliced(content, text=True)])


def _spliced(content: Any, text: bool = False) -> list[str | bytes]:
    """The pieces of ``_dumps(content)``: the JSON written around the :class:`Encoded`
    dicts among ``content``'s values (or in a tuple among them), and their own JSON (as
    text, or ``raw`` unless ``text``). Each is first encoded as a placeholder string, found
    in the (short) JSON around them, and its own JSON put in its place; if a placeholder is
    not found exactly once, ``content`` is encoded plainly."""
    if not isinstance(content, dict):
        return [_dumps(content)]
    found: list[tuple[str, Encoded]] = []

    def mark(v: Encoded) -> str:
        m = f"\u0000parlor:{len(found)}\u0000"
        found.append((f'"{m}"'.replace("\u0000", "\\u0000"), v))
        return m

    shallow = dict(content)
    for k, v in content.items():
        if type(v) is Encoded:
            shallow[k] = mark(v)
        elif type(v) is tuple and any(type(x) is Encoded for x in v):
            shallow[k] = tuple(mark(x) if type(x) is Encoded else x for x in v)
    if not found:
        return [_dumps(content)]
    around = _dumps(shallow)
    if not all(around.count(m) == 1 for m, _ in found):
        return [_dumps(content)]
    pieces: list[str | bytes] = []
    for m, v in found:  # in the order written: a dict's, then a tuple's
        head, _, around = around.partition(m)
        pieces += (head, v.json if text else v.raw)
    pieces.append(around)
    return pieces


@dataclass(frozen=True, slots=True)
class Position:
    """The parts of a reply fixed by the table a seat sees (the table, its phase's task,
    the learning aids, the result), made once per position (:func:`position`)."""

    state: State
    steps: int  # len(state.history) and of its log when made: a state grows in place on a
    events: int  # refresh (Games._refresh_locked), and its parts are then made again
    parts: dict[str, Any]


def position(live: LiveGame, s: State, seat: int) -> dict[str, Any]:
    """The reply's parts fixed by ``s`` as ``seat`` sees it (:data:`SPECTATOR`: public):
    made again only when the table changed (another state, or this one grown), kept for
    the live state, so that the replies at one position (long polls, reloads, spectators)
    share them and their JSON (:class:`Encoded`). ``_position_parts`` is the reference,
    held equal by tests/web/test_reply_cache.py. Call it under ``live.lock``."""
    kept = live.positions.get(seat)
    steps, events = len(s.history), len(s.log or ())
    if kept is not None and kept.state is s and kept.steps == steps and kept.events == events:
        return kept.parts
    parts = _position_parts(s, seat, live)
    if seat != SPECTATOR:  # a sentence per card that cannot act: 1 KB at step 500 (the
        # other aids, a few short entries, cost less to encode at each reply than to keep)
        parts["why_not"] = Encoded(parts["why_not"])
    if s is live.state:
        live.positions[seat] = Position(s, steps, events, parts)
    return parts


def side_reads(s: State, q: int) -> tuple[Any, ...]:
    """What ``make_side(s, q, viewer)`` reads of ``s`` (parlor.rules.view, its table cards'
    statuses included), as they are now. A side made from reads equal to these is the side
    made anew: compared whole (a list, a set, a dict of lists), at C speed, whatever the
    number of cards on the table. (:func:`_same_zones` reads the table's by their places
    here.)"""
    return (s.settings.match_play, s.life[q], s.pool[q], s.hand[q], len(s.draw[q]),
            s.recycle[q], s.public_recycle[q], s.discard[q], s.home[q], s.field[q],
            s.domain[q], s.taxed, s.inactive, s.damage, s.terminal, s.pwr_mod, s.tgh_mod,
            s.enhs)


def _copied(read: Any) -> Any:
    """A copy of one of :func:`side_reads`' (or :func:`combat_reads`') values that the
    state's changes leave as it is (a state changes its lists in place)."""
    if type(read) is list:
        return read[:]
    if type(read) is set:
        return set(read)
    if type(read) is dict:  # of ints, or of lists (a state's Enhs by host)
        return {k: v[:] if type(v) is list else v for k, v in read.items()}
    return read


def _copies(reads: tuple[Any, ...], kept: tuple[Any, ...] | None,
            other: tuple[Any, ...] | None) -> tuple[Any, ...]:
    """Copies of ``reads`` (:func:`_copied`): at each place, ``kept``'s copy (what the side
    was made from before) or else ``other``'s (the other side's, just made: the status
    lists are both sides' reads) when it is equal, a new copy otherwise. (A generator
    searching both at each of the 18 places cost the side 10 us, compiled build.)"""
    out = []
    for i, r in enumerate(reads):
        if kept is not None and kept[i] == r:
            out.append(kept[i])
        elif other is not None and other[i] == r:
            out.append(other[i])
        else:
            out.append(_copied(r))
    return tuple(out)


@dataclass(slots=True)
class KeptSide:
    """One side of a table as made for a viewer: what it was made from (copies of
    :func:`side_reads`), the side, and its JSON once a reply encoded it."""

    reads: tuple[Any, ...]
    side: SideView
    encoded: Encoded | None = None
    #: the JSON of each of the side's fields once written (:func:`side_json`)
    pieces: tuple[str, ...] | None = None
    #: the side this one was made again from, and its fields' JSON, until it is written:
    #: what it shows unchanged is not written again
    was: tuple[SideView, tuple[str, ...]] | None = None


KeptSides = tuple[KeptSide, KeptSide]


def kept_sides(live: LiveGame, s: State, player: int) -> tuple[SideView, SideView]:
    """``(make_side(s, 0, player), make_side(s, 1, player))`` (the reference, held equal by
    tests/web/test_reply_cache.py), each side kept from the last table made for this
    viewer while what it reads is unchanged (:func:`side_reads`): after a move the side
    that did not act, mostly, and at a position answered again (a long poll, a reload)
    both. A late side holds 10 cards or more, and making it cost 2 to 3 times an early
    one's. Call it under ``live.lock``."""
    kept = live.sides.get(player)
    made: list[KeptSide] = []
    for q in (0, 1):
        reads = side_reads(s, q)
        k = None if kept is None else kept[q]
        if k is None or k.reads != reads:
            side = make_side(s, q, player) if k is None else side_again(s, q, player, k, reads)
            # the copies of what did not change shared (the status lists, 6 of 104 each,
            # are both sides' reads): a game's kept sides stay a few kilobytes
            copies = _copies(reads, None if k is None else k.reads,
                             made[0].reads if made else None)
            if k is None:
                k = KeptSide(copies, side)
            elif k.side == side:
                k = KeptSide(copies, k.side, k.encoded, k.pieces, k.was)
            else:
                k = KeptSide(copies, side, was=k.was if k.pieces is None
                             else (k.side, k.pieces))
        made.append(k)
    live.sides[player] = (made[0], made[1])
    return made[0].side, made[1].side


def _successor_with(s: State, text: str, player: int) -> tuple[State, Lent]:
    """The successor of ``s`` (:meth:`State.successor`: the records lent, as in
    :meth:`Games.act`) with the computer's ``text`` applied for ``player``; the records taken
    back if the engine refuses it."""
    trial, lent = s.successor()
    try:
        apply(trial, text, player=player)
    except BaseException:
        s.take_back(lent)
        raise
    return trial, lent


#: Where :func:`side_reads` holds what a side's table cards (its Home and Field) read:
#: the zones' cards, every card's statuses (taxed to Enhs' Pwr and Tgh: ``_STATUSES``) and
#: Enhs (``_ENHS``).
_ZONES_AT = slice(8, 10)
_STATUSES = range(11, 17)
_ENHS = 17


def _same_zones(k: KeptSide, reads: tuple[Any, ...]
                ) -> tuple[tuple[TableCard, ...], tuple[TableCard, ...]] | None:
    """The Home and Field of ``k``'s side when what they read is unchanged in ``reads``
    (a keep, a draw, a payment change the Hand, the piles or the pool, not the table):
    found without reading the table's cards (a late zone's key is read card by card,
    :func:`parlor.rules.view.table_zone`); None when the table changed."""
    old = k.reads
    if old[_ZONES_AT] != reads[_ZONES_AT]:
        return None
    # The statuses and Enhs are read for all cards at once, both sides' (a list of 104
    # compared at C speed); when they differ, only this side's cards are looked at: the
    # other side's untax (each turn's start) or payment leaves this side's cards as they
    # are, and its zones need not be read again (14 cards or more late in a game).
    cards = reads[8] + reads[9]
    if not cards:
        return k.side.home, k.side.field
    got = itemgetter(*cards)  # (one card: its value, not a 1-tuple; both sides alike)
    for i in _STATUSES:
        if old[i] != reads[i] and got(old[i]) != got(reads[i]):
            return None
    before, now = old[_ENHS], reads[_ENHS]
    if before != now and any(before.get(c) != now.get(c) for c in cards):
        return None
    return k.side.home, k.side.field


#: Where :func:`side_reads` holds what a side's piles read: whether the discard pile is
#: closed, the Hand, the recycle pile and its face-up cards, the discard pile, the domain.
_CLOSED, _HAND, _RECYCLE, _FACE_UP, _DISCARD, _DOMAIN = 0, 3, 5, 6, 7, 10


def side_again(s: State, q: int, viewer: int, k: KeptSide, reads: tuple[Any, ...]
               ) -> SideView:
    """``make_side(s, q, viewer)`` (the reference, held equal by
    tests/web/test_reply_cache.py) made again from ``k`` (this viewer's side of Rlr ``q``,
    made from ``k.reads``): each list of names whose cards are unchanged in ``reads`` is
    ``k.side``'s (a pile's tuple of names, a Hand's, the domain's), its zones likewise
    (:func:`_same_zones`). A pile only grows in a game (or is replaced), and late in it
    the discard and recycle piles hold tens of cards: naming them all again after each
    move, when mostly one side's Hand or table changed, cost a late side more than an
    early one. The counts and the pool are read anew (cheaper than compared)."""
    old, was = k.reads, k.side
    own = q == viewer
    zones = _same_zones(k, reads)
    if old[_RECYCLE] == reads[_RECYCLE] and old[_FACE_UP] == reads[_FACE_UP]:
        known, face_up = was.recycle_known, was.recycle_face_up
    else:
        up = recycle_face_up(s, q)
        known, face_up = face_names(sorted(s.recycle[q]) if own else up), face_names(up)
    same_discard = old[_CLOSED] == reads[_CLOSED] and old[_DISCARD] == reads[_DISCARD]
    return SideView(
        life=s.life[q],
        pool=(s.pool[q][0], s.pool[q][1], s.pool[q][2], s.pool[q][3]),
        hand=was.hand if old[_HAND] == reads[_HAND] else face_names(s.hand[q]) if own else None,
        hand_count=len(s.hand[q]),
        draw_count=len(s.draw[q]),
        recycle_count=len(s.recycle[q]),
        recycle_known=known,
        recycle_face_up=face_up,
        discard=was.discard if same_discard
        else None if s.settings.match_play else face_names(s.discard[q]),
        discard_count=len(s.discard[q]),
        home=table_zone(s, s.home[q]) if zones is None else zones[0],
        field=table_zone(s, s.field[q]) if zones is None else zones[1],
        domain=was.domain if old[_DOMAIN] == reads[_DOMAIN] else ref_names(s.domain[q]),
    )


def combat_reads(cb: Combat) -> tuple[Any, ...]:
    """What ``make_combat(cb)`` (parlor.rules.view) reads of ``cb``, as :func:`side_reads`
    for a side."""
    return (cb.attackers, cb.blocking, cb.blocked, cb.used, cb.pending, cb.split_queue,
            cb.split_left, cb.bonus_left, cb.bonus_to, cb.o_dealt)


@dataclass(slots=True)
class KeptCombat:
    """A combat's view as made (:func:`kept_combat`): what it was made from (copies of
    :func:`combat_reads`), the view, and its JSON once a reply encoded it."""

    reads: tuple[Any, ...]
    combat: CombatView
    encoded: Encoded | None = None


def kept_combat(live: LiveGame, s: State) -> CombatView | None:
    """``make_combat(s.combat)`` (None without a combat; the reference, held equal by
    tests/web/test_reply_cache.py), kept from the last one made for this game while what
    it reads is unchanged: the same for every viewer, and unchanged through the replies
    of a combat's steps where only a side changes. Call it under ``live.lock``."""
    cb = s.combat
    if not cb:
        return None
    reads, k = combat_reads(cb), live.combat
    if k is None or k.reads != reads:
        k = live.combat = KeptCombat(tuple([_copied(r) for r in reads]), make_combat(cb))
    return k.combat


def encoded_payload(live: LiveGame, v: View) -> Encoded:
    """``view_payload(v)`` (the reference, held equal by tests/web/test_reply_cache.py) with
    its JSON, each side's part that of the side kept for this viewer (:func:`kept_sides`)
    when ``v`` shows it, written at most once per side: a side's cards are most of the
    table's JSON. Call it under ``live.lock``."""
    kept = live.sides.get(v.player)
    sides = []
    for q in (0, 1):
        side = v.sides[q]
        k = None if kept is None else kept[q]
        if k is None or (k.side is not side and k.side != side):
            sides.append(encoded_side(side))
            continue
        if k.encoded is None:
            k.encoded, k.pieces = side_json(side, k.was)
            k.was = None
        sides.append(k.encoded)
    d = _flat(v, _VIEW_FIELDS)
    d["settings"] = str(v.settings)
    d["sides"] = (sides[0], sides[1])
    if v.combat is not None:
        c = live.combat
        if c is not None and (c.combat is v.combat or c.combat == v.combat):
            if c.encoded is None:
                c.encoded = Encoded(_flat(v.combat, _COMBAT_FIELDS))
            d["combat"] = c.encoded
        else:
            d["combat"] = _flat(v.combat, _COMBAT_FIELDS)
    return Encoded(d)


def _position_parts(s: State, seat: int, live: LiveGame | None = None) -> dict[str, Any]:
    """What :func:`position` keeps, made from ``s`` (and the sides ``live`` keeps, when
    given: :func:`encoded_payload`)."""
    v = table_view(s, seat) if live is None else view(
        s, seat, log=False, trail=False, sides=kept_sides(live, s, seat),
        combat=kept_combat(live, s))
    reader = None if seat == SPECTATOR else seat
    them = opponent_of(live, reader)
    parts: dict[str, Any] = {
        "task": task(v.phase),
        "view": view_payload(v) if live is None else encoded_payload(live, v),
        "result_text": result_words(s.log, s.result, reader, them) if s.result else None,
    }
    if seat != SPECTATOR:
        parts["choices"] = choices(v)
        parts.update(learning_aids(s, seat, them))
    return parts


def view_payload(v: View) -> dict[str, Any]:
    """``v.to_dict()`` without the log (sent apart, as entries with their kind and rule).

    The same dict, key for key and in the same order, built without ``dataclasses.asdict``'s
    deep copies (tests hold them equal), because every reply carries one: each value type is
    copied field by field, and a field holding no dataclass (a scalar, a tuple of strings) is
    shared as it is, immutable, instead of walked.

    >>> from parlor.rules.engine import new_game
    >>> s = new_game(3)
    >>> expected = view(s, 0).to_dict()
    >>> del expected["log"], expected["log_why"]
    >>> view_payload(view(s, 0)) == expected
    True
    """
    d = _flat(v, _VIEW_FIELDS)
    d["settings"] = str(v.settings)
    d["sides"] = (_side_dict(v.sides[0]), _side_dict(v.sides[1]))
    if v.combat is not None:
        d["combat"] = _flat(v.combat, _COMBAT_FIELDS)
    return d


class Choice(TypedDict):
    """One legal action, parsed: see :func:`choices`."""

    text: str
    verb: str
    card: str | None
    target: str | None


def choices(v: View) -> list[Choice]:
    """The reader's legal actions (``v.legal``) as the engine parses them, so that the page
    reads each one's parts instead of parsing the notation a second time: its ``verb``, the
    acting ``card`` (a face, the reader's own) and the ``target`` (``2:KS``, ``D1``, ``T``),
    None where the action has none; ``text`` is the action as sent back.

    >>> from parlor.rules.engine import new_game
    >>> s = new_game(3)
    >>> choices(view(s, s.actor))[0]
    {'text': 'keep JC', 'verb': 'keep', 'card': 'JC', 'target': None}
    """
    out: list[Choice] = []
    for text in v.legal:
        verb, card, target = _parts(text)
        out.append(Choice(text=text, verb=verb, card=card, target=target))
    return out


@lru_cache(maxsize=8192)
def _parts(text: str) -> tuple[str, str | None, str | None]:
    """The engine's parse of one action text. Every reply carries its legal actions and the
    same few thousand texts recur across games, so each is parsed once (a late position's 133
    cost 0.45 ms a reply to parse anew, interpreted)."""
    a = Action.parse(text)
    return (a.verb, card_text(a.card) if a.card != NONE else None,
            ref_text(a.target) if a.target != NONE else None)


def _names(t: type, leave: tuple[str, ...] = ()) -> tuple[str, ...]:
    return tuple(f.name for f in fields(t) if f.name not in leave)


#: The fields sent, in their order; the history (log, log_why, trail) is not among them.
_VIEW_FIELDS = _names(View, ("log", "log_why", "trail"))
_SIDE_FIELDS = _names(SideView)
_CARD_FIELDS = _names(TableCard)
_COMBAT_FIELDS = _names(CombatView)


def _flat(x: Any, names: tuple[str, ...]) -> dict[str, Any]:
    return {n: getattr(x, n) for n in names}


def _side_dict(side: SideView) -> dict[str, Any]:
    d = _flat(side, _SIDE_FIELDS)
    d["home"] = tuple(_flat(c, _CARD_FIELDS) for c in side.home)
    d["field"] = tuple(_flat(c, _CARD_FIELDS) for c in side.field)
    return d


#: Each table card sent, with its dict and its JSON, by the card's id: a TableCard is made
#: once for what it shows and shared (parlor.rules.view._table_card), and a side's cards are
#: most of its JSON (1.6 KB for 10 cards at step 500), most of them as they were when the
#: last table was sent. The card is kept beside, so that an id taken by a later card is
#: never mistaken for it; cleared when full, so that it stays bounded (about 600 bytes a
#: card: 6 MB at most). Public values only.
_CARDS_SENT: dict[int, tuple[TableCard, dict[str, Any], str]] = {}
CARDS_SENT_KEPT = 10_000
def _card_sent(tc: TableCard) -> tuple[TableCard, dict[str, Any], str]:
    kept = _CARDS_SENT.get(id(tc))
    if kept is None or kept[0] is not tc:
        if len(_CARDS_SENT) >= CARDS_SENT_KEPT:
            _CARDS_SENT.clear()
        d = _flat(tc, _CARD_FIELDS)
        kept = _CARDS_SENT[id(tc)] = (tc, d, _dumps(d))
    return kept


#: Each zone sent (a Home or a Field: a tuple of table cards), with its cards' dicts and its
#: JSON, by the tuple's id: parlor.rules.view makes a zone once for what it shows and
#: hands out the same tuple while it shows it (``table_zone``), so a side made again after a
#: move (its Hand, its life or pool changed) finds its zones whole, and a changed zone
#: finds its unchanged cards in :data:`_CARDS_SENT`: a side's JSON no longer walks its
#: cards one by one (10 or more late in a game) each time it is made. The zone is kept
#: beside, as the cards are; cleared when full.
_ZONES_SENT: dict[int, tuple[tuple[TableCard, ...], tuple[dict[str, Any], ...], str]] = {}
ZONES_SENT_KEPT = 5_000


def _zone_sent(zone: tuple[TableCard, ...]
               ) -> tuple[tuple[TableCard, ...], tuple[dict[str, Any], ...], str]:
    kept = _ZONES_SENT.get(id(zone))
    if kept is None or kept[0] is not zone:
        if len(_ZONES_SENT) >= ZONES_SENT_KEPT:
            _ZONES_SENT.clear()
        cards = [_card_sent(c) for c in zone]
        kept = _ZONES_SENT[id(zone)] = (
            zone, tuple([k[1] for k in cards]), "[" + ",".join([k[2] for k in cards]) + "]")
    return kept


def encoded_side(side: SideView) -> Encoded:
    """``Encoded(_side_dict(side))`` (the reference, held equal by
    tests/web/test_reply_cache.py), written by :func:`side_json`."""
    return side_json(side)[0]


#: Each field of a side as its JSON starts: its name, '"life":'.
_SIDE_KEYS = tuple(_dumps(name) + ":" for name in _SIDE_FIELDS)
_ZONE_FIELDS = frozenset(("home", "field"))


def side_json(side: SideView, was: tuple[SideView, tuple[str, ...]] | None = None
              ) -> tuple[Encoded, tuple[str, ...]]:
    """``Encoded(_side_dict(side))`` (the reference, held equal by
    tests/web/test_reply_cache.py) and the JSON of each of its fields ('"name":value'),
    of which its JSON is made. Each zone's dicts and JSON are made once per zone
    (:func:`_zone_sent`; a new zone's cards once per card, :func:`_card_sent`); each other
    field equal to ``was``' side's (the side this one was made again from, and its
    fields' JSON) is ``was``' JSON, a zone the same tuple likewise. A side made again
    after a move shows mostly what it showed (after the computer's untax, its Home and
    a count), and late in a game its piles hold tens of cards and its zones 2 KB of JSON:
    writing the side whole, or around its zones' JSON, cost a late side more than an
    early one."""
    d = _flat(side, _SIDE_FIELDS)
    old, old_pieces = (None, ()) if was is None else was
    pieces = []
    for i, name in enumerate(_SIDE_FIELDS):
        v = d[name]
        if name in _ZONE_FIELDS:
            _, d[name], text = _zone_sent(v)
            same = old is not None and getattr(old, name) is v
            pieces.append(old_pieces[i] if same else _SIDE_KEYS[i] + text)
        elif old is not None and getattr(old, name) == v:
            pieces.append(old_pieces[i])
        else:  # (an int's JSON is its str, as json writes it: no bool among a side's)
            pieces.append(_SIDE_KEYS[i] + (str(v) if type(v) is int else _dumps(v)))
    return Encoded(d, "{" + ",".join(pieces) + "}"), tuple(pieces)


def learning_aids(s: State, player: int, opponent: str = "the computer") -> dict[str, Any]:
    """What the table shows a learner: each Hand card's cost, why a card has no legal action
    now, the coach's line for each consequential decision and the fight's forecast for each
    combat decision (issue 41: what follows if nobody plays another card, from what
    ``player`` sees; the page decides whether the coach speaks), the other side named
    ``opponent``."""
    return {"costs": costs(s, player), "why_not": why_not(s, player),
            "coach": coach(s, player, f"{opponent}'s"),
            "forecast": forecast_lines(s, player, opponent)}


def table_view(s: State, player: int) -> View:
    """``view(s, player)`` as a browser is sent it: without its log (whose sentences are
    sent apart, from ``log_from`` on, by :func:`_log_entries`) nor its trail (the agents'
    reading, 107.1, never sent), so that a reply renders none of the history: it costs
    the same late in a game as early (bench/web_reply.py)."""
    return view(s, player, log=False, trail=False)


def agent_view(s: State, player: int) -> View:
    """``view(s, player)`` as a computer player reads it: with the trail of the other
    side's decisions (107.1; an agent is built anew for each decision, so it has no memory
    of them), without the log."""
    return view(s, player, log=False)


def read_trail(v: View) -> View:
    """``v`` with the part of its trail that the levels read (from the opponent's last
    keep: :func:`parlor.ai.belief.read_from`), what a computer's or a hint's job carries:
    the whole trail grows with the game and is pickled at each decision (136 us against
    35 for the same table at step 500, interpreted), and no level reads more of it."""
    start = read_from(v.trail, v.player)
    return v if start == 0 else replace(v, trail=v.trail[start:])


def live_agent_view(live: LiveGame, player: int) -> View:
    """``read_trail(agent_view(live.state, player))`` (the reference, held equal by
    tests/web/test_snapshot_history.py), each public step of its trail written once per
    seat and kept (the reference writes the whole trail at every decision: 0.9 ms at step
    500 of the compiled build, growing with the game). On one line of play (the same
    ``takebacks``) the record, hence the trail, only grows; a takeback starts the kept
    steps anew. Call it under ``live.lock``."""
    s = live.state
    if not s.trail or s.settings.match_play:
        return agent_view(s, player)  # no trail to keep (match play shows none, 109)
    if live.public_trail is None or live.public_trail[0] != live.row.takebacks:
        live.public_trail = (live.row.takebacks, ([], []))
    steps = live.public_trail[1][player]
    if len(steps) > len(s.trail):  # never expected on one line: start again
        steps.clear()
    steps.extend(public_step(st, player) for st in s.trail[len(steps):])
    return replace(view(s, player, log=False, trail=False),
                   trail=tuple(steps[read_from(steps, player):]))


class Games:
    """The live games of one server: cache, locks, store."""

    def __init__(self, store: GameStore, max_cached: int = 500,
                 ratings: LevelRatings | None = None) -> None:
        self.store = store
        self.max_cached = max_cached
        #: the computer levels' ratings (issue 43): a rated game is rated as it ends, in
        #: the transaction that stores its end, whichever process makes the last move
        self.ratings = ratings or LevelRatings()
        store.at_end.append(RateAtEnd(store, self.ratings))
        store.at_end.append(RateFriendsAtEnd(store))  # issue 45: two accounts' friend game
        self._cache: OrderedDict[str, LiveGame] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._loading: dict[str, threading.Lock] = {}
        self._db_file = _sqlite_file(store.url)
        self._db_identity = _identity(self._db_file)
        #: The wall clock each action is stored with (``actions.at``): a friend game's clocks
        #: are read from those times (parlor.web.friendclock), so tests set it to control them.
        self.now: Callable[[], float] = time.time

    # -- durability ----------------------------------------------------------------------------

    def _file_lost(self) -> str | None:
        """Why the SQLite file the server opened is no longer where it was, or None. Writes
        to a deleted (or replaced) file would succeed and vanish at the next start."""
        if self._db_file is None:
            return None
        now = _identity(self._db_file)
        if now is None:
            return f"the database file {self._db_file} is missing"
        if now != self._db_identity:
            return f"the database file {self._db_file} was replaced"
        return None

    @contextmanager
    def durable(self) -> Iterator[None]:
        """Around every write: a store that cannot keep it answers Unavailable (503). Callers
        change memory only after this block, so a refused write changes nothing."""
        lost = self._file_lost()
        if lost is not None:
            log.error("refusing a write: %s", lost)
            raise Unavailable(_UNAVAILABLE)
        try:
            yield
        except SQLAlchemyError as exc:
            log.error("a write failed in the store: %s", exc)
            raise Unavailable(_UNAVAILABLE) from None

    def health(self) -> int:
        """A real query (the number of games); Unavailable if the store cannot answer."""
        lost = self._file_lost()
        if lost is not None:
            raise Unavailable(lost)
        try:
            return self.store.count()
        except SQLAlchemyError as exc:
            raise Unavailable(f"the database does not answer: {type(exc).__name__}") from None

    def _insert(self, row: GameRow, token_hash: str, moves: list[str]) -> None:
        with self.durable():
            self.store.insert(row, token_hash, moves)

    # -- creating and loading ------------------------------------------------------------------

    def create(self, level: str, seed: int | None = None, max_turns: int = 200,
               human: int = 0, match_play: bool = False) -> tuple[LiveGame, str]:
        """A new game against the computer; returns it and the player's secret token.

        Without ``seed`` the deal comes from a fresh 128-bit key (R31: nobody can work it
        out from the cards seen); a ``seed`` makes a practice game anyone with the number
        can deal again, and is marked so. BadAction for a level parlor.ai does not offer
        (never another level in its place). ``match_play``: no takeback and closed
        Discards (109, 1306); else casual."""
        if level not in NAMES:
            raise BadAction(f"unknown level {level!r}: choose one of {', '.join(NAMES)}")
        dealt: Seed = DealKey(secrets.token_bytes(KEY_BYTES)) if seed is None \
            else check_seed(seed)
        settings = Settings(max_turns=max_turns, match_play=match_play)
        state = new_game(dealt, settings)
        token = secrets.token_urlsafe(24)
        now = time.time()
        title = f"You against {level}" if seed is None \
            else f"Practice against {level}, seed {seed}"
        row = GameRow(id=new_id(), kind="play", human=human, level=level,
                      seed=dealt if isinstance(dealt, int) else 0,
                      deal="" if isinstance(dealt, int) else str(dealt),
                      settings=str(settings), created=now, updated=now, version=0,
                      turn=state.turn, status=_status(state), result=state.result,
                      title=title + (" (match)" if match_play else ""))
        moves = [str(a) for a in state.history]  # none unless the deal applied something
        row = replace(row, version=len(moves))
        self._insert(row, hash_token(token), moves)
        live = LiveGame(row, hash_token(token), state, moves)
        self._remember(live)
        return live, token

    def create_contest(self, *, kind: str, level: str, seed: Seed, settings: Settings,
                       human: int, title: str, token_hash: str,
                       game_id: str | None = None) -> LiveGame:
        """A tournament's contest: ``kind`` "play" (the person at seat ``human`` against the
        computer at ``level``) or "match" (two computers, ``level`` "LEVEL1|LEVEL2", played by
        :mod:`parlor.web.tournaments` through :meth:`apply_match`), opened by the token whose
        hash is ``token_hash``. A "match" is never shown through :meth:`snapshot` (that is a
        player's view): its token is handed out only once it is over, for its replay."""
        state = new_game(seed, settings)
        now = time.time()
        moves = [str(a) for a in state.history]
        row = GameRow(id=game_id or new_id(), kind=kind, human=human, level=level,
                      seed=seed if isinstance(seed, int) else 0,
                      deal="" if isinstance(seed, int) else str(seed), settings=str(settings),
                      created=now, updated=now, version=len(moves),
                      turn=state.turn, status=_status(state), result=state.result,
                      title=title)
        self._insert(row, token_hash, moves)
        live = LiveGame(row, token_hash, state, moves)
        self._remember(live)
        return live

    def rematch(self, live: LiveGame, level: str | None = None) -> tuple[LiveGame, str]:
        """A new deal against ``level``, by default the same computer level; an imported
        record has none, so its rematch must name one (BadAction listing them)."""
        if level is None and not live.is_play:
            raise BadAction("an imported record has no computer opponent to play again: "
                            "choose a level, one of " + ", ".join(NAMES), levels=list(NAMES))
        settings = Settings.parse(live.row.settings)
        return self.create(level or live.row.level, None, settings.max_turns,
                           match_play=settings.match_play)  # a rematch keeps the mode

    def import_record(self, text: str) -> tuple[LiveGame, str]:
        """Store a game record for step-by-step replay; raises BadAction naming the line."""
        if len(text.encode()) > MAX_RECORD_BYTES:
            raise BadAction(f"a record is at most {MAX_RECORD_BYTES // 1024} KB")
        try:
            settings, seed, parsed = parse_record(text)
        except (RecordError, ValueError) as exc:
            raise BadAction(f"not a game record: {exc}") from None
        if settings.max_turns > 10_000:
            raise BadAction("not a game record: max_turns is at most 10000 here")
        if len(parsed) > MAX_RECORD_ACTIONS:
            raise BadAction(f"a record has at most {MAX_RECORD_ACTIONS} actions")
        state = new_game(seed, settings)
        for line_no, action in parsed:
            try:
                apply(state, action)
            except ValueError as exc:
                raise BadAction(f"line {line_no}: {action}: {exc}") from None
        moves = [str(a) for a in state.history]
        token = secrets.token_urlsafe(24)
        now = time.time()
        shown = str(seed) if isinstance(seed, int) else f"{str(seed)[:12]}…"
        row = GameRow(id=new_id(), kind="replay", human=0, level="-",
                      seed=seed if isinstance(seed, int) else 0,
                      deal="" if isinstance(seed, int) else str(seed),
                      settings=str(settings), created=now, updated=now, version=len(moves),
                      turn=state.turn, status=_status(state), result=state.result,
                      # an int seed is shown beside the title; a longer one only here
                      title="Imported record" if isinstance(seed, int)
                      else f"Imported record, seed {shown}")
        self._insert(row, hash_token(token), moves)
        live = LiveGame(row, hash_token(token), state, moves)
        self._remember(live)
        return live, token

    def cached_count(self) -> int:
        """Games held in memory now (for /metrics)."""
        return len(self._cache)

    def cached(self, game_id: str) -> LiveGame | None:
        """The game if it is in memory (no store access: safe on the event loop)."""
        with self._cache_lock:
            live = self._cache.get(game_id)
            if live is not None:
                self._cache.move_to_end(game_id)
            return live

    def get(self, game_id: str) -> LiveGame:
        """The live game (replayed from the store when not in memory); GameNotFound."""
        if not game_id or len(game_id) > 32:
            raise GameNotFound(f"there is no game {game_id!r}")
        with self._cache_lock:
            live = self._cache.get(game_id)
            if live is not None:
                self._cache.move_to_end(game_id)
            else:
                loading = self._loading.setdefault(game_id, threading.Lock())
        if live is not None:
            self.refresh(live)
            return live
        try:
            with loading:  # one replay per game, even when two requests race
                with self._cache_lock:
                    live = self._cache.get(game_id)
                if live is None:
                    live = self._load(game_id)
                    self._remember(live)
        finally:  # also when there is no such game: nothing is kept for an unknown id
            with self._cache_lock:
                self._loading.pop(game_id, None)
        return live

    def _load(self, game_id: str) -> LiveGame:
        stored = self.store.load(game_id)
        if stored is None:
            raise GameNotFound(f"there is no game {game_id!r}")
        row = stored.row
        try:
            state = new_game(seed_of(row), Settings.parse(row.settings))
            for n, text in enumerate(stored.actions):
                try:
                    apply(state, text)
                except ValueError as exc:
                    raise GameBroken(f"game {game_id} does not replay at action {n + 1} "
                                     f"({text}): {exc}") from None
        except ValueError as exc:
            if isinstance(exc, GameError):
                raise
            raise GameBroken(f"game {game_id} cannot be rebuilt: {exc}") from None
        return LiveGame(row, stored.token_hash, state, list(stored.actions))

    def refresh(self, live: LiveGame) -> None:
        """Bring a cached game up to the stored version when other processes may write it
        (PostgreSQL): the cache is trusted only at the version it was read at. One indexed
        read when nothing changed; otherwise the new actions are replayed onto the state."""
        if self.store.shared:
            with live.lock:
                self._refresh_locked(live)

    def refresh_locked(self, live: LiveGame) -> None:
        """:meth:`refresh` for a caller that holds ``live.lock`` already."""
        self._refresh_locked(live)

    def _refresh_locked(self, live: LiveGame) -> None:
        head = self.store.head(live.id)
        if head is None:
            return
        stored, status = head.version, head.status
        if head.takebacks != live.row.takebacks:
            # a takeback elsewhere: the cached line is not the game's, even at an equal version
            fresh = self._load(live.id)
            live.row, live.state, live.actions = fresh.row, fresh.state, fresh.actions
            live.checkpoints.clear()
            live.changed_at = time.monotonic()
            return
        if stored == live.row.version:
            if status != live.row.status:  # marked without an action (a failed computer)
                found = self.store.since(live.id, stored)
                if found is not None:
                    live.row = found[0]
                    live.changed_at = time.monotonic()
            return
        found = self.store.since(live.id, live.row.version) if stored > live.row.version \
            else None
        if found is None or found[0].version != live.row.version + len(found[1]):
            # not a continuation of what is cached (never expected): rebuild it whole
            fresh = self._load(live.id)
            live.row, live.state, live.actions = fresh.row, fresh.state, fresh.actions
            live.checkpoints.clear()
        else:
            row, new = found
            for n, text in enumerate(new):
                try:
                    apply(live.state, text)
                except ValueError as exc:
                    raise GameBroken(f"game {live.id} does not replay at action "
                                     f"{live.row.version + n + 1} ({text}): {exc}") from None
            live.actions.extend(new)
            live.row = row
        live.changed_at = time.monotonic()

    def _remember(self, live: LiveGame) -> None:
        with self._cache_lock:
            self._cache[live.id] = live
            self._cache.move_to_end(live.id)
            while len(self._cache) > self.max_cached:
                victim = next((g for g in self._cache.values()
                               if not g.driving and not g.lock.locked()), None)
                if victim is None or victim is live:
                    break
                del self._cache[victim.id]

    def forget(self, game_id: str) -> None:
        """Drop a game from memory (tests: the next get replays it from the store)."""
        with self._cache_lock:
            self._cache.pop(game_id, None)

    # -- access ---------------------------------------------------------------------------------

    @staticmethod
    def authorize(live: LiveGame, token: str | None) -> None:
        if not token or not hmac.compare_digest(hash_token(token), live.token_hash):
            raise NotYourGame("this game belongs to another browser: it needs its player "
                              "token")

    def owned(self, tokens: dict[str, str]) -> list[GameRow]:
        """The saved games whose tokens these are (game id -> token), most recent first."""
        hashes = self.store.token_hashes(list(tokens)[:500])
        ok = [gid for gid, h in hashes.items()
              if hmac.compare_digest(hash_token(tokens[gid]), h)]
        # a friend game's second seat holds a token of its own (parlor.store.friends)
        guests = FriendSeats(self.store).guest_hashes([g for g in hashes if g not in ok])
        ok += [gid for gid, h in guests.items()
               if hmac.compare_digest(hash_token(tokens[gid]), h)]
        return self.store.rows(ok)

    # -- what the human sees ----------------------------------------------------------------------

    def snapshot(self, live: LiveGame, log_from: int = 0) -> dict[str, Any]:
        with live.lock:
            return self._snapshot(live, log_from)

    def seat_snapshot(self, live: LiveGame, seat: int, log_from: int = 0) -> dict[str, Any]:
        """The table as the person at ``seat`` sees it (a friend game has a person at each
        seat). Under ``live.lock``."""
        return self._snapshot(live, log_from, seat=seat)

    def _snapshot(self, live: LiveGame, log_from: int, state: State | None = None,
                  seat: int | None = None) -> dict[str, Any]:
        """The table as the person at ``seat`` sees it (default: the human's seat; a friend
        game has a person at each)."""
        s = live.state if state is None else state
        me = live.human if seat is None else seat
        parts = position(live, s, me)
        over = s.is_over
        return {
            "id": live.id,
            "kind": live.row.kind,
            "version": live.row.version,
            "takebacks": live.row.takebacks,  # with "version": the table's position (R30)
            "level": live.row.level,
            "settings": live.row.settings,
            "status": live.row.status if live.row.status in (FAILED, *STOPPED) else _status(s),
            "failure": live.row.result if live.failed else None,
            "you": me,
            "seed": seed_json(seed_of(live.row)) if over else None,  # secret until the end
            "practice": is_practice(live.row),
            "thinking": live.computer_to_act(),
            "your_turn": not over and s.actor == me,
            "takeback": self._can_take_back(live),
            "task": parts["task"],
            "view": parts["view"],
            "choices": parts["choices"],
            "log": log_since(live, s, me, log_from, me),
            "log_total": len(s.log or ()),
            "result_text": parts["result_text"],
            "costs": parts["costs"],
            "why_not": parts["why_not"],
            "coach": parts["coach"],
            "forecast": parts["forecast"],
        }

    def spectator_snapshot(self, live: LiveGame, log_from: int = 0) -> dict[str, Any]:
        """The game as a spectator sees it: public information only (``view`` for
        :data:`~parlor.rules.view.SPECTATOR`: no Hand, no Draw order, no drawn card), the public
        log sentences, no legal actions."""
        with live.lock:
            s = live.state
            parts = position(live, s, SPECTATOR)
            snap: dict[str, Any] = {
                "id": live.id,
                "kind": live.row.kind,
                "version": live.row.version,
                "settings": live.row.settings,
                "status": live.row.status if live.row.status in STOPPED else _status(s),
                "title": live.row.title,
                "you": live.human,
                "your_turn": False,
                "view": parts["view"],
                "log": log_since(live, s, SPECTATOR, log_from),
                "log_total": len(s.log or ()),
                "result_text": parts["result_text"],
            }
            if s.is_over:  # the deal stays secret, even its key's absence, until the end
                snap["seed"] = seed_json(seed_of(live.row))
            return snap

    # -- acting --------------------------------------------------------------------------------

    def act(self, live: LiveGame, version: int, text: str | list[str],
            log_from: int = 0, takebacks: int | None = None,
            seat: int | None = None) -> dict[str, Any]:
        """Apply the human's action if ``version`` (and ``takebacks``, when the client sends
        it: the table it clicked was not taken back since) is current and the action legal;
        commit it to the store, then return the new snapshot. Refusals change nothing.

        ``text`` may be a list: a declaration the table assembled (attackers, blockers, a
        split, a bonus: see :meth:`preview`) and the decision that ends it, applied in order
        and committed together, or not at all."""
        texts = [text] if isinstance(text, str) else text
        actions = self._parse_all(texts)
        me = live.human if seat is None else seat
        with live.lock:
            s = self._current(live, version, takebacks)
            # the trial takes over the live state's records rather than copying them (a
            # long game's: State.successor), and hands them back if the move is refused
            trial, lent = s.successor()
            try:
                for i, action in enumerate(actions):
                    if action.verb == "resign":
                        if len(actions) > 1:
                            raise BadAction("resign alone, not within a declaration")
                        if action.target not in (NONE, me):
                            raise WrongSeat(f"R17: you are Rlr {me + 1}: you can resign "
                                            f"for yourself ('resign'), not for Rlr "
                                            f"{action.target + 1}", version=live.row.version)
                        action = Action("resign")
                    elif trial.actor != me:
                        raise WrongTurn(_wait_for(live, trial.actor),
                                        version=live.row.version)
                    self._apply(live, trial, action, i, len(actions), me)
            except BaseException:
                s.take_back(lent)
                raise
            self._commit(live, trial, lent)
            return self._snapshot(live, log_from, seat=me)

    def preview(self, live: LiveGame, version: int, texts: list[str],
                seat: int | None = None) -> dict[str, Any]:
        """The table after declarations not yet final (R8 attackers, R10 blockers, 1003.2 a
        split, 1003.3/1004.1 bonus points), so that the page can show them and take them back
        before they are sent. Nothing is stored and nothing changes.

        Only the player's own declarations within one decision are previewed: when one of
        them completes it (the decision passes on, or the phase ends) the answer is
        ``{"final": True}`` and no table, since what comes next may show what the player
        has not yet seen; the page then sends them all with :meth:`act`."""
        actions = self._parse_all(texts)
        me = live.human if seat is None else seat
        with live.lock:
            s = self._current(live, version)
            if s.actor != me:
                raise WrongTurn(_wait_for(live, s.actor), version=live.row.version)
            phase = s.phase
            # the live state's records lent to the trial and always taken back (as in act)
            trial, lent = s.successor()
            try:
                for i, action in enumerate(actions):
                    if action.verb not in DECLARATIONS:
                        raise BadAction(f"'{action}' is decided at once: only "
                                        f"{', '.join(sorted(DECLARATIONS))} are declared "
                                        "before they are final", version=live.row.version)
                    self._apply(live, trial, action, i, len(actions), me)
                    if trial.actor != me or trial.phase is not phase:
                        if i != len(actions) - 1:
                            raise BadAction(f"'{action}' completes the declaration: send it",
                                            version=live.row.version)
                        return {"final": True, "version": live.row.version}
                snap = self._snapshot(live, len(trial.log or ()), trial, seat=me)
            finally:
                s.take_back(lent)
            snap["staged"] = list(texts)
            return snap

    @staticmethod
    def _parse_all(texts: list[str]) -> list[Action]:
        if not texts or len(texts) > 60:
            raise BadAction("send one action, or a declaration of 1 to 60 actions")
        out = []
        for text in texts:
            if not isinstance(text, str) or not text.strip() or len(text) > 200:
                raise BadAction("send an action in the game's notation, e.g. 'play 9D'")
            try:
                out.append(Action.parse(text))
            except ActionParseError as exc:
                raise BadAction(str(exc)) from None
        return out

    def _current(self, live: LiveGame, version: int, takebacks: int | None = None) -> State:
        """The live state, if the page's ``version`` (and ``takebacks``, when it says) is
        current and the game can be played."""
        if not live.is_play and not live.is_friend:
            raise BadAction("this is an imported record: it can be replayed, not played")
        if self.store.shared and not self._at_table(live, version, takebacks):
            self._refresh_locked(live)  # another server may have moved the game on
        s = live.state
        if not self._at_table(live, version, takebacks):
            raise StaleVersion(
                f"that click was made on an out-of-date table (move {version}; the game "
                f"is at move {live.row.version}). Nothing was done: the table is now up "
                "to date.", version=live.row.version)
        if s.is_over:
            raise GameOver(f"the game is over: {s.result}", version=live.row.version)
        if live.failed or live.row.status in STOPPED:
            raise GameOver(live.row.result, version=live.row.version)
        return s

    @staticmethod
    def _apply(live: LiveGame, trial: State, action: Action, i: int, n: int,
               seat: int | None = None) -> None:
        """Apply the ``i``-th of ``n`` actions to ``trial`` for ``seat`` (default: the
        human's); a refusal names which one."""
        where = f"'{action}' (decision {i + 1} of {n}): " if n > 1 else ""
        try:
            apply(trial, action, player=live.human if seat is None else seat)
        except GameOverError as exc:
            raise GameOver(f"{where}{exc}", version=live.row.version) from None
        except EngineWrongTurn as exc:
            raise WrongTurn(f"{where}{exc}", version=live.row.version) from None
        except IllegalActionError as exc:
            raise IllegalAction(f"{where}{exc}", version=live.row.version) from None

    @staticmethod
    def _at_table(live: LiveGame, version: int, takebacks: int | None) -> bool:
        """A client's table is the game's: its version, and its takebacks when it says."""
        return version == live.row.version and takebacks in (None, live.row.takebacks)

    def _commit(self, live: LiveGame, trial: State, lent: Lent) -> None:
        """Store the new actions of ``trial``, the live state's successor (``lent``: what
        it was lent, :meth:`State.successor`), and only then make it the live state; if
        the store refuses them, the live state takes its records back."""
        s = live.state
        new = [str(a) for a in trial.history[lent[0]:]]
        version = live.row.version
        try:
            with self.durable():
                self.store.append_many(live.id, version, new, turn=trial.turn,
                                       status=_status(trial), result=trial.result,
                                       takebacks=live.row.takebacks, now=self.now())
        except StoreConflict:
            s.take_back(lent)  # before the refresh applies the stored moves to it
            # another process committed first: nothing of ours was stored; catch up
            self._refresh_locked(live)
            raise StaleVersion(
                "that action came too late: the game had already moved on (another tab or "
                "server). Nothing was done: the table is now up to date.",
                version=live.row.version) from None
        except BaseException:
            s.take_back(lent)
            raise
        live.state = trial
        live.actions.extend(new)
        live.row = replace(live.row, version=version + len(new), turn=trial.turn,
                           status=_status(trial), result=trial.result, updated=time.time())
        live.changed_at = time.monotonic()

    # -- takeback (casual play, R30) ----------------------------------------------------------

    def takeback(self, live: LiveGame, version: int, log_from: int = 0,
                 takebacks: int | None = None) -> dict[str, Any]:
        """Take back the human's last decision and the computer's replies to it (casual play
        only): the record keeps only the line actually played, so the game still replays."""
        with live.lock:
            refusal = self._takeback_refusal(live, version, takebacks)
            if refusal is not None:
                raise refusal
            keep = self._last_human_decision(live)
            assert keep is not None  # _takeback_refusal made sure
            self.truncate_locked(live, version, keep)
            return self._snapshot(live, log_from)

    def truncate_locked(self, live: LiveGame, version: int, keep: int) -> None:
        """Keep the record's first ``keep`` actions (a takeback: :meth:`takeback`, or one
        two people agreed to), stored first, if the game is at ``version``. Under
        ``live.lock``."""
        state = new_game(seed_of(live.row), Settings.parse(live.row.settings))
        for text in live.actions[:keep]:
            apply(state, text)
        try:
            with self.durable():
                self.store.truncate(live.id, version, keep, turn=state.turn,
                                    status=_status(state), result=state.result,
                                    takebacks=live.row.takebacks)
        except StoreConflict:
            self.forget(live.id)
            raise StaleVersion("the game changed elsewhere; reload the page") from None
        live.state = state
        del live.actions[keep:]
        live.checkpoints = {k: v for k, v in live.checkpoints.items() if k <= keep}
        live.row = replace(live.row, version=keep, takebacks=live.row.takebacks + 1,
                           turn=state.turn, status=_status(state), result=state.result,
                           updated=time.time())
        live.changed_at = time.monotonic()

    def _can_take_back(self, live: LiveGame) -> bool:
        """Whether :meth:`takeback` would take something back now: the table offers it
        exactly then (R30)."""
        return self._takeback_refusal(live) is None

    def _takeback_refusal(self, live: LiveGame, version: int | None = None,
                          takebacks: int | None = None) -> GameError | None:
        """Why a takeback is refused now, or None (R30): casual play only, never a game the
        computer failed, at the table the client saw (``version``, when it says), with the
        human to decide or the game over, and a decision of the human's to take back. The
        one statement of the rule, for :meth:`takeback` and the snapshot's offer."""
        s = live.state
        if not live.is_play:
            return BadAction("this is an imported record: there is nothing to take back")
        if s.settings.match_play:
            return NoTakeback("this is a match game: a decision cannot be taken back "
                              "(1306, R30). Start a casual game to use takeback.",
                              version=live.row.version)
        if live.failed:
            return GameOver("the computer failed in this game, so it stays as it stopped",
                            version=live.row.version)
        if version is not None and not self._at_table(live, version, takebacks):
            return StaleVersion("the table has changed: nothing was taken back",
                                version=live.row.version)
        if not s.is_over and s.actor != live.human:
            return WrongTurn("wait for the computer's move, then take back",
                             version=live.row.version)
        if not self._human_has_decided(live):
            return NoTakeback("you have made no decision yet: nothing to take back",
                              version=live.row.version)
        return None

    def _human_has_decided(self, live: LiveGame) -> bool:
        """Whether the record holds a decision of the human's. Once one is known on this
        line of play (the same ``takebacks``: the record only grows on it), it stays there,
        so the snapshot does not replay the game at every reply (5 ms at step 500)."""
        known = live.last_human
        if known is not None and known[0][0] == live.row.takebacks and known[1] is not None:
            return True
        return self._last_human_decision(live) is not None

    def _last_human_decision(self, live: LiveGame) -> int | None:
        """The index in the record of the human's last decision (None if there is none),
        replayed once per position."""
        at = (live.row.takebacks, live.row.version)
        if live.last_human is None or live.last_human[0] != at:
            live.last_human = (at, self._replay_last_human_decision(live))
        return live.last_human[1]

    @staticmethod
    def _replay_last_human_decision(live: LiveGame) -> int | None:
        s = new_game(seed_of(live.row), Settings.parse(live.row.settings))
        last = None
        for i, text in enumerate(live.actions):
            action = Action.parse(text)
            who = action.target if action.verb == "resign" and action.target >= 0 else s.actor
            if who == live.human:
                last = i
            apply(s, action)
        return last

    # -- the computer ---------------------------------------------------------------------------

    def computer_job(self, live: LiveGame) -> ComputerJob | None:
        with live.lock:
            if not live.computer_to_act():
                return None
            s = live.state
            # the log stays here: agents decide from the table, and it would be pickled
            return ComputerJob(live.id, live.row.version, live.row.level,
                               agent_seed(seed_of(live.row), live.row.version),
                               live_agent_view(live, live.computer),
                               [str(a) for a in legal_actions(s)], live.row.takebacks)

    @staticmethod
    def _at(live: LiveGame, version: int, takebacks: int) -> bool:
        """The game is where a decision was made: the same version on the same line."""
        return live.row.version == version and live.row.takebacks == takebacks

    def apply_computer(self, live: LiveGame, version: int, text: str, *,
                       takebacks: int) -> bool:
        """Apply the computer's decision made at ``version`` after ``takebacks`` takebacks
        (False if the game moved on, or was taken back meanwhile)."""
        with live.lock:
            if not self._at(live, version, takebacks) or not live.computer_to_act():
                return False
            s = live.state
            if text not in (str(a) for a in legal_actions(s)):  # never trust a worker blindly
                raise AgentFailed(live.row.level, f"answered {text!r}, not a legal action")
            trial, lent = _successor_with(s, text, live.computer)
            try:
                self._commit(live, trial, lent)  # refused if the stored game moved on
            except StaleVersion:
                return False
            return True

    def match_job(self, live: LiveGame) -> ComputerJob | None:
        """The decision of the Rlr to act in a contest between two computers ("match", whose
        level is "LEVEL1|LEVEL2"); None once it is over."""
        with live.lock:
            s = live.state
            if live.row.kind != "match" or s.is_over:
                return None
            return ComputerJob(live.id, live.row.version, live.row.level.split("|")[s.actor],
                               agent_seed(seed_of(live.row), live.row.version),
                               live_agent_view(live, s.actor),
                               [str(a) for a in legal_actions(s)],
                               live.row.takebacks)

    def apply_match(self, live: LiveGame, version: int, text: str) -> bool:
        """A move of a computer-against-computer contest, chosen at ``version`` for the
        Rlr to act (False if the game moved on). An illegal move raises: it is never
        replaced."""
        with live.lock:
            s = live.state
            if live.row.kind != "match" or live.row.version != version or s.is_over:
                return False
            trial, lent = _successor_with(s, text, s.actor)
            self._commit(live, trial, lent)
            return True

    def computer_failed(self, live: LiveGame, version: int, failure: AgentFailed, *,
                        takebacks: int) -> bool:
        """Stop the game where the computer failed at ``version`` (after ``takebacks``
        takebacks): the operator's log gets the failure with the game's record, the store and
        the snapshot the sentence. False if the game has moved on."""
        with live.lock:
            if not self._at(live, version, takebacks) or not live.computer_to_act():
                return False
            log.error("game %s: %s at move %d; its record:\n%s", live.id, failure,
                      version + 1, record(live.state))
            return self._stop_failed(live, version, takebacks,
                                     computer_failed(failure.level, failure.reason))

    def computer_lost(self, live: LiveGame, reason: str) -> bool:
        """Stop the game where the computer is to act because its work could not be started
        or finished (the work queue refused its job, or the job kept failing: ``reason``,
        already logged): the player sees it at once instead of a computer that never moves.
        False if the computer is not to act (the game moved on)."""
        with live.lock:
            if not live.computer_to_act():
                return False
            return self._stop_failed(live, live.row.version, live.row.takebacks,
                                     computer_lost(live.row.level, reason))

    def _stop_failed(self, live: LiveGame, version: int, takebacks: int,
                     sentence: str) -> bool:
        """Store and show the game as failed at ``version`` (under ``live.lock``)."""
        try:
            self.store.mark(live.id, version, status=FAILED, result=sentence,
                            takebacks=takebacks)
        except StoreConflict:
            return False  # another process moved the game on meanwhile
        live.row = replace(live.row, status=FAILED, result=sentence, updated=time.time())
        live.changed_at = time.monotonic()
        return True

    def hint_failed(self, live: LiveGame, failure: AgentFailed) -> ComputerFailed:
        """The error a failed hint answers with, after logging it with the game's record."""
        with live.lock:
            log.error("game %s: %s at move %d; its record:\n%s", live.id, failure,
                      live.row.version + 1, record(live.state))
        return ComputerFailed(hint_failed(failure.level, failure.reason),
                              version=live.row.version)

    def hint_job(self, live: LiveGame, version: int | None,
                 takebacks: int | None = None) -> HintJob:
        """The expert's question at the human's decision; StaleVersion unless the game is at
        ``version`` (and ``takebacks``, when given: a worker answering a server's request)."""
        with live.lock:
            s = live.state
            if live.is_friend:
                raise BadAction("no hints in a game between two people: the computer does "
                                "not advise either player", version=live.row.version)
            if not live.is_play or s.is_over or live.failed:
                raise GameOver("the game is over", version=live.row.version)
            if (version is not None and version != live.row.version) or \
                    (takebacks is not None and takebacks != live.row.takebacks):
                raise StaleVersion("the table has changed: ask again",
                                   version=live.row.version)
            if s.actor != live.human:
                raise WrongTurn("a hint is for your own decision: the computer is deciding",
                                version=live.row.version)
            return HintJob(live.row.version,
                           agent_seed(seed_of(live.row), live.row.version, "hint"),
                           live_agent_view(live, live.human),
                           [str(a) for a in legal_actions(s)], live.row.takebacks)

    # -- records and replays --------------------------------------------------------------------

    def record_text(self, live: LiveGame) -> str:
        """The game record; only once the game is over (it names every hidden card)."""
        with live.lock:
            if live.row.kind != "replay" and not live.state.is_over \
                    and live.row.status not in STOPPED:  # drawn, aborted: over too
                raise GameOver("a record can be exported when the game is over: it shows "
                               "the computer's cards", version=live.row.version)
            return record(live.state)

    def replay_snapshot(self, live: LiveGame, step: int, seat: int) -> dict[str, Any]:
        """The table after the first ``step`` actions, as Rlr ``seat`` saw it."""
        with live.lock:
            if live.row.kind != "replay" and not live.state.is_over \
                    and live.row.status not in STOPPED:
                raise GameOver("a game can be replayed once it is over",
                               version=live.row.version)
            total = len(live.actions)
            step = max(0, min(step, total))
            s = self._state_at(live, step)
            v = table_view(s, seat)
            return {
                "id": live.id,
                "kind": live.row.kind,
                "step": step,
                "steps": total,
                "seat": seat,
                "you": live.human if live.is_play else None,  # a game against the computer
                "seed": seed_json(seed_of(live.row)),
                "settings": live.row.settings,
                "title": live.row.title,
                "last": live.actions[step - 1] if step else None,
                "next": live.actions[step] if step < total else None,
                "view": view_payload(v),
                "log": _log_entries(s, seat, 0),
                "result_text": result_words(s.log, s.result, None) if s.result else None,
                "log_total": len(s.log or ()),
            }

    def _state_at(self, live: LiveGame, step: int) -> State:
        base = (step // CHECKPOINT) * CHECKPOINT
        start = max((k for k in live.checkpoints if k <= base), default=None)
        if start is None:
            s = new_game(seed_of(live.row), Settings.parse(live.row.settings))
            start = 0
        else:
            s = live.checkpoints[start].clone()
        for k in range(start, step):
            if k % CHECKPOINT == 0 and k not in live.checkpoints:
                live.checkpoints[k] = s.clone()
            apply(s, live.actions[k])
        return s


__all__ = [
    "ABORTED",
    "DRAWN",
    "FAILED",
    "FRIEND",
    "STOPPED",
    "BadAction",
    "ComputerFailed",
    "ComputerJob",
    "GameBroken",
    "GameError",
    "GameNotFound",
    "GameOver",
    "Games",
    "HintJob",
    "IllegalAction",
    "LiveGame",
    "NoTakeback",
    "NotYourGame",
    "StaleForm",
    "StaleVersion",
    "Unavailable",
    "WrongSeat",
    "WrongTurn",
    "agent_seed",
    "hash_token",
    "watch_key",
]
