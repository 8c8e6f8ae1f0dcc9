"""The ``uno`` command: replay, simulate, rules (docs/NOTATION.md's exit statuses and error lines)."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from unoengine import Record, ReplayError, format_record, new_game, option_specs, record_of, replay
from unoengine.cli.main import cli

ROOT = Path(__file__).resolve().parents[1]

STATE_KEYS = {
    "rules",
    "seats",
    "round",
    "to_act",
    "pending",
    "top",
    "color",
    "direction",
    "hands",
    "draw_pile",
    "discard_pile",
    "scores",
    "round_winner",
    "game_winner",
}

SIMULATION_KEYS = {
    "games",
    "steps",
    "seconds",
    "games_per_s",
    "steps_per_s",
    "wins",
    "no_winner",
    "mean_length",
    "median_length",
    "rules",
    "seats",
    "bots",
    "rounds",
}


def invoke(*args: str, input: str | bytes | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input)


def assert_refused(result: Result, line: str | None = None, prefix: str | None = None) -> None:
    """Exit status 2, exactly one line on stderr, nothing on stdout, no traceback."""
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.stdout == ""
    assert result.stderr.endswith("\n") and result.stderr.count("\n") == 1, result.stderr
    if line is not None:
        assert result.stderr == line + "\n"
    if prefix is not None:
        assert result.stderr.startswith(prefix), result.stderr


def write(path: Path, data: dict[str, Any] | str) -> str:
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def small_record(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"format": "unoengine-record/1", "rules": "classic", "seats": 2, "seed": 7, "actions": []}
    data.update(changes)
    return data


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[dict[str, Any], list[Path]]]:
    """Records saved by ``uno simulate --records`` for each rule set, with the simulation's figures."""
    out: dict[str, tuple[dict[str, Any], list[Path]]] = {}
    for rules, seats, bot in (("classic", "3", "random"), ("duo", "2", "heuristic,uniform"), ("flex", "4", "random")):
        folder = tmp_path_factory.mktemp(rules)
        result = invoke(
            "simulate", "--rules", rules, "--seats", seats, "--games", "4", "--bot", bot, "--seed", "11",
            "--records", str(folder), "--json",
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        out[rules] = (json.loads(result.stdout), sorted(folder.glob("*.json")))
    return out


# -- simulate ----------------------------------------------------------------------------


def test_simulate_json_keys() -> None:
    result = invoke("simulate", "--games", "5", "--seed", "3", "--json")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    data = json.loads(result.stdout)
    assert set(data) >= SIMULATION_KEYS
    assert data["games"] == 5 and data["seats"] == 4 and data["rules"] == "classic"
    assert data["bots"] == ["random"] * 4
    assert sum(data["wins"]) + data["no_winner"] == 5
    assert data["rounds"] == 5  # single rounds unless --match


def test_simulate_is_reproducible() -> None:
    def figures() -> dict[str, Any]:
        data: dict[str, Any] = json.loads(invoke("simulate", "-g", "6", "-s", "5", "--json").stdout)
        for key in ("seconds", "games_per_s", "steps_per_s"):
            del data[key]
        return data

    assert figures() == figures()


def test_simulate_bot_list_sets_the_seats_and_options_parse() -> None:
    result = invoke(
        "simulate", "-r", "classic", "-b", "random,heuristic,uniform", "-g", "3", "--match",
        "-o", "target_score=100", "-o", "wild_draw_four=challenge", "-o", "draw_until_playable=true", "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["seats"] == 3 and data["bots"] == ["random", "heuristic", "uniform"]
    assert data["rounds"] >= data["games"] == 3


def test_simulate_duo_defaults_to_two_seats() -> None:
    result = invoke("simulate", "-r", "duo", "-g", "2", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["seats"] == 2


def test_simulate_readable_table() -> None:
    result = invoke("simulate", "-g", "3", "-b", "heuristic")
    assert result.exit_code == 0, result.output
    assert "games" in result.stdout and "heuristic" in result.stdout and "wins" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seats", "11"], "error: Classic UNO is for 2-10 seats, not 11"),
        (["-r", "duo", "--seats", "3"], "error: UNO Duo is for 2 seats, not 3"),
        (["--rules", "poker"], "error: unknown rules 'poker' (known: classic, duo, flex, nomercy)"),
        (
            ["--bot", "genius"],
            "error: unknown bot 'genius' (known: easy, hard, heuristic, ismcts, medium, ppo, random, uniform, "
            "or module.path:Name)",
        ),
        (["--seats", "3", "--bot", "random,uniform"], "error: 2 bots for 3 seats"),
        (["--option", "colour=red"], "error: unknown option 'colour' for classic"),
        (["--option", "target_score=many"], "error: option 'target_score' must be a whole number, not 'many'"),
        (["--option", "target_score"], "error: option 'target_score' must be written key=value"),
        (["-r", "classic", "--option", "duo_deck=standard108"], "error: unknown option 'duo_deck'"),
    ],
)
def test_simulate_refuses_bad_arguments(args: list[str], message: str) -> None:
    result = invoke("simulate", "--games", "2", *args)
    assert_refused(result, prefix=message)


# -- simulate --records, then replay ---------------------------------------------------


@pytest.mark.parametrize("rules", ["classic", "duo", "flex"])
def test_simulate_records_replay_to_the_same_games(
    rules: str, saved: dict[str, tuple[dict[str, Any], list[Path]]]
) -> None:
    figures, paths = saved[rules]
    assert len(paths) == 4
    winners: Counter[int | None] = Counter()
    for path in paths:
        result = invoke("replay", str(path), "--json")
        assert result.exit_code == 0, result.output
        assert result.stdout.count("\n") == 1  # one JSON object on one line
        state = json.loads(result.stdout)
        assert set(state) >= STATE_KEYS
        assert state["rules"] == rules and state["seats"] == figures["seats"]
        assert state["pending"] == "game_over" and state["to_act"] is None
        winners[state["game_winner"]] += 1
        readable = invoke("replay", str(path))
        assert readable.exit_code == 0, readable.output
        assert "game over" in readable.stdout
    assert [winners[seat] for seat in range(figures["seats"])] == figures["wins"]
    assert winners[None] == figures["no_winner"]


def test_replay_reads_stdin(saved: dict[str, tuple[dict[str, Any], list[Path]]]) -> None:
    path = saved["classic"][1][0]
    from_file = invoke("replay", str(path), "--json")
    from_stdin = invoke("replay", "-", "--json", input=path.read_bytes())
    assert from_stdin.exit_code == 0, from_stdin.output
    assert from_stdin.stdout == from_file.stdout


def test_replay_json_matches_the_library(tmp_path: Path) -> None:
    start = new_game("flex", 3, seed=5)
    record = record_of(start, [])
    result = invoke("replay", write(tmp_path / "r.json", format_record(record)), "--json")
    assert result.exit_code == 0, result.output
    state = json.loads(result.stdout)
    assert state["pending"] == "turn" and state["to_act"] == start.to_act
    assert state["power"] == ["green"] * 3
    assert [len(hand) for hand in state["hands"]] == [7, 7, 7]


# -- replay: refused actions -----------------------------------------------------------


def test_replay_refuses_an_action_of_the_wrong_seat(tmp_path: Path) -> None:
    # seed 7, 2 seats: seat 1 plays first (C-6); seat 0 may not draw.
    path = write(tmp_path / "r.json", small_record(actions=[{"seat": 0, "action": "draw"}]))
    result = invoke("replay", path)
    assert_refused(result, line="action 0 'draw' refused: G-4 it is seat 1's decision (turn), not seat 0's")


def test_replay_refuses_a_rule_breaking_action(tmp_path: Path) -> None:
    # seed 7: seat 1 holds W+4 and a blue card on a blue top card.
    actions = [{"seat": 1, "action": "draw"}, {"seat": 1, "action": "pass"}, {"seat": 0, "action": "draw"}]
    actions += [{"seat": 0, "action": "pass"}, {"seat": 1, "action": "W+4:r"}]
    path = write(tmp_path / "r.json", small_record(actions=actions))
    result = invoke("replay", path, "--json")
    assert_refused(result, prefix="action 4 'W+4:r' refused: C-16 ")


def test_replay_refuses_an_action_appended_to_a_saved_game(
    tmp_path: Path, saved: dict[str, tuple[dict[str, Any], list[Path]]]
) -> None:
    data = json.loads(saved["classic"][1][0].read_text())
    index = len(data["actions"])
    data["actions"].append({"seat": 0, "action": "R99"})
    result = invoke("replay", write(tmp_path / "r.json", data))
    assert_refused(result, line=f"action {index} 'R99' refused: G-4 not an action: 'R99' (not a card: 'r99')")


def test_replay_refusal_line_is_the_library_error(tmp_path: Path) -> None:
    record = Record("classic", 2, 7, actions=((1, "R7"),))
    with pytest.raises(ReplayError) as error:
        replay(record)
    result = invoke("replay", write(tmp_path / "r.json", format_record(record)))
    assert_refused(result, line=str(error.value))
    assert result.stderr.startswith("action 0 'R7' refused: ")


# -- replay: refused records -----------------------------------------------------------


def full_deck() -> list[str]:
    start = new_game("classic", 2, seed=7)
    return list(json.loads(format_record(record_of(start, [], deck=True)))["deck"])


def wrong_deck() -> list[str]:
    """The full deck with its first card replaced by a card of another kind (one too many of it)."""
    deck = full_deck()
    return [*deck[1:], "R1" if deck[0] != "R1" else "R2"]


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ('{"rules": "classic", "seats": 2,', "not valid JSON"),
        ("[1, 2]", "a record is a JSON object"),
        (small_record(colour="red"), "unknown keys: colour"),
        (small_record(options={"colour": "red"}), "unknown option 'colour'"),
        (small_record(options={"target_score": "many"}), "option 'target_score' must be an integer"),
        (small_record(rules="poker"), "unknown rules 'poker'"),
        (small_record(seats=11), "Classic UNO is for 2-10 seats, not 11"),
        (small_record(seats=1), "Classic UNO is for 2-10 seats, not 1"),
        (small_record(seats="2"), "'seats' must be int"),
        (small_record(deck=full_deck()[1:]), "deck"),
        (small_record(deck=wrong_deck()), "deck"),
        (small_record(format="unoengine-record/9"), "unsupported format"),
        (small_record(actions=[{"seat": 0}]), "actions[0]"),
        ("[" * 100_000, "not valid JSON"),
    ],
)
def test_replay_refuses_bad_records(tmp_path: Path, content: dict[str, Any] | str, reason: str) -> None:
    result = invoke("replay", write(tmp_path / "r.json", content), "--json")
    assert_refused(result, prefix="record refused: ")
    assert reason in result.stderr


