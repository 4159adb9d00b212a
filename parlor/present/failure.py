"""What the player reads when the computer player fails (it raised, or answered an action
that is not legal): a game stops there, a hint is not given, and the record goes to the
operator's log.

    >>> print(computer_failed("expert", "answered 'attack KS', not a legal action"))
    ... # doctest: +NORMALIZE_WHITESPACE
    The expert computer failed: it answered 'attack KS', not a legal action. That is a bug in
    the computer player, so this game cannot go on; the server's log holds its record for the
    developers. Start a new game from the home page.
"""

from __future__ import annotations


def computer_failed(level: str, reason: str) -> str:
    """The sentence a failed game shows instead of the next move."""
    return (f"The {level} computer failed: it {reason}. That is a bug in the computer player, "
            "so this game cannot go on; the server's log holds its record for the developers. "
            "Start a new game from the home page.")


def computer_lost(level: str, reason: str) -> str:
    """The sentence a game shows when its computer's work could not be started or finished
    by the servers (the work queue refused the job, or the job kept failing): not a bug of
    the computer player, but the game cannot go on either.

    >>> print(computer_lost("expert", "the work queue refused its job"))
    ... # doctest: +NORMALIZE_WHITESPACE
    The expert computer could not play: the work queue refused its job. The server's log
    holds the details for its operator, so this game cannot go on. Start a new game from the
    home page.
    """
    return (f"The {level} computer could not play: {reason}. The server's log holds the "
            "details for its operator, so this game cannot go on. Start a new game from the "
            "home page.")


def hint_failed(level: str, reason: str) -> str:
    """The sentence a hint shows when the computer player that gives it fails."""
    return (f"No hint: the {level} computer failed: it {reason}. That is a bug in the computer "
            "player, and the server's log holds the game's record for the developers; the "
            "game goes on.")


__all__ = ["computer_failed", "computer_lost", "hint_failed"]
