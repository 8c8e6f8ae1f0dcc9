"""H-11 ``teams``: partners sit opposite and win, score and lose together (docs/RULES.md H-11).

``pairs`` needs 4 or 6 seats (``new_game`` refuses another count: :meth:`Teams.check_seats`); seat ``s``
and seat ``(s + seats / 2) % seats`` are partners. A round is won by a team when
either partner goes out; it scores the cards left in the opposing team's hands
(the partner's do not count), credited to both partners (:func:`team_score`); the
first team to reach the target wins (``single_round``: the round winner's team),
and the game's ``winner`` stays the seat that went out (:func:`team_game_winner`).
Readings (H-11): a seat may not catch its partner (:class:`TeamsUnoWindow`);
everything else works between partners as between any seats; a hand stays
hidden from the partner (views are unchanged); Duo (two players) refuses it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from unoengine.core import actions as A
from unoengine.core.cards import Seat
from unoengine.core.errors import InvalidNotationError
from unoengine.core.rules.compose import GameParts, HouseRule
from unoengine.core.rules.option_specs import Options, OptionSpec
from unoengine.core.rules.windows import UNO_WINDOW, UnoWindow
from unoengine.core.state import GameState
from unoengine.core.work import Work
from unoengine.i18n import said

SPEC: Final = OptionSpec(
    "teams",
    "none",
    "H-11",
    said("pairs: partners sit opposite (4 or 6 seats) and score together"),
    choices=("none", "pairs"),
    rulesets=("classic", "flex"),
    absent=(("duo", said("Duo is for two players: there is no one to pair")),),
    title=said("Teams"),
    choice_words=(
        ("none", said("no teams")),
        ("pairs", said("partners sit opposite and score together")),
    ),
)

TEAM_SEATS: Final = (4, 6)
"""The seat counts ``pairs`` is played with."""


def partner(seats: int, seat: Seat) -> Seat:
    """The partner of ``seat`` at a table of ``seats`` (4 or 6) playing in pairs: the seat opposite."""
    return (seat + seats // 2) % seats


def partner_in(
    options: Options | Mapping[str, Any] | tuple[tuple[str, Any], ...], seats: int, seat: Seat
) -> Seat | None:
    """The partner of ``seat`` under these options (a view's ``options`` pairs too), or ``None`` without teams."""
    values: Mapping[str, Any] = (
        options.to_dict()
        if isinstance(options, Options)
        else options
        if isinstance(options, Mapping)
        else dict(options)
    )
    if values.get("teams") != "pairs" or seats not in TEAM_SEATS:
        return None
    return partner(seats, seat)


def team_of(seats: int, seat: Seat) -> tuple[Seat, ...]:
    """``seat`` and its partner: the seats that win together."""
    return (seat, partner(seats, seat))


def team_name(seats: int, seat: Seat) -> str:
    """The team of ``seat`` in words: ``Team A`` (seats 0 and 2 of 4), ``Team B`` …"""
    # TRANSLATORS: a team's name: {letter} is A, B or C (kept as it is)
    return said("Team {letter}", letter="ABC"[seat % (seats // 2)])


def team_score(work: Work, winner: Seat) -> tuple[int, ...]:
    """H-11: the round's team scores the cards left in the opposing team's hands, credited to both partners."""
    points = work.tables.points
    seats = work.seats
    mate = partner(seats, winner)
    total = sum(points[card] for seat, hand in enumerate(work.hands) if seat not in (winner, mate) for card in hand)
    return tuple(total if seat in (winner, mate) else 0 for seat in range(seats))


def team_game_winner(work: Work, round_winner: Seat | None) -> tuple[bool, Seat | None]:
    """H-11: the first team to reach the target wins (``single_round``: the round winner's team); the winner
    named is the seat that went out in the last round (only its team scores a round)."""
    if work.options.single_round:
        return True, round_winner
    if round_winner is not None and work.scores[round_winner] >= work.options.target_score:
        return True, round_winner
    return False, None


class TeamsUnoWindow(UnoWindow):
    """C-18 with H-11: a seat that forgot to call UNO may be caught by its opponents only."""

    def offers(self, state: GameState, seat: Seat) -> list[A.Action]:
        unsafe = state.unsafe
        assert unsafe is not None
        if unsafe == seat:
            return [A.CALL_UNO]
        return [] if partner(state.seats, seat) == unsafe else [A.catch(unsafe)]

    def order(self, state: GameState) -> list[Seat]:
        """The UNO window's order, without the partner of the seat that forgot to call UNO."""
        unsafe = state.unsafe
        order = UnoWindow.order(self, state)
        return order if unsafe is None else [seat for seat in order if seat != partner(state.seats, unsafe)]

    def refusal(self, state: GameState, seat: Seat, action: A.Action) -> tuple[str, str] | None:
        if type(action) is A.Catch and action.seat != seat and partner(state.seats, seat) == action.seat:
            # TRANSLATORS: a refusal: {seat} is a player, {partner} their partner
            reason = said(
                "{seat} cannot catch its partner, {partner} (teams)", seat=f"seat {seat}", partner=f"seat {action.seat}"
            )
            return "H-11", reason
        return UnoWindow.refusal(self, state, seat, action)


TEAMS_UNO_WINDOW: Final = TeamsUnoWindow()


class Teams(HouseRule):
    """H-11: partners opposite; the team's score, game end and UNO window."""

    name = "teams"
    rule = "H-11"
    specs: tuple[OptionSpec, ...] = (SPEC,)

    def on(self, options: Options) -> bool:
        return options.teams != "none"

    def check_seats(self, seats: int, options: Options) -> None:
        if seats not in TEAM_SEATS:
            raise InvalidNotationError(
                f"option 'teams' (H-11): pairs are played with 4 or 6 seats (partners opposite), not {seats}"
            )

    def compose(self, parts: GameParts, options: Options) -> None:
        parts.score_round = team_score
        parts.game_winner = team_game_winner
        parts.allies = team_of
        parts.windows = [TEAMS_UNO_WINDOW if window is UNO_WINDOW else window for window in parts.windows]


TEAMS: Final = Teams()
