"""Bad arguments and bad states: a clear, short, escaped refusal and never a traceback.

- a name the OS refuses (too long, no permission) for ``uno simulate --records``, and for every command;
- ``determinize`` of a view whose seats disagree with its rule set;
- a 50 MB token in a state notation (and in the other API calls' messages);
- numbers on the command line: ASCII digits, finite, bounded, in every command;
- ``uno serve --bot-delay nan`` (the server-process half is tests/server/test_bad_input_server.py);
- a folder name with a terminal escape in ``uno simulate``'s summary;
- ``uno play --rules`` of 5,000 characters, ``--bots ''`` and ``--bots ,``;
- ``Table.steps_since`` of what is not an integer;
- a name with a NUL character, a host or port ``uno serve`` cannot listen on.

Bad notation and bad records: tests/test_bad_notation_and_records.py.
"""

from __future__ import annotations

import random
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import pytest
import uvicorn
from click.testing import CliRunner, Result

from unoengine import determinize, new_game, parse_state, view_for
from unoengine.cli import tui
from unoengine.cli.arguments import MAX_SECONDS, parse_int, parse_seconds
from unoengine.cli.common import LINE_LIMIT
from unoengine.cli.files import FileRefusedError, read_text, write_text
from unoengine.cli.main import cli
from unoengine.core.errors import MESSAGE_LIMIT
from unoengine.play import Table
from unoengine.server.actor import ServerConfig

TOO_LONG = "n" * 300
"""A file name longer than any file system allows (ENAMETOOLONG)."""

NO_ACCESS = "/proc/1/fdinfo/x"
"""A name under a folder nobody may create anything in (EACCES, even as root)."""

TITLE = "\x1b]2;PWNED\x07"
"""A terminal escape that retitles the window."""


