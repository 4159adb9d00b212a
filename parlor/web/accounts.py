"""Player accounts on the web (issue 43): passwords, sign-in with its lockout, the games an
account holds, its Glicko-2 ratings against the computer levels, and its export.

Playing without an account stays as it was: a game is opened by its player token, kept in
the browser's cookie. An account holds games (their tokens sealed in the database), so that
signing in on another device hands that browser the tokens again (:meth:`Players.cookies`).

- **Passwords** (NIST SP 800-63B 5.1.1.2): at least :data:`MIN_PASSWORD` characters, up to
  :data:`MAX_PASSWORD`, any characters (spaces too), no composition rules; a password on the
  shipped list of common ones, or equal to the username or the site's name, is refused.
  Hashed with Argon2id (``argon2-cffi``'s defaults, RFC 9106's second choice of parameters).
- **Sign-up** must tell a person that a name is taken, so it cannot hide which names
  exist; it is made no better a probe than sign-in: each taken name counts as a failed
  sign-in of the address (the same lockout), and it hashes the password first (the same
  Argon2 time as a sign-in's verification).
- **Sign-in** answers the same for an unknown name and a wrong password, and takes the same
  time: an unknown name is verified against a dummy hash made at start. Failures are
  counted per name (known or not) and per address, in the database (every server applies
  the same lockout): past :data:`NAME_LIMIT` or :data:`ADDRESS_LIMIT` failures within
  :data:`LOCK_WINDOW` seconds, sign-in under that name or from that address is refused
  until the window ends, whatever the password.
- **Ratings**: a game is rated when the account held it from its start (it was started while
  signed in), it is a match game (no takebacks, R30) against a level with a calibrated
  rating (:mod:`parlor.ai.ratings`), dealt from a fresh key (not a practice seed anyone can
  deal again), not a tournament's contest, and over. Each rated game is one Glicko-2 rating
  period, rated as it ends in the transaction that stores its end, counted once
  (:mod:`parlor.web.rating`).
"""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import re
import time
import zipfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, NoReturn

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from parlor.store import GameRow, GameStore, TournamentStore
from parlor.store.accounts import Account, Accounts, NameTaken
from parlor.web.games import BadAction, GameError, GameNotFound, Games
from parlor.web.rating import RATED_MODE, score_of

COMMON_PASSWORDS = Path(__file__).resolve().parent / "data" / "common-passwords.txt"
MIN_PASSWORD = 8
MAX_PASSWORD = 128  # NIST: at least 64 allowed
USERNAME = re.compile(r"^[A-Za-z0-9_-]{3,32}$")
#: Failed sign-ins allowed per name and per address within :data:`LOCK_WINDOW` seconds.
NAME_LIMIT = 5
ADDRESS_LIMIT = 30
LOCK_WINDOW = 15 * 60.0
#: Game tokens handed to a browser at sign-in: the most recent this many (cookies are small,
#: but a browser keeps a limited number per site); the profile opens any of them.
COOKIE_GAMES = 50


class SignInRefused(GameError):
    """An unknown name or a wrong password: the one answer for both."""

    status, code = 401, "sign_in_refused"


class TooManyTries(GameError):
    status, code = 429, "too_many_tries"


class NotSignedIn(GameError):
    status, code = 401, "not_signed_in"


class NameUnavailable(GameError):
    status, code = 409, "name_taken"


SIGN_IN_REFUSED = "that name and password do not match an account"


def address_key(address: str) -> str:
    """The failures key of an address: failed sign-ins and taken names share it."""
    return f"addr:{address[:100]}"


@cache
def common_passwords() -> frozenset[str]:
    """The shipped list (lower case), read once."""
    lines = COMMON_PASSWORDS.read_text(encoding="utf-8").splitlines()
    return frozenset(x for x in lines if x and not x.startswith("#"))


def password_problem(password: str, username: str) -> str | None:
    """Why a new password is refused (None: it is accepted)."""
    if len(password) < MIN_PASSWORD:
        return f"a password has at least {MIN_PASSWORD} characters"
    if len(password) > MAX_PASSWORD:
        return f"a password has at most {MAX_PASSWORD} characters"
    folded = password.lower()
    if folded in common_passwords():
        return "that password is one of the most common ones: choose another"
    if folded in (username.lower(), "parlormagic", "parlor magic", "parlor-magic"):
        return "a password may not be your name or the site's: choose another"
    return None


def check_username(username: str) -> str:
    name = username.strip()
    if not USERNAME.match(name):
        raise BadAction("a name has 3 to 32 letters, digits, - or _")
    return name


