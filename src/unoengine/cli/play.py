"""``uno play``: play UNO against bots in a full-screen terminal UI (seat 0 is you).

The command builds a :class:`~unoengine.cli.tui.Session` (a new game, or one
resumed from a record) and runs :class:`~unoengine.cli.tui.UnoApp`. It is a
Click command object; the ``uno`` group registers it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from click.core import ParameterSource

from unoengine.core.errors import InvalidNotationError, RecordError
from unoengine.core.record import ReplayError

if TYPE_CHECKING:
    from unoengine.core.state import GameState

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def option_value(text: str) -> bool | int | str:
    """A rule option's value from the command line: ``true``/``false``, an integer, else the text."""
    lowered = text.strip().lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    try:
        return int(lowered)
    except ValueError:
        return text.strip()


def option_items(items: tuple[str, ...]) -> dict[str, Any]:
    """``key=value`` items as an options mapping.

    Raises:
        click.BadParameter: an item without ``=``.
    """
    options: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"{item!r} must be written key=value", param_hint="--option")
        options[key.strip()] = option_value(value)
    return options


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
            conflicts.append(f"--option {key}={value}: the record says {key}={recorded.get(key, '(not an option)')}")
    return conflicts


def replay_command(state: GameState) -> str:
    """The ``uno play`` command line that deals the same game again (rules, seats, seed, options)."""
    words = ["uno play", f"--rules {state.rules.name}", f"--seats {state.seats}", f"--seed {state.seed}"]
    defaults = state.rules.options(None).to_dict()
    for key, value in sorted(state.options.to_dict().items()):
        if key in state.rules.option_names and defaults.get(key) != value:
            text = str(value).lower() if isinstance(value, bool) else str(value)
            words.append(f"--option {key}={text}")
    return " ".join(words)


@click.command("play", context_settings=CONTEXT)
@click.option(
    "-r",
    "--rules",
    type=click.Choice(["classic", "duo", "flex"], case_sensitive=False),
    default="classic",
    show_default=True,
    help="Rule set.",
)
@click.option("-n", "--seats", type=int, default=None, help="Seats, you included (default: 4; Duo: 2).")
@click.option(
    "--bots",
    default="heuristic",
    show_default=True,
    help="The bots: one name for all, or one per bot seat, comma-separated (heuristic, random, uniform).",
)
@click.option("-s", "--seed", type=int, default=None, help="The game's seed (default: a random one).")
@click.option(
    "--option",
    "options",
    multiple=True,
    metavar="KEY=VALUE",
    help="A rule option (repeatable), e.g. wild_draw_four=challenge or target_score=200.",
)
@click.option("--no-markers", is_flag=True, help="Hide the colour-blind markers (▲ yellow … ▲▲▲▲ red).")
@click.option(
    "--bot-delay",
    type=click.FloatRange(min=0),
    default=0.6,
    show_default=True,
    help="Seconds each bot waits before it acts.",
)
@click.option(
    "--save", type=click.Path(dir_okay=False, path_type=Path), help="Write the game record here after every action."
)
@click.option(
    "--resume",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Continue the game of a record (seat 0 is you).",
)
def play(
    *,
    rules: str,
    seats: int | None,
    bots: str,
    seed: int | None,
    options: tuple[str, ...],
    no_markers: bool,
    bot_delay: float,
    save: Path | None,
    resume: Path | None,
) -> None:
    """Play UNO against bots in a full-screen terminal UI. Press ? in the game for the keys.

    Classic plays to 500, Duo to 200, Flex a single round (the rule sets'
    defaults; change them with --option target_score=N or single_round=true).
    """
    from unoengine.cli.tui import Session, UnoApp

    names = [name.strip() for name in bots.split(",") if name.strip()]
    given = option_items(options)
    try:
        if resume is not None:
            session = Session.resume(resume, bots=names, save=save)
        else:
            session = Session.new(rules.lower(), seats, bots=names, seed=seed, options=given, save=save)
    except (RecordError, ReplayError) as error:
        raise click.ClickException(f"cannot resume {resume}: {error}") from None
    except (InvalidNotationError, ValueError) as error:
        raise click.UsageError(str(error)) from None
    if resume is not None:
        conflicts = resume_conflicts(
            click.get_current_context(), session.start, {"rules": rules, "seats": seats, "seed": seed, "options": given}
        )
        if conflicts:
            raise click.UsageError(
                "--resume plays the game of its record; these options disagree with it: " + "; ".join(conflicts)
            )
    if session.state.is_over:
        raise click.ClickException("that game is already over")
    UnoApp(session, bot_delay=bot_delay, show_markers=not no_markers).run()
    if save is not None:
        click.echo(f"Game saved to {save}")
    click.echo(f"seed {session.start.seed} — replay with: {replay_command(session.start)}")
