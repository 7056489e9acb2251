"""Random-playout speed of every game, against OpenSpiel's hearts and skat measured in the same run.

    python benchmarks/playout.py [SECONDS]

The same measurement as ``osteria bench``; figures are meaningful only as the printed ratios.
"""

import sys

from osteria.bench import run

if __name__ == "__main__":
    run(seconds=float(sys.argv[1]) if len(sys.argv) > 1 else 2.0)
