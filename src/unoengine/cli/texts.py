"""What the terminal game shows, as Rich text made from seat 0's view (G-2) and nothing else.

Pure functions of a :class:`~unoengine.core.views.PlayerView` (and the names
and choices of the screen): the status line, the players, the hand with the
picked card's effect in the table's words (both sides of a Flex card,
``describe_card``: the rule set's words changed by the table's options), the
round's summary and the final screen. Every coloured card carries its
colour-blind markers (F-5) unless they are turned off.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text

from unoengine.cli.session import HUMAN, RoundEnd
from unoengine.cli.stats import StatsUpdate, stats_lines
from unoengine.core.action_words import ActionInfo, describe_card
from unoengine.core.cards import COLORS, Card, Color, Rank, format_card
from unoengine.core.house.teams import partner_in, team_name
from unoengine.core.rules import RuleSet, find_rules
from unoengine.core.rules.option_specs import Options
from unoengine.core.views import PlayerView
from unoengine.play.narrator import Names, name_seats

MARKER = "▲"

_DEFAULT: Mapping[str, Any] = {}
"""No options given: the rule set's defaults (``describe_card``)."""

_CARD_STYLES: dict[Color, str] = {
    Color.RED: "bold white on #b71c1c",
    Color.YELLOW: "bold black on #fdd835",
    Color.GREEN: "bold white on #2e7d32",
    Color.BLUE: "bold white on #1565c0",
}
_WILD_STYLE = "bold white on #212121"

HELP = """\
UNO — keys (Enter or Escape closes this)

  ← / →, Home/End  pick a card (what it does shows below the hand)
  1-9, 0           pick the 1st-9th card (0 is the 10th)
  Enter            play the picked card (prompts ask for a colour,
                   a side, a target, and UNO when it matters)
  d / p            draw (or take the cards to draw) / pass
  u                call UNO (you hold one card, not called yet)
  c                catch a player with one card and no UNO, in time
  j                jump in: play out of turn (when the prompt says)
  PgUp / PgDn      scroll the log (l: the whole log on one page)
  / or :           type an action in notation: R7, W:g, G2|Y@flex,
                   FW+2@flex:r>2, draw, pass, uno, catch 1,
                   accept, challenge, keep, reject, color g
  Escape           leave the input
  ? / q            this help / quit (asks first)
  r                once the game is over: review it, every hand face up

Highlighted (★) cards can be played now.
Markers: ▲ yellow, ▲▲ green, ▲▲▲ blue, ▲▲▲▲ red.
"""


def markers(color: Color) -> str:
    """The colour-blind markers of a colour (F-5): ▲ yellow, ▲▲ green, ▲▲▲ blue, ▲▲▲▲ red."""
    return MARKER * color.markers


def card_text(card: Card, *, show_markers: bool = True) -> Text:
    """A card in its colours, with its notation and markers; both sides of a Flex card."""
    text = Text()
    notation = format_card(card)
    if card.color is None:
        text.append(f" {notation} ", style=_WILD_STYLE)
        return text
    normal = notation.split("|", 1)[0]
    label = f" {normal} {markers(card.color)} " if show_markers else f" {normal} "
    text.append(label, style=_CARD_STYLES[card.color])
    if card.flex_color is not None:
        side = f"|{card.flex_color.value} {markers(card.flex_color)} " if show_markers else f"|{card.flex_color.value} "
        text.append(side, style=_CARD_STYLES[card.flex_color])
    return text


def color_text(color: Color | None, *, show_markers: bool = True) -> Text:
    """The current colour in words, in that colour, with its markers."""
    if color is None:
        return Text("none")
    label = f" {color.word} {markers(color)} " if show_markers else f" {color.word} "
    return Text(label, style=_CARD_STYLES[color])


def flow(items: Sequence[Text], width: int, *, gap: str = " ", indent: str = "") -> Text:
    """Items on lines of at most ``width`` cells, breaking only between items (never inside one)."""
    out = Text()
    column = 0
    for item in items:
        size = item.cell_len
        if column and column + len(gap) + size > width:
            out.append("\n" + indent)
            column = len(indent)
        elif column:
            out.append(gap)
            column += len(gap)
        out.append_text(item)
        column += size
    return out


def side_labels(rules: RuleSet, card: Card, options: Options | Mapping[str, Any] = _DEFAULT) -> tuple[str, str]:
    """The two answers of the Flex side prompt (F-14): what each side of the card does (the table's words,
    ``describe_card``; ``options``: the table's, default the rule set's)."""
    normal = f"Normal side: {describe_card(rules, options, card, False)}"
    flex = f"Flex side: {describe_card(rules, options, card, True)} (your Power Card turns red)"
    return normal, flex