class Passwords:
    """Argon2id hashing, and a dummy hash to verify against when the name is unknown."""

    def __init__(self) -> None:
        self.hasher = PasswordHasher()  # Argon2id
        self._dummy: str | None = None

    @property
    def dummy(self) -> str:
        """A hash of the hasher's parameters that no password matches, made when first
        needed (an Argon2 hash takes a while: not at every app's start)."""
        if self._dummy is None:
            self._dummy = self.hasher.hash("not a password: a name that has no account")
        return self._dummy

    def hash(self, password: str) -> str:
        return self.hasher.hash(password)

    def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches ``stored``; with no stored hash the dummy is
        verified (and fails), so that both take an Argon2 verification's time."""
        try:
            return self.hasher.verify(stored or self.dummy, password) and stored is not None
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False


@dataclass(frozen=True, slots=True)
class Record:
    """One level's record: won, lost, drawn (finished games the account holds)."""

    level: str
    won: int = 0
    lost: int = 0
    drawn: int = 0


def _keystream(key: bytes, n: int) -> bytes:
    out = b""
    counter = 0
    while len(out) < n:
        out += hashlib.blake2b(f"token/{counter}".encode(), key=key[:64]).digest()
        counter += 1
    return out[:n]


class Players:
    """The accounts of one app: its store, hashing, lockout, games and ratings."""

    def __init__(self, store: GameStore, games: Games, tournaments: TournamentStore,
                 secret: bytes) -> None:
        self.accounts = Accounts(store)
        self.games = games
        self.tournaments = tournaments
        self.secret = secret
        self.passwords = Passwords()
        #: the levels' ratings, the ones the games' end rates with (parlor.web.rating)
        self.ratings = games.ratings

    # -- signing up and in ----------------------------------------------------------------------

    def sign_up(self, username: str, password: str, address: str) -> Account:
        """A new account with a password; NameUnavailable for a name taken (a sign-up must
        say so), counted as a failure of the address, as a wrong sign-in is: an address
        probing names gets :data:`ADDRESS_LIMIT` answers a window, by either form, and the
        password is hashed before the name is looked up, so a probe costs the server the
        same Argon2 time as a sign-in and answers no faster."""
        self.check_address(address)
        name = check_username(username)
        problem = password_problem(password, name)
        if problem is not None:
            raise BadAction(problem)
        hashed = self.passwords.hash(password)
        try:
            account = self.accounts.create(name)
        except NameTaken:
            self.name_taken(address)
        self.accounts.set_password(account.id, hashed)
        return account

    def check_address(self, address: str) -> None:
        """TooManyTries while the address is locked out (failed sign-ins and taken names)."""
        if self.accounts.failures(address_key(address), window=LOCK_WINDOW) >= ADDRESS_LIMIT:
            raise TooManyTries("too many failed sign-ins or taken names: wait a quarter of an "
                               "hour and try again", retry_after=int(LOCK_WINDOW))

    def name_taken(self, address: str) -> NoReturn:
        """Count a taken name against the address, and say the name is taken."""
        self.accounts.fail(address_key(address), window=LOCK_WINDOW)
        raise NameUnavailable("that name is taken: choose another")

    def sign_in(self, username: str, password: str, address: str) -> Account:
        """The account, or SignInRefused (the same for an unknown name and a wrong
        password), or TooManyTries while the name or the address is locked out."""
        keys = (f"name:{username.strip().lower()[:100]}", address_key(address))
        limits = (NAME_LIMIT, ADDRESS_LIMIT)
        if any(self.accounts.failures(k, window=LOCK_WINDOW) >= n
               for k, n in zip(keys, limits, strict=True)):
            raise TooManyTries("too many failed sign-ins: wait a quarter of an hour and try "
                               "again", retry_after=int(LOCK_WINDOW))
        account, stored = self.accounts.with_password(username[:100])
        if not self.passwords.verify(stored, password[:MAX_PASSWORD * 4]) or account is None:
            for k in keys:
                self.accounts.fail(k, window=LOCK_WINDOW)
            raise SignInRefused(SIGN_IN_REFUSED)
        self.accounts.forgive(keys[0])
        if stored is not None and self.passwords.hasher.check_needs_rehash(stored):
            self.accounts.set_password(account.id, self.passwords.hash(password))
        return account

    # -- games held ----------------------------------------------------------------------------

    def seal(self, game_id: str, token: str) -> str:
        key = hmac.new(self.secret, b"account-token/" + game_id.encode(), "sha256").digest()
        data = token.encode()
        return bytes(a ^ b for a, b in zip(data, _keystream(key, len(data)),
                                           strict=True)).hex()

    def unseal(self, game_id: str, sealed: str) -> str:
        key = hmac.new(self.secret, b"account-token/" + game_id.encode(), "sha256").digest()
        data = bytes.fromhex(sealed)
        return bytes(a ^ b for a, b in zip(data, _keystream(key, len(data)),
                                           strict=True)).decode()

    def adopt(self, account: Account, tokens: dict[str, str], *, rated: bool) -> int:
        """The account holds the games whose valid tokens these are (game id -> token), if
        no account holds them yet; ``rated``: they were started while signed in. Returns
        how many it took."""
        taken = 0
        for row in self.games.owned(tokens):
            if self.accounts.hold(account.id, row.id, self.seal(row.id, tokens[row.id]),
                                  rated=rated, now=time.time()):
                taken += 1
        return taken

    def cookies(self, account: Account, limit: int = COOKIE_GAMES) -> dict[str, str]:
        """The tokens of the account's most recent games (game id -> token)."""
        return {h.game_id: self.unseal(h.game_id, h.sealed)
                for h in self.accounts.held(account.id)[:limit]}

    def token_of(self, account: Account, game_id: str) -> str:
        for h in self.accounts.held(account.id):
            if h.game_id == game_id:
                return self.unseal(h.game_id, h.sealed)
        raise GameNotFound(f"your account holds no game {game_id!r}")

    def rows(self, account: Account) -> list[GameRow]:
        return self.games.store.rows([h.game_id for h in self.accounts.held(account.id)])

    # -- ratings (rated as each game ends: parlor.web.rating) ---------------------------------

    def records(self, account: Account) -> list[Record]:
        """Won, lost and drawn per level, of the finished games against the computer."""
        tally: dict[str, list[int]] = {}
        for row in self.rows(account):
            if row.kind != "play" or row.status != "over":
                continue
            score = score_of(row.result, row.human)
            if score is None:
                continue
            counts = tally.setdefault(row.level, [0, 0, 0])
            counts[0 if score == 1.0 else 1 if score == 0.0 else 2] += 1
        return [Record(level, *tally[level]) for level in sorted(tally)]

    # -- export and deletion --------------------------------------------------------------------

    def export(self, account: Account) -> bytes:
        """A zip: each finished game's record (the project's record format, docs/notation.md)
        and ``account.json`` (the account, its ratings and their history, its games' list).
        A game still in play has no record in it: its record would show hidden cards."""
        buf = io.BytesIO()
        listing: list[dict[str, Any]] = []
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            for row in self.rows(account):
                entry = {"id": row.id, "title": row.title, "level": row.level,
                         "status": row.status, "result": row.result,
                         "created": row.created, "updated": row.updated}
                if row.status == "over" or row.kind == "replay":
                    text = self.games.record_text(self.games.get(row.id))
                    name = f"records/{row.id}.txt"
                    entry["record"] = name
                    z.writestr(name, text)
                listing.append(entry)
            z.writestr("account.json", json.dumps(self.summary(account, listing), indent=1))
        return buf.getvalue()

    def summary(self, account: Account, listing: list[dict[str, Any]]) -> dict[str, Any]:
        current = self.accounts.rating(account.id, RATED_MODE)
        return {
            "username": account.username, "created": account.created,
            "ratings": {} if current is None else {RATED_MODE: {
                "rating": current[0].rating, "rd": current[0].rd,
                "volatility": current[0].volatility, "games": current[1]}},
            "history": [{"game": p.game_id, "mode": p.mode, "n": p.n, "level": p.level,
                         "opponent": p.opponent, "score": p.score, "rating": p.rating.rating,
                         "rd": p.rating.rd, "volatility": p.rating.volatility, "at": p.at}
                        for p in self.accounts.history(account.id)],
            "games": listing,
        }

    def delete(self, account: Account, *, games_too: bool) -> None:
        for game_id in self.accounts.delete(account.id, games_too=games_too):
            self.games.forget(game_id)


__all__ = ["ADDRESS_LIMIT", "COOKIE_GAMES", "LOCK_WINDOW", "MAX_PASSWORD", "MIN_PASSWORD",
           "NAME_LIMIT", "RATED_MODE", "NameUnavailable", "NotSignedIn", "Passwords", "Players",
           "Record", "SignInRefused", "TooManyTries", "check_username", "common_passwords",
           "password_problem", "score_of"]
