"""The ``uno`` commands on UNO Show 'Em No Mercy (``nomercy``), and help that names every registered rule set."""

from __future__ import annotations

import json
import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from unoengine.cli.agent import action_words
from unoengine.cli.arguments import RULES_HELP, RuleSetChoice, rule_set_names
from unoengine.cli.main import card_kinds, cli
from unoengine.cli.play import play
from unoengine.cli.remote import view_from_json
from unoengine.core.actions import DRAW
from unoengine.core.cards import format_card
from unoengine.core.engine import new_game
from unoengine.core.notation import format_state
from unoengine.core.rules import RULESETS, find_rules
from unoengine.core.views import view_for, view_to_json
from unoengine.server.protocol import parse_settings, presets_json

RECORD_SEED = 0
"""``uno simulate -r nomercy -n 4 -s 0``: its first game knocks seats out (N-21) before seat 1 wins."""


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def flat(text: str) -> str:
    """Help text with its line breaks and runs of spaces made one space."""
    return re.sub(r"\s+", " ", text)


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two No Mercy games between random bots, four seats, saved as records."""
    folder = tmp_path_factory.mktemp("records")
    result = invoke("simulate", "-r", "nomercy", "-n", "4", "-g", "2", "-s", str(RECORD_SEED), "--records", str(folder))
    assert result.exit_code == 0, result.output
    assert "2 records saved in" in result.output
    return folder


# -- help and errors name every rule set ---------------------------------------------------


def test_the_rule_set_list_is_the_registry() -> None:
    assert "nomercy" in RULESETS
    names = rule_set_names()
    assert all(name in names for name in RULESETS)
    assert names.endswith(f" or {list(RULESETS)[-1]}")
    assert f"Rule set: {names}." == RULES_HELP


@pytest.mark.parametrize("command", ["simulate", "tournament", "mcp", "play", "rules"])
def test_every_help_names_every_rule_set(command: str) -> None:
    result = invoke(command, "--help")
    assert result.exit_code == 0, result.output
    text = flat(result.output)
    for name in RULESETS:
        assert re.search(rf"\b{name}\b", text), f"uno {command} --help does not name {name}"
    assert "classic, duo or flex." not in text


def test_the_group_names_no_mercy() -> None:
    result = invoke("--help")
    assert result.exit_code == 0
    assert "Show 'Em No Mercy" in result.output


def test_play_takes_the_name_and_the_aliases() -> None:
    choice = RuleSetChoice()
    for given in ("nomercy", "NoMercy", "no_mercy", "no-mercy", "Classic"):
        assert choice.convert(given, None, None) == find_rules(given).name
    with pytest.raises(click.BadParameter) as refused:
        choice.convert("poker", None, None)
    assert "'nomercy'" in str(refused.value.message)
    result = CliRunner().invoke(play, ["--rules", "poker"])
    assert result.exit_code == 2
    assert "'poker' is not one of 'classic', 'duo', 'flex', 'nomercy'" in result.output


def test_play_refuses_a_bad_seat_count_for_no_mercy() -> None:
    result = CliRunner().invoke(play, ["--rules", "no_mercy", "--seats", "11"])
    assert result.exit_code == 2
    assert "No Mercy" in result.output


# -- the commands on No Mercy -----------------------------------------------------------------


def test_rules_no_mercy() -> None:
    result = invoke("rules", "no_mercy", "--markdown")
    assert result.exit_code == 0, result.output
    assert "UNO Show 'Em No Mercy" in result.output
    assert "N-21" in result.output
    options = invoke("rules", "--list-options")
    assert options.exit_code == 0
    assert "nomercy (UNO Show 'Em No Mercy, 2-10 seats)" in options.output
    assert "round_action_limit=10000" in options.output
    mine = invoke("rules", "nomercy", "--list-options")
    assert mine.exit_code == 0
    assert "classic (" not in mine.output


def test_the_kinds_of_cards_of_no_mercy() -> None:
    kinds = [format_card(card) for card in card_kinds(find_rules("nomercy"))]
    for notation in ("R+4", "RSE", "RDA", "WR+4", "W+6", "W+10", "WCR"):
        assert notation in kinds
    assert {"R0", "R1", "R7"} <= set(kinds), "0 and 7 do something of their own (N-18)"
    assert "R1" in kinds
    assert [format_card(card) for card in card_kinds(find_rules("classic"))].count("R0") == 1
    assert "R7" not in [format_card(card) for card in card_kinds(find_rules("classic"))]


def test_simulate_and_replay(records: Path) -> None:
    first = records / f"nomercy-{RECORD_SEED}.json"
    result = invoke("replay", str(first))
    assert result.exit_code == 0, result.output
    assert result.output.startswith("UNO Show 'Em No Mercy (nomercy), 4 seats")
    head = next(line for line in result.output.splitlines() if "seat" in line and "cards" in line)
    assert "in round" in head
    assert "power" not in head
    rows = [line.split() for line in result.output.splitlines() if re.match(r"\s+\d\s+\d+\s+\d+\s", line)]
    assert len(rows) == 4
    assert {row[3] for row in rows} <= {"yes", "out"}
    assert any(row[3] == "out" for row in rows), "a seat knocked out by the Mercy Rule"
    data = json.loads(invoke("replay", "--json", str(first)).output)
    assert data["rules"] == "nomercy"
    assert [row[3] == "yes" for row in rows] == data["in_round"]
    assert not data.get("power")


def test_replay_from_stdin(records: Path) -> None:
    text = (records / f"nomercy-{RECORD_SEED + 1}.json").read_text()
    result = CliRunner().invoke(cli, ["replay", "-"], input=text)
    assert result.exit_code == 0, result.output
    assert "game over" in result.output


def test_perft_of_a_no_mercy_state() -> None:
    state = format_state(new_game("nomercy", 3, seed=4))
    result = invoke("perft", "--depth", "3", state)
    assert result.exit_code == 0, result.output
    counts = dict(re.findall(r"^perft (\d) (\d+)$", result.output, re.MULTILINE))
    assert set(counts) == {"1", "2", "3"}
    divide = invoke("perft", "--depth", "1", "--divide", state)
    assert divide.exit_code == 0, divide.output
    assert f"total {counts['1']}" in divide.output
    assert re.search(r"^1 WCR: \d+$", divide.output, re.MULTILINE), "seat 1 may open with a Wild Color Roulette"


def test_tournament_no_mercy() -> None:
    result = invoke("tournament", "-r", "no-mercy", "-b", "random,heuristic", "-n", "4", "-g", "4", "--json")
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["rules"] == "nomercy"
    assert figures["games"] == 4
    assert {bot["name"] for bot in figures["bots"]} == {"random", "heuristic"}


def test_analyze_a_no_mercy_record(tmp_path: Path) -> None:
    made = invoke("simulate", "-r", "nomercy", "-n", "2", "-g", "1", "-s", "5", "--records", str(tmp_path))
    assert made.exit_code == 0, made.output
    record = tmp_path / "nomercy-5.json"
    result = invoke("analyze", "--iterations", "4", "--json", str(record))
    assert result.exit_code == 0, result.output
    review = json.loads(result.output)
    assert review["rules"] == "nomercy"
    assert review["decisions"]
    text = invoke("analyze", "--iterations", "4", str(record))
    assert text.exit_code == 0
    assert "Review of a nomercy game, 2 seats" in text.output


def test_a_protocol_view_keeps_the_seats_in_the_round() -> None:
    state = new_game("nomercy", 3, seed=1)
    view = view_for(state, 0)
    data = json.loads(json.dumps(view_to_json(view)))
    assert data["in_round"] == [True, True, True]
    assert data["power"] == []
    assert view_from_json(data) == view
    out = view._replace(power=(True, False, True), hand_sizes=(7, 0, 7))
    data = json.loads(json.dumps(view_to_json(out)))
    assert data["in_round"] == [True, False, True]
    assert view_from_json(data).power == (True, False, True)
    flex = view_for(new_game("flex", 3, seed=1), 0)
    assert view_from_json(json.loads(json.dumps(view_to_json(flex)))).power == (True, True, True)


def test_the_agent_says_what_taking_a_stack_draws() -> None:
    view = view_for(new_game("nomercy", 2, seed=1), 0)
    assert action_words(view, DRAW) == "draw a card"
    stacked = view._replace(pending="stack", details=(("stack", 6),))
    assert action_words(stacked, DRAW) == "take the 6 cards to draw"


def test_the_server_offers_no_mercy_only_the_official_preset_and_still_accepts_the_others() -> None:
    """GET /api/rules lists the presets that change something in a rule set (No Mercy takes none of their house
    rules); a preset left out is still accepted and sets nothing (docs/PROTOCOL.md)."""
    assert [preset["name"] for preset in presets_json(find_rules("nomercy"))] == ["official"]
    assert len(presets_json(find_rules("classic"))) == 5
    settings, _ = parse_settings({"rules": "nomercy", "seats": 3, "preset": "party", "options": {}})
    assert dict(settings.options) == {}
