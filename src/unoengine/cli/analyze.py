"""``uno analyze``: review a game record, decision by decision (:mod:`unoengine.analysis`, docs/REVIEW.md).

``uno analyze RECORD [--seat N ...] [--iterations K] [--ms M] [--jobs J] [--seed S] [--json]``
reads a record (``-``: standard input), also of an unfinished game, and prints each
reviewed decision's win chance, the best move, its mark, and each seat's accuracy:
a Rich table (with a progress bar on stderr while it works), or one JSON object.
Bad input (a file that cannot be read, a refused record or action, a seat out of
range, a budget or ``--jobs`` below 1) is one line on stderr and exit status 2.
"""

from __future__ import annotations

import json

import click
from rich import box
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from unoengine.analysis import THRESHOLDS, Analysis, analyze, decisions_of
from unoengine.cli.arguments import AsciiInt
from unoengine.cli.common import CONTEXT, fail, progress_bar
from unoengine.cli.files import FileRefusedError, read_stdin_text, read_text
from unoengine.core.errors import InvalidNotationError, RecordError
from unoengine.core.record import Record, ReplayError, parse_record

MARK_STYLES = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}
"""Each mark's colour in the table."""

MAX_JOBS = 256
"""The most worker processes ``--jobs`` may ask for."""


def _load(file: str) -> Record:
    try:
        text = read_stdin_text() if file == "-" else read_text(file)
    except FileRefusedError as error:
        raise RecordError(f"cannot read {error}") from None
    return parse_record(text)


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def review_table(analysis: Analysis) -> RenderableType:
    """The review as Rich tables: the decisions, then the players."""
    head = Text.assemble(
        ("Review", "bold"),
        f" of a {analysis.rules} game, {analysis.seats} seats: {len(analysis.decisions)} decisions reviewed",
    )
    decisions = Table(box=box.SIMPLE_HEAD, show_edge=False)
    for name, justify in (
        ("#", "right"),
        ("seat", "right"),
        ("played", "left"),
        ("best", "left"),
        ("win", "right"),
        ("best win", "right"),
        ("mark", "left"),
    ):
        decisions.add_column(name, justify=justify)  # type: ignore[arg-type]
    for decision in analysis.decisions:
        mark = Text(decision.mark or "", style=MARK_STYLES.get(decision.mark or "", ""))
        best = decision.best if decision.best != decision.action else "="
        decisions.add_row(
            str(decision.index),
            str(decision.seat),
            decision.action,
            best,
            _percent(decision.win),
            _percent(decision.best_win),
            mark,
        )
    players = Table(box=box.SIMPLE_HEAD, show_edge=False)
    for name in ("seat", "accuracy", "decisions", "inaccuracies", "mistakes", "blunders"):
        players.add_column(name, justify="right")
    for player in analysis.players:
        players.add_row(
            str(player.seat),
            f"{player.accuracy:.1f}",
            str(player.decisions),
            str(player.inaccuracies),
            str(player.mistakes),
            str(player.blunders),
        )
    limits = ", ".join(f"{name} ≥ {100 * drop:.0f}" for name, drop in THRESHOLDS.items())
    note = Text(f"win: the chance of winning the round after the move; marks by the drop in points: {limits}")
    return Group(head, decisions, players, note)


@click.command("analyze", context_settings=CONTEXT)
@click.argument("file", metavar="RECORD")
@click.option(
    "--seat",
    "seat_list",
    type=AsciiInt(),
    multiple=True,
    metavar="N",
    help="Review this seat (repeatable; default all).",
)
@click.option(
    "--iterations",
    type=AsciiInt(),
    default=None,
    help="Deals of the hidden cards a decision (reproducible) [default: 800 unless --ms is given].",
)
@click.option(
    "--ms", type=AsciiInt(), default=None, help="A time budget a decision in milliseconds (not reproducible)."
)
@click.option("-j", "--jobs", type=AsciiInt(), default=1, show_default=True, help="Worker processes (same result).")
@click.option("-s", "--seed", type=AsciiInt(100), default=0, show_default=True, help="The review's random numbers.")
@click.option("--json", "as_json", is_flag=True, help="Print the review as one JSON object (docs/REVIEW.md).")
def analyze_command(
    *,
    file: str,
    seat_list: tuple[int, ...],
    iterations: int | None,
    ms: int | None,
    jobs: int,
    seed: int,
    as_json: bool,
) -> None:
    """Review the game record RECORD (- reads stdin): each decision's chance of winning, the best move and a mark.

    Every decision is judged from what its seat could see then (its view), never from
    the other hands or the deck order in the record. An unfinished game is reviewed up
    to its last action.
    """
    if not 1 <= jobs <= MAX_JOBS:
        fail(f"error: --jobs must be from 1 to {MAX_JOBS}, not {jobs}")
    if iterations is not None and not 1 <= iterations <= 1_000_000:
        fail(f"error: --iterations must be from 1 to 1000000, not {iterations}")
    if ms is not None and not 1 <= ms <= 600_000:
        fail(f"error: --ms must be from 1 to 600000, not {ms}")
    try:
        record = _load(file)
        seats = list(seat_list) or None
        for seat in seats or ():
            if not 0 <= seat < record.seats:
                fail(f"error: --seat {seat} is not a seat of this {record.seats}-seat game (0 to {record.seats - 1})")
        total = len(decisions_of(record, seats))
        err = Console(stderr=True)
        if not as_json and err.is_terminal and total > 0:
            with progress_bar(err) as bar:
                task = bar.add_task("decisions", total=total)
                result = analyze(
                    record,
                    seats,
                    iterations=iterations,
                    ms=ms,
                    jobs=jobs,
                    seed=seed,
                    progress=lambda done, _total: bar.update(task, completed=done),
                )
        else:
            result = analyze(record, seats, iterations=iterations, ms=ms, jobs=jobs, seed=seed)
    except ReplayError as error:
        fail(str(error))
    except (RecordError, InvalidNotationError) as error:
        fail(f"record refused: {error}")
    except ValueError as error:
        fail(f"error: {error}")
    if as_json:
        click.echo(json.dumps(result.to_json()))
    else:
        out = Console(highlight=False)
        if not out.is_terminal:
            out = Console(highlight=False, width=120)
        out.print(review_table(result))
