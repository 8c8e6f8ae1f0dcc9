"""The core's values: a kind of card (:class:`Card`) and the actions (:class:`Play`, :class:`Draw` …).

``unoengine.core.cards`` and ``unoengine.core.actions`` re-export them (the same
objects) with their notation; import them from there. They live in this module
of their own so that the compiled build compiles them: each is a plain class with
read-only fields and its ``==``, ``hash``, ``repr`` and pickle written out (a
dataclass's are Python code, run by every hash of a card and every comparison of
two actions), and the rules core reads their fields as fields of a compiled
object, not through a descriptor.

They behave as the frozen dataclasses they were: equal and hashed by their
fields in order, built by position or keyword, matched by position (``case
Play(card)``), pickled as their class and fields; a field cannot be set. This
module imports the notation it prints lazily (``cards`` and ``actions`` import it
first).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Final

if TYPE_CHECKING:
    from unoengine.core.cards import Color, Rank

Seat = int


class Card:
    """A kind of card.

    ``color`` is ``None`` for wild cards. ``number`` is set for number cards only.
    ``flex_color`` is the colour of a Flex card's flex side (F-3); the flex side has
    the same number or symbol family as the normal side (F-29). ``flip`` marks the
    Flex flip symbol (F-4).
    """

    __match_args__: ClassVar[tuple[str, ...]] = ("color", "rank", "number", "flex_color", "flip")

    def __init__(
        self,
        color: Color | None,
        rank: Rank,
        number: int | None = None,
        flex_color: Color | None = None,
        flip: bool = False,
    ) -> None:
        self.color: Final = color
        self.rank: Final = rank
        self.number: Final = number
        self.flex_color: Final = flex_color
        self.flip: Final = flip
        self.is_wild: Final[bool] = rank.is_wild
        """True for every wild card (they always match, C-7)."""
        self.is_flex: Final[bool] = flex_color is not None or rank.has_flex_side
        """True for a card with a flex side: a two-sided card or a Flex wild (F-3)."""
        self.is_action: Final[bool] = rank.value != ""
        """Every card that is not a number card is an action card."""
        self._hash: Final[int] = hash((color, rank, number, flex_color, flip))
        """The hash of the fields, computed once (an ``Enum``'s hash is Python code; the deck tables and the
        actions' cache look cards up by value)."""

    def __eq__(self, other: object) -> bool:
        if type(other) is not Card:
            return NotImplemented
        return self is other or (
            self.color is other.color
            and self.rank is other.rank
            and self.number == other.number
            and self.flex_color is other.flex_color
            and self.flip == other.flip
        )

    def __ne__(self, other: object) -> bool:
        if type(other) is not Card:
            return NotImplemented
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[Any, ...]:
        return (Card, (self.color, self.rank, self.number, self.flex_color, self.flip))

    def __str__(self) -> str:
        from unoengine.core.cards import format_card

        return format_card(self)

    def __repr__(self) -> str:
        from unoengine.core.cards import format_card

        return f"Card.parse({format_card(self)!r})"

    @staticmethod
    def parse(text: object) -> Card:
        """Parse card notation (``r7``, ``G2|y``, ``w+4``).

        Raises:
            InvalidNotationError: the text is not a card.
        """
        from unoengine.core.cards import parse_card

        return parse_card(text)

    @property
    def words(self) -> str:
        """The card in words, for screen readers (F-5): ``green 2, flex side yellow``."""
        from unoengine.core.cards import card_words

        return card_words(self)


class Play:
    """Play a card: ``R7``, ``W:g``, ``G2|Y@flex``, ``FW+4@flex:y>3``, ``R7 uno``."""

    __match_args__: ClassVar[tuple[str, ...]] = ("card", "color", "flex", "target", "uno")

    def __init__(
        self,
        card: Card,
        color: Color | None = None,
        flex: bool = False,
        target: Seat | None = None,
        uno: bool = False,
    ) -> None:
        self.card: Final = card
        self.color: Final = color
        self.flex: Final = flex
        self.target: Final = target
        self.uno: Final = uno
        self._hash: Final[int] = hash((card, color, flex, target, uno))
        """The hash of the fields, computed once, as a card's (the action-id tables look plays up by value)."""

    def __eq__(self, other: object) -> bool:
        if type(other) is not Play:
            return NotImplemented
        return self is other or (
            self.card == other.card
            and self.color is other.color
            and self.flex == other.flex
            and self.target == other.target
            and self.uno == other.uno
        )

    def __ne__(self, other: object) -> bool:
        if type(other) is not Play:
            return NotImplemented
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[Any, ...]:
        return (Play, (self.card, self.color, self.flex, self.target, self.uno))

    def __repr__(self) -> str:
        return (
            f"Play(card={self.card!r}, color={self.color!r}, flex={self.flex!r}, target={self.target!r}, "
            f"uno={self.uno!r})"
        )

    def __str__(self) -> str:
        from unoengine.core.actions import format_action

        return format_action(self)


class Draw:
    """``draw``: a turn's draw, or taking a Duo volley's total (D-13)."""

    __match_args__: ClassVar[tuple[str, ...]] = ()

    def __eq__(self, other: object) -> bool:
        return True if type(other) is Draw else NotImplemented

    def __ne__(self, other: object) -> bool:
        return False if type(other) is Draw else NotImplemented

    def __hash__(self) -> int:
        return hash(())

    def __reduce__(self) -> tuple[Any, ...]:
        return (Draw, ())

    def __repr__(self) -> str:
        return "Draw()"

    def __str__(self) -> str:
        return "draw"


class Pass:
    """``pass``: keep the drawn card (C-8), or decline a Duo Reverse dump (D-15)."""

    __match_args__: ClassVar[tuple[str, ...]] = ()

    def __eq__(self, other: object) -> bool:
        return True if type(other) is Pass else NotImplemented

    def __ne__(self, other: object) -> bool:
        return False if type(other) is Pass else NotImplemented

    def __hash__(self) -> int:
        return hash(())

    def __reduce__(self) -> tuple[Any, ...]:
        return (Pass, ())

    def __repr__(self) -> str:
        return "Pass()"

    def __str__(self) -> str:
        return "pass"


class CallUno:
    """``uno``: the seat down to one card calls UNO (C-18, C-19)."""

    __match_args__: ClassVar[tuple[str, ...]] = ()

    def __eq__(self, other: object) -> bool:
        return True if type(other) is CallUno else NotImplemented

    def __ne__(self, other: object) -> bool:
        return False if type(other) is CallUno else NotImplemented

    def __hash__(self) -> int:
        return hash(())

    def __reduce__(self) -> tuple[Any, ...]:
        return (CallUno, ())

    def __repr__(self) -> str:
        return "CallUno()"

    def __str__(self) -> str:
        return "uno"


class Catch:
    """``catch N``: catch seat N, who has one card and has not called (C-18)."""

    __match_args__: ClassVar[tuple[str, ...]] = ("seat",)

    def __init__(self, seat: Seat) -> None:
        self.seat: Final = seat
        self._hash: Final[int] = hash((seat,))
        """The hash of the seat, computed once."""

    def __eq__(self, other: object) -> bool:
        if type(other) is not Catch:
            return NotImplemented
        return self.seat == other.seat

    def __ne__(self, other: object) -> bool:
        if type(other) is not Catch:
            return NotImplemented
        return self.seat != other.seat

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[Any, ...]:
        return (Catch, (self.seat,))

    def __repr__(self) -> str:
        return f"Catch(seat={self.seat!r})"

    def __str__(self) -> str:
        return f"catch {self.seat}"


class Accept:
    """``accept``: draw the Wild Draw Four's cards (C-17, D-18, F-24)."""

    __match_args__: ClassVar[tuple[str, ...]] = ()

    def __eq__(self, other: object) -> bool:
        return True if type(other) is Accept else NotImplemented

    def __ne__(self, other: object) -> bool:
        return False if type(other) is Accept else NotImplemented

    def __hash__(self) -> int:
        return hash(())

    def __reduce__(self) -> tuple[Any, ...]:
        return (Accept, ())

    def __repr__(self) -> str:
        return "Accept()"

    def __str__(self) -> str:
        return "accept"


class Challenge:
    """``challenge``: challenge a Wild Draw Four (C-17, D-18, F-24)."""

    __match_args__: ClassVar[tuple[str, ...]] = ()

    def __eq__(self, other: object) -> bool:
        return True if type(other) is Challenge else NotImplemented

    def __ne__(self, other: object) -> bool:
        return False if type(other) is Challenge else NotImplemented

    def __hash__(self) -> int:
        return hash(())

    def __reduce__(self) -> tuple[Any, ...]:
        return (Challenge, ())

    def __repr__(self) -> str:
        return "Challenge()"

    def __str__(self) -> str:
        return "challenge"


class Keep:
    """``keep``: keep the drafted card (D-3)."""

    __match_args__: ClassVar[tuple[str, ...]] = ()

    def __eq__(self, other: object) -> bool:
        return True if type(other) is Keep else NotImplemented

    def __ne__(self, other: object) -> bool:
        return False if type(other) is Keep else NotImplemented

    def __hash__(self) -> int:
        return hash(())

    def __reduce__(self) -> tuple[Any, ...]:
        return (Keep, ())

    def __repr__(self) -> str:
        return "Keep()"

    def __str__(self) -> str:
        return "keep"


class Reject:
    """``reject``: reject the drafted card and take the next one (D-3)."""

    __match_args__: ClassVar[tuple[str, ...]] = ()

    def __eq__(self, other: object) -> bool:
        return True if type(other) is Reject else NotImplemented

    def __ne__(self, other: object) -> bool:
        return False if type(other) is Reject else NotImplemented

    def __hash__(self) -> int:
        return hash(())

    def __reduce__(self) -> tuple[Any, ...]:
        return (Reject, ())

    def __repr__(self) -> str:
        return "Reject()"

    def __str__(self) -> str:
        return "reject"


class ChooseColor:
    """``color g``: name a colour outside a play (Duo start, D-6)."""

    __match_args__: ClassVar[tuple[str, ...]] = ("color",)

    def __init__(self, color: Color) -> None:
        self.color: Final = color
        self._hash: Final[int] = hash((color,))
        """The hash of the colour, computed once (an ``Enum``'s hash is Python code)."""

    def __eq__(self, other: object) -> bool:
        if type(other) is not ChooseColor:
            return NotImplemented
        return self.color is other.color

    def __ne__(self, other: object) -> bool:
        if type(other) is not ChooseColor:
            return NotImplemented
        return self.color is not other.color

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[Any, ...]:
        return (ChooseColor, (self.color,))

    def __repr__(self) -> str:
        return f"ChooseColor(color={self.color!r})"

    def __str__(self) -> str:
        return f"color {self.color.letter}"


def _set_once(self: object, name: str, value: object) -> None:
    try:
        object.__getattribute__(self, name)
    except AttributeError:  # not set yet: ``__init__`` sets it
        object.__setattr__(self, name, value)
        return
    raise AttributeError(f"cannot set {name!r}: a {type(self).__name__} is a value, its fields are read-only")


def _never_delete(self: object, name: str) -> None:
    raise AttributeError(f"cannot delete {name!r}: a {type(self).__name__} is a value, its fields are read-only")


def read_only_when_pure(*classes: type) -> None:
    """Make the fields of ``classes`` read-only in the pure build, as the compiled build's ``Final`` fields are
    (there nothing is done: they refuse to be set in C). In the pure build each field may be set once, by
    ``__init__``; setting it again, or deleting it, raises ``AttributeError``. Which build runs is read from this
    module's own file (the core's modules are compiled together, and the core imports nothing outside it).
    """
    if not __file__.endswith(".py"):
        return
    for cls in classes:
        setattr(cls, "__setattr__", _set_once)  # noqa: B010 (a method set on the class, not an attribute)
        setattr(cls, "__delattr__", _never_delete)  # noqa: B010


read_only_when_pure(
    Card,
    Play,
    Draw,
    Pass,
    CallUno,
    Catch,
    Accept,
    Challenge,
    Keep,
    Reject,
    ChooseColor,
)


__all__ = [
    "Accept",
    "CallUno",
    "Card",
    "Catch",
    "Challenge",
    "ChooseColor",
    "Draw",
    "Keep",
    "Pass",
    "Play",
    "Reject",
]
