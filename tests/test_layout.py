"""The three parts of the house and the one way their imports run: build -> sections -> kit -> attnmath."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BELOW_BOTH = ("scenes.config", "scenes.lecture")  # the scene list and the lecturer's file


def imports(path: Path) -> set[str]:
    """Every module a file imports (``from x import y`` counts as ``x`` and ``x.y``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            found |= {node.module, *(f"{node.module}.{a.name}" for a in node.names)}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
    return found


def part(module: str) -> str:
    if module.startswith("scenes.kit"):
        return "kit"
    if module.startswith("scenes.build"):
        return "build"
    if module in BELOW_BOTH:
        return "shared"
    if module.startswith("scenes.s") and module.split(".")[1][1].isdigit():
        return "section"
    return "other"


def files(folder: str, pattern: str = "*.py") -> list[Path]:
    return sorted((REPO / folder).glob(pattern))


@pytest.mark.parametrize("path", files("scenes/kit"), ids=lambda p: p.name)
def test_the_kit_uses_nothing_above_it(path):
    bad = {m for m in imports(path) if part(m) in ("build", "section")}
    assert not bad, f"{path.name} imports {sorted(bad)}"


@pytest.mark.parametrize("path", files("scenes", "s[0-9]_*.py"), ids=lambda p: p.name)
def test_no_section_knows_how_it_is_built(path):
    bad = {m for m in imports(path) if part(m) == "build"}
    assert not bad, f"{path.name} imports {sorted(bad)}"


@pytest.mark.parametrize("path", [REPO / "scenes" / f for f in ("config.py", "lecture.py")], ids=str)
def test_the_scene_list_and_lecture_file_sit_below_both(path):
    bad = {m for m in imports(path) if part(m) in ("build", "kit", "section")}
    assert not bad, f"{path.name} imports {sorted(bad)}"


@pytest.mark.parametrize("path", files("attnmath"), ids=lambda p: p.name)
def test_the_math_never_draws(path):
    bad = {m for m in imports(path) if m.split(".")[0] in ("manim", "scenes")}
    assert not bad, f"{path.name} imports {sorted(bad)}"


def test_readme_scene_table_shows_every_clip_with_its_poster():
    from scenes.lecture import LECTURE

    readme = (REPO / "README.md").read_text()
    for clip in LECTURE:
        poster = f"tests/scenes/reference/{clip.scene}.png"
        assert f'<img src="{poster}"' in readme, f"README's scene table lacks {clip.scene}'s poster"
        assert (REPO / poster).exists()
