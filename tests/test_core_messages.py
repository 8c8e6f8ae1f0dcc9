"""The core's words are messages (unoengine.i18n): each is a ``Said`` that is its English text and can be said
in another language, so that no word a person reads is left as a plain f-string (docs/LANGUAGES.md).

Random games of every rule set, with house rules, visit every decision; every view's decision words, every
legal action's label, words and aim, every card's words and meanings, every logged action and every refusal
must be a ``Said`` that renders in Khmer without error.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from tests.helpers import random_moves
from unoengine import i18n
from unoengine.core import actions as A
from unoengine.core.action_words import describe_card, past_words
from unoengine.core.cards import COLORS, Card, card_words, parse_card
from unoengine.core.engine import apply, legal_actions, new_game, refusal
from unoengine.core.errors import IllegalActionError
from unoengine.core.house import HOUSE_OPTIONS
from unoengine.core.options import PRESET_WORDS, option_specs
from unoengine.core.rules import RULESETS, find_rules
from unoengine.core.rules.summaries import SUMMARIES, summary
from unoengine.core.state import GameState
from unoengine.core.views import view_for, view_to_json
from unoengine.i18n import Said, translate

CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("classic", 2, {"wild_draw_four": "strict"}),
    ("classic", 3, {"wild_draw_four": "challenge", "single_round": False, "target_score": 40}),
    (
        "classic",
        4,
        {"stack_draw": "mixed", "wild_draw_four": "challenge", "seven_zero": True, "jump_in": True, "multi_play": True},
    ),
    ("classic", 4, {"stack_draw": "draw_two", "deflect": "skip", "teams": "pairs", "forced_play": True}),
    ("classic", 3, {"deflect": "both", "draw_to_match": True, "uno_penalty": 4}),
    ("classic", 3, {"stack_draw": "same", "deflect": "reverse", "hand_size": 3}),
    ("duo", 2, {"single_round": False, "target_score": 30}),
    ("duo", 2, {"wild_draw_four": "strict", "duo_deck": "standard108"}),
    ("flex", 2, {"wild_draw_four": "strict"}),
    ("flex", 4, {"single_round": False, "target_score": 40, "draw_until_playable": True}),
    ("flex", 4, {"teams": "pairs"}),
]
"""Rule sets, seat counts and options whose random games reach every decision (Duo's, the house rules')."""


def is_message(text: object) -> bool:
    """A ``Said`` whose English is itself and which renders in Khmer (catalog or not) as text."""
    assert isinstance(text, Said), f"not a message: {text!r}"
    assert translate(text, "en") == text
    assert isinstance(translate(text, "km"), str)
    return True


def playout(
    rules: str, seats: int, options: dict[str, Any], seed: int, steps: int
) -> Iterator[tuple[GameState, int, A.Action]]:
    """The states of a random game, each with the seat that acts and the action it takes."""
    for state, seat, action in random_moves(rules, seats, options, seed, steps, salt="messages"):
        if action is not None:
            yield state, seat, action


def tried(state: GameState, seat: int, rng: random.Random) -> list[A.Action]:
    """Actions a person could try, most of them illegal here."""
    kinds = sorted(set(state.tables.cards), key=str)
    out: list[A.Action] = [A.DRAW, A.PASS, A.CallUno(), A.ACCEPT, A.CHALLENGE, A.KEEP, A.REJECT]
    out += [A.ChooseColor(rng.choice(COLORS)), A.Catch(rng.randrange(-1, state.seats + 1))]
    for _ in range(4):
        target = rng.choice([None, None, rng.randrange(-1, state.seats + 1)])
        color = rng.choice([None, *COLORS])
        out.append(A.Play(rng.choice(kinds), color, rng.random() < 0.3, target, rng.random() < 0.2))
    return out


@pytest.mark.parametrize(("rules", "seats", "options"), CONFIGS)
def test_every_word_of_a_game_is_a_message(rules: str, seats: int, options: dict[str, Any]) -> None:
    ruleset = find_rules(rules)
    seen: set[str] = set()
    rng = random.Random(f"tried:{rules}:{seats}")
    for seed in range(2):
        for state, actor, action in playout(rules, seats, options, seed, steps=120):
            seen.add(state.pending.kind)
            for seat in (None, *range(seats)):
                view = view_for(state, seat)
                assert is_message(view.words.title) and is_message(view.words.prompt)
                for info in view.actions:
                    assert is_message(info.label) and is_message(info.words)
                    assert info.aim == "" or is_message(info.aim)
                for card in view.hand:
                    assert is_message(card.words)
                for sides in view_to_json(view)["sides"].values():
                    assert all(side is None or is_message(side) for side in sides)
            assert is_message(past_words(ruleset, action))
            legal = legal_actions(state, actor)
            for attempt in tried(state, actor, rng):
                if attempt not in legal:
                    rule, reason = refusal(state, actor, attempt)
                    assert is_message(reason), (rule, reason)
    assert {"turn", "drawn"} <= seen


@pytest.mark.parametrize("rules", sorted(RULESETS))
def test_every_card_of_every_deck_is_worded_in_messages(rules: str) -> None:
    ruleset = find_rules(rules)
    tables = new_game(rules, ruleset.seats[0], seed=1).tables
    option_sets: list[dict[str, Any]] = [{"wild_draw_four": "strict"}, {"wild_draw_four": "challenge"}]
    if rules == "classic":
        option_sets += [
            {"stack_draw": mode, "deflect": deflect, "seven_zero": True, "multi_play": True}
            for mode in ("draw_two", "draw_four", "same", "mixed")
            for deflect in ("skip", "reverse", "both")
        ]
    for card in sorted(set(tables.cards), key=str):
        assert is_message(card.words) and is_message(card_words(card))
        for options in option_sets:
            assert is_message(describe_card(ruleset, options, card))
            if card.is_flex:
                assert is_message(describe_card(ruleset, options, card, True))


def test_the_english_stays_the_english() -> None:
    """A few words as they always were (the other tests of words check the rest)."""
    classic, flex, duo = find_rules("classic"), find_rules("flex"), find_rules("duo")
    assert parse_card("G2|Y").words == "green 2, flex side yellow"
    assert parse_card("R5!").words == "red 5 with flip symbol"
    assert describe_card(flex, {}, parse_card("G2|Y"), True) == "yellow"
    assert (
        describe_card(flex, {}, parse_card("BS|R"), True) == "red Skip: every other player is skipped, you play again"
    )
    assert describe_card(flex, {"wild_draw_four": "strict"}, parse_card("FW+4"), True) == (
        "name the colour; a player you choose draws 4 (only without a card of the current colour)"
    )
    assert describe_card(duo, {"wild_draw_four": "strict"}, parse_card("W+4")) == (
        "Wild Draw Four: name the colour; the other player draws 4 (only without a card of the current colour)"
    )
    assert describe_card(classic, {"wild_draw_four": "challenge"}, parse_card("W+4")) == (
        "Wild Draw Four: name the colour; the next player draws 4 and misses their turn "
        "(it may be a bluff, and be challenged)"
    )
    assert past_words(classic, A.parse_action("W:b uno")) == "played Wild, naming blue, and called UNO"
    assert past_words(classic, A.parse_action("catch 1")) == "caught seat 1"


def test_a_message_is_said_in_the_readers_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """Card words, a card's meaning and an action are translated part by part: the colour inside the card,
    the card inside the sentence; seats and numbers are left to the clients."""
    fake = {
        "green": "«green»",
        "{color} {number}": "«{number} of {color}»",
        "Play {card}": "«play {card}»",
        "{first}, {rest}": "{first} + {rest}",
        "and call UNO": "«uno»",
        "caught {seat}": "«caught {seat}»",
    }
    monkeypatch.setattr(i18n, "_catalog", lambda lang: fake if lang == "km" else {})
    card = parse_card("G7")
    assert translate(card.words, "km") == "«7 of «green»»"
    state = new_game("classic", 2, seed=3)
    view = view_for(state, state.to_act)
    play = next(info for info in view.actions if info.type == "play" and not info.uno)
    assert translate(play.words, "km").startswith("«play ")
    assert translate(past_words(find_rules("classic"), A.Catch(1)), "km") == "«caught seat 1»"
    uno = A.Play(card, uno=True)
    assert translate(past_words(find_rules("classic"), uno), "km") == "played «7 of «green»» + and called UNO"


def test_option_and_preset_words_are_messages() -> None:
    for rules in RULESETS:
        for spec in option_specs(rules):
            assert is_message(spec.words)
    for spec in HOUSE_OPTIONS:
        assert is_message(spec.words)
        for _, why in spec.absent:
            assert is_message(why)
    for words in PRESET_WORDS.values():
        assert is_message(words)


def test_summaries_say_each_rule_set() -> None:
    assert set(SUMMARIES) == set(RULESETS)
    for name, text in SUMMARIES.items():
        assert is_message(text)
        assert summary(name) is text
        assert text.startswith(find_rules(name).title)
    assert summary("uno duo") is SUMMARIES["duo"]


def test_a_refused_action_says_why_in_a_message() -> None:
    state = new_game("classic", 3, seed=5)
    seat = state.to_act
    assert seat is not None
    held = {str(card) for card in view_for(state, seat).hand}
    missing = next(
        card for card in sorted(set(state.tables.cards), key=str) if str(card) not in held and not card.is_wild
    )
    with pytest.raises(IllegalActionError) as refused:
        apply(state, seat, A.Play(missing))
    assert is_message(refused.value.reason)
    assert str(refused.value) == f"{refused.value.rule} {refused.value.reason}"
    other = (seat + 1) % 3
    with pytest.raises(IllegalActionError) as out_of_turn:
        apply(state, other, A.DRAW)
    assert out_of_turn.value.reason == f"it is seat {seat}'s decision (turn), not seat {other}'s"
    assert is_message(out_of_turn.value.reason)


def test_a_card_is_worded_once() -> None:
    """``card_words`` is cached: the same ``Said`` each time (a view names its cards at every step)."""
    card = Card.parse("B+2")
    assert card_words(card) is card_words(card) and card.words == "blue Draw Two"
