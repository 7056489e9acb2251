"""The strength page's script: it reads the boards it kept, measures each line against its goal,
and writes the shares and the level ladder from them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from osteria.arena import Config

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "strength.py"


def keep(folder: Path, name: str, players: tuple[str, str], margins: list[float], cut: bool = False,
         game: str = "sancagna", seats: int | None = None) -> None:
    """A results file as the arena writes it: its run's key, then a board a line (the first
    player's score ahead of the second's by each margin)."""
    rows = [json.dumps(Config(game, players, len(margins), seed=2026, seats=seats).key())]
    rows += [json.dumps({"board": b, "scores": [m, 0.0], "deals": [], "faults": {}, "moves": {}})
             for b, m in enumerate(margins)]
    if cut:
        rows.append('{"board": 99, "sco')  # a line an interruption cut short
    (folder / f"{name}.jsonl").write_text("\n".join(rows) + "\n", encoding="utf-8")


def written_page(folder: Path, game: str) -> str:
    """The page the script writes for ``game`` from the boards kept in ``folder`` alone."""
    page = folder / "page.md"
    done = subprocess.run([sys.executable, str(SCRIPT), "--games", game, "--held-only",
                           "--results", str(folder), "--out", str(page)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return page.read_text(encoding="utf-8")


def test_the_page_is_written_from_the_kept_boards_with_each_lines_goal(tmp_path: Path) -> None:
    keep(tmp_path, "sancagna-oracle-heuristic", ("oracle", "heuristic"), [1.0, 0.0] * 50)
    keep(tmp_path, "sancagna-hybrid-heuristic", ("hybrid", "heuristic"), [0.5, -0.5, 0.25, 0.0] * 5, cut=True)
    keep(tmp_path, "sancagna-medio-facile", ("medio", "facile"), [0.25, 0.0] * 100)
    text = written_page(tmp_path, "sancagna")
    # The oracle leads by 0.5 a board: each line's interval must come within a quarter of that.
    assert "the goal of each interval: ±0.125" in text
    assert "| oracle vs heuristic | 4 | 100 | +0.500 ± 0.098 |" in text
    # Twenty boards (the cut line left out) leave the hybrid's interval wider than the goal, and
    # short of the boards a line of the ladder plays.
    assert ("| hybrid vs heuristic | 4 | 20 | +0.062 ± 0.178 (interval above its goal) "
            "(fewer than the 800 boards asked) |") in text
    assert "| sancagna | 4 | hybrid | 20 | +0.062 ± 0.178 | +0.500 ± 0.098 | 12% |" in text
    assert "| medio vs facile | 4 | 200 | +0.125 ± 0.017 (fewer than the 800 boards asked) |" in text
    assert "| sancagna | medio vs facile | 200 | +0.125 ± 0.017 | ahead (fewer than the 800 boards asked) |" in text
    assert ("| sancagna | difficile vs medio | 20 | +0.062 ± 0.178 | not clearly ahead "
            "(fewer than the 800 boards asked) |") in text
    assert "| sancagna | maestro vs difficile |  |  | not measured yet |" in text
    assert "| pimc vs heuristic | 4 | not measured yet |" in text


def test_the_share_is_written_at_every_seat_count(tmp_path: Path) -> None:
    # Traversone plays at three to six: the oracle and ISMCTS measured at three have their own
    # row, with the goal a quarter of the oracle's lead there; the counts not measured say so.
    keep(tmp_path, "traversone-oracle-heuristic", ("oracle", "heuristic"), [-2.0, 0.0] * 50, game="traversone")
    keep(tmp_path, "traversone-ismcts-heuristic", ("ismcts", "heuristic"), [-1.0, 0.0] * 400, game="traversone")
    keep(tmp_path, "traversone-3-oracle-heuristic", ("oracle", "heuristic"), [-4.0, 0.0] * 50, game="traversone",
         seats=3)
    keep(tmp_path, "traversone-3-ismcts-heuristic", ("ismcts", "heuristic"), [-1.0, 0.0] * 50, game="traversone",
         seats=3)
    text = written_page(tmp_path, "traversone")
    assert "| oracle vs heuristic | 3 | 100 | +2.000 ± 0.394 |" in text
    assert "| ismcts vs heuristic | 3 | 100 | +0.500 ± 0.098 |" in text  # within 0.5, its goal at three
    assert "| traversone | 3 | ismcts | 100 | +0.500 ± 0.098 | +2.000 ± 0.394 | 25% |" in text
    assert "| traversone | 4 | ismcts | 800 | +0.500 ± 0.035 | +1.000 ± 0.197 | 50% |" in text
    assert "| traversone | 5 | ismcts |  | not measured yet | not measured yet | |" in text
    assert "| ismcts vs heuristic | 6 | not measured yet |" in text
    assert text.index("| traversone | 3 |") < text.index("| traversone | 4 |")


def test_the_oracles_lead_is_split_into_its_card_play_and_the_rest(tmp_path: Path) -> None:
    # The oracle in the card play alone, beside the oracle, at each seat count where both are kept.
    keep(tmp_path, "calabresella-oracle-heuristic", ("oracle", "heuristic"), [2.0, 0.0] * 50, game="calabresella")
    keep(tmp_path, "calabresella-oracle-play-heuristic", ("oracle-play", "heuristic"), [0.5, 0.0] * 50,
         game="calabresella")
    keep(tmp_path, "calabresella-5-oracle-heuristic", ("oracle", "heuristic"), [1.0, 0.0] * 50, game="calabresella",
         seats=5)
    text = written_page(tmp_path, "calabresella")
    assert "| oracle-play vs heuristic | 3 | 100 | +0.250 ± 0.049 |" in text
    assert "| calabresella | 3 | +1.000 ± 0.197 | 100 | +0.250 ± 0.049 | 25% |" in text
    assert "| calabresella | 5 | +0.500 ± 0.098 |  | not measured yet |  |" in text
    assert "| calabresella | 4 | not measured yet |  | not measured yet |  |" in text


def test_a_bad_game_is_refused_with_a_message(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--games", "briscola", "--held-only",
                           "--results", str(tmp_path), "--out", str(tmp_path / "page.md")],
                          capture_output=True, text=True)
    assert done.returncode == 1 and "games among" in done.stderr and "Traceback" not in done.stderr


def test_tressettes_difficile_step_is_the_learned_players_line(tmp_path: Path) -> None:
    # Tressette's difficile is the learned player: its step over medio is dmc's line against the
    # rule-based player, while the share stays the strongest honest player's (pimc).
    keep(tmp_path, "tressette-pimc-heuristic", ("pimc", "heuristic"), [3.0, 2.0] * 50, game="tressette")
    keep(tmp_path, "tressette-dmc-heuristic", ("dmc", "heuristic"), [1.0, 0.0] * 40, game="tressette")
    keep(tmp_path, "tressette-difficile-medio", ("difficile", "medio"), [9.0, 9.0] * 40, game="tressette")
    text = written_page(tmp_path, "tressette")
    assert ("| tressette | difficile vs medio | 80 | +0.500 ± 0.110 | ahead "
            "(fewer than the 800 boards asked) |") in text
    assert "| difficile vs medio | 4 |" not in text  # no line of its own in the game's table
    assert "| tressette | 4 | pimc | 100 | +2.500 ± 0.098 |" in text
