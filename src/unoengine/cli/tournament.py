"""``uno tournament``: bots against each other over the same deals, with deal-bootstrap intervals and ratings."""

from __future__ import annotations

import importlib.util
import json
import tempfile
from pathlib import Path
from typing import Any

import click
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from unoengine.bots.base import BotError, bots_refusal, known_bots
from unoengine.cli.arguments import RULES_HELP, AsciiInt, Choice, Seconds, bot_names
from unoengine.cli.common import CONTEXT, EXIT_FAILED, fail, progress_bar
from unoengine.cli.files import problem_of, shown_path
from unoengine.core.errors import GameTooLongError, InvalidNotationError
from unoengine.core.options import PRESETS, describe_options, parse_options
from unoengine.core.rules import find_rules

PLOT_NAME = "tournament.png"
"""The chart's file name when ``--plot`` names an existing folder."""


def plot_path(text: str) -> Path:
    """The file ``--plot`` saves: ``FILE.png``, or ``FOLDER/tournament.png`` when ``text`` is an existing folder.

    Checked before any game is played: a name that does not end in ``.png``, a folder that
    does not exist, is not a folder or cannot be written in is refused (exit status 2).
    """
    shown = shown_path(text)
    if not text.strip():
        fail("error: --plot needs a file name (FILE.png) or an existing folder")
    if "\x00" in text:
        fail(f"error: --plot {shown}: not a file name (it holds a NUL character)")
    path = Path(text)
    if path.is_dir():
        path = path / PLOT_NAME
    elif path.suffix.lower() != ".png":
        fail(f"error: --plot {shown}: the chart is a PNG: give FILE.png or an existing folder")
    folder = path.parent
    where = shown_path(path)
    if not folder.is_dir():
        fail(f"error: cannot save the plot {where}: {shown_path(folder)} is not a folder (or does not exist)")
    if path.is_dir():
        fail(f"error: cannot save the plot {where}: it is a folder")
    try:  # a file made and removed at once: the folder can be written in (permissions, a read-only disk)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".uno-plot-", suffix=".png"):
            pass
    except OSError as error:
        fail(f"error: cannot save the plot {where}: {problem_of(error)}")
    return path


def _interval(low: float, high: float) -> str:
    """A win rate's interval in percent."""
    return f"{100 * low:.1f}–{100 * high:.1f}"


