"""Integer action ids (docs/ACTIONS.md): the table, its round trips, and every legal action of real games."""

from __future__ import annotations

import doctest
import random
import re
from pathlib import Path
from typing import Any

import pytest

import unoengine
from unoengine import NUM_ACTIONS, action_id, action_of, legal_actions, legal_mask, new_game
from unoengine.core import action_ids as ids
from unoengine.core.actions import Catch, Play, catch, parse_action, play
from unoengine.core.cards import COLORS, parse_card
from unoengine.core.engine import apply_unchecked
from unoengine.core.errors import InvalidNotationError
from unoengine.core.rules import RULESETS
from unoengine.core.state import GameState

DOC = Path(__file__).resolve().parents[1] / "docs" / "ACTIONS.md"

# -- the golden pin: changing any of these means bumping ACTION_IDS_VERSION ----------

GOLDEN_VERSION = 3
GOLDEN_SIZE = 626
GOLDEN_DIGEST = "f902ec56819265ade2b3035facda91512f5dbf1d653a1a2f4850725fd6ea0014"
GOLDEN_IDS = [
    ("R0", 0, 2, 0),
    ("R7 uno", 1, 4, 43),
    ("G2|Y@flex", 0, 2, 174),
    ("W:r", 0, 2, 320),
    ("W+4:b uno", 0, 2, 335),
    ("WAF:y", 0, 2, 338),
    ("FWA@flex:g", 0, 3, 364),
    ("FW+2@flex:r>1", 0, 4, 376),
    ("FW+2@flex:r>0", 3, 4, 376),
    ("FW+4@flex:b>2 uno", 0, 8, 505),
    ("draw", 0, 2, 520),
    ("pass", 1, 3, 521),
    ("uno", 0, 5, 522),
    ("catch 1", 0, 4, 523),
    ("catch 0", 3, 4, 523),
    ("catch 2", 0, 4, 524),
    ("accept", 0, 2, 532),
    ("challenge", 0, 2, 533),
    ("keep", 0, 2, 534),
    ("reject", 0, 2, 535),
    ("color b", 0, 2, 539),
    ("R7>2", 0, 4, 541),
    ("R7>0", 3, 4, 540),
    ("B7>0", 3, 4, 567),
    ("R+4", 0, 2, 576),
    ("W+6:g", 0, 2, 612),
    ("WCR uno", 1, 3, 625),
]


def test_the_table_is_pinned() -> None:
    """A change of any id must bump ACTION_IDS_VERSION (and these pins, and docs/ACTIONS.md)."""
    assert ids.ACTION_IDS_VERSION == GOLDEN_VERSION
    assert NUM_ACTIONS == GOLDEN_SIZE
    assert ids.table_digest() == GOLDEN_DIGEST
    for text, seat, seats, expected in GOLDEN_IDS:
        assert action_id(text, seat, seats) == expected, text


def test_the_document_states_the_pinned_table() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert f"ACTION_IDS_VERSION = {ids.ACTION_IDS_VERSION}" in text
    assert f"NUM_ACTIONS = {NUM_ACTIONS}" in text
    assert ids.table_digest() in text
    for name, block in ids.BLOCKS.items():
        span = str(block.start) if len(block) == 1 else f"{block.start}–{block.stop - 1}"
        assert re.search(rf"^\| `{name}` \| {span} \| {len(block)} \|", text, re.MULTILINE), name
    examples = text.split("## Examples")[1].split("## ")[0]
    shown = 0
    for text_action, _seat, _seats, expected in GOLDEN_IDS:
        row = text_action.replace("|", "\\|")
        if f"| `{row}` |" in examples:
            shown += 1
            assert re.search(rf"^\| `{re.escape(row)}` \|[^\n]*\| {expected} \|$", examples, re.MULTILINE), text_action
    assert shown >= 10


