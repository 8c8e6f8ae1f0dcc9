"""What every ``uno`` command shares: context settings, exit codes, the failure helper and the progress bar."""

from __future__ import annotations

import sys
from typing import NoReturn

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from unoengine.core.errors import MESSAGE_LIMIT, one_line

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}
"""Click's context settings of every command (``-h`` as ``--help``, 100 columns)."""

EXIT_REFUSED = 2
"""Exit status of a refused record, action, argument or file (docs/NOTATION.md)."""

EXIT_FAILED = 1
"""Exit status of work that ran but failed: a game too long, a bot that failed, a file not saved."""

LINE_LIMIT = MESSAGE_LIMIT + 100
"""The longest error line a command prints (docs/CLI.md, "Limits and errors")."""


def fail(message: str, status: int = EXIT_REFUSED) -> NoReturn:
    """Print ``message`` as one escaped line of at most :data:`LINE_LIMIT` on stderr and exit with ``status``."""
    click.echo(one_line(message, LINE_LIMIT), err=True)
    sys.exit(status)


CATCH_SECONDS = 3.0
"""How long the person of ``uno play`` has to call UNO or catch a bot before the bots react (``--catch-seconds``)."""


def progress_bar(console: Console) -> Progress:
    """The progress bar of a long command (``simulate``, ``tournament``, ``analyze``) on ``console`` (stderr):
    what it counts, the bar, done of total, time elapsed and the estimated time left; gone when done."""
    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    return Progress(*columns, console=console, transient=True)
