"""A seat's plays and why a play is refused: a turn's, the drawn card's, H-2's sevens and zeros, H-3's jump-ins."""

from __future__ import annotations

from unoengine.core import actions as A
from unoengine.core.cards import CardId, Seat, format_card
from unoengine.core.errors import excerpt
from unoengine.core.rules.tables import match_row
from unoengine.core.state import GameState, Turn
from unoengine.core.work import Work

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
    if state.game.options.seven_zero:
        out = seven_zero_plays(state, seat, out)
    return out


def seven_zero_plays(state: GameState, seat: Seat, plays: list[A.Action]) -> list[A.Action]:
    """H-2: a 7 is played naming the seat to swap with (``R7>2``, every other seat in seat order);
    a 7 or a 0 takes no `` uno`` (the hand changes: the UNO call comes after the swap)."""
    out: list[A.Action] = []
    for play in plays:
        card = play.card  # type: ignore[union-attr]
        number = card.number
        if number not in (0, 7):
            out.append(play)
        elif not play.uno:  # type: ignore[union-attr]
            if number == 0:
                out.append(play)
            else:
                out += [A.play(card, None, False, target) for target in range(state.seats) if target != seat]
    return out


def jump_plays(state: GameState, seat: Seat) -> list[A.Action]:
    """H-3: the seat's plays of a card identical to the top card (same colour and rank; never a wild)."""
    tables = state.game.tables
    top = tables.kind_of[state.discard_bytes[-1]]
    if tables.kinds[top].is_wild:
        return []
    hand = state.hand_bytes[seat]
    if not any(tables.kind_of[card] == top for card in hand):
        return []
    out: list[A.Action] = list((tables.plays_uno if len(hand) == 2 else tables.plays)[top])
    if state.game.options.seven_zero:
        out = seven_zero_plays(state, seat, out)
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
    if state.game.options.seven_zero:
        return seven_zero_plays(state, seat, out)
    return out


def is_playable(state: GameState, seat: Seat, card: CardId) -> bool:
    """Could ``seat`` play ``card`` now, on any side? (C-7, F-14; C-22's test)."""
    return bool(card_plays(state, seat, card))


def seven_zero_refusal(state: GameState, seat: Seat, action: A.Play) -> tuple[str, str] | None:
    """H-2: a 7 names another seat to swap with; a 7 or a 0 takes no `` uno``; no other card names a seat."""
    if not state.options.seven_zero or action.card.number not in (0, 7):
        return None
    name = format_card(action.card)
    if action.uno:
        return "H-2", f"a {name} changes hands: call 'uno' after the swap, not with the play"
    if action.card.number == 0:
        return None if action.target is None else ("H-2", f"a {name} passes every hand on: it names no seat")
    target = action.target
    if target is None:
        return "H-2", f"a 7 names the seat to swap hands with, as {name}>{(seat + 1) % state.seats}"
    if target == seat or not 0 <= target < state.seats:
        return "H-2", f"seat {seat} cannot swap hands with seat {target}"
    return None


def play_refusal(state: GameState, seat: Seat, action: A.Play, drawn: CardId | None) -> tuple[str, str]:
    """Why a play is refused (C-7, C-8, C-9, C-16, C-19; the rule set's own: ``refuse_play``)."""
    cite = state.rules.cite
    tables = state.tables
    card = action.card
    name = format_card(card)
    if card not in tables.kind_index:
        return "G-4", f"{name} is not a card of {state.rules.title}"
    kind = tables.kind_index[card]
    hand = state.hand_bytes[seat]
    if drawn is not None and tables.kind_of[drawn] != kind:
        return cite["drawn"], f"only the drawn card ({format_card(tables.cards[drawn])}) may be played now"
    if not any(tables.kind_of[c] == kind for c in hand):
        return "G-4", f"seat {seat} holds no {name}"
    if card.is_wild and action.color is None:
        return cite["wild"], f"a wild play names a colour, as {name}:g"
    if not card.is_wild and action.color is not None:
        return cite["wild"], f"only a wild card names a colour; write {name}"
    refused = seven_zero_refusal(state, seat, action)
    if refused is not None:
        return refused
    seven = state.options.seven_zero and card.number == 7
    refuse_play = state.rules.refuse_play
    if refuse_play is not None:
        refused = refuse_play(state, seat, action, kind)
        if refused is not None:
            return refused
    elif action.flex or (action.target is not None and not seven):
        return "G-4", f"{excerpt(A.format_action(action))} is not a play of {state.rules.title}"
    row = match_row(state)
    if not action.flex and not tables.normal_ok[row][kind]:
        top = format_card(tables.cards[state.discard_pile[-1]])
        color = state.color.word if state.color else "none"
        return cite["match"], f"the {name} does not match {top} (current colour {color})"
    if tables.is_wd4[kind] and state.options.wild_draw_four == "strict" and tables.holds_color(hand, state.color):
        word = state.color.word if state.color else ""
        return cite["wd4"], f"a Wild Draw Four may not be played while holding a {word} card (the current colour)"
    if action.uno:
        return cite["uno"], f"' uno' goes with the play that leaves one card; seat {seat} would keep {len(hand) - 1}"
    return "G-4", f"{excerpt(A.format_action(action))} is not legal here"


def jump_refusal(state: GameState, seat: Seat, action: A.Play) -> tuple[str, str]:
    """H-3: why a play by a seat that is not to act is refused: the first reason that holds.

    The window (a normal turn, nothing open), then the card (identical to the top card,
    never a wild), then the hand (the seat holds one), then the play's own form (H-2's
    target, a colour, `` uno``).
    """
    if type(state.pending) is not Turn or state.unsafe is not None:
        return "H-3", "a seat jumps in only on a normal turn, with no draw total, colour, challenge or UNO open"
    tables = state.tables
    card = action.card
    name = format_card(card)
    turn = f"it is seat {state.pending.seat}'s turn"
    if card not in tables.kind_index:
        return "G-4", f"{name} is not a card of {state.rules.title}"
    kind = tables.kind_index[card]
    top_kind = tables.kind_of[state.discard_bytes[-1]]
    top = format_card(tables.cards[state.discard_pile[-1]])
    if tables.kinds[top_kind].is_wild:
        return "H-3", f"{turn}: nobody jumps in on a wild card ({top})"
    if kind != top_kind:
        return "H-3", f"seat {seat} may jump in only with a card identical to the top card ({top}), not {name}: {turn}"
    hand = state.hand_bytes[seat]
    if not any(tables.kind_of[held] == kind for held in hand):
        return "H-3", f"seat {seat} holds no {name} to jump in with: {turn}"
    refused = seven_zero_refusal(state, seat, action)
    if refused is not None:
        return refused
    if action.color is not None:
        return state.rules.cite["wild"], f"only a wild card names a colour; write {name}"
    if action.uno and len(hand) != 2:
        kept = len(hand) - 1
        return state.rules.cite["uno"], f"' uno' goes with the play that leaves one card; seat {seat} would keep {kept}"
    return "G-4", f"{excerpt(A.format_action(action))} is not a jump-in of {state.rules.title}: {turn}"


def play_from_hand(work: Work, seat: Seat, action: A.Play) -> None:
    """Play the first card of the action's kind from the seat's hand."""
    work.play_card(seat, work.find(seat, action.card), action)
