"""Tournaments in the browser (rules 1300): create one, follow its pairings and standings, play
your contests on the usual table, watch the computers' contests, answer your team's ransoms.

The rules are :mod:`parlor.rules.tournament`'s; this module keeps a tournament's *steps* (a
round begins, a contest ends, a round ends, a ransom is answered) in the store, one committed
row each, and rebuilds the tournament by replaying them, so a restart loses nothing. Each
contest is an ordinary saved game: the person's is a "play" game on the usual table (the
conductor plays the computer's side), the others are "match" games that a driver task here
plays move by move, each decision thought in the conductor's worker pool (on PostgreSQL: a
``parlor.match_move`` job of ``parlor worker``). One driver task per live tournament, in the
server that runs it, moves it on; it is started again for every live tournament when the
server starts.

The tournament's secret token is kept in the cookie ``pmt_<id>``; it also opens the person's
contests (their rows carry the same token hash).

A tournament the server deals is dealt from a 128-bit deal key and each contest from a key
derived from it (R31, :func:`parlor.rules.tournament.pair_round`): the tournament's key is
shown only once the tournament is over, a contest's only once that contest is. A seed the
organiser types makes a *practice* tournament (its title says so): anyone with the number
can deal every contest again.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import re
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from parlor.ai.failure import AgentFailed
from parlor.present.tournament import ransom_question, standing_note
from parlor.rules.seeds import KEY_BYTES, DealKey, Seed
from parlor.rules.tournament import (
    Outcome,
    Ransom,
    Round,
    Tournament,
    TournamentError,
    TournamentSettings,
    answer_ransom,
    end_round,
    is_over,
    new_tournament,
    pair_round,
    ransom_payers,
    report,
    settle,
    sit_out,
    standings,
)
from parlor.store import StoreConflict, TournamentStore
from parlor.web.conductor import Conductor
from parlor.web.config import WebConfig
from parlor.web.games import (
    FAILED,
    BadAction,
    GameNotFound,
    GameOver,
    Games,
    LiveGame,
    NotYourGame,
    StaleVersion,
    hash_token,
    new_id,
    seed_json,
)
from parlor.web.schemas import BIG, NewTournament, checked, strict_int
from parlor.web.schemas import Ransom as RansomBody

HUMAN = "human"
COOKIE_PREFIX = "pmt_"
MAX_TEAMS = 8
MAX_TEAM_SIZE = 8
MAX_PLAYERS = 16
MAX_ROUNDS = 20
MAX_MINUTES = 240
MAX_TALENTS = 50
_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
_TEAM = re.compile(r"^[A-Za-z][A-Za-z0-9]{0,11}$")
log = logging.getLogger("parlor.web")


class TournamentNotFound(GameNotFound):
    pass


class ContestFailed(RuntimeError):
    """A computer player of a contest failed (a bug): the tournament stops and says so."""


# -- what a tournament is made of -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Entry:
    name: str
    team: str
    level: str  # a computer level, or "human" for the person


@dataclass(frozen=True, slots=True)
class Spec:
    """What the organiser chose: it and the steps rebuild the tournament."""

    title: str
    seed: Seed  # a deal key the server drew, or the organiser's practice number
    settings: TournamentSettings
    entries: tuple[Entry, ...]

    @property
    def practice(self) -> bool:
        """Dealt from a number (the organiser's, or from before deal keys): guessable."""
        return isinstance(self.seed, int)

    def to_json(self) -> str:
        return json.dumps({"title": self.title, "seed": seed_json(self.seed),
                           "settings": asdict(self.settings),
                           "entries": [asdict(e) for e in self.entries]})

    @staticmethod
    def from_json(text: str) -> Spec:
        d = json.loads(text)
        seed = d["seed"] if isinstance(d["seed"], int) else DealKey.parse(d["seed"])
        return Spec(d["title"], seed, TournamentSettings(**d["settings"]),
                    tuple(Entry(**e) for e in d["entries"]))

    def start(self) -> Tournament:
        teams: dict[str, list[str]] = {}
        for e in self.entries:
            teams.setdefault(e.team, []).append(e.name)
        people = [e.name for e in self.entries if e.level == HUMAN]
        return new_tournament(list(teams.items()), self.settings, self.seed, people)


def parse_spec(data: dict[str, Any], accepted: list[str]) -> Spec:
    """The creation form, checked: BadAction (400) with a sentence for anything wrong."""
    teams = data.get("teams")
    if not isinstance(teams, list) or len(teams) < 2:
        raise BadAction("a tournament needs at least two teams (1301)")
    if len(teams) > MAX_TEAMS:
        raise BadAction(f"at most {MAX_TEAMS} teams")
    entries: list[Entry] = []
    names: set[str] = set()
    for n, team in enumerate(teams, 1):
        if not isinstance(team, dict):
            raise BadAction("each team is {\"name\": \"A\", \"players\": [\"greedy\", ...]}")
        name = str(team.get("name") or "").strip()
        if not _TEAM.match(name):
            raise BadAction(f"team {n}: a name is a letter then up to 11 letters or digits, "
                            f"not {name!r}")
        if name in names:
            raise BadAction(f"team {name!r} is given twice")
        names.add(name)
        players = team.get("players")
        if not isinstance(players, list) or not players:
            raise BadAction(f"team {name} has no players")
        if len(players) > MAX_TEAM_SIZE:
            raise BadAction(f"team {name}: at most {MAX_TEAM_SIZE} players")
        for k, level in enumerate(players, 1):
            if not isinstance(level, str) or (level != HUMAN and level not in accepted):
                raise BadAction(f"team {name}: unknown level {level!r} (choose from "
                                f"{', '.join(accepted)} or {HUMAN})")
            entries.append(Entry(f"{name}{k}", name, level))
    if len({e.name for e in entries}) != len(entries):
        raise BadAction("two players would have the same name: give the teams other names")
    if len(entries) > MAX_PLAYERS:
        raise BadAction(f"at most {MAX_PLAYERS} players in all")
    if sum(e.level == HUMAN for e in entries) > 1:
        raise BadAction("you can be on one team only")
    rounds = _int(data, "rounds", None, 1, MAX_ROUNDS)
    minutes = _int(data, "minutes", None, 1, MAX_MINUTES)
    if (rounds is None) == (minutes is None):
        raise BadAction("choose either a number of rounds or a time limit in minutes (1312)")
    try:
        settings = TournamentSettings(
            rounds=rounds, time_limit=None if minutes is None else minutes * 60.0,
            talents=_int(data, "talents", 4, 1, MAX_TALENTS) or 4,
            max_turns=_int(data, "max_turns", 200, 2, 1000) or 200)
    except TournamentError as exc:
        raise BadAction(str(exc)) from None
    seed = _int(data, "seed", None, 0, 2**31 - 1)
    title = str(data.get("title") or "").strip()[:60] or "Tournament"
    if seed is None:  # R31: 128 secret bits, so no contest's cards pin down another's deal
        return Spec(title, DealKey(secrets.token_bytes(KEY_BYTES)), settings, tuple(entries))
    return Spec(f"{title} (practice, seed {seed})", seed, settings, tuple(entries))


def _int(data: dict[str, Any], key: str, default: int | None, lo: int, hi: int) -> int | None:
    raw = data.get(key)
    if raw is None or raw == "":
        return default
    if isinstance(raw, bool):
        raise BadAction(f"{key} must be a whole number")
    try:
        n = int(str(raw).strip())
    except ValueError:
        raise BadAction(f"{key} must be a whole number, not {raw!r}") from None
    if not lo <= n <= hi:
        raise BadAction(f"{key} must be between {lo} and {hi}")
    return n


# -- a tournament in memory -----------------------------------------------------------------------


@dataclass
class LiveTournament:
    id: str
    token_hash: str
    spec: Spec
    created: float
    t: Tournament
    steps: list[dict[str, Any]] = field(default_factory=list)
    round: Round | None = None  # the round in play
    games: dict[int, str] = field(default_factory=dict)  # table -> game id, this round
    history: dict[tuple[int, int], str] = field(default_factory=dict)  # (round, table) -> id
    done: set[int] = field(default_factory=set)  # tables of this round that have ended
    lock: threading.Lock = field(default_factory=threading.Lock)

    def apply(self, step: dict[str, Any]) -> None:
        """Replay one step (the driver's, or the store's after a restart)."""
        do = step["do"]
        if do == "round":
            rnd = pair_round(self.t)
            self.t = sit_out(self.t, rnd)
            self.round = rnd
            self.games = {int(k): v for k, v in step["games"].items()}
            self.history.update({(rnd.number, k): v for k, v in self.games.items()})
            self.done = set()
        elif do == "result":
            assert self.round is not None
            p = next(p for p in self.round.pairings if p.table == step["table"])
            winner = None if step["winner"] is None else p.seats[step["winner"]]
            self.t = settle(self.t, Outcome(p.round, p.table, p.seats, p.seed, winner,
                                            step["life"], step["turns"], step["how"]))
            self.done.add(p.table)
        elif do == "end":
            self.t = end_round(self.t, step["elapsed"])
            self.round = None
            self.games = {}
        elif do == "ransom":
            r = Ransom(step["prisoner"], step["holder"], step["amount"], step["round"])
            payers = None if step["payers"] is None else [(i, n) for i, n in step["payers"]]
            self.t = answer_ransom(self.t, r, payers)
        else:
            raise ValueError(f"unknown tournament step {do!r}")
        self.steps.append(step)

    @property
    def over(self) -> bool:
        return is_over(self.t) and self.round is None


def match_token(lt: LiveTournament, game_id: str) -> str:
    """The token of a contest between computers: not the tournament's, so that no player's
    view of it (hands included) can be asked for while it is played; the tournament hands it
    out for the replay once the contest is over."""
    return hmac.new(lt.token_hash.encode(), game_id.encode(), "sha256").hexdigest()


def outcome_step(table: int, live: LiveGame) -> dict[str, Any]:
    """The "result" step of a finished contest (winner as a seat: 0, 1 or None)."""
    s = live.state
    resigned = bool(s.history) and getattr(s.history[-1], "verb", "") == "resign"
    how = "draw" if s.winner is None else "resign" if resigned else "attack"
    return {"do": "result", "table": table, "winner": s.winner,
            "life": 0 if s.winner is None else s.life[s.winner], "turns": s.turn, "how": how}


class Tournaments:
    """The tournaments of one server: memory, store, and one driver task each."""

    def __init__(self, games: Games, store: TournamentStore, conductor: Conductor,
                 config: WebConfig) -> None:
        self.games = games
        self.store = store
        self.conductor = conductor
        self.config = config
        self._live: dict[str, LiveTournament] = {}
        self._lock = threading.Lock()
        self._drivers: dict[str, asyncio.Task[None]] = {}
        self._matches: dict[str, asyncio.Task[None]] = {}
        self._events: dict[str, asyncio.Event] = {}
        self.failures: dict[str, str] = {}

    # -- creating, loading, saving ------------------------------------------------------------

    def create(self, spec: Spec) -> tuple[LiveTournament, str]:
        t = spec.start()
        token = secrets.token_urlsafe(24)
        tid = new_id()
        now = time.time()
        self.store.insert(tid, hash_token(token), spec.to_json(), spec.title, now)
        lt = LiveTournament(tid, hash_token(token), spec, now, t)
        with self._lock:
            self._live[tid] = lt
        return lt, token

    def get(self, tid: str) -> LiveTournament:
        if not _ID.match(tid):
            raise TournamentNotFound(f"there is no tournament {tid!r}")
        with self._lock:
            found = self._live.get(tid)
        if found is not None:
            return found
        stored = self.store.load(tid)
        if stored is None:
            raise TournamentNotFound(f"there is no tournament {tid!r}")
        spec = Spec.from_json(stored.row.spec)
        lt = LiveTournament(tid, stored.token_hash, spec, stored.row.created, spec.start())
        for text in stored.steps:
            lt.apply(json.loads(text))
        with self._lock:
            return self._live.setdefault(tid, lt)

    def _commit(self, lt: LiveTournament, step: dict[str, Any],
                games: tuple[str, ...] = ()) -> None:
        """Store ``step`` and only then apply it (under the tournament's lock)."""
        trial = LiveTournament(lt.id, lt.token_hash, lt.spec, lt.created, lt.t, [],
                               lt.round, dict(lt.games), dict(lt.history), set(lt.done))
        trial.apply(step)  # a step that does not fit raises before anything is stored
        status = "over" if trial.over else "live"
        try:
            self.store.append(lt.id, len(lt.steps), json.dumps(step), status=status,
                              now=time.time(), games=games)
        except StoreConflict:
            raise StaleVersion("the tournament changed elsewhere; reload the page") from None
        lt.t, lt.round, lt.games, lt.history, lt.done = (trial.t, trial.round, trial.games,
                                                         trial.history, trial.done)
        lt.steps.append(step)
        self._notify(lt.id)

    @staticmethod
    def authorize(lt: LiveTournament, token: str | None) -> None:
        if not token or not hmac.compare_digest(hash_token(token), lt.token_hash):
            raise NotYourGame("this tournament belongs to another browser")

    def owned(self, tokens: dict[str, str]) -> list[dict[str, Any]]:
        hashes = self.store.token_hashes(list(tokens)[:200])
        ok = [tid for tid, h in hashes.items() if hmac.compare_digest(hash_token(tokens[tid]), h)]
        return [{"id": r.id, "title": r.title, "status": r.status, "url": f"/t/{r.id}"}
                for r in self.store.rows(ok)]

    # -- the steps -------------------------------------------------------------------------------

    def begin_round(self, lt: LiveTournament) -> None:
        """Pair the next round and deal its contests (one saved game each)."""
        with lt.lock:
            if lt.round is not None or is_over(lt.t) or lt.t.asked:
                return
            rnd = pair_round(lt.t)
            ids: dict[str, str] = {}
            for p in rnd.pairings:
                seats = [lt.spec.entries[i] for i in p.seats]
                settings = p.game_settings(lt.t.settings)
                where = f"{lt.spec.title}, round {p.round} table {p.table}"
                if HUMAN in (seats[0].level, seats[1].level):
                    me = 0 if seats[0].level == HUMAN else 1
                    other = seats[1 - me]
                    live = self.games.create_contest(
                        kind="play", level=other.level, seed=p.seed, settings=settings,
                        human=me, title=f"{where}: you against {other.name} ({other.level})",
                        token_hash=lt.token_hash)
                else:
                    gid = new_id()
                    live = self.games.create_contest(
                        kind="match", level=f"{seats[0].level}|{seats[1].level}", seed=p.seed,
                        settings=settings, human=0,
                        title=f"{where}: {seats[0].name} ({seats[0].level}) against "
                              f"{seats[1].name} ({seats[1].level})",
                        token_hash=hash_token(match_token(lt, gid)), game_id=gid)
                ids[str(p.table)] = live.id
            self._commit(lt, {"do": "round", "games": ids}, tuple(ids.values()))

    def record_results(self, lt: LiveTournament) -> bool:
        """Settle the contests that have ended; True when the whole round has."""
        with lt.lock:
            if lt.round is None:
                return False
            for p in lt.round.pairings:
                if p.table in lt.done:
                    continue
                live = self.games.get(lt.games[p.table])
                if live.row.status == FAILED:  # a computer's bug stops the tournament too
                    raise ContestFailed(f"table {p.table}: {live.row.result}")
                if live.state.is_over:
                    self._commit(lt, outcome_step(p.table, live))
            return len(lt.done) == len(lt.round.pairings)

    def close_round(self, lt: LiveTournament) -> None:
        with lt.lock:
            if lt.round is not None and len(lt.done) == len(lt.round.pairings):
                self._commit(lt, {"do": "end", "elapsed": round(time.time() - lt.created, 3)})

    def answer(self, lt: LiveTournament, data: dict[str, Any]) -> None:
        """The person's answer to a ransom (1308.2)."""
        with lt.lock:
            if not lt.t.asked:
                raise GameOver("no ransom is waiting for an answer")
            try:
                index = int(data.get("ransom", 0))
            except (TypeError, ValueError):
                raise BadAction("'ransom' is the number of the question") from None
            if not 0 <= index < len(lt.t.asked):
                raise BadAction("no such ransom question")
            r = lt.t.asked[index]
            payers: list[list[int]] | None = None
            if data.get("pay") is True:
                raw = data.get("payers")
                if raw is None:
                    payers = [[i, n] for i, n in ransom_payers(lt.t, r)]
                else:
                    if not isinstance(raw, list) or not raw:
                        raise BadAction("'payers' lists {\"player\": NAME, \"talents\": N}")
                    index_of = {e.name: i for i, e in enumerate(lt.spec.entries)}
                    payers = []
                    for item in raw:
                        if not isinstance(item, dict) or item.get("player") not in index_of:
                            raise BadAction(f"not a payer: {item!r}")
                        n = item.get("talents")
                        if not isinstance(n, int) or isinstance(n, bool):
                            raise BadAction("each payer's talents is a whole number")
                        if n:
                            payers.append([index_of[item["player"]], n])
            elif data.get("pay") is not False:
                raise BadAction("send {\"pay\": true, \"payers\": [...]} or {\"pay\": false}")
            step = {"do": "ransom", "prisoner": r.prisoner, "holder": r.holder,
                    "amount": r.amount, "round": r.round, "payers": payers}
            try:
                self._commit(lt, step)
            except TournamentError as exc:
                raise BadAction(str(exc)) from None

    # -- what the browser is sent ------------------------------------------------------------------

    def snapshot(self, lt: LiveTournament) -> dict[str, Any]:
        """What the tournament's page shows (call it in a worker thread: it may replay a
        contest from the store)."""
        with lt.lock:
            t = lt.t
            e = lt.spec.entries
            you = next((i for i, x in enumerate(e) if x.level == HUMAN), None)
            tables = []
            if lt.round is not None:
                for p in lt.round.pairings:
                    gid = lt.games[p.table]
                    live = self.games.get(gid)  # replayed from the store after a restart
                    tables.append({
                        "table": p.table,
                        "players": [e[i].name for i in p.seats],
                        "levels": [e[i].level for i in p.seats],
                        "single_draw": list(p.single_draw),
                        "yours": you in p.seats,
                        "done": p.table in lt.done,
                        "turn": live.state.turn,
                        "url": f"/t/{lt.id}/{'play' if you in p.seats else 'watch'}/"
                               f"{p.table}"})
            rows = []
            for st in standings(t):
                rows.append({**asdict(st), "level": e[st.player].level,
                             "note": standing_note(t, st),
                             "you": st.player == you, "held": t.held(st.player),
                             "out_round": t.players[st.player].out_round})
            asked = [{"n": k, "question": ransom_question(t, r),
                      "prisoner": e[r.prisoner].name, "holder": e[r.holder].name,
                      "amount": r.amount, "round": r.round,
                      "offer": [{"player": e[i].name, "talents": n}
                                for i, n in ransom_payers(t, r)],
                      "team": [{"player": e[i].name, "talents": t.players[i].talents}
                               for i, pl in enumerate(t.players)
                               if pl.team == t.players[r.prisoner].team and pl.is_in]}
                     for k, r in enumerate(t.asked)]
            results = [{"round": s.outcome.round, "table": s.outcome.table,
                        "players": [e[i].name for i in s.outcome.seats],
                        "winner": None if s.outcome.winner is None
                        else e[s.outcome.winner].name,
                        "life": s.outcome.winner_life, "how": s.outcome.how,
                        "bracket": s.bracket, "paid": s.paid, "ransom": s.ransom,
                        "url": f"/t/{lt.id}/games/"
                               f"{lt.history.get((s.outcome.round, s.outcome.table))}"}
                       for s in t.results]
            ts = t.settings
            return {
                "id": lt.id, "title": lt.spec.title, "version": len(lt.steps),
                "status": "over" if lt.over else "live",
                "round": t.round + (1 if lt.round is not None else 0),
                "rounds": ts.rounds, "minutes": None if ts.time_limit is None
                else round(ts.time_limit / 60), "elapsed": round(time.time() - lt.created),
                "talents": ts.talents, "max_turns": ts.max_turns,
                # every contest's deal comes from the tournament's seed: secret until the end
                "seed": seed_json(lt.spec.seed) if lt.over else None,
                "practice": lt.spec.practice,
                "you": None if you is None else e[you].name,
                "tables": tables, "standings": rows, "asked": asked,
                "ransoms": [{"prisoner": e[r.prisoner].name, "holder": e[r.holder].name,
                             "amount": r.amount, "round": r.round} for r in t.ransoms],
                "results": results, "log": list(t.log),
                "failure": self.failures.get(lt.id),
            }

    def report(self, lt: LiveTournament) -> dict[str, Any]:
        with lt.lock:
            if not lt.over:
                raise GameOver("the report is ready when the tournament is over")
            return report(lt.t, [x.level for x in lt.spec.entries])

    def table_game(self, lt: LiveTournament, table: int) -> str:
        with lt.lock:
            if lt.round is not None and table in lt.games:
                return lt.games[table]
        raise GameNotFound(f"there is no table {table} in the round in play")

    # -- the drivers (on the server's event loop) -------------------------------------------------

    def _notify(self, tid: str) -> None:
        loop = self.conductor.loop
        if loop is not None:
            loop.call_soon_threadsafe(self._changed, tid)

    def _changed(self, tid: str) -> None:
        ev = self._events.pop(tid, None)
        if ev is not None:
            ev.set()

    def changed_event(self, tid: str) -> asyncio.Event:
        ev = self._events.get(tid)
        if ev is None:
            ev = self._events[tid] = asyncio.Event()
        return ev

    async def start(self) -> None:
        """Resume every live tournament (after a restart)."""
        for tid in await asyncio.to_thread(self.store.live_ids):
            self.kick(tid)

    async def stop(self) -> None:
        tasks = [*self._drivers.values(), *self._matches.values()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def kick(self, tid: str) -> None:
        task = self._drivers.get(tid)
        if (task is None or task.done()) and self.conductor.loop is not None:
            self._drivers[tid] = self.conductor.loop.create_task(self._drive(tid))

    async def _drive(self, tid: str) -> None:
        try:
            while True:
                lt = await asyncio.to_thread(self.get, tid)
                if lt.over or tid in self.failures:
                    return
                if lt.t.asked:  # the person answers (1308.2)
                    ev = self.changed_event(tid)
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(ev.wait(), timeout=30)
                    continue
                if lt.round is None:
                    await asyncio.to_thread(self.begin_round, lt)
                    continue
                if await asyncio.to_thread(self.record_results, lt):
                    await asyncio.to_thread(self.close_round, lt)
                    continue
                for table, gid in list(lt.games.items()):
                    if table in lt.done:
                        continue
                    live = await asyncio.to_thread(self.games.get, gid)
                    if live.row.kind == "play":
                        self.conductor.kick(gid)
                    else:
                        self._ensure_match(tid, gid)
                await asyncio.sleep(0.25)
        except asyncio.CancelledError:
            raise
        except ContestFailed as exc:
            self.failures[tid] = str(exc)
            self._notify(tid)
        except Exception as exc:  # reported on the tournament's page, never hidden
            log.exception("the driver of tournament %s failed", tid)
            self.failures[tid] = f"{type(exc).__name__}: {exc}"
            self._notify(tid)

    def _ensure_match(self, tid: str, gid: str) -> None:
        task = self._matches.get(gid)
        if task is None or task.done():
            assert self.conductor.loop is not None
            self._matches[gid] = self.conductor.loop.create_task(self._play_match(tid, gid))

    async def _play_match(self, tid: str, gid: str) -> None:
        """Two computers play a contest, at the table's pace so that it can be watched."""
        try:
            while True:
                found = self.games.cached(gid)
                live = found if found is not None else await asyncio.to_thread(
                    self.games.get, gid)
                job = self.games.match_job(live)
                if job is None:
                    return
                text = await self.conductor.think_match(job)
                if text is None:  # the game moved on meanwhile: look again
                    continue
                wait = self.config.pace - (time.monotonic() - live.changed_at)
                if wait > 0:
                    await asyncio.sleep(wait)
                if await asyncio.to_thread(self.games.apply_match, live, job.version, text):
                    self.conductor.notify(gid)
        except asyncio.CancelledError:
            raise
        except AgentFailed as exc:  # a bug: the contest stops, never another player
            log.error("contest %s of tournament %s: %s", gid, tid, exc)
            self.failures[tid] = f"contest {gid}: {exc}"
            self._notify(tid)
        except Exception as exc:  # reported on the tournament's page; the driver stops
            log.exception("the contest %s between computers failed", gid)
            self.failures[tid] = f"contest {gid}: {type(exc).__name__}: {exc}"
            self._notify(tid)
        finally:
            if self._matches.get(gid) is asyncio.current_task():
                del self._matches[gid]


# -- HTTP -----------------------------------------------------------------------------------------


def router(tournaments: Tournaments, games: Games, accepted: list[str],
           page: Callable[..., HTMLResponse],
           json_of: Callable[[Request], Any]) -> APIRouter:
    """The tournament pages and API; ``page`` renders a template, ``json_of`` reads a JSON
    body (both the app's)."""
    api = APIRouter()

    def token_of(request: Request, tid: str) -> str | None:
        return request.headers.get("x-parlor-token") or request.cookies.get(COOKIE_PREFIX + tid)

    async def load(request: Request, tid: str) -> LiveTournament:
        lt = await asyncio.to_thread(tournaments.get, tid)
        tournaments.authorize(lt, token_of(request, tid))
        return lt

    def set_token(resp: Response, tid: str, token: str) -> None:
        resp.set_cookie(COOKIE_PREFIX + tid, token, max_age=3600 * 24 * 365, httponly=True,
                        samesite="strict", path="/")

    def tokens_of(request: Request) -> dict[str, str]:
        return {k[len(COOKIE_PREFIX):]: v for k, v in request.cookies.items()
                if k.startswith(COOKIE_PREFIX) and _ID.match(k[len(COOKIE_PREFIX):])}

    def table_number(text: str) -> int:
        if not text.isdigit() or not 1 <= int(text) <= MAX_PLAYERS:
            raise GameNotFound(f"there is no table {text!r}")
        return int(text)

    @api.get("/tournaments", response_class=HTMLResponse)
    async def tournaments_page(request: Request) -> Response:
        mine = await asyncio.to_thread(tournaments.owned, tokens_of(request))
        return page(request, "tournaments.html", levels=accepted, tournaments=mine,
                    title="Parlor Magic — tournaments")

    @api.post("/api/tournaments", status_code=201)
    async def api_create(request: Request) -> Response:
        data = await json_of(request)
        spec = parse_spec(data, accepted)
        checked(NewTournament, data)
        lt, token = await asyncio.to_thread(tournaments.create, spec)
        tournaments.kick(lt.id)
        resp = JSONResponse({"id": lt.id, "token": token, "url": f"/t/{lt.id}"},
                            status_code=201)
        set_token(resp, lt.id, token)
        return resp

    @api.get("/t/{tid}", response_class=HTMLResponse)
    async def tournament_page(request: Request, tid: str) -> Response:
        lt = await load(request, tid)
        tournaments.kick(tid)
        snap = await asyncio.to_thread(tournaments.snapshot, lt)
        return page(request, "tournament.html", snapshot=snap,
                    title=f"Parlor Magic — {lt.spec.title}")

    @api.get("/api/tournaments/{tid}")
    async def api_state(request: Request, tid: str, after: str | None = None,
                        wait: str | None = None) -> Response:
        after_v = strict_int(after, "after", -1, -1, BIG)
        wait_s = strict_int(wait, "wait", 0, 0, 30)
        lt = await load(request, tid)
        changed = tournaments.changed_event(tid)
        snap = await asyncio.to_thread(tournaments.snapshot, lt)
        if wait_s > 0 and snap["version"] <= after_v and snap["status"] == "live":
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), timeout=wait_s)
            snap = await asyncio.to_thread(tournaments.snapshot, lt)
        return JSONResponse(snap)

    @api.post("/api/tournaments/{tid}/ransom")
    async def api_ransom(request: Request, tid: str) -> Response:
        lt = await load(request, tid)
        data = await json_of(request)
        checked(RansomBody, data)
        await asyncio.to_thread(tournaments.answer, lt, data)
        tournaments.kick(tid)
        return JSONResponse(await asyncio.to_thread(tournaments.snapshot, lt))

    @api.get("/api/tournaments/{tid}/report")
    async def api_report(request: Request, tid: str) -> Response:
        lt = await load(request, tid)
        return JSONResponse(tournaments.report(lt), headers={
            "Content-Disposition": f'attachment; filename="parlor-tournament-{tid}.json"'})

    @api.get("/t/{tid}/play/{table}")
    async def play_contest(request: Request, tid: str, table: str) -> Response:
        lt = await load(request, tid)
        gid = tournaments.table_game(lt, table_number(table))
        live = await asyncio.to_thread(games.get, gid)
        if live.row.kind != "play":
            return RedirectResponse(f"/t/{tid}/watch/{table}", status_code=303)
        resp = RedirectResponse(f"/g/{gid}", status_code=303)
        token = token_of(request, tid)
        assert token is not None  # load() checked it
        resp.set_cookie("pm_" + gid, token, max_age=3600 * 24 * 365, httponly=True,
                        samesite="strict", path="/")
        return resp

    @api.get("/t/{tid}/games/{gid}")
    async def contest_replay(request: Request, tid: str, gid: str) -> Response:
        """A finished contest's replay (its row carries the tournament's token)."""
        lt = await load(request, tid)
        if gid not in lt.history.values():
            raise GameNotFound(f"game {gid!r} is not a contest of this tournament")
        live = await asyncio.to_thread(games.get, gid)
        if live.row.kind == "match":
            if not live.state.is_over:
                raise GameOver("this contest is still being played: watch it instead")
            token = match_token(lt, gid)
        else:
            found = token_of(request, tid)
            assert found is not None  # load() checked it
            token = found
        resp = RedirectResponse(f"/replay/{gid}", status_code=303)
        resp.set_cookie("pm_" + gid, token, max_age=3600 * 24 * 365, httponly=True,
                        samesite="strict", path="/")
        return resp

    @api.get("/t/{tid}/watch/{table}", response_class=HTMLResponse)
    async def watch_page(request: Request, tid: str, table: str) -> Response:
        lt = await load(request, tid)
        gid = tournaments.table_game(lt, table_number(table))
        live = await asyncio.to_thread(games.get, gid)
        snap = games.spectator_snapshot(live)
        names = [lt.spec.entries[i].name for i in _seats(lt, table_number(table))]
        return page(request, "watch.html", snapshot=snap, names=names, tid=tid,
                    table=table, title=f"Watching — {live.row.title}")

    @api.get("/api/tournaments/{tid}/tables/{table}")
    async def api_watch(request: Request, tid: str, table: str, after: str | None = None,
                        wait: str | None = None, log_from: str | None = None) -> Response:
        after_v = strict_int(after, "after", -1, -1, BIG)
        wait_s = strict_int(wait, "wait", 0, 0, 30)
        start = strict_int(log_from, "log_from", 0, 0, BIG)
        lt = await load(request, tid)
        gid = tournaments.table_game(lt, table_number(table))
        live = await asyncio.to_thread(games.get, gid)
        snap = games.spectator_snapshot(live, start)
        if wait_s > 0 and snap["version"] <= after_v and snap["status"] == "live":
            await asyncio.sleep(min(wait_s, 1.0))
            snap = games.spectator_snapshot(live, start)
        return JSONResponse(snap)

    return api


def _seats(lt: LiveTournament, table: int) -> tuple[int, int]:
    with lt.lock:
        assert lt.round is not None
        return next(p.seats for p in lt.round.pairings if p.table == table)


__all__ = ["Spec", "Tournaments", "parse_spec", "router"]
