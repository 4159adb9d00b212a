"""Mining puzzles: games played for the purpose, each decision screened, the clear ones kept.

**Games.** Game ``seed`` is the expert (searching ``PLAY_ITERS`` iterations a decision, a
fixed number, so that a game is the same on any machine and load) against
``OPPONENTS[seed % 4]`` (strong at its 400 iterations, without its time cap), the expert
Rlr 1 in even blocks of four seeds and Rlr 2 in odd ones; every agent is seeded from the
game's seed. Game records can be mined too
(:func:`mine_record`).

**Each decision** of either Rlr, at the position as :func:`~parlor.rules.notation.position`
writes it (what a puzzle stores; it has no history, so every search deals hidden cards
uniformly):

1. *Cheap filter*, no search: a play window, an attack, a block or an ability step, with a
   choice; turn 3 or later; in a window only if an expel or an Enh on a target is legal (a
   window's clearly best play is otherwise mostly a Lnd drop or a Cre cast).
2. *Pre-screen*: the expert's search at ``SCREEN.iters`` iterations. Kept when its best
   action is an active one (not a bare pass, done or end; in a window an expel or an Enh)
   and leads the runner-up by ``SCREEN_MARGIN``.
3. *Judgement* (:func:`parlor.puzzles.verify.judge`, :data:`JUDGE`): a large search's margin,
   then agreement over hidden hands dealt from the solver's view.
4. *The line* (:func:`build_line`): after the first decision, while a combat is under way
   (406-1006), the solver's further decisions, each judged the same way (the line stops
   before one that is not clear), and the opponent's replies: its expert's search from its
   own view at ``REPLY_ITERS``, or exact in the combat's resolution. Then the goal
   (:func:`~parlor.puzzles.goals.goal_of`) and the themes
   (:func:`~parlor.puzzles.themes.themes_of`).
5. *Easy or not*: when the expert's cheap policy (:func:`parlor.ai.policy.best_action`, its
   rule of thumb, no search) plays the same first step anyway (:func:`policy_step`: in an
   attack or a block step, the same set of attackers or blockers), the puzzle starts at
   ``EASY_RATING`` instead of the usual 1500: "attack with the Cre nothing can block" is
   clearly best, and easy. Solving and failing move the rating from there (Glicko-2).

After a puzzle, the same Rlr's decisions in the rest of that turn are not screened (they
would mostly repeat its line).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace

from parlor.ai.base import BaseAgent
from parlor.ai.levels import EXPERT_POLICY, STRONG_ITERATIONS, make_agent
from parlor.ai.policy import best_action
from parlor.puzzles.goals import goal_of, in_combat
from parlor.puzzles.model import START_RATING, Puzzle
from parlor.puzzles.solution import run_group
from parlor.puzzles.themes import themes_of
from parlor.puzzles.verify import (
    EXACT,
    Judgement,
    Thresholds,
    exact_reply,
    expert,
    judge,
)
from parlor.rules.actions import Action
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.notation import parse_position, parse_record, position
from parlor.rules.state import (
    ABILITY_O,
    ABILITY_P,
    ATTACK,
    BLOCK,
    NONE,
    OVER,
    WINDOW1,
    WINDOW2,
    State,
)
from parlor.rules.values import Value
from parlor.rules.view import view

OPPONENTS = ("strong", "intermediate", "casual", "novice")
PLAY_ITERS = 300
SCREEN_ITERS = 200
SCREEN_MARGIN = 0.12
REPLY_ITERS = 600
FIRST_TURN = 3
#: The starting rating of a puzzle the cheap policy solves (step 5 of the module docstring).
EASY_RATING = 1200.0
MAX_LINE = 16
JUDGE = Thresholds()
MINED_PHASES = frozenset({WINDOW1, WINDOW2, ATTACK, BLOCK, ABILITY_P, ABILITY_O})
WINDOWS = frozenset({WINDOW1, WINDOW2})
BARE = frozenset({"pass", "done", "end", "resign"})


@dataclass(frozen=True, slots=True)
class Settings(Value):
    """A mining run's budgets (the defaults are the documented run's)."""

    play_iters: int = PLAY_ITERS
    screen_iters: int = SCREEN_ITERS
    screen_margin: float = SCREEN_MARGIN
    reply_iters: int = REPLY_ITERS
    judge: Thresholds = JUDGE


@dataclass
class Mined:
    """One game's or record's harvest: its puzzles (ids not yet given) and its counts."""

    source: str
    puzzles: list[Puzzle] = field(default_factory=list)
    decisions: int = 0     # decisions with a choice
    screened: int = 0      # passed the cheap filter and were searched by the pre-screen
    judged: int = 0        # passed the pre-screen and were judged
    cpu: float = 0.0       # CPU seconds of the whole game (play and mining)


def tactical(s: State, legal: list[Action]) -> bool:
    """The cheap filter (step 1 of the module's docstring)."""
    if s.phase not in MINED_PHASES or len(legal) < 2 or s.turn < FIRST_TURN:
        return False
    if s.phase in WINDOWS:
        return any(_window_move(a) for a in legal)
    return True


def _window_move(a: Action) -> bool:
    return a.verb == "expel" or (a.verb == "play" and a.target != NONE)


def _active(s: State, a: Action) -> bool:
    if a.verb in BARE:
        return False
    return _window_move(a) if s.phase in WINDOWS else True


def declaration_run(s: State, iters: int, seed: int) -> list[str]:
    """The actor's decisions from ``s`` (not changed) by the expert's search at ``iters``,
    while it stays the actor in the same phase (an attack or block step's declarations and
    its ``done``); one decision in any other phase."""
    t = s.clone()
    t.log = None
    who, phase = t.actor, t.phase
    out: list[str] = []
    while t.phase is phase and t.actor == who:
        a = expert(iters, seed + len(out)).explain(view(t, who, log=False),
                                                   legal_actions(t))[0].action
        out.append(str(a))
        apply(t, a)
        if phase not in (ATTACK, BLOCK):
            break
    return out


def screen(s: State, cfg: Settings, seed: int) -> list[str] | None:
    """The pre-screen (module docstring, step 2): the actor's decision at ``s`` (with the rest
    of its declaration step) if it is active and clearly ahead, else None."""
    legal = legal_actions(s)
    choices = expert(cfg.screen_iters, seed).explain(view(s, s.actor, log=False), legal)
    if choices[0].visits == 0 or not _active(s, choices[0].action):
        return None
    run = [str(choices[0].action)]
    if s.phase in (ATTACK, BLOCK):
        run = declaration_run(s, cfg.screen_iters, seed)
    group = run_group(run, 0)
    inside = max(c.value for c in choices if str(c.action) in group)
    second = max((c.value for c in choices if c.visits > 0 and str(c.action) not in group),
                 default=0.0)
    if str(choices[0].action) not in group or inside - second < cfg.screen_margin:
        return None
    return run


def build_line(s0: State, solver: int, run: list[str], cfg: Settings, seed: int) -> list[str]:
    """The line from ``s0`` (not changed): the solver's first step ``run``, then on through
    the combat under way, if any (module docstring, step 4). Each of the solver's decisions
    after the first is judged; the line stops before one that is not clear."""
    s = s0.clone()
    line = [run[0]]
    apply(s, run[0])
    last_solver = 1
    while s.phase is not OVER and in_combat(s) and len(line) < MAX_LINE:
        if s.actor == solver:
            planned = len(line) < len(run)
            group = run_group(run, len(line)) if planned else None
            j: Judgement | None = judge(s, solver, cfg.judge, seed + len(line), group)
            if j is None or not j.clear(cfg.judge):
                break
            a = run[len(line)] if planned else j.action
            last_solver = len(line) + 1
        elif s.phase in EXACT:
            reply = exact_reply(s, solver)
            if reply is None:
                break
            a = reply
        else:
            legal = legal_actions(s)
            a = str(expert(cfg.reply_iters, seed + len(line)).explain(
                view(s, s.actor, log=False), legal)[0].action)
        line.append(a)
        apply(s, a)
    if in_combat(s) and s.winner is None:  # stopped short: end on the solver's last decision
        line = line[:last_solver]
    return line


def mine_decision(s: State, cfg: Settings, seed: int, source: str,
                  counts: Mined | None = None) -> Puzzle | None:
    """The puzzle at the decision ``s`` (its actor is the solver), or None. ``s`` is read
    through its position text, as the puzzle will store it."""
    text = position(s)
    s = parse_position(text)
    legal = legal_actions(s)
    if not tactical(s, legal):
        return None
    if counts is not None:
        counts.screened += 1
    run = screen(s, cfg, seed)
    if run is None:
        return None
    if counts is not None:
        counts.judged += 1
    solver = s.actor
    j = judge(s, solver, cfg.judge, seed + 1, run_group(run, 0))
    if j is None or not j.clear(cfg.judge):
        return None
    obvious = policy_step(s) == {a for a in run if a.split(" ", 1)[0] not in BARE}
    line = build_line(s, solver, run, cfg, seed + 2)
    p = Puzzle(id="p0000", position=text, solver=solver, goal="best", line=tuple(line),
               themes=(), source=source)
    return replace(p, goal=goal_of(p.states(), solver), themes=themes_of(s, line, solver),
                   rating=EASY_RATING if obvious else START_RATING)


def policy_step(s: State) -> set[str]:
    """What the expert's cheap policy (no search) plays at ``s``: its whole declaration step
    in an attack or a block (the attackers or blockers, as a set), else its one decision;
    bare ``done``/``end``/``pass`` left out."""
    t = s.clone()
    t.log = None
    who, phase = t.actor, t.phase
    out: set[str] = set()
    while t.phase is phase and t.actor == who:
        a = best_action(t, legal_actions(t), EXPERT_POLICY)
        if a.verb not in BARE:
            out.add(str(a))
        apply(t, a)
        if phase not in (ATTACK, BLOCK):
            break
    return out


def _players(seed: int, cfg: Settings) -> tuple[list[BaseAgent], int, str]:
    opponent = OPPONENTS[seed % len(OPPONENTS)]
    expert_seat = (seed // len(OPPONENTS)) % 2
    agents = [make_agent(f"expert@iters={cfg.play_iters}", seed * 2 + expert_seat),
              make_agent(_fixed(opponent), seed * 2 + 1 - expert_seat)]
    if expert_seat == 1:
        agents.reverse()
    return agents, expert_seat, opponent


def _fixed(name: str) -> str:
    """A searching opponent by iterations, never by time (a game the same at any load)."""
    return f"strong@iters={STRONG_ITERATIONS}" if name == "strong" else name


def mine_game(seed: int, cfg: Settings | None = None) -> Mined:
    """Play game ``seed`` (module docstring) and mine every decision of it."""
    cfg = cfg or Settings()
    t0 = time.process_time()
    agents, expert_seat, opponent = _players(seed, cfg)
    names = ["expert", opponent] if expert_seat == 0 else [opponent, "expert"]
    label = f"seed={seed} {names[0]}-vs-{names[1]}"
    s = new_game(seed)
    s.log = None
    out = Mined(label)
    _mine_moves(s, _agent_moves(agents), cfg, seed, label, out)
    out.cpu = time.process_time() - t0
    return out


def _agent_moves(agents: list[BaseAgent]) -> Callable[[State, list[Action]], Action]:
    def move(s: State, legal: list[Action]) -> Action:
        agent = agents[s.actor]
        return agent.act(view(s, s.actor, log=False), legal, agent.budget)
    return move


def mine_record(text: str, cfg: Settings | None = None, seed: int = 0,
                label: str = "record") -> Mined:
    """Mine every decision of a game record (:func:`~parlor.rules.notation.parse_record`)."""
    cfg = cfg or Settings()
    t0 = time.process_time()
    settings, deal, parsed = parse_record(text)
    actions = iter([a for _, a in parsed])
    s = new_game(deal, settings)
    s.log = None
    out = Mined(label)
    _mine_moves(s, lambda _s, _legal: next(actions), cfg, seed, label, out,
                stop=len(parsed))
    out.cpu = time.process_time() - t0
    return out


def _mine_moves(s: State, move: Callable[[State, list[Action]], Action], cfg: Settings,
                seed: int, label: str, out: Mined, stop: int = 20000) -> None:
    skip: tuple[int, int] | None = None  # (turn, Rlr) whose decisions are not screened
    for ply in range(stop):
        if s.phase is OVER:
            return
        legal = legal_actions(s)
        if len(legal) > 1:
            out.decisions += 1
            if skip != (s.turn, s.actor):
                p = mine_decision(s, cfg, _decision_seed(seed, ply),
                                  f"{label} ply={ply}", out)
                if p is not None:
                    out.puzzles.append(p)
                    skip = (s.turn, s.actor)
        apply(s, move(s, legal))


def _decision_seed(seed: int, ply: int) -> int:
    return (seed * 1_000_003 + ply * 7919 + 17) & 0x3FFF_FFFF


def number(puzzles: Iterable[Puzzle], start: int = 1) -> Iterator[Puzzle]:
    """The puzzles with the shipped set's ids, p0001 on, in order."""
    for i, p in enumerate(puzzles, start):
        yield replace(p, id=f"p{i:04d}")


__all__ = ["EASY_RATING", "JUDGE", "OPPONENTS", "PLAY_ITERS", "REPLY_ITERS", "SCREEN_ITERS",
           "SCREEN_MARGIN",
           "Mined", "Settings", "build_line", "declaration_run", "mine_decision", "mine_game",
           "mine_record", "number", "policy_step", "screen", "tactical"]
