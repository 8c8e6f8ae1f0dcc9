"""The generator of a seat's bot (``unoengine.bots.rng``): xoshiro128** keyed by BLAKE2b, a ``random.Random``."""

from __future__ import annotations

import copy
import hashlib
import math
import pickle
import random
import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from unoengine.bots.rng import STATE_TAG, BotRandom, Xoshiro128, seat_random


def blake_words(data: bytes) -> tuple[int, int, int, int]:
    words: tuple[int, int, int, int] = struct.unpack("<4I", hashlib.blake2b(data).digest()[:16])
    return words


def test_the_core_gives_the_reference_implementations_words() -> None:
    """Words of the reference C (xoshiro128** 1.1, prng.di.unimi.it), compiled and run on these states."""
    core = Xoshiro128(1, 2, 3, 4)
    assert [core.next32() for _ in range(8)] == [
        11520,
        0,
        5927040,
        70819200,
        2031721883,
        1637235492,
        1287239034,
        3734860849,
    ]
    core = Xoshiro128(0x9E3779B9, 0xDEADBEEF, 0x01234567, 0xFFFFFFFF)
    for _ in range(1000):
        core.next32()
    assert [core.next32() for _ in range(4)] == [810757275, 3593769897, 4271195200, 2374637730]


def test_a_key_gives_the_state_of_its_blake2b_digest() -> None:
    assert BotRandom("12:bot:3").getstate() == (STATE_TAG, blake_words(b"12:bot:3"), None)
    assert BotRandom(b"\x00\xff").getstate()[1] == blake_words(b"\x00\xff")
    assert BotRandom(bytearray(b"ab")).getstate()[1] == blake_words(b"ab")


def test_an_int_key_is_its_decimal_text_and_seat_random_is_the_seats_key() -> None:
    assert BotRandom(5).getstate() == BotRandom("5").getstate()
    assert BotRandom(-17).getstate() == BotRandom("-17").getstate()
    assert seat_random(41, 2).getstate() == BotRandom("41:bot:2").getstate()
    assert seat_random(41, 2).getstate() != seat_random(41, 3).getstate() != seat_random(42, 2).getstate()


@pytest.mark.parametrize("key", [1.5, True, (1, 2), object()])
def test_other_keys_are_refused_by_name(key: object) -> None:
    with pytest.raises(TypeError, match="a BotRandom key is an int, str, bytes or None"):
        BotRandom(key)  # type: ignore[arg-type]


def test_no_key_draws_a_fresh_state_from_the_system() -> None:
    assert BotRandom().getstate() != BotRandom().getstate()
    rng = BotRandom("a")
    rng.seed()
    assert rng.getstate() != BotRandom("a").getstate()


def test_random_is_two_words_as_the_mersenne_twisters() -> None:
    rng = BotRandom("words")
    core = Xoshiro128(*blake_words(b"words"))
    for _ in range(100):
        a, b = core.next32() >> 5, core.next32() >> 6
        assert rng.random() == (a * 67108864 + b) / 2**53


def test_getrandbits_takes_the_top_bits_of_words_least_significant_word_first() -> None:
    rng = BotRandom("bits")
    core = Xoshiro128(*blake_words(b"bits"))
    assert rng.getrandbits(0) == 0
    assert rng.getrandbits(7) == core.next32() >> 25
    assert rng.getrandbits(32) == core.next32()
    low, high = core.next32(), core.next32()
    assert rng.getrandbits(64) == low | high << 32
    low, top = core.next32(), core.next32() >> 24
    assert rng.getrandbits(40) == low | top << 32
    with pytest.raises(ValueError, match="non-negative"):
        rng.getrandbits(-1)


@given(st.text(max_size=40), st.integers(0, 300))
def test_a_key_fixes_the_stream_and_getrandbits_stays_in_range(key: str, bits: int) -> None:
    one, two = BotRandom(key), BotRandom(key)
    assert [one.random() for _ in range(5)] == [two.random() for _ in range(5)]
    assert 0 <= one.getrandbits(bits) < 2**bits
    two.getrandbits(bits)
    assert one.getstate() == two.getstate()