def effect(rules: RuleSet, card: Card, options: Options | Mapping[str, Any] = _DEFAULT) -> str:
    """What a card does at this table (its rule set and ``options``, ``describe_card``): both sides of a Flex card."""
    if not card.is_flex:
        return describe_card(rules, options, card)
    return f"normal side: {describe_card(rules, options, card)}; flex side: {describe_card(rules, options, card, True)}"


def hand_order(hand: Sequence[Card]) -> list[Card]:
    """The hand as shown: sorted by colour, then rank and number."""

    def key(card: Card) -> tuple[int, int, int, str]:
        colour = COLORS.index(card.color) if card.color is not None else len(COLORS)
        rank = list(Rank).index(card.rank)
        return (colour, rank, card.number if card.number is not None else -1, format_card(card))

    return sorted(hand, key=key)


def status_text(view: PlayerView, names: Names, seed: int, width: int, *, show_markers: bool = True) -> Text:
    """The status lines: rules, round, seed, top card and its effect, colour, pile, direction, whose turn."""
    rules = find_rules(view.rules)
    items = [Text(f"{rules.title} · round {view.round}", style="bold") + Text(f" · seed {seed}")]
    if view.top is None and view.outcome is None:
        discards = Text(f"Discards: {len(view.discard_pile)}")
        if view.discard_pile:
            discards.append(", top ")
            discards.append_text(card_text(view.discard_pile[-1], show_markers=show_markers))
        items.append(discards)
    else:
        top = card_text(view.top, show_markers=show_markers) if view.top is not None else Text("—")
        colour = color_text(view.color, show_markers=show_markers) if view.top is not None else Text("—")
        items += [Text("Top: ") + top, Text("Colour: ") + colour]
    items.append(Text(f"Draw pile: {view.draw_pile}"))
    if view.seats > 2:  # with two players the direction changes nothing (C-12): not shown
        items.append(Text("Direction: " + ("↻ clockwise" if view.direction == 1 else "↺ counterclockwise")))
    status = flow(items, width, gap="  ")
    status.append("\n")
    if view.outcome is not None:
        status.append("Game over", style="bold")
    else:
        who = "nobody" if view.to_act is None else names.subject(view.to_act)
        status.append(f"Turn: {who} ({view.words.title.lower()})", style="bold")
    return status


def players_text(view: PlayerView, names: Names, width: int) -> Text:
    """Each seat's hand size, score, Power Card and UNO state; a seat's line wraps between items."""
    players = Text()
    for seat in range(view.seats):
        mark = "▶ " if seat == view.to_act else "  "
        size = view.hand_sizes[seat]
        items = [
            Text(
                f"{mark}{names.subject(seat):<6} {size:>2} card{'s' if size != 1 else ' '}",
                style="bold" if seat == view.to_act else "",
            ),
            Text(f"score {view.scores[seat]:>4}"),
        ]
        mate = partner_in(view.options, view.seats, seat)
        if mate is not None:  # H-11: the teams are public (the options)
            items.append(Text(team_name(view.seats, seat) + (" (your partner)" if mate == view.seat else "")))
        if view.power:
            green = view.power[seat]
            power = Text("Power ")
            power.append(" ✔ green " if green else " ✘ red ", style="white on #2e7d32" if green else "white on #b71c1c")
            items.append(power)
        if view.unsafe == seat:
            items.append(Text("no UNO!", style="bold red"))
        players.append_text(flow(items, width, gap="  ", indent="    "))
        players.append("\n")
    if view.round_scores:
        players.append("\nRounds: " + " | ".join(" ".join(f"{d:+d}" for d in row) for row in view.round_scores))
    return players


def hand_text(
    view: PlayerView, infos: Sequence[ActionInfo], selected: int, width: int, *, show_markers: bool = True
) -> Text:
    """The hand, every card numbered, lines broken between cards; the picked card with its effect in words."""
    cards = hand_order(view.hand)
    mine = view.to_act == HUMAN
    playable = {info.card for info in infos if info.group == "hand"} if mine else set()
    text = Text(f"Your hand ({len(cards)}):\n", style="bold")
    pieces: list[Text] = []
    for index, card in enumerate(cards):
        piece = Text()
        piece.append("▶" if index == selected else " ", style="bold yellow")
        piece.append(f"{index + 1}:", style="bold" if card in playable else "dim")
        face = card_text(card, show_markers=show_markers)
        if card in playable:
            face.stylize("underline")
            face.append("★", style="bold yellow")
        elif mine:
            face.stylize("dim")
        piece.append_text(face)
        pieces.append(piece)
    text.append_text(flow(pieces, width, gap=" "))
    if cards:
        card = cards[selected]
        state = "playable" if card in playable else "not playable now"
        drawn = " (drawn)" if mine and card == view.drawn_card else ""
        what = effect(find_rules(view.rules), card, dict(view.options))
        text.append(f"\nPicked: {format_card(card)}{drawn} ({state}) — {what}", style="italic")
    return text


