"""``uno mcp``: a seat of a local game for an LLM agent, as MCP tools (the ``agents`` extra).

The agent holds seat 0; bots hold the others. Three tools:

- ``get_view``: the seat's view, the JSON form every client gets (docs/NOTATION.md);
- ``legal_actions``: each legal action in notation with its rule words;
- ``act``: take one (in notation); the bots then play until the seat must decide
  again; the answer is what the seat saw happen (redacted events) and its new view.

Everything goes through the core's view and redaction (G-2): never a hidden card.
"""

from __future__ import annotations

import json
import random
from typing import Any

import click

from unoengine.bots.base import make_bot, split_specs
from unoengine.cli.arguments import RULES_HELP, AsciiInt
from unoengine.cli.common import CONTEXT, fail
from unoengine.core.actions import Action, Play, format_action
from unoengine.core.errors import IllegalActionError, InvalidNotationError
from unoengine.core.events import event_to_json
from unoengine.core.options import parse_options
from unoengine.core.views import PlayerView, view_to_json
from unoengine.play.table import Table

WORDS = {
    "draw": "draw a card",
    "pass": "keep the drawn card and end the turn",
    "uno": "call UNO",
    "accept": "accept the Wild Draw Four and draw",
    "challenge": "challenge the Wild Draw Four",
    "keep": "keep the draft card",
    "reject": "reject the draft card",
}


def action_words(view: PlayerView, action: Action) -> str:
    """What an action does, in the rule set's words (a play: its card's side, from the view)."""
    text = format_action(action)
    if type(action) is Play:
        sides = view_to_json(view)["sides"].get(text.split("@")[0].split(":")[0].split(" ")[0].split(">")[0], None)
        side = (sides[1] if action.flex and sides[1] else sides[0]) if sides else "play the card"
        extra = []
        if action.color is not None:
            extra.append(f"name {action.color.word}")
        if action.target is not None:
            extra.append(f"target seat {action.target}")
        if action.uno:
            extra.append("call UNO")
        return f"play {text.split(' ')[0]}: {side}" + (f" ({', '.join(extra)})" if extra else "")
    if text.startswith("catch"):
        return f"catch seat {text.split()[-1]} for not calling UNO"
    if text.startswith("color"):
        return f"choose {text.split()[-1]} as the colour"
    total = view.detail("stack", 0) or view.volley  # a draw stack (H-1, No Mercy N-15) or a Duo volley
    if text == "draw" and total:
        return f"take the {total} cards to draw"
    return WORDS.get(text, text)


class AgentSeat:
    """Seat 0 of a local game for an agent; bots in the other seats."""

    def __init__(self, rules: str, seats: int, bots: list[str], seed: int, options: Any) -> None:
        rng = random.Random(seed)
        controllers = [None] + [
            make_bot(bots[min(i, len(bots) - 1)], random.Random(rng.getrandbits(64))) for i in range(seats - 1)
        ]
        self.table = Table.new(rules, seats, seed=seed, options=options, controllers=controllers)
        self.table.run_bots()

    def get_view(self) -> dict[str, Any]:
        """The seat's view as JSON (what any client of the seat may see)."""
        return view_to_json(self.table.view(0))

    def legal_actions(self) -> list[dict[str, str]]:
        """The seat's legal actions now, each with its rule words."""
        view = self.table.view(0)
        return [{"action": format_action(action), "words": action_words(view, action)} for action in view.legal]

    def act(self, action: str) -> dict[str, Any]:
        """Take ``action`` (notation); the bots play on; what the seat saw and its new view."""
        try:
            steps = [self.table.submit(0, action)]
        except (IllegalActionError, InvalidNotationError) as error:
            return {"error": str(error), "view": self.get_view()}
        steps += self.table.run_bots()
        state = self.table.state
        seen = [
            {"seat": step.seat, "action": format_action(step.action)}
            | {"events": [event_to_json(event, state) for event in step.events_for(0)]}
            for step in steps
        ]
        return {"steps": seen, "view": self.get_view()}


def build_server(seat: AgentSeat) -> Any:
    """The MCP server (``mcp``'s MCPServer) with the three tools of ``seat``."""
    from mcp.server.mcpserver import MCPServer

    server = MCPServer(
        "unoengine", instructions="You play seat 0 of an UNO game. Read get_view, pick from legal_actions, act."
    )

    @server.tool(description="Your view of the game: your hand, the top card, every seat's hand size, whose turn.")
    def get_view() -> str:
        return json.dumps(seat.get_view())

    @server.tool(description="Your legal actions now, each in notation with what it does in the rules' words.")
    def legal_actions() -> str:
        return json.dumps(seat.legal_actions())

    @server.tool(description="Take one legal action (its notation, e.g. 'R7', 'W:g', 'draw'); the bots then play.")
    def act(action: str) -> str:
        return json.dumps(seat.act(action))

    return server


@click.command("mcp", context_settings=CONTEXT)
@click.option("-r", "--rules", default="classic", show_default=True, help=RULES_HELP)
@click.option("-n", "--seats", type=AsciiInt(), default=2, show_default=True, help="Seats (the agent holds seat 0).")
@click.option("-b", "--bots", default="heuristic", show_default=True, help="Bot specs of the other seats.")
@click.option("-s", "--seed", type=AsciiInt(100), default=0, show_default=True, help="The game's seed.")
@click.option("-o", "--option", "option_items", multiple=True, metavar="KEY=VALUE", help="A rule option.")
def mcp_command(*, rules: str, seats: int, bots: str, seed: int, option_items: tuple[str, ...]) -> None:
    """Serve a seat to an LLM agent over MCP (stdio): tools get_view, legal_actions, act."""
    try:
        import mcp  # noqa: F401
    except ImportError:
        fail("error: uno mcp needs the mcp package: pip install 'unoengine[agents]'")
    try:
        seat = AgentSeat(
            rules, seats, split_specs(bots), seed, parse_options(rules, ["single_round=true", *option_items])
        )
    except (ValueError, InvalidNotationError) as error:
        fail(f"error: {error}")
    build_server(seat).run("stdio")
