"""Test helpers: stacked decks built from notation, and short action scripts.

``deal("classic", [["R7", "G2"], ["B3"]], top="R5", draw=["Y1"])`` returns a game
whose seats hold exactly those cards and whose draw pile starts with ``draw``
(top first); the rest of the deck follows in the rule set's canonical order.
Hands shorter than 7 are filled with cards that do not match ``top`` (another
colour, another number or symbol, never a wild, a Flex card or a flip card),
so that the named cards decide the scenario. Name every card a scenario needs.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from unoengine import Action, GameState, apply, format_action, legal_actions, new_game, parse_card
from unoengine.core.cards import format_card
from unoengine.core.engine import apply_unchecked
from unoengine.core.rules import find_rules


def rest_of_deck(rules: str, used: Iterable[str], options: dict[str, Any] | None = None) -> list[str]:
    """Every card of the rule set's deck not in ``used``, in canonical order."""
    ruleset = find_rules(rules)
    resolved = ruleset.options(options)
    left = Counter(parse_card(text) for text in used)
    out: list[str] = []
    for card in ruleset.make_deck(resolved):
        if left[card] > 0:
            left[card] -= 1
        else:
            out.append(format_card(card))
    if +left:
        raise ValueError(f"not in the {rules} deck: {sorted(map(format_card, left.elements()))}")
    return out


def _fill(rest: list[str], top: str, hands: list[list[str]], size: int = 7) -> None:
    """Fill hands to ``size`` with cards that do not match ``top`` (no wilds), taken from ``rest``."""
    face = parse_card(top)

    def quiet(text: str) -> bool:
        card = parse_card(text)
        if card.is_wild or card.color is face.color or card.flex_color is not None or card.flip:
            return False
        return card.rank is not face.rank or (card.number is not None and card.number != face.number)

    for hand in hands:
        while len(hand) < size:
            pick = next((text for text in rest if quiet(text)), rest[0])
            rest.remove(pick)
            hand.append(pick)


def deal_order(
    rules: str,
    hands: Sequence[Sequence[str]],
    top: str,
    draw: Sequence[str] = (),
    *,
    dealer: int = 0,
    options: dict[str, Any] | None = None,
) -> list[str]:
    """A full Classic/Flex deck order (top first) that deals ``hands`` exactly (7 each)."""
    seats = len(hands)
    filler = rest_of_deck(rules, [c for hand in hands for c in hand] + [top, *draw], options)
    full_hands = [list(hand) for hand in hands]
    _fill(filler, top, full_hands)
    order: list[str] = []
    for round_ in range(7):
        for offset in range(1, seats + 1):
            order.append(full_hands[(dealer + offset) % seats][round_])
    return [*order, top, *draw, *filler]


def deal(
    rules: str,
    hands: Sequence[Sequence[str]],
    top: str,
    draw: Sequence[str] = (),
    *,
    dealer: int = 0,
    options: dict[str, Any] | None = None,
    seed: int = 0,
) -> GameState:
    """A Classic or Flex game dealt from a stacked deck (hands filled to 7 from the deck's end)."""
    order = deal_order(rules, hands, top, draw, dealer=dealer, options=options)
    return new_game(rules, len(hands), seed=seed, deck=order, options=options, dealer=dealer)


