"""The ``uno`` command (Click): ``replay``, ``simulate`` and ``rules``.

- ``uno replay FILE [--json]`` plays a game record again (docs/NOTATION.md) and
  shows the final state; a refused record or action is one line on stderr and
  exit status 2, never a traceback. It reads at most 16 MiB, from a regular file
  or standard input, and only UTF-8.
- ``uno simulate`` plays bots against each other (:func:`unoengine.play.simulate.simulate`)
  and prints the figures, optionally saving every game as a record (written
  atomically, never through a symbolic link: :mod:`unoengine.cli.files`).
- ``uno perft`` counts a position's action sequences (:mod:`unoengine.cli.perft`).
- ``uno rules [RULESET]`` prints the rulebook (an exact copy of docs/RULES.md is
  shipped in this package as ``RULES.md``).
"""

from __future__ import annotations

import json
import platform
import re
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import click
from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text

from unoengine import __version__, _build
from unoengine.bots.base import BotError, bots_refusal, known_bots
from unoengine.cli.arguments import RULES_HELP, RULES_METAVAR, AsciiInt, UnoGroup, bot_names
from unoengine.cli.common import CONTEXT, progress_bar
from unoengine.cli.common import fail as _fail
from unoengine.cli.files import FileRefusedError, problem_of, read_stdin_text, read_text, shown_path, write_text
from unoengine.cli.serve import serve
from unoengine.core.cards import Card, Rank, card_name, format_card
from unoengine.core.errors import InvalidNotationError, RecordError
from unoengine.core.notation import format_state, state_to_json
from unoengine.core.options import (
    PRESET_WORDS,
    PRESETS,
    changed_options,
    describe_options,
    option_rulesets,
    option_text,
    parse_options,
    preset_options,
)
from unoengine.core.record import Record, ReplayError, parse_record, replay
from unoengine.core.rules import RULESETS, RuleSet, find_rules
from unoengine.core.state import GameState
from unoengine.i18n import DEFAULT, LANGUAGES, said, translate


def _stdout() -> Console:
    return Console(highlight=False)


def version_message() -> str:
    """``uno --version``: ``uno 0.1.0 (compiled build, CPython 3.11.7)``, or ``(pure Python build, ...)`` and why."""
    actual = _build.running()
    python = f"{platform.python_implementation()} {platform.python_version()}"
    if actual == "compiled":
        return f"%(prog)s %(version)s (compiled build, {python})"
    why = f": {_build.REASON}" if _build.BUILD == "pure" else ""
    return f"%(prog)s %(version)s (pure Python build, {python}){why}"


@click.group("uno", cls=UnoGroup, context_settings=CONTEXT)
@click.version_option(__version__, "-V", "--version", prog_name="uno", message=version_message())
def cli() -> None:
    """unoengine: UNO (Classic, Duo, Flex!, Show 'Em No Mercy) from the terminal.

    Replay and check game records, run bot simulations, read the rulebook.
    """


def _register_play() -> None:
    from unoengine.cli.play import play

    cli.add_command(play)


_register_play()
cli.add_command(serve)


def _register_tournament() -> None:
    from unoengine.cli.tournament import tournament

    cli.add_command(tournament)
    from unoengine.cli.remote import bot_command

    cli.add_command(bot_command)
    from unoengine.cli.agent import mcp_command

    cli.add_command(mcp_command)
    from unoengine.cli.perft import perft_command

    cli.add_command(perft_command)
    from unoengine.cli.analyze import analyze_command

    cli.add_command(analyze_command)


_register_tournament()


def main() -> None:
    """The ``uno`` console script (and ``python -m unoengine.cli``)."""
    cli(prog_name="uno")


# -- uno replay ----------------------------------------------------------------------


def _load_record(file: str) -> Record:
    """Read and parse the record in ``file`` (``-``: stdin): at most 16 MiB of UTF-8, from a regular file.

    Raises:
        RecordError: the file cannot be read, or is not a record.
    """
    try:
        text = read_stdin_text() if file == "-" else read_text(file)
    except FileRefusedError as error:
        raise RecordError(f"cannot read {error}") from None
    return parse_record(text)


class _Items:
    """A label and items on as many lines as the width needs, broken between items, never inside one."""

    def __init__(self, label: str, items: list[str]) -> None:
        self.label = label
        self.items = items

    def lines(self, width: int) -> list[str]:
        """The lines at ``width`` columns: each item whole, on the first line where it fits, else on a new one."""
        lines = [self.label]
        for index, item in enumerate(self.items):
            word = item + ("," if index < len(self.items) - 1 else "")
            if len(lines[-1]) + 1 + len(word) <= width:
                lines[-1] += " " + word
            else:
                lines.append("  " + word)
        return lines

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line in self.lines(options.max_width):
            yield Text(line, overflow="fold")  # folded only when one item is wider than the screen


