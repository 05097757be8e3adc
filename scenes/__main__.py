"""``python -m scenes``: see :mod:`scenes.cli`."""

import sys

from scenes.cli import main

sys.exit(main())
