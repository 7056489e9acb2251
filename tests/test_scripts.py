"""The benchmarks' and examples' scripts read their command lines as the `osteria` command does:
an option they do not know is said with the usage, and exits with status 1, no traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def scripts_with(text: str) -> list[Path]:
    """The benchmarks' and examples' scripts whose source holds ``text``."""
    return sorted(path for folder in ("benchmarks", "examples") for path in (ROOT / folder).glob("*.py")
                  if text in path.read_text(encoding="utf-8"))


SCRIPTS = scripts_with("CommandParser(")


def test_every_script_with_a_command_line_is_asked() -> None:
    # a script that reads options with argparse's own parser would exit 2, and be missed here
    assert scripts_with("add_argument(") == SCRIPTS and len(SCRIPTS) >= 10


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_an_unknown_option_exits_1_with_the_usage(script: Path) -> None:
    done = subprocess.run([sys.executable, str(script), "--no-such-option"], capture_output=True, text=True,
                          timeout=120)
    missing = next((line for line in done.stderr.splitlines() if line.startswith("ModuleNotFoundError")), None)
    if missing:  # a script whose extra (PyTorch, a server's libraries) this environment lacks
        pytest.skip(missing)
    assert done.returncode == 1, done.stderr
    # the option unknown, or an option it requires missing: either is said as an error
    assert "usage:" in done.stderr and f"{script.name}: error:" in done.stderr
    assert "Traceback" not in done.stderr