def test_replay_refuses_a_missing_file_and_bad_bytes(tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    assert_refused(invoke("replay", str(missing)), prefix=f"record refused: cannot read {missing}: ")
    assert_refused(invoke("replay", str(tmp_path)), prefix=f"record refused: cannot read {tmp_path}: ")
    (tmp_path / "bad.json").write_bytes(b'{"rules": "cl\xff\xfeassic"}')
    assert_refused(invoke("replay", str(tmp_path / "bad.json")), prefix="record refused: ")
    assert_refused(invoke("replay", "-", input=b"\xff\xfe\x00"), prefix="record refused: ")


def test_replay_refusal_stays_on_one_line(tmp_path: Path) -> None:
    result = invoke("replay", write(tmp_path / "r.json", small_record(**{"two\nlines": 1})))
    assert_refused(result, line="record refused: unknown keys: two\\nlines")


def test_valid_record_with_full_deck_is_accepted(tmp_path: Path) -> None:
    result = invoke("replay", write(tmp_path / "r.json", small_record(deck=full_deck())), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["hands"][1] == ["G1", "Y6", "G+2", "B2", "W+4", "G6", "G8"]


# -- rules -------------------------------------------------------------------------------


def test_rulebook_copy_is_identical_to_docs() -> None:
    shipped = resources.files("unoengine.cli").joinpath("RULES.md").read_bytes()
    assert shipped == (ROOT / "docs" / "RULES.md").read_bytes(), (
        "src/unoengine/cli/RULES.md is stale: cp docs/RULES.md src/unoengine/cli/RULES.md"
    )


def test_rules_prints_the_whole_book() -> None:
    result = invoke("rules")
    assert result.exit_code == 0, result.output
    for rule in ("C-1", "C-22", "D-1", "D-20", "F-1", "F-29", "G-1", "G-6", "R-1", "R-7"):
        assert rule in result.stdout


@pytest.mark.parametrize(
    ("rules", "own", "other"), [("classic", "C-22", "D-20"), ("duo", "D-20", "F-29"), ("flex", "F-29", "C-14")]
)
def test_rules_prints_one_rule_set_with_shared_rules(rules: str, own: str, other: str) -> None:
    result = invoke("rules", rules)
    assert result.exit_code == 0, result.output
    assert own in result.stdout and "G-6" in result.stdout and "R-7" in result.stdout
    assert "H-1" in result.stdout and "mattel_house" in result.stdout  # the house rules go with every rule set
    assert other not in result.stdout


def test_rules_markdown_source() -> None:
    result = invoke("rules", "duo", "--markdown")
    assert result.exit_code == 0
    assert result.stdout.startswith("## UNO Duo")
    assert "- **D-1**" in result.stdout and "## Readings added by the implementation" in result.stdout


def test_rules_list_options() -> None:
    result = invoke("rules", "--list-options")
    assert result.exit_code == 0, result.output
    assert "classic (Classic UNO, 2-10 seats)" in result.stdout
    assert "  target_score=500" in result.stdout and "  duo_deck=standard112" in result.stdout
    duo = invoke("rules", "duo", "--list-options").stdout
    assert "target_score=200" in duo and "classic (Classic UNO" not in duo
    assert "stack_draw" not in duo and "forced_play=false" in duo
    assert "H-1 [classic]" in result.stdout and "party: mixed stacking" in result.stdout


def test_rules_refuses_an_unknown_rule_set() -> None:
    assert_refused(invoke("rules", "poker"), prefix="error: unknown rules 'poker'")


# -- help, version, the installed script ---------------------------------------------


@pytest.mark.parametrize("command", [[], ["replay"], ["simulate"], ["rules"]])
def test_help(command: list[str]) -> None:
    result = invoke(*command, "--help")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Usage: uno")


def test_version() -> None:
    result = invoke("--version")
    assert result.exit_code == 0
    assert "0.1.0" in result.stdout


def test_python_m_and_installed_script(tmp_path: Path) -> None:
    path = write(tmp_path / "r.json", small_record(actions=[{"seat": 1, "action": "draw"}]))
    done = subprocess.run(
        [sys.executable, "-m", "unoengine.cli", "replay", path, "--json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["pending"] == "drawn"
    script = Path(sys.executable).parent / "uno"
    if not script.exists():
        pytest.skip("no installed uno script next to the interpreter")
    bad = write(tmp_path / "bad.json", small_record(seats=11))
    done = subprocess.run([str(script), "replay", bad], capture_output=True, text=True, check=False, timeout=60)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == "record refused: Classic UNO is for 2-10 seats, not 11\n"


def test_h1_simulate_with_a_preset_and_options_saves_records_that_replay_with_their_options(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    result = invoke(
        "simulate", "-g", "3", "-b", "heuristic", "--preset", "party", "-o", "uno_penalty=4", "--records", str(folder)
    )
    assert result.exit_code == 0, result.output
    record = json.loads((folder / "classic-0.json").read_text(encoding="utf-8"))
    assert record["options"]["stack_draw"] == "mixed" and record["options"]["uno_penalty"] == 4
    assert "forced_play" not in record["options"]  # a house rule left off is not written
    shown = invoke("replay", str(folder / "classic-0.json"), "--json")
    assert shown.exit_code == 0, shown.output
    options = json.loads(shown.stdout)["options"]
    assert options["jump_in"] is True and options["forced_play"] is False and "duo_deck" not in options
    assert "stack_draw=mixed" in invoke("replay", str(folder / "classic-0.json")).stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--option", "target_score=true"], "error: option 'target_score' must be a whole number, not 'true'"),
        (["--option", "jump_in=yes"], "error: option 'jump_in' must be true or false, not 'yes'"),
        (["-r", "duo", "--option", "stack_draw=mixed"], "error: option 'stack_draw' (H-1) is not available in UNO Duo"),
        (
            ["--preset", "casino"],
            "error: unknown preset 'casino' (known: official, mattel_house, mobile, party, crazy)",
        ),
    ],
)
def test_h1_h3_simulate_refuses_bad_house_options(args: list[str], message: str) -> None:
    result = invoke("simulate", "--games", "1", *args)
    assert result.exit_code == 2, result.output
    assert message in result.output


def test_play_refuses_a_bot_that_cannot_play_the_game_before_it_starts(tmp_path: Path) -> None:
    """``ppo`` plays Classic heads-up only: ``uno play`` refuses it for four seats at once, by name."""
    result = invoke("play", "--bots", "ppo", "--seats", "4", "--save", str(tmp_path / "game.json"))
    assert_refused(result, "error: ppo was trained for classic with 2 seats; it cannot play classic with 4 seats")
    assert not (tmp_path / "game.json").exists()


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "--bot", "ppo,heuristic,heuristic,heuristic", "--games", "3"],
        ["simulate", "--bot", "heuristic", "--rules", "flex", "--seats", "2", "--games", "3"],
        ["tournament", "--bots", "ppo,heuristic", "--seats", "4", "--games", "4"],
    ],
)
def test_simulate_and_tournament_refuse_a_bot_that_cannot_play_the_game_before_it_starts(args: list[str]) -> None:
    """``ppo`` plays Classic heads-up only: a batch with it in four seats is refused at once, by name, exit 2 (not
    stopped at its first decision); another batch of the same command is not."""
    result = invoke(*args)
    if "ppo" in args[2]:
        assert_refused(result, "error: ppo was trained for classic with 2 seats; it cannot play classic with 4 seats")
    else:
        assert result.exit_code == 0, result.output


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["--url", "x"], "'--url'"),
        (["--url", "http://" + "h" * 5000], "'--url'"),
        (["--url", "http://127.0.0.1:9/t/abc", "--bot", "nosuchbot"], "'--bot'"),
        (["--url", "http://127.0.0.1:9/t/abc", "--bot", "heuristic:" + "a=1," * 500], "'--bot'"),
        (["--url", "http://127.0.0.1:9/t/abc", "--bot", "a." * 500 + ":X"], "'--bot'"),
        (["--url", "http://127.0.0.1:9/t/abc", "--bot", "os:" + "X" * 5000], "'--bot'"),
    ],
)
def test_uno_bot_refuses_a_bad_url_or_bot_as_a_usage_error_in_short_lines(args: list[str], option: str) -> None:
    """A malformed --url or an unknown --bot is a usage error (exit status 2, as everywhere else), refused
    before connecting; every line is at most 500 characters (docs/CLI.md, "Error lines"), bytes of UTF-8 too."""
    result = CliRunner().invoke(cli, ["bot", *args])
    assert result.exit_code == 2, result.output
    assert f"Invalid value for {option}" in result.stderr
    assert all(len(line.encode()) <= 500 for line in result.stderr.splitlines())


