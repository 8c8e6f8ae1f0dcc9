"""Options from text, and the presets: the one parser every command uses.

A rule set declares its options once (``RuleSet.option_specs``, docs/RULES.md
H-1 …); this module turns what a person types (``stack_draw=mixed``,
``target_score=200``) into a game's :class:`~unoengine.core.rules.option_specs.Options`,
for ``uno simulate``, ``uno play``, ``uno serve``'s lobby and the library alike.

Text values: a yes/no option takes exactly ``true`` or ``false`` (any case);
an integer option takes ASCII digits only, a sign allowed (``500``, ``+500``;
no ``_``, no spaces inside, at most :data:`MAX_OPTION_DIGITS` digits: docs/CLI.md,
"Numbers on the command line"), then the option's range applies; a word option takes one of its words (any
case). Anything else is refused with a one-line message naming the option.

>>> from unoengine import parse_options
>>> options = parse_options("classic", ["stack_draw=mixed", "target_score=200"], preset="party")
>>> options.stack_draw, options.seven_zero, options.target_score
('mixed', True, 200)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from unoengine.core.errors import InvalidNotationError, excerpt
from unoengine.core.rules import RULESETS, find_rules
from unoengine.core.rules.option_specs import Options, OptionSpec
from unoengine.core.rules.ruleset import RuleSet
from unoengine.i18n import said

PRESETS: dict[str, dict[str, bool | int | str]] = {
    "official": {},
    "mattel_house": {"stack_draw": "same", "draw_to_match": True},
    "mobile": {"stack_draw": "same", "seven_zero": True, "forced_play": True},
    "party": {"stack_draw": "mixed", "jump_in": True, "seven_zero": True, "draw_until_playable": True},
    "crazy": {"stack_draw": "mixed", "deflect": "both", "jump_in": True, "seven_zero": True, "multi_play": True},
}
"""The presets (docs/RULES.md, "Presets"): a preset sets the options of its list that the rule set has.

- ``official``: the printed rules (the default; no house rule).
- ``mattel_house``: the Mattel sheet's optional rules: Stacking (a Draw Two on a
  Draw Two, a Wild Draw Four on a Wild Draw Four, no cross-stacking) and Draw to Match.
- ``mobile``: the UNO! app's Stack, 7-0 and Force Play.
- ``party``: mixed stacking, jump-in, 7-0 and draw until playable.
- ``crazy``: mixed stacking, deflecting with a Skip or a Reverse, jump-in, 7-0 and multi-play (H-10).
"""

PRESET_WORDS: dict[str, str] = {
    "official": said("the printed rules, no house rule"),
    "mattel_house": said("the Mattel sheet's optional rules: stacking (no cross-stacking) and draw to match"),
    # TRANSLATORS: "UNO!" is the name of the mobile app; Stack, 7-0 and Force Play are the app's names of its rules
    "mobile": said("the UNO! app's Stack, 7-0 and Force Play"),
    "party": said("mixed stacking, jump-in, 7-0 and draw until playable"),
    "crazy": said("mixed stacking, deflect with a Skip or a Reverse, jump-in, 7-0 and multi-play"),
}
"""One line per preset, for menus and ``uno rules --list-options``."""

PRESET_TITLES: dict[str, str] = {
    "official": said("Official rules"),
    "mattel_house": said("Mattel house rules"),
    # TRANSLATORS: the rules of the "UNO!" mobile app
    "mobile": said("UNO! app rules"),
    "party": said("Party"),
    "crazy": said("Crazy"),
}
"""Each preset's name in words, for the create-table form."""

MAX_OPTION_DIGITS = 18
"""The most digits of an integer option's value in text (a sign aside), as every number of the command line."""

_INTEGER = re.compile(rf"[+-]?[0-9]{{1,{MAX_OPTION_DIGITS}}}")


def option_specs(rules: str | RuleSet) -> tuple[OptionSpec, ...]:
    """Every option of a rule set (by name or value), sorted by name, with its defaults.

    >>> [spec.name for spec in option_specs("duo")][:3]
    ['draw_to_match', 'draw_until_playable', 'duo_deck']

    Raises:
        InvalidNotationError: unknown rules.
    """
    ruleset = rules if isinstance(rules, RuleSet) else find_rules(rules)
    return ruleset.option_specs


def parse_option_value(spec: OptionSpec, text: str) -> bool | int | str:
    """One option value from text, by the option's type (see the module's words).

    Raises:
        InvalidNotationError: the text is not a value of this option.
    """
    if not isinstance(text, str):
        raise InvalidNotationError(f"option {spec.name!r}: a value is text, not {excerpt(text)}")
    word = text.strip()
    if spec.kind is bool:
        if word.lower() not in ("true", "false"):
            raise InvalidNotationError(f"option {spec.name!r} must be true or false, not {excerpt(text)}")
        return word.lower() == "true"
    if spec.kind is int:
        if _INTEGER.fullmatch(word) is None:
            raise InvalidNotationError(f"option {spec.name!r} must be a whole number, not {excerpt(text)}")
        return int(word)
    return word.lower()


