"""``python -m scenes``: the lecture's command line (:mod:`production.cli`) under its usual name."""

import sys

from production.cli import main

sys.exit(main())
