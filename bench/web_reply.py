#!/usr/bin/env python3
"""A web reply's and a research observation's cost early and late in a long game, and the
server's CPU per move.

    python bench/web_reply.py [--early 5] [--late 500] [--seed 13] [--rounds 3]
                              [--seconds 1.0] [--no-control] [--verb keep] [--positions 4]

Plays one game of random legal actions (a seeded generator, ``max_turns`` large enough to
reach ``--late``) and sets it up as live games of a server (their records in a SQLite file,
the human as Rlr 1) at positions early and late in the game where the human is to act and
the computer answers. What is compared is like with like, so that the ratio says whether a
reply grows with how long the game has run, not which move happened to be made: the first
``--positions`` such decisions from step ``--early`` on and from step ``--late`` on whose
action (the one the game played there) is the verb ``--verb`` (default ``keep``: the
commonest decision at both ends of the game, about three log events each). The rule picks
the positions, never their costs; the steps and the events each action logs are printed.
``--verb any --positions 1`` is the earlier comparison: the first decision from each step,
whatever its move (step 7 keeps a card, step 500 plays and pays for one: 3 events
against 7). At each position it times what the server does:

- *player reply*: the reply to GET /api/games/<id> at an unchanged position (a long poll,
  a reload): :meth:`Games.snapshot` from ``log_from`` (the entries the last action added)
  encoded as the app encodes it (:func:`encode_reply`);
- *spectator reply*: likewise, :meth:`Games.spectator_snapshot`;
- *first reply at a position*: the same player reply made at a position the server has
  not answered yet (what it keeps per position forgotten, the log entries of the last
  action not yet written, the table's sides and combat kept as the reply at the step
  before left them: a side the last action changed is made again): the cost a move's
  reply pays once;
- *POST action*: :meth:`Games.act` whole, the reply encoded: the action parsed, the state
  cloned, the action applied and committed to SQLite, the reply made;
- *server CPU per move, deployed*: the POST action, then the computer's answer as a server
  of the deployment (``parlor serve`` beside ``parlor worker``) sees it: committed by a
  worker (untimed), read from the store and replayed onto the cached game
  (``Games._refresh_locked``), then the long poll's reply delivering the new position;
- *server CPU per move, single process* (``make run``): the POST action, then the
  computer's answer as the server handles it (:meth:`Games.computer_job` pickled as for
  the computer's process pool, its decision applied and committed by
  :meth:`Games.apply_computer`), then the long poll's reply: everything but the
  computer's thinking;
- *observations* of the research environments (issue 42), the actor's, at the same two
  steps of the same game: OpenSpiel's ``state.observation_tensor`` and
  ``state.observation_string`` on ``parlor_magic`` (the game log kept, as the OpenSpiel game
  keeps it); PettingZoo's ``env.observe(agent)``; Gymnasium's observation as
  ``ParlorGymEnv.step`` returns it (``observe_state(game, seat)``), the log off as both
  environments play.

The control (unless ``--no-control``): each of them again at the late step with the
game's history cut to the early step's length (the log's last events, the record's and the
trail's last steps: :func:`without_history`), the table unchanged. ``late / late cut`` is
the share of the growth that comes from the game's past (1.0: none); what remains of
``late / early`` comes from the late table itself (more cards on it and in the piles, a
combat, another move's events).

Process CPU time (``time.process_time``); the positions interleaved (early 1, late 1,
early 2, late 2, ...) so that the machine's noise falls on both, ``--rounds`` repeats of
``--seconds`` CPU-seconds each. A position's figure is its median over the rounds; an end
of the game's is the mean of its positions'. Prints those microseconds and the ratio late / early
(the targets: at most 1.1, replies (issue 38) and observations (issue 42) costing the same
at step 500 as at step 5; and the server's CPU per move at most 2 ms on the compiled build),
then a summary of them all. The POST action and the
move change the game: each is undone before the next, untimed (the store truncated, the
live game set back).
"""

from __future__ import annotations

