"""The compiled and the pure build: one source, identical games, and the compiled one runs by default."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from unoengine import _build
from unoengine.cli.main import cli

ROOT = Path(__file__).resolve().parents[1]

PLAY = r"""
import hashlib, json, random
from unoengine import _build, format_record, record_of, state_to_json
from unoengine.bots import make_bot
from unoengine.bots.rng import BotRandom, seat_random
from unoengine.play import Table
CONFIGS = [
    ("classic", 2, {}), ("classic", 4, {"wild_draw_four": "challenge"}),
    ("classic", 3, {"draw_until_playable": True}), ("classic", 5, {"single_round": False, "target_score": 200}),
    ("duo", 2, {}), ("duo", 2, {"duo_deck": "standard108", "single_round": False, "target_score": 100}),
    ("flex", 2, {}), ("flex", 6, {}), ("flex", 3, {"single_round": False, "target_score": 150}),
    ("classic", 4, {"stack_draw": "mixed", "seven_zero": True, "jump_in": True, "wild_draw_four": "challenge"}),
    ("classic", 3, {"stack_draw": "same", "forced_play": True, "draw_to_match": True, "uno_penalty": 3}),
    ("duo", 2, {"forced_play": True, "draw_to_match": True, "wild_draw_four": "strict", "hand_size": 5}),
    ("flex", 4, {"forced_play": True, "draw_until_playable": True, "uno_penalty": 1, "hand_size": 9}),
    ("nomercy", 2, {}), ("nomercy", 4, {}), ("nomercy", 6, {"single_round": False, "target_score": 300}),
    ("nomercy", 3, {"round_action_limit": 60, "uno_penalty": 4}),
]
digest = hashlib.sha256()
games = 0
for rules, seats, options in CONFIGS:
    for seed in range(GAMES):
        names = ["heuristic" if (seat + seed) % 2 else "random" for seat in range(seats)]
        # Odd seeds: the bots draw from the generator the batch path gives them (xoshiro128**), even ones from
        # the Mersenne Twister.
        rngs = [seat_random(seed, seat) if seed % 2 else random.Random(f"{seed}:{seat}") for seat in range(seats)]
        bots = [make_bot(name, rng) for name, rng in zip(names, rngs)]
        given = {"single_round": True, **options}
        table = Table.new(rules, seats, seed=seed, options=given, controllers=bots)
        table.play_out()
        digest.update(format_record(table.record()).encode())
        digest.update(json.dumps(state_to_json(table.state), sort_keys=True).encode())
        games += 1
rng = BotRandom("streams")
cards = list(range(108))
for _ in range(200):
    rng.shuffle(cards)
    digest.update(repr((rng.random(), rng.getrandbits(77), rng.randrange(10**9), cards)).encode())
print(_build.BUILD, games, digest.hexdigest())
"""


def build_env(build: str) -> dict[str, str]:
    """This process's environment for a subprocess running ``build`` (``"compiled"`` or ``"pure"``) of ``src``."""
    env = {key: value for key, value in os.environ.items() if key != "UNOENGINE_PURE"}
    if build == "pure":
        env["UNOENGINE_PURE"] = "1"
    env["PYTHONPATH"] = str(ROOT / "src")
    return env


def play_in(build: str, games: int) -> tuple[str, int, str]:
    env = build_env(build)
    out = subprocess.run(
        [sys.executable, "-c", PLAY.replace("GAMES", str(games))],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    ).stdout.split()
    return out[0], int(out[1]), out[2]


def test_the_compiled_build_runs_where_a_compiler_is() -> None:
    """scripts/setup compiles the core in place; a stale or missing build is a failure here."""
    assert shutil.which(os.environ.get("CC", "cc")) is not None, "no C compiler: the compiled build cannot be tested"
    assert os.environ.get("UNOENGINE_PURE", "") in ("", "0"), "UNOENGINE_PURE is set for the test run"
    assert _build.BUILD == "compiled", f"the pure build runs: {_build.REASON}"


def test_both_builds_play_identical_games() -> None:
    """Thousands of seeded games of every rule set and option set (house rules included): the same records; and the
    same draws of the bots' generator."""
    compiled = play_in("compiled", 250)
    pure = play_in("pure", 250)
    assert compiled[0] == "compiled" and pure[0] == "pure"
    assert compiled[1] == pure[1] == 17 * 250
    assert compiled[2] == pure[2], "the compiled and the pure build played different games"


def test_version_names_the_build() -> None:
    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0
    assert "build" in result.output and _build.BUILD in result.output


def test_the_compiled_modules_doctests_pass_in_the_pure_build() -> None:
    env = build_env("pure")
    files = [str(_build.source_of(module)) for module in _build.COMPILED_MODULES]
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--doctest-modules", "-o", "addopts=", *files],
        env=env,
        cwd=ROOT,
        check=False,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert " passed" in result.stdout


