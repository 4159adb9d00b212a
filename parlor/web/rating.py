"""Rated games (issue 43): which games are rated, and the account's Glicko-2 rating updated
when a rated game ends, in the transaction that stores its end.

A game is rated when the account held it from its start (it was started while signed in),
it is a match game (no takebacks, R30) against a level with a calibrated rating
(:mod:`parlor.ai.ratings`, the round robin of bench/ratings.py), dealt from a fresh key (not
a practice seed anyone can deal again), not a tournament's contest, and it ended with a
result (won, lost or drawn; not failed or aborted). Its opponent is the level's rating, with
the level's deviation (from its calibration interval) as the opponent's RD. Each rated game
is one Glicko-2 rating period.

:class:`RateAtEnd` is installed in the game store (:attr:`GameStore.at_end
<parlor.store.db.GameStore.at_end>`) by :class:`~parlor.web.games.Games`, so the server and
the worker processes alike rate a game in the same transaction as the move that ends it
(SQLite and PostgreSQL): the rating is there as soon as the result is, a game counts once
(its id is the history's key, checked under the account's lock), and a failure to rate
leaves the move unstored rather than a result without its rating.
"""

from __future__ import annotations

import re

from sqlalchemy.engine import Connection

from parlor.ai.ratings import LevelRating, LevelRatings
from parlor.rules.glicko import Game, Rating, rate
from parlor.rules.state import Settings
from parlor.store import GameRow, GameStore
from parlor.store.accounts import Accounts, RatingPoint
from parlor.store.friends import FriendSeats

#: The play mode that is rated (casual games, with takebacks, are not).
RATED_MODE = "match"
#: A friend game's ``level`` in the rating history (its opponent is an account).
FRIEND_LEVEL = "friend"

_WINS = re.compile(r"^Rlr ([12]) wins")


def score_of(result: str, human: int) -> float | None:
    """The human's score in a finished game from its stored result sentence ("Rlr 1 wins:
    ...", "Draw: ..."): 1, 0.5 or 0; None when the sentence says neither (a failed game).

    >>> score_of("Rlr 1 wins: Rlr 2 is at -1 life after an attack", 0)
    1.0
    >>> score_of("Draw: the turn limit of 3 turns is reached", 1)
    0.5
    """
    if result.startswith("Draw"):
        return 0.5
    found = _WINS.match(result)
    if found is None:
        return None
    return 1.0 if int(found.group(1)) - 1 == human else 0.0


def unrated_reason(row: GameRow, ratings: LevelRatings) -> str | None:
    """Why a game against the computer cannot be rated, whoever holds it (None: it can)."""
    if row.kind != "play" or not Settings.parse(row.settings).match_play:
        return "casual"
    if row.takebacks:
        return "takebacks"
    if not row.deal:
        return "practice seed"
    if ratings.of(row.level) is None:
        return "level not calibrated"
    return None


def not_rated_reason(level: str, ratings: LevelRatings) -> str | None:
    """Why a new game against ``level`` cannot be played rated (None: it can)."""
    if ratings.of(level) is None:
        return (f"the {level} level has no calibrated rating yet, so it cannot be played "
                "rated: play it unrated, or choose a calibrated level")
    return None


class RateAtEnd:
    """The store's hook at a game's end: rate the account holding it, if the game is rated."""

    def __init__(self, store: GameStore, ratings: LevelRatings) -> None:
        self.accounts = Accounts(store)
        self.ratings = ratings

    def __call__(self, conn: Connection, game_id: str, at: float) -> None:
        held = self.accounts.holding(conn, game_id)
        if held is None or not held[1]:
            return
        row = GameStore.row_in(conn, game_id)
        if row is None or unrated_reason(row, self.ratings) is not None \
                or self.accounts.is_contest(conn, game_id):
            return
        score = score_of(row.result, row.human)
        level = self.ratings.of(row.level)
        if score is None or level is None:
            return
        self.accounts.rate_in(conn, held[0], RATED_MODE, game_id,
                              lambda before, n: point_after(row, level, score, before, n, at))