import argparse
import pickle
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from parlor.build import describe
from parlor.research import gym_env, petting, spiel
from parlor.research.numbering import encode
from parlor.rules.actions import Action
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.state import HISTORY, TRAIL, Lent, Settings, State
from parlor.store import GameStore
from parlor.web.games import Games, _position_parts, encode_reply

HUMAN = 0
T = TypeVar("T")
RATIO_TARGET = 1.1  # step 500 / step 5 (issues 38 and 42)
MOVE_TARGET_US = 2000.0  # the server's CPU per move, compiled (issue 38)


def play(seed: int, upto: int, max_turns: int) -> tuple[list[State], list[str]]:
    """One random game: the state after each of its first ``upto`` actions, and those."""
    s = new_game(seed, Settings(max_turns=max_turns))
    assert not s.history, "the bench expects a deal that applies nothing"
    rng = random.Random(seed)
    states, actions = [s.clone()], []
    for k in range(upto):
        if s.is_over:
            raise SystemExit(f"the game ended at step {k}: raise --max-turns or change --seed")
        a = rng.choice(legal_actions(s))
        actions.append(str(a))
        apply(s, a)
        states.append(s.clone())
    return states, actions


def without_history(s: State, like: State) -> State:
    """A copy of ``s`` whose history is as long as ``like``'s: the log's last events, the
    record's and the trail's last steps, the table as it is. The control of the
    measurement: what costs more at ``s`` than at ``like`` for its table, not its past."""
    c = s.clone()
    assert c.log is not None and like.log is not None and c.trail is not None
    c.log = c.log[len(c.log) - len(like.log):]
    c.history = c.history[len(c.history) - len(like.history):]
    c.trail = c.trail[len(c.trail) - len(like.trail or ()):]
    return c


def turn_at(states: list[State], start: int) -> int:
    """The first step from ``start`` on where the human acts and the computer answers."""
    return turns_at(states, [], start, "any", 1)[0]


def turns_at(states: list[State], actions: list[str], start: int, verb: str,
             n: int) -> list[int]:
    """The first ``n`` steps from ``start`` on where the human acts, the computer answers
    and the action played is ``verb`` (its first word; ``any``: whatever it is)."""
    found: list[int] = []
    for k in range(start, len(states) - 2):
        if states[k].actor == HUMAN and states[k + 1].actor != HUMAN \
                and not states[k + 1].is_over \
                and (verb == "any" or actions[k].split()[0] == verb):
            found.append(k)
            if len(found) == n:
                return found
    raise SystemExit(f"fewer than {n} human decisions ({verb}) answered by the computer "
                     f"after step {start}: raise --late's room or change --verb")


def events_of(states: list[State], k: int) -> int:
    """How many log events the action at step ``k`` adds."""
    return len(states[k + 1].log or ()) - len(states[k].log or ())


def lent_of(s: State) -> Lent:
    """What :meth:`State.successor` will lend of ``s``'s records, for :meth:`State.take_back`
    to cut them back to (the same lengths and bits as ``successor`` records)."""
    return (len(s.history), len(s.trail or ()), len(s.log or ()),
            (HISTORY | TRAIL) & ~s.shared)


def room_to_grow(records: list[T] | None) -> None:
    """``records`` with room for more, as a list grown by appends has (CPython's lists
    grow by an eighth or so at a time)."""
    if records:
        records.append(records[-1])
        records.pop()


