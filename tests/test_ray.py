"""``uno tournament --ray``: the same games on a local Ray instance, the same figures as ``--jobs``."""

from __future__ import annotations

from unoengine.core.options import parse_options
from unoengine.play.tournament import make_plan, ray_runner, run_tournament


def test_a_local_ray_instance_gives_the_figures_of_jobs() -> None:
    plan = make_plan("classic", 2, ["heuristic", "random"], 24, 7, parse_options("classic", ["single_round=true"]))
    on_ray = run_tournament(plan, jobs=2, runner=ray_runner(None, num_cpus=2)).to_json(timings=False)
    local = run_tournament(plan, jobs=1).to_json(timings=False)
    assert on_ray == local and local["games"] == 24