def test_random_randoms_methods_work_and_are_reproducible() -> None:
    def draws(rng: random.Random) -> list[object]:
        cards = list(range(30))
        rng.shuffle(cards)
        return [
            cards,
            rng.choice("abcdef"),
            rng.sample(range(100), 5),
            rng.randrange(7, 1000, 3),
            rng.randint(-5, 5),
            rng.uniform(2.0, 3.0),
            rng.gauss(0.0, 1.0),
            rng.gauss(0.0, 1.0),
            rng.randbytes(5),
            rng.choices("xyz", weights=[1, 2, 3], k=4),
        ]

    first, again = draws(BotRandom("methods")), draws(BotRandom("methods"))
    assert first == again
    assert sorted(first[0]) == list(range(30))  # type: ignore[call-overload]


def test_the_state_round_trips_through_getstate_pickle_copy_and_seed() -> None:
    rng = BotRandom("state")
    rng.gauss(0.0, 1.0)  # leaves gauss_next set: part of the state
    state = rng.getstate()
    ahead = [rng.random() for _ in range(10)] + [rng.gauss(0.0, 1.0)]
    rng.setstate(state)
    assert [rng.random() for _ in range(10)] + [rng.gauss(0.0, 1.0)] == ahead
    rng.setstate(state)
    for other in (pickle.loads(pickle.dumps(rng)), copy.copy(rng), copy.deepcopy(rng)):
        assert type(other) is BotRandom
        assert other.getstate() == state
        assert [other.random() for _ in range(10)] + [other.gauss(0.0, 1.0)] == ahead
    assert rng.getstate() == state, "a copy draws from its own state"
    rng.seed("state")
    assert rng.getstate() == BotRandom("state").getstate()


@pytest.mark.parametrize(
    ("state", "problem"),
    [
        (random.Random(1).getstate(), "not a xoshiro128"),
        ((STATE_TAG, (1, 2, 3), None), "four 32-bit words"),
        ((STATE_TAG, (0, 0, 0, 0), None), "not all zero"),
        ((STATE_TAG, (1, 2, 3, 2**32), None), "four 32-bit words"),
        ((STATE_TAG, (1, 2, 3, -1), None), "four 32-bit words"),
        ((STATE_TAG, (1, 2, 3, "4"), None), "four 32-bit words"),
        ((STATE_TAG, (1, 2, 3, 4), "x"), "gauss_next"),
        ("state", "not a xoshiro128"),
    ],
)
def test_a_bad_state_is_refused_and_the_generator_is_unchanged(state: object, problem: str) -> None:
    rng = BotRandom("kept")
    before = rng.getstate()
    with pytest.raises(ValueError, match=problem):
        rng.setstate(state)  # type: ignore[arg-type]
    assert rng.getstate() == before


def test_draws_are_uniform_and_seats_streams_uncorrelated() -> None:
    """A chi-square test of 20 bins over 100,000 draws (fixed keys: the figures are fixed), and the correlation of
    neighbouring seats' streams."""
    rng = seat_random(1, 0)
    counts = [0] * 20
    for _ in range(100_000):
        counts[int(rng.random() * 20)] += 1
    expected = 100_000 / 20
    chi2 = sum((count - expected) ** 2 / expected for count in counts)
    assert chi2 < 43.8  # 19 degrees of freedom, p = 0.001
    one, two = seat_random(2, 0), seat_random(2, 1)
    xs = [one.random() for _ in range(20_000)]
    ys = [two.random() for _ in range(20_000)]
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    cov = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True))
    spread = math.sqrt(sum((x - mean_x) ** 2 for x in xs) * sum((y - mean_y) ** 2 for y in ys))
    assert abs(cov / spread) < 0.03  # about 4 standard errors of 1 / sqrt(20,000)


def test_the_bound_random_is_the_generators_own() -> None:
    """A bot binds ``rng.random`` once: the instance's is the compiled generator's method, the class's the same
    stream."""
    one, two = BotRandom("bound"), BotRandom("bound")
    bound = one.random
    assert [bound() for _ in range(5)] == [BotRandom.random(two) for _ in range(5)]
