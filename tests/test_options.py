"""Options belong to rule sets: one declaration (OptionSpec), one text parser, the presets (H-1 … H-8)."""

from __future__ import annotations

import pytest

from unoengine import CLASSIC, DUO, FLEX, PRESETS, InvalidNotationError, new_game, option_specs, parse_options
from unoengine.core.options import parse_option_value


def test_a_games_options_hold_only_its_rule_sets_keys() -> None:
    assert "duo_deck" not in CLASSIC.default_options.to_dict()
    assert "duo_deck" in DUO.default_options.to_dict()
    assert "stack_draw" not in DUO.default_options.to_dict()
    assert set(new_game("flex", 2, seed=1).options.to_dict()) == {spec.name for spec in option_specs("flex")}


def test_each_option_is_declared_once_with_rule_and_words() -> None:
    for rules in (CLASSIC, DUO, FLEX):
        names = [spec.name for spec in rules.option_specs]
        assert names == sorted(set(names))
        for spec in rules.option_specs:
            assert spec.rule and spec.words and rules.name in spec.rulesets
            spec.check(spec.default, rules.title)


def test_bool_values_are_exactly_true_or_false() -> None:
    spec = CLASSIC.option_spec("jump_in")
    assert parse_option_value(spec, "true") is True
    assert parse_option_value(spec, "FALSE") is False
    for word in ("yes", "on", "1", ""):
        with pytest.raises(InvalidNotationError, match="'jump_in' must be true or false"):
            parse_option_value(spec, word)


def test_integer_values_are_digits_only() -> None:
    spec = CLASSIC.option_spec("target_score")
    assert parse_option_value(spec, " 250 ") == 250
    for word in ("1_000", "2.5", "true", "ten", "+-3", "--3", "٣", "0x10", "1e3", "+", ""):
        with pytest.raises(InvalidNotationError, match="'target_score' must be a whole number"):
            parse_option_value(spec, word)


def test_integer_values_take_a_sign_and_18_digits_as_the_readme_promises() -> None:
    """docs/CLI.md, "Numbers on the command line": ASCII digits, a sign allowed, at most 18 digits; then the range."""
    spec = CLASSIC.option_spec("target_score")
    assert parse_option_value(spec, "+250") == 250
    assert parse_option_value(spec, "-3") == -3
    assert parse_option_value(spec, "9" * 18) == 10**18 - 1
    assert parse_option_value(spec, "-" + "9" * 18) == -(10**18 - 1)
    for word in ("1" * 19, "+" + "1" * 19):
        with pytest.raises(InvalidNotationError, match="'target_score' must be a whole number"):
            parse_option_value(spec, word)
    assert parse_options("classic", ["target_score=" + "9" * 18]).target_score == 10**18 - 1
    with pytest.raises(InvalidNotationError, match=r"'target_score' must be at least 1, not -5 \(C-21"):
        parse_options("classic", ["target_score=-5"])


def test_the_server_create_table_form_reads_option_text_with_the_same_parser() -> None:
    from unoengine.server.protocol import ProtocolError, parse_settings

    settings, _ = parse_settings({"rules": "classic", "options": {"target_score": "+" + "1" * 18}})
    assert dict(settings.options)["target_score"] == int("1" * 18)
    with pytest.raises(ProtocolError, match="'target_score' must be at least 1, not -5"):
        parse_settings({"rules": "classic", "options": {"target_score": "-5"}})
    with pytest.raises(ProtocolError, match="'target_score' must be a whole number"):
        parse_settings({"rules": "classic", "options": {"target_score": "1" * 19}})


def test_a_bool_is_refused_for_an_integer_option() -> None:
    with pytest.raises(InvalidNotationError, match="'target_score' must be an integer, not True"):
        CLASSIC.options({"target_score": True})
    with pytest.raises(InvalidNotationError, match="'target_score' must be an integer"):
        new_game("classic", 2, seed=1, options={"target_score": True})
    with pytest.raises(InvalidNotationError, match="'jump_in' must be true or false, not 1"):
        CLASSIC.options({"jump_in": 1})


def test_an_option_a_rule_set_cannot_have_is_refused_naming_option_and_rule_set() -> None:
    with pytest.raises(InvalidNotationError, match=r"'stack_draw' \(H-1\) is not available in UNO Duo: .*D-13"):
        parse_options("duo", ["stack_draw=mixed"])
    with pytest.raises(InvalidNotationError, match=r"'jump_in' \(H-3\) is not available in UNO Flex!"):
        FLEX.options({"jump_in": True})
    with pytest.raises(InvalidNotationError, match="unknown option 'duo_deck' for classic"):
        CLASSIC.options({"duo_deck": "standard108"})


def test_values_out_of_range_and_bad_words_are_refused() -> None:
    with pytest.raises(InvalidNotationError, match="'hand_size' must be from 1 to 20, not 0"):
        parse_options("classic", {"hand_size": "0"})
    with pytest.raises(InvalidNotationError, match="'stack_draw' must be 'none' or"):
        parse_options("classic", {"stack_draw": "all"})
    with pytest.raises(InvalidNotationError, match="must be written key=value"):
        parse_options("classic", ["stack_draw"])
    with pytest.raises(InvalidNotationError, match="cannot both be on"):
        parse_options("classic", ["draw_until_playable=true", "draw_to_match=true"])


def test_presets() -> None:
    assert parse_options("classic", preset="official") == CLASSIC.default_options
    house = parse_options("classic", preset="mattel_house")
    assert (house.stack_draw, house.draw_to_match) == ("same", True)
    mobile = parse_options("classic", preset="mobile")
    assert (mobile.stack_draw, mobile.seven_zero, mobile.forced_play) == ("same", True, True)
    party = parse_options("classic", preset="party")
    assert (party.stack_draw, party.jump_in, party.seven_zero, party.draw_until_playable) == ("mixed", True, True, True)
    # a preset sets only what the rule set has; given options apply on top
    duo = parse_options("duo", ["draw_until_playable=false"], preset="mobile")
    assert duo.forced_play is True and duo.draw_until_playable is False
    assert parse_options("duo", preset="party").draw_until_playable is True
    crazy = parse_options("classic", preset="crazy")
    assert (crazy.stack_draw, crazy.deflect, crazy.jump_in, crazy.seven_zero, crazy.multi_play) == (
        "mixed",
        "both",
        True,
        True,
        True,
    )
    assert parse_options("flex", preset="crazy") == parse_options("flex"), "Flex! has none of crazy's options"
    assert set(PRESETS) == {"official", "mattel_house", "mobile", "party", "crazy"}
    with pytest.raises(InvalidNotationError, match="unknown preset 'wild'"):
        parse_options("classic", preset="wild")


def test_no_bluff_is_wild_draw_four_strict_in_every_rule_set() -> None:
    for rules in ("classic", "duo", "flex"):
        assert parse_options(rules, ["wild_draw_four=strict"]).wild_draw_four == "strict"
