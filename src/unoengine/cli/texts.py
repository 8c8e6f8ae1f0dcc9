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

from unoengine.cli.lang import cells, fit, named, pad, subject, words
from unoengine.cli.session import HUMAN, RoundEnd
from unoengine.cli.stats import StatsUpdate, stats_lines
from unoengine.core.action_words import ActionInfo, describe_card
from unoengine.core.cards import COLORS, Card, Color, Rank, format_card
from unoengine.core.house.teams import partner_in, team_name
from unoengine.core.rules import RuleSet, find_rules
from unoengine.core.rules.option_specs import Options
from unoengine.core.views import PlayerView
from unoengine.i18n import DEFAULT, said, said_n, translate
from unoengine.play.narrator import Names

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

HELP_KEYS_WIDTH = 17
"""The column of the help's keys (the keys are letters in every language)."""

NOTATION_EXAMPLES = (
    "R7, W:g, G2|Y@flex, FW+2@flex:r>2, draw, pass, uno, catch 1, accept, challenge, keep, reject, color g"
)


def help_text(lang: str = DEFAULT, width: int = 62) -> str:
    """The keys' help in ``lang`` (English: :data:`HELP` as it is): each key with what it does, folded at ``width``."""
    if lang == DEFAULT:
        return HELP
    rows = [
        ("← / →, Home/End", said("pick a card (what it does shows below the hand)")),
        ("1-9, 0", said("pick the 1st-9th card (0 is the 10th)")),
        (
            "Enter",
            said("play the picked card (prompts ask for a colour, a side, a target, and UNO when it matters)"),
        ),
        ("d / p", said("draw (or take the cards to draw) / pass")),
        ("u", said("call UNO (you hold one card, not called yet)")),
        ("c", said("catch a player with one card and no UNO, in time")),
        ("j", said("jump in: play out of turn (when the prompt says)")),
        ("PgUp / PgDn", said("scroll the log (l: the whole log on one page)")),
        # TRANSLATORS: {examples} are actions in notation (R7, W:g, draw, pass …), never translated
        ("/ or :", said("type an action in notation: {examples}", examples=NOTATION_EXAMPLES)),
        ("Escape", said("leave the input")),
        ("? / q", said("this help / quit (asks first)")),
        ("r", said("once the game is over: review it, every hand face up")),
    ]
    lines = [translate(said("UNO — keys (Enter or Escape closes this)"), lang), ""]
    indent = " " * (HELP_KEYS_WIDTH + 2)
    for key, what in rows:
        folded = fit(Text(translate(what, lang)), max(20, width - len(indent))).plain.split("\n")
        lines.append("  " + key.ljust(HELP_KEYS_WIDTH) + folded[0].rstrip())
        lines += [indent + line.strip() for line in folded[1:]]
    lines.append("")
    lines.append(translate(said("Highlighted (★) cards can be played now."), lang))
    colours = {color.name.lower(): words(color.word, lang) for color in COLORS}
    # TRANSLATORS: the colour-blind markers; {yellow}, {green}, {blue}, {red} are colour words
    markers_line = said("Markers: ▲ {yellow}, ▲▲ {green}, ▲▲▲ {blue}, ▲▲▲▲ {red}.", **colours)
    lines.append(translate(markers_line, lang))
    return "\n".join(lines) + "\n"


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


def color_text(color: Color | None, *, show_markers: bool = True, lang: str = DEFAULT) -> Text:
    """The current colour in words (in ``lang``), in that colour, with its markers."""
    if color is None:
        # TRANSLATORS: no current colour yet
        return Text(translate(said("none"), lang))
    word = words(color.word, lang)
    label = f" {word} {markers(color)} " if show_markers else f" {word} "
    return Text(label, style=_CARD_STYLES[color])


def flow(items: Sequence[Text], width: int, *, gap: str = " ", indent: str = "") -> Text:
    """Items on lines of at most ``width`` cells, breaking only between items (never inside one).

    Cells are counted by grapheme cluster (:func:`~unoengine.cli.lang.cells`): Khmer, Sinhala and Lao items fit too.
    """
    out = Text()
    column = 0
    for item in items:
        size = cells(item.plain)
        if column and column + len(gap) + size > width:
            out.append("\n" + indent)
            column = len(indent)
        elif column:
            out.append(gap)
            column += len(gap)
        out.append_text(item)
        column += size
    return out


