"""The generator a seat's bot draws from when a game is a function of its seed: :class:`BotRandom`.

Where the project plays a game from a seed with bots (``uno simulate``,
:func:`~unoengine.play.simulate.play_games`, the terminal's bots, the RL
environments' opponents, the golden games), seat ``k``'s bot is made with
``seat_random(seed, k)``: a :class:`BotRandom` keyed by the text
``f"{seed}:bot:{k}"``. So the same seed gives the same game whichever entry
point plays it, and each seat has a stream of its own (what one bot draws never
shifts another's).

:class:`BotRandom` is a ``random.Random`` (every method of it works: ``random``,
``getrandbits``, ``choice``, ``shuffle``, ``sample``, pickling, ``getstate``)
whose basic generator is xoshiro128** 1.1 (Blackman and Vigna, 2018; a 128-bit
state, period 2**128 - 1), keyed by the first 16 bytes of the BLAKE2b digest of
the key's bytes. It is made for the batch path: a ``random.Random`` keyed by a
text runs CPython's key schedule over its 624 words, about 5 µs, which for four
seats was a third of a whole random Classic game; keying this one takes about
0.6 µs and a ``random()`` costs what the Mersenne Twister's does. A bot never
needs it: any ``random.Random`` works, and a game's own chance (its shuffles,
G-1) never draws from a bot's generator.

>>> rng = seat_random(7, 1)
>>> [rng.randrange(10) for _ in range(8)]
[6, 5, 1, 1, 0, 0, 9, 0]
>>> seat_random(7, 1).random() == BotRandom("7:bot:1").random()
True
"""

from __future__ import annotations

import hashlib
import os
import random
import struct
from typing import Any, Final

from mypy_extensions import i64, mypyc_attr

_M32: Final = 0xFFFFFFFF
_UNIT: Final = 1.0 / 9007199254740992.0
"""``2 ** -53``: ``random()`` is a 53-bit fraction, as the Mersenne Twister's ``random()`` makes it."""

STATE_TAG: Final = "xoshiro128**"
"""The first item of :meth:`BotRandom.getstate`: a state of another generator is refused by ``setstate``."""


class Xoshiro128:
    """xoshiro128** 1.1: four 32-bit words of state, one 32-bit word a step.

    The reference's arithmetic in native 64-bit ints (``i64``) in the compiled
    build and in Python ints in the pure one, with the same results: every value
    stays below ``2 ** 36`` and is cut to 32 bits after each shift or product.

    >>> core = Xoshiro128(1, 2, 3, 4)
    >>> [core.next32() for _ in range(4)]
    [11520, 0, 5927040, 70819200]
    """

    def __init__(self, s0: i64, s1: i64, s2: i64, s3: i64) -> None:
        self.s0: i64 = s0
        self.s1: i64 = s1
        self.s2: i64 = s2
        self.s3: i64 = s3

    def next32(self) -> i64:
        """The next 32-bit word: ``rotl(s1 * 5, 7) * 9``, then the state's step."""
        s0: i64 = self.s0
        s1: i64 = self.s1
        s2: i64 = self.s2
        s3: i64 = self.s3
        x: i64 = (s1 * 5) & _M32
        result: i64 = ((((x << 7) | (x >> 25)) & _M32) * 9) & _M32
        t: i64 = (s1 << 9) & _M32
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        self.s0 = s0
        self.s1 = s1
        self.s2 = s2
        self.s3 = ((s3 << 11) | (s3 >> 21)) & _M32
        return result

    def random(self) -> float:
        """A float in [0, 1) from two words, as ``random.Random.random`` makes it: ``(a >> 5) * 2**26 + (b >> 6)``
        over ``2**53``."""
        a: i64 = self.next32() >> 5
        b: i64 = self.next32() >> 6
        return float(a * 67108864 + b) * _UNIT

    def words(self) -> tuple[int, int, int, int]:
        """The state's four words."""
        return (self.s0, self.s1, self.s2, self.s3)

    def set_state(self, words: tuple[int, int, int, int]) -> None:
        """Set the state's four words (each in ``[0, 2**32)``, not all zero: the caller checks)."""
        self.s0 = words[0]
        self.s1 = words[1]
        self.s2 = words[2]
        self.s3 = words[3]


_WORDS: Final = struct.Struct("<4I").unpack_from
"""The first four little-endian 32-bit words of a byte string, in one C call."""
_BLAKE2B: Final = hashlib.blake2b
_ZERO: Final = (0, 0, 0, 0)


def _state_of(key: object) -> tuple[int, int, int, int]:
    """The state a key gives: the first 16 bytes of its BLAKE2b digest (64 bytes, the default) as four
    little-endian words, never all zero.

    Raises:
        TypeError: not an int, str, bytes, bytearray or None.
    """
    if isinstance(key, str):
        data = key.encode()
    elif key is None:
        data = os.urandom(16)
    elif isinstance(key, int) and not isinstance(key, bool):
        data = str(key).encode()
    elif isinstance(key, (bytes, bytearray)):
        data = bytes(key)
    else:
        raise TypeError(f"a BotRandom key is an int, str, bytes or None, not {type(key).__name__}")
    words: tuple[int, int, int, int] = _WORDS(_BLAKE2B(data).digest())
    return words if words != _ZERO else (1, 0, 0, 0)  # the all-zero state never moves (odds 2**-128)