def tournament_table(figures: dict[str, Any], played: str | None = None) -> RenderableType:
    """The Rich rendering of a tournament's JSON figures; ``played``: the preset and options, in the header."""
    robin = figures.get("format") == "round-robin"
    where = f"heads-up round robin of {len(figures['bots'])} bots" if robin else f"{figures['seats']} seats"
    if robin:
        count = f"{figures['deals']} deals × {len(figures['pairings'])} pairings × {figures['seatings']} seatings"
    else:
        count = f"{figures['deals']} deals × {figures['seatings']} seatings"
    head = f"{figures['rules']}, {where}" + ("" if played is None else f", {played}")
    title = Text(
        f"{head}: {figures['games']} games ({count}, seed {figures['seed']}, {figures.get('seconds', 0):.1f} s)",
        style="bold",
    )
    caption = (
        f"95% intervals: {figures.get('resamples', 0)} resamples of the deals (a deal's games move together); "
        "forced: decisions with one legal action"
    )
    table = Table(title="Bots", title_justify="left", caption=caption, caption_justify="left")
    for column in ("bot", "games", "wins", "win", "95% CI", "forced", "points", "length", "dec/s", "ms/dec"):
        table.add_column(column, justify="left" if column == "bot" else "right", no_wrap=True)
    rated = any("rating" in bot for bot in figures["bots"])
    if rated:
        table.add_column("rating (95% CI)", justify="right", no_wrap=True)
    for bot in figures["bots"]:
        row = [
            bot["name"],
            str(bot["games"]),
            str(bot["wins"]),
            f"{100 * bot['win_rate']:.1f}%",
            _interval(bot["ci_low"], bot["ci_high"]),
            f"{100 * bot.get('forced_share', 0.0):.1f}%",
            f"{bot['mean_points']:.1f}",
            f"{bot['mean_length']:.1f}",
            f"{bot.get('decisions_per_s', 0):.0f}",
            f"{bot.get('ms_per_decision', 0):.2f}",
        ]
        if rated:
            rating = bot.get("rating")
            if rating is None:
                row.append("")
            elif rating.get("ci_low") is None:
                row.append(f"{rating['value']:+.0f}")
            else:
                row.append(f"{rating['value']:+.0f} ({rating['ci_low']:+.0f} to {rating['ci_high']:+.0f})")
        table.add_row(*row)
    parts: list[RenderableType] = [title, table]
    names = [bot["name"] for bot in figures["bots"]]
    if len(names) > 1:
        heading = (
            "Pairwise: the row's win rate against the column, heads-up (95% CI)"
            if robin
            else "Pairwise: how often the row finished ahead of the column, a tie a half (95% CI)"
        )
        pairs = Table(title=heading, title_justify="left")
        pairs.add_column("")
        for name in names:
            pairs.add_column(name, justify="right")
        intervals = figures.get("pairwise_ci", {})
        for row_name in names:
            cells = [row_name]
            for column in names:
                rate = figures["pairwise"].get(row_name, {}).get(column)
                bounds = intervals.get(row_name, {}).get(column)
                if rate is None:
                    cells.append("—")
                elif bounds is None:
                    cells.append(f"{100 * rate:.1f}%")
                else:
                    cells.append(f"{100 * rate:.1f}% ({_interval(*bounds)})")
            pairs.add_row(*cells)
        parts.append(pairs)
    if figures["no_winner"]:
        parts.append(Text(f"{figures['no_winner']} games ended with no winner"))
    return Group(*parts)


@click.command("tournament", context_settings=CONTEXT)
@click.option("-r", "--rules", default="classic", show_default=True, help=RULES_HELP)
@click.option(
    "-n",
    "--seats",
    type=AsciiInt(),
    default=None,
    help="Seats [default: as many as bots given, within the rule set's range].",
)
@click.option(
    "-b",
    "--bots",
    required=True,
    help=f"Comma-separated bot specs ({', '.join(known_bots())}, name:k=v, module:Name); "
    "fewer than the seats: the last fills the rest.",
)
@click.option(
    "--format",
    "format_name",
    type=Choice(["table", "round-robin"], case_sensitive=False),
    default="table",
    show_default=True,
    help="table: the bots at one table, in every seating; round-robin: every pair of bots heads-up.",
)
@click.option(
    "-g", "--games", type=AsciiInt(low=1), default=100, show_default=True, help="Games, rounded up to whole deals."
)
@click.option("-s", "--seed", type=AsciiInt(100), default=0, show_default=True, help="Deal d uses seed SEED + d.")
@click.option("-j", "--jobs", type=AsciiInt(low=1, high=256), default=1, show_default=True, help="Processes to use.")
@click.option(
    "--ray",
    "ray_address",
    is_flag=False,
    flag_value="local",
    default=None,
    metavar="[ADDRESS]",
    help="Play the games on a Ray cluster (extra 'cluster'); no address: a local Ray instance.",
)
@click.option(
    "--resamples",
    type=AsciiInt(low=100, high=100_000),
    default=1000,
    show_default=True,
    help="Resamples of the deals behind the 95% intervals (a bootstrap).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the figures as one JSON object.")