def side_labels(
    rules: RuleSet, card: Card, options: Options | Mapping[str, Any] = _DEFAULT, lang: str = DEFAULT
) -> tuple[str, str]:
    """The two answers of the Flex side prompt (F-14): what each side of the card does (the table's words,
    ``describe_card``; ``options``: the table's, default the rule set's), in ``lang``."""
    normal_words = words(describe_card(rules, options, card, False), lang)
    flex_words = words(describe_card(rules, options, card, True), lang)
    # TRANSLATORS: an answer of the Flex side prompt; {effect} is what the card's normal side does
    normal = translate(said("Normal side: {effect}", effect=normal_words), lang)
    # TRANSLATORS: an answer of the Flex side prompt; {effect} is what the card's flex side does
    flex = translate(said("Flex side: {effect} (your Power Card turns red)", effect=flex_words), lang)
    return normal, flex


def effect(rules: RuleSet, card: Card, options: Options | Mapping[str, Any] = _DEFAULT, lang: str = DEFAULT) -> str:
    """What a card does at this table (its rule set and ``options``, ``describe_card``): both sides of a Flex card,
    in ``lang``."""
    if not card.is_flex:
        return words(describe_card(rules, options, card), lang)
    normal = words(describe_card(rules, options, card), lang)
    flex = words(describe_card(rules, options, card, True), lang)
    # TRANSLATORS: what a Flex card does; {normal} and {flex} are each side's effect
    return translate(said("normal side: {normal}; flex side: {flex}", normal=normal, flex=flex), lang)


def hand_order(hand: Sequence[Card]) -> list[Card]:
    """The hand as shown: sorted by colour, then rank and number."""

    def key(card: Card) -> tuple[int, int, int, str]:
        colour = COLORS.index(card.color) if card.color is not None else len(COLORS)
        rank = list(Rank).index(card.rank)
        return (colour, rank, card.number if card.number is not None else -1, format_card(card))

    return sorted(hand, key=key)


def status_text(
    view: PlayerView, names: Names, seed: int, width: int, *, show_markers: bool = True, lang: str = DEFAULT
) -> Text:
    """The status lines: rules, round, seed, top card and its effect, colour, pile, direction, whose turn."""
    rules = find_rules(view.rules)
    title = words(rules.title, lang)
    # TRANSLATORS: the status line's start: {title} is the rule set's title (UNO Duo), {round} a number
    head = translate(said("{title} · round {round}", title=title, round=view.round), lang)
    # TRANSLATORS: the game's seed (a number that deals the same game again)
    items = [Text(head, style="bold") + Text(translate(said(" · seed {seed}", seed=seed), lang))]
    if view.top is None and view.outcome is None:
        discards = Text(translate(said("Discards: {n}", n=len(view.discard_pile)), lang))
        if view.discard_pile:
            discards.append(translate(said(", top "), lang))
            discards.append_text(card_text(view.discard_pile[-1], show_markers=show_markers))
        items.append(discards)
    else:
        top = card_text(view.top, show_markers=show_markers) if view.top is not None else Text("—")
        colour = color_text(view.color, show_markers=show_markers, lang=lang) if view.top is not None else Text("—")
        # TRANSLATORS: the status line's top card (followed by the card) and the current colour (by its word)
        items += [Text(translate(said("Top: "), lang)) + top, Text(translate(said("Colour: "), lang)) + colour]
    items.append(Text(translate(said("Draw pile: {n}", n=view.draw_pile), lang)))
    if view.seats > 2:  # with two players the direction changes nothing (C-12): not shown
        turning = said("↻ clockwise") if view.direction == 1 else said("↺ counterclockwise")
        items.append(Text(translate(said("Direction: {direction}", direction=turning), lang)))
    status = flow(items, width, gap="  ")
    status.append("\n")
    if view.outcome is not None:
        status.append(translate(said("Game over"), lang), style="bold")
    else:
        who = translate(said("nobody"), lang) if view.to_act is None else subject(names, view.to_act, lang)
        decision = words(view.words.title, lang).lower()
        # TRANSLATORS: whose turn it is: {who} is a player's name or "You", {decision} what they decide (lower case)
        turn = translate(said("Turn: {who} ({decision})", who=who, decision=decision), lang)
        if lang == DEFAULT:
            status.append(turn, style="bold")
        else:
            status.append_text(fit(Text(turn, style="bold"), width))
    return status


