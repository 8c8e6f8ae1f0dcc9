"""Write docs/screenshots/{classic,duo,flex}.svg: the ``uno play`` screen of each rule set, review.svg,
and classic-{km,si,lo}.svg (the Classic screen in Khmer, Sinhala and Lao: ``uno play --lang``).

Each screenshot is taken headless, a few decisions into a seeded game, with a
prompt open where the rule set has one worth showing; review.svg is the review
(``r`` at the end of a short seeded game, its analysis done, at the person's
first decision). Run from the repository: ``.venv/bin/python scripts/screenshots.py``.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.test_tui import SIZE, Trace, human_step, make_app, settle  # noqa: E402
from tests.test_tui_review import play_to_the_end  # noqa: E402

from unoengine.cli.review import ReviewScreen  # noqa: E402
from unoengine.cli.session import HUMAN, Session  # noqa: E402
from unoengine.cli.tui import ChoiceScreen, UnoApp  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
REVIEW_SEED = 3
"""The seeded game of review.svg: one where the person's play earns a mark."""

SHOTS = {
    # rules: (seats, seed, decisions to take first, the prompt to stop at or None)
    "classic": (4, 3, 4, None),
    "duo": (2, 1, 20, None),
    "flex": (3, 3, 3, "side"),
}


async def shoot(rules: str, lang: str = "en") -> Path:
    seats, seed, decisions, stop_at = SHOTS[rules]
    app = make_app(rules, seats, seed)
    if lang != "en":
        app = UnoApp(app.session, bot_delay=0, catch_seconds=30, lang=lang)
    trace = Trace()
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(200):
            await settle(app, pilot)
            screen = app.screen
            if isinstance(screen, ChoiceScreen) and screen.kind == stop_at:
                break
            if decisions <= 0 and stop_at is None and not isinstance(screen, ChoiceScreen):
                break
            await human_step(app, pilot, trace)
            decisions -= 1
        await pilot.pause()
        name = f"{rules}.svg" if lang == "en" else f"{rules}-{lang}.svg"
        return Path(app.save_screenshot(filename=name, path=str(OUT)))


async def shoot_review() -> Path:
    session = Session.new("classic", 2, seed=REVIEW_SEED, options={"hand_size": 5, "single_round": True})
    app = UnoApp(session, bot_delay=0, catch_seconds=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await play_to_the_end(app, pilot)
        await pilot.press("r")
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        for _ in range(600):  # the analysis, in its worker thread
            await pilot.pause(0.1)
            if screen.decisions and "analysing" not in str(screen.query_one("#review-graph").render()):
                break
        mine = sorted(decision.index for decision in screen.decisions.values() if decision.seat == HUMAN)
        marked = [d.index for d in screen.decisions.values() if d.seat == HUMAN and d.mark is not None]
        screen.at = (marked or mine or [0])[0] + 1
        screen.refresh_step()
        await pilot.pause()
        return Path(app.save_screenshot(filename="review.svg", path=str(OUT)))


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for rules in SHOTS:
        print(asyncio.run(shoot(rules)))
    for lang in ("km", "si", "lo"):
        print(asyncio.run(shoot("classic", lang)))
    print(asyncio.run(shoot_review()))


if __name__ == "__main__":
    main()
