"""Saved games: nothing lost, nothing leaked (``uno play --save``, ``uno simulate --records``).

- a save is atomic: a process killed with SIGKILL at any moment of saving
  leaves a complete record that resumes (and the old truncate-then-write did not);
- a failed save is said on the screen, the game goes on, and no traceback of
  the app shows a local variable (a state's ``repr`` holds every hand);
- a refused ``--resume`` writes nothing;
- every refused file of ``uno play`` is one line naming it, exit status 2;
- records are never written through a symbolic link, nor into ``''``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from tests.tui_helpers import app_of, shown
from unoengine import parse_record, replay
from unoengine.cli.files import FileRefusedError, check_writable, read_text, write_text
from unoengine.cli.main import cli
from unoengine.cli.play import play
from unoengine.cli.session import HUMAN, Session
from unoengine.cli.tui import UnoApp

ROOT = Path(__file__).resolve().parents[1]
SIZE = (120, 40)

# -- killed while saving: the record is always whole -------------------------------------------

KILLER = textwrap.dedent(
    """
    import json, os, random, signal, sys, time
    from pathlib import Path

    import unoengine.cli.session as session_module
    from unoengine.cli.session import Session
    from unoengine.core.engine import legal_actions
    from unoengine.core.record import parse_record, replay

    path, kills, mode = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    if mode == "truncate-then-write":  # the save as it was: Path.write_text
        session_module.write_text = lambda target, text: target.write_text(text)
    Session.new("classic", 4, seed=11, options={"target_score": 1000}, save=path)
    good = path.read_text()
    timing = random.Random(5)
    report = {"kills": 0, "broken": [], "actions": []}
    for kill in range(kills):
        done, told = os.pipe()
        pid = os.fork()
        if pid == 0:  # the game: resume the record, then act and save as fast as possible
            try:
                os.close(done)
                session = Session.resume(path, save=path)
                moves = random.Random(kill)
                while True:
                    state = session.state
                    if state.is_over:
                        session.write()
                        continue
                    seat = state.to_act
                    session.act(seat, moves.choice(legal_actions(state, seat)))
                    os.write(told, b".")  # one byte per action saved
            finally:
                os._exit(1)
        os.close(told)
        # Progress is counted, not timed: wait for a few saved actions, then kill at
        # a random moment of the next save (a slow machine only makes it slower).
        wanted, seen = timing.randint(1, 4), 0
        while seen < wanted:
            got = os.read(done, wanted - seen)
            if not got:
                break
            seen += len(got)
        time.sleep(timing.uniform(0, 0.004))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(done)
        report["kills"] += 1
        text = path.read_text()
        try:
            record = parse_record(text)
            replay(record)
            Session.resume(path)
        except Exception as error:
            report["broken"].append(f"kill {kill}: {type(error).__name__}: {str(error)[:60]} ({len(text)} chars)")
            path.write_text(good)
            continue
        good = text
        report["actions"].append(len(record.actions))
    print(json.dumps(report))
    """
)


def kill_while_saving(folder: Path, kills: int, mode: str) -> dict[str, Any]:
    """Kill a saving game ``kills`` times with SIGKILL; after each kill, read, replay and resume its record."""
    done = subprocess.run(
        [sys.executable, "-c", KILLER, str(folder / "game.json"), str(kills), mode],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,  # a guard against a hang, not a measure: a loaded machine only makes it slower
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    return report


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork and SIGKILL")
def test_a_game_killed_while_saving_always_leaves_a_record_that_resumes(tmp_path: Path) -> None:
    report = kill_while_saving(tmp_path, 300, "atomic")
    assert report["kills"] == 300
    assert report["broken"] == []
    counts = report["actions"]
    assert counts == sorted(counts), "a resumed game lost actions"
    assert counts[-1] > 50, "the game did not get going between the kills"
    # What a kill leaves beside the record is a hidden temporary file, never a second record.
    others = [path.name for path in tmp_path.iterdir() if path.name != "game.json"]
    assert all(name.startswith(".game.json.") and name.endswith(".tmp") for name in others), others


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork and SIGKILL")
def test_the_kill_test_catches_a_save_that_truncates_then_writes(tmp_path: Path) -> None:
    """The same kills, with the old save (Path.write_text): they do find a broken record."""
    report = kill_while_saving(tmp_path, 150, "truncate-then-write")
    assert report["broken"], "150 kills never caught a half-written record: the test above proves nothing"


def test_write_text_replaces_the_whole_file_and_keeps_its_permissions(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    write_text(path, "first")
    path.chmod(0o640)
    write_text(path, "second, longer")
    assert path.read_text() == "second, longer"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_a_write_that_fails_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.json"
    write_text(path, "old")

    def full(descriptor: int, data: Any) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(FileRefusedError) as error:
        write_text(path, "new")
    monkeypatch.undo()
    assert str(error.value) == f"{path}: no space left on device"
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


@pytest.mark.parametrize(
    ("target", "problem"),
    [
        ("missing/game.json", "no such folder"),
        ("folder", "is a folder"),
        ("link.json", "is a symbolic link (never written through)"),
        ("/dev/full", "not a regular file"),
        ("/dev/null", "not a regular file"),
    ],
)
def test_write_text_refuses_what_is_not_a_regular_file(tmp_path: Path, target: str, problem: str) -> None:
    (tmp_path / "folder").mkdir()
    (tmp_path / "link.json").symlink_to(tmp_path / "elsewhere.json")
    path = tmp_path / target
    with pytest.raises(FileRefusedError, match=re.escape(problem)):
        check_writable(path)
    with pytest.raises(FileRefusedError, match=re.escape(problem)):
        write_text(path, "{}")
    assert not (tmp_path / "elsewhere.json").exists()


# -- a failed save: on the screen, and the game goes on ----------------------------------------


async def human_turn(app: UnoApp, pilot: Any) -> None:
    for _ in range(500):
        view = app.view
        if app.modal is None and view.to_act == HUMAN and view.pending == "turn" and not app.catchable():
            return
        await pilot.pause()
    raise AssertionError("never the person's turn")


@pytest.mark.asyncio
async def test_a_failed_save_is_shown_and_the_game_goes_on(tmp_path: Path) -> None:
    folder = tmp_path / "dir"
    folder.mkdir()
    path = folder / "g.json"
    session = Session.new("classic", 3, seed=0, save=path)
    app = app_of(session)
    async with app.run_test(size=SIZE) as pilot:
        await human_turn(app, pilot)
        shutil.rmtree(folder)
        steps = app.session.state.steps
        await pilot.press("d")
        await pilot.pause()
        assert app.session.state.steps == steps + 1, "the draw was not played"
        assert app.is_running
        assert session.save_error is not None
        message = shown(app, "message")
        assert "could not be saved" in message and "no such folder" in message
        folder.mkdir()  # the folder is back: the next action saves again, and says nothing
        await pilot.press("p")
        await pilot.pause()
        assert session.save_error is None
        assert "could not be saved" not in shown(app, "message")
        record = parse_record(path.read_text())
        assert list(record.actions) == session.actions and replay(record) == session.state


def test_a_failed_save_is_not_called_saved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "dir" / "g.json"
    path.parent.mkdir()

    def run(app: UnoApp, *args: Any, **kwargs: Any) -> None:
        shutil.rmtree(path.parent)
        app.session.act(app.session.state.to_act or 0, "draw")

    monkeypatch.setattr(UnoApp, "run", run)
    result = CliRunner().invoke(play, ["--seed", "7", "--seats", "3", "--save", str(path)])
    assert result.exit_code == 1, result.output
    assert "Game saved" not in result.output
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("error: The game could not be saved: ")
    assert "seed 7 — replay with" in result.stdout


def test_no_traceback_of_the_app_shows_a_hand(capsys: pytest.CaptureFixture[str]) -> None:
    import asyncio

    session = Session.new("classic", 3, seed=0)

    def broken(*args: Any) -> Any:
        raise RuntimeError("a bot failed")

    for bot in session.bots.values():
        bot.choose = broken  # type: ignore[method-assign,assignment]
    cards = session.state.tables.cards
    hands = [" ".join(str(cards[card]) for card in hand) for hand in session.state.hands]
    app = app_of(session)

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(100):
                await pilot.pause()

    with pytest.raises(RuntimeError, match="a bot failed"):
        asyncio.run(run())
    printed = capsys.readouterr()
    output = printed.out + printed.err
    assert "RuntimeError: a bot failed" in output, "no traceback was shown"
    flat = output.replace(",", " ")
    for hand in hands:
        assert hand not in flat
    assert "Session(" not in output and "state =" not in output
    assert app.return_code == 1


# -- a refused --resume writes nothing; a refused file is one line, exit status 2 --------------


def invoke(*args: str) -> Result:
    return CliRunner().invoke(play, list(args))


def assert_refused(result: Result, start: str) -> None:
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith(start), result.stderr


@pytest.fixture
def saved_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A saved Classic game of 3 seats, seed 7, under way."""
    monkeypatch.setattr(UnoApp, "run", lambda self, *args, **kwargs: None)
    path = tmp_path / "a.json"
    assert invoke("--seed", "7", "--seats", "3", "--save", str(path)).exit_code == 0
    return path