# TRANSLATORS: a player knocked out of the round (No Mercy's Mercy Rule, N-21: 25 cards or more), in the
# players' panel where the count of their cards was (at most 8 cells)
_OUT = said("✘ out")
_OUT_STYLE = "bold white on #616161"


def in_round(view: PlayerView, seat: int) -> bool:
    """Is ``seat`` still in the round? Always, but in a rule set whose per-seat flags (``view.power``) say so
    (``seat_flags == "in_round"``: No Mercy, where the Mercy Rule knocks a seat out, N-21, N-22)."""
    if find_rules(view.rules).seat_flags != "in_round" or not view.power:
        return True
    return view.power[seat]


def out_text(lang: str = DEFAULT) -> Text:
    """The mark of a seat knocked out of the round (No Mercy N-21), in ``lang``."""
    return Text(translate(_OUT, lang), style=_OUT_STYLE)


def players_text(view: PlayerView, names: Names, width: int, *, lang: str = DEFAULT) -> Text:
    """Each seat's hand size, score, Power Card (Flex), whether it is out of the round (No Mercy) and UNO state;
    a seat's line wraps between items."""
    players = Text()
    name_width = max([6, *(cells(subject(names, seat, lang)) for seat in range(view.seats))]) if lang != DEFAULT else 6
    count_width = cells(translate(said_n("{n} card", "{n} cards", 10), lang))
    flags = find_rules(view.rules).seat_flags
    for seat in range(view.seats):
        mark = "▶ " if seat == view.to_act else "  "
        size = view.hand_sizes[seat]
        count = (" " if size < 10 else "") + translate(said_n("{n} card", "{n} cards", size), lang)
        head = Text(
            f"{mark}{pad(subject(names, seat, lang), name_width)} ", style="bold" if seat == view.to_act else ""
        )
        if in_round(view, seat):
            head.append(pad(count, count_width))
        else:  # knocked out (No Mercy N-21): no hand, out of the round's turns; said where the count was
            head.stylize("dim")
            head.append_text(out_text(lang))
            head.append(" " * max(0, count_width - cells(translate(_OUT, lang))))
        items = [
            head,
            # TRANSLATORS: a player's score in the players' panel; {score} is right-aligned in four cells
            Text(translate(said("score {score}", score=f"{view.scores[seat]:>4}"), lang)),
        ]
        mate = partner_in(view.options, view.seats, seat)
        if mate is not None:  # H-11: the teams are public (the options)
            team = words(team_name(view.seats, seat), lang)
            if mate == view.seat:
                # TRANSLATORS: {team} is a team's name (Team A)
                team = translate(said("{team} (your partner)", team=team), lang)
            items.append(Text(team))
        if flags == "power" and view.power:
            green = view.power[seat]
            # TRANSLATORS: a player's Power Card (Flex!), followed by its state (green or red)
            power = Text(translate(said("Power "), lang))
            state = translate(said(" ✔ green ") if green else said(" ✘ red "), lang)
            power.append(state, style="white on #2e7d32" if green else "white on #b71c1c")
            items.append(power)
        if view.unsafe == seat:
            items.append(Text(translate(said("no UNO!"), lang), style="bold red"))
        players.append_text(flow(items, width, gap="  ", indent="    "))
        players.append("\n")
    if view.round_scores:
        rows = " | ".join(" ".join(f"{d:+d}" for d in row) for row in view.round_scores)
        # TRANSLATORS: each round's score changes ({rows}: numbers like +12 -3 0 | +40 …)
        players.append("\n" + translate(said("Rounds: {rows}", rows=rows), lang))
    return players


def hand_text(
    view: PlayerView,
    infos: Sequence[ActionInfo],
    selected: int,
    width: int,
    *,
    show_markers: bool = True,
    lang: str = DEFAULT,
) -> Text:
    """The hand, every card numbered, lines broken between cards; the picked card with its effect in words."""
    cards = hand_order(view.hand)
    mine = view.to_act == HUMAN
    playable = {info.card for info in infos if info.group == "hand"} if mine else set()
    text = Text(translate(said("Your hand ({n}):", n=len(cards)), lang) + "\n", style="bold")
    if view.seat is not None and not in_round(view, view.seat):
        # TRANSLATORS: No Mercy's Mercy Rule (N-21) knocked the person out of the round
        out = Text(translate(said("You are out of this round: the Mercy Rule (25 cards or more)."), lang))
        text.append_text(out if lang == DEFAULT else fit(out, width))
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
        state = said("playable") if card in playable else said("not playable now")
        drawn = translate(said(" (drawn)"), lang) if mine and card == view.drawn_card else ""
        what = effect(find_rules(view.rules), card, dict(view.options), lang)
        # TRANSLATORS: the picked card: {card} in notation (R7), {drawn} " (drawn)" or nothing,
        # {state} "playable" or "not playable now", {effect} what the card does
        picked = said(
            "Picked: {card}{drawn} ({state}) — {effect}", card=format_card(card), drawn=drawn, state=state, effect=what
        )
        line = Text(translate(picked, lang), style="italic")
        text.append("\n")
        text.append_text(line if lang == DEFAULT else fit(line, width))
    return text


