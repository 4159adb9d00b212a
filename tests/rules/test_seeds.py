"""R31, 105–106, 307: where a deal's randomness comes from, and the record's seed line
(issue 13). A deal key of 128 bits deals through a keyed hash; a practice number deals as
every older record did, so the golden records keep replaying."""

from __future__ import annotations

from pathlib import Path

import pytest

from parlor.rules.actions import Action, IllegalActionError
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.notation import RecordError, parse_record, record, replay
from parlor.rules.seeds import DealKey, KeyedStream, SeedError, derive, parse_seed

GOLDEN = Path(__file__).parent / "golden"


def test_r31_a_practice_number_deals_exactly_as_older_records() -> None:
    """``seed: N`` deals from the Mersenne Twister seeded with N, as before deal keys: the
    golden records (written before) replay action by action."""
    assert new_game(5).seed == 5
    assert new_game(5).hand == new_game(5).hand
    for path in sorted(GOLDEN.glob("*.txt")):
        text = path.read_text()
        _settings, seed, actions = parse_record(text)
        assert isinstance(seed, int)
        s = replay(text)
        assert [str(a) for a in s.history] == [str(a) for _n, a in actions]
        assert record(s).splitlines()[:3] == text.splitlines()[:3]


def test_r31_a_deal_key_deals_through_a_keyed_hash_and_replays() -> None:
    key = DealKey(bytes(range(16)))
    s = new_game(key)
    for _ in range(40):
        if s.is_over:
            break
        apply(s, legal_actions(s)[0])
    text = record(s)
    assert f"seed: key-{bytes(range(16)).hex()}" in text
    again = replay(text)
    assert again.hand == s.hand and again.draw == s.draw and again.turn == s.turn


def test_r307_the_reshuffle_seed_of_a_keyed_deal_is_its_own_keyed_hash() -> None:
    key = DealKey(b"\x01" * 16)
    s = new_game(key)
    assert s.shuffle_seed == derive(key, "reshuffle", 128)
    other = new_game(DealKey(b"\x01" * 15 + b"\x02"))
    assert other.hand != s.hand and other.shuffle_seed != s.shuffle_seed


def test_a_keyed_stream_is_deterministic_and_unlike_the_twister() -> None:
    a, b = KeyedStream(b"k" * 16, "deal"), KeyedStream(b"k" * 16, "deal")
    xs = list(range(40))
    ys = list(range(40))
    a.shuffle(xs)
    b.shuffle(ys)
    assert xs == ys and xs != sorted(xs)
    assert KeyedStream(b"k" * 16, "other").getrandbits(64) != \
        KeyedStream(b"k" * 16, "deal").getrandbits(64)


@pytest.mark.parametrize("text", ["-1", "9223372036854775808", "1e5", "seven", "", "0x10",
                                  "key-abc", "key-" + "g" * 32, "key-" + "a" * 33])
def test_a_seed_line_that_is_no_seed_names_what_a_seed_is(text: str) -> None:
    with pytest.raises(SeedError):
        parse_seed(text)
    with pytest.raises(RecordError, match="line 2"):
        parse_record(f"settings: max_turns=200\nseed: {text}\n")


@pytest.mark.parametrize("settings", ["single_draw=3", "single_draw=0", "single_draw=-1",
                                      "max_turns=abc", "max_turns=-5", "max_turns=0",
                                      "match_play=1", "colour=red"])
def test_r32_r17_settings_out_of_range_are_refused(settings: str) -> None:
    with pytest.raises(RecordError, match="line 1"):
        parse_record(f"settings: {settings}\nseed: 1\n")


def test_r3_a_payment_on_a_verb_that_takes_none_is_refused() -> None:
    """``apply`` refuses a keep (or pass, or attack) carrying a payment: its text could not
    hold the payment, so the record would no longer replay."""
    s = new_game(3)
    first = legal_actions(s)[0]
    paid = Action(first.verb, first.card, first.target, (), ())
    history = list(s.history)
    with pytest.raises(IllegalActionError, match=r"405: .* takes no payment"):
        apply(s, paid)
    assert s.history == history  # nothing changed
    apply(s, first)
    assert replay(record(s)).history == s.history
