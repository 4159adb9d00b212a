"""A tournament in the server: :class:`LiveTournament` (the state, rebuilt by replaying its
steps) and :class:`Tournaments` (creating, loading, storing each step, what the browser is
sent). Each step is one committed row in the store; :mod:`parlor.web.tournaments.driver` takes
the steps as the contests end."""

from __future__ import annotations

import hmac
import json
import re
import secrets
import threading
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from parlor.present.tournament import ransom_question, standing_note
from parlor.rules.tournament import (
    Outcome,
    Ransom,
    Round,
    Tournament,
    TournamentError,
    answer_ransom,
    end_round,
    is_over,
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
from parlor.web.tournaments.driver import ContestFailed, Driver
from parlor.web.tournaments.spec import HUMAN, Entry, Spec

_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


class TournamentNotFound(GameNotFound):
    pass


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
        self.failures: dict[str, str] = {}  # tournament -> why its driver stopped
        self.driver = Driver(self)

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
        self.driver.notify(lt.id)

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
            tables = self._tables(lt, you)
            rows = []
            for st in standings(t):
                rows.append({**asdict(st), "level": e[st.player].level,
                             "note": standing_note(t, st),
                             "you": st.player == you, "held": t.held(st.player),
                             "out_round": t.players[st.player].out_round})
            asked = _asked(t, e)
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

    def _tables(self, lt: LiveTournament, you: int | None) -> list[dict[str, Any]]:
        """The tables of the round in play (under the tournament's lock)."""
        e = lt.spec.entries
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
        return tables

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

    # -- the driver (on the server's event loop) --------------------------------------------------

    async def start(self) -> None:
        """Resume every live tournament's driver (after a restart)."""
        await self.driver.start()

    async def stop(self) -> None:
        await self.driver.stop()


def _asked(t: Tournament, e: tuple[Entry, ...]) -> list[dict[str, Any]]:
    """The ransoms waiting for the person's answer (1308.2), with who may pay what."""
    return [{"n": k, "question": ransom_question(t, r),
             "prisoner": e[r.prisoner].name, "holder": e[r.holder].name,
             "amount": r.amount, "round": r.round,
             "offer": [{"player": e[i].name, "talents": n}
                       for i, n in ransom_payers(t, r)],
             "team": [{"player": e[i].name, "talents": t.players[i].talents}
                      for i, pl in enumerate(t.players)
                      if pl.team == t.players[r.prisoner].team and pl.is_in]}
            for k, r in enumerate(t.asked)]