def over_game(tmp_path: Path) -> Path:
    result = CliRunner().invoke(cli, ["simulate", "--games", "1", "--seats", "2", "--records", str(tmp_path / "r")])
    assert result.exit_code == 0, result.output
    return tmp_path / "r" / "classic-0.json"


def test_a_refused_resume_does_not_touch_the_save_file(saved_game: Path, tmp_path: Path) -> None:
    other = tmp_path / "b.json"
    other.write_text("keep me")
    refused = invoke("--resume", str(saved_game), "--save", str(other), "--rules", "duo")
    assert_refused(refused, f"error: cannot resume {saved_game}: ")
    assert "--rules duo: the record says classic" in refused.stderr
    assert other.read_text() == "keep me"
    over = invoke("--resume", str(over_game(tmp_path)), "--save", str(other))
    assert_refused(over, "error: cannot resume ")
    assert over.stderr.endswith(": that game is already over\n")
    assert other.read_text() == "keep me"
    assert invoke("--resume", str(saved_game), "--save", str(other)).exit_code == 0
    assert parse_record(other.read_text()) == parse_record(saved_game.read_text())


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b'{"rules": "classic"', "not valid JSON"),
        (b"\xff\xfe{}", "not UTF-8 (byte 0)"),
        (b'{"rules": "classic", "seats": 2, "seed": 7, "actions": [{"seat": 0, "action": "draw"}]}', "action 0 "),
        (b'{"rules": "classic", "seats": 2, "seed": 7, "\\u001b]2;PWNED\\u0007": 1}', "unknown keys: \\x1b]2;PWNED"),
    ],
)
def test_a_record_that_cannot_be_resumed_is_one_line_exit_2(tmp_path: Path, content: bytes, problem: str) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    result = invoke("--resume", str(path))
    assert_refused(result, f"error: cannot resume {path}: ")
    assert problem in result.stderr
    assert "\x1b" not in result.stderr