@pytest.fixture(autouse=True)
def nothing_starts(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """An argument these tests expect refused must never start a game or a server, nor make its database."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))

    def started(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the command started although its arguments were refused")

    monkeypatch.setattr(tui.UnoApp, "run", started)
    monkeypatch.setattr(uvicorn.Server, "run", started)
    monkeypatch.setattr(uvicorn, "run", started)


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def assert_refused(result: Result, start: str = "") -> str:
    """Exit status 2 and one short, escaped line (the last one, after Click's usage lines)."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert not isinstance(result.exception, AssertionError), result.exception
    lines = result.output.splitlines()
    assert lines, result.output
    for line in lines:
        assert len(line) <= LINE_LIMIT, len(line)
        assert line.isprintable(), line
    assert "Traceback" not in result.output
    assert lines[-1].startswith(start), lines[-1]
    return lines[-1]


# -- names the OS refuses ----------------------------------------------------------------------


@pytest.mark.parametrize("name", [TOO_LONG, f"{NO_ACCESS}/records", "a/" * 3000 + "x"])
def test_simulate_refuses_a_records_folder_the_os_refuses(name: str) -> None:
    line = assert_refused(run("simulate", "--games", "1", "--records", name), "error: cannot write records in ")
    assert line.endswith(("file name too long", "permission denied")), line


@pytest.mark.parametrize("name", [TOO_LONG, NO_ACCESS])
@pytest.mark.parametrize(
    "command",
    [
        lambda name: ["replay", name],
        lambda name: ["play", "--resume", name],
        lambda name: ["play", "--save", f"{name}/game.json" if name == NO_ACCESS else name],
        lambda name: ["simulate", "--games", "1", "--records", f"{name}/records" if name == NO_ACCESS else name],
    ],
    ids=["replay", "play --resume", "play --save", "simulate --records"],
)
def test_every_command_refuses_a_name_the_os_refuses_with_one_line(
    command: Callable[[str], list[str]], name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert_refused(run(*command(name)))


@pytest.mark.parametrize("name", [TOO_LONG + "/tables.sqlite3", f"{NO_ACCESS}/tables.sqlite3"])
def test_serve_refuses_a_database_the_os_refuses(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert_refused(run("serve", "--db", name, "--port", "0"), "error: cannot open the database ")


# -- determinize of a view that does not fit its rule set --------------------------------------


def _view() -> Any:
    state = new_game("classic", 3, seed=4)
    return view_for(state, state.to_act)


@pytest.mark.parametrize(
    "change",
    [
        {"seats": 0},
        {"seats": 2},
        {"seats": 11},
        {"seats": "3"},
        {"hand_sizes": (7, 7)},
        {"hand_sizes": (7, 7, 7, 7)},
        {"scores": (0, 0)},
        {"dealer": 3},
        {"to_act": -1},
        {"seat": 5},
        {"round_scores": ((1, 2),)},
    ],
)
def test_determinize_refuses_a_view_whose_seats_disagree(change: dict[str, Any]) -> None:
    view = _view()._replace(**change)
    with pytest.raises(ValueError, match="the view does not fit") as error:
        determinize(view, random.Random(1))
    assert len(str(error.value)) <= MESSAGE_LIMIT


def test_determinize_refuses_a_view_whose_own_hand_disagrees_with_its_size() -> None:
    view = _view()
    sizes = list(view.hand_sizes)
    sizes[view.seat] += 1
    with pytest.raises(ValueError, match="hand size"):
        determinize(view._replace(hand_sizes=tuple(sizes)), random.Random(1))


def test_determinize_of_a_fitting_view_gives_a_state_with_that_view() -> None:
    view = _view()
    assert view_for(determinize(view, random.Random(1)), view.seat) == view


# -- a 50 MB token: the message stays short ----------------------------------------------------

HUGE = "Z" * 50_000_000
"""A 50 MB token."""

GOOD = "classic/2 hands=R7,G2/B3,Y9 discard=R5 color=r pending=turn:0"


T = "\x00TOKEN\x00"
"""Where a template of :data:`PLACES` takes the long token."""

PLACES: list[str] = [
    T,
    f"{T}/2 hands=R7/B3 discard=R5 pending=turn:0",
    f"classic/{T} hands=R7/B3 discard=R5 pending=turn:0",
    f"{GOOD} {T}",
    f"{GOOD} {T}=1",
    *(
        f"{GOOD} {field}={T}"
        for field in ("seed", "shuffles", "round", "dealer", "color", "dir", "power", "unsafe", "blocked", "bottom")
    ),
    *(f"{GOOD} {field}={T}" for field in ("scores", "rounds", "winner", "outcome", "steps", "opts", "draw")),
    f"{GOOD} opts=target_score:{T}",
    f"{GOOD} opts=wild_draw_four:{T}",
    f"{GOOD} outcome={T}:0:0,0",
    f"{GOOD} outcome=win:0:{T},0",
    GOOD.replace("hands=R7,G2", f"hands=R7,{T}"),
    GOOD.replace("hands=R7,G2", f"hands=R7#{T}"),
    GOOD.replace("discard=R5", f"discard={T}"),
    GOOD.replace("pending=turn:0", f"pending={T}"),
    GOOD.replace("pending=turn:0", f"pending=turn:{T}"),
    GOOD.replace("pending=turn:0", f"pending=turn:0,{T}"),
    GOOD.replace("pending=turn:0", f"pending=drawn_card_choice:0,{T}"),
]
"""A good state with a place for a token in each field the parser reads."""


def _state(place: int, token: str) -> str:
    return PLACES[place].replace(T, token)


def _refusal(text: str) -> str:
    with pytest.raises(ValueError) as error:
        parse_state(text)
    return str(error.value)


@pytest.mark.parametrize("place", [0, 3, 11, 26, 29, 31], ids=lambda place: PLACES[place].replace(T, "<50 MB>"))
def test_parse_state_of_a_50_mb_token_says_so_in_at_most_400_characters(place: int) -> None:
    message = _refusal(_state(place, HUGE))
    assert len(message) <= MESSAGE_LIMIT, (len(message), message[:200])
    assert "…" in message, message


def test_a_long_token_anywhere_in_a_state_makes_a_short_message() -> None:
    for place in range(len(PLACES)):
        for token in ("Z" * 1_000_000, "9" * 1_000_000):
            message = _refusal(_state(place, token))
            assert len(message) <= MESSAGE_LIMIT, (place, len(message), message[:200])
            assert "…" in message or token[:10] not in message, message


@pytest.mark.parametrize(
    "call",
    [
        lambda: new_game(HUGE, 2, seed=1),
        lambda: new_game("classic", HUGE, seed=1),
        lambda: new_game("classic", 2, seed=HUGE),
        lambda: new_game("classic", 2, seed=1, dealer=HUGE),
        lambda: new_game("classic", 2, seed=1, deck=HUGE),
        lambda: new_game("classic", 2, seed=1, options={HUGE: 1}),
        lambda: new_game("classic", 2, seed=1, options={"target_score": HUGE}),
        lambda: new_game("classic", 2, seed=1, options={"wild_draw_four": HUGE}),
        lambda: new_game("classic", 2, seed=1, options=HUGE),
        lambda: view_for(new_game("classic", 2, seed=1), HUGE),  # type: ignore[arg-type]
        lambda: Table.new("classic", 2, seed=1).submit(HUGE, "draw"),
        lambda: Table.new("classic", 2, seed=1).submit(0, "draw", expected_version=HUGE),
        lambda: Table.new("classic", 2, seed=1).set_controller(HUGE, None),
        lambda: Table.new("classic", 2, seed=1).steps_since(HUGE),
    ],
)
def test_api_refusals_repeat_a_50_mb_value_in_short(call: Callable[[], object]) -> None:
    with pytest.raises(ValueError) as error:
        call()
    assert len(str(error.value)) <= MESSAGE_LIMIT, len(str(error.value))


# -- numbers on the command line ---------------------------------------------------------------

NOT_NUMBERS = ["nan", "inf", "-inf", "1e309", "1e3", "1_0", "٣", "３", "0x10", "", " ", "1.2.3", "9" * 19, "1" * 5000]
NOT_SECONDS = [*NOT_NUMBERS[:-2], "61", "60.001", "-1", "9" * 19, "1" * 5000, "Infinity", "1e-3"]


@pytest.mark.parametrize("text", NOT_SECONDS)
def test_play_refuses_a_bot_delay_that_is_not_a_bounded_ascii_number(text: str) -> None:
    assert_refused(run("play", "--bot-delay", text), "Error: Invalid value for '--bot-delay'")


@pytest.mark.parametrize("text", NOT_NUMBERS)
@pytest.mark.parametrize(
    "command",
    [
        ["play", "--seats"],
        ["play", "--seed"],
        ["simulate", "--seats"],
        ["simulate", "--games"],
        ["simulate", "--seed"],
        ["serve", "--port"],
    ],
    ids=" ".join,
)
def test_every_integer_option_reads_ascii_digits_only(command: list[str], text: str) -> None:
    if command[-1] == "--seed" and text == "9" * 19:
        return  # a seed may have 100 digits
    assert_refused(run(*command, text), "Error: Invalid value for ")


@pytest.mark.parametrize("text", NOT_SECONDS)
@pytest.mark.parametrize("command", [["play", "--bot-delay"], ["serve", "--bot-delay"]], ids=" ".join)
def test_every_seconds_option_is_finite_and_at_most_60(command: list[str], text: str) -> None:
    assert_refused(run(*command, text), "Error: Invalid value for '--bot-delay'")


@pytest.mark.parametrize("text", ["-1", "65536", "99999"])
def test_serve_refuses_a_port_out_of_range(text: str) -> None:
    assert_refused(run("serve", "--port", text), "Error: Invalid value for '--port': ")


def test_parse_seconds_and_parse_int_read_valid_numbers_and_refuse_the_rest() -> None:
    assert [parse_seconds(text) for text in ("0", "0.3", ".5", "2.", " 1.25 ", "60", "+1")] == [
        0.0,
        0.3,
        0.5,
        2.0,
        1.25,
        60.0,
        1.0,
    ]
    assert parse_int("007") == 7
    assert parse_int("-3") == -3
    assert parse_int("9" * 100, digits=100) == int("9" * 100)
    assert MAX_SECONDS == 60
    for text in NOT_SECONDS:
        with pytest.raises(ValueError):
            parse_seconds(text)
    with pytest.raises(ValueError, match="out of range"):
        parse_int("5", low=6)


def test_server_config_refuses_a_delay_that_is_not_a_finite_number() -> None:
    for value in (float("nan"), float("inf"), -1.0):
        with pytest.raises(ValueError, match="bot_delay"):
            ServerConfig(bot_delay=value)
    with pytest.raises(ValueError, match="message_rate"):
        ServerConfig(message_rate=float("nan"))
    assert ServerConfig(bot_delay=0).bot_delay == 0


# -- names are shown escaped -------------------------------------------------------------------


def test_simulate_shows_the_records_folder_escaped(tmp_path: Path) -> None:
    folder = tmp_path / f"games{TITLE}"
    result = run("simulate", "--games", "2", "--records", str(folder))
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.output and "\x07" not in result.output
    assert "2 records saved in " in result.output
    assert "\\x1b]2;PWNED\\x07" in result.output.replace("\n", "")  # the summary wraps long lines
    assert len(list(folder.iterdir())) == 2


# -- uno play --rules of 5,000 characters, --bots '' -------------------------------------------


@pytest.mark.parametrize("value", ["x" * 5000, TITLE])
def test_play_refuses_a_long_rules_value_in_one_short_line(value: str) -> None:
    line = assert_refused(run("play", "--rules", value), "Error: Invalid value for '-r' / '--rules': ")
    assert len(line) <= 200, len(line)


@pytest.mark.parametrize(
    "args", [["play", "--" + "x" * 5000], ["--" + "x" * 5000], ["play", "--" + TITLE], ["simulate", "x" * 5000]]
)
def test_every_usage_error_is_one_short_escaped_line(args: list[str]) -> None:
    assert_refused(run(*args), "Error: ")


@pytest.mark.parametrize("bots", ["", ",", "heuristic,", " , ", "x" * 5000])
def test_play_and_simulate_refuse_an_empty_or_unknown_bot_alike(bots: str) -> None:
    for result in (run("play", "--bots", bots), run("simulate", "--games", "1", "--bot", bots)):
        line = assert_refused(result, "error: unknown bot ")
        assert len(line) <= 200, len(line)


# -- Table.steps_since of what is not an integer -----------------------------------------------


@pytest.mark.parametrize("version", ["1", 1.0, None, True, [1], object()])
def test_table_steps_since_refuses_what_is_not_an_integer(version: object) -> None:
    table = Table.new("classic", 2, seed=1)
    with pytest.raises(ValueError, match="a version is an integer"):
        table.steps_since(version)
    assert table.steps_since(0) == []


def test_click_is_the_one_that_prints_usage_errors() -> None:
    """The group's class is the one that keeps usage errors short (a guard for the tests above)."""
    assert isinstance(cli, click.Group)
    assert type(cli).__name__ == "UnoGroup"


# -- NUL characters in names, hosts and ports serve cannot listen on ---------------------------


@pytest.mark.parametrize(
    "args",
    [["replay", "game\x00.json"], ["simulate", "--games", "1", "--records", "games\x00"]],
    ids=["replay", "simulate --records"],
)
def test_a_name_with_a_nul_character_is_refused_with_one_line(
    args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not from a shell (an argument cannot hold NUL), but from Python: ``cli.main(args)``, the file API."""
    monkeypatch.chdir(tmp_path)
    line = assert_refused(run(*args))
    assert "NUL" in line, line


def test_the_file_api_refuses_a_nul_character_as_a_refused_file(tmp_path: Path) -> None:
    for call in (lambda: read_text("a\x00b"), lambda: write_text(tmp_path / "a\x00b", "{}")):
        with pytest.raises(FileRefusedError, match="NUL"):
            call()


@pytest.mark.parametrize("host", [TITLE, "no such host.invalid", "999.1.1.1", ""])
def test_serve_refuses_a_host_it_cannot_listen_on_in_one_escaped_line(host: str) -> None:
    line = assert_refused(run("serve", "--memory", "--host", host, "--port", "0"), "error: cannot listen on ")
    assert "\x1b" not in line


def test_serve_refuses_a_port_in_use_before_it_says_where_to_open_it() -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        result = run("serve", "--memory", "--port", str(port))
    line = assert_refused(result, "error: cannot listen on '127.0.0.1' port ")
    assert "address already in use" in line
    assert "open http" not in result.output
