"""``uno play``: play UNO against bots in a full-screen terminal UI (seat 0 is you).

The command builds a :class:`~unoengine.cli.session.Session` (a new game, or one
resumed from a record) and runs :class:`~unoengine.cli.tui.UnoApp`. It is a
Click command object; the ``uno`` group registers it.

Everything is checked before anything is written: the record to resume, the
options against it, whether its game is over, and the file to save to. A file
that is refused is one line on stderr naming it and the problem, exit status 2.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click
from click.core import ParameterSource

from unoengine.cli.arguments import RULES_HELP, AsciiInt, RuleSetChoice, Seconds, bot_names
from unoengine.cli.common import CATCH_SECONDS, CONTEXT, EXIT_FAILED, EXIT_REFUSED
from unoengine.cli.files import FileRefusedError, shown_path
from unoengine.core.errors import InvalidNotationError, RecordError, excerpt, one_line
from unoengine.core.options import PRESETS, parse_options, preset_options
from unoengine.core.record import ReplayError
from unoengine.core.rules import find_rules
from unoengine.core.rules.ruleset import RuleSet
from unoengine.i18n import LANGUAGES

if TYPE_CHECKING:
    from unoengine.core.state import GameState


def refuse(message: str, status: int = EXIT_REFUSED) -> NoReturn:
    """Print ``message`` as one escaped line on stderr (``error: ...``) and exit with ``status``."""
    click.echo(one_line(f"error: {message}"), err=True)
    sys.exit(status)


def given_options(rules: str | RuleSet, items: tuple[str, ...], preset: str | None) -> dict[str, Any]:
    """The options the command line sets (the preset's, then each ``--option``), typed by the core's one parser.

    Only those options: the rest stay the rule set's defaults (or, with ``--resume``, the record's).

    Raises:
        InvalidNotationError: an item not written key=value, an unknown option or preset, a bad value.
    """
    ruleset = rules if isinstance(rules, RuleSet) else find_rules(rules)
    parsed = parse_options(ruleset, list(items), preset=preset).to_dict()
    named = [
        *(preset_options(ruleset, preset) if preset is not None else ()),
        *(i.partition("=")[0].strip() for i in items),
    ]
    return {name: parsed[name] for name in named}


def resume_conflicts(ctx: click.Context, state: GameState, given: dict[str, Any]) -> list[str]:
    """The options given with ``--resume`` that disagree with the record (the record decides)."""
    conflicts: list[str] = []

    def typed(name: str) -> bool:
        return ctx.get_parameter_source(name) is ParameterSource.COMMANDLINE

    if typed("rules") and given["rules"].lower() != state.rules.name:
        conflicts.append(f"--rules {given['rules']}: the record says {state.rules.name}")
    if typed("seats") and given["seats"] != state.seats:
        conflicts.append(f"--seats {given['seats']}: the record says {state.seats}")
    if typed("seed") and given["seed"] != state.seed:
        conflicts.append(f"--seed {given['seed']}: the record says {state.seed}")
    recorded = state.options.to_dict()
    for key, value in given["options"].items():
        if recorded.get(key, object()) != value:
            name, shown = excerpt(key, quote=False), excerpt(str(value), quote=False)
            conflicts.append(f"--option {name}={shown}: the record says {name}={recorded.get(key, '(not an option)')}")
    return conflicts


def replay_command(state: GameState, bots: Sequence[str] = ("heuristic",), command: str | None = None) -> str:
    """The ``uno play`` command line that deals the same game again: every setting (bots too).

    ``command`` is how ``uno`` was started (default: ``$UNO_COMMAND``, which ``./scripts/uno`` sets, else ``uno``).
    """
    program = command if command is not None else os.environ.get("UNO_COMMAND", "uno")
    names = list(bots) or ["heuristic"]
    shown_bots = names[0] if len(set(names)) == 1 else ",".join(names)
    words = [f"{program} play", f"--rules {state.rules.name}", f"--seats {state.seats}", f"--bots {shown_bots}"]
    words.append(f"--seed {state.seed}")
    defaults = state.rules.options(None).to_dict()
    for key, value in sorted(state.options.to_dict().items()):
        if key in state.rules.option_names and defaults.get(key) != value:
            text = str(value).lower() if isinstance(value, bool) else str(value)
            words.append(f"--option {key}={text}")
    return " ".join(words)


def seconds_option(name: str, default: float, text: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """An option that is a number of seconds, read by the one parser of numbers (``cli/arguments.py``)."""
    return click.option(name, type=Seconds(), default=default, show_default=True, help=text)


@click.command("play", context_settings=CONTEXT)
@click.option(
    "-r",
    "--rules",
    type=RuleSetChoice(),
    default="classic",
    show_default=True,
    help=RULES_HELP,
)
@click.option("-n", "--seats", type=AsciiInt(), default=None, help="Seats, you included (default: 4; Duo: 2).")
@click.option(
    "--bots",
    default="heuristic",
    show_default=True,
    help="The bots: one name for all, or one per bot seat, comma-separated (heuristic, random, uniform).",
)
@click.option("-s", "--seed", type=AsciiInt(100), default=None, help="The game's seed (default: a random one).")
@click.option(
    "-o",
    "--option",
    "options",
    multiple=True,
    metavar="KEY=VALUE",
    help="A rule option or house rule (repeatable), e.g. stack_draw=mixed, seven_zero=true or target_score=200"
    " (all of them: uno rules --list-options).",
)
@click.option(
    "--preset",
    type=click.Choice(sorted(PRESETS), case_sensitive=False),
    default=None,
    help="A set of house rules (official: the printed rules); --option items change it further.",
)
@click.option(
    "--lang",
    type=click.Choice(list(LANGUAGES), case_sensitive=False),
    default=None,
    help="The game's language: en (English), km (Khmer), si (Sinhala), lo (Lao)"
    " [default: from LC_ALL, LC_MESSAGES or LANG, else en]. Cards stay in notation (R7, W+4) in every language;"
    " --lang en is the fallback for a terminal without the script's font.",
)
@click.option("--no-markers", is_flag=True, help="Hide the colour-blind markers (▲ yellow … ▲▲▲▲ red).")
@seconds_option("--bot-delay", 0.6, "Seconds each bot waits before it acts (0 to 60).")
@seconds_option(
    "--catch-seconds",
    CATCH_SECONDS,
    "Seconds you have to call UNO or catch a bot before the bots react (0 to 60); a countdown shows them.",
)
@click.option(
    "--save",
    type=click.Path(path_type=Path),
    help="Write the game record here after every action (atomically: a complete record at every moment).",
)
@click.option(
    "--resume",
    type=click.Path(path_type=Path),
    help="Continue the game of a record (seat 0 is you; at most 16 MiB of UTF-8).",
)
def play(
    *,
    rules: str,
    seats: int | None,
    bots: str,
    seed: int | None,
    options: tuple[str, ...],
    preset: str | None,
    no_markers: bool,
    bot_delay: float,
    catch_seconds: float,
    save: Path | None,
    resume: Path | None,
    lang: str | None,
) -> None:
    """Play UNO against bots in a full-screen terminal UI. Press ? in the game for the keys.

    Classic plays to 500, Duo to 200, Flex and No Mercy a single round (the rule sets'
    defaults; change them with --option target_score=N or single_round=true).
    House rules: --preset party, or -o stack_draw=mixed -o jump_in=true (uno rules --list-options).
    Each player's games, wins and points are kept in $XDG_DATA_HOME/unoengine/stats.json
    (default ~/.local/share/unoengine/) and shown when a game ends.
    """
    from unoengine.cli.session import Session
    from unoengine.cli.stats import stats_path
    from unoengine.cli.tui import UnoApp
    from unoengine.i18n import language_from_env, said, translate

    lang = lang.lower() if lang is not None else language_from_env()

    try:
        names = bot_names(bots)
    except ValueError as error:
        refuse(str(error))
    given: dict[str, Any] = {}
    # Nothing is written until every check has passed: the session is built without its save file.
    try:
        if resume is not None:
            session = Session.resume(resume, bots=names)
            given = given_options(session.start.rules, options, preset)
        else:
            given = given_options(rules.lower(), options, preset)
            session = Session.new(rules.lower(), seats, bots=names, seed=seed, options=given)
    except FileRefusedError as error:
        refuse(f"cannot resume {error}")
    except (RecordError, ReplayError) as error:
        refuse(f"cannot resume {shown_path(resume or '')}: {error}")
    except (InvalidNotationError, ValueError) as error:
        refuse(str(error))
    if resume is not None:
        conflicts = resume_conflicts(
            click.get_current_context(), session.start, {"rules": rules, "seats": seats, "seed": seed, "options": given}
        )
        if conflicts:
            disagree = "; ".join(conflicts)
            refuse(f"cannot resume {shown_path(resume)}: the record decides, and these options disagree: {disagree}")
        if session.state.is_over:
            refuse(f"cannot resume {shown_path(resume)}: that game is already over")
    if save is not None:
        session.save = save
        try:
            session.write()
        except FileRefusedError as error:
            refuse(f"cannot save to {error}")
    session.stats = stats_path()
    if lang != "en":
        from unoengine.cli.lang import use_terminal_widths

        use_terminal_widths()  # the script's spacing vowel signs take a cell, as the terminal draws them
    app = UnoApp(session, bot_delay=bot_delay, catch_seconds=catch_seconds, show_markers=not no_markers, lang=lang)
    app.run()
    if app.return_code:
        saved = save is not None and session.save_error is None
        where = f" (saved to {shown_path(save or '')} up to its last action)" if saved else ""
        refuse(f"the game stopped on an unexpected error{where}", EXIT_FAILED)
    if save is not None and session.save_error is None:
        # TRANSLATORS: printed after the game; {path} is the record file
        click.echo(translate(said("Game saved to {path}", path=shown_path(save)), lang))
    command = replay_command(session.start, names)
    # TRANSLATORS: printed after the game; {command} is a command line (never translated)
    click.echo(translate(said("seed {seed} — replay with: {command}", seed=session.start.seed, command=command), lang))
    if session.save_error is not None:
        refuse(session.save_error, EXIT_FAILED)