def test_a_file_that_cannot_be_resumed_is_one_line_exit_2(tmp_path: Path) -> None:
    assert_refused(invoke("--resume", str(tmp_path / "nope.json")), f"error: cannot resume {tmp_path}/nope.json: ")
    assert_refused(invoke("--resume", str(tmp_path)), f"error: cannot resume {tmp_path}: is a folder")
    assert_refused(invoke("--resume", "/dev/zero"), "error: cannot resume /dev/zero: not a regular file")
    big = tmp_path / "big.json"
    with big.open("wb") as file:
        file.truncate(17 * 2**20)
    assert_refused(invoke("--resume", str(big)), f"error: cannot resume {big}: larger than the limit of 16 MiB")


@pytest.mark.parametrize(
    ("target", "problem"),
    [
        ("missing/g.json", "no such folder"),
        ("/dev/full", "not a regular file"),
        ("folder", "is a folder"),
        ("link.json", "is a symbolic link"),
    ],
)
def test_a_save_file_that_cannot_be_written_is_one_line_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, target: str, problem: str
) -> None:
    monkeypatch.setattr(UnoApp, "run", lambda self, *args, **kwargs: None)
    (tmp_path / "folder").mkdir()
    (tmp_path / "link.json").symlink_to(tmp_path / "elsewhere.json")
    path = tmp_path / target
    result = invoke("--seed", "3", "--save", str(path))
    assert_refused(result, f"error: cannot save to {path}: {problem}")
    assert not (tmp_path / "elsewhere.json").exists()


