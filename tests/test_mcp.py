"""``uno mcp``: a seat for an LLM agent as MCP tools, with rule words and never a hidden card."""

from __future__ import annotations

import json
import random

from unoengine import determinize, view_for
from unoengine.cli.agent import AgentSeat, build_server
from unoengine.core.options import parse_options
from unoengine.core.views import view_to_json


def seat(rules: str = "classic", seats: int = 3) -> AgentSeat:
    return AgentSeat(rules, seats, ["heuristic"], 5, parse_options(rules, ["single_round=true"]))


def test_an_agent_plays_a_whole_game_through_the_tools() -> None:
    for rules, seats in (("classic", 3), ("duo", 2), ("flex", 2)):
        agent = seat(rules, seats)
        rng = random.Random(1)
        for _ in range(2000):
            view = agent.get_view()
            if view["outcome"] is not None:
                break
            hidden_resampled = view_for(determinize(agent.table.view(0), rng), 0)
            assert view == view_to_json(hidden_resampled)  # nothing the seat cannot see
            legal = agent.legal_actions()
            assert [item["action"] for item in legal] == view["legal"]
            assert all(item["words"] for item in legal)
            answer = agent.act(legal[-1]["action"] if len(legal) > 1 else legal[0]["action"])
            assert "error" not in answer, answer
        assert agent.get_view()["outcome"] is not None


def test_a_refused_action_is_answered_and_changes_nothing() -> None:
    agent = seat()
    before = agent.get_view()
    answer = agent.act("catch 7")
    assert "error" in answer and answer["view"] == before
    assert agent.act("not an action")["error"]


async def test_the_mcp_server_offers_the_three_tools() -> None:
    agent = seat()
    server = build_server(agent)
    tools = {tool.name for tool in await server.list_tools()}
    assert tools == {"get_view", "legal_actions", "act"}
    result = await server.call_tool("legal_actions", {})
    text = json.dumps(result.model_dump() if hasattr(result, "model_dump") else result)
    assert agent.legal_actions()[0]["action"] in text