class Setup:
    """A live game of ``games`` at step ``k`` of the played game, stored as a server would
    have it, and put back there after each timed change."""

    def __init__(self, games: Games, seed: int, max_turns: int, states: list[State],
                 actions: list[str], k: int, cut: State | None = None) -> None:
        self.games, self.k, self.states, self.actions = games, k, states, actions
        #: the live state at step k: the played one, or its history cut as ``cut``'s
        self.start = states[k] if cut is None else without_history(states[k], cut)
        #: log entries of the played game that the live state does not hold
        self.shift = len(states[k].log or ()) - len(self.start.log or ())
        live, _ = games.create("random", seed, max_turns=max_turns, human=HUMAN)
        s = states[k]
        games.store.append_many(live.id, 0, actions[:k], turn=s.turn, status="live",
                                result="", takebacks=0)
        live.row = replace(live.row, version=k)
        live.actions = list(actions[:k])
        live.state = self.live_state()
        self.live = live
        #: the live state at step k, and what a move's successor takes of its records
        self.state, self.lent = live.state, lent_of(live.state)
        self.untimed = 0.0  # CPU seconds of the timed calls that are not the server's
        self.log_from = self.logged(k - 1)  # the client has the rest
        self.human_last = Games._replay_last_human_decision(live)
        self.kept_before = self.before(k - 1)
        self.back()

    def live_state(self) -> State:
        """The state at step ``k`` as a server holds a live game's (a committed move's, or
        the game replayed from the store): its records (history, trail) its own, not shared
        with a copy, so that a move lends them to its trial (``State.successor``) as it
        does on a server."""
        s = self.start.clone()
        s.own(HISTORY)
        s.own(TRAIL)
        # and room to grow, as a server's lists have (grown by appends): a copy's are full,
        # and the move's first append would move each one (a long game's: 20 KB at step 500)
        room_to_grow(s.log)
        room_to_grow(s.history)
        room_to_grow(s.trail)
        return s

    def before(self, step: int) -> tuple[Any, Any]:
        """What the live game keeps per viewer (its sides, its combat) once the reply at
        ``step`` was made: what the first reply at the next position starts from (a side
        the action changed is made again, the other reused)."""
        live = self.live
        live.sides.clear()
        live.combat = None
        _position_parts(self.states[step].clone(), HUMAN, live)  # its table: no history
        return live.sides.get(HUMAN), live.combat

    def back(self) -> None:
        """Back to step ``k``: the store truncated to it (a takeback, so one more line), the
        live game set back as it was there, what it keeps of the log cut back to it.

        The live state set back is the one the move replaced, its records (log, history,
        trail: the move's successors appended to them in place, :meth:`State.successor`)
        cut back to its own (:meth:`State.take_back`, as :meth:`Games.act` does when the
        engine refuses a move), not a copy of the game's state made anew: such a copy (a
        long game's log, record and trail, thousands of items at step 500) filled the
        caches the next timed call started from, so the untimed undo made a late move
        dearer than an early one: SQLite's commit by 10 to 16 us in the POST's loop, flat
        timed alone, and as dear early when a late state was copied before each commit.
        A server makes no copy of a game before a move."""
        live, k = self.live, self.k
        row = live.row
        if row.version != k:
            s = self.states[k]
            self.games.store.truncate(live.id, row.version, k, turn=s.turn, status="live",
                                      result="", takebacks=row.takebacks)
            live.row = row = replace(row, version=k, takebacks=row.takebacks + 1, turn=s.turn,
                                     status="live", result="")
            self.state.take_back(self.lent)
            live.state = self.state
            del live.actions[k:]
        self.state, self.lent = live.state, lent_of(live.state)
        assert len(live.state.history) == len(self.start.history)
        live.last_human = ((row.takebacks, k), self.human_last)
        trail = len(live.state.trail or ())
        if live.public_trail is not None:  # each seat's public trail, cut back to step k
            for steps in live.public_trail[1]:
                del steps[trail:]
            live.public_trail = (row.takebacks, live.public_trail[1])
        events = len(live.state.log or ())
        for kept in live.logs.values():  # the entries of the undone actions are not kept
            if len(kept.events) > events:
                del kept.events[events:], kept.entries[max(0, events - kept.base):]
        snap = self.games.snapshot(live, self.log_from)  # the position's parts kept
        assert snap["version"] == k and snap["your_turn"], snap

    def logged(self, step: int) -> int:
        """How many log entries the live state holds at ``step``."""
        return len(self.states[step].log or ()) - self.shift

    def forget_position(self) -> None:
        """As if the last action had just been made: the position's parts not made yet,
        the log entries of the last action not yet written."""
        live = self.live
        live.positions.clear()
        live.sides[HUMAN], live.combat = self.kept_before
        for kept in live.logs.values():  # (kept.entries[i] is the entry of event base + i)
            del kept.events[self.log_from:], kept.entries[max(0, self.log_from - kept.base):]

    # -- what is timed ----------------------------------------------------------------------

    def reply(self) -> bytes:
        return encode_reply(self.games.snapshot(self.live, self.log_from))

    def watch(self) -> bytes:
        return encode_reply(self.games.spectator_snapshot(self.live, self.log_from))

    def act(self) -> bytes:
        live = self.live
        return encode_reply(self.games.act(live, live.row.version, self.actions[self.k],
                                           self.log_from, live.row.takebacks))

    def move(self) -> bytes:
        """A move of the human's and the computer's answer, as the single-process server
        (``make run``) handles them: the computer thinks in its process pool."""
        games, live, k = self.games, self.live, self.k
        encode_reply(games.act(live, live.row.version, self.actions[k], self.log_from,
                               live.row.takebacks))
        job = games.computer_job(live)
        assert job is not None
        pickle.dumps(job)  # to the computer's process pool
        assert games.apply_computer(live, job.version, self.actions[k + 1],
                                    takebacks=job.takebacks)
        return encode_reply(games.snapshot(live, self.logged(k + 1)))

    def served_move(self) -> bytes:
        """The same move as a server of the deployment handles it: the POST, then the
        computer's move read from the store (a worker committed it: untimed here) and
        replayed onto the cached game, then the long poll's reply."""
        games, live, k = self.games, self.live, self.k
        encode_reply(games.act(live, live.row.version, self.actions[k], self.log_from,
                               live.row.takebacks))
        t = time.process_time()
        s = self.states[k + 2]
        games.store.append_many(live.id, k + 1, [self.actions[k + 1]], turn=s.turn,
                                status="live", result="", takebacks=live.row.takebacks)
        self.untimed += time.process_time() - t
        with live.lock:
            games._refresh_locked(live)
        assert live.row.version == k + 2
        return encode_reply(games.snapshot(live, self.logged(k + 1)))