def round_cards(end: RoundEnd, names: Names, width: int, *, show_markers: bool = True, lang: str = DEFAULT) -> Text:
    """The hands left at the end of a round, card by card with their points (R-11)."""
    body = Text()
    name_width = _name_width(names, len(end.hands), lang)
    for seat, cards in enumerate(end.hands):
        if not cards:
            continue
        items = [Text(f"  {pad(subject(names, seat, lang), name_width)}")]
        items += [card_text(card, show_markers=show_markers) + Text(f" {points}") for card, points in cards]
        items.append(Text(f" = {sum(points for _, points in cards)}"))
        body.append_text(flow(items, width, gap=" ", indent=" " * (name_width + 3)))
        body.append("\n")
    return body


def _name_width(names: Names, seats: int, lang: str) -> int:
    """The column of the seats' names: 6 cells, or the widest name in ``lang`` (English keeps 6)."""
    if lang == DEFAULT:
        return 6
    return max([6, *(cells(subject(names, seat, lang)) for seat in range(seats))])


def round_summary(
    end: RoundEnd, view: PlayerView, names: Names, width: int, *, show_markers: bool = True, lang: str = DEFAULT
) -> Text:
    """The notice between rounds: the winner, the cards left with their points, the scores."""
    body = Text(translate(said("Round {round} is over", round=end.round), lang) + "\n\n", style="bold")
    if end.winner is None:
        winner = translate(said("Nobody (a blocked round)"), lang)
    else:
        winner = subject(names, end.winner, lang)
    # TRANSLATORS: {winner} is a player's name, "You", or "Nobody (a blocked round)"
    body.append(translate(said("Winner: {winner}", winner=winner), lang) + "\n\n")
    body.append(translate(said("Cards left, with their points:"), lang) + "\n")
    body.append_text(round_cards(end, names, width, show_markers=show_markers, lang=lang))
    body.append("\n")
    name_width = _name_width(names, len(end.deltas), lang)
    for seat, delta in enumerate(end.deltas):
        # TRANSLATORS: a player's total score after a round ({total} is right-aligned in five cells)
        total = translate(said("total {total}", total=f"{view.scores[seat]:>5}"), lang)
        body.append(f"  {pad(subject(names, seat, lang), name_width)} {delta:+5d}   {total}\n")
    target = dict(view.options).get("target_score")
    # TRANSLATORS: {target} is the score that wins the game (500)
    body.append("\n" + translate(said("Playing to {target}. Press Enter for the next round.", target=target), lang))
    return body


def game_over_text(
    view: PlayerView,
    names: Names,
    last: RoundEnd | None,
    stats: StatsUpdate | None,
    width: int,
    *,
    show_markers: bool = True,
    lang: str = DEFAULT,
) -> Text:
    """The final screen: the winner, the last round, the scores, and each player's statistics across games."""
    outcome = view.outcome
    assert outcome is not None
    body = Text(translate(said("Game over"), lang) + "\n\n", style="bold")
    if outcome.winner is None:
        body.append(translate(said("Nobody won."), lang) + "\n\n")
    elif outcome.winner == HUMAN:
        body.append(translate(said("You won!"), lang) + "\n\n", style="bold green")
    else:
        # TRANSLATORS: {who} is a player's name (Bot 2)
        body.append(translate(said("{who} won.", who=subject(names, outcome.winner, lang)), lang) + "\n\n")
    if view.round_scores:
        row = view.round_scores[-1]
        changes = ", ".join(f"{subject(names, s, lang)} {d:+d}" for s, d in enumerate(row))
        # TRANSLATORS: {changes} is each player's name with their score change (You +12, Bot 1 -3)
        body.append(translate(said("Last round: {changes}", changes=changes), lang) + "\n")
    if last is not None:
        body.append(translate(said("Cards left, with their points:"), lang) + "\n")
        body.append_text(round_cards(last, names, width, show_markers=show_markers, lang=lang))
    name_width = _name_width(names, len(outcome.scores), lang)
    for seat, score in enumerate(outcome.scores):
        body.append(f"  {pad(subject(names, seat, lang), name_width)} {score:>5}\n")
    if stats is not None:
        title = words(find_rules(stats.rules).title, lang)
        # TRANSLATORS: the heading of the statistics; {title} is the rule set's title (UNO Flex!)
        heading = translate(said("Statistics of every {title} game played here:", title=title), lang)
        body.append("\n" + heading + "\n", style="bold")
        order = [names.subject(seat) for seat in range(view.seats)]  # the file's keys: English names
        shown = {names.subject(seat): subject(names, seat, lang) for seat in range(view.seats)}
        body.append("\n".join(stats_lines(stats, order, shown=shown, lang=lang)) + "\n")
        for problem in stats.problems:
            body.append(words(problem, lang) + "\n", style="bold red")
    body.append("\n" + translate(said("Press Enter to look at the table, r: review this game, q to quit."), lang))
    return body


