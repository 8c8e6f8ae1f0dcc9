"""A seat's plays and why a play is refused: a turn's and the drawn card's, through the house rules' filters."""

from __future__ import annotations

from unoengine.core import actions as A
from unoengine.core.cards import CardId, Seat, format_card
from unoengine.core.errors import excerpt
from unoengine.core.rules.tables import match_row
from unoengine.core.state import GameState
from unoengine.core.work import Work
from unoengine.i18n import said

MAX_DRAW_UNTIL_PLAYABLE = 10
"""C-22: at most 10 cards are drawn looking for a playable one."""


def turn_plays(state: GameState, seat: Seat) -> list[A.Action]:
    """C-7 (and the rule set's ``side_plays``, F-14): a turn's plays, one kind of card at a time in hand order."""
    tables = state.game.tables
    hand = state.hand_bytes[seat]
    row = match_row(state)
    uno = len(hand) == 2
    table = (tables.card_plays_uno if uno else tables.card_plays)[row]
    kind_word = tables.kind_word
    word_bit = tables.kind_word_bit
    card_is_wd4 = tables.card_is_wd4
    out: list[A.Action] = []
    seen_low = 0  # the kinds seen, by word of KIND_WORD kinds: word 0, word 1, then any further ones
    seen_high = 0
    seen_more: set[int] | None = None
    wd4 = False
    play_table = state.game.rules.play_table
    if play_table is not None:
        table = play_table(state, seat, row, uno)
    for index in range(len(hand)):  # (by index: a byte read is an int, where iterating bytes boxes each)
        card = hand[index]
        plays = table[card]
        if not plays:
            continue
        word = kind_word[card]
        bit = word_bit[card]
        if word == 0:
            if seen_low & bit:
                continue
            seen_low |= bit
        elif word == 1:
            if seen_high & bit:
                continue
            seen_high |= bit
        else:
            kind = tables.kind_of[card]
            if seen_more is None:
                seen_more = set()
            elif kind in seen_more:
                continue
            seen_more.add(kind)
        out.extend(plays)
        if card_is_wd4[card]:
            wd4 = True
    if wd4 and state.game.options.wild_draw_four == "strict" and tables.holds_color(hand, state.color):
        out = [play for play in out if not tables.is_wd4[tables.kind(play.card)]]  # type: ignore[union-attr]
    filters = state.game.play_filters
    if filters:
        return filtered_plays(state, seat, out)
    return out


def card_plays(state: GameState, seat: Seat, card: CardId) -> list[A.Action]:
    """C-8, F-10, F-11: the plays of one card (the drawn card)."""
    tables = state.game.tables
    hand = state.hand_bytes[seat]
    kind = tables.kind_of[card]
    row = match_row(state)
    uno = len(hand) == 2
    out: list[A.Action] = []
    strict = state.game.options.wild_draw_four == "strict"
    if not (strict and tables.is_wd4[kind] and tables.holds_color(hand, state.color)):
        out += (tables.card_plays_uno if uno else tables.card_plays)[row][card]
    side_plays = state.game.rules.side_plays
    if side_plays is not None:
        out += side_plays(state, seat, kind, row, uno)
    if state.game.play_filters:
        return filtered_plays(state, seat, out)
    return out


def filtered_plays(state: GameState, seat: Seat, plays: list[A.Action]) -> list[A.Action]:
    """The plays through the game's house rules' filters (H-2: a 7 names its target), in their order."""
    for play_filter in state.game.play_filters:
        plays = play_filter.filter(state, seat, plays)
    return plays


def play_filter_refusal(state: GameState, seat: Seat, action: A.Play) -> tuple[str, str] | None:
    """The first refusal of the play by the game's house rules' filters (H-2), or ``None``."""
    for play_filter in state.game.play_filters:
        refused = play_filter.refuse(state, seat, action)
        if refused is not None:
            return refused
    return None


def is_playable(state: GameState, seat: Seat, card: CardId) -> bool:
    """Could ``seat`` play ``card`` now, on any side? (C-7, F-14; C-22's test)."""
    return bool(card_plays(state, seat, card))


