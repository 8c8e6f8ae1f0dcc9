"""The rule sets: ``RULESETS`` by name and :func:`find_rules`."""

from __future__ import annotations

from unoengine.core.errors import InvalidNotationError, excerpt
from unoengine.core.rules.classic import CLASSIC
from unoengine.core.rules.duo import DUO
from unoengine.core.rules.flex import FLEX
from unoengine.core.rules.nomercy import NO_MERCY
from unoengine.core.rules.option_specs import Options
from unoengine.core.rules.ruleset import RuleSet

RULESETS: dict[str, RuleSet] = {rules.name: rules for rules in (CLASSIC, DUO, FLEX, NO_MERCY)}


def find_rules(name: str) -> RuleSet:
    """The rule set called ``name`` or one of its aliases, any case.

    >>> find_rules("Flex").title
    'UNO Flex!'

    Raises:
        InvalidNotationError: no such rule set.
    """
    key = name.strip().lower() if isinstance(name, str) else ""
    for rules in RULESETS.values():
        if key == rules.name or key in rules.aliases:
            return rules
    raise InvalidNotationError(f"unknown rules {excerpt(name)} (known: {', '.join(RULESETS)})")


__all__ = ["CLASSIC", "DUO", "FLEX", "NO_MERCY", "RULESETS", "Options", "RuleSet", "find_rules"]
