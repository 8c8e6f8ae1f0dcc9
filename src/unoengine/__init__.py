"""unoengine: the reference implementation of UNO (Classic, Duo, Flex!, Show 'Em No Mercy) in Python.

>>> from unoengine import new_game, legal_actions, apply, view_for
>>> state = new_game("classic", seats=2, seed=7)
>>> seat = state.to_act
>>> action = legal_actions(state, seat)[-1]
>>> str(action)
'draw'
>>> state = apply(state, seat, action).state
>>> state.pending.kind
'drawn'
"""

from __future__ import annotations

from unoengine import _build  # noqa: F401  (first: chooses the compiled or the pure build of the core)
from unoengine.core.action_ids import NUM_ACTIONS, action_id, action_of, legal_mask
from unoengine.core.actions import (
    Accept,
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    Keep,
    Pass,
    Play,
    Reject,
    format_action,
    parse_action,
)
from unoengine.core.cards import COLORS, Card, CardId, Color, Rank, Seat, format_card, parse_card
from unoengine.core.determinize import Determinizer, determinize
from unoengine.core.engine import Transition, apply, apply_unchecked, legal_actions, new_game
from unoengine.core.errors import IllegalActionError, InvalidNotationError, RecordError
from unoengine.core.events import Event, redact
from unoengine.core.notation import format_state, parse_state, state_to_json
from unoengine.core.options import PRESETS, OptionSpec, option_specs, parse_options
from unoengine.core.record import Record, ReplayError, format_record, parse_record, record_of, replay
from unoengine.core.rules import CLASSIC, DUO, FLEX, RULESETS, Options, RuleSet, find_rules
from unoengine.core.state import GameState, Outcome, Pending, Termination
from unoengine.core.views import PlayerView, view_for

__version__ = "0.1.0"

__all__ = [
    "CLASSIC",
    "COLORS",
    "DUO",
    "FLEX",
    "NUM_ACTIONS",
    "PRESETS",
    "RULESETS",
    "Accept",
    "Action",
    "CallUno",
    "Card",
    "CardId",
    "Catch",
    "Challenge",
    "ChooseColor",
    "Color",
    "Determinizer",
    "Draw",
    "Event",
    "GameState",
    "IllegalActionError",
    "InvalidNotationError",
    "Keep",
    "OptionSpec",
    "Options",
    "Outcome",
    "Pass",
    "Pending",
    "Play",
    "PlayerView",
    "Rank",
    "Record",
    "RecordError",
    "Reject",
    "ReplayError",
    "RuleSet",
    "Seat",
    "Termination",
    "Transition",
    "__version__",
    "action_id",
    "action_of",
    "apply",
    "apply_unchecked",
    "determinize",
    "find_rules",
    "format_action",
    "format_card",
    "format_record",
    "format_state",
    "legal_actions",
    "legal_mask",
    "new_game",
    "option_specs",
    "parse_action",
    "parse_card",
    "parse_options",
    "parse_record",
    "parse_state",
    "record_of",
    "redact",
    "replay",
    "state_to_json",
    "view_for",
]