def _seat_flags(data: dict[str, Any]) -> tuple[str, list[str]] | None:
    """The column of the seats' flags in a replay's summary, from the state's JSON: its head and each seat's cell
    (Flex's Power Cards, ``power``: green or red; No Mercy's seats still in the round, ``in_round``: yes or
    ``out``, knocked out by N-21), or ``None`` when the rule set keeps none."""
    if data.get("in_round"):
        return "in round", ["yes" if still else "out" for still in data["in_round"]]
    if data.get("power"):
        return "power", [str(side) for side in data["power"]]
    return None


def _replay_summary(record: Record, state: GameState) -> RenderableType:
    """A readable summary of the final state of a replayed record."""
    data = state_to_json(state)
    seats = state.seats
    head = Text.assemble(
        (state.rules.title, "bold"),
        f" ({state.rules.name}), {seats} seats, seed {state.seed}, round {data['round']}, ",
        f"{len(record.actions)} actions replayed",
    )
    changed = changed_options(state.rules, state.options)
    house = [f"{key}={option_text(value)}" for key, value in changed.items()]
    options = _Items("options:", house or ["(all defaults)"])
    table = Table(box=box.SIMPLE_HEAD, show_edge=False)
    table.add_column("seat", justify="right")
    table.add_column("cards", justify="right")
    table.add_column("score", justify="right")
    flags = _seat_flags(data)
    if flags is not None:
        table.add_column(flags[0])
    table.add_column("")
    table.add_column("hand", overflow="fold")
    winner = data["game_winner"]
    for seat in range(seats):
        marks = []
        if seat == data["to_act"]:
            marks.append(f"to act ({data['pending']})")
        if seat == winner:
            marks.append("winner")
        elif seat == data["round_winner"]:
            marks.append("won the last round")
        if seat == data["unsafe"]:
            marks.append("can be caught (no UNO)")
        row = [str(seat), str(len(data["hands"][seat])), str(data["scores"][seat])]
        if flags is not None:
            row.append(flags[1][seat])
        row += [", ".join(marks), " ".join(data["hands"][seat])]
        table.add_row(*row, style="bold" if seat in (data["to_act"], winner) else None)
    lines: list[RenderableType] = [head, options, table]
    top = data["top"] or "-"
    color = data["color"] or "-"
    direction = "clockwise" if data["direction"] == 1 else "counterclockwise"
    lines.append(
        Text(
            f"top card {top}, colour {color}, direction {direction}, "
            f"draw pile {data['draw_pile']}, discard pile {data['discard_pile']}"
        )
    )
    if data.get("volley"):
        lines.append(Text(f"volley: {data['volley']} cards to draw"))
    outcome = state.outcome
    if outcome is None:
        lines.append(Text(f"game in progress: seat {data['to_act']} to act ({data['pending']})"))
    elif outcome.winner is None:
        lines.append(Text(f"game over ({outcome.termination.value}): no winner", style="bold"))
    else:
        lines.append(Text(f"game over ({outcome.termination.value}): seat {outcome.winner} wins", style="bold"))
    return Group(*lines)


@cli.command("replay", context_settings=CONTEXT)
@click.argument("file", metavar="FILE")
@click.option("--json", "as_json", is_flag=True, help="Print the final state as one JSON object (NOTATION.md).")
@click.option(
    "--state", "as_state", is_flag=True, help="Print the final state in the one-line state notation (NOTATION.md)."
)
def replay_command(file: str, as_json: bool, as_state: bool) -> None:
    """Replay the game record FILE (- reads stdin) and show the final state.

    A record that cannot be replayed is refused on stderr with
    'record refused: REASON'; an illegal action with
    "action N 'ACTION' refused: RULE reason". Both exit with status 2.
    FILE is a regular file of at most 16 MiB of UTF-8.
    """
    try:
        record = _load_record(file)
        state = replay(record)
    except ReplayError as error:
        _fail(str(error))
    except (RecordError, InvalidNotationError) as error:
        _fail(f"record refused: {error}")
    if as_json:
        click.echo(json.dumps({**state_to_json(state), "options": state.options.to_dict()}))
    if as_state:
        click.echo(format_state(state))
    if not (as_json or as_state):
        _stdout().print(_replay_summary(record, state))


