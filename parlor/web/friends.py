"""Games between two people (issue 45): one person invites a friend, and the first person to
open the invitation takes the other seat. No HTTP here: :mod:`parlor.web.routes.friends`
calls these methods.

A friend game is an ordinary saved game of kind :data:`~parlor.web.games.FRIEND`: its record,
its version and its store are those of every game, and :class:`~parlor.web.games.Games`
acts for the seat a request's token holds. The computer never moves in it (``computer_to_act``
is for games of kind "play" only). Its first seat's token hash is the game's own; the second
seat (the invitation, then the guest's token hash) is a row of
:mod:`parlor.store.friends`, so any server of a deployment seats the guest, exactly once.

Each seat is sent only its own view (``Games.seat_snapshot``), the other named "Rlr N" in
its words (:func:`parlor.web.games.opponent_of`), with words on what the other is doing
("Rlr 2 is choosing blockers": :mod:`parlor.present.activity`).
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
import time
from dataclasses import dataclass, field, replace
from typing import Any

import sqlalchemy as sa

from parlor.present.activity import doing
from parlor.rules.actions import Action
from parlor.rules.engine import apply, new_game
from parlor.rules.seeds import KEY_BYTES, DealKey
from parlor.rules.state import Settings, State
from parlor.store import StoreConflict
from parlor.store.friends import FriendSeat, FriendSeats, Lively, Offer
from parlor.web.friendclock import Clocks, Step, TimeControl, clocks
from parlor.web.games import (
    ABORTED,
    DRAWN,
    FRIEND,
    STOPPED,
    BadAction,
    GameError,
    GameNotFound,
    GameOver,
    Games,
    LiveGame,
    NoTakeback,
    NotYourGame,
    StaleVersion,
    hash_token,
    seed_of,
)
from parlor.web.rating import friend_rated_words

#: The live friend games with a clock and both seats taken, at their heads (the sweep's list).
_CLOCKED = sa.text("SELECT g.id, g.version, g.takebacks FROM games g "
                   "JOIN friend_seats f ON f.game_id = g.id "
                   "WHERE g.kind = 'friend' AND g.status = 'live' "
                   "AND f.clock_base IS NOT NULL AND f.guest_hash IS NOT NULL")

#: A table long-polls for at most 20 s at a time and reads again at once: a seat whose table
#: has not read the game for this long has left it (closed the page, lost its connection),
#: and the other is told "disconnected".
GONE_SECONDS = 45
#: After this long without a read of the absent seat's table, the other may claim the game
#: (a win: rule 1314) or go on waiting.
CLAIM_SECONDS = 120
#: A seat's reads are written down at most this often (a poll every read would be a write).
SEEN_EVERY = 5.0

#: An invitation nobody accepted can no longer be accepted after this many seconds (a day):
#: the link was meant for one friend, soon.
INVITE_SECONDS = 24 * 3600


class InvitationGone(GameError):
    """An invitation that ran out before anyone accepted it."""

    status, code = 410, "invitation_expired"


class NotSeated(GameError):
    """The invitation is not accepted yet: nobody sits across the table."""

    status, code = 409, "waiting_for_friend"


class NoAbort(GameError):
    status, code = 409, "no_abort"


class NoOffer(GameError):
    """An offer that cannot be made or answered now (made already by the other, lapsed,
    answered, or one's own)."""

    status, code = 409, "no_offer"


class NotGone(GameError):
    """A claim while the other player's table still reads the game."""

    status, code = 409, "not_gone"


class NotOver(GameError):
    status, code = 409, "not_over"


#: The offers one player can make the other.
OFFERS = ("draw", "takeback")


@dataclass(frozen=True, slots=True)
class Rematch:
    """A rematch (seats swapped): its game, the seat the asker has there, and its token if
    this call gave one (None: the asker's browser holds it already)."""

    game_id: str
    seat: int
    token: str | None


def invite_hash(code: str) -> str:
    """The stored name of an invitation code (the code itself is never kept)."""
    return hashlib.sha256(b"invite/" + code.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Invitation:
    """A new friend game, its first player's token, and the code of its invitation link."""

    live: LiveGame
    token: str
    code: str
    until: float


@dataclass(frozen=True, slots=True)
class Opened:
    """What opening an invitation gave: the seat and its token, or (``token`` None) nothing:
    the seat was taken, so the opener is a spectator."""

    game_id: str
    token: str | None


@dataclass(slots=True)
class _Steps:
    """A game's record as the clocks read it (:class:`~parlor.web.friendclock.Step`: when,
    and who decided), up to ``version`` of line ``takebacks``, and the state there, so that
    each new action is replayed once: whose decision an action was is not in the record."""

    takebacks: int
    version: int
    state: State
    steps: list[Step] = field(default_factory=list)
    #: the clocks last read from ``steps``, and what they were read with (a table's reads
    #: between two decisions read the same clocks: read once, not at each reply)
    clocks: tuple[tuple[object, ...], Clocks] | None = None


def time_control(seat: FriendSeat | None) -> TimeControl | None:
    if seat is None or seat.clock_base is None:
        return None
    return TimeControl(seat.clock_base, seat.clock_increment or 0.0)


def claim_words(absent: int) -> str:
    return (f"Rlr {absent + 1} left the table: Rlr {2 - absent} claimed the game (rule "
            "1314).")


def flag_words(flagged: int) -> str:
    return (f"Rlr {flagged + 1}'s clock ran out: Rlr {2 - flagged} wins (a flag is a "
            "concession, rule 1313).")


def _a(what: str) -> str:
    return {"draw": "a draw", "takeback": "a takeback"}[what]


def _offer_words(what: str, by: int, seat: int, declined: bool) -> str:
    """The offer in words for the player at ``seat``."""
    if what == "draw":
        asked = "You offered a draw" if by == seat else f"Rlr {by + 1} offers a draw"
    else:
        asked = ("You asked to take back your last decision" if by == seat else
                 f"Rlr {by + 1} asks to take back their last decision")
    if declined:
        return asked.replace(" offers", " offered").replace(" asks", " asked") + \
            (f": Rlr {2 - seat} declined." if by == seat else ": you declined.")
    return asked + (": waiting for the answer." if by == seat else ".")


class Friends:
    """The friend games of one server (their state is the store's and :class:`Games`')."""

    def __init__(self, games: Games, seats: FriendSeats) -> None:
        self.games = games
        self.seats = seats
        #: game id -> its accepted second seat: it never changes once accepted
        self._seated: dict[str, FriendSeat] = {}
        #: game id -> its record's steps as far as read (a few games' worth: see _steps)
        self._steps: dict[str, _Steps] = {}

    def now(self) -> float:
        """The wall clock: the games' (tests control it there), the one actions are stored
        with, so that a clock read and a clock stored agree."""
        return self.games.now()

    # -- inviting and accepting -------------------------------------------------------------

    def invite(self, *, seat: int | None, match_play: bool, max_turns: int = 200,
               now: float | None = None, clock: TimeControl | None = None,
               account: str | None = None) -> Invitation:
        """A new friend game with its inviter at ``seat`` (None: a seat drawn at random, as
        the rules draw the first turn), dealt from a fresh key (R31), with ``clock`` or
        none; ``account``: the inviter's, signed in (the game is rated if the friend
        accepts signed in to another account, in match play)."""
        at = self.now() if now is None else now
        host = random.SystemRandom().randrange(2) if seat is None else seat
        token = secrets.token_urlsafe(24)
        code = secrets.token_urlsafe(18)
        title = "A game between friends" + (" (match)" if match_play else "") + \
            (f", {clock}" if clock is not None else "")
        with self.games.durable():
            live = self.games.create_contest(
                kind=FRIEND, level="-", seed=DealKey(secrets.token_bytes(KEY_BYTES)),
                settings=Settings(max_turns=max_turns, match_play=match_play), human=host,
                title=title, token_hash=hash_token(token))
            self.seats.invite(live.id, invite_hash(code), until=at + INVITE_SECONDS,
                              clock=None if clock is None else (clock.base, clock.increment),
                              account=account)
        return Invitation(live, token, code, at + INVITE_SECONDS)

    def open(self, code: str, now: float | None = None,
             account: str | None = None) -> Opened:
        """Take the second seat with the invitation ``code``: its token if this call took
        it; a spectator's :class:`Opened` if someone took it before; InvitationGone if it ran
        out; GameNotFound if there is no such invitation."""
        at = self.now() if now is None else now
        found = self.seats.find(invite_hash(code)) if len(code) <= 64 else None
        if found is None:
            raise GameNotFound("there is no such invitation: check the link you were sent")
        if found.guest_hash is not None:
            return Opened(found.game_id, None)
        token = secrets.token_urlsafe(24)
        with self.games.durable():
            taken = self.seats.accept(found.invite_hash, hash_token(token), now=at,
                                      account=account)
        if taken:
            return Opened(found.game_id, token)
        again = self.seats.find(found.invite_hash)
        if again is not None and again.guest_hash is not None:
            return Opened(found.game_id, None)  # someone else was a moment quicker
        raise InvitationGone(f"this invitation ran out unaccepted (an invitation is good for "
                             f"{INVITE_SECONDS // 3600} hours): ask your friend for a new "
                             "one")

    # -- seats --------------------------------------------------------------------------------

    def seat(self, game_id: str) -> FriendSeat | None:
        """The game's second seat (cached once accepted: it never changes then)."""
        kept = self._seated.get(game_id)
        if kept is not None:
            return kept
        found = self.seats.of_game(game_id)
        if found is not None and found.guest_hash is not None:
            self._seated[game_id] = found
        return found

    def seat_of(self, live: LiveGame, token: str | None) -> int:
        """The seat ``token`` holds in the friend game ``live``; NotYourGame for any other
        token (a spectator's link holds no token)."""
        if not live.is_friend:
            raise GameNotFound(f"there is no game between friends {live.id!r}")
        if token:
            h = hash_token(token)
            if hmac.compare_digest(h, live.token_hash):
                return live.human
            second = self.seat(live.id)
            if second is not None and second.guest_hash is not None \
                    and hmac.compare_digest(h, second.guest_hash):
                return 1 - live.human
        raise NotYourGame("this token holds no seat at this game: only its two players may "
                          "act, each with the token their browser was given (a spectator "
                          "link only watches)")

    # -- what each seat sees ----------------------------------------------------------------

    def snapshot(self, live: LiveGame, seat: int, log_from: int = 0) -> dict[str, Any]:
        """The table as ``seat`` sees it, after ending the game if the running clock ran
        out (every read of either player looks: the server's clock is the game's)."""
        self.flag_if_fallen(live)
        second = self.seat(live.id)
        lively = self._read_by(live.id, seat)
        with live.lock:
            snap = self.games.seat_snapshot(live, seat, log_from)
            return self._dressed(live, seat, snap, second, lively)

    def _read_by(self, game_id: str, seat: int) -> Lively:
        """The game's offers, rematch and reads, after writing down that ``seat``'s table
        reads it now (at most every :data:`SEEN_EVERY` seconds)."""
        lively = self.seats.lively(game_id)
        now = self.now()
        last = lively.seen[seat]
        if last is None or now - last >= SEEN_EVERY:
            self.seats.seen(game_id, seat, now)
            seen = (now, lively.seen[1]) if seat == 0 else (lively.seen[0], now)
            lively = replace(lively, seen=seen)
        return lively

    def _absence(self, live: LiveGame, second: FriendSeat | None, lively: Lively,
                 seat: int) -> float | None:
        """Seconds since ``seat``'s table last read the game (or since the game began, if
        it never has); None before the second seat is taken."""
        if second is None or second.accepted is None:
            return None
        last = max(lively.seen[seat] or 0.0, second.accepted)
        return max(0.0, self.now() - last)

    def _dressed(self, live: LiveGame, seat: int, snap: dict[str, Any],
                 second: FriendSeat | None, lively: Lively) -> dict[str, Any]:
        """``snap`` with what a friend game adds: who sits where, whose decision it is in
        words, the clocks, the open offer and the rematch, and whether the game can be
        aborted. Under ``live.lock``."""
        s = live.state
        seated = second is not None and second.guest_hash is not None
        other = 1 - seat
        clock = self._clocks_locked(live, second)
        ended = self._end_words_locked(live, clock, lively)
        if ended is not None:
            snap["result_text"] = activity = ended
        elif s.is_over:
            activity = snap["result_text"] or "The game is over."
        elif not seated:
            activity = "Waiting for your friend to open the invitation."
        elif s.actor == seat:
            activity = f"Your decision: {snap['task']}."
        else:
            activity = doing(s.phase.name.lower(), other) + "."
        snap["your_turn"] = snap["your_turn"] and seated and live.row.status not in STOPPED
        rateable = live.state.settings.match_play and not live.row.takebacks
        aborted = live.row.status == ABORTED
        snap["friend"] = {
            "rated": second is not None and second.between_accounts and rateable
            and not aborted,
            "rated_text": friend_rated_words(
                rateable, None if second is None else second.host_account,
                None if second is None else second.guest_account, seated, aborted),
            "seat": seat,
            "opponent": other,
            "seated": seated,
            "invitation_until": None if seated or second is None else second.until,
            "to_decide": None if not self._is_live(live) else s.actor,
            "activity": activity,
            "can_abort": self._abort_refusal(live) is None,
            "clock": self._clock_json(time_control(second), clock),
            "offer": self._offer_json(live, seat, lively.offer),
            "rematch": None if lively.rematch_id is None else {
                "id": lively.rematch_id, "url": f"/f/{lively.rematch_id}"},
            "can_offer": [] if not seated or not self._is_live(live) else
            [w for w in OFFERS if w == "draw" or self._takeback_refusal(live, seat) is None],
            **self._presence(live, second, lively, other),
        }
        f = snap["friend"]
        f["news"] = "|".join(str(x) for x in (
            int(seated), f["offer"] and (f["offer"]["what"], f["offer"]["by"],
                                         f["offer"]["declined"]), lively.rematch_id,
            int(f["other_gone"]), int(f["can_claim"])))
        if f["other_gone"] and self._is_live(live):
            f["activity"] += (f" Rlr {other + 1} has disconnected: " +
                              ("you may claim the game, or wait." if f["can_claim"] else
                               f"you may claim the game if they are not back within "
                               f"{round(f['claim_in'])} s."))
        return snap

    def end_words(self, live: LiveGame) -> str | None:
        """How the game ended, in the words its players read, when the rules' own result
        does not say it: a draw by agreement or an abort (their stored words), a flag, a
        claim; None otherwise (live, or ended by the rules). For its spectators."""
        second = self.seat(live.id)
        lively = self.seats.lively(live.id)
        with live.lock:
            return self._end_words_locked(live, self._clocks_locked(live, second), lively)

    @staticmethod
    def _end_words_locked(live: LiveGame, clock: Clocks | None, lively: Lively) -> str | None:
        if live.row.status in STOPPED:
            return live.row.result
        if clock is not None and clock.flagged is not None:
            return flag_words(clock.flagged)
        offer = lively.offer
        if live.state.is_over and offer is not None and offer.what == "claimed" \
                and offer.version == live.row.version:
            return claim_words(1 - offer.by)
        return None

    def _presence(self, live: LiveGame, second: FriendSeat | None, lively: Lively,
                  other: int) -> dict[str, Any]:
        """Whether the other player's table has gone (:data:`GONE_SECONDS` without a
        read), whether the game may be claimed, and in how many seconds it may be; with
        ``wake_in``: when a waiting table has news from the clocks or the absence."""
        away = self._absence(live, second, lively, other) if self._is_live(live) else None
        clock = self._clocks_locked(live, second)
        end = None if clock is None else clock.deadline()
        times = [x for x in (None if away is None else GONE_SECONDS - away,
                             None if away is None else CLAIM_SECONDS - away,
                             None if end is None else end - self.now()) if x is not None
                 and x > 0]
        return {"other_gone": away is not None and away >= GONE_SECONDS,
                "other_away": None if away is None else round(away),
                "can_claim": away is not None and away >= CLAIM_SECONDS,
                "claim_in": None if away is None else max(0.0, CLAIM_SECONDS - away),
                "wake_in": min(times) if times else None}

    def _offer_json(self, live: LiveGame, seat: int,
                    offer: Offer | None) -> dict[str, Any] | None:
        """The open offer (or the last one declined) at this position, for ``seat``."""
        if offer is None or not self._is_live(live) or \
                (offer.version, offer.takebacks) != (live.row.version, live.row.takebacks):
            return None  # an offer lapses when the game moves on
        what, _, declined = offer.what.partition("-")
        return {"what": what, "by": offer.by, "yours": offer.by == seat,
                "declined": bool(declined),
                "words": _offer_words(what, offer.by, seat, bool(declined))}

    @staticmethod
    def _is_live(live: LiveGame) -> bool:
        return not live.state.is_over and live.row.status not in STOPPED and not live.failed

    def _clock_json(self, control: TimeControl | None,
                    clock: Clocks | None) -> dict[str, Any] | None:
        """The clocks as the reply's moment has them: each seat's seconds left, whose runs
        (the page counts it down from the reply; the next reply corrects it)."""
        if control is None:
            return None
        left = clock.at(self.now()) if clock is not None else (control.base, control.base)
        return {"base": control.base, "increment": control.increment, "words": str(control),
                "left": [round(max(0.0, x), 3) for x in left],
                "running": None if clock is None else clock.running,
                "flagged": None if clock is None else clock.flagged}

    # -- clocks (parlor.web.friendclock) ------------------------------------------------------

    def clocks(self, live: LiveGame) -> Clocks | None:
        """The game's clocks now (None: no clock, or the invitation is not accepted)."""
        second = self.seat(live.id)
        with live.lock:
            return self._clocks_locked(live, second)

    def _clocks_locked(self, live: LiveGame, second: FriendSeat | None) -> Clocks | None:
        control = time_control(second)
        if control is None or second is None or second.accepted is None:
            return None
        running = None if not self._is_live(live) else live.state.actor
        known = self._steps_locked(live)
        key = (control, second.accepted, len(known.steps), running)
        if known.clocks is None or known.clocks[0] != key:
            known.clocks = (key, clocks(control, second.accepted, known.steps, running))
        return known.clocks[1]

    def _steps_locked(self, live: LiveGame) -> _Steps:
        """The record's steps up to the live version: the last ones read, extended by the
        actions since (their times read from the store), or read anew on another line."""
        row = live.row
        known = self._steps.get(live.id)
        if known is None or known.takebacks != row.takebacks or known.version > row.version:
            known = _Steps(row.takebacks, 0,
                           new_game(seed_of(row), Settings.parse(row.settings)))
        if known.version < row.version:
            times = self.seats.times(live.id, known.version)
            for text, at in zip(live.actions[known.version:row.version], times, strict=False):
                action = Action.parse(text)
                actor = known.state.actor
                apply(known.state, action)
                known.steps.append(Step(at, actor,
                                        action.target if action.verb == "resign" else None))
                known.version += 1
        self._steps.pop(live.id, None)
        self._steps[live.id] = known  # most recent last
        while len(self._steps) > max(64, self.games.max_cached):
            del self._steps[next(iter(self._steps))]
        return known

    def flag_if_fallen(self, live: LiveGame) -> bool:
        """End the game if the running clock is out: the flagged seat's resignation (rule
        1313: a flag is a concession, 1204), stored as any action is, so one server ends
        it and every other reads it. False if the clock is not out, or the game moved on
        meanwhile (a decision stored in time, or another server's flag)."""
        second = self.seat(live.id)
        with live.lock:
            clock = self._clocks_locked(live, second)
            fallen = None if clock is None else clock.fallen(self.now())
            version = live.row.version
        if fallen is None:
            return False
        try:
            self.games.act(live, version, "resign", seat=fallen)
        except (StaleVersion, GameOver):
            return False
        return True

    def sweep(self) -> list[str]:
        """Flag every clocked game of the database whose running clock is out, though no
        one reads it (both players gone): the games flagged. A game whose clocks this server
        knows at its stored head, with time left, is not read again. Blocking."""
        with self.games.store.engine.connect() as conn:
            heads = [(str(r.id), int(r.version), int(r.takebacks))
                     for r in conn.execute(_CLOCKED)]
        flagged = []
        now = self.now()
        for gid, version, takebacks in heads:
            live = self.games.cached(gid)
            if live is not None and (live.row.version, live.row.takebacks) == \
                    (version, takebacks):
                clock = self.clocks(live)
                if clock is None or clock.fallen(now) is None:
                    continue
            try:
                live = self.games.get(gid)
                self.games.refresh(live)
                if self.flag_if_fallen(live):
                    flagged.append(gid)
            except GameError:
                continue  # a game that cannot be read: its own reads say why
        return flagged

    def claim(self, live: LiveGame, seat: int, version: int) -> dict[str, Any]:
        """``seat`` claims the game the other left (rule 1314): the absent seat resigns
        (1204), once its table has not read the game for :data:`CLAIM_SECONDS`."""
        self._seated_or_refuse(live)
        self._refuse_if_flagged(live)
        second = self.seat(live.id)
        lively = self.seats.lively(live.id)  # the absent seat's reads, as stored now
        with live.lock:
            self._at(live, version, "claiming the game")
            away = self._absence(live, second, lively, 1 - seat)
        if away is None or away < CLAIM_SECONDS:
            raise NotGone(f"Rlr {2 - seat}'s table read the game {round(away or 0)} s ago: "
                          f"a game can be claimed after {CLAIM_SECONDS} s without word",
                          version=live.row.version)
        self.games.act(live, version, "resign", seat=1 - seat)
        self.seats.offer(live.id, Offer("claimed", seat, live.row.version, live.row.takebacks))
        return self.snapshot(live, seat)

    # -- acting -------------------------------------------------------------------------------

    def act(self, live: LiveGame, seat: int, version: int, action: str | list[str],
            log_from: int = 0) -> dict[str, Any]:
        self._seated_or_refuse(live)
        self._refuse_if_flagged(live)
        self.games.act(live, version, action, log_from, seat=seat)
        return self.snapshot(live, seat, log_from)

    def preview(self, live: LiveGame, seat: int, version: int,
                actions: list[str]) -> dict[str, Any]:
        self._seated_or_refuse(live)
        self._refuse_if_flagged(live)
        snap = self.games.preview(live, version, actions, seat=seat)
        if snap.get("final"):
            return snap
        lively = self.seats.lively(live.id)
        with live.lock:
            return self._dressed(live, seat, snap, self.seat(live.id), lively)

    def resign(self, live: LiveGame, seat: int, version: int,
               log_from: int = 0) -> dict[str, Any]:
        """``seat`` resigns (1204): the other wins. Allowed at any decision, either's."""
        self._refuse_if_flagged(live)
        self.games.act(live, version, "resign", log_from, seat=seat)
        return self.snapshot(live, seat, log_from)

    def _refuse_if_flagged(self, live: LiveGame) -> None:
        """A decision that reaches the server after the clock ran out is too late: the
        game ends on time instead (the server's clock, not the page's, decides)."""
        if self.flag_if_fallen(live):
            with live.lock:
                clock = self._clocks_locked(live, self.seat(live.id))
            flagged = clock.flagged if clock is not None else None
            raise GameOver(flag_words(flagged) if flagged is not None else
                           "the game is over", version=live.row.version)

    def _seated_or_refuse(self, live: LiveGame) -> None:
        second = self.seat(live.id)
        if second is None or second.guest_hash is None:
            raise NotSeated("your friend has not opened the invitation yet: the game starts "
                            "when they take their seat", version=live.row.version)

    # -- aborting -------------------------------------------------------------------------------

    def abort(self, live: LiveGame, seat: int, version: int) -> dict[str, Any]:
        """End the game without a result: either player may, until both have made a
        decision (and also while the invitation is unaccepted)."""
        with live.lock:
            if self.games.store.shared:
                self.games.refresh_locked(live)
            if live.row.version != version:
                raise StaleVersion("the table has changed: look again before aborting",
                                   version=live.row.version)
            refusal = self._abort_refusal(live)
            if refusal is not None:
                raise refusal
            self._stop_locked(live, ABORTED, f"Aborted by Rlr {seat + 1} before both players "
                              "had made a decision: no result.")
        return self.snapshot(live, seat)

    def _stop_locked(self, live: LiveGame, status: str, words: str) -> None:
        """End the game beside the rules (:data:`~parlor.web.games.STOPPED`: aborted, or
        drawn by agreement), stored first, at the version the live game is at. Under
        ``live.lock``."""
        try:
            with self.games.durable():
                self.games.store.mark(live.id, live.row.version, status=status,
                                      result=words, takebacks=live.row.takebacks,
                                      ends=status == DRAWN)  # a draw counts: rated
        except StoreConflict:
            self.games.refresh_locked(live)
            raise StaleVersion("the game moved on meanwhile: it goes on",
                               version=live.row.version) from None
        live.row = replace(live.row, status=status, result=words, updated=time.time())
        live.changed_at = time.monotonic()

    # -- offers: a draw, a takeback (casual only), each the other player's to accept ---------

    def offer(self, live: LiveGame, seat: int, version: int, what: str) -> dict[str, Any]:
        """``seat`` offers the other a draw or (casual play) to take back its last decision:
        the offer stands until the other answers it or the game moves on."""
        if what not in OFFERS:
            raise BadAction(f"an offer is one of {', '.join(OFFERS)}, not {what[:20]!r}")
        self._seated_or_refuse(live)
        self._refuse_if_flagged(live)
        lively = self.seats.lively(live.id)
        with live.lock:
            self._at(live, version, "making the offer")
            if what == "takeback":
                refusal = self._takeback_refusal(live, seat)
                if refusal is not None:
                    raise refusal
            standing = self._offer_json(live, seat, lively.offer)
            if standing is not None and not standing["yours"] and not standing["declined"]:
                raise NoOffer(f"Rlr {2 - seat} has offered {_a(standing['what'])}: answer it "
                              "first", version=live.row.version)
            made = Offer(what, seat, live.row.version, live.row.takebacks)
        self.seats.offer(live.id, made)
        return self.snapshot(live, seat)

    def answer(self, live: LiveGame, seat: int, version: int, accept: bool) -> dict[str, Any]:
        """``seat`` accepts or declines the other's open offer. Accepted, a draw ends the
        game with no winner (status ``drawn``); a takeback takes the offerer's last decision
        and everything after it out of the record (R30, 1313.3)."""
        self._seated_or_refuse(live)
        self._refuse_if_flagged(live)
        lively = self.seats.lively(live.id)
        with live.lock:
            self._at(live, version, "answering")
            standing = self._offer_json(live, seat, lively.offer)
            offer = lively.offer
            if standing is None or offer is None or standing["declined"]:
                raise NoOffer("there is no offer to answer: it lapsed when the game moved on, "
                              "or was answered", version=live.row.version)
            if standing["yours"]:
                raise NoOffer("this is your own offer: your friend answers it",
                              version=live.row.version)
            # the one answer that settles it (another tab, another server: only one)
            settled = None if accept else replace(offer, what=f"{offer.what}-declined")
            if not self.seats.offer(live.id, settled, only=offer):
                raise NoOffer("the offer was answered or withdrawn meanwhile",
                              version=live.row.version)
            if accept and offer.what == "draw":
                self._stop_locked(live, DRAWN, f"Drawn by agreement: Rlr {offer.by + 1} "
                                  f"offered a draw and Rlr {seat + 1} accepted.")
            elif accept:
                keep = self._takeback_point(live, offer.by)
                assert keep is not None  # the offer was made at this position, with one
                self.games.truncate_locked(live, version, keep)
        return self.snapshot(live, seat)

    def _at(self, live: LiveGame, version: int, doing_what: str) -> None:
        """The game is live at the ``version`` the player's table showed. Under the lock."""
        if self.games.store.shared:
            self.games.refresh_locked(live)
        if live.row.version != version:
            raise StaleVersion(f"the table has changed: look again before {doing_what}",
                               version=live.row.version)
        if not self._is_live(live):
            raise GameOver(live.row.result or f"the game is over: {live.state.result}",
                           version=live.row.version)

    def _takeback_refusal(self, live: LiveGame, seat: int) -> GameError | None:
        """Why ``seat`` cannot ask to take back now, or None: casual play only (1306,
        R30), and a decision of its own to take back. Under ``live.lock``."""
        if live.state.settings.match_play:
            return NoTakeback("this is a match game: a decision cannot be taken back (1306, "
                              "R30)", version=live.row.version)
        if self._takeback_point(live, seat) is None:
            return NoTakeback("you have made no decision yet: nothing to take back",
                              version=live.row.version)
        return None

    def _takeback_point(self, live: LiveGame, seat: int) -> int | None:
        """Where the record is cut to take back ``seat``'s last decision (the first action
        of it: a declaration sent whole goes whole), or None. Under ``live.lock``."""
        steps = self._steps_locked(live).steps
        mine = [i for i, st in enumerate(steps) if st.actor == seat and st.resign is None]
        if not mine:
            return None
        i = mine[-1]
        while i > 0 and (steps[i - 1].at, steps[i - 1].actor) == (steps[i].at, seat):
            i -= 1
        return i

    # -- rematch -------------------------------------------------------------------------------

    def rematch(self, live: LiveGame, seat: int) -> Rematch:
        """A new game between the same two people, seats swapped, as the game's settings and
        clock: the first to ask makes it (and holds its new seat), the other joins it the
        same way (a new invitation both can open, with their token of this game)."""
        if self._is_live(live):
            raise NotOver("the game is still on: a rematch follows its end",
                          version=live.row.version)
        rematch_id = self.seats.lively(live.id).rematch_id
        if rematch_id is None:
            settings = Settings.parse(live.row.settings)
            made = self.invite(seat=1 - seat, match_play=settings.match_play,
                               max_turns=settings.max_turns,
                               clock=time_control(self.seat(live.id)),
                               account=self._account_at(live, seat))
            if self.seats.set_rematch(live.id, made.live.id):
                return Rematch(made.live.id, 1 - seat, made.token)
            with made.live.lock:  # the other asked at the same moment: theirs stands
                self._stop_locked(made.live, ABORTED, "A rematch asked twice at once: the "
                                  "other one stands.")
            rematch_id = self.seats.lively(live.id).rematch_id
            assert rematch_id is not None
        new = self.games.get(rematch_id)
        if new.human == 1 - seat:  # this player asked for it: their browser has its token
            return Rematch(new.id, 1 - seat, None)
        token = secrets.token_urlsafe(24)
        with self.games.durable():
            taken = self.seats.accept_game(new.id, hash_token(token), now=self.now(),
                                           account=self._account_at(live, seat))
        return Rematch(new.id, 1 - seat, token if taken else None)

    def _account_at(self, live: LiveGame, seat: int) -> str | None:
        """The account tied to ``seat`` of the game (a rematch keeps the players'
        accounts, seats swapped)."""
        second = self.seat(live.id)
        if second is None:
            return None
        return second.host_account if seat == live.human else second.guest_account

    def _abort_refusal(self, live: LiveGame) -> GameError | None:
        """Why the game cannot be aborted now, or None. Under ``live.lock``."""
        if live.row.status == ABORTED:
            return GameOver("the game was aborted already", version=live.row.version)
        if live.row.status in STOPPED:
            return GameOver(live.row.result, version=live.row.version)
        if live.state.is_over:
            return GameOver(f"the game is over: {live.state.result}",
                            version=live.row.version)
        if self._both_have_decided(live):
            return NoAbort("both players have made a decision: the game can no longer be "
                           "aborted (resign instead)", version=live.row.version)
        return None

    def _both_have_decided(self, live: LiveGame) -> bool:
        """Whether the record holds a decision of each seat's (a resignation is the
        resigner's). Under ``live.lock``."""
        deciders = {st.actor if st.resign is None else st.resign
                    for st in self._steps_locked(live).steps}
        return deciders >= {0, 1}


__all__ = [
    "CLAIM_SECONDS",
    "GONE_SECONDS",
    "INVITE_SECONDS",
    "OFFERS",
    "Friends",
    "Invitation",
    "InvitationGone",
    "NoAbort",
    "NoOffer",
    "NotGone",
    "NotOver",
    "NotSeated",
    "Opened",
    "Rematch",
    "claim_words",
    "flag_words",
    "invite_hash",
    "time_control",
]
