"""The bot interface (docs/BOTS.md): specs with parameters, import paths, and a failing bot reported.

A bot that raises, returns an illegal action or exceeds its time is reported as a
``BotError`` naming the bot, its seat and the decision; the table keeps the state
before that decision.
"""

from __future__ import annotations

import random
import time

import pytest

from unoengine import Action, PlayerView, new_game
from unoengine.bots.base import BotError, make_bot, parse_spec, split_specs
from unoengine.play.table import Table


class FirstBot:
    """A user's bot with only ``choose`` (no name, no ``react``)."""

    def __init__(self, rng: random.Random, last: bool = False) -> None:
        self.last = last

    def choose(self, view: PlayerView | None, legal: tuple[Action, ...]) -> Action:
        return legal[-1] if self.last else legal[0]


class Broken:
    """A bot that fails in the way it is told to at its second decision."""

    name = "broken"
    needs_view = True
    reacts = False

    def __init__(self, rng: random.Random, how: str = "raise") -> None:
        self.how = how
        self.calls = 0

    def choose(self, view: PlayerView | None, legal: tuple[Action, ...]) -> Action:
        self.calls += 1
        if self.calls < 2:
            return legal[0]
        if self.how == "raise":
            raise RuntimeError("out of ideas")
        if self.how == "slow":
            time.sleep(0.05)
            return legal[0]
        return "R9"  # type: ignore[return-value]  # not even an action

    def react(self, view: PlayerView, legal: tuple[Action, ...]) -> Action | None:
        return None


def test_specs_name_a_bot_and_its_parameters() -> None:
    assert parse_spec("heuristic") == ("heuristic", {})
    assert parse_spec("ISMCTS:ms=50,seed=3") == ("ismcts", {"ms": 50, "seed": 3})
    assert parse_spec("mypkg.bots:Greedy") == ("mypkg.bots:Greedy", {})
    assert parse_spec("mypkg.bots:Greedy:depth=2,fast=true,style=calm") == (
        "mypkg.bots:Greedy",
        {"depth": 2, "fast": True, "style": "calm"},
    )
    assert split_specs("ismcts:ms=50,seed=3,heuristic") == ["ismcts:ms=50,seed=3", "heuristic"]
    assert split_specs("random, heuristic") == ["random", "heuristic"]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("nobody", "unknown bot 'nobody'"),
        ("", "unknown bot ''"),
        ("seed=3,heuristic", "comes before any bot"),
        ("ismcts:ms=1,ms=2", "given twice"),
        ("ismcts:1x=2", "is not NAME=VALUE"),
    ],
)
def test_a_bad_spec_is_refused_by_name(text: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        split_specs(text)


def test_a_bad_parameter_or_module_is_refused_when_the_bot_is_made() -> None:
    with pytest.raises(ValueError, match="ismcts"):
        make_bot("ismcts:colour=3", random.Random(0))
    with pytest.raises(ValueError, match="cannot import no_such_module_here"):
        make_bot("no_such_module_here:Bot", random.Random(0))
    with pytest.raises(ValueError, match="has no class or function Missing"):
        make_bot(f"{__name__}:Missing", random.Random(0))


def test_an_import_path_bot_plays_with_its_parameters() -> None:
    bot = make_bot(f"{__name__}:FirstBot:last=true", random.Random(0))
    assert bot.name == f"{__name__}:FirstBot:last=true" and bot.needs_view and not bot.reacts
    table = Table(
        new_game("classic", 2, seed=3, options={"single_round": True}), [bot, make_bot("random", random.Random(1))]
    )
    assert table.play_out() > 0 and table.is_over


def test_a_level_stands_for_a_measured_bot() -> None:
    assert make_bot("easy", random.Random(0)).name
    assert make_bot("hard", random.Random(0)).name == "ismcts"


@pytest.mark.parametrize("how", ["raise", "illegal", "slow"])
@pytest.mark.parametrize("loop", ["play_out", "run_bots"])
def test_a_failing_bot_is_reported_by_name_and_decision_and_the_game_is_kept(how: str, loop: str) -> None:
    start = new_game("classic", 2, seed=11, options={"single_round": True})
    table = Table(start, [Broken(random.Random(0), how), make_bot("heuristic", random.Random(1))], time_limit=0.02)
    with pytest.raises(BotError) as failure:
        if loop == "play_out":
            table.play_out()
        else:
            table.run_bots()
    error = failure.value
    assert (error.bot, error.seat) == ("broken", 0)
    assert str(error).startswith(f"bot broken at seat 0, step {error.step} ({error.decision}): ")
    expected = {
        "raise": "raised RuntimeError: out of ideas",
        "illegal": "returned 'R9', which is not an action",
        "slow": "limit 0.02 s",
    }[how]
    assert expected in str(error)
    assert table.state.steps == error.step and table.state.outcome is None
    assert table.state.pending.seat == 0  # the failed decision is still the one to take
