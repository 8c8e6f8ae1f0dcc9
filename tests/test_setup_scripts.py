"""The set-up scripts and their pinned installs (requirements/, written by scripts/lock from pyproject.toml).

scripts/uno installs requirements/play.txt (what playing needs), scripts/test requirements/all.txt
(everything), and a play-only .venv adds requirements/compile.txt before compiling the core: the three must
agree with pyproject.toml and with each other, or a first run installs something else than the pins say.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from unoengine.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)")
REQUIREMENT = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?(?:==(\S+))?$")


def normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(lock: str) -> dict[str, str]:
    """The packages a lock file pins, by normalised name: their versions (the local part, +cpu, left off)."""
    found: dict[str, str] = {}
    for line in (ROOT / "requirements" / lock).read_text(encoding="utf-8").splitlines():
        match = PIN.match(line)
        if match:
            found[normal(match[1])] = match[2].split("+")[0]
    return found


def wanted(requirements: list[str]) -> dict[str, str]:
    """pyproject's pinned requirements (``name==version``), by normalised name; the self-references left out."""
    found: dict[str, str] = {}
    for requirement in requirements:
        match = REQUIREMENT.match(requirement)
        assert match, requirement
        if normal(match[1]) != "unoengine":
            assert match[3], f"{requirement}: pyproject pins every requirement"
            found[normal(match[1])] = match[3]
    return found


def setup_extras() -> list[str]:
    match = re.search(r'^EXTRAS="([^"]+)"$', (ROOT / "scripts" / "setup").read_text(encoding="utf-8"), re.MULTILINE)
    assert match
    return match[1].split(",")


def test_the_play_lock_pins_every_dependency_and_only_what_playing_needs() -> None:
    play = pins("play.txt")
    for name, version in wanted(PYPROJECT["project"]["dependencies"]).items():
        assert play.get(name) == version, name
    for heavy in ("torch", "ray", "playwright", "matplotlib", "numpy", "mypy", "pytest"):
        assert heavy not in play


def test_the_full_lock_pins_every_extra_that_setup_installs() -> None:
    extras = PYPROJECT["project"]["optional-dependencies"]
    installed = setup_extras()
    assert set(extras) - set(installed) <= {"postgres", "rllib"}  # postgres comes with dev; rllib has a venv of its own
    full = pins("all.txt")
    for requirements in [PYPROJECT["project"]["dependencies"], *(extras[extra] for extra in installed)]:
        for name, version in wanted(requirements).items():
            assert full.get(name) == version, name


def test_the_play_and_compile_locks_agree_with_the_full_one() -> None:
    """A play-only .venv grown by scripts/setup into a full one keeps its versions."""
    full = pins("all.txt")
    for lock in ("play.txt", "compile.txt"):
        for name, version in pins(lock).items():
            assert full.get(name, version) == version, (lock, name)


def test_the_compile_lock_pins_the_build_requirements() -> None:
    compile_ = pins("compile.txt")
    for name, version in wanted(PYPROJECT["build-system"]["requires"]).items():
        assert compile_.get(name) == version, name


def test_every_lock_pins_with_hashes_and_says_how_to_refresh_it() -> None:
    for lock in ("play.txt", "all.txt", "compile.txt"):
        text = (ROOT / "requirements" / lock).read_text(encoding="utf-8")
        assert "#    ./scripts/lock" in text
        assert text.count("--hash=sha256:") >= len(pins(lock))


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
@pytest.mark.parametrize("script", ["setup", "uno", "test", "lock"])
def test_the_scripts_parse(script: str) -> None:
    subprocess.run(["bash", "-n", str(ROOT / "scripts" / script)], check=True, timeout=30)


def test_a_plot_without_matplotlib_names_the_extra(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """matplotlib is the plot extra's, not playing's: --plot without it says what to install, before any game."""
    from unoengine.core.options import parse_options
    from unoengine.play.tournament import PLOT_NEEDS, make_plan, plot, run_tournament

    assert 'pip install "unoengine[plot]"' in PLOT_NEEDS
    find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *args: None if name == "matplotlib" else find_spec(name, *args)
    )
    result = CliRunner().invoke(
        cli, ["tournament", "-b", "random,random", "-g", "2", "--plot", str(tmp_path / "p.png")]
    )
    assert result.exit_code == 2
    assert PLOT_NEEDS in result.output
    assert not (tmp_path / "p.png").exists()
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    options = parse_options("classic", ["single_round=true"])
    played = run_tournament(make_plan("classic", 2, ["random", "random"], 2, 1, options))
    with pytest.raises(ModuleNotFoundError, match=re.escape(PLOT_NEEDS)):
        plot(played, str(tmp_path / "p.png"))
