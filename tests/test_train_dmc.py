"""The learned baseline's training script: a short run writes weights of the network asked for,
and bad options are said without a traceback. Skipped where PyTorch or numba is not installed."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("numba")

SCRIPT = Path(__file__).resolve().parent.parent / "examples" / "train_dmc.py"
SHORT = ["--game", "tressette", "--minutes", "0.001", "--deals", "16", "--steps", "40", "--eval-deals", "16"]


def train(*options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *SHORT, *options], capture_output=True, text=True,
                          timeout=300)


def test_a_short_run_writes_the_hidden_layers_asked_for_and_trains_on_from_them(tmp_path: Path) -> None:
    out = tmp_path / "net.npz"
    done = train("--hidden", "32,16", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "last measure:" in done.stdout
    with np.load(out) as arrays:
        shapes = [arrays[f"w{k}"].shape for k in range(3)]
    assert [s[0] for s in shapes] == [32, 16, 40] and shapes[1][1] == 32 and shapes[2][1] == 16
    # Trained on from the file: its layers, whatever the default.
    again = tmp_path / "again.npz"
    assert train("--init", str(out), "--out", str(again)).returncode == 0
    with np.load(again) as arrays:
        assert [arrays[f"b{k}"].shape[0] for k in range(3)] == [32, 16, 40]


def test_bad_hidden_layers_and_a_missing_or_bad_init_are_said(tmp_path: Path) -> None:
    text = tmp_path / "notes.npz"
    text.write_text("not weights")
    other = tmp_path / "other.npz"
    np.savez(other, x=np.zeros(3))
    for options, said in ((["--hidden", "32,0"], "--hidden: widths above 0"),
                          (["--hidden", "wide"], "--hidden: widths above 0"),
                          (["--init", str(tmp_path / "none.npz")], "no such file"),
                          (["--init", str(text)], "not a weights file"),
                          (["--init", str(other)], "not a weights file")):
        done = train(*options, "--out", str(tmp_path / "unwritten.npz"))
        assert done.returncode == 1 and said in done.stderr and "Traceback" not in done.stderr
    out = tmp_path / "net.npz"
    assert train("--hidden", "8", "--out", str(out)).returncode == 0
    done = train("--init", str(out), "--hidden", "16", "--out", str(tmp_path / "unwritten.npz"))
    assert done.returncode == 1 and "the weights of --init have hidden layers 8" in done.stderr
    # Tressette's weights where Calabresella's are asked for: another observation, other actions.
    done = train("--init", str(out), "--game", "calabresella", "--out", str(tmp_path / "unwritten.npz"))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "weights for 367 numbers observed and 40 actions, where calabresella has 460 and 42" in done.stderr
    assert not (tmp_path / "unwritten.npz").exists()


def test_without_out_it_writes_the_packages_file_of_its_seats(monkeypatch: pytest.MonkeyPatch) -> None:
    # Calabresella for four has a file of its own: training for four must not overwrite three's.
    from osteria.bots.learned import weights_of

    spec = importlib.util.spec_from_file_location("train_dmc", SCRIPT)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    written: list[Path] = []
    monkeypatch.setattr(script, "save", lambda layers, path: written.append(path))  # the package stays as it is
    monkeypatch.setattr(sys, "argv", ["train_dmc.py", *SHORT, "--game", "calabresella", "--seats", "4"])
    assert script.main() == 0
    assert written and set(written) == {weights_of("calabresella", 4)} != {weights_of("calabresella", 3)}
