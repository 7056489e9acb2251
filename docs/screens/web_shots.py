"""Screenshots of the browser table: docs/screens/web-<game>.png (desktop) and
web-<game>-phone.png (a phone's screen) for every game, and web-lobby.png.

Starts `osteria serve` on a free port with a temporary database, opens a table for each game
with bots in the other seats in Debian's Chromium, plays a few tricks by clicks and takes the
pictures at the seat's turn. Run from the repository root:

    python docs/screens/web_shots.py [--lang it|en]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "tests" / "browser"))

from browser_harness import (  # noqa: E402
    Clicker,
    bot_players,
    chromium_path,
    launch,
    serve,
    table_state,
    wait_for_table,
    wait_for_turn_or_end,
)
from playwright.sync_api import ViewportSize, sync_playwright  # noqa: E402

# Each game, its players, and the seat's moves before the picture: a trick on the table, one behind.
GAMES = [("tressette", 4, 4), ("calabresella", 3, 4), ("traversone", 4, 4), ("quattrigghiu", 4, 4), ("sancagna", 4, 3)]
DESKTOP: ViewportSize = {"width": 1280, "height": 860}
PHONE: ViewportSize = {"width": 390, "height": 844}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", choices=["it", "en"], default="it")
    parser.add_argument("--out", type=Path, default=HERE)
    args = parser.parse_args()
    executable = chromium_path()
    if executable is None:
        print("Chromium is not installed (apt-get install chromium)", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as data, serve(Path(data), bot_delay=0.0) as server, \
            sync_playwright() as playwright:
        browser = launch(playwright, executable)
        desktop = browser.new_page(viewport=DESKTOP)
        desktop.goto(f"{server.base}/?lang={args.lang}")
        desktop.wait_for_selector("#create")
        desktop.screenshot(path=args.out / "web-lobby.png", full_page=True)
        for game, seats, moves in GAMES:
            created = server.create(game, bot_players(seats, level="medio"), seats=seats)
            link = f"{server.base}{created['seats'][0]['link']}&lang={args.lang}"
            desktop.goto(link)
            wait_for_table(desktop)
            clicker = Clicker(desktop, random.Random(game))
            for _ in range(moves):
                wait_for_turn_or_end(desktop, 1)
                if table_state(desktop)["deals"]:
                    break
                clicker.click_once()
            wait_for_turn_or_end(desktop, 1)
            desktop.screenshot(path=args.out / f"web-{game}.png", full_page=True)
            phone = browser.new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
            phone.goto(link)
            wait_for_table(phone)
            phone.screenshot(path=args.out / f"web-{game}-phone.png", full_page=False)
            phone.close()
            print(f"web-{game}.png, web-{game}-phone.png")
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