@click.option(
    "--plot",
    "plot_file",
    metavar="FILE.png",
    default=None,
    help=f"Save a chart of the win rates as FILE.png (an existing folder: {PLOT_NAME} in it); checked before any game.",
)
@click.option("--match", is_flag=True, help="Play whole games to the target score (default: single rounds).")
@click.option("-o", "--option", "option_items", multiple=True, metavar="KEY=VALUE", help="A rule option (repeatable).")
@click.option("--preset", default=None, metavar="NAME", help=f"House rules by name ({', '.join(PRESETS)}).")
@click.option(
    "--time-limit",
    type=Seconds(),
    default=None,
    metavar="SECONDS",
    help="A bot that takes longer for one decision fails the tournament.",
)
def tournament(
    *,
    rules: str,
    seats: int | None,
    bots: str,
    format_name: str,
    games: int,
    seed: int,
    jobs: int,
    ray_address: str | None,
    resamples: int,
    as_json: bool,
    plot_file: str | None,
    match: bool,
    option_items: tuple[str, ...],
    preset: str | None,
    time_limit: float | None,
) -> None:
    """Play bots against each other: every seating over the same deals.

    Each deal is played once in every distinct seating of the bots (two seats:
    twice, seats swapped), so the luck of the deal cancels; --format round-robin
    plays every pair of the bots heads-up over the same deals instead. The
    intervals resample whole deals; the ratings are fitted on all the games at
    once. The figures do not depend on --jobs (only the timings do).
    """
    from unoengine.play.tournament import (
        PLOT_NEEDS,
        ROUND_ROBIN,
        Runner,
        make_plan,
        plot,
        ray_runner,
        run_tournament,
    )

    try:
        ruleset = find_rules(rules)
        names = bot_names(bots)
    except (InvalidNotationError, ValueError) as error:
        fail(f"error: {error}")
    robin = format_name == ROUND_ROBIN
    if robin and seats not in (None, 2):
        fail(f"error: --format round-robin plays heads-up games, in 2 seats: not --seats {seats}")
    if seats is None:
        seats = 2 if robin else min(max(ruleset.seats.start, len(names)), ruleset.seats.stop - 1)
    if seats not in ruleset.seats:
        fail(f"error: {ruleset.title} is for {ruleset.seats.start}-{ruleset.seats.stop - 1} seats, not {seats}")
    try:
        round_item = f"single_round={'false' if match else 'true'}"
        options = parse_options(ruleset, [round_item, *option_items], preset=preset)
        plan = make_plan(ruleset.name, seats, names, games, seed, options, time_limit, format_name)
        refused = bots_refusal(names, ruleset.name, seats)
    except ValueError as error:
        fail(f"error: {error}")
    if refused is not None:
        fail(f"error: {refused}")
    picture = None if plot_file is None else plot_path(plot_file)
    if picture is not None and importlib.util.find_spec("matplotlib") is None:
        fail(f"error: --plot: {PLOT_NEEDS}")
    played = describe_options(ruleset, options, preset, leave_out=("single_round",)) + (
        ", whole games" if match else ""
    )
    runner: Runner | None = None
    if ray_address is not None:
        try:
            import ray  # noqa: F401
        except ImportError:
            fail("error: --ray needs Ray: pip install 'unoengine[cluster]'")
        runner = ray_runner(ray_address)
    err = Console(stderr=True)
    try:
        if err.is_terminal and not as_json:
            with progress_bar(err) as bar:
                task = bar.add_task("games", total=plan.games)
                result = run_tournament(
                    plan,
                    jobs=jobs,
                    runner=runner,
                    resamples=resamples,
                    progress=lambda done: bar.advance(task, done),
                )
        else:
            result = run_tournament(plan, jobs=jobs, runner=runner, resamples=resamples)
    except (BotError, GameTooLongError) as error:
        fail(f"error: {error}", EXIT_FAILED)
    figures = result.to_json()
    if picture is not None:
        try:
            plot(result, str(picture), played)
        except OSError as error:
            fail(f"error: cannot save the plot {shown_path(picture)}: {problem_of(error)}", EXIT_FAILED)
    if as_json:
        click.echo(json.dumps(figures))
    else:
        out = Console(highlight=False)
        if not out.is_terminal:
            out = Console(highlight=False, width=160)
        out.print(tournament_table(figures, played))
