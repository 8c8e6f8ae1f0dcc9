"""The engine: ``new_game``, ``legal_actions``, ``apply``.

One legality function: :func:`legal_actions` lists every legal action of a seat,
in a fixed order; :func:`apply` accepts exactly those (G-4) and otherwise raises
:class:`IllegalActionError` naming the rule, leaving the state unchanged (states
are values). :func:`apply_unchecked` skips the check, for callers that took the
action from :func:`legal_actions` themselves (bots, simulations, search).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Final, cast

from unoengine.core import actions as A
from unoengine.core.cards import Card, CardId, Seat, format_card, parse_card
from unoengine.core.errors import IllegalActionError, InvalidNotationError, excerpt
from unoengine.core.events import ActionTaken, Event
from unoengine.core.rules import find_rules
from unoengine.core.rules.option_specs import Options
from unoengine.core.rules.ruleset import RuleSet
from unoengine.core.rules.tables import DeckTables, game_of
from unoengine.core.state import (
    GAME_OVER,
    GameState,
    handler_of,
    is_int,
    seat_of,
)
from unoengine.core.work import Work
from unoengine.i18n import said

MIN_UNDEALT = 20
"""H-8: a deal leaves at least 20 cards of the deck undealt (to start play and to draw)."""


class Transition:
    """The result of :func:`apply`: the new state and what happened (unredacted).

    It reads like the pair ``(state, events)`` (``state, events = apply(...)``,
    ``step[0]``, ``==`` and ``hash`` by the pair). The events are built when they
    are first read, by applying the action again with events on (``apply`` is
    pure, so they are the events of this very step): the many callers that read
    only :attr:`state` (bots, search, simulations) never pay for them.
    """

    def __init__(
        self,
        state: GameState,
        events: tuple[Event, ...] | None = None,
        *,
        prior: GameState | None = None,
        seat: Seat = 0,
        action: A.Action | None = None,
    ) -> None:
        self.state = state
        """The state after the action."""
        self._events = events
        self._prior = prior
        self._seat = seat
        self._action = action

    @property
    def events(self) -> tuple[Event, ...]:
        """What happened, in order (unredacted: :func:`~unoengine.redact` them for a seat)."""
        events = self._events
        if events is None:
            prior, action = self._prior, self._action
            assert prior is not None and action is not None
            found: list[Event] = []
            apply_unchecked(prior, self._seat, action, found)
            events = tuple(found)
            self._events = events
            self._prior = None  # the earlier state is no longer kept alive
            self._action = None
        return events

    def __iter__(self) -> Iterator[Any]:
        return iter((self.state, self.events))

    def __len__(self) -> int:
        return 2

    def __getitem__(self, index: int) -> Any:
        return (self.state, self.events)[index]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Transition):
            return NotImplemented
        return self.state == other.state and self.events == other.events

    def __hash__(self) -> int:
        return hash((self.state, self.events))

    def __repr__(self) -> str:
        return f"Transition(state={self.state!r}, events={self.events!r})"


# -- setting up --------------------------------------------------------------------


def new_game(
    rules: object,
    seats: object,
    *,
    seed: object,
    deck: Sequence[Card | str] | None = None,
    options: Mapping[str, Any] | Options | None = None,
    dealer: object = None,
) -> GameState:
    """Start a game: shuffle (or use ``deck``, top first), then deal or draft.

    ``dealer`` is the first round's dealer (Classic, Flex; default 0) or Player 1
    (Duo; default: the cut decides, D-2).

    >>> state = new_game("classic", 3, seed=7)
    >>> state.to_act, len(state.hands[0]), state.pending.kind
    (1, 7, 'turn')

    Raises:
        InvalidNotationError: unknown rules or option, a seat count the rule set
            (or a house rule, H-11) does not allow, a bad dealer, or a deck that is
            not the rule set's.
    """
    # The arguments are typed ``object`` where a caller may pass anything: the
    # compiled build would otherwise refuse a wrong type with TypeError, not the
    # documented error (and both builds must behave alike).
    if isinstance(rules, str):
        ruleset = find_rules(rules)
    elif isinstance(rules, RuleSet):
        ruleset = rules
    else:
        raise InvalidNotationError(f"not a rule set: {excerpt(rules)}")
    resolved = options if isinstance(options, Options) else _resolved_options(ruleset, options)
    if not is_int(seats) or seats not in ruleset.seats:
        low, high = ruleset.seats.start, ruleset.seats.stop - 1
        allowed = f"{low}" if low == high else f"{low}-{high}"
        raise InvalidNotationError(f"{ruleset.title} is for {allowed} seats, not {excerpt(seats)}")
    if not is_int(seed):
        raise InvalidNotationError(f"seed must be an integer, not {excerpt(seed)}")
    if dealer is not None and (not is_int(dealer) or not 0 <= dealer < seats):
        raise InvalidNotationError(f"dealer must be a seat from 0 to {seats - 1}, not {excerpt(dealer)}")
    game = game_of(ruleset, seats, resolved)
    for house in game.house:  # a seat count a house rule cannot be played with (H-11)
        house.check_seats(seats, resolved)
    if seats * game.deal_size > len(game.tables.cards) - MIN_UNDEALT:
        raise InvalidNotationError(
            f"option 'hand_size' (H-8): {seats} hands of {game.deal_size} leave fewer than {MIN_UNDEALT} "
            f"of the {len(game.tables.cards)} cards of {ruleset.title} undealt"
        )
    if deck is not None and not isinstance(deck, list | tuple):
        raise InvalidNotationError(f"deck must be a list of cards, not {excerpt(deck)}")
    order = None if deck is None else deck_order(game.tables, deck, ruleset)
    state = GameState(
        game=game,
        seed=seed,
        shuffles=0,
        round=1,
        dealer=0,
        hands=(b"",) * seats,
        draw_pile=b"",
        discard_pile=b"",
        color=None,
        direction=1,
        power=(),
        pending=GAME_OVER,
        unsafe=None,
        blocked=0,
        public_bottom=0,
        scores=(0,) * seats,
        round_scores=(),
        round_winner=None,
        outcome=None,
        steps=0,
    )
    work = Work(state, None)
    work.dealer = ruleset.first_dealer(work) if dealer is None else dealer
    work.start_round(order)
    return work.freeze()


_OPTIONS: dict[tuple[RuleSet, tuple[tuple[object, type, object], ...]], Options] = {}
"""Options already resolved, by rule set and the given (name, type, value) triples (a simulation starts
thousands of games with the same options; the type keeps ``True`` apart from ``1``)."""


def _resolved_options(ruleset: RuleSet, given: object) -> Options:
    """``ruleset.options(given)``, remembered for a mapping of hashable values."""
    if given is None:
        given = {}
    if not isinstance(given, dict):
        return ruleset.options(given)
    key = (ruleset, tuple([(name, type(value), value) for name, value in given.items()]))
    try:
        found = _OPTIONS.get(key)
    except TypeError:  # an unhashable value: resolving it refuses it
        return ruleset.options(given)
    if found is None:
        found = ruleset.options(given)
        if len(_OPTIONS) >= 512:
            _OPTIONS.clear()
        _OPTIONS[key] = found
    return found


def deck_order(tables: DeckTables, deck: Sequence[Card | str], rules: RuleSet) -> list[CardId]:
    """Physical card ids for a deck given as cards, top first.

    Raises:
        InvalidNotationError: a card that is not a card, or a deck that is not
            exactly the rule set's cards.
    """
    free: dict[Card, list[CardId]] = {}
    for card_id in range(len(tables.cards) - 1, -1, -1):
        free.setdefault(tables.cards[card_id], []).append(card_id)
    order: list[CardId] = []
    given: Sequence[object] = deck  # (anything: refused below, not by the compiled build's check of a Card)
    for position, item in enumerate(given):
        if isinstance(item, Card):
            card = item
        elif isinstance(item, str):
            try:
                card = parse_card(item)
            except InvalidNotationError as error:
                raise InvalidNotationError(f"deck[{position}]: {error}") from None
        else:
            raise InvalidNotationError(f"deck[{position}] is not a card: {excerpt(item)}")
        ids = free.get(card)
        if not ids:
            have = sum(1 for c in tables.cards if c == card)
            raise InvalidNotationError(
                f"deck is not exactly the {rules.name} deck: {format_card(card)} at deck[{position}] "
                f"is one more than the {have} the deck has"
            )
        order.append(ids.pop())
    missing = [format_card(card) for card, ids in free.items() for _ in ids]
    if missing:
        raise InvalidNotationError(
            f"deck is not exactly the {rules.name} deck: {len(deck)} cards given, "
            f"{len(tables.cards)} expected; missing {', '.join(sorted(missing)[:8])}"
            + (" …" if len(missing) > 8 else "")
        )
    return order


# -- legal actions -----------------------------------------------------------------


def legal_actions(state: GameState, seat: object) -> tuple[A.Action, ...]:
    """Every legal action of ``seat``, in a fixed order, out-of-turn ones included.

    The acting seat's decision comes first (plays in hand order, then ``draw`` or
    ``pass``); then the open out-of-turn window's actions (``Game.windows``): ``uno``
    for the seat that may call it and ``catch N`` for the others (C-18, C-19), a
    jump-in (H-3). Empty for a seat with nothing to do, for anything that is not a
    seat, and once the game is over.

    >>> state = new_game("classic", 2, seed=1)
    >>> [A.format_action(a) for a in legal_actions(state, state.to_act)][-1]
    'draw'
    """
    last = _MEMO.last
    if last[0] is state and last[1] is seat:  # ``is``: True (not a seat) must not hit seat 1's answer
        return last[2]
    if not is_int(seat):
        return ()  # not a seat: it has nothing to do
    found = _legal_actions(state, seat)
    _MEMO.last = (state, seat, found)  # one reference swap: safe across threads
    return found


class _Memo:
    """The last answer of :func:`legal_actions`, as ``last``: (state, seat, actions).

    A caller asks for the legal actions, picks one and applies it, and :func:`apply`
    checks it against the same list: this one-entry memo answers the second question
    without computing it again. States are immutable and the memo holds its state, so
    an answer is never given for another state; it changes nothing but speed. (An
    attribute of a compiled object, not a module global: reading and writing it is
    a field access, not a dictionary lookup.)
    """

    def __init__(self) -> None:
        self.last: tuple[object, object, tuple[A.Action, ...]] = (None, None, ())


_MEMO: Final = _Memo()


def _legal_actions(state: GameState, seat: Seat) -> tuple[A.Action, ...]:
    pending = state.pending
    out: list[A.Action]
    to_act = seat_of(pending)
    if to_act is not None and to_act == seat:  # (as ints: not a comparison of two boxed objects)
        out = handler_of(state.game, pending).legal(state, seat)  # the decision's handler
    elif state.outcome is not None or not 0 <= seat < state.seats:
        return ()
    else:
        out = []
    for window in state.game.windows:  # the out-of-turn windows (at most one is open)
        if window.is_open(state):
            out += window.offers(state, seat)
            break
    return tuple(out)


# -- applying ----------------------------------------------------------------------


def apply(state: GameState, seat: object, action: object) -> Transition:
    """Apply a legal action of ``seat``; return the new state and the events.

    ``action`` may be given in notation (``"W:g"``).

    >>> state = new_game("classic", 2, seed=1)
    >>> step = apply(state, state.to_act, "draw")
    >>> step.state.pending.kind, [type(event).__name__ for event in step.events]
    ('drawn', ['ActionTaken', 'CardsDrawn'])
    >>> apply(step.state, 0, "draw")
    Traceback (most recent call last):
    ...
    unoengine.core.errors.IllegalActionError: G-4 it is seat 1's decision (drawn), not seat 0's

    Raises:
        InvalidNotationError: the text is not an action.
        IllegalActionError: the action is not legal (G-4); its message names the rule.
    """
    legal = checked_action(state, seat, action)
    checked = cast(Seat, seat)  # checked_action refused anything else
    return Transition(apply_unchecked(state, checked, legal), prior=state, seat=checked, action=legal)


def checked_action(state: GameState, seat: object, action: object) -> A.Action:
    """The legal action of ``seat`` that ``action`` (an :class:`~unoengine.core.actions.Action` or its notation)
    is: what :func:`apply` checks, parsing a text once, for a caller that then applies it with
    :func:`apply_unchecked` (the server's table, which wants the events of that same pass).

    Raises:
        InvalidNotationError: the text is not an action.
        IllegalActionError: the action is not legal (G-4); its message names the rule.
    """
    if is_int(seat):
        # Actions are interned: the action a caller took from legal_actions is one of them by identity
        # (comparing two different ones by value runs their dataclass ``__eq__``, Python code, for nothing).
        for candidate in legal_actions(state, seat):
            if candidate is action:
                return candidate
    if isinstance(action, str):
        action = A.parse_action(action)
    elif not isinstance(action, _ACTION_TYPES):
        raise InvalidNotationError(f"not an action: {excerpt(action)}")
    if not is_int(seat) or action not in legal_actions(state, seat):
        rule, reason = refusal(state, seat, action)
        raise IllegalActionError(rule, reason)
    return action


_ACTION_TYPES: Final = A.ACTION_TYPES


def apply_unchecked(state: GameState, seat: Seat, action: A.Action, events: list[Event] | None = None) -> GameState:
    """Apply an action known to be legal (taken from :func:`legal_actions`).

    Appends the events to ``events`` when it is given.
    """
    work = Work(state, events)
    work.steps += 1
    if events is not None:
        events.append(ActionTaken(seat, action))
    window = state.game.window_of.get(type(action))
    if window is not None:  # an out-of-turn action its window applies (C-18's uno and catch)
        window.apply(work, seat, action)
        return work.freeze()
    work.unsafe = None  # C-18: the window closes at any other action
    handler_of(state.game, state.pending).apply(work, seat, action)  # the decision's handler
    return work.freeze()


# -- refusals ----------------------------------------------------------------------


def refusal(state: GameState, seat: object, action: A.Action) -> tuple[str, str]:
    """The rule number and the reason for refusing ``action`` by ``seat`` (G-4)."""
    if state.outcome is not None:
        return "G-4", said("the game is over")
    if not is_int(seat) or not 0 <= seat < state.seats:
        # TRANSLATORS: a refusal: {seat} is the seat number asked for, {last} the last seat's number
        return "G-4", said("there is no seat {seat} (seats are 0 to {last})", seat=excerpt(seat), last=state.seats - 1)
    for window in state.game.windows:  # an out-of-turn action: its window says why
        refused = window.refusal(state, seat, action)
        if refused is not None:
            return refused
    pending = state.pending
    if pending.seat != seat:
        # TRANSLATORS: a refusal: {seat} and {other} are players; {kind} is the decision's name in the protocol (turn)
        return "G-4", said(
            "it is {seat}'s decision ({kind}), not {other}'s",
            seat=f"seat {pending.seat}",
            kind=pending.kind,
            other=f"seat {seat}",
        )
    return state.game.handlers[pending.kind].refusal(state, seat, action)  # the decision's handler
