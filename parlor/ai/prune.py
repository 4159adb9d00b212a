"""Root moves the expert never needs to search: decided by the rules, not by the estimate.

The search compares its root actions by noisy estimates, so an action that cannot be better
than another one still wins now and then (the misplays in shared/ai-misplays.md). Two kinds
are settled here before the search, from the agent's own view of the table (Fields, Homes,
Domains and the trump are open information; nothing hidden is read):

* **Dead Enhs** (801, 601-604). An Enh on a Lnd never takes part in combat. On the
  opponent's Lnd it can only protect that Lnd against the agent's own Carry (711) and
  expel (1102.3), or give the opponent trump mnr (602): it never helps the agent. On the
  agent's own Lnd it matters only when it adds a count (a defence against the opponent's
  Carry) or is of the trump suit (602); otherwise it costs a card and its mnr for nothing.
* **Declining a free attack** (406, 1003). When the opponent has no Cre on its Field, no
  attacker can be blocked and none can be struck back on the opponent's next turn (a Cre
  cast then is inactive, 701); an attacker that the opponent's Domain does not beat deals
  its Pwr for nothing. ``end`` and ``done`` are dropped while such an attacker is
  undeclared: the attack is declared in steps, and a short search compares the first step
  of a plan with the one-step ``end`` before the plan's subtree is explored.
"""

from __future__ import annotations

from collections.abc import Sequence

from parlor.rules.actions import Action
from parlor.rules.cards import Kind
from parlor.rules.ranking import rank_counts
from parlor.rules.state import ATTACK, C_KIND, C_RANK, C_SUIT, OWNER, WINDOW1, WINDOW2, State
from parlor.rules.table import counts


def lnd_counts(s: State, lnd: int) -> tuple[int, int, int, int]:
    """A Lnd's spot counts: its value in its base suit (604), raised by its Enhs."""
    c = [0, 0, 0, 0]
    c[C_SUIT[lnd]] = C_RANK[lnd]
    for e in s.enhs.get(lnd, ()):
        if C_RANK[e] > c[C_SUIT[e]]:
            c[C_SUIT[e]] = C_RANK[e]
    return (c[0], c[1], c[2], c[3])


def dead_enh(s: State, a: Action) -> bool:
    """``a`` plays an Enh onto a Lnd where it cannot help the Rlr playing it (see above)."""
    if a.verb != "play" or a.target is None or a.target >= 104:
        return False
    t = a.target
    if C_KIND[t] is not Kind.LND:
        return False
    p = s.actor
    if OWNER[t] != p:
        return True
    e = p * 52 + a.card
    if s.trump is not None and C_SUIT[e] == s.trump:
        return False
    return C_RANK[e] <= lnd_counts(s, t)[C_SUIT[e]]


def free_attackers(s: State, choices: Sequence[Action]) -> list[Action]:
    """The ``attack`` choices that are free: the opponent has no Cre on its Field, and its
    Domain does not beat the attacker (R26)."""
    if s.phase is not ATTACK:
        return []
    p = s.phasing
    o = 1 - p
    if any(not s.terminal[c] for c in s.field[o]):
        return []
    domain = [0, 0, 0, 0]
    for e in s.domain[o]:
        if C_RANK[e] > domain[C_SUIT[e]]:
            domain[C_SUIT[e]] = C_RANK[e]
    d = (domain[0], domain[1], domain[2], domain[3])
    return [a for a in choices if a.verb == "attack"
            and rank_counts(counts(s, p * 52 + a.card), d, s.trump)[0] != 1]


def settled_root(s: State, choices: Sequence[Action]) -> tuple[list[Action], list[Action]]:
    """The root choices worth searching, and those set aside (dead Enhs; declining while a
    free attacker is undeclared). Never empties the choices."""
    if s.phase is WINDOW1 or s.phase is WINDOW2:
        out = [a for a in choices if dead_enh(s, a)]
    elif free_attackers(s, choices):
        out = [a for a in choices if a.verb in ("end", "done")]
    else:
        out = []
    keep = [a for a in choices if a not in out]
    return (keep, out) if keep else (list(choices), [])


__all__ = ["dead_enh", "free_attackers", "lnd_counts", "settled_root"]
