"""A puzzle's themes: what its solution does, read from the engine's log of its line.

=========  ==================================================================================
theme      the line, from the solver's side
=========  ==================================================================================
lethal     the solver wins by an attack (1201)
outtrump   the solver outtrumps: an expel that outtrumps (903.2), an Enh on the Trumps stack
           or an expel of its top card (805), or a combat bonus the solver deals by trump
expel      the solver expels (1100)
domain     the solver plays an Enh on a Domain, or the Domain step goes its way (1004: its
           attackers beat the opponent's Domain, or its Domain beats the attackers)
block      the solver blocks (407)
carry ...  the solver uses that ability (Carry, Harry, Sally, Volley, Ally: 707-711)
mnr        the solver takes mnr by Carry (711), or names its payment itself (405.4)
burn       a pool burns during the line (503): a Carry's mnr, or mnr left unspent
=========  ==================================================================================
"""

from __future__ import annotations

from parlor.puzzles.model import THEMES
from parlor.rules.actions import Action
from parlor.rules.engine import apply
from parlor.rules.events import DOMAIN_IDS, STACK_ID, Event
from parlor.rules.state import State

ABILITIES = ("carry", "harry", "sally", "volley", "ally")


def themes_of(start: State, line: list[str] | tuple[str, ...], solver: int) -> tuple[str, ...]:
    """The themes of ``line`` played from ``start`` (not changed), in THEMES' order."""
    s = start.clone()
    s.log = []
    found: set[str] = set()
    for text in line:
        a = Action.parse(text)
        if s.actor == solver:
            found |= _decision_themes(a)
        apply(s, a)
    for e in s.log:
        found |= _event_themes(e, solver)
    if s.winner == solver:
        found.add("lethal")
    return tuple(t for t in THEMES if t in found)


def _decision_themes(a: Action) -> set[str]:
    out: set[str] = set()
    if a.verb == "block":
        out.add("block")
    if a.verb in ABILITIES:
        out.add(a.verb)
    if a.verb == "carry" or a.tax is not None or a.spend is not None:
        out.add("mnr")
    return out


def _event_themes(e: Event, solver: int) -> set[str]:
    out: set[str] = set()
    mine = e.player == solver
    if e.kind == "expel" and mine:
        out.add("expel")
        if e.detail == "stack" or (e.amounts and e.amounts[0] == 2):
            out.add("outtrump")
    elif e.kind == "play" and mine and len(e.cards) == 2:
        if e.cards[1] == STACK_ID:
            out.add("outtrump")
        elif e.cards[1] in DOMAIN_IDS:
            out.add("domain")
    elif e.kind == "bonus" and mine and e.why is not None and e.why.kind == "trump":
        out.add("outtrump")
    elif e.kind == "life" and ((e.detail == "attackers" and e.player == 1 - solver)
                               or (e.detail == "gain" and mine)):
        out.add("domain")
    elif e.kind == "burn" and e.amounts and e.amounts[0] > 0:
        out.add("burn")
    return out


__all__ = ["ABILITIES", "themes_of"]
