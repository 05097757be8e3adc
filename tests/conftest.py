"""Test-wide settings: reproducible hypothesis runs in CI."""

import os

from hypothesis import settings

# CI=true (as .ci/run is called) replays the same examples every run, so a red CI is reproducible;
# local runs keep exploring new examples.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
