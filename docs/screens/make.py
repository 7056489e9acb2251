"""Draw the pictures of docs/screens/: a deal of each game at the full-screen table, headless,
in a terminal of 120×40 (GAME.svg) and of 80×24 (GAME-80x24.svg).

    python docs/screens/make.py            # every game, into docs/screens/
    python docs/screens/make.py sancagna   # one game
    python docs/screens/make.py analysis   # the analysis after a deal of Tressette

In each picture of a game the person (seat 0) has played a few tricks against bots of level medio, chosen
by a bot of the same level, and a trick is on the table; the pictures are the same on every run.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

from osteria.bots import make_bot
from osteria.tui.app import DealScreen, TableApp, table_match

HERE = Path(__file__).resolve().parent
# The file name's ending for each terminal size.
SIZES = {"": (120, 40), "-80x24": (80, 24)}
# game: (players, rules options, seed, the person's choices before the picture, language)
SCENES: dict[str, tuple[int | None, dict[str, Any], int, int, str]] = {
    "tressette": (None, {}, 11, 3, "it"),
    "calabresella": (3, {}, 3, 4, "it"),
    "traversone": (4, {}, 3, 4, "en"),
    "quattrigghiu": (None, {}, 2, 4, "it"),
    "sancagna": (None, {}, 8, 3, "en"),
}


async def scene(game: str, ending: str) -> None:
    seats, options, seed, choices, lang = SCENES[game]
    match, bots = table_match(game, lang=lang, seed=seed, seats=seats, human_seat=0, options=options,
                              level="medio", load=None)
    app = TableApp(match, human_seat=0, lang=lang, bots=bots, levels=dict.fromkeys(bots, "medio"), delay=0.0,
                   analysis=False, seed=seed, trick_pause=0.0)
    chooser = make_bot("medio", game=game, seed=seed)
    async with app.run_test(size=SIZES[ending]) as pilot:
        made = 0
        while made <= choices + 4:  # the picture waits for a trick on the table
            await pilot.pause()
            if isinstance(app.screen, DealScreen):
                break
            if app.human_turn():
                if made >= choices and app.observation.get("trick"):
                    break
                observation = match.observation(0)
                legal = observation["legal_actions"]
                # The person bids boldly, so that the picture shows a contract being played.
                calls = [a for a in legal if a.split()[0] == "chiamo"]
                await app.choose(calls[-1] if calls else chooser.act(observation, legal))
                made += 1
        await pilot.pause()
        app.save_screenshot(f"{game}{ending}.svg", str(HERE))


async def analysis_scene(ending: str) -> None:
    """The screen after a deal of Tressette: its result, then the analysis of every choice."""
    match, bots = table_match("tressette", lang="en", seed=11, seats=None, human_seat=0, options={},
                              level="medio", load=None)
    app = TableApp(match, human_seat=0, lang="en", bots=bots, levels=dict.fromkeys(bots, "medio"), delay=0.0,
                   analysis=True, analysis_time=0.05, seed=11, trick_pause=0.0)
    chooser = make_bot("facile", game="tressette", seed=11)
    async with app.run_test(size=SIZES[ending]) as pilot:
        while not isinstance(app.screen, DealScreen):
            await pilot.pause()
            if app.human_turn():
                observation = match.observation(0)
                await app.choose(chooser.act(observation, observation["legal_actions"]))
        screen = app.screen
        while screen.analysis is None:
            await pilot.pause(0.2)
        await pilot.pause()
        app.save_screenshot(f"analysis{ending}.svg", str(HERE))


def main(games: list[str]) -> None:
    for game in games or [*SCENES, "analysis"]:
        for ending in SIZES:
            asyncio.run(analysis_scene(ending) if game == "analysis" else scene(game, ending))
            print(HERE / f"{game}{ending}.svg")


if __name__ == "__main__":
    main(sys.argv[1:])
