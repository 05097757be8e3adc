"""Test-wide settings: reproducible hypothesis runs in CI.

The suite runs on every core with pytest-xdist (``-n auto --dist loadgroup`` in
pyproject.toml). A module whose tests share an expensive fixture (a build, a
cluster, the lecture's dry run) marks itself ``pytest.mark.xdist_group(name)``,
so those tests run on one worker and the fixture is made once, not once per
worker.
"""

import os

from hypothesis import settings

# CI=true (as .ci/run is called) replays the same examples every run, so a red CI is reproducible;
# local runs keep exploring new examples.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
