"""``uno tournament`` and its arithmetic: seatings, Wilson intervals, ratings, --jobs identity, round robins.

The ratings' fit and the deal bootstrap have their own tests (tests/test_tournament_fit.py).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from unoengine.cli.main import cli
from unoengine.core.options import parse_options
from unoengine.play.tournament import GameOutcome, Plan, gather, make_plan, run_tournament, seatings, wilson


def test_wilson_matches_the_formula_and_its_edges() -> None:
    low, high = wilson(55, 100)
    assert (round(low, 4), round(high, 4)) == (0.4524, 0.6439)  # by hand: centre 0.5482, half-width 0.0957
    assert wilson(0, 10)[0] == pytest.approx(0.0) and 0.0 < wilson(0, 10)[1] < 0.31
    assert wilson(10, 10)[1] == pytest.approx(1.0) and 0.69 < wilson(10, 10)[0] < 1.0
    assert wilson(0, 0) == (0.0, 1.0)
    for wins, games in [(1, 3), (50, 100), (5000, 10000)]:
        low, high = wilson(wins, games)
        assert low < wins / games < high
        assert math.isclose(
            low + high, 2 * (wins / games + 1.96**2 / (2 * games)) / (1 + 1.96**2 / games), rel_tol=1e-4
        )


def test_seatings_are_every_distinct_permutation() -> None:
    assert seatings(["a", "b"]) == [("a", "b"), ("b", "a")]
    assert len(seatings(["a", "b", "c"])) == 6
    four = seatings(["x", "h", "h", "h"])
    assert len(four) == 4 and sorted(order.index("x") for order in four) == [0, 1, 2, 3]


def test_a_plan_fills_seats_with_the_last_bot_and_rounds_games_up_to_whole_deals() -> None:
    options = parse_options("classic", ["single_round=true"])
    plan = make_plan("classic", 4, ["random", "heuristic"], 10, 0, options)
    assert plan.bots == ("random", "heuristic", "heuristic", "heuristic")
    assert (plan.deals, plan.games) == (3, 12)
    with pytest.raises(ValueError, match="3 bots for 2 seats"):
        make_plan("classic", 2, ["random", "random", "random"], 10, 0, options)


def test_every_deal_is_played_in_every_seating_and_the_figures_add_up() -> None:
    plan = make_plan("classic", 2, ["heuristic", "random"], 40, 5, parse_options("classic", ["single_round=true"]))
    result = run_tournament(plan)
    assert sorted((game.deal, game.seating) for game in result.outcomes) == [(d, s) for d in range(20) for s in (0, 1)]
    figures = result.to_json()
    bots = {bot["name"]: bot for bot in figures["bots"]}
    assert bots["heuristic"]["games"] == bots["random"]["games"] == 40
    assert bots["heuristic"]["wins"] + bots["random"]["wins"] + figures["no_winner"] == 40
    assert figures["pairwise"]["heuristic"]["random"] + figures["pairwise"]["random"]["heuristic"] == pytest.approx(1)
    for bot in bots.values():
        assert bot["ci_low"] <= bot["win_rate"] <= bot["ci_high"]


def test_ratings_put_the_bot_that_wins_more_ahead() -> None:
    plan = Plan("classic", 3, ("a", "b", "c"), (), 0, 0)
    orders = plan.orders
    games = [
        GameOutcome(deal, index, orders[index].index("a" if deal % 4 else "b"), (0, 0, 0), 10, (1, 1, 1), (0.0,) * 3)
        for deal in range(20)
        for index in range(len(orders))
    ]
    result = gather(plan, reversed(games))  # any order: the figures come out in (deal, seating) order
    ratings = {bot.name: bot.rating for bot in result.bots if bot.rating is not None}
    assert ratings["a"].value > ratings["b"].value > ratings["c"].value
    assert sum(rating.value for rating in ratings.values()) == pytest.approx(0, abs=1e-9)  # the mean at 0
    for rating in ratings.values():
        assert rating.low is not None and rating.high is not None and rating.low <= rating.value <= rating.high
    assert result.pairwise["a"]["c"] == 0.875  # a wins 15 of 20 deals, b the other 5 (a and c tie: a half)
    assert result.pairwise["c"]["b"] == 0.375


def test_jobs_give_the_figures_of_one_process() -> None:
    plan = make_plan("classic", 3, ["heuristic", "random"], 30, 2, parse_options("classic", ["single_round=true"]))
    one = run_tournament(plan, jobs=1).to_json(timings=False)
    two = run_tournament(plan, jobs=2).to_json(timings=False)
    assert one == two and one["games"] == 30
    options = parse_options("classic", ["single_round=true"])
    robin = make_plan("classic", 2, ["heuristic", "random", "uniform"], 24, 2, options, format="round-robin")
    assert run_tournament(robin, jobs=2).to_json(timings=False) == run_tournament(robin).to_json(timings=False)


def test_the_command_prints_a_table_json_and_a_plot(tmp_path: pytest.TempPathFactory) -> None:
    runner = CliRunner()
    picture = tmp_path / "rates.png"  # type: ignore[operator]
    result = runner.invoke(
        cli, ["tournament", "--bots", "heuristic,random", "--games", "8", "--json", "--plot", str(picture)]
    )
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    for bot in figures["bots"]:
        assert {"name", "games", "wins", "win_rate", "ci_low", "ci_high", "ms_per_decision"} <= set(bot)
        assert {"wilson_low", "wilson_high", "forced", "forced_share", "rating"} <= set(bot)
        assert 0 < bot["forced"] < bot["decisions"] and bot["forced_share"] == round(
            bot["forced"] / bot["decisions"], 6
        )
    assert figures["format"] == "table" and figures["resamples"] == 1000 and "pairings" not in figures
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    table = runner.invoke(cli, ["tournament", "--bots", "ismcts:iterations=3,heuristic", "--games", "2"])
    assert table.exit_code == 0, table.output
    assert "95% CI" in table.output and "forced" in table.output and "Pairwise" in table.output
    assert "Wilson" not in table.output  # the naive interval is only in the JSON, by name


def test_the_command_takes_house_rules_and_reports_a_broken_bot() -> None:
    runner = CliRunner()
    house = runner.invoke(cli, ["tournament", "-b", "heuristic,random", "-g", "4", "--preset", "party", "--json"])
    assert house.exit_code == 0, house.output
    broken = runner.invoke(cli, ["tournament", "-b", "tests.test_bot_specs:Broken,random", "-g", "2"])
    assert broken.exit_code == 1
    assert (
        broken.output.startswith("error: bot broken at seat ") and "raised RuntimeError: out of ideas" in broken.output
    )
    unknown = runner.invoke(cli, ["tournament", "-b", "nobody,random", "-g", "2"])
    assert unknown.exit_code == 2 and unknown.output.startswith("error: unknown bot 'nobody'")


def test_a_round_robin_pairs_every_two_bots_heads_up_over_the_same_deals() -> None:
    options = parse_options("classic", ["single_round=true"])
    plan = make_plan("classic", 2, ["heuristic", "random", "uniform"], 30, 3, options, format="round-robin")
    assert plan.tables == [("heuristic", "random"), ("heuristic", "uniform"), ("random", "uniform")]
    assert len(plan.orders) == 6 and (plan.deals, plan.games) == (5, 30)
    result = run_tournament(plan)
    figures = result.to_json(timings=False)
    assert figures["pairings"] == [list(pair) for pair in plan.tables] and figures["seatings"] == 2
    bots = {bot["name"]: bot for bot in figures["bots"]}
    assert all(bot["games"] == 20 for bot in bots.values())  # two pairings × five deals × two seatings
    assert sum(bot["wins"] for bot in bots.values()) + figures["no_winner"] == 30
    for a, b in [("heuristic", "random"), ("heuristic", "uniform"), ("random", "uniform")]:
        assert figures["pairwise"][a][b] + figures["pairwise"][b][a] == pytest.approx(1)
        low, high = figures["pairwise_ci"][a][b]
        assert low <= figures["pairwise"][a][b] <= high
        assert figures["pairwise_ci"][b][a] == pytest.approx([1 - high, 1 - low])
    # a pairing's games are those of a heads-up tournament of its two bots (deals, seatings and bots' seeds)
    alone = run_tournament(make_plan("classic", 2, ["random", "uniform"], 10, 3, options))
    pairing = [game for game in result.outcomes if game.seating in (4, 5)]
    assert [(g.deal, g.seating - 4, g.winner, g.length) for g in pairing] == [
        (g.deal, g.seating, g.winner, g.length) for g in alone.outcomes
    ]


def test_a_round_robin_refuses_what_makes_no_sense() -> None:
    options = parse_options("classic", ["single_round=true"])
    with pytest.raises(ValueError, match="heads-up, in 2 seats, not 4"):
        make_plan("classic", 4, ["heuristic", "random"], 10, 0, options, format="round-robin")
    with pytest.raises(ValueError, match="'random' is given twice"):
        make_plan("classic", 2, ["random", "heuristic", "random"], 10, 0, options, format="round-robin")
    with pytest.raises(ValueError, match="at least two bots"):
        make_plan("classic", 2, ["random"], 10, 0, options, format="round-robin")
    with pytest.raises(ValueError, match="unknown format"):
        make_plan("classic", 2, ["random"], 10, 0, options, format="swiss")


def test_the_command_plays_a_round_robin_and_refuses_other_seats() -> None:
    runner = CliRunner()
    bots = "heuristic,random,uniform"
    result = runner.invoke(cli, ["tournament", "--format", "round-robin", "-b", bots, "-g", "12", "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["format"] == "round-robin" and figures["seats"] == 2 and len(figures["pairings"]) == 3
    assert set(figures["pairwise_ci"]["random"]) == {"heuristic", "uniform"}
    table = runner.invoke(cli, ["tournament", "--format", "round-robin", "-b", bots, "-g", "6", "--resamples", "100"])
    assert table.exit_code == 0, table.output
    assert "round robin of 3 bots" in table.output and "heads-up" in table.output and "rating" in table.output
    seats = runner.invoke(cli, ["tournament", "--format", "round-robin", "-b", bots, "--seats", "4"])
    assert seats.exit_code == 2
    assert seats.output.startswith("error: --format round-robin plays heads-up games, in 2 seats: not --seats 4")
    twice = runner.invoke(cli, ["tournament", "--format", "round-robin", "-b", "random,random"])
    assert twice.exit_code == 2 and "given twice" in twice.output


def test_the_header_and_the_plot_title_name_the_preset_and_options(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import matplotlib.axes

    titles: list[str] = []
    set_title = matplotlib.axes.Axes.set_title

    def record_title(self: Any, label: str, *args: Any, **kwargs: Any) -> Any:
        titles.append(label)
        return set_title(self, label, *args, **kwargs)

    monkeypatch.setattr(matplotlib.axes.Axes, "set_title", record_title)
    args = ["tournament", "-b", "heuristic,random", "-g", "2", "--preset", "party", "-o", "target_score=250"]
    result = CliRunner().invoke(cli, [*args, "--plot", str(tmp_path / "rates.png")])
    assert result.exit_code == 0, result.output
    played = (
        "preset party (draw_until_playable=true, jump_in=true, seven_zero=true, stack_draw=mixed, target_score=250)"
    )
    header = " ".join(result.stdout.split())  # Rich may wrap the header between words
    assert header.startswith(f"classic, 2 seats, {played}: 2 games (1 deals × 2 seatings, seed 0, ")
    assert titles == [f"classic, 2 seats, 2 games\n{played}"]
    plain = CliRunner().invoke(cli, ["tournament", "-b", "heuristic,random", "-g", "2", "--match"])
    assert plain.stdout.startswith("classic, 2 seats, official rules, whole games: 2 games")


def test_plot_into_an_existing_folder_writes_tournament_png_inside(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["tournament", "-b", "heuristic,random", "-g", "2", "--plot", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "tournament.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not tmp_path.with_suffix(".png").exists()  # not FOLDER.png beside the folder


@pytest.mark.parametrize(
    ("where", "message"),
    [
        ("missing/rates.png", "is not a folder (or does not exist)"),
        ("file.txt/rates.png", "is not a folder (or does not exist)"),
        ("rates.svg", "the chart is a PNG: give FILE.png or an existing folder"),
        ("rates", "the chart is a PNG: give FILE.png or an existing folder"),
        ("", "--plot needs a file name (FILE.png) or an existing folder"),
        ("a\x00b.png", "not a file name (it holds a NUL character)"),
        ("/proc/rates.png", "cannot save the plot /proc/rates.png: "),
    ],
)
def test_a_bad_plot_path_is_refused_before_any_game(tmp_path: Path, where: str, message: str) -> None:
    """A broken bot would fail the first game (exit 1): the plot's path is refused first, exit status 2."""
    if where.startswith("/proc") and not Path("/proc/self").is_dir():
        pytest.skip("no /proc")
    (tmp_path / "file.txt").write_text("x", encoding="utf-8")
    path = where if where.startswith("/") or not where else str(tmp_path / where)
    broken = ["tournament", "-b", "tests.test_bot_specs:Broken,random", "-g", "2", "--plot", path]
    result = CliRunner().invoke(cli, broken)
    assert result.exit_code == 2, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: ") and message in line and result.stdout == ""