# -- uno simulate --------------------------------------------------------------------


def _seat_range(ruleset: RuleSet) -> str:
    low, high = ruleset.seats.start, ruleset.seats.stop - 1
    return f"{low} seats" if low == high else f"{low}-{high} seats"


def _default_seats(ruleset: RuleSet) -> int:
    return 4 if 4 in ruleset.seats else ruleset.seats.start


def _simulation_table(
    result: dict[str, Any], match: bool, seed: int, records: Path | None, played: str = "official rules"
) -> RenderableType:
    """The figures of ``uno simulate``; ``played``: the preset and options (:func:`describe_options`)."""
    mode = "whole games" if match else "single rounds"
    games = result["games"]
    seeds = f"seeds {seed}..{seed + games - 1}" if games > 1 else f"seed {seed}" if games else "no games"
    title = Text.assemble(
        (result["rules"], "bold"), f", {result['seats']} seats, {played}: {games} games ({mode}), {seeds}"
    )
    figures = Table(box=box.SIMPLE_HEAD, show_header=False)
    figures.add_column("figure")
    figures.add_column("value", justify="right")
    figures.add_row("games", str(result["games"]))
    figures.add_row("rounds", str(result["rounds"]))
    figures.add_row("actions", str(result["steps"]))
    figures.add_row("seconds", f"{result['seconds']:.3f}")
    figures.add_row("games / s", f"{result['games_per_s']:.1f}")
    figures.add_row("actions / s", f"{result['steps_per_s']:.0f}")
    figures.add_row("mean length (actions)", f"{result['mean_length']:.1f}")
    figures.add_row("median length (actions)", f"{result['median_length']}")
    wins = Table(box=box.SIMPLE_HEAD)
    wins.add_column("seat", justify="right")
    wins.add_column("bot")
    wins.add_column("wins", justify="right")
    wins.add_column("share", justify="right")
    games = result["games"] or 1
    for seat, (bot, count) in enumerate(zip(result["bots"], result["wins"], strict=True)):
        wins.add_row(str(seat), bot, str(count), f"{100 * count / games:.1f}%")
    if result["no_winner"]:
        wins.add_row("-", "no winner", str(result["no_winner"]), f"{100 * result['no_winner'] / games:.1f}%")
    parts: list[RenderableType] = [title, figures, wins]
    if records is not None:
        parts.append(Text(f"{result['games']} records saved in {shown_path(records)}"))
    return Group(*parts)


