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

# Each xdist worker typesets TeX into a folder of its own. Two workers typesetting one formula at once
# in one folder race: one latex rewrites the .dvi that the other's dvisvgm is reading ("can't open file
# media/Tex/....dvi"). A warm checkout hides it (every formula is cached); a fresh one, as in CI, meets it.
_WORKER = os.environ.get("PYTEST_XDIST_WORKER")
if _WORKER:
    from manim import config as _manim_config

    _manim_config.tex_dir = f"{{media_dir}}/Tex-{_WORKER}"
