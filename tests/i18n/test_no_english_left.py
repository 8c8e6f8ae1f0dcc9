"""With the shipped catalogs, nothing a player reads is left in English: over random games of every rule
set and house rule, every decision's words, every action's label, sentence and question, every card's
words and effect, and every narrated line, said in Khmer, Sinhala and Lao, hold no English sentence."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from unoengine.core.action_words import action_infos, describe_card
from unoengine.core.engine import apply, legal_actions, new_game
from unoengine.core.rules import find_rules
from unoengine.core.views import view_for
from unoengine.i18n import translate
from unoengine.play.narrator import Names, first_card, name_seats, narrate

CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("classic", 3, {"wild_draw_four": "challenge", "single_round": False, "target_score": 40}),
    ("classic", 4, {"stack_draw": "mixed", "seven_zero": True, "jump_in": True, "multi_play": True}),
    ("classic", 4, {"teams": "pairs", "stack_draw": "same", "deflect": "both", "forced_play": True}),
    ("classic", 2, {"draw_to_match": True, "uno_penalty": 4, "hand_size": 5}),
    ("duo", 2, {"single_round": False, "target_score": 30}),
    ("flex", 4, {"single_round": False, "target_score": 40, "draw_until_playable": True}),
    ("nomercy", 4, {"single_round": False, "target_score": 200}),
    ("nomercy", 2, {"uno_penalty": 4}),
]
ENGLISH = re.compile(r"\b[a-z]{3,}(?: [a-z]{2,}){2,}\b")
"""Three English words in a row (lower case: names kept in Latin, "Wild Draw Four", are capitalised)."""
NAMES = ("Ann", "Bob", "Cy", "Dee")


def english_in(text: str) -> list[str]:
    return ENGLISH.findall(text)


@pytest.mark.parametrize("lang", ["km", "si", "lo"])
@pytest.mark.parametrize(
    ("rules", "seats", "options"), CONFIGS, ids=[f"{c[0]}-{c[1]}-{i}" for i, c in enumerate(CONFIGS)]
)
def test_a_game_said_in_a_language_holds_no_english(lang: str, rules: str, seats: int, options: dict[str, Any]) -> None:
    found: dict[str, str] = {}
    ruleset = find_rules(rules)
    for seed in range(3):
        state = new_game(rules, seats, seed=seed, options=options)
        rng = random.Random(seed)
        names = Names(NAMES[:seats], 0)
        opening = first_card(view_for(state, 0), names)
        texts: list[str] = [] if opening is None else [translate(opening, lang)]
        for _ in range(300):
            if state.is_over:
                break
            seat = state.to_act
            assert seat is not None
            view = view_for(state, seat)
            reader = Names(NAMES[:seats], seat)
            words = view.words
            texts += [name_seats(translate(words.title, lang), reader, lang)]
            texts += [name_seats(translate(words.prompt, lang), reader, lang)]
            for info in action_infos(view, ruleset):
                for text in (info.label, info.words, info.aim):
                    texts.append(name_seats(translate(text, lang), reader, lang))
            for card in view.hand:
                texts.append(translate(card.words, lang))
                texts.append(translate(describe_card(ruleset, dict(view.options), card), lang))
            actions = legal_actions(state, seat)
            before = view_for(state, 0)
            step = apply(state, seat, rng.choice(actions))
            state = step.state
            for line in narrate(before, step.events, view_for(state, 0), names, state.tables.cards):
                texts.append(translate(line, lang))
        for text in texts:
            for run in english_in(text):
                found.setdefault(run, text)
    assert not found, f"{len(found)} English run(s) said in {lang}:\n" + "\n".join(
        f"{run!r} in {text!r}" for run, text in list(found.items())[:30]
    )
