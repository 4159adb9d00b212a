"""The reshuffle (rule 307): when a card must be drawn and the Draw pile is empty, the Recycle
pile is shuffled and becomes the new Draw pile (R29, done by :func:`parlor.rules.table.draw_one`).

How the order is drawn (307.1, R31): a game's reshuffle seed is drawn with its deal, and the
``n``-th reshuffle of the game (counting from 0) is ordered by the scheme its settings name
(:attr:`parlor.rules.state.Settings.reshuffle`), so a record replays to the same piles:

* **scheme 2** (every new game, ``reshuffle=2``; :func:`hashed_fisher_yates`): a Fisher-Yates
  shuffle from the top of the pile whose swap indexes are the top bits of the next whole bytes
  of a stream of 64-byte blocks, block ``b`` the BLAKE2b-512 digest of the seed (16 bytes),
  ``n`` and ``b`` (8 bytes each, big-endian); an index past the range is drawn again;
* **scheme 1** (``reshuffle=1``, every game recorded before 2026-12-04, and any text that names
  no scheme; :func:`fisher_yates` from :func:`seeded`): CPython's
  ``random.Random("<seed>/<n>").shuffle``, drawn step for step as CPython draws it.

Both give every order equally often. tests/rules/test_reshuffle.py and
tests/rules/test_bookkeeping.py hold each scheme to its definition.
"""

from __future__ import annotations

import _random
from hashlib import blake2b, sha512
from typing import Final, cast

from parlor.rules.state import RESHUFFLE_SEED_LIMIT, RESHUFFLE_TWISTER, State


def shuffle(s: State, cards: list[int]) -> None:
    """A seeded shuffle: the n-th reshuffle of a game always gives the same order, drawn by
    the game's reshuffle scheme (R31, 307.1)."""
    n = s.shuffles
    s.shuffles = n + 1
    if s.settings.reshuffle == RESHUFFLE_TWISTER:
        fisher_yates(seeded(f"{s.shuffle_seed}/{n}"), cards)
    else:
        hashed_fisher_yates(s.shuffle_seed, n, cards)


#: Bytes of the reshuffle seed in a scheme 2 block's message (below RESHUFFLE_SEED_LIMIT).
_KEY_BYTES: Final = 16
#: Bytes of one BLAKE2b block of the scheme 2 stream.
_BLOCK: Final = 64


def _stream_block(key: bytes, n: int, block: int) -> bytes:
    # The secret seed as a prefix of one 32-byte message: BLAKE2b has no length extension,
    # and its keyed mode would compress a whole block for the key alone.
    return blake2b(key + n.to_bytes(8, "big") + block.to_bytes(8, "big")).digest()


def hashed_fisher_yates(seed: int, n: int, cards: list[int]) -> None:
    """Reshuffle scheme 2 (307.1): the ``n``-th reshuffle of a game with reshuffle seed
    ``seed``, a Fisher-Yates shuffle whose swap indexes come from BLAKE2b of the seed, ``n``
    and a block counter, 64 bytes a block. Each index below ``m`` takes the top bits of the
    next whole bytes, as many bits as ``m - 1`` has, and is drawn again past the range, so
    every order is equally likely.

    Why a second scheme: scheme 1 seeds a Mersenne Twister at every reshuffle, about four
    times the cost of this one (one 64-byte block serves a whole pile of 52 cards most of
    the time), and a hash keeps the seed from being worked out from the orders it gives."""
    if not 0 <= seed < RESHUFFLE_SEED_LIMIT:
        raise ValueError(f"307.1: a reshuffle seed is a whole number below 2**128, not {seed}")
    key = seed.to_bytes(_KEY_BYTES, "big")
    block = 0
    stream = _stream_block(key, n, block)
    at = 0
    pile = cast("list[object]", cards)  # the cards only change places (object: for speed)
    m = len(pile)
    k = (m - 1).bit_length()  # the bits of the largest index, kept as m falls
    while m > 1:
        if (m - 1) >> (k - 1) == 0:
            k -= 1
        if k <= 8:  # one byte an index: every pile of up to 256 cards, so every real one
            shift = 8 - k
            while True:
                if at == _BLOCK:
                    block += 1
                    stream = _stream_block(key, n, block)
                    at = 0
                j = stream[at] >> shift
                at += 1
                if j < m:
                    break
        else:
            width = (k + 7) >> 3
            while True:
                if at + width > _BLOCK:
                    block += 1
                    stream = _stream_block(key, n, block)
                    at = 0
                x = stream[at]
                for i in range(at + 1, at + width):
                    x = (x << 8) | stream[i]
                at += width
                j = x >> (8 * width - k)
                if j < m:
                    break
        i = m - 1
        pile[i], pile[j] = pile[j], pile[i]
        m = i


def seeded(text: str) -> _random.Random:
    """The generator of ``random.Random(text)``: the same Mersenne Twister state, seeded as
    random.py seeds a str (version 2: the text's bytes followed by their SHA-512, read as one
    big-endian int), by the C base class directly, without random.py's interpreted
    ``__init__`` and ``seed`` (tests/rules/test_bookkeeping.py compares the two)."""
    raw = text.encode()
    return _random.Random(int.from_bytes(raw + sha512(raw).digest(), "big"))


#: 2**53: ``random()`` times this is the integer its two 32-bit words make (below).
_TWO_WORDS: Final = 9007199254740992.0


def fisher_yates(rng: _random.Random, cards: list[int]) -> None:
    """``rng.shuffle(cards)``, step for step as CPython's ``random.shuffle`` draws it, so the
    same seed gives the same order (tests/rules/test_bookkeeping.py checks it against
    ``random.shuffle`` for every pile size): scheme 1 must give the orders every record
    written before scheme 2 holds, and this is those orders, written out (several times
    faster than calling random.py's shuffle).

    ``random.shuffle`` draws each swap index as ``getrandbits(k)``, the top ``k`` bits of
    the next 32-bit word of the Mersenne Twister, and draws again past the range. A call
    costs more than the bits, so the words are read two at a time from ``random()``, which
    is ``(a >> 5) * 2**26 + (b >> 6)`` over 2**53 for the next two words ``a`` and ``b``:
    the top 27 bits of one and 26 of the other, and a pile of up to 2**26 cards needs at
    most 26."""
    if len(cards) > 1 << 26:
        raise ValueError("R31: a pile of more than 2**26 cards")
    draw = rng.random
    pile = cast("list[object]", cards)  # the cards only change places (object: for speed)
    n = len(pile)
    k = n.bit_length()  # the bits of n, kept as n falls: n has k bits while n >= low
    low = 1 << k >> 1
    spare = -1  # the top 26 bits of the second word of the last draw, until used
    while n > 1:
        if n < low:
            k -= 1
            low >>= 1
        j = n
        while j >= n:
            if spare >= 0:
                j = spare >> (26 - k)
                spare = -1
            else:
                both = int(draw() * _TWO_WORDS)
                j = both >> (53 - k)
                spare = both & 0x3FFFFFF
        i = n - 1
        pile[i], pile[j] = pile[j], pile[i]
        n = i
