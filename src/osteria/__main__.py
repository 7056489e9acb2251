"""``python -m osteria``: the ``osteria`` command, for a machine whose scripts folder is not on
the PATH."""

import sys

from osteria.cli import main

sys.exit(main())