class RateFriendsAtEnd:
    """The store's hook at a friend game's end: if two different accounts held its seats
    (tied when the invitation was made and when it was accepted, see
    :mod:`parlor.store.friends`) and it was played as a match without a takeback, both
    ratings move in this transaction, each against the other's rating before the game (one
    Glicko-2 game each), once per game. A resignation, a flag or a claim is a loss; a draw
    by agreement 0.5; an aborted game has no result and is not rated."""

    def __init__(self, store: GameStore) -> None:
        self.accounts = Accounts(store)

    def __call__(self, conn: Connection, game_id: str, at: float) -> None:
        row = GameStore.row_in(conn, game_id)
        if row is None or friend_unrated_reason(row) is not None:
            return
        seats = FriendSeats.seats_in(conn, game_id)
        score = score_of(row.result, row.human)  # the inviter's (the game's ``human``)
        if seats is None or not seats.between_accounts or score is None:
            return
        host, guest = seats.host_account, seats.guest_account
        assert host is not None and guest is not None
        before = self.accounts.ratings_in(conn, [host, guest], RATED_MODE)
        # an account deleted during the game: no one to rate it against (and the game's
        # end must still be stored); a game rated already counts once
        if len(before) != 2 or not FriendSeats.mark_rated(conn, game_id, at):
            return
        for me, other, mine in ((host, guest, score), (guest, host, 1.0 - score)):
            rating, n = before[me]
            theirs = before[other][0]
            after = rate(rating, [Game(theirs, mine)])
            # a point in each player's history, naming the other (their profile's graph
            # and list of rated games)
            self.accounts.record_in(conn, me, RatingPoint(
                game_id, RATED_MODE, n + 1, FRIEND_LEVEL, theirs.rating, mine, after, at,
                opponent_account=other))


def friend_unrated_reason(row: GameRow) -> str | None:
    """Why a friend game is not rated whoever holds its seats (None: it is, if two
    accounts do)."""
    if row.kind != "friend":
        return "not a friend game"
    if not Settings.parse(row.settings).match_play:
        return "casual"
    if row.takebacks:
        return "takebacks"
    return None


def friend_rated_words(match_play: bool, host: str | None, guest: str | None,
                       accepted: bool, aborted: bool = False) -> str:
    """One line for the table and the invitation: whether the game is rated."""
    if aborted:
        return "Unrated: the game was aborted without a result."
    if not match_play:
        return "Unrated: a casual game."
    if host is None:
        return "Unrated: the invitation was made without signing in."
    if not accepted:
        return "Rated if your friend accepts while signed in to another account."
    if guest is None:
        return "Unrated: the invitation was accepted without signing in."
    if guest == host:
        return "Unrated: one account holds both seats."
    return "Rated: both players are signed in."


def invitation_rated_words(match_play: bool, host: str | None, opener: str | None,
                           opener_name: str | None = None) -> str:
    """One line for the person opening an invitation: whether the game will be rated if
    they take the seat now, signed in as ``opener`` (None: not signed in)."""
    if not match_play:
        return "Unrated: a casual game (takebacks allowed), whoever takes the seat."
    if host is None:
        return ("Unrated: your friend made the invitation without signing in, so no "
                "rating moves, signed in or not.")
    if opener is None:
        return ("Unrated as things are: you are not signed in. Sign in first, then reload "
                "this page, and the match is rated: both players' ratings move.")
    if opener == host:
        return ("Unrated: you are signed in to the account that made the invitation (one "
                "account cannot play itself rated).")
    return (f"Rated: a match between two accounts; taking the seat as {opener_name or 'you'}"
            ", the result moves both players' ratings.")


def point_after(row: GameRow, level: LevelRating, score: float, before: Rating, n: int,
                at: float) -> RatingPoint:
    """The rating after one more rated game, the level as the opponent."""
    after = rate(before, [Game(Rating(level.rating, level.rd), score)])
    return RatingPoint(row.id, RATED_MODE, n + 1, row.level, level.rating, score, after, at)


__all__ = ["FRIEND_LEVEL", "RATED_MODE", "RateAtEnd", "RateFriendsAtEnd", "friend_rated_words",
           "friend_unrated_reason", "invitation_rated_words", "not_rated_reason", "point_after",
           "score_of", "unrated_reason"]
