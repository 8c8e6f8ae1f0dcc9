"""Write docs/screenshots/{classic,duo,flex}.svg: the ``uno play`` screen of each rule set.

Each screenshot is taken headless, a few decisions into a seeded game, with a
prompt open where the rule set has one worth showing. Run from the repository:
``.venv/bin/python scripts/screenshots.py``.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.test_tui import SIZE, Trace, human_step, make_app, settle  # noqa: E402

from unoengine.cli.tui import ChoiceScreen  # noqa: E402

OUT = ROOT / "docs" / "screenshots"

SHOTS = {
    # rules: (seats, seed, decisions to take first, the prompt to stop at or None)
    "classic": (4, 3, 4, None),
    "duo": (2, 1, 20, None),
    "flex": (3, 3, 3, "side"),
}


async def shoot(rules: str) -> Path:
    seats, seed, decisions, stop_at = SHOTS[rules]
    app = make_app(rules, seats, seed)
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
        return Path(app.save_screenshot(filename=f"{rules}.svg", path=str(OUT)))


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for rules in SHOTS:
        print(asyncio.run(shoot(rules)))


if __name__ == "__main__":
    main()
