"""Clocks of a game between two people (issue 45): Fischer clocks, a base time each and an
increment added after each decision, kept by the server (docs/rules.md 1313).

Nothing of a clock is stored but its time control: the clocks follow from the record's
times. Every action is stored with the server's time (``actions.at``) in the same commit as
the action, and the clock starts when the second seat is taken (``friend_seats.accepted``).
So a clock always agrees with the game it times, on every server of a deployment, after a
takeback (the record is shorter, its times too) and after a crash; and a browser has no say
in it (no request carries a time).

A *decision* is one commit: one action, or a declaration sent whole (the attackers, then
``done``), every action of which the same seat decides (the table refuses any other). So the
record's actions are grouped by (time, seat to decide): the deciding seat's clock is charged
the time since the previous decision, then credited the increment::

    >>> c = TimeControl(60, 5)
    >>> clocks(c, 100.0, [Step(110.0, 0), Step(110.0, 0), Step(130.0, 1)], running=0)
    Clocks(left=(55.0, 45.0), since=130.0, running=0, flagged=None)

(seat 0 took 10 s for a two-action declaration: 60 - 10 + 5; seat 1 then took 20 s.)

A *flag* is the running clock reaching zero: the server ends the game there, with the
flagged seat's resignation (1204, 1313), the moment any server looks (a player's read or
poll, a spectator's, and each web server's sweep every :data:`SWEEP_SECONDS`). A resignation
whose seat had no time left at its moment is read back as that flag::

    >>> clocks(c, 100.0, [Step(170.0, 0, resign=0)], running=None).flagged
    0
    >>> clocks(c, 100.0, [Step(150.0, 0, resign=0)], running=None).flagged is None
    True
"""

from __future__ import annotations

from dataclasses import dataclass

#: How often each web server looks for a clock run out that nobody's read has seen (a game
#: whose players both left): the game ends at most this long after the flag.
SWEEP_SECONDS = 1.0
#: The time controls a person can choose (base, increment, seconds): a base of 10 s to 3 h,
#: an increment of up to 10 min.
BASE_RANGE = (10, 3 * 3600)
INCREMENT_RANGE = (0, 600)


@dataclass(frozen=True, slots=True)
class TimeControl:
    """Fischer: ``base`` seconds each, ``increment`` seconds added after each decision."""

    base: float
    increment: float

    @staticmethod
    def parse(text: str) -> TimeControl:
        """``"300+3"`` (seconds): ValueError for anything else or out of range.

        >>> TimeControl.parse("300+3")
        TimeControl(base=300.0, increment=3.0)
        """
        base, plus, inc = text.partition("+")
        if not plus or not base.isdigit() or not inc.isdigit():
            raise ValueError(f"a clock is BASE+INCREMENT in seconds (e.g. 300+3), not "
                             f"{text[:20]!r}")
        b, i = int(base), int(inc)
        if not BASE_RANGE[0] <= b <= BASE_RANGE[1] or not INCREMENT_RANGE[0] <= i \
                <= INCREMENT_RANGE[1]:
            raise ValueError(f"a clock's base is {BASE_RANGE[0]} to {BASE_RANGE[1]} seconds "
                             f"and its increment 0 to {INCREMENT_RANGE[1]}")
        return TimeControl(float(b), float(i))

    def __str__(self) -> str:
        """In words: "5 min + 3 s"."""
        minutes, seconds = divmod(int(self.base), 60)
        base = f"{minutes} min" + (f" {seconds} s" if seconds else "") if minutes \
            else f"{seconds} s"
        return f"{base} + {int(self.increment)} s"


@dataclass(frozen=True, slots=True)
class Step:
    """One action of the record: when the server stored it, the seat to decide before it,
    and (``resign``) the seat that resigned with it, if it is a resignation."""

    at: float
    actor: int
    resign: int | None = None


@dataclass(frozen=True, slots=True)
class Clocks:
    """Each seat's time left at ``since`` (the last decision, or the acceptance), the seat
    whose clock runs since then (None: the game is over), and the seat that lost on time."""

    left: tuple[float, float]
    since: float
    running: int | None
    flagged: int | None

    def at(self, now: float) -> tuple[float, float]:
        """Each seat's time left at ``now`` (the running one's spent since ``since``)."""
        if self.running is None:
            return self.left
        spent = max(0.0, now - self.since)
        return tuple(x - spent if p == self.running else x  # type: ignore[return-value]
                     for p, x in enumerate(self.left))

    def deadline(self) -> float | None:
        """When the running clock reaches zero (None: none runs)."""
        return None if self.running is None else self.since + self.left[self.running]

    def fallen(self, now: float) -> int | None:
        """The running seat if its time is out at ``now``."""
        end = self.deadline()
        return self.running if end is not None and now >= end else None


def clocks(control: TimeControl, start: float, steps: list[Step],
           running: int | None) -> Clocks:
    """The clocks after ``steps`` (the record's, in order), started at ``start``;
    ``running`` is the seat to decide now (None: the game is over)."""
    left = [control.base, control.base]
    since = start
    flagged = None
    last: tuple[float, int] | None = None
    for step in steps:
        if step.resign is not None:
            # a resignation stops the clocks; with no time left it was the flag (1313)
            if step.resign == step.actor and left[step.actor] - (step.at - since) <= 0:
                flagged = step.actor
            left[step.actor] -= max(0.0, step.at - since)
            since = step.at
            break
        if (step.at, step.actor) == last:
            continue  # the same decision: one more action of a declaration sent whole
        last = (step.at, step.actor)
        left[step.actor] += control.increment - max(0.0, step.at - since)
        since = step.at
    return Clocks((left[0], left[1]), since, running if flagged is None else None, flagged)


__all__ = ["BASE_RANGE", "INCREMENT_RANGE", "SWEEP_SECONDS", "Clocks", "Step", "TimeControl",
           "clocks"]
