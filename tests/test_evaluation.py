"""The fitted evaluation (``unoengine.bots.evaluation``): probabilities that sum to 1, exact once the
game is over, blind to the seats' labels, deterministic; shipped weights that load, are finite and are
the fit script's; and the ``ismcts`` hook that uses them."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

import pytest

from unoengine import apply_unchecked, legal_actions, new_game
from unoengine.bots import evaluation_weights
from unoengine.bots.base import make_bot
from unoengine.bots.evaluation import FEATURES, LINEAR, features, weights_for, win_probabilities
from unoengine.bots.ismcts import IsmctsBot, rollout_action
from unoengine.core.options import parse_options
from unoengine.core.state import GameState
from unoengine.play.simulate import play_games

GAMES = [
    ("classic", 2, None),
    ("classic", 3, None),
    ("classic", 4, "party"),
    ("classic", 5, None),
    ("classic", 7, "mattel_house"),
    ("classic", 10, None),
    ("duo", 2, None),
    ("flex", 2, None),
    ("flex", 4, "party"),
    ("flex", 8, None),
]


def states(rules: str, seats: int, preset: str | None, seed: int = 0) -> Iterator[GameState]:
    """Every state of one round of rollout-policy self-play, the last one over."""
    try:
        options = parse_options(rules, ["single_round=true"], preset=preset)
    except ValueError:
        pytest.skip(f"{rules} has no preset {preset}")
    state = new_game(rules, seats, seed=seed, options=options)
    rng = random.Random(seed)
    yield state
    while state.outcome is None:
        seat = state.pending.seat
        assert seat is not None
        state = apply_unchecked(state, seat, rollout_action(state, seat, legal_actions(state, seat), rng))
        yield state


@pytest.mark.parametrize(("rules", "seats", "preset"), GAMES)
def test_probabilities_sum_to_one_and_are_exact_once_the_round_is_won(
    rules: str, seats: int, preset: str | None
) -> None:
    last = None
    for state in states(rules, seats, preset):
        p = win_probabilities(state)
        assert len(p) == seats
        assert math.isclose(sum(p), 1.0, abs_tol=1e-9)
        assert all(0.0 <= chance <= 1.0 for chance in p)
        last = state, p
    assert last is not None
    state, p = last
    assert state.outcome is not None
    if state.outcome.winner is None:
        assert p == [1.0 / seats] * seats
    else:
        assert p == [1.0 if seat == state.outcome.winner else 0.0 for seat in range(seats)]


def rotated(state: GameState, by: int) -> GameState:
    """The state with seat ``s`` relabelled ``s + by``, in every field the features read (the hands and
    the seat to act; colour, direction, draw pile and what is owed are no seat's)."""
    seats = state.seats
    hands = [state.hands[(seat - by) % seats] for seat in range(seats)]
    pending = state.pending
    if pending.seat is not None:
        pending = pending._replace(seat=(pending.seat + by) % seats)  # type: ignore[attr-defined]
    return state._replace(hands=tuple(hands), pending=pending)


@pytest.mark.parametrize(("rules", "seats", "preset"), [game for game in GAMES if game[1] > 2] + [("classic", 2, None)])
def test_relabelling_the_seats_relabels_the_probabilities(rules: str, seats: int, preset: str | None) -> None:
    checked = 0
    for index, state in enumerate(states(rules, seats, preset, seed=3)):
        if state.outcome is not None or index % 5:
            continue
        p = win_probabilities(state)
        for by in range(1, seats):
            q = win_probabilities(rotated(state, by))
            assert all(math.isclose(q[(seat + by) % seats], p[seat], rel_tol=1e-9) for seat in range(seats))
        checked += 1
    assert checked >= 3


def test_the_evaluation_is_deterministic_and_tells_positions_apart() -> None:
    seen = set()
    for state in states("classic", 4, None, seed=5):
        assert win_probabilities(state) == win_probabilities(state)
        seen.add(tuple(round(chance, 6) for chance in win_probabilities(state)))
    assert len(seen) > 10


def test_fewer_cards_is_better_other_things_equal() -> None:
    state = new_game("classic", 2, seed=1, options={"single_round": True})
    rows = features(state)
    assert rows[0][FEATURES.index("cards")] == rows[1][FEATURES.index("cards")] == 7
    short = state._replace(hands=(state.hands[0][:2], state.hands[1]))
    assert win_probabilities(short)[0] > win_probabilities(state)[0]


def test_the_shipped_weights_load_are_finite_and_cover_every_rule_set() -> None:
    assert evaluation_weights.FEATURES.split() == list(FEATURES)
    assert set(evaluation_weights.WEIGHTS) == {"classic", "duo", "flex"}
    for table in evaluation_weights.WEIGHTS.values():
        for weights in table.values():
            assert len(weights) == len(FEATURES)
            assert all(math.isfinite(weight) for weight in weights)
    assert "python -m unoengine.bots.evaluation_fit --fit --write" in (evaluation_weights.__doc__ or "")
    # a seat count without its own weights uses the nearest fitted one
    assert weights_for("classic", 5) in (weights_for("classic", 4), weights_for("classic", 6))
    assert weights_for("classic", 2) == tuple(evaluation_weights.WEIGHTS["classic"][2])


def test_the_fit_is_deterministic_for_its_seed() -> None:
    pytest.importorskip("numpy", reason="the fit needs NumPy (the rl extra)")
    from unoengine.bots.evaluation_fit import fit_table

    first = fit_table("classic", 2, games=40, seed=11)
    again = fit_table("classic", 2, games=40, seed=11)
    assert first["weights"] == again["weights"]
    assert first["fitted"]["log_loss"] == again["fitted"]["log_loss"]
    # fitted on its own games, the model does no worse than the hand-tuned one on games it never saw
    assert first["train_positions"] > 100


@pytest.mark.slow
def test_the_shipped_weights_are_those_the_fit_script_makes() -> None:
    pytest.importorskip("numpy", reason="the fit needs NumPy (the rl extra)")
    from unoengine.bots.evaluation_fit import TABLES, fit_table

    for rules, seats in TABLES:
        made = fit_table(rules, seats)["weights"]
        shipped = evaluation_weights.WEIGHTS[rules][seats]
        assert all(math.isclose(a, b, rel_tol=1e-4, abs_tol=1e-6) for a, b in zip(made, shipped, strict=True))


def test_linear_weights_are_the_hand_tuned_evaluation_of_ismcts() -> None:
    bot = IsmctsBot(random.Random(0), evaluation="linear")
    for state in states("flex", 3, None, seed=2):
        if state.outcome is not None:
            continue
        assert all(
            math.isclose(a, b, rel_tol=1e-9)
            for a, b in zip(bot._evaluate(state, state.round), win_probabilities(state, LINEAR), strict=True)
        )


def test_ismcts_uses_the_fitted_evaluation_when_asked() -> None:
    fitted = IsmctsBot(random.Random(0), evaluation="fitted")
    linear = IsmctsBot(random.Random(0), evaluation="linear")
    state = new_game("classic", 3, seed=4, options={"single_round": True})
    assert fitted._evaluate(state, state.round) == win_probabilities(state)
    assert linear._evaluate(state, state.round) == pytest.approx(win_probabilities(state, LINEAR), rel=1e-12)
    with pytest.raises(ValueError, match="evaluation must be"):
        IsmctsBot(random.Random(0), evaluation="learned")
    assert IsmctsBot(random.Random(0)).evaluation == "fitted"  # the race's default
    assert IsmctsBot(random.Random(0), mode="paired").evaluation == "linear"


@pytest.mark.parametrize(("rules", "seats"), [("classic", 2), ("duo", 2), ("flex", 3)])
def test_ismcts_with_the_fitted_evaluation_plays_whole_games_reproducibly(rules: str, seats: int) -> None:
    bots = ["ismcts:iterations=6,evaluation=fitted,seed=2", *["heuristic"] * (seats - 1)]
    first = play_games(rules, [1, 2], bots)
    assert first == play_games(rules, [1, 2], bots)
    assert make_bot("ismcts:evaluation=fitted", random.Random(0)).evaluation == "fitted"  # type: ignore[attr-defined]


def test_the_fit_command_prints_both_evaluations_and_refuses_a_partial_write(
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("numpy", reason="the fit needs NumPy (the rl extra)")
    from unoengine.bots.evaluation_fit import main

    main(["--fit", "--only", "duo:2", "--games", "30"])
    out = capsys.readouterr().out
    assert "duo 2 seats:" in out
    assert "held-out log-loss fitted" in out
    assert "linear" in out
    assert "calibration fitted" in out
    with pytest.raises(SystemExit, match="--write needs every table"):
        main(["--fit", "--only", "duo:2", "--games", "10", "--write"])
