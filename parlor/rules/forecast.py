"""The fight's forecast (issue 41): what the engine says follows a combat decision *if nobody
plays another card*, computed from what the deciding Rlr sees.

The forecast is played out on a state built from the Rlr's own view (R30): :func:`seen_state`
resamples the view with a fixed generator, so the hidden cards (the opponent's Hand, both
Draw piles) sit where a fixed shuffle of the *unseen* cards puts them, and two states the Rlr
cannot tell apart give the same forecast. From the decision on, every later decision is the
quiet one: no more attackers or blockers ("done"), no ability, every window passed (403.2);
the points still to place (a split, 1003.2; a bonus, 1003.3/1004.1) each go to the first Cre
listed that the points already placed do not make terminal, and the forecast says which
those were. An attack's forecast is the unblocked one: the opponent has not declared yet.

Only the engine's own rules run: :func:`parlor.rules.engine.apply` judges every step, and
the comparisons are the resolution's (:func:`parlor.rules.combat.fight_comparisons`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Final

from parlor.rules.actions import Action
from parlor.rules.combat import fight_comparisons
from parlor.rules.engine import apply, legal_actions
from parlor.rules.events import Event
from parlor.rules.ranking import Comparison
from parlor.rules.state import (
    ATTACK,
    BLOCK,
    BONUS,
    DOMAIN_BONUS,
    OVER,
    SPLIT,
    WINDOW1,
    WINDOW2,
    Phase,
    State,
)
from parlor.rules.table import tgh
from parlor.rules.values import Value
from parlor.rules.view import resample, view

#: The decisions a forecast is made for: a declaration in the making (an attacker, a
#: blocker), its close ("done" in the attack or block step), a point of a split or a bonus.
FORECAST_VERBS: Final = frozenset({"attack", "block", "assign", "bonus"})
#: The steps in which attackers and blockers are still declared: the comparisons wait.
DECLARING: Final[frozenset[Phase]] = frozenset({ATTACK, BLOCK})
#: How many quiet steps a combat can take at most before the forecast gives up: a fault,
#: never a real combat (6 attackers, their blockers, the points), so it is raised.
MAX_STEPS: Final = 500
#: The events a forecast keeps: the comparisons' bonuses, the damage, the life, the end.
KEPT: Final = frozenset({"bonus", "damage", "life", "win"})
#: The resampling's fixed seed: the hidden cards' places depend on nothing the Rlr cannot see.
SEEN_SEED: Final = 0


@dataclass(frozen=True, slots=True)
class Forecast(Value):
    """What follows ``action`` if nobody plays another card, as ``seat`` can know it."""

    seat: int
    action: str
    #: The attackers' side is the phasing Rlr's; an attack's forecast assumes no blocker.
    phasing: int
    unblocked_assumed: bool
    #: 1003.3: all attackers against all blockers; 1004: the unblocked ones against the
    #: Domain (None where the combat has no such comparison).
    group: Comparison | None
    domain: Comparison | None
    #: The engine's events from the decision to the combat's end: bonuses, damage, life.
    events: tuple[Event, ...]
    life_before: tuple[int, int]
    life: tuple[int, int]
    #: Cres terminal after the combat that were not before (1007.2), by card id.
    terminal: tuple[int, ...]
    #: The points the forecast placed for a Rlr (a split's or a bonus's), in order.
    placed: tuple[tuple[int, str, int], ...]
    winner: int | None


def seen_state(s: State, p: int) -> State:
    """A full state consistent with ``p``'s view and nothing else, with a log: the hidden
    cards are dealt by a fixed generator (:func:`parlor.rules.view.resample`)."""
    t = resample(view(s, p, log=False, trail=False), random.Random(SEEN_SEED))
    t.log = []
    # every step is the forecast's own (no forced step runs by itself), so that the
    # comparisons are read after the last declaration and before the resolution
    t.settings = replace(t.settings, auto=False)
    return t


def forecasts(s: State, p: int) -> dict[str, Forecast]:
    """The forecast of each of ``p``'s legal combat decisions now (by the action's text):
    none unless ``p`` decides in a combat."""
    if s.is_over or s.actor != p or s.combat is None:
        return {}
    wanted = [a for a in legal_actions(s) if _forecast_for(s, a)]
    if not wanted:
        return {}
    seen = seen_state(s, p)
    return {str(a): _play_out(seen.clone(), p, a) for a in wanted}


def forecast(s: State, p: int, action: Action | str) -> Forecast:
    """The forecast of one decision of ``p``'s (legal now, and a combat decision)."""
    a = Action.parse(action) if isinstance(action, str) else action
    if s.actor != p or s.combat is None or not _forecast_for(s, a):
        raise ValueError(f"no forecast for '{a}': not a combat decision of Rlr {p + 1} now")
    return _play_out(seen_state(s, p), p, a)


def _forecast_for(s: State, a: Action) -> bool:
    return a.verb in FORECAST_VERBS or (a.verb == "done" and s.phase in (ATTACK, BLOCK))


def _play_out(t: State, p: int, a: Action) -> Forecast:
    """``a`` applied to ``t`` (a state of :func:`seen_state`), then the quiet decisions until
    the combat ends. The comparisons are read once every attacker and blocker is declared."""
    before = (t.life[0], t.life[1])
    was_terminal = {c for side in t.field for c in side if t.terminal[c]}
    unblocked = t.phase is ATTACK
    compared = None if t.phase in DECLARING else fight_comparisons(t)
    start = len(t.log or ())
    apply(t, a)
    placed: list[tuple[int, str, int]] = []
    for _ in range(MAX_STEPS):
        if t.phase is OVER or t.combat is None:
            break
        if compared is None and t.phase not in DECLARING:
            compared = fight_comparisons(t)
        quiet = _quiet(t)
        if quiet.verb in ("assign", "bonus"):
            placed.append((t.actor, quiet.verb, quiet.target))
        apply(t, quiet)
    else:
        raise AssertionError(f"the forecast of '{a}' did not end its combat in {MAX_STEPS} steps")
    group, domain = compared or (None, None)
    events = tuple(e for e in (t.log or [])[start:] if e.kind in KEPT)
    dead = tuple(e.cards[0] for e in events if e.kind == "damage" and e.amounts[1])
    now_terminal = tuple(c for side in t.field for c in side
                         if t.terminal[c] and c not in was_terminal)
    return Forecast(seat=p, action=str(a), phasing=t.phasing, unblocked_assumed=unblocked,
                    group=group, domain=domain, events=events, life_before=before,
                    life=(t.life[0], t.life[1]),
                    terminal=tuple(dict.fromkeys((*dead, *now_terminal))),
                    placed=tuple(placed), winner=t.winner)


def _quiet(t: State) -> Action:
    """The decision that plays no card and adds nobody to the fight."""
    ph = t.phase
    if ph is WINDOW1 or ph is WINDOW2:
        return Action("pass")
    if ph is SPLIT or ph is BONUS or ph is DOMAIN_BONUS:
        return _place(t)
    return Action("done")


def _place(t: State) -> Action:
    """A split's or a bonus's next point: to the first Cre listed that the points already
    placed do not make terminal, else to the first listed."""
    cb = t.combat
    assert cb is not None
    legal = legal_actions(t)
    for a in legal:
        c = a.target
        if t.damage[c] + cb.pending.get(c, 0) < tgh(t, c):
            return a
    return legal[0]


__all__ = ["FORECAST_VERBS", "Forecast", "forecast", "forecasts", "seen_state"]
