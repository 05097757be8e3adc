"""The narration script's wall time: every scene dry-run, nothing changed, and one scene edited.

Copies the code to a temporary folder (with an empty ``media/plans``) and runs
``script --out`` there three times: first with no plans kept (every scene is
dry-run, as every run did before plans were kept), then with nothing changed
(every plan read back; the goal is under 2 s), then after one beat's narration
of one scene was lengthened by a sentence (that scene alone is dry-run). Checks that the
unchanged run printed the same script, and the edited one the new sentence.

Usage: python bench/script.py
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.production.shard_helpers import copy_of_the_repository  # noqa: E402  (the tests' copy)

GOAL = 2.0
MODULE = "s3_softmax_temperature.py"
FIRST_BEAT = re.compile(r'(self\.beat\(\s*"[^"]+",\s*f?")')  # the opening quote of its first beat's text
SENTENCE = "Edited for the bench. "


def timed(repo: Path, out: Path) -> tuple[float, str]:
    """Wall seconds of ``python -m scenes script --out OUT`` in ``repo`` (which must succeed); the script."""
    env = {**os.environ, "PYTHONPATH": str(repo)}
    argv = [sys.executable, "-m", "scenes", "script", "--out", str(out), "--media-dir", str(repo / "media")]
    start = time.perf_counter()
    proc = subprocess.run(argv, cwd=repo, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if proc.returncode:
        raise SystemExit(f"script failed:\n{proc.stderr[-3000:]}")
    return seconds, out.read_text()


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="script-bench-") as tmp:
        repo = copy_of_the_repository(Path(tmp) / "repo")
        out = Path(tmp) / "script.md"
        cold, text = timed(repo, out)
        same, again = timed(repo, out)
        if again != text:
            raise SystemExit("the script read back from the plans differs from the dry runs' script")
        module = repo / "scenes" / MODULE
        source, found = FIRST_BEAT.subn(lambda m: m[1] + SENTENCE, module.read_text(), count=1)
        if not found:
            raise SystemExit(f"{MODULE} has no self.beat(slug, text) call: update bench/script.py")
        module.write_text(source)
        edited, changed = timed(repo, out)
        if SENTENCE.strip() not in changed:
            raise SystemExit("the edited scene's new sentence is not in the script")
    print(f"script: every scene dry-run {cold:.1f} s, nothing changed {same:.2f} s, ", end="")
    print(f"one scene ({MODULE}) edited {edited:.1f} s")
    verdict = "meets" if same < GOAL else "misses"
    print(f"  nothing changed = {same:.2f} s ({verdict} the goal of under {GOAL:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