class Observed:
    """Step ``k`` of the played game in each research environment, the actor observing."""

    def __init__(self, seed: int, max_turns: int, states: list[State], actions: list[str],
                 k: int, cut: State | None = None) -> None:
        self.player = states[k].actor
        game = spiel.load(max_turns=max_turns, first_seed=seed)
        st = game.new_initial_state()
        st.apply_action(0)  # the deal: seed first_seed + 0
        for a in actions[:k]:
            st.apply_action(encode(Action.parse(a)))
        assert st.engine is not None and len(st.engine.history) == len(states[k].history)
        if cut is not None:
            st.engine = without_history(st.engine, cut)
        self.spiel = st
        unlogged = (states[k] if cut is None else without_history(states[k], cut)).clone()
        unlogged.log = None  # both environments play with the log off
        self.aec = petting.ParlorAECEnv(max_turns)
        self.aec.reset(seed=seed)
        self.aec.game = unlogged
        self.agent = petting.AGENTS[self.player]
        self.gym = gym_env.ParlorGymEnv(seat=self.player, max_turns=max_turns)
        self.gym.reset(seed=seed)
        self.gym.game = unlogged.clone()

    def openspiel(self) -> Any:
        return (self.spiel.observation_tensor(self.player),
                self.spiel.observation_string(self.player))

    def pettingzoo(self) -> Any:
        self.aec._observed.clear()  # made anew, as after a step (not the step's kept one)
        return self.aec.observe(self.agent)

    def gymnasium(self) -> Any:
        game = self.gym.game
        assert game is not None
        return petting.observe_state(game, self.gym.seat)  # what ParlorGymEnv.step returns


def per_call(fn: Callable[[], Any], seconds: float) -> float:
    """Median CPU microseconds of ``fn`` over batches filling ``seconds`` of process time."""
    n = 1
    while True:  # a batch of at least 20 ms
        t0 = time.process_time()
        for _ in range(n):
            fn()
        if time.process_time() - t0 >= 0.02:
            break
        n *= 2
    samples: list[float] = []
    end = time.process_time() + seconds
    while time.process_time() < end:
        t0 = time.process_time()
        for _ in range(n):
            fn()
        samples.append((time.process_time() - t0) / n * 1e6)
    return statistics.median(samples)