@mypyc_attr(native_class=False)  # a native class cannot extend random.Random's C base: a Python class, compiled methods
class BotRandom(random.Random):
    """A ``random.Random`` whose basic generator is xoshiro128**, keyed in well under a microsecond.

    ``BotRandom(key)``: ``key`` is a text, bytes or an int (an int is keyed by its
    decimal text, so ``BotRandom(5)`` is ``BotRandom("5")``); ``None`` keys it
    from the operating system's randomness. The state is the first 16 bytes of
    the BLAKE2b digest of the key's bytes, as four little-endian 32-bit words
    (never all zero). ``random()`` takes two words as the Mersenne Twister's
    does; ``getrandbits(k)`` takes ``ceil(k / 32)`` words, the first the least
    significant, the last cut to its top bits; the other methods are
    ``random.Random``'s, built on these two. ``getstate()`` is
    ``("xoshiro128**", (s0, s1, s2, s3), gauss_next)``.

    >>> rng = BotRandom("3:bot:0")
    >>> state = rng.getstate()
    >>> first = [rng.random() for _ in range(3)]
    >>> rng.setstate(state)
    >>> [rng.random() for _ in range(3)] == first
    True
    """

    gauss_next: float | None
    """``random.Random``'s spare normal deviate of ``gauss``, kept in the state as there."""

    def __init__(self, key: object = None) -> None:
        # random.Random.__init__ is not called: all it does is seed() and set gauss_next, done here without
        # its Python frame.
        s0, s1, s2, s3 = _state_of(key)
        self._core = Xoshiro128(s0, s1, s2, s3)
        # ``random`` bound on the instance to the compiled generator's own method: a call of it is then one
        # native call, not this class's method looking up ``_core`` first (``random.Random``'s own methods,
        # and a bot binding ``rng.random``, find this one).
        self.random = self._core.random  # type: ignore[method-assign]
        self.gauss_next = None

    def seed(self, a: Any = None, version: int = 2) -> None:
        """Key the generator anew: ``a`` as for the constructor (``version`` is accepted and ignored)."""
        self._core.set_state(_state_of(a))
        self.gauss_next = None

    def random(self) -> float:
        """A float in [0, 1) (the instance's bound ``random`` is the compiled generator's, which this calls too)."""
        return self._core.random()

    def getrandbits(self, k: int, /) -> int:
        """An int of ``k`` random bits."""
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        core = self._core
        if k <= 32:
            return core.next32() >> (32 - k) if k else 0
        value = 0
        shift = 0
        while k > 0:
            word: int = core.next32()
            if k < 32:
                word >>= 32 - k
            value |= word << shift
            shift += 32
            k -= 32
        return value

    def getstate(self) -> tuple[Any, ...]:
        """``("xoshiro128**", (s0, s1, s2, s3), gauss_next)``: what :meth:`setstate` takes."""
        return (STATE_TAG, self._core.words(), self.gauss_next)

    def setstate(self, state: object) -> None:
        """Restore a state of :meth:`getstate`.

        Raises:
            ValueError: not a state of this generator (the generator is unchanged).
        """
        if not (isinstance(state, tuple) and len(state) == 3 and state[0] == STATE_TAG):
            raise ValueError(f"not a {STATE_TAG} state: expected ({STATE_TAG!r}, (s0, s1, s2, s3), gauss_next)")
        words, gauss_next = state[1], state[2]
        if not (
            isinstance(words, tuple)
            and len(words) == 4
            and all(type(word) is int and 0 <= word <= _M32 for word in words)
            and any(words)
        ):
            raise ValueError(f"a {STATE_TAG} state is four 32-bit words, not all zero")
        if gauss_next is not None and not isinstance(gauss_next, float):
            raise ValueError(f"a {STATE_TAG} state's gauss_next is a float or None")
        self._core.set_state(words)
        self.gauss_next = gauss_next

    def __reduce__(self) -> tuple[Any, ...]:
        # Random's own __reduce__ calls the class without a key, which reads the operating system's randomness
        # only for setstate to overwrite it.
        return (type(self), (b"",), self.getstate())


def seat_key(seed: int | str, seat: int) -> str:
    """The key of seat ``seat``'s generator in the game of ``seed``: ``f"{seed}:bot:{seat}"``."""
    return f"{seed}:bot:{seat}"


def seat_random(seed: int | str, seat: int) -> BotRandom:
    """The generator of seat ``seat``'s bot in the game of ``seed``: ``BotRandom(seat_key(seed, seat))``.

    A batch that plays many games may instead key one generator per seat anew for each game
    (``rng.seed(seat_key(seed, seat))``): the same state, without a new object.
    """
    return BotRandom(seat_key(seed, seat))