def test_the_document_examples_run() -> None:
    result = doctest.testfile(str(DOC), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_exports() -> None:
    assert unoengine.action_id is ids.action_id
    assert unoengine.action_of is ids.action_of
    assert unoengine.legal_mask is ids.legal_mask
    assert unoengine.NUM_ACTIONS == ids.NUM_ACTIONS


# -- the table ---------------------------------------------------------------------


def test_blocks_tile_the_ids_in_order() -> None:
    position = 0
    for block in ids.BLOCKS.values():
        assert block.start == position
        position = block.stop
    assert position == NUM_ACTIONS == len(ids.SLOTS)
    assert list(ids.BLOCKS) == [
        "play",
        "targeted",
        "draw",
        "pass",
        "uno",
        "catch",
        "accept",
        "challenge",
        "keep",
        "reject",
        "color",
        "swap",
        "nomercy",
    ]


def test_the_kinds_are_every_deck_s_sorted() -> None:
    dealt = set()
    for ruleset in RULESETS.values():
        dealt |= set(ruleset.make_deck(ruleset.options({})))  # a rule set without text options (No Mercy) too
        choices = ruleset.option_choices
        for name, values in choices.items():
            for value in values:
                dealt |= set(ruleset.make_deck(ruleset.options({name: value})))
    assert set(ids.KINDS) == dealt
    assert list(ids.KINDS) == sorted(ids.KINDS, key=ids.kind_key)
    assert len(set(ids.KINDS)) == len(ids.KINDS)
    # Duo's retail and standard decks have the same kinds; the 108 of C-1 are in it; so are No Mercy's new kinds.
    texts = ("R0", "W", "W+4", "R5!", "G2|Y", "FW+4", "WAF", "R+4", "BDA", "WCR")
    assert {parse_card(text) for text in texts} <= set(ids.KINDS)


def test_every_wild_play_names_a_colour_and_every_notation_is_distinct() -> None:
    notations = ids.table_notation()
    assert len(set(notations)) == NUM_ACTIONS
    for slot in ids.SLOTS:
        if type(slot.action) is Play:
            # Every wild but the Wild Color Roulette names a colour (N-17: ``WCR`` is played without one).
            assert (slot.action.color is not None) == slot.action.card.rank.names_color
            assert slot.action.target is None
    for card in ids.KINDS:
        normal = [
            s
            for s in ids.SLOTS
            if type(s.action) is Play and s.action.card == card and not s.action.flex and s.offset == 0
        ]
        assert len(normal) == (8 if card.rank.names_color else 2)


@pytest.mark.parametrize("seats", range(2, ids.MAX_SEATS + 1))
def test_round_trip_of_every_id(seats: int) -> None:
    for seat in range(seats):
        for index, slot in enumerate(ids.SLOTS):
            if slot.offset >= seats:
                with pytest.raises(ids.ActionIdError):
                    action_of(index, seat, seats)
                continue
            action = action_of(index, seat, seats)
            assert action_id(action, seat, seats) == index
            assert action_id(str(action), seat, seats) == index
            assert parse_action(str(action)) == action
            if slot.offset:
                target = action.seat if type(action) is Catch else action.target  # type: ignore[union-attr]
                assert target == (seat + slot.offset) % seats != seat


def test_offsets_are_relative_to_the_actor() -> None:
    for seats in range(2, ids.MAX_SEATS + 1):
        for seat in range(seats):
            for offset in range(1, seats):
                victim = (seat + offset) % seats
                assert action_id(catch(victim), seat, seats) == ids.BLOCKS["catch"].start + offset - 1


def test_refusals() -> None:
    catch_five = ids.BLOCKS["catch"].start + 4
    assert str(action_of(catch_five, 0, 6)) == "catch 5"
    for seats in (2, 3, 5):
        with pytest.raises(ids.ActionIdError, match="names no seat"):
            action_of(catch_five, 0, seats)
    targeted_nine = ids.BLOCKS["targeted"].start + 2 * 8
    assert ids.SLOTS[targeted_nine].offset == 9
    with pytest.raises(ids.ActionIdError):
        action_of(targeted_nine, 0, 8)
    for bad in (-1, NUM_ACTIONS, 10**9, True, 1.0, "3"):
        with pytest.raises(ids.ActionIdError):
            action_of(bad, 0, 2)  # type: ignore[arg-type]
    bad_actions: list[Any] = [
        catch(0),  # oneself
        catch(4),  # not a seat of 4
        play(parse_card("FW+2"), COLORS[0], True, 0),  # oneself as target
        play(parse_card("FW+2"), COLORS[0], True, 7),  # not a seat
        play(parse_card("FW+2"), COLORS[0], True, None),  # no target
        play(parse_card("W")),  # a wild without a colour
        play(parse_card("R7"), COLORS[1]),  # a colour on a coloured card
        play(parse_card("R7"), None, True),  # no flex side
        play(parse_card("FW+2"), COLORS[0], False, 1),  # a target on the normal side
        object(),
        [1],
    ]
    for action in bad_actions:
        with pytest.raises(ids.ActionIdError):
            action_id(action, 0, 4)
    for seats, seat in ((1, 0), (11, 0), (4, 4), (4, -1), (4, True)):
        with pytest.raises(ids.ActionIdError):
            action_of(0, seat, seats)
        with pytest.raises(ids.ActionIdError):
            action_id("draw", seat, seats)
    with pytest.raises(InvalidNotationError):
        action_id("not an action", 0, 2)
    assert issubclass(ids.ActionIdError, ValueError)


# -- every legal action of real games ----------------------------------------------

CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    *[("classic", seats, {}) for seats in range(2, 11)],
    ("classic", 3, {"wild_draw_four": "challenge"}),
    ("classic", 2, {"draw_until_playable": True, "wild_draw_four": "challenge"}),
    ("duo", 2, {}),
    ("duo", 2, {"duo_deck": "standard108"}),
    ("duo", 2, {"single_round": True}),
    *[("flex", seats, {}) for seats in range(2, 9)],
    *[("nomercy", seats, {}) for seats in (2, 3, 4, 6, 10)],
]


