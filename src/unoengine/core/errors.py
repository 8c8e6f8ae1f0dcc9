"""Typed errors. Both subclass :class:`ValueError`, as python-chess's do."""

from __future__ import annotations


class InvalidNotationError(ValueError):
    """Text that is not a card, an action, an option or a record."""


class IllegalActionError(ValueError):
    """An action the rules do not allow here (G-4).

    ``rule`` is the rule number that forbids it (``C-16``) and ``reason`` the
    reason in words; ``str(error)`` is ``"C-16 reason"``.
    """

    def __init__(self, rule: str, reason: str) -> None:
        super().__init__(f"{rule} {reason}")
        self.rule = rule
        self.reason = reason


class GameTooLongError(RuntimeError):
    """A played-out game passed its cap on actions (a safety net for simulations)."""


class RecordError(ValueError):
    """A game record that cannot be read: bad JSON, unknown keys, a wrong deck."""