def test_uno_bot_that_cannot_reach_its_table_fails_with_status_1_in_a_short_line() -> None:
    result = CliRunner().invoke(cli, ["bot", "--url", "http://127.0.0.1:9/t/" + "c" * 5000])
    assert result.exit_code == 1
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: cannot join table 'ccc") and len(line.encode()) <= 500


def test_simulate_header_names_the_preset_and_the_options_played() -> None:
    """Only the options that differ from the rule set's defaults, after the preset's name; else 'official rules'."""
    party = invoke("simulate", "-g", "2", "-n", "2", "--preset", "party", "-o", "target_score=250")
    assert party.exit_code == 0, party.output
    header = " ".join(party.stdout.split())  # Rich may wrap the header between words
    assert header.startswith(
        "classic, 2 seats, preset party (draw_until_playable=true, jump_in=true, seven_zero=true, "
        "stack_draw=mixed, target_score=250): 2 games (single rounds), seeds 0..1"
    )
    official = invoke("simulate", "-g", "2", "-r", "flex", "--match", "-o", "wild_draw_four=challenge")
    assert official.exit_code == 0, official.output
    assert official.stdout.startswith("flex, 4 seats, official rules: 2 games (whole games)")
    duo = invoke("simulate", "-g", "1", "-r", "duo", "--preset", "official", "-o", "wild_draw_four=strict")
    assert duo.stdout.startswith("duo, 2 seats, wild_draw_four=strict: 1 games")


