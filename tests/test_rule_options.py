"""benchmarks/rule_options.py: each kind of option the rule-based player passed over, valued on
the true deals of its own play."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "rule_options.py"


def test_quattrigghiu_calls_and_the_options_it_passes_over() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "quattrigghiu", "--deals", "20"], capture_output=True,
                          text=True, timeout=300, check=True)
    lines = done.stdout.splitlines()
    assert lines[0] == "quattrigghiu: 20 first deals of rule-based play, results in the deciding seat's stakes"
    # The rule calls every hand, its seat ahead on average; passing instead, or playing alone with a
    # hand the rule calls with, would lose.
    calls = lines.index(next(line for line in lines if line.startswith("the rule chose 'chiamu'")))
    mean = re.search(r"mean ([-+][\d.]+)", lines[calls])
    assert mean and float(mean[1]) > 0
    assert "the rule chose 'passu'" not in done.stdout
    for other in ("passu", "sulita"):
        line = next(line for line in lines[calls + 1:] if line.startswith(f"  '{other}' instead: "))
        assert float(line.split()[2]) < 0, line
