"""``uno play --lang``: the terminal game in English, Khmer, Sinhala and Lao.

The catalogs may not be translated yet: a tiny fake catalog (``unoengine.i18n._catalog``
patched) maps some of the terminal's messages to marked text, and the screen must show
it. Widths are counted by grapheme cluster (:mod:`unoengine.cli.lang`); a tmux session of
80×24 cells plays in Khmer and keeps its layout.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
import time
import unicodedata
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest
import wcwidth
from click.testing import CliRunner
from rich.cells import cell_len
from rich.text import Text

from tests.test_tui import SIZE, Trace, drive, screen_text, settle
from tests.tui_helpers import shown
from unoengine import i18n
from unoengine.cli.lang import cells, fit, graphemes, named, pad, subject
from unoengine.cli.play import play
from unoengine.cli.screens import NoticeScreen, QuitScreen
from unoengine.cli.session import Session
from unoengine.cli.texts import flow, help_text, players_text
from unoengine.cli.tui import UnoApp
from unoengine.play.narrator import Names

KHMER = "ព្រះរាជាណាចក្រកម្ពុជា ខ្មែរ ស្ត្រី"
SINHALA = "ශ්‍රී ලංකා සිංහල ක්‍රීඩාව"
LAO = "ສາທາລະນະລັດ ປະຊາທິປະໄຕ ກໍ່"
SAMPLES = {"km": KHMER, "si": SINHALA, "lo": LAO}

MARKS = {"km": "ខ្មែរ", "si": "සිංහල", "lo": "ລາວ"}


def fake_catalog(lang: str) -> Mapping[str, str | tuple[str, ...]]:
    """Some of the terminal's messages, marked with the language's own name (English: none)."""
    if lang == "en":
        return {}
    mark = MARKS[lang]
    return {
        "Your hand ({n}):": f"{mark} ({{n}}):",
        "Draw pile: {n}": f"{mark}-pile {{n}}",
        "{n} card": (f"{{n}} {mark}-cards",),
        "Turn: {who} ({decision})": f"{mark}-turn {{who}} ({{decision}})",
        "You": f"{mark}-you",
        "Bot {number}": f"{mark}-bot {{number}}",
        "Round {round} is over": f"{mark}-round {{round}} over",
        "Quit? y/n": f"{mark}? y/n",
        "Play": f"{mark}-play",
        "Enter: play the picked card": f"Enter: {mark}",
    }


@pytest.fixture
def catalog(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], Mapping[str, str | tuple[str, ...]]]:
    monkeypatch.setattr(i18n, "_catalog", fake_catalog)
    return fake_catalog


# -- widths by grapheme cluster -------------------------------------------------------


@pytest.mark.parametrize("lang", sorted(SAMPLES))
def test_a_line_is_as_wide_as_the_sum_of_its_grapheme_clusters(lang: str) -> None:
    text = SAMPLES[lang]
    clusters = graphemes(text)
    assert "".join(clusters) == text
    assert len(clusters) < len(text), "the script's marks join their letters"
    assert cells(text) == sum(max(wcwidth.width(c), cell_len(c)) for c in clusters)
    assert cells(text) >= max(wcwidth.width(text), cell_len(text)), "never narrower than the terminal counts"
    assert cells(pad(text, 60)) == 60
    assert cells(pad(text, 3)) == cells(text), "a text wider than the column is not cut"


def test_ascii_widths_are_the_length() -> None:
    assert cells("Bot 1 ▲▲") == 8
    assert pad("Bot 1", 6) == "Bot 1 "


@pytest.mark.parametrize("lang", sorted(SAMPLES))
def test_fit_breaks_lines_between_clusters_and_never_wider(lang: str) -> None:
    text = Text((SAMPLES[lang] + " ") * 6 + SAMPLES[lang].replace(" ", "") * 3, style="bold")
    for width in (7, 13, 30):
        folded = fit(text, width)
        clusters = set(graphemes(text.plain))
        for line in folded.plain.split("\n"):
            assert cells(line.rstrip()) <= width
            assert all(cluster in clusters or cluster == " " for cluster in graphemes(line.strip()))
        assert folded.plain.replace("\n", "").replace(" ", "") == text.plain.replace(" ", "")


def test_flow_measures_items_by_cluster() -> None:
    items = [Text(KHMER) for _ in range(5)]
    for line in flow(items, 40).plain.split("\n"):
        assert cells(line) <= 40


def test_names_in_a_language(catalog: object) -> None:
    names = Names.bots(3, 0)
    assert subject(names, 0, "km") == "ខ្មែរ-you"
    assert subject(names, 2, "si") == "සිංහල-bot 2"
    assert subject(names, 1, "en") == "Bot 1"
    assert named("seat 2 draws", names, "en") == "Bot 2 draws"
    session = Session.new("classic", 3, seed=2)
    session.speak("lo")
    assert "ລາວ-bot 2" in named("seat 2 draws", session.names, "lo")
    assert session.player_names == ["You", "Bot 1", "Bot 2"], "the statistics keep the English names"


def test_columns_of_names_hold_in_khmer(catalog: object) -> None:
    session = Session.new("classic", 4, seed=3)
    text = players_text(session.view_now(), session.names, 58, lang="km").plain
    rows = [line for line in text.split("\n") if "score" in line]
    starts = {cells(row[: row.index("score")]) for row in rows}
    assert len(rows) == 4
    assert len(starts) == 1, "the scores line up: names and counts padded by cells"


def test_help_in_a_language_keeps_its_keys(catalog: object) -> None:
    assert help_text("en").startswith("UNO — keys")
    khmer = help_text("km", 40)
    for key in ("Enter", "d / p", "PgUp / PgDn", "? / q"):
        assert key in khmer
    assert all(cells(line) <= 62 for line in khmer.splitlines())


# -- the game, driven headless in each language ---------------------------------------


def app_in(lang: str, rules: str = "duo", seats: int = 2, seed: int = 1) -> UnoApp:
    return UnoApp(Session.new(rules, seats, seed=seed), bot_delay=0, catch_seconds=30, lang=lang)


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", ["en", "km", "si", "lo"])
async def test_a_round_in_each_language_with_a_fake_catalog(lang: str, catalog: object) -> None:
    app = app_in(lang)
    trace = Trace()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        hand, status, players = shown(app, "hand"), shown(app, "status"), shown(app, "players")
        if lang == "en":
            assert re.search(r"Your hand \(\d+\):", hand)
            assert "Draw pile:" in status
            assert "Bot 1" in players
        else:
            mark = MARKS[lang]
            assert re.search(rf"{mark} \(\d+\):", hand)
            assert f"{mark}-pile" in status
            assert f"{mark}-turn {mark}-you" in status
            assert f"{mark}-bot 1" in players
            assert f"{mark}-you" in players
            assert "Your hand" not in hand
        await drive(app, pilot, trace)
        assert "round" in trace.notices
        title = "Round 1 is over" if lang == "en" else f"{MARKS[lang]}-round 1 over"
        assert title in trace.round_text
        assert len(app.lines) > 3, "the log has the narrator's lines"
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen)
        quit_text = str(app.screen.query_one("#quit").render())
        assert ("Quit? y/n" if lang == "en" else f"{MARKS[lang]}? y/n") in quit_text
        await pilot.press("n")
    assert app.return_code in (None, 0)


@pytest.mark.asyncio
async def test_the_footer_says_what_keys_do_in_the_language(catalog: object) -> None:
    app = app_in("km", "classic", 2, 1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        descriptions = {binding.description for binding in app._bindings.key_to_bindings["enter"]}
        assert descriptions == {"ខ្មែរ-play"}
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, NoticeScreen)
        assert "Enter" in screen_text(app)


@pytest.mark.asyncio
async def test_khmer_text_without_a_catalog_falls_back_to_english(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "_catalog", lambda lang: {})
    app = app_in("km")
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert re.search(r"Your hand \(\d+\):", shown(app, "hand"))


def test_play_lang_option(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []

    def run(self: UnoApp) -> None:
        seen.append(self.lang)

    monkeypatch.setattr(UnoApp, "run", run)
    runner = CliRunner()
    for args, env, wanted in (
        (["--lang", "si"], {}, "si"),
        (["--lang", "LO"], {}, "lo"),
        ([], {"LC_ALL": "", "LC_MESSAGES": "", "LANG": "km_KH.UTF-8"}, "km"),
        ([], {"LC_ALL": "C.UTF-8"}, "en"),
    ):
        result = runner.invoke(play, ["--seed", "4", *args], env=env)
        assert result.exit_code == 0, result.output
        assert seen[-1] == wanted
    result = runner.invoke(play, ["--lang", "fr"])
    assert result.exit_code == 2
    assert "'fr' is not one of 'en', 'km', 'si', 'lo'" in result.output


# -- a real terminal: tmux, 80×24 cells, in Khmer ------------------------------------------

TMUX_SCRIPT = textwrap.dedent(
    """
    import re, sys
    import unoengine.i18n as i18n
    from unoengine.i18n.catalogs import extract
    from unoengine.cli.main import cli

    WORD = sys.argv[1]
    def khmer(text):
        return re.sub(r"\\{\\w+\\}|\\b[a-z]{2,}\\b", lambda m: m.group(0) if m.group(0)[0] == "{" else WORD, text)
    messages = {}
    for message in extract():
        if message.id:
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            forms = tuple(khmer(i) for i in ids[-1:])
            messages[ids[0]] = forms if isinstance(message.id, tuple) else forms[0]
    lang = sys.argv[2]
    i18n._catalog = lambda code: messages if code == lang else {}
    sys.argv = ["uno", "play", "--lang", lang, "--seed", "7", "--bot-delay", "0.2", "--catch-seconds", "30"]
    cli(prog_name="uno")
    """
)


def tmux_columns(line: str) -> list[str]:
    """A line's cells as tmux lays them out, each cell's text: a spacing vowel sign (Mc) takes a cell, a
    non-spacing mark or a format character joins the cell before, and so does a letter after a zero-width
    joiner (as in an emoji); a wide character takes two cells (the second one empty)."""
    out: list[str] = []
    joined = False
    for char in line:
        if joined or (out and (char == "\u200d" or unicodedata.category(char) in ("Mn", "Me", "Cf"))):
            joined = char == "\u200d"
            out[-1] += char
            continue
        out.append(char)
        if unicodedata.east_asian_width(char) in ("W", "F"):
            out.append("")
    return out


def tmux_cells(line: str) -> int:
    """A line's width in tmux's cells (:func:`tmux_columns`)."""
    return len(tmux_columns(line))


WORDS = {"km": "ការលេង", "si": "ක්‍රීඩාව"}
"""A word of each script with spacing vowel signs (and, in Sinhala, a conjunct made with a zero-width joiner)."""


@pytest.mark.parametrize("lang", list(WORDS))
def test_a_script_in_tmux_at_80_by_24_keeps_its_layout(tmp_path: Path, lang: str) -> None:
    """Every box's right border stays in its column: the terminal game measures each spacing vowel sign
    as the terminal draws it (one cell, as glibc's wcwidth) and a joined conjunct's letters."""
    assert shutil.which("tmux"), "tmux is needed: scripts/terminal-deps installs it"
    script = tmp_path / "khmer_game.py"
    script.write_text(TMUX_SCRIPT, encoding="utf-8")
    socket = f"uno-lang-{os.getpid()}"
    env = {**os.environ, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color", "UNOENGINE_PURE": "1"}
    env["XDG_DATA_HOME"] = str(tmp_path)
    root = Path(__file__).resolve().parent.parent
    command = f"cd {root} && {sys.executable} {script} {WORDS[lang]} {lang}"
    tmux = ["tmux", "-u", "-L", socket]
    subprocess.run([*tmux, "new-session", "-d", "-x", "80", "-y", "24", command], env=env, check=True)
    try:
        screen = ""
        for _ in range(60):
            time.sleep(0.5)
            screen = subprocess.run(
                [*tmux, "capture-pane", "-p", "-t", "0"], env=env, capture_output=True, text=True, check=True
            ).stdout
            if "Enter:" in screen and re.search(r"▶?1:", screen):
                break
        lines = screen.splitlines()
        assert len(lines) <= 24
        assert all(tmux_cells(line) <= 80 for line in lines), screen
        assert WORDS[lang] in screen, "the language's words are shown"
        assert re.search(r"1:\s*[RYGBW]", screen), f"the hand's cards are shown in notation\n{screen}"
        assert "Enter:" in screen, f"the prompt with its key is shown\n{screen}"
        boxed = [line for line in lines if line.rstrip().endswith(("│", "╮", "╯"))]
        assert len(boxed) >= 5, f"the boxes' right borders are in place\n{screen}"
        edges = [line.rstrip() for line in lines if line.rstrip().endswith(("│", "╮", "╯"))]
        drifted = [line for line in edges if tmux_cells(line) not in (40, 80)]
        assert not drifted, f"every box's right border in its column (40 or 80)\n{screen}"
        top = next(index for index, line in enumerate(lines) if line.startswith("╭") and "╮╭" in line)
        bottom = next(index for index in range(top, len(lines)) if lines[index].startswith("╰"))
        rows = [tmux_columns(line) for line in lines[top : bottom + 1]]
        broken = ["".join(cols) for cols in rows if len(cols) < 41 or cols[39] not in ("│", "╮", "╯")]
        assert not broken, "the players' box keeps its right border beside the log's\n" + "\n".join(broken)
    finally:
        subprocess.run([*tmux, "kill-server"], env=env, check=False)