@cli.command("simulate", context_settings=CONTEXT)
@click.option("-r", "--rules", default="classic", show_default=True, help=RULES_HELP)
@click.option(
    "-n",
    "--seats",
    type=AsciiInt(),
    default=None,
    help="Number of seats [default: 4, or 2 for duo, or the number of bots given as a list].",
)
@click.option("-g", "--games", type=AsciiInt(low=0), default=1000, show_default=True, help="Games to play.")
@click.option(
    "-b",
    "--bot",
    default="random",
    show_default=True,
    help=f"Bot for every seat, or a comma-separated list, one per seat ({', '.join(known_bots())}; docs/BOTS.md).",
)
@click.option("-s", "--seed", type=AsciiInt(100), default=0, show_default=True, help="Game g uses seed SEED + g.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as one JSON object.")
@click.option(
    "--records",
    "records_folder",
    metavar="DIR",
    default=None,
    help="Save every game in this folder as a record that 'uno replay' accepts (created if missing).",
)
@click.option("--match", is_flag=True, help="Play whole games to the target score (default: single rounds).")
@click.option(
    "-o",
    "--option",
    "option_items",
    multiple=True,
    metavar="KEY=VALUE",
    help="A rule option (repeatable), e.g. stack_draw=mixed; see 'uno rules --list-options'.",
)
@click.option(
    "--preset",
    default=None,
    metavar="NAME",
    help=f"House rules by name ({', '.join(PRESETS)}); --option values apply on top.",
)
def simulate_command(
    *,
    rules: str,
    seats: int | None,
    games: int,
    bot: str,
    seed: int,
    as_json: bool,
    records_folder: str | None,
    match: bool,
    option_items: tuple[str, ...],
    preset: str | None,
) -> None:
    """Play GAMES games between bots and print the figures.

    Every game is one round (single_round) unless --match is given. The same
    arguments always give the same games.
    """
    from unoengine.core.errors import GameTooLongError
    from unoengine.play.simulate import simulate

    try:
        ruleset = find_rules(rules)
    except InvalidNotationError as error:
        _fail(f"error: {error}")
    try:
        names = bot_names(bot)
    except ValueError as error:
        _fail(f"error: {error}")
    if seats is None:
        seats = len(names) if len(names) > 1 else _default_seats(ruleset)
    if seats not in ruleset.seats:
        _fail(f"error: {ruleset.title} is for {_seat_range(ruleset)}, not {seats}")
    if len(names) == 1:
        names = names * seats
    elif len(names) != seats:
        _fail(f"error: {len(names)} bots for {seats} seats")
    try:
        round_item = f"single_round={'false' if match else 'true'}"
        options = parse_options(ruleset, [round_item, *option_items], preset=preset)
    except ValueError as error:
        _fail(f"error: {error}")
    try:
        refused = bots_refusal(names, ruleset.name, seats)
    except ValueError as error:
        _fail(f"error: {error}")
    if refused is not None:
        _fail(f"error: {refused}")
    records = None if records_folder is None else _records_folder(records_folder)

    def run(progress: Callable[[int], None] | None) -> dict[str, Any]:
        def play(folder: Path | None, tick: Callable[[int], None] | None, **hook: Any) -> dict[str, Any]:
            result = simulate(
                ruleset.name,
                seats,
                games,
                names,
                seed,
                options=options,
                match=match,
                records=folder,
                progress=tick,
                **hook,
            )
            return result.to_json()

        if records is None:
            return play(None, progress)
        return play(records, progress, write_record=write_text)

    err = Console(stderr=True)
    try:
        if not as_json and err.is_terminal and games > 0:
            with progress_bar(err) as bar:
                task = bar.add_task(f"{ruleset.name} games", total=games)
                figures = run(lambda done: bar.advance(task, done))
        else:
            figures = run(None)
    except (GameTooLongError, BotError) as error:
        _fail(f"error: {error}", 1)
    except FileRefusedError as error:
        _fail(f"error: cannot write the record {error}")
    except OSError as error:
        _fail(f"error: cannot write records in {shown_path(records or '')}: {problem_of(error)}")
    except ValueError as error:
        _fail(f"error: {error}")
    if as_json:
        click.echo(json.dumps(figures))
    else:
        played = describe_options(ruleset, options, preset, leave_out=("single_round",))
        _stdout().print(_simulation_table(figures, match, seed, records, played))


def _records_folder(text: str) -> Path:
    """The folder of ``--records``, created if missing; refused (exit 2) when it cannot be one."""
    if not text.strip():
        _fail("error: --records needs a folder name (--records . is this folder)")
    folder = Path(text)
    shown = shown_path(folder)
    if "\x00" in text:
        _fail(f"error: cannot write records in {shown}: not a folder name (it holds a NUL character)")
    try:
        if folder.exists() and not folder.is_dir():
            _fail(f"error: cannot write records in {shown}: not a folder")
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        _fail(f"error: cannot write records in {shown}: {problem_of(error)}")
    return folder


# -- uno rules -----------------------------------------------------------------------


def rulebook() -> str:
    """The rulebook's Markdown text (the package's copy of docs/RULES.md)."""
    return resources.files("unoengine.cli").joinpath("RULES.md").read_text(encoding="utf-8")


def rulebook_sections(text: str) -> tuple[str, list[tuple[str | None, str]]]:
    """The rulebook's preamble and its ``##`` sections, each with the letter of its rule numbers.

    A section's letter is that of the first rule number it defines (``**C-1**`` → ``C``;
    ``G`` for the shared rules, ``R`` for the readings), or ``None``.
    """
    parts = re.split(r"(?m)^(?=## )", text)
    preamble, sections = parts[0], parts[1:]
    found: list[tuple[str | None, str]] = []
    for section in sections:
        body = re.sub(r"\n\s*---\s*$", "\n", section.rstrip() + "\n").rstrip() + "\n"
        match = re.search(r"\*\*([A-Z])-\d+\*\*", body)
        found.append((match.group(1) if match else None, body))
    return preamble, found


def rules_text(ruleset: RuleSet | None) -> str:
    """The Markdown to show: the whole book, or one rule set with the shared rules and the readings."""
    text = rulebook()
    if ruleset is None:
        return text
    _, sections = rulebook_sections(text)
    wanted = (ruleset.rule_letter, "H", "G", "R")
    chosen = [body for letter in wanted for found, body in sections if found == letter]
    return "\n---\n\n".join(chosen)


