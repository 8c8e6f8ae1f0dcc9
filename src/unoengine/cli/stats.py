"""Statistics of ``uno play`` across games: each player's games, wins and points, per rule set.

They are kept in one small JSON file, ``$XDG_DATA_HOME/unoengine/stats.json``
(``~/.local/share/unoengine/stats.json`` when ``XDG_DATA_HOME`` is not set), and
shown on the final screen of every game. A finished game is counted once, when it
ends; a game quit before its end is not counted.

A file that cannot be read as statistics (not JSON, not this format, too large)
is reported and replaced by fresh statistics, never a crash; a file that cannot be
written is reported and the game goes on. The file is written atomically
(:func:`~unoengine.cli.files.write_text`).

The format (``unoengine-stats/1``)::

    {"format": "unoengine-stats/1",
     "rules": {"classic": {"You": {"games": 3, "wins": 1, "points": 812}, "Bot 1": {...}}}}

``points`` adds up each game's final score of that player.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from unoengine.cli.files import FileRefusedError, problem_of, read_text, shown_path, write_text
from unoengine.core.state import Outcome

FORMAT = "unoengine-stats/1"
MAX_STATS_BYTES = 1024 * 1024
"""The largest statistics file read (1 MiB): a player's line is a few dozen bytes."""

FIELDS = ("games", "wins", "points")


class PlayerStats(NamedTuple):
    """One player's games, wins and points in one rule set."""

    games: int = 0
    wins: int = 0
    points: int = 0


Stats = dict[str, dict[str, PlayerStats]]
"""Statistics by rule set, then by player name."""


class StatsUpdate(NamedTuple):
    """What recording one game did: the rule set's statistics after it, and what went wrong, if anything."""

    rules: str
    players: dict[str, PlayerStats]
    """Every player's statistics in this rule set, this game included."""
    problems: tuple[str, ...] = ()
    """One line each: an unreadable file that was replaced, a file that could not be written."""


def stats_path(environ: Mapping[str, str] | None = None) -> Path:
    """The statistics file: ``$XDG_DATA_HOME/unoengine/stats.json``, else under ``~/.local/share``."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_DATA_HOME", "")
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".local" / "share"
    return root / "unoengine" / "stats.json"


class StatsError(ValueError):
    """A statistics file that is not statistics (its reason)."""


def parse_stats(text: str) -> Stats:
    """Statistics from the file's text.

    Raises:
        StatsError: not JSON, not ``unoengine-stats/1``, or a field that is not a count.
    """
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise StatsError(f"not JSON ({str(error)[:80]})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("rules"), dict):
        raise StatsError(f"not {FORMAT}")
    stats: Stats = {}
    for rules, players in data["rules"].items():
        if not isinstance(players, dict):
            raise StatsError(f"rule set {rules[:40]!r} is not an object")
        stats[rules] = {}
        for name, fields in players.items():
            if not isinstance(fields, dict) or any(type(fields.get(key)) is not int for key in FIELDS):
                raise StatsError(f"player {name[:40]!r} has no counts of {', '.join(FIELDS)}")
            stats[rules][name] = PlayerStats(*(fields[key] for key in FIELDS))
    return stats


def format_stats(stats: Stats) -> str:
    """The file's text (sorted keys, one player per line)."""
    rules = {
        name: {player: dict(zip(FIELDS, counts, strict=True)) for player, counts in sorted(players.items())}
        for name, players in sorted(stats.items())
    }
    return json.dumps({"format": FORMAT, "rules": rules}, indent=1) + "\n"


def read_stats(path: Path) -> tuple[Stats, str | None]:
    """The statistics of ``path`` (none when it does not exist), and why it could not be read, if so."""
    if not path.exists() and not path.is_symlink():
        return {}, None
    try:
        return parse_stats(read_text(path, limit=MAX_STATS_BYTES)), None
    except (StatsError, OSError) as error:
        reason = error.problem if isinstance(error, FileRefusedError) else str(error)
        return {}, f"The statistics file {shown_path(path)} could not be read ({reason}): it was replaced"


def record_game(path: Path, rules: str, names: Sequence[str], outcome: Outcome) -> StatsUpdate:
    """Add one finished game to the statistics of ``path``: a game for every seat, a win, the final scores."""
    stats, problem = read_stats(path)
    players = stats.setdefault(rules, {})
    for seat, name in enumerate(names):
        old = players.get(name, PlayerStats())
        won = 1 if outcome.winner == seat else 0
        players[name] = PlayerStats(old.games + 1, old.wins + won, old.points + outcome.scores[seat])
    problems = [problem] if problem is not None else []
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text(path, format_stats(stats))
    except OSError as error:
        problems.append(f"The statistics could not be saved to {shown_path(path)}: {problem_of(error)}")
    return StatsUpdate(rules, dict(players), tuple(problems))


def stats_lines(
    update: StatsUpdate, order: Sequence[str], *, shown: Mapping[str, str] | None = None, lang: str = "en"
) -> list[str]:
    """The statistics as lines of a table, the players of ``order`` first (the game's seats).

    ``shown``: how a player's name (the file's key, English) is shown (``You`` in the reader's language);
    ``lang``: the language of the column heads (the columns are measured in cells by grapheme cluster).
    """
    from unoengine.cli.lang import cells, pad, rpad
    from unoengine.i18n import said, translate

    names = [*order, *sorted(set(update.players) - set(order))]
    # TRANSLATORS: the heads of the statistics' columns (short: each is right-aligned above numbers)
    heads = [translate(said("games"), lang), translate(said("wins"), lang), translate(said("win %"), lang)]
    heads.append(translate(said("points"), lang))
    labels = {name: (shown or {}).get(name, name) for name in names}
    first, widths = 8, [7, 7, 7, 9]  # English: the columns as they always were
    if lang != "en":  # wider columns where a translated head or name needs them
        first = max([8, *(cells(label) + 1 for label in labels.values())])
        widths = [max(w, cells(h) + 1) for w, h in zip(widths, heads, strict=True)]
    lines = ["  " + pad("", first) + "".join(rpad(h, w) for h, w in zip(heads, widths, strict=True))]
    for name in names:
        counts = update.players.get(name)
        if counts is None:
            continue
        share = f"{100 * counts.wins // counts.games}%" if counts.games else "-"
        values = [str(counts.games), str(counts.wins), share, str(counts.points)]
        cells_text = "".join(rpad(v, w) for v, w in zip(values, widths, strict=True))
        lines.append("  " + pad(labels[name], first) + cells_text)
    return lines


__all__ = [
    "FORMAT",
    "PlayerStats",
    "Stats",
    "StatsError",
    "StatsUpdate",
    "format_stats",
    "parse_stats",
    "read_stats",
    "record_game",
    "stats_lines",
    "stats_path",
]