def _replayed(tmp_path: Path, rules: str, options: dict[str, Any], columns: int) -> list[str]:
    state = new_game(rules, 2, seed=4, options=options)
    path = tmp_path / f"{rules}.json"
    path.write_text(format_record(record_of(state, [])), encoding="utf-8")
    result = CliRunner().invoke(cli, ["replay", str(path)], env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


def test_replay_names_only_the_options_that_differ_from_the_defaults_never_cut_inside_one(tmp_path: Path) -> None:
    house = {
        "wild_draw_four": "strict",  # Classic's default: not named
        "draw_until_playable": True,
        "jump_in": True,
        "seven_zero": True,
        "stack_draw": "mixed",
        "target_score": 250,
    }
    wanted = ["draw_until_playable=true", "jump_in=true", "seven_zero=true", "stack_draw=mixed", "target_score=250"]
    for columns in (200, 60, 40, 30):
        lines = _replayed(tmp_path, "classic", house, columns)
        start = next(index for index, line in enumerate(lines) if line.startswith("options:"))
        block = [
            lines[start],
            *itertools.takewhile(lambda line: line.startswith("  ") and "=" in line, lines[start + 1 :]),
        ]
        shown = [item.rstrip(",") for item in " ".join(block).split()[1:]]
        assert shown == wanted, (columns, block)
        assert all(len(line) <= columns for line in block)
    assert any(line == "options: (all defaults)" for line in _replayed(tmp_path, "duo", {}, 100))
    flex = _replayed(tmp_path, "flex", {"single_round": True, "wild_draw_four": "challenge"}, 100)
    assert "options: (all defaults)" in flex


def test_replay_json_keeps_every_option_defaults_included(tmp_path: Path) -> None:
    """The JSON form is the public contract of docs/NOTATION.md: all the rule set's options, unchanged."""
    state = new_game("classic", 2, seed=4, options={"jump_in": True})
    path = tmp_path / "r.json"
    path.write_text(format_record(record_of(state, [])), encoding="utf-8")
    data = json.loads(CliRunner().invoke(cli, ["replay", str(path), "--json"]).stdout)
    assert data["options"]["jump_in"] is True and data["options"]["wild_draw_four"] == "strict"
    assert set(data["options"]) == {spec.name for spec in option_specs("classic")}  # every option, defaults too