def _items(given: Mapping[str, object] | Iterable[str] | None) -> list[tuple[str, object]]:
    if given is None:
        return []
    if isinstance(given, Mapping):
        return list(given.items())
    if isinstance(given, str):
        raise InvalidNotationError(f"options are key=value items (a list), not one text {excerpt(given)}")
    out: list[tuple[str, object]] = []
    for item in given:
        if not isinstance(item, str):
            raise InvalidNotationError(f"an option is written key=value, not {excerpt(item)}")
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise InvalidNotationError(f"option {excerpt(item)} must be written key=value")
        out.append((key.strip(), value))
    return out


def preset_options(rules: RuleSet, preset: str) -> dict[str, bool | int | str]:
    """The options a preset sets in this rule set (those of its list the rule set has).

    Raises:
        InvalidNotationError: no such preset.
    """
    key = preset.strip().lower() if isinstance(preset, str) else ""
    if key not in PRESETS:
        raise InvalidNotationError(f"unknown preset {excerpt(preset)} (known: {', '.join(PRESETS)})")
    names = rules.option_names
    return {name: value for name, value in PRESETS[key].items() if name in names}


def parse_options(
    rules: str | RuleSet,
    given: Mapping[str, object] | Iterable[str] | None = None,
    *,
    preset: str | None = None,
) -> Options:
    """A game's options: the rule set's defaults, then the preset's, then ``given``.

    ``given`` is a mapping (values as text, ``"true"``, or typed, ``True``) or
    ``key=value`` items (``["stack_draw=mixed"]``). A key given twice: the last
    wins. A bool is never an integer (``target_score: true`` is refused).

    Raises:
        InvalidNotationError: unknown rules or preset, an option the rule set does not
            have (the message names it and the rule set), a bad value or combination.
    """
    ruleset = rules if isinstance(rules, RuleSet) else find_rules(rules)
    values: dict[str, Any] = {} if preset is None else preset_options(ruleset, preset)
    for name, raw in _items(given):
        spec = ruleset.option_spec(name)
        values[name] = parse_option_value(spec, raw) if isinstance(raw, str) else raw
    return ruleset.options(values)


def option_text(value: object) -> str:
    """An option's value as ``key=value`` writes it: ``true``/``false``, a number, a word."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def changed_options(rules: str | RuleSet, options: Options | Mapping[str, object]) -> dict[str, object]:
    """The options of ``options`` (resolved, or a mapping) that differ from the rule set's defaults, by name.

    >>> changed_options("classic", parse_options("classic", ["wild_draw_four=strict", "jump_in=true"]))
    {'jump_in': True}
    """
    ruleset = rules if isinstance(rules, RuleSet) else find_rules(rules)
    given = options.to_dict() if isinstance(options, Options) else dict(options)
    defaults = {spec.name: spec.default for spec in ruleset.option_specs}
    return {
        name: value
        for name, value in sorted(given.items())
        if name in defaults and (value != defaults[name] or type(value) is not type(defaults[name]))
    }


def describe_options(
    rules: str | RuleSet,
    options: Options | Mapping[str, object],
    preset: str | None = None,
    *,
    leave_out: Iterable[str] = (),
) -> str:
    """The preset and options a game is played with, in a few words, for headers and chart titles.

    Only the options that differ from the rule set's defaults are named (``leave_out``:
    names a header shows otherwise, as ``single_round``); without any, ``official rules``.

    >>> describe_options("classic", parse_options("classic", preset="party"), "party")
    'preset party (draw_until_playable=true, jump_in=true, seven_zero=true, stack_draw=mixed)'
    >>> describe_options("duo", parse_options("duo", ["target_score=300"]))
    'target_score=300'
    >>> describe_options("flex", parse_options("flex"), "official")
    'official rules'
    """
    skipped = set(leave_out)
    items = [
        f"{name}={option_text(value)}" for name, value in changed_options(rules, options).items() if name not in skipped
    ]
    listed = ", ".join(items)
    name = preset.strip().lower() if isinstance(preset, str) else None
    if name in (None, "official"):
        return listed or "official rules"
    return f"preset {name} ({listed or 'official rules'})"


def option_rulesets(name: str) -> tuple[str, ...]:
    """The rule sets that have the option ``name`` (empty: no such option)."""
    return tuple(ruleset.name for ruleset in RULESETS.values() if name in ruleset.option_names)


__all__ = [
    "MAX_OPTION_DIGITS",
    "PRESETS",
    "PRESET_TITLES",
    "PRESET_WORDS",
    "OptionSpec",
    "Options",
    "changed_options",
    "describe_options",
    "option_rulesets",
    "option_specs",
    "option_text",
    "parse_option_value",
    "parse_options",
    "preset_options",
]
