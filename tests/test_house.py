"""The house: its layers hold (import-linter contracts in pyproject.toml); the README shows every clip."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGES = (
    "atomic_files",
    "attnmath",
    "lecture",
    "drawing",
    "narration",
    "manim_patches",
    "scenes",
    "production",
)


def test_every_top_level_package_is_in_a_layer_contract():
    settings = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["importlinter"]
    assert tuple(settings["root_packages"]) == PACKAGES
    layered = " ".join(" ".join(c.get("layers", [])) for c in settings["contracts"])
    assert all(package in layered for package in PACKAGES)
    found = {p.parent.name for p in REPO.glob("*/__init__.py")} - {"tests", "bench", "tools"}
    assert found == set(PACKAGES), f"a package outside the contracts: {sorted(found - set(PACKAGES))}"


def test_the_import_contracts_hold():
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([str(lint), "--no-cache"], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout


def test_readme_scene_table_shows_every_clip_with_its_poster():
    from lecture.clips import LECTURE

    readme = (REPO / "README.md").read_text()
    for clip in LECTURE:
        poster = f"tests/scenes/reference/{clip.scene}.png"
        assert f'<img src="{poster}"' in readme, f"README's scene table lacks {clip.scene}'s poster"
        assert (REPO / poster).exists()
