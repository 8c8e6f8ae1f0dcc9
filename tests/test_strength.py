"""The strength targets at full size (10,000 games, seats rotated over the same deals): slow.

``scripts/strength --full`` prints the same tournaments as the table of docs/STRENGTH.md.
"""

from __future__ import annotations

import pytest

from unoengine.core.options import parse_options
from unoengine.play.tournament import make_plan, run_tournament

pytestmark = pytest.mark.slow

HARD = "ismcts:iterations=80"


@pytest.mark.parametrize(("seats", "target"), [(2, 0.55), (4, 0.28)])
def test_ismcts_beats_heuristic_by_the_target(seats: int, target: float) -> None:
    options = parse_options("classic", ["single_round=true"])
    plan = make_plan("classic", seats, [HARD, "heuristic"], 10_000, 20000, options)
    figures = run_tournament(plan, jobs=2).to_json()
    ismcts = figures["bots"][0]
    assert ismcts["games"] >= 10_000
    assert ismcts["win_rate"] >= target, ismcts
