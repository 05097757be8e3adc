"""``python -m scenes``: see :mod:`scenes.build.cli`."""

import sys

from scenes.build.cli import main

sys.exit(main())
