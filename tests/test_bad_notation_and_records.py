"""Bad notation and bad records: a clear, short, escaped refusal and never a traceback.

Numbers past any sensible size, text that is not text or not ASCII, echoed input
that carries terminal escapes or is megabytes long, a bad card in a record's deck,
and ``uno replay`` of files and pipes that are too large, endless or not UTF-8.
Bad command-line arguments and states: tests/test_bad_arguments_and_states.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from unoengine import (
    InvalidNotationError,
    RecordError,
    ReplayError,
    format_record,
    new_game,
    parse_action,
    parse_card,
    parse_record,
    record_of,
    replay,
)
from unoengine.cli.common import LINE_LIMIT
from unoengine.cli.main import cli
from unoengine.core.cards import Color
from unoengine.core.errors import EXCERPT_LIMIT, MESSAGE_LIMIT, excerpt, one_line

BIG = "1" * 5000
"""More digits than Python converts to an int by default (4,300)."""

TITLE = "\x1b]2;PWNED\x07"
"""A terminal escape that retitles the window."""


def record_text(**changes: Any) -> str:
    data: dict[str, Any] = {"format": "unoengine-record/1", "rules": "classic", "seats": 2, "seed": 7, "actions": []}
    data.update(changes)
    return json.dumps(data)


def assert_safe(message: str, limit: int = MESSAGE_LIMIT) -> None:
    """One line, no control character, at most ``limit`` characters."""
    assert len(message) <= limit, len(message)
    assert all(char.isprintable() for char in message), message


# -- a number of 4,300 digits, text that is not text, digits that are not ASCII ----------------


@pytest.mark.parametrize("text", [f"catch {BIG}", f"R7>{BIG}", f"W:g>{BIG}", f"FW+2@flex:r>{BIG}", f"R7>{BIG} uno"])
def test_an_action_with_a_huge_number_is_refused_as_notation(text: str) -> None:
    with pytest.raises(InvalidNotationError) as error:
        parse_action(text)
    assert_safe(str(error.value))


@pytest.mark.parametrize("text", ["catch 1234567890", "R7>0000000001", "FW+4@flex:y>9999999999"])
def test_a_seat_number_has_at_most_nine_digits(text: str) -> None:
    with pytest.raises(InvalidNotationError, match="at most 9 digits"):
        parse_action(text)
    assert parse_action("catch 123456789").seat == 123456789  # type: ignore[union-attr]
    assert parse_action("catch 007") == parse_action("catch 7")


def test_replay_of_a_huge_number_is_a_refused_action() -> None:
    record = parse_record(record_text(actions=[{"seat": 1, "action": f"catch {BIG}"}]))
    with pytest.raises(ReplayError) as error:
        replay(record)
    assert error.value.rule == "G-4"
    assert_safe(str(error.value))
    assert str(error.value).startswith("action 0 'catch 1111")


@pytest.mark.parametrize("value", [123, b"R7", None, 7.0, ["R7"], bytearray(b"R7")])
def test_parse_card_of_what_is_not_text_is_invalid_notation(value: object) -> None:
    with pytest.raises(InvalidNotationError, match="not a card"):
        parse_card(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [123, b"draw", None])
def test_parse_action_of_what_is_not_text_is_invalid_notation(value: object) -> None:
    with pytest.raises(InvalidNotationError, match="not an action"):
        parse_action(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text",
    [
        "catch \u0661",  # ARABIC-INDIC DIGIT ONE
        "R7>\u0663",
        "R\u0667",
        "R\u017f",  # LONG S, upper case 'S'
        "\u212aeep",  # KELVIN SIGN, lower case 'k'
        "R7\u00a0uno",  # NO-BREAK SPACE
        "ＲＲ",
        "draw\u3000",
    ],
)
def test_only_ascii_is_notation(text: str) -> None:
    with pytest.raises(InvalidNotationError, match="ASCII"):
        parse_action(text)


@pytest.mark.parametrize("text", ["R\u0667", "R\u017f", "\u0280\u0667", "W\u00a0", "r7\u200b"])
def test_only_ascii_is_a_card(text: str) -> None:
    with pytest.raises(InvalidNotationError, match="ASCII"):
        parse_card(text)


@pytest.mark.parametrize("value", ["\u0280", "red\u200b", 3, None, b"r"])
def test_only_ascii_text_is_a_colour(value: object) -> None:
    with pytest.raises(InvalidNotationError, match="not a colour"):
        Color.parse(value)  # type: ignore[arg-type]


def test_valid_notation_is_still_read_with_any_spacing_and_case() -> None:
    assert str(parse_action(" fw+2 @FLEX : r > 2 ")) == "FW+2@flex:r>2"
    assert str(parse_action("\tR7\n uno")) == "R7 uno"
    assert str(parse_action("COLOUR Yellow")) == "color y"
    assert str(parse_card(" g2 | y ")) == "G2|Y"


# -- echoed input is short and escaped ---------------------------------------------------------


def test_an_excerpt_is_repr_when_short_and_cut_when_long() -> None:
    assert excerpt("R7") == repr("R7")
    assert excerpt("it's") == repr("it's")
    assert excerpt(TITLE) == repr(TITLE)
    long = excerpt("x" * 10_000_000)
    assert len(long) <= EXCERPT_LIMIT and long.endswith("…'")
    assert len(excerpt("\x1b" * 1000)) <= EXCERPT_LIMIT
    assert "\x1b" not in excerpt("\x1b" * 1000)
    assert excerpt(10**5000) == "<an integer of 16610 bits>"
    assert len(excerpt([["x" * 1000] * 1000] * 1000)) <= EXCERPT_LIMIT


def test_one_line_escapes_every_control_character() -> None:
    assert one_line("a\nb\rc\td\x1b[2J\x07\u202e\x00") == "a\\nb\\rc\\td\\x1b[2J\\x07\\u202e\\x00"
    assert len(one_line("é" * 100_000)) == MESSAGE_LIMIT


def test_unknown_keys_of_a_record_are_escaped() -> None:
    with pytest.raises(RecordError) as error:
        parse_record(record_text(**{TITLE: 1, "two\nlines": 2}))
    message = str(error.value)
    assert_safe(message)
    assert "\\x1b]2;PWNED\\x07" in message and "two\\nlines" in message


def test_a_record_names_at_most_a_few_of_its_unknown_keys() -> None:
    with pytest.raises(RecordError) as error:
        parse_record(record_text(**{f"k{n}": n for n in range(100_000)}))
    assert_safe(str(error.value))
    assert str(error.value).endswith("and 99995 more")


@pytest.mark.parametrize(
    "changes",
    [
        {"rules": TITLE * 1000},
        {"format": TITLE * 1000},
        {"seats": TITLE * 1000},
        {"seed": [TITLE] * 100_000},
        {"options": {TITLE * 1000: 1}},
        {"options": {"target_score": TITLE * 1000}},
        {"options": {"wild_draw_four": TITLE * 1000}},
        {"deck": [TITLE * 1000]},
        {"deck": ["R1", 5]},
        {"actions": [{"seat": 0, "action": TITLE * 1000, "x": 1}]},
        {"seats": 10**4000},
        {"seats": -(10**4000)},
        {"dealer": 10**4000},
        {"seed": 10**4200},
    ],
)
def test_refused_records_repeat_a_short_escaped_excerpt(changes: dict[str, Any]) -> None:
    text = record_text(**changes)
    with pytest.raises(RecordError) as error:
        replay(parse_record(text))
    assert_safe(str(error.value))


@pytest.mark.parametrize("action", [TITLE * 1000, "R7" + " " * 1_000_000 + "x", "\x00" * 100_000])
def test_refused_actions_repeat_a_short_escaped_excerpt(action: str) -> None:
    record = parse_record(record_text(actions=[{"seat": 1, "action": action}]))
    with pytest.raises(ReplayError) as error:
        replay(record)
    assert_safe(str(error.value))
    assert error.value.action == action


def test_a_huge_seat_is_refused_in_short() -> None:
    record = parse_record(record_text(actions=[{"seat": 10**3000, "action": "draw"}]))
    with pytest.raises(ReplayError) as error:
        replay(record)
    assert_safe(str(error.value))


def test_parse_record_refuses_more_than_16_mib() -> None:
    limit = 16 * 1024 * 1024
    padding = " " * (limit - len(record_text()))
    assert replay(parse_record(record_text() + padding)).seats == 2  # exactly at the limit: read
    for text in (record_text() + padding + " ", (record_text() + padding + " ").encode()):
        with pytest.raises(RecordError, match="larger than the limit of 16 MiB"):
            parse_record(text)
    with pytest.raises(RecordError, match="larger than the limit"):
        parse_record("é" * (limit // 2 + 1))  # 2 bytes of UTF-8 each


@pytest.mark.parametrize("value", [None, 7, 7.5, ["{}"], {"rules": "classic"}])
def test_parse_record_of_what_is_not_text_is_a_record_error(value: object) -> None:
    with pytest.raises(RecordError, match="a record is JSON text"):
        parse_record(value)  # type: ignore[arg-type]


# -- a bad card of a deck names its position ---------------------------------------------------


def full_deck() -> list[str]:
    return list(json.loads(format_record(record_of(new_game("classic", 2, seed=7), [], deck=True)))["deck"])


def test_a_bad_card_in_the_deck_names_its_position() -> None:
    deck = full_deck()
    deck[17] = "x"
    with pytest.raises(RecordError) as error:
        parse_record(record_text(deck=deck)).start()
    assert str(error.value) == "deck[17]: not a card: 'x'"


def test_a_deck_entry_that_is_not_text_names_its_position() -> None:
    deck: list[Any] = full_deck()
    deck[3] = 7
    with pytest.raises(RecordError) as error:
        parse_record(record_text(deck=deck))
    assert "deck[3] is 7" in str(error.value)
    with pytest.raises(InvalidNotationError, match=r"deck\[2\] is not a card: 7"):
        new_game("classic", 2, seed=1, deck=["R1", "R2", 7])  # type: ignore[list-item]


# -- uno replay: bounded reads, one short escaped line -----------------------------------------

LIMIT = 16 * 1024 * 1024


def uno(*args: str, stdin: Any = subprocess.DEVNULL, memory: int = 2 * 1024**3) -> tuple[int, str, int]:
    """Run ``uno`` in a process of at most ``memory`` bytes: (exit status, stderr, peak memory in bytes).

    The cap keeps a reader that does not stop (as ``uno replay`` once was) from taking the machine's memory.
    """
    # The peak is the process's own VmHWM, written as it exits: the rusage of a child
    # inherits its parent's peak across exec on Linux (a test worker that imported a
    # large library would be counted).
    command = (
        f"import atexit, resource, sys; resource.setrlimit(resource.RLIMIT_AS, ({memory}, {memory})); "
        "atexit.register(lambda: sys.stdout.write(next(line for line in open('/proc/self/status') "
        "if line.startswith('VmHWM:')))); "
        "from unoengine.cli.main import main; sys.argv[0] = 'uno'; main()"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", command, *args], stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    out, err = process.communicate()
    error = err.decode("utf-8", "replace")
    peak = [line for line in out.decode("utf-8", "replace").splitlines() if line.startswith("VmHWM:")]
    assert peak, out[-200:]
    return process.returncode, error, int(peak[-1].split()[1]) * 1024


@pytest.fixture(scope="module")
def baseline() -> int:
    """The peak memory of ``uno replay`` refusing a missing file (the interpreter and the libraries)."""
    status, _, peak = uno("replay", "/nonexistent/record.json")
    assert status == 2
    return peak


def test_uno_replay_refuses_a_device_at_once() -> None:
    started = time.monotonic()
    status, error, _ = uno("replay", "/dev/zero")
    assert (status, error) == (2, "record refused: cannot read /dev/zero: not a regular file\n")
    assert time.monotonic() - started < 30


def test_uno_replay_reads_at_most_the_limit_from_an_endless_pipe(baseline: int) -> None:
    with open("/dev/zero", "rb") as zeros:
        status, error, peak = uno("replay", "-", stdin=zeros)
    assert (status, error) == (2, "record refused: cannot read standard input: larger than the limit of 16 MiB\n")
    assert peak - baseline < 3 * LIMIT, f"{(peak - baseline) / 2**20:.0f} MiB for reading 16 MiB"


def test_uno_replay_refuses_a_file_over_the_limit_unread(tmp_path: Path, baseline: int) -> None:
    big = tmp_path / "big.json"
    with big.open("wb") as file:
        file.truncate(4 * 1024**3)  # 4 GiB, sparse
    status, error, peak = uno("replay", str(big))
    assert (status, error) == (2, f"record refused: cannot read {big}: larger than the limit of 16 MiB\n")
    assert peak - baseline < LIMIT


@pytest.mark.parametrize("unit", ['{"seat": 1, "action": "draw"}', "[{}]"])
def test_a_record_at_the_limit_is_read_in_bounded_memory(tmp_path: Path, unit: str) -> None:
    """The longest record (mostly refused actions), and the JSON that costs the most memory per byte."""
    head, tail = '{"rules": "classic", "seats": 2, "seed": 7, "actions": [', "]}"
    count = (LIMIT - len(head) - len(tail)) // (len(unit) + 1)
    path = tmp_path / "large.json"
    path.write_text(head + ",".join([unit] * count) + tail)
    assert LIMIT - 100 < path.stat().st_size <= LIMIT
    status, error, peak = uno("replay", str(path))
    assert status == 2 and error.count("\n") == 1, error
    assert peak < 40 * LIMIT, f"{peak / 2**20:.0f} MiB"


def invoke(*args: str, input: str | bytes | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input)


def assert_one_line(result: Result, start: str) -> str:
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.stdout == ""
    assert result.stderr.startswith(start), result.stderr
    assert result.stderr.endswith("\n") and result.stderr.count("\n") == 1
    line = result.stderr[:-1]
    assert_safe(line, LINE_LIMIT)
    return line


def test_uno_replay_of_an_action_with_a_huge_number_is_one_line() -> None:
    for action in (f"catch {BIG}", f"R7>{BIG}", f"W:g>{BIG}", f"FW+2@flex:r>{BIG}"):
        text = record_text(actions=[{"seat": 1, "action": action}])
        assert_one_line(invoke("replay", "-", input=text), "action 0 ")


def test_an_action_of_50_mb_makes_a_short_error_line() -> None:
    text = record_text(actions=[{"seat": 1, "action": "R7" * 5_000_000}])
    line = assert_one_line(invoke("replay", "-", input=text), "action 0 'R7R7")
    assert len(line) < 300


def test_unknown_keys_cannot_retitle_the_terminal() -> None:
    text = record_text(**{TITLE: 1})
    line = assert_one_line(invoke("replay", "-", input=text), "record refused: unknown keys: ")
    assert line == "record refused: unknown keys: \\x1b]2;PWNED\\x07"


@pytest.mark.parametrize(
    "changes",
    [
        {"rules": TITLE},
        {"format": TITLE},
        {"options": {TITLE: 1}},
        {"options": {"wild_draw_four": TITLE}},
        {"deck": [TITLE]},
        {"actions": [{"seat": 1, "action": TITLE}]},
        {"actions": [{"seat": 1, "action": "draw", TITLE: 0}]},
    ],
)
def test_every_echoed_piece_of_input_is_escaped(changes: dict[str, Any]) -> None:
    line = assert_one_line(invoke("replay", "-", input=record_text(**changes)), "")
    assert "\\x1b]2;PWNED\\x07" in line


def test_uno_replay_names_a_file_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    text = record_text(rules="cl\xe4ssic")
    path.write_bytes(text.replace("\\u00e4", "\xe4").encode("latin-1"))
    line = assert_one_line(invoke("replay", str(path)), "record refused: ")
    assert line == f"record refused: cannot read {path}: not UTF-8 (byte {text.index('cl') + 2})"
    assert_one_line(invoke("replay", "-", input=b"\xff\xfe{}"), "record refused: cannot read standard input: not UTF-8")


def test_a_utf8_byte_order_mark_is_allowed(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + record_text().encode())
    assert invoke("replay", str(path), "--json").exit_code == 0


def test_simulate_reads_ascii_digits_only() -> None:
    assert_one_line(invoke("simulate", "--games", "1", "--option", "target_score=\u0663"), "error: option ")
    assert invoke("simulate", "--games", "\u0663").exit_code == 2
    assert invoke("simulate", "--games", "1", "--seed", "\u0663").exit_code == 2
    assert invoke("simulate", "--games", "1", "--option", f"target_score={BIG}", "--match").exit_code == 2
    assert invoke("simulate", "--games", "1", "--option", "target_score=50", "--match").exit_code == 0
