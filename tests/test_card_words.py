"""What cards do, in words: each rule set describes its own cards (interfaces show these, never restate rules)."""

from __future__ import annotations

from tests.helpers import deal
from unoengine import RULESETS, parse_card, view_for
from unoengine.cli.texts import effect, hand_order, hand_text
from unoengine.core.action_words import describe_card
from unoengine.core.views import view_to_json
from unoengine.play import Table


def test_f14_f19_f25_every_card_of_every_rule_set_has_words_for_each_of_its_sides() -> None:
    for rules in RULESETS.values():
        for value in rules.option_choices.get("duo_deck", ("standard112",)):
            options = rules.options({"duo_deck": value} if "duo_deck" in rules.option_names else {})
            for card in set(rules.make_deck(options)):
                normal = rules.describe_side(card, False)
                assert normal and card.words.split(", flex side")[0] in normal
                if card.is_flex:
                    assert rules.describe_side(card, True) not in ("", "no flex side")


def test_f21_a_flex_skip_says_what_each_side_does() -> None:
    flex = RULESETS["flex"]
    card = parse_card("RS|B")
    assert flex.describe_side(card, False) == "red Skip: the next player misses their turn"
    assert flex.describe_side(card, True) == "blue Skip: every other player is skipped, you play again"


def test_d15_duo_describes_its_own_reverse() -> None:
    assert "every card of its colour" in RULESETS["duo"].describe_side(parse_card("RR"), False)
    assert "direction" in RULESETS["classic"].describe_side(parse_card("RR"), False)


def test_the_json_view_names_what_the_viewer_s_cards_do() -> None:
    table = Table.new("flex", 3, seed=5)
    view = view_for(table.state, 0)
    sides = view_to_json(view)["sides"]
    for card in view.hand:
        normal, flex = sides[str(card)]
        assert normal == RULESETS["flex"].describe_side(card, False)
        assert (flex is None) == (not card.is_flex)
    assert view_to_json(view_for(table.state, None))["sides"].keys() <= {str(view.top), *map(str, view.discard_pile)}


def test_h2_under_seven_zero_a_7_and_a_0_say_what_they_do_in_both_clients() -> None:
    classic = RULESETS["classic"]
    seven_zero = classic.options({"seven_zero": True})
    assert describe_card(classic, seven_zero, parse_card("G7")) == "green 7: swap hands with a player you choose"
    assert (
        describe_card(classic, seven_zero, parse_card("G0")) == "green 0: every hand passes on in the direction of play"
    )
    assert describe_card(classic, classic.default_options, parse_card("G7")) == "green 7"  # the printed rules
    state = deal("classic", [["G7", "B0"], ["R1"]], top="G5", options={"seven_zero": True})
    view = view_for(state, 0)
    sides = view_to_json(view)["sides"]  # the browser's words
    assert sides["G7"] == ["green 7: swap hands with a player you choose", None]
    assert sides["B0"][0] == "blue 0: every hand passes on in the direction of play"
    assert effect(classic, parse_card("G7"), dict(view.options)) == sides["G7"][0]  # the terminal's words
    picked = hand_text(view, view.actions, hand_order(view.hand).index(parse_card("G7")), 200).plain
    assert "swap hands with a player you choose" in picked


def test_h1_h6_c17_draw_cards_say_when_they_stack_and_when_a_wild_draw_four_may_be_played() -> None:
    classic, duo = RULESETS["classic"], RULESETS["duo"]
    mixed = {"stack_draw": "mixed", "wild_draw_four": "challenge"}
    two = describe_card(classic, mixed, parse_card("R+2"))
    assert two.endswith("unless they stack a Draw Two or Wild Draw Four on it")
    four = describe_card(classic, mixed, parse_card("W+4"))
    assert "stack a Draw Two or Wild Draw Four" in four and "challenged" in four
    same = {"stack_draw": "same"}
    assert describe_card(classic, same, parse_card("R+2")).endswith("unless they stack a Draw Two on it")
    assert "only without a card of the current colour" in describe_card(classic, same, parse_card("W+4"))
    assert describe_card(classic, {"stack_draw": "draw_four"}, parse_card("R+2")) == classic.describe_side(
        parse_card("R+2"), False
    )
    strict = describe_card(duo, {"wild_draw_four": "strict"}, parse_card("W+4"))
    assert "challenges" not in strict and strict.endswith("(only without a card of the current colour)")
    assert describe_card(duo, duo.default_options, parse_card("W+4")) == duo.describe_side(parse_card("W+4"), False)


def test_h9_a_skip_and_a_reverse_say_they_pass_a_draw_total_on() -> None:
    classic = RULESETS["classic"]
    skip = describe_card(classic, {"deflect": "skip"}, parse_card("RS"))
    assert skip.endswith("; facing a draw total, passes it on to the next player")
    assert describe_card(classic, {"deflect": "skip"}, parse_card("RR")) == classic.describe_side(
        parse_card("RR"), False
    )
    assert describe_card(classic, {"deflect": "both"}, parse_card("RR")).endswith("sends it the other way")