HOSTILE = r"""
import json, random
from unoengine import CLASSIC, GameState, apply, legal_actions, new_game, parse_action, parse_card, parse_state
from unoengine import redact, view_for
from unoengine.core.events import CardsDrawn
from unoengine.play import Table
state = new_game("classic", 2, seed=1)
table = Table.new("classic", 2, seed=1)
calls = {
    "new_game seats str": lambda: new_game("classic", "2", seed=1),
    "new_game seats float": lambda: new_game("classic", 2.0, seed=1),
    "new_game seats bool": lambda: new_game("classic", True, seed=1),
    "new_game seed str": lambda: new_game("classic", 2, seed="x"),
    "new_game dealer str": lambda: new_game("classic", 2, seed=1, dealer="a"),
    "new_game options int": lambda: new_game("classic", 2, seed=1, options=5),
    "new_game deck int": lambda: new_game("classic", 2, seed=1, deck=5),
    "new_game rules int": lambda: new_game(5, 2, seed=1),
    "options int": lambda: CLASSIC.options(5),
    "options unknown": lambda: CLASSIC.options({"x": 1}),
    "options bad value": lambda: CLASSIC.options({"target_score": "a"}),
    "legal str": lambda: legal_actions(state, "x"),
    "legal None": lambda: legal_actions(state, None),
    "legal float": lambda: legal_actions(state, 1.5),
    "legal far": lambda: legal_actions(state, 99),
    "legal True": lambda: legal_actions(new_game("classic", 2, seed=2), True),
    "view True": lambda: view_for(state, True),
    "apply seat True": lambda: apply(state, True, "draw"),
    "new_game dealer True": lambda: new_game("classic", 2, seed=1, dealer=True),
    "legal True after seat 1": lambda: (legal_actions(state, 1), legal_actions(state, True))[1],
    "view str": lambda: view_for(state, "x"),
    "view float": lambda: view_for(state, 1.5),
    "view far": lambda: view_for(state, 99),
    "view negative": lambda: view_for(state, -1),
    "apply seat str": lambda: apply(state, "x", "draw"),
    "apply action int": lambda: apply(state, 1, 5),
    "apply None": lambda: apply(state, None, None),
    "apply bytes": lambda: apply(state, 1, b"draw"),
    "redact str": lambda: redact(CardsDrawn(0, (1,)), "x"),
    "parse state int": lambda: GameState.parse(5),
    "parse_state None": lambda: parse_state(None),
    "parse_card int": lambda: parse_card(5),
    "parse_action int": lambda: parse_action(5),
    "table new seats str": lambda: Table.new("classic", "2", seed=1),
    "table submit seat str": lambda: table.submit("x", "draw"),
    "table submit action int": lambda: table.submit(1, 5),
    "table submit version str": lambda: table.submit(1, "draw", expected_version="a"),
    "table legal str": lambda: table.legal("x"),
    "table view str": lambda: table.view("x"),
    "table set_controller str": lambda: table.set_controller("x", None),
}
out = {}
for name, call in calls.items():
    try:
        result = call()
        out[name] = "ok" if not isinstance(result, tuple) else f"ok {len(result)}"
    except Exception as error:
        out[name] = type(error).__name__
print(json.dumps(out))
"""

DOCUMENTED = {"InvalidNotationError", "IllegalActionError", "StaleVersionError", "ValueError"}


def test_both_builds_refuse_hostile_arguments_alike_and_with_documented_errors() -> None:
    """A wrong type where a value is expected is the documented error in both builds, never a TypeError."""
    outcomes = {}
    for build in ("compiled", "pure"):
        env = build_env(build)
        out = subprocess.run(
            [sys.executable, "-c", HOSTILE], env=env, capture_output=True, text=True, check=True, timeout=120
        )
        outcomes[build] = json.loads(out.stdout)
    assert outcomes["compiled"] == outcomes["pure"]
    for name, outcome in outcomes["pure"].items():
        assert outcome.startswith("ok") or outcome in DOCUMENTED, f"{name}: {outcome}"
    assert outcomes["pure"]["legal True after seat 1"] == "ok 0"  # the memo answers for the same seat only
    assert outcomes["pure"]["legal True"] == "ok 0" and outcomes["pure"]["view True"] == "InvalidNotationError"
    assert outcomes["pure"]["legal str"] == "ok 0" and outcomes["pure"]["table set_controller str"] == "ValueError"


READ_ONLY = r"""
from unoengine import _build, legal_actions, new_game
from unoengine.core.cards import Card
state = new_game("classic", 2, seed=3)
action = legal_actions(state, state.to_act)[0]
card = Card.parse("r7")
targets = [(card, "color", None), (card, "number", 8), (action, "uno", True), (state.game, "seats", 3)]
if _build.BUILD == "compiled":
    targets.append((state, "seed", 4))
refused = []
for value, name, new in targets:
    before = getattr(value, name)
    for change in (lambda: setattr(value, name, new), lambda: delattr(value, name)):
        try:
            change()
        except AttributeError:
            refused.append(getattr(value, name) == before)
print(_build.BUILD, len(targets), refused.count(True), len(refused))
"""


def test_both_builds_refuse_setting_a_field_of_a_value() -> None:
    """A ``Card``, an action and a ``Game`` have read-only fields in both builds (the compiled build's ``Final``
    fields; a guard in the pure build), and a state's in the compiled build (the pure build does not guard a
    state's fields: a guard on every field the engine sets would make each step several times slower)."""
    for build in ("compiled", "pure"):
        env = build_env(build)
        out = subprocess.run(
            [sys.executable, "-c", READ_ONLY], env=env, capture_output=True, text=True, check=True, timeout=120
        ).stdout.split()
        targets = 5 if build == "compiled" else 4
        assert out == [build, str(targets), str(2 * targets), str(2 * targets)], (build, out)


def test_the_readme_states_how_many_modules_setup_compiles() -> None:
    """README's "compiles N modules" is len(COMPILED_MODULES): the number cannot drift from setup's list again."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    stated = [int(number) for number in re.findall(r"compiles (\d+) modules", readme)]
    assert stated == [len(_build.COMPILED_MODULES)]