def duo_order(
    hands: Sequence[Sequence[str]],
    top: str,
    draw: Sequence[str] = (),
    *,
    player1: int = 0,
    options: dict[str, Any] | None = None,
) -> list[str]:
    """A Duo deck order for a draft in which both players keep every card they look at.

    ``hands[seat]`` (7 cards each, filled from the deck's end) are kept; the 14 draft
    discards come from the deck's end too and go under the draw pile (D-4).
    """
    filler = rest_of_deck("duo", [c for hand in hands for c in hand] + [top, *draw], options)
    full = [list(hand) for hand in hands]
    _fill(filler, top, full)
    order: list[str] = []
    for step in range(14):
        seat = player1 if step % 2 == 0 else 1 - player1
        order.append(full[seat][step // 2])
        order.append(filler.pop())  # the draft discard: from the deck's end
    return [*order, top, *draw, *filler]


def duo_deal(
    hands: Sequence[Sequence[str]],
    top: str,
    draw: Sequence[str] = (),
    *,
    player1: int = 0,
    options: dict[str, Any] | None = None,
    seed: int = 0,
) -> GameState:
    """A Duo game after a draft in which both kept every card (see :func:`duo_order`)."""
    order = duo_order(hands, top, draw, player1=player1, options=options)
    state = new_game("duo", 2, seed=seed, deck=order, options=options, dealer=player1)
    for _ in range(14):
        assert state.pending.kind == "draft"
        state = apply(state, state.pending.seat, "keep").state  # type: ignore[arg-type]
    return state


def run(state: GameState, *steps: str) -> GameState:
    """Apply ``"SEAT ACTION"`` steps in order, e.g. ``run(state, "1 R7", "2 draw")``."""
    for step in steps:
        seat, _, action = step.partition(" ")
        state = apply(state, int(seat), action).state
    return state


def legal(state: GameState, seat: int) -> list[str]:
    """The seat's legal actions in notation."""
    return [format_action(action) for action in legal_actions(state, seat)]


def hand(state: GameState, seat: int) -> list[str]:
    """The seat's hand in notation."""
    return [format_card(state.tables.cards[card]) for card in state.hands[seat]]


def top(state: GameState) -> str:
    """The top card in notation."""
    assert state.top is not None
    return format_card(state.tables.cards[state.top])


def first_play(state: GameState, *, challenge: bool = False) -> Action:
    """A plain deterministic policy for the seat to act.

    Keep a drafted card, accept (or ``challenge``) a Wild Draw Four, play the first
    legal play (preferring one that calls UNO), else draw, else pass.
    """
    seat = state.to_act
    assert seat is not None
    actions = {format_action(action): action for action in legal_actions(state, seat)}
    kind = state.pending.kind
    if kind == "draft":
        return actions["keep"]
    if kind == "challenge":
        return actions["challenge" if challenge else "accept"]
    plays = [a for a in actions if a not in ("draw", "pass", "uno") and not a.startswith("catch")]
    if plays:
        return actions[next((a for a in plays if a.endswith(" uno")), plays[0])]
    return actions["draw"] if "draw" in actions else actions["pass"]


def shrink(state: GameState, seat: int, keep: int) -> GameState:
    """The same game with ``seat`` holding only its first ``keep`` cards (the rest go under the draw pile).

    Cards are conserved; with :func:`deal`, the first cards of a hand are the ones the scenario named.
    """
    cards = state.hands[seat]
    hands = list(state.hands)
    hands[seat] = cards[:keep]
    return state._replace(hands=tuple(hands), draw_pile=cards[keep:] + state.draw_pile)


def random_moves(
    rules: str, seats: int, options: dict[str, Any], seed: int, steps: int, salt: str = "playout"
) -> Iterator[tuple[GameState, int, Action | None]]:
    """A random game's moves: each state with the seat that acts and the legal action it takes (out-of-turn
    ``uno`` and ``catch`` included); then the game's last state with the seat ``-1`` and no action."""
    rng = random.Random(f"{salt}:{seed}")
    state = new_game(rules, seats, seed=seed, options=options)
    for _ in range(steps):
        if state.is_over:
            break
        seat = state.to_act
        assert seat is not None
        if state.unsafe is not None and rng.random() < 0.5:
            seat = rng.randrange(seats)  # an out-of-turn ``uno`` or ``catch``
        actions = legal_actions(state, seat)
        if not actions:
            seat = state.to_act
            assert seat is not None
            actions = legal_actions(state, seat)
        action = rng.choice(actions)
        yield state, seat, action
        state = apply_unchecked(state, seat, action)
    yield state, -1, None


BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
"""The benchmark scripts' folder (they are scripts, not a package)."""


def load_benchmark(name: str) -> ModuleType:
    """``benchmarks/NAME.py`` as a module (``unoengine_benchmark_NAME``, in ``sys.modules``: dataclasses look their
    module up), with its folder on ``sys.path`` for the scripts' own ``import report``."""
    if str(BENCHMARKS) not in sys.path:
        sys.path.insert(0, str(BENCHMARKS))
    spec = importlib.util.spec_from_file_location(f"unoengine_benchmark_{name}", BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