def options_listing(rulesets: list[RuleSet]) -> str:
    """Each rule set's options (value, allowed values, rule, words, rule sets), then the presets."""
    lines: list[str] = []
    for ruleset in rulesets:
        lines.append(f"{ruleset.name} ({ruleset.title}, {_seat_range(ruleset)})")
        for spec in ruleset.option_specs:
            shown = json.dumps(spec.default) if isinstance(spec.default, bool) else str(spec.default)
            where = ",".join(option_rulesets(spec.name))
            lines.append(f"  {spec.name}={shown}".ljust(34) + f"({spec.values_text()}) {spec.rule} [{where}]")
            lines.append(f"      {spec.words}")
    lines.append("presets (--preset NAME; an option a rule set does not have is left out)")
    for name, words in PRESET_WORDS.items():
        lines.append(f"  {name}: {words}")
        for ruleset in rulesets:
            given = preset_options(ruleset, name)
            shown = " ".join(f"{k}={json.dumps(v) if isinstance(v, bool) else v}" for k, v in given.items())
            lines.append(f"      {ruleset.name}: {shown or '(printed rules)'}")
    return "\n".join(lines)


def card_kinds(ruleset: RuleSet) -> list[Card]:
    """One card of each kind in the rule set's deck (its default options), in the deck's order: the first
    colour's card and lowest number stand for the others (a kind: the rank, a wild, a flex side, the flip symbol,
    and a number that does something of its own, as No Mercy's 7 and 0, N-18)."""
    kinds: dict[tuple[object, ...], Card] = {}
    for card in ruleset.make_deck(ruleset.options(None)):
        notation = format_card(card)
        acts = card.rank is Rank.NUMBER and ruleset.describe_side(card, False) != card_name(card)
        key = (
            card.rank,
            card.color is None,
            card.flex_color is not None,
            notation.endswith("!"),
            card.number if acts else None,
        )
        kinds.setdefault(key, card)
    return list(kinds.values())


def rules_in_language(rulesets: list[RuleSet], lang: str) -> RenderableType:
    """``uno rules --lang``: each rule set's summary and what each kind of its cards does, in ``lang``,
    and a line saying that the full rulebook is in English."""
    from unoengine.cli.texts import effect
    from unoengine.core.rules.summaries import summary

    parts: list[RenderableType] = []
    for ruleset in rulesets:
        parts.append(Text(translate(ruleset.title, lang), style="bold"))
        parts.append(Text(translate(summary(ruleset.name), lang)))
        cards = Table(box=box.SIMPLE_HEAD, show_edge=False)
        # TRANSLATORS: the heads of the table of cards in "uno rules --lang": a card (in notation), what it does
        cards.add_column(translate(said("card"), lang), no_wrap=True)
        cards.add_column(translate(said("what it does"), lang), overflow="fold")
        options = ruleset.options(None)
        for card in card_kinds(ruleset):
            cards.add_row(format_card(card), effect(ruleset, card, options, lang))
        parts += [cards, Text("")]
    # TRANSLATORS: the last line of "uno rules --lang"; the commands are never translated
    note = said("The full rulebook is in English: uno rules (or uno rules --lang en).")
    parts.append(Text(translate(note, lang), style="italic"))
    return Group(*parts)


@cli.command("rules", context_settings=CONTEXT)
@click.argument("ruleset", required=False, metavar=RULES_METAVAR)
@click.option(
    "--list-options", is_flag=True, help="List every option (values, default, rule, rule sets) and the presets."
)
@click.option("--markdown", "raw", is_flag=True, help="Print the Markdown source instead of rendering it.")
@click.option(
    "--lang",
    type=click.Choice(list(LANGUAGES), case_sensitive=False),
    default=None,
    help="Each rule set in a paragraph and what every card does, in this language (the full rulebook is"
    " in English: without --lang, or with --lang en).",
)
def rules_command(ruleset: str | None, list_options: bool, raw: bool, lang: str | None) -> None:
    """Print the rulebook: all of it, or one rule set with the shared rules (G) and the readings (R)."""
    chosen: RuleSet | None = None
    if ruleset is not None:
        try:
            chosen = find_rules(ruleset)
        except InvalidNotationError as error:
            _fail(f"error: {error}")
    if lang is not None and lang.lower() != DEFAULT and not list_options:
        _stdout().print(rules_in_language([chosen] if chosen is not None else list(RULESETS.values()), lang.lower()))
        return
    if list_options:
        click.echo(options_listing([chosen] if chosen is not None else list(RULESETS.values())))
        return
    text = rules_text(chosen)
    if raw:
        click.echo(text, nl=not text.endswith("\n"))
    else:
        _stdout().print(Markdown(text))