def per_change(u: Setup, fn: Callable[[], Any], back: Callable[[], None],
               seconds: float) -> float:
    """Median CPU microseconds of ``fn`` (less what it counts in ``u.untimed``), each call
    followed by ``back`` (untimed)."""
    samples: list[float] = []
    end = time.process_time() + seconds
    while time.process_time() < end or len(samples) < 5:
        u.untimed = 0.0
        t0 = time.process_time()
        fn()
        samples.append((time.process_time() - t0 - u.untimed) * 1e6)
        back()
    return statistics.median(samples)


#: The replies :func:`reply_ratios` measures (bench/deploy.py prints them): name, the
#: Setup's call and what undoes it (None: nothing to undo).
REPLIES: tuple[tuple[str, str, str | None], ...] = (
    ("player reply (GET)", "reply", None),
    ("first reply at a position", "reply", "forget_position"),
    ("POST action (Games.act, SQLite)", "act", "back"),
)


def reply_ratios(seed: int = 13, early: int = 5, late: int = 500, max_turns: int = 2000,
                 rounds: int = 3, seconds: float = 1.0, verb: str = "keep", n: int = 4
                 ) -> tuple[list[int], list[int], dict[str, tuple[float, float]]]:
    """The web replies of :data:`REPLIES` at the first ``n`` human decisions played as
    ``verb`` from ``early`` and from ``late`` on, measured as :func:`main` does
    (interleaved, ``rounds`` medians per position, the mean of the positions): the steps
    and, by reply, the microseconds early and late."""
    states, actions = play(seed, late + 200, max_turns)
    ends = (turns_at(states, actions, early, verb, n), turns_at(states, actions, late, verb, n))
    out: dict[str, tuple[float, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        games = Games(GameStore(f"sqlite:///{tmp}/bench.db"), max_cached=4 * n + 10)
        setups = [[Setup(games, seed, max_turns, states, actions, k) for k in ks]
                  for ks in ends]
        for name, call, undo in REPLIES:
            for u in setups[0] + setups[1]:  # untimed: what is made on first use
                u.reply()
            rows: list[list[list[float]]] = [[[] for _ in range(n)] for _ in ends]
            for _ in range(rounds):
                for i in range(n):  # interleaved: early i, late i
                    for end, us in enumerate(setups):
                        u, fn = us[i], getattr(us[i], call)
                        rows[end][i].append(per_call(fn, seconds) if undo is None else
                                            per_change(u, fn, getattr(u, undo), seconds))
            lo, hi = (statistics.mean(statistics.median(r) for r in rs) for rs in rows)
            out[name] = (lo, hi)
    return ends[0], ends[1], out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--early", type=int, default=5)
    ap.add_argument("--late", type=int, default=500)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--max-turns", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--verb", default="keep",
                    help="the move compared at both ends (any: the first decision, whatever)")
    ap.add_argument("--positions", type=int, default=4,
                    help="decisions of --verb compared at each end of the game")
    ap.add_argument("--no-control", action="store_true",
                    help="leave out the control: the late steps with their history cut")
    a = ap.parse_args()
    states, actions = play(a.seed, a.late + 200, a.max_turns)
    early = turns_at(states, actions, a.early, a.verb, a.positions)
    late = turns_at(states, actions, a.late, a.verb, a.positions)
    lo, hi = "early", "late"
    #: what is measured: by name, its positions (the step, and the state whose history
    #: length the live one is cut to)
    points: dict[str, list[tuple[int, State | None]]] = {
        lo: [(k, None) for k in early], hi: [(k, None) for k in late]}
    if not a.no_control:
        points[f"{hi} cut"] = [(k, states[e]) for k, e in zip(late, early, strict=True)]

    def where(ks: list[int]) -> str:
        return ", ".join(f"{k} ({actions[k]}: {events_of(states, k)} events, log "
                         f"{len(states[k].log or ())})" for k in ks)

    with tempfile.TemporaryDirectory() as tmp:
        games = Games(GameStore(f"sqlite:///{tmp}/bench.db"),
                      max_cached=len(points) * a.positions + 10)
        setups = {p: [Setup(games, a.seed, a.max_turns, states, actions, k, cut)
                      for k, cut in ps] for p, ps in points.items()}
        observed = {p: [Observed(a.seed, a.max_turns, states, actions, k, cut)
                        for k, cut in ps] for p, ps in points.items()}
        print(f"{describe()}; seed {a.seed}; compared: the first {a.positions} human "
              f"decisions answered by the computer whose move is '{a.verb}' from step "
              f"{a.early} on (early: steps {where(early)}) and from step {a.late} on (late: "
              f"steps {where(late)}; turn {states[late[0]].turn})" + (
                  "" if a.no_control else "; 'late cut': the same tables with their "
                  "history (log, record, trail) cut to the early positions' lengths, the "
                  "control") + f"; process CPU microseconds: each position's median of "
              f"{a.rounds} rounds, the mean of the positions (each position's figure in "
              "brackets)")
        Case = tuple[str, str, Callable[[Setup, Observed], float]]
        cases: list[Case] = [
            ("reply", "player reply (GET)", lambda u, o: per_call(u.reply, a.seconds)),
            ("reply", "spectator reply (GET)", lambda u, o: per_call(u.watch, a.seconds)),
            ("reply", "first reply at a position",
             lambda u, o: per_change(u, u.reply, u.forget_position, a.seconds)),
            ("reply", "POST action (Games.act, SQLite)",
             lambda u, o: per_change(u, u.act, u.back, a.seconds)),
            ("move", "server CPU per move, deployed (POST, the worker's move read, GET)",
             lambda u, o: per_change(u, u.served_move, u.back, a.seconds)),
            ("move", "server CPU per move, single process (POST, computer's job pickled "
             "and its move applied, GET)",
             lambda u, o: per_change(u, u.move, u.back, a.seconds)),
            ("observation", "OpenSpiel observation (observation_tensor + observation_string)",
             lambda u, o: per_call(o.openspiel, a.seconds)),
            ("observation", "PettingZoo observation (env.observe)",
             lambda u, o: per_call(o.pettingzoo, a.seconds)),
            ("observation", "Gymnasium observation (as ParlorGymEnv.step returns it)",
             lambda u, o: per_call(o.gymnasium, a.seconds)),
        ]
        summary = []
        rows: dict[str, list[list[float]]]
        for kind, name, timed in cases:
            for us in setups.values():  # untimed: what is made on first use
                for u in us:
                    u.reply()
            rows = {p: [[] for _ in range(a.positions)] for p in points}
            for _ in range(a.rounds):
                for i in range(a.positions):  # interleaved: early i, late i (, late i cut)
                    for p in points:
                        rows[p][i].append(timed(setups[p][i], observed[p][i]))
            each = {p: [statistics.median(r) for r in rows[p]] for p in points}
            med = {p: statistics.mean(each[p]) for p in points}
            print(f"{name}: " + "; ".join(
                f"{p} {med[p]:,.0f} ({', '.join(f'{x:,.0f}' for x in each[p])})"
                for p in points))
            control = "" if a.no_control else (
                f"; its history's share: late / late cut {med[hi] / med[f'{hi} cut']:.2f}")
            print(f"    late / early {med[hi] / med[lo]:.2f}{control}")
            summary.append((kind, name, med[lo], med[hi], control))
    print(f"\nsummary (targets: late / early <= {RATIO_TARGET} for every reply and "
          f"observation; server CPU per move <= {MOVE_TARGET_US:,.0f} us median on the "
          "compiled build)")
    for kind, name, early_us, late_us, control in summary:
        ratio = late_us / early_us
        if kind == "move":
            verdict = "ok" if late_us <= MOVE_TARGET_US else "OVER"
            print(f"  {verdict:4} {name}: {late_us:,.0f} us at {hi} ({early_us:,.0f} at "
                  f"{lo}; late / early {ratio:.2f}{control})")
        else:
            verdict = "ok" if ratio <= RATIO_TARGET else "OVER"
            print(f"  {verdict:4} {name}: late / early {ratio:.2f}{control}")


if __name__ == "__main__":
    main()
