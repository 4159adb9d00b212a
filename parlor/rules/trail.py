"""The public trail: who decided what, and with how much mnr at hand (107.1, R30).

A game dealt by :func:`~parlor.rules.engine.new_game` records one :class:`Step` per applied
action, taken *before* the action: the deciding Rlr, the turn and phase, whether P had
played its Lnd (603), the mnr the decider could reach (its pool and untaxed Lnds, 601-602:
all public, 107) and the action itself. A Rlr's view carries the trail with the cards
hidden from it written out (``keep``, ``trim`` and ``redraw`` of the other Rlr name no
card, 305, 309.1, 310), so that a computer opponent can read the other side's decisions
from its view alone: matches build views without the log, and the web builds a new agent
for every decision, so an agent cannot rely on remembering them.

Search determinizations and positions set up from text record no trail (``State.trail`` is
None): recording costs time, and only real games need it.

    >>> from parlor.rules.engine import apply, legal_actions, new_game
    >>> s = new_game(7)
    >>> keep = next(a for a in legal_actions(s) if a.verb == "keep")
    >>> _ = apply(s, keep)
    >>> s.trail[-1][-1] == keep, public_step(s.trail[-1], 1 - s.trail[-1][0]).action
    (True, 'keep')
"""

from __future__ import annotations

from typing import Final, NamedTuple

from parlor.rules.actions import Action
from parlor.rules.state import TRAIL, WINDOW1, WINDOW2, State
from parlor.rules.table import untaxed_lnds

#: Verbs whose card goes face down (or stays hidden): only the decider sees which one.
HIDDEN_VERBS = frozenset({"keep", "trim", "redraw"})


#: One applied action and the public circumstances of its decision: the deciding Rlr (0/1),
#: the turn, the phase (a Phase value), whether P had played its Lnd, the mnr within the
#: decider's reach (at a pass in a window: pool + untaxed Lnds, per suit; else zeros) and the
#: action. A plain tuple, not a NamedTuple, and the mnr typed as a tuple of any length (it
#: always has four, one per suit): a dealt game records one Step per applied action, and both
#: keep that cheap.
Step = tuple[int, int, int, bool, tuple[int, ...], Action]

NO_MNR: Final[tuple[int, ...]] = (0, 0, 0, 0)


class PublicStep(NamedTuple):
    """A :data:`Step` as one viewer may see it: the action as text, hidden cards left out."""

    rlr: int
    turn: int
    phase: int
    lnd_played: bool
    mnr: tuple[int, ...]  # four suits
    action: str


def reachable_mnr(s: State, p: int) -> tuple[int, int, int, int]:
    """``p``'s pool plus one point per untaxed Lnd in its Home, of the Lnd's base suit or of
    the trump suit when the Lnd carries a trump Enh (601-602): the yields the table keeps
    per Rlr (:func:`~parlor.rules.table.untaxed_lnds`), so no look at the Home."""
    m = s.pool[p]
    t = untaxed_lnds(s)
    b = p * 4
    return (m[0] + t[b], m[1] + t[b + 1], m[2] + t[b + 2], m[3] + t[b + 3])


def record(s: State, action: Action) -> None:
    """Append ``action``'s step to ``s.trail`` (the state is the one it was decided in). The
    reachable mnr is worked out only for a pass in a window, the one decision it explains;
    the other steps say 0 (cheap, since every applied action of a dealt game is recorded)."""
    if s.trail is None:
        return
    trail = own_trail(s)
    p = s.actor
    ph = s.phase
    mnr: tuple[int, ...] = NO_MNR
    if (ph is WINDOW1 or ph is WINDOW2) and action.verb == "pass":
        mnr = reachable_mnr(s, p)
    trail.append((p, s.turn, ph, s.lnd_played, mnr, action))


def own_trail(s: State) -> list[Step]:
    """``s.trail`` to append to: the state's own copy first when a clone shares it
    (:meth:`State.own`; whichever of the two appends first takes its own copy)."""
    if s.shared & TRAIL:
        s.own(TRAIL)
    trail = s.trail
    assert trail is not None
    return trail


def public_step(step: Step, viewer: int) -> PublicStep:
    """``step`` as ``viewer`` sees it (any viewer but the decider sees no hidden card)."""
    rlr, turn, phase, lnd_played, mnr, a = step
    text = a.verb if a.verb in HIDDEN_VERBS and viewer != rlr else str(a)
    # int(): the compiled build stores the phase as a plain int, the interpreted one as the
    # Phase member; a view must read the same on both builds.
    return PublicStep(rlr, turn, int(phase), lnd_played, mnr, text)


__all__ = [
    "HIDDEN_VERBS",
    "NO_MNR",
    "PublicStep",
    "Step",
    "own_trail",
    "public_step",
    "reachable_mnr",
    "record",
]