def play_refusal(state: GameState, seat: Seat, action: A.Play, drawn: CardId | None) -> tuple[str, str]:
    """Why a play is refused (C-7, C-8, C-9, C-16, C-19; the rule set's own: ``refuse_play``)."""
    cite = state.rules.cite
    tables = state.tables
    card = action.card
    name = format_card(card)
    if card not in tables.kind_index:
        # TRANSLATORS: a refusal: {card} is a card in notation (R7), {rules} a rule set's title (UNO Duo)
        return "G-4", said("{card} is not a card of {rules}", card=name, rules=state.rules.title)
    kind = tables.kind_index[card]
    hand = state.hand_bytes[seat]
    if drawn is not None and tables.kind_of[drawn] != kind:
        # TRANSLATORS: a refusal: {card} is a card in notation (R7)
        return cite["drawn"], said(
            "only the drawn card ({card}) may be played now", card=format_card(tables.cards[drawn])
        )
    if not any(tables.kind_of[c] == kind for c in hand):
        # TRANSLATORS: a refusal: {seat} is a player, {card} a card in notation (R7)
        return "G-4", said("{seat} holds no {card}", seat=f"seat {seat}", card=name)
    if card.rank.names_color and action.color is None:
        # TRANSLATORS: a refusal: {card} is a card in notation (W); keep ":g" (notation)
        return cite["wild"], said("a wild play names a colour, as {card}:g", card=name)
    if not card.rank.names_color and action.color is not None:
        if card.is_wild:
            # TRANSLATORS: a refusal: {card} is a card in notation (WCR)
            return cite["wild"], said("a {card} is played without a colour; write {card}", card=name)
        # TRANSLATORS: a refusal: {card} is a card in notation (R7)
        return cite["wild"], said("only a wild card names a colour; write {card}", card=name)
    refused = play_filter_refusal(state, seat, action)
    if refused is not None:
        return refused
    targeted = any(play_filter.takes_target(state, action) for play_filter in state.game.play_filters)
    refuse_play = state.rules.refuse_play
    if refuse_play is not None:
        refused = refuse_play(state, seat, action, kind)
        if refused is not None:
            return refused
    elif action.flex or (action.target is not None and not targeted):
        # TRANSLATORS: a refusal: {action} is an action in notation, {rules} a rule set's title (UNO Duo)
        return "G-4", said(
            "{action} is not a play of {rules}", action=excerpt(A.format_action(action)), rules=state.rules.title
        )
    row = match_row(state)
    if not action.flex and not tables.normal_ok[row][kind]:
        top = format_card(tables.cards[state.discard_pile[-1]])
        color = state.color.word if state.color else said("none")
        # TRANSLATORS: a refusal: {card} and {top} are cards in notation (R7), {color} a colour word
        reason = said("the {card} does not match {top} (current colour {color})", card=name, top=top, color=color)
        return cite["match"], reason
    if tables.is_wd4[kind] and state.options.wild_draw_four == "strict" and tables.holds_color(hand, state.color):
        word = state.color.word if state.color else ""
        # TRANSLATORS: a refusal: {color} is a colour word
        reason = said(
            "a Wild Draw Four may not be played while holding a {color} card (the current colour)", color=word
        )
        return cite["wd4"], reason
    if action.uno:
        # TRANSLATORS: a refusal: keep "' uno'" (notation); {seat} is a player, {kept} a number of cards
        reason = said(
            "' uno' goes with the play that leaves one card; {seat} would keep {kept}",
            seat=f"seat {seat}",
            kept=len(hand) - 1,
        )
        return cite["uno"], reason
    # TRANSLATORS: a refusal: {action} is an action in notation
    return "G-4", said("{action} is not legal here", action=excerpt(A.format_action(action)))


def play_from_hand(work: Work, seat: Seat, action: A.Play) -> None:
    """Play the first card of the action's kind from the seat's hand."""
    work.play_card(seat, work.find(seat, action.card), action)