def check_state(state: GameState) -> set[int]:
    seen: set[int] = set()
    for seat in range(state.seats):
        legal = legal_actions(state, seat)
        got = ids.legal_ids(state, seat)
        assert len(got) == len(legal) == len(set(got))
        assert [action_of(index, seat, state.seats) for index in got] == list(legal)
        assert [action_id(action, seat, state.seats) for action in legal] == list(got)
        mask = legal_mask(state, seat)
        assert isinstance(mask, bytes) and len(mask) == NUM_ACTIONS
        assert {index for index, bit in enumerate(mask) if bit} == set(got)
        assert set(mask) <= {0, 1}
        seen |= set(got)
    return seen


@pytest.mark.parametrize(("rules", "seats", "options"), CONFIGS, ids=str)
def test_every_legal_action_of_random_games_has_its_id(rules: str, seats: int, options: dict[str, Any]) -> None:
    rng = random.Random(f"{rules}:{seats}:{sorted(options.items())}")
    seen: set[int] = set()
    for game in range(4):
        state = new_game(rules, seats, seed=game, options=options)
        # Alternate the random bot's rule (plays first) with uniform play (every action, catches included).
        uniform = game % 2 == 1
        for _ in range(500):
            if state.outcome is not None:
                break
            seen |= check_state(state)
            seat = state.pending.seat
            assert seat is not None
            actors = [seat]
            if uniform and state.unsafe is not None:
                actors = list(range(seats))
            actor = rng.choice(actors)
            legal = legal_actions(state, actor)
            if not legal:
                actor, legal = seat, legal_actions(state, seat)
            plays = [action for action in legal if type(action) is Play]
            choice = rng.choice(legal if uniform or not plays else plays)
            state = apply_unchecked(state, actor, choice)
        if state.outcome is not None:
            seen |= check_state(state)
    assert ids.DRAW_ID in seen
