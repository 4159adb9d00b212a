"""Tournaments in the browser (rules 1300): create one, follow its pairings and standings, play
your contests on the usual table, watch the computers' contests, answer your team's ransoms.

The rules are :mod:`parlor.rules.tournament`'s; this package keeps a tournament's *steps* (a
round begins, a contest ends, a round ends, a ransom is answered) in the store, one committed
row each, and rebuilds the tournament by replaying them, so a restart loses nothing. Each
contest is an ordinary saved game: the person's is a "play" game on the usual table (the
conductor plays the computer's side), the others are "match" games that a driver task
(:mod:`.driver`) plays move by move, each decision thought in the conductor's worker pool (on
PostgreSQL: a ``parlor.match_move`` job of ``parlor worker``). One driver task per live
tournament, in the server that runs it, moves it on; it is started again for every live
tournament when the server starts.

The tournament's secret token is kept in the cookie ``pmt_<id>``; it also opens the person's
contests (their rows carry the same token hash).

A tournament the server deals is dealt from a 128-bit deal key and each contest from a key
derived from it (R31, :func:`parlor.rules.tournament.pair_round`): the tournament's key is
shown only once the tournament is over, a contest's only once that contest is. A seed the
organiser types makes a *practice* tournament (its title says so): anyone with the number
can deal every contest again.

Here: :mod:`.spec` (what the organiser chose), :mod:`.state` (a tournament, its steps, what the
browser is sent), :mod:`.driver` (the tasks that play it); the routes are
:mod:`parlor.web.routes.tournaments`.
"""

from parlor.web.tournaments.spec import Entry, Spec, parse_spec
from parlor.web.tournaments.state import LiveTournament, Tournaments, match_token

__all__ = ["Entry", "LiveTournament", "Spec", "Tournaments", "match_token", "parse_spec"]