def round_cards(end: RoundEnd, names: Names, width: int, *, show_markers: bool = True) -> Text:
    """The hands left at the end of a round, card by card with their points (R-11)."""
    body = Text()
    for seat, cards in enumerate(end.hands):
        if not cards:
            continue
        items = [Text(f"  {names.subject(seat):<6}")]
        items += [card_text(card, show_markers=show_markers) + Text(f" {points}") for card, points in cards]
        items.append(Text(f" = {sum(points for _, points in cards)}"))
        body.append_text(flow(items, width, gap=" ", indent=" " * 9))
        body.append("\n")
    return body


def round_summary(end: RoundEnd, view: PlayerView, names: Names, width: int, *, show_markers: bool = True) -> Text:
    """The notice between rounds: the winner, the cards left with their points, the scores."""
    body = Text(f"Round {end.round} is over\n\n", style="bold")
    winner = "Nobody (a blocked round)" if end.winner is None else names.subject(end.winner)
    body.append(f"Winner: {winner}\n\nCards left, with their points:\n")
    body.append_text(round_cards(end, names, width, show_markers=show_markers))
    body.append("\n")
    for seat, delta in enumerate(end.deltas):
        body.append(f"  {names.subject(seat):<6} {delta:+5d}   total {view.scores[seat]:>5}\n")
    target = dict(view.options).get("target_score")
    body.append(f"\nPlaying to {target}. Press Enter for the next round.")
    return body


def game_over_text(
    view: PlayerView,
    names: Names,
    last: RoundEnd | None,
    stats: StatsUpdate | None,
    width: int,
    *,
    show_markers: bool = True,
) -> Text:
    """The final screen: the winner, the last round, the scores, and each player's statistics across games."""
    outcome = view.outcome
    assert outcome is not None
    body = Text("Game over\n\n", style="bold")
    if outcome.winner is None:
        body.append("Nobody won.\n\n")
    elif outcome.winner == HUMAN:
        body.append("You won!\n\n", style="bold green")
    else:
        body.append(f"{names.subject(outcome.winner)} won.\n\n")
    if view.round_scores:
        row = view.round_scores[-1]
        body.append("Last round: " + ", ".join(f"{names.subject(s)} {d:+d}" for s, d in enumerate(row)) + "\n")
    if last is not None:
        body.append("Cards left, with their points:\n")
        body.append_text(round_cards(last, names, width, show_markers=show_markers))
    for seat, score in enumerate(outcome.scores):
        body.append(f"  {names.subject(seat):<6} {score:>5}\n")
    if stats is not None:
        title = find_rules(stats.rules).title
        body.append(f"\nStatistics of every {title} game played here:\n", style="bold")
        body.append("\n".join(stats_lines(stats, [names.subject(seat) for seat in range(view.seats)])) + "\n")
        for problem in stats.problems:
            body.append(problem + "\n", style="bold red")
    body.append("\nPress Enter to look at the table, r: review this game, q to quit.")
    return body


def countdown(seconds_left: float | None) -> str:
    """The catch window's countdown, as the prompt shows it: `` (3 s left)``."""
    return "" if seconds_left is None else f" ({max(0, math.ceil(seconds_left))} s left)"


def prompt_text(
    view: PlayerView,
    infos: Sequence[ActionInfo],
    names: Names,
    *,
    reaction_open: bool,
    seconds_left: float | None,
) -> Text:
    """What the person may do now: an open UNO window with its countdown, then the decision with its keys."""
    lines: list[str] = []
    left = countdown(seconds_left)
    if view.unsafe is not None and view.unsafe != HUMAN and reaction_open:
        lines.append(f"{names.subject(view.unsafe)} has one card and did not call UNO: press c to catch!{left}")
    if view.unsafe == HUMAN:
        lines.append(f"You have one card: press u to call UNO before someone catches you!{left}")
    jumps = [info for info in infos if info.group == "react" and info.card is not None]
    if jumps and reaction_open:
        cards = " ".join(dict.fromkeys(format_card(info.card) for info in jumps if info.card is not None))
        lines.append(f"Out of turn: press j to jump in with {cards}!{left}")
    if view.outcome is not None:
        lines.append("The game is over. Press r to review it, q to quit.")
    elif view.to_act != HUMAN:
        lines.append(f"Waiting for {'nobody' if view.to_act is None else names.subject(view.to_act)}…")
    else:
        keys = {"hand": "Enter: play the picked card", "draw": "d: ", "pass": "p: "}
        hints: list[str] = []
        for info in infos:
            if info.group == "hand" and keys["hand"] not in hints:
                hints.append(keys["hand"])
            elif info.group == "decision" and info.type in keys:
                hints.append(keys[info.type] + info.label.lower())
        prompt = name_seats(view.words.prompt, names)
        lines.append(prompt + (f" ({' · '.join(hints)})" if hints else "") + ".")
    return Text("\n".join(lines[-2:]))
