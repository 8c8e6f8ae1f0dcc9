"""Bots read the game they are in from their view (never another game's defaults)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from unoengine import view_for
from unoengine.bots import heuristic
from unoengine.bots.heuristic import HeuristicBot
from unoengine.core.rules import find_rules
from unoengine.play import Table


def challenge_view(options: dict[str, Any]) -> Any:
    """A Duo view of a seat that may challenge a Wild Draw Four (played by seeded bots)."""
    for seed in range(300):
        bots = [HeuristicBot(random.Random(seed)), HeuristicBot(random.Random(seed + 1))]
        table = Table.new("duo", 2, seed=seed, options={"single_round": True, **options}, controllers=bots)
        while (step := table.bot_step()) is not None:
            if step.state.pending.kind == "challenge":
                return view_for(step.state, step.state.to_act)
    raise AssertionError("no challenge in 300 games")


def test_the_heuristic_counts_unseen_cards_of_the_game_s_own_deck(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []
    real = find_rules

    class Spy:
        def __init__(self, name: str) -> None:
            self.rules = real(name)

        def options(self, given: dict[str, Any]) -> Any:
            resolved = self.rules.options(given)
            seen.append(resolved.duo_deck)
            return resolved

        def make_deck(self, options: Any) -> Any:
            return self.rules.make_deck(options)

    view = challenge_view({"duo_deck": "standard108"})
    monkeypatch.setattr(heuristic, "find_rules", Spy)
    HeuristicBot(random.Random(0)).choose(view, view.legal)
    assert seen == ["standard108"]


@pytest.mark.parametrize("name", ["random", "uniform"])
def test_the_baseline_bots_pickle_and_take_a_new_generator(name: str) -> None:
    """``random`` and ``uniform`` keep their generator's bound ``random`` beside it: assigning ``bot.rng``
    rebinds the draws, and a bot pickles and copies with its generator (both builds)."""
    import copy
    import pickle

    from unoengine import legal_actions, new_game
    from unoengine.bots import make_bot

    state = new_game("classic", 2, seed=3)
    legal = legal_actions(state, state.to_act)
    bot = make_bot(name, random.Random(1))
    bot.rng = random.Random(5)  # type: ignore[attr-defined]
    fresh = make_bot(name, random.Random(5))
    assert [bot.choose(None, legal) for _ in range(30)] == [fresh.choose(None, legal) for _ in range(30)]
    for way in ("pickle", "deepcopy"):
        twin = pickle.loads(pickle.dumps(bot)) if way == "pickle" else copy.deepcopy(bot)
        assert type(twin) is type(bot)
        assert twin.rng.getstate() == bot.rng.getstate()  # type: ignore[attr-defined]
        assert [twin.choose(None, legal) for _ in range(30)] == [bot.choose(None, legal) for _ in range(30)]
