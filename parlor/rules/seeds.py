"""Where a deal's randomness comes from (R31, 105–106, 307): the seed of a game record.

A seed takes one of two forms, and a record says which by how it writes it:

* A **practice seed** is a whole number ``0 <= n < 2**63`` (``seed: 7``). The deal draws from
  Python's Mersenne Twister seeded with ``n`` and the reshuffle seed is the next 64 bits of
  that stream. Every record written before keyed deals existed has this form and keeps its
  meaning. A short number is easy to type and to search, so anyone who sees a few dealt
  cards can find it: it is for practice games, puzzles and tests, never for a game the
  server deals.
* A **deal key** is at least 128 random bits, written ``key-`` and hex digits
  (``seed: key-3f9c…``). The deal draws from BLAKE2b keyed with those bits over a counter
  (:class:`KeyedStream`), and the reshuffle seed is a separate keyed hash of them, so no
  number of seen cards narrows the key down. The server draws a key with :mod:`secrets`
  and passes it in; this module draws nothing itself (the engine stays pure).

Any other number a game needs (the computer's choices, a hint) is :func:`derive`-d from the
seed with a keyed hash, so it reveals nothing about the deal:

    >>> key = DealKey.parse("key-" + "ab" * 16)
    >>> str(key) == "key-" + "ab" * 16 and parse_seed(str(key)) == key
    True
    >>> parse_seed("7")
    7
    >>> derive(7, "agent/3") == derive(7, "agent/3") != derive(8, "agent/3")
    True
    >>> for bad in ("-1", str(2**63), "x"):
    ...     try:
    ...         parse_seed(bad)
    ...     except SeedError as exc:
    ...         print(str(exc).rpartition(": ")[2])
    ...
    not '-1'
    not '9223372036854775808'
    not 'x'
"""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import dataclass
from typing import Any

from parlor.rules.values import Value

#: Practice seeds are below this (they fit a signed 64-bit database column).
PRACTICE_LIMIT = 2**63
#: Bytes of a deal key the server draws: 128 bits.
KEY_BYTES = 16
_KEY_TEXT = re.compile(r"key-([0-9a-f]{32,128})")


class SeedError(ValueError):
    """Text or a number that is not a seed."""


@dataclass(frozen=True, slots=True)
class DealKey(Value):
    """At least 128 random bits a deal is drawn from; text ``key-`` + lowercase hex."""

    key: bytes

    def __post_init__(self) -> None:
        if not KEY_BYTES <= len(self.key) <= 64:
            raise SeedError(f"a deal key has 16 to 64 bytes, not {len(self.key)}")

    def __str__(self) -> str:
        return "key-" + self.key.hex()

    def __repr__(self) -> str:
        return f"DealKey({str(self)!r})"

    @staticmethod
    def parse(text: str) -> DealKey:
        m = _KEY_TEXT.fullmatch(text.strip().lower())
        if m is None or len(m.group(1)) % 2:
            raise SeedError(f"a deal key is key- and an even number (32 to 128) of hex digits,"
                            f" not {text.strip()[:80]!r}")
        return DealKey(bytes.fromhex(m.group(1)))


#: What a game is dealt from: a practice seed or a deal key.
Seed = int | DealKey


def parse_seed(text: str) -> Seed:
    """The seed written as ``text`` in a record; SeedError saying what a seed looks like."""
    t = text.strip()
    if t.lower().startswith("key-"):
        return DealKey.parse(t)
    if re.fullmatch(r"\d{1,19}", t) and int(t) < PRACTICE_LIMIT:
        return int(t)
    raise SeedError("a seed is a whole number from 0 to 9223372036854775807, or key- and at "
                    f"least 32 hex digits: not {t[:80]!r}")


def check_seed(seed: Seed) -> Seed:
    """``seed`` if it is one (a practice number in range, or a deal key); else SeedError."""
    if isinstance(seed, DealKey):
        return seed
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < PRACTICE_LIMIT:
        raise SeedError(f"a practice seed is a whole number from 0 to {PRACTICE_LIMIT - 1}, "
                        f"not {seed!r}")
    return seed


def _key_bytes(seed: Seed) -> bytes:
    if isinstance(seed, DealKey):
        return seed.key
    return b"practice:" + str(int(seed)).encode()


def derive(seed: Seed, purpose: str, bits: int = 64) -> int:
    """A number of ``bits`` bits for ``purpose`` (e.g. ``"agent/12"``), a BLAKE2b hash keyed
    with the seed: knowing it tells nothing about the seed or any other purpose's number."""
    if not 1 <= bits <= 512:
        raise ValueError("derive gives 1 to 512 bits")
    nbytes = (bits + 7) // 8
    h = hashlib.blake2b(purpose.encode(), key=_key_bytes(seed)[:64], digest_size=nbytes)
    return int.from_bytes(h.digest(), "big") >> (8 * nbytes - bits)


def derive_key(key: DealKey, purpose: str) -> DealKey:
    """A deal key of its own for ``purpose`` (a tournament's contest), a keyed hash of
    ``key`` as long as it: a contest's key, even once revealed, tells nothing of the
    tournament's key or of any other contest's deal.

    >>> t = DealKey(bytes(16))
    >>> derive_key(t, "contest/1/1") != derive_key(t, "contest/1/2")
    True
    >>> len(derive_key(t, "contest/1/1").key)
    16
    """
    n = len(key.key)
    return DealKey(derive(key, purpose, 8 * n).to_bytes(n, "big"))


class KeyedStream(random.Random):
    """A ``random.Random`` whose bits are BLAKE2b(key, purpose/counter): every shuffle and
    choice of :class:`random.Random` works on it, and its output cannot be run backwards to
    the key. Deterministic: the same key and purpose give the same stream."""

    def __init__(self, key: bytes, purpose: str) -> None:
        self._key = key[:64]
        self._purpose = purpose.encode()
        self._counter = 0
        self._bits = 0  # unread bits, low ones first
        self._nbits = 0
        super().__init__(0)

    def seed(self, a: Any = None, version: int = 2) -> None:
        """Random.__init__ calls this; the stream's state is its key, so nothing to do."""

    def _more(self) -> None:
        block = hashlib.blake2b(self._purpose + b"/" + str(self._counter).encode(),
                                key=self._key).digest()
        self._counter += 1
        self._bits |= int.from_bytes(block, "little") << self._nbits
        self._nbits += 8 * len(block)

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        while self._nbits < k:
            self._more()
        out = self._bits & ((1 << k) - 1)
        self._bits >>= k
        self._nbits -= k
        return out

    def random(self) -> float:
        return self.getrandbits(53) / 9007199254740992.0

    def getstate(self) -> Any:
        return (self._key, self._purpose, self._counter, self._bits, self._nbits)

    def setstate(self, state: Any) -> None:
        self._key, self._purpose, self._counter, self._bits, self._nbits = state


def deal_stream(seed: Seed) -> random.Random:
    """The random stream a deal is drawn from (R31, 105–106). A number seeds the Mersenne
    Twister as every record before deal keys did (any int, for old records' sake; records and
    the web app take only practice seeds, 0 to 2**63 - 1)."""
    if isinstance(seed, DealKey):
        return KeyedStream(seed.key, "deal")
    return random.Random(seed)


__all__ = ["KEY_BYTES", "PRACTICE_LIMIT", "DealKey", "KeyedStream", "Seed", "SeedError",
           "check_seed", "deal_stream", "derive", "derive_key", "parse_seed"]
