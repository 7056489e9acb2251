"""The rules engine compiled with mypyc (setup.py, ``OSTERIA_COMPILE=1``) does what the pure one
does: built here from this checkout's source, it plays the same fixed random matches of every
game to the same digest (tests/engine_digest.py), step by step."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
DIGEST = Path(__file__).resolve().parent / "engine_digest.py"
MATCHES = "10"  # per game and seat count


def digests(source: Path) -> dict[str, Any]:
    """What engine_digest.py prints, run on the package under ``source``."""
    done = subprocess.run([sys.executable, str(DIGEST), MATCHES], capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": str(source)}, timeout=600)
    found: dict[str, Any] = json.loads(done.stdout)
    return found


def test_the_compiled_engine_plays_every_game_as_the_pure_one(tmp_path: Path) -> None:
    pytest.importorskip("mypyc", reason="mypyc comes with mypy, which the test extra installs")
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        pytest.skip(f"no C compiler ({compiler}) to build the compiled engine with")
    build = tmp_path / "build"
    shutil.copytree(ROOT / "src", build / "src", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, build / name)
    built = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace", "--parallel", "2"], cwd=build,
                           capture_output=True, text=True, env={**os.environ, "OSTERIA_COMPILE": "1"}, timeout=900)
    assert built.returncode == 0, built.stderr[-4000:]
    compiled = digests(build / "src")
    pure = digests(ROOT / "src")
    assert compiled["compiled"] and not pure["compiled"]
    assert compiled["games"] == pure["games"]