def countdown(seconds_left: float | None, lang: str = DEFAULT) -> str:
    """The catch window's countdown, as the prompt shows it: `` (3 s left)``."""
    if seconds_left is None:
        return ""
    # TRANSLATORS: the countdown of the UNO window, after a prompt: {n} seconds are left
    return translate(said_n(" ({n} s left)", " ({n} s left)", max(0, math.ceil(seconds_left))), lang)


def prompt_text(
    view: PlayerView,
    infos: Sequence[ActionInfo],
    names: Names,
    *,
    reaction_open: bool,
    seconds_left: float | None,
    lang: str = DEFAULT,
    width: int | None = None,
) -> Text:
    """What the person may do now: an open UNO window with its countdown, then the decision with its keys.

    ``width``: the prompt's width in cells (a line longer than that is broken between clusters, not inside one).
    """
    lines: list[str] = []
    left = countdown(seconds_left, lang)
    if view.unsafe is not None and view.unsafe != HUMAN and reaction_open:
        who = subject(names, view.unsafe, lang)
        # TRANSLATORS: {who} is a bot's name; {left} the countdown (" (3 s left)") or nothing; c is the key
        lines.append(
            translate(
                said("{who} has one card and did not call UNO: press c to catch!{left}", who=who, left=left), lang
            )
        )
    if view.unsafe == HUMAN:
        # TRANSLATORS: {left} the countdown (" (3 s left)") or nothing; u is the key
        lines.append(
            translate(said("You have one card: press u to call UNO before someone catches you!{left}", left=left), lang)
        )
    jumps = [info for info in infos if info.group == "react" and info.card is not None]
    if jumps and reaction_open:
        cards = " ".join(dict.fromkeys(format_card(info.card) for info in jumps if info.card is not None))
        # TRANSLATORS: {cards} are cards in notation (R7 G7); {left} the countdown or nothing; j is the key
        lines.append(
            translate(said("Out of turn: press j to jump in with {cards}!{left}", cards=cards, left=left), lang)
        )
    if view.outcome is not None:
        lines.append(translate(said("The game is over. Press r to review it, q to quit."), lang))
    elif view.to_act != HUMAN:
        who = translate(said("nobody"), lang) if view.to_act is None else subject(names, view.to_act, lang)
        # TRANSLATORS: {who} is the player whose turn it is (Bot 2)
        lines.append(translate(said("Waiting for {who}…", who=who), lang))
    else:
        hints: list[str] = []
        play_hint = translate(said("Enter: play the picked card"), lang)
        for info in infos:
            if info.group == "hand" and play_hint not in hints:
                hints.append(play_hint)
            elif info.group == "decision" and info.type in ("draw", "pass"):
                key = "d" if info.type == "draw" else "p"
                hints.append(f"{key}: " + words(info.label, lang).lower())
        prompt = named(view.words.prompt, names, lang)
        if hints:
            # TRANSLATORS: the decision's question ({prompt}) with its keys ({keys}: "d: draw · p: pass")
            lines.append(translate(said("{prompt} ({keys}).", prompt=prompt, keys=" · ".join(hints)), lang))
        else:
            lines.append(translate(said("{prompt}.", prompt=prompt), lang))
    text = Text("\n".join(lines[-2:]))
    return text if width is None or lang == DEFAULT else fit(text, width)
