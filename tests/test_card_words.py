"""What cards do, in words: each rule set describes its own cards (interfaces show these, never restate rules)."""

from __future__ import annotations

from unoengine import RULESETS, parse_card, view_for
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