def test_a_save_file_with_escapes_in_its_name_is_shown_escaped(tmp_path: Path) -> None:
    path = tmp_path / "missing\x1b]2;PWNED\x07" / "g.json"
    result = invoke("--save", str(path))
    assert_refused(result, "error: cannot save to ")
    assert "\x1b" not in result.stderr and "\\x1b]2;PWNED\\x07" in result.stderr


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--rules", "duo", "--seats", "3"], "error: UNO Duo is for 2 seats, not 3"),
        (
            ["--bots", "nobody"],
            "error: unknown bot 'nobody' (known: easy, hard, heuristic, ismcts, medium, ppo, random, uniform, "
            "or module.path:Name)",
        ),
        (["--option", "colour=red"], "error: unknown option 'colour' for classic"),
        (["--option", "\x1b]2;x\x07=1"], "error: unknown option '\\x1b]2;x\\x07' for classic"),
    ],
)
def test_a_refused_argument_of_play_is_one_line_exit_2(args: list[str], line: str) -> None:
    assert_refused(invoke(*args), line)


def test_play_reads_ascii_digits_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(UnoApp, "run", lambda self, *args, **kwargs: None)
    assert invoke("--option", "target_score=\u0663").exit_code == 2
    assert invoke("--seed", "\u0663").exit_code == 2
    assert invoke("--seats", "\u0663").exit_code == 2
    assert invoke("--seed", "1" * 5000).exit_code == 2
    assert invoke("--seed", "12", "--seats", "3", "--option", "target_score=300").exit_code == 0


# -- --records: atomic, never through a symbolic link, never '' --------------------------------


def simulate(*args: str) -> Result:
    return CliRunner().invoke(cli, ["simulate", "--games", "3", "--seats", "2", "--seed", "4", "--json", *args])


def test_records_are_never_written_through_a_symbolic_link(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    (folder / "classic-5.json").symlink_to(victim)
    result = simulate("--records", str(folder))
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        f"error: cannot write the record {folder}/classic-5.json: is a symbolic link (never written through)\n"
    )
    assert victim.read_text() == "precious"
    assert (folder / "classic-5.json").is_symlink()


def test_records_need_a_folder_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = simulate("--records", "")
    assert result.exit_code == 2
    assert result.stderr == "error: --records needs a folder name (--records . is this folder)\n"
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "file").write_text("x")
    refused = simulate("--records", "file")
    assert refused.exit_code == 2
    assert refused.stderr == "error: cannot write records in file: not a folder\n"


def test_records_are_written_whole_and_replay(tmp_path: Path) -> None:
    folder = tmp_path / "new" / "records"
    result = simulate("--records", str(folder))
    assert result.exit_code == 0, result.output
    names = sorted(path.name for path in folder.iterdir())
    assert names == ["classic-4.json", "classic-5.json", "classic-6.json"]
    for name in names:
        assert replay(parse_record(read_text(folder / name))).is_over


def test_records_go_through_the_write_record_hook_once_simulate_has_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With ``simulate(write_record=...)`` the command hands it the atomic writer instead of a staging folder."""
    import unoengine.play.simulate
    from unoengine.cli import files

    real = unoengine.play.simulate.simulate
    given: list[Any] = []

    def simulate_with_hook(*args: Any, write_record: Any = None, records: Path | None = None, **kwargs: Any) -> Any:
        given.append((write_record, records))
        write_record(records / "classic-0.json", "{}")  # type: ignore[operator]
        return real(*args, **kwargs)

    monkeypatch.setattr(unoengine.play.simulate, "simulate", simulate_with_hook)
    result = simulate("--records", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert given == [(files.write_text, tmp_path)]
    assert (tmp_path / "classic-0.json").read_text() == "{}"
