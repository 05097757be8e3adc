"""The house: its layers hold (import-linter contracts in pyproject.toml); the README shows every clip."""

from __future__ import annotations

import re
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


def import_cycles(graph) -> list[tuple[str, ...]]:
    """Each module pair that import each other, directly or through others: the chain back, one per pair."""
    found: dict[frozenset[str], tuple[str, ...]] = {}
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            pair = frozenset((importer, imported))
            if pair not in found and (back := graph.find_shortest_chain(imported, importer)):
                found[pair] = (importer, *back)
    return list(found.values())


def test_no_module_imports_itself_through_others():
    """No import cycle anywhere, lazy imports inside functions included (a layers contract cannot see one
    inside a single room: ``publish.preview`` and ``publish.warm`` imported each other)."""
    import grimp

    cycles = import_cycles(grimp.build_graph(*PACKAGES, exclude_type_checking_imports=True))
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


def test_the_cycle_check_finds_a_cycle(tmp_path, monkeypatch):
    for name, body in {"a": "import cyc.b\n", "b": "def f():\n    import cyc.a\n"}.items():
        (tmp_path / "cyc").mkdir(exist_ok=True)
        (tmp_path / "cyc" / f"{name}.py").write_text(body)
    (tmp_path / "cyc" / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    import grimp

    assert import_cycles(grimp.build_graph("cyc", cache_dir=None)) == [("cyc.a", "cyc.b", "cyc.a")]


def test_the_project_packages_are_named_once():
    from production.options import PACKAGES as NAMED

    assert NAMED == PACKAGES


def test_readme_scene_table_shows_every_clip_with_its_poster():
    from lecture.clips import LECTURE

    readme = (REPO / "README.md").read_text()
    for clip in LECTURE:
        poster = f"tests/scenes/reference/{clip.scene}.png"
        assert f'<img src="{poster}"' in readme, f"README's scene table lacks {clip.scene}'s poster"
        assert (REPO / poster).exists()


GROUPED = """
import os

import pytest

pytestmark = pytest.mark.xdist_group("one")


@pytest.mark.parametrize("i", range(6))
def test_where(i):
    print("worker", os.environ["PYTEST_XDIST_WORKER"])
"""


def test_a_modules_xdist_group_runs_on_one_worker(tmp_path):
    """The suite's shared fixtures are made once only while --dist loadgroup groups a module's tests.

    pytest 9.2 broke that silently (pytest-dev/pytest-xdist#1386): every test still passed, and each
    worker built the two-scene lecture, the shards and the cluster again.
    """
    (tmp_path / "test_grouped.py").write_text(GROUPED)
    args = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "2", "--dist", "loadgroup", "-v"]
    args += ["-s", "-c", "/dev/null", "--rootdir", str(tmp_path), str(tmp_path / "test_grouped.py")]
    done = subprocess.run(args, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:]
    workers = {line.split()[0] for line in done.stdout.splitlines() if "PASSED" in line and "[gw" in line}
    assert len(workers) == 1, f"the group ran on {sorted(workers)}:\n{done.stdout[-2000:]}"


def test_a_scene_is_named_only_in_its_own_module_and_its_section():
    """One home per section: no module keys a table by a scene's name (docs and tests may name it)."""
    from lecture.clips import LECTURE

    sources = {
        p.relative_to(REPO).as_posix(): p.read_text()
        for package in PACKAGES
        for p in (REPO / package).rglob("*.py")
    }
    for section in LECTURE:
        own = {f"scenes/{section.module}.py", f"lecture/sections/{section.module}.py"}
        name = re.compile(rf"\b{section.scene}\b")
        named = sorted(path for path, text in sources.items() if name.search(text))
        assert set(named) <= own, f"{section.scene} is named outside its scene and its section: {named}"


MODULE_LINES, FUNCTION_LINES = 400, 60
"""Issue 48's rooms: no module over 400 lines, no function over 60 (docstring included), outside the tests."""


def oversized(sources: dict[str, str]) -> list[str]:
    """Each module over MODULE_LINES and each function over FUNCTION_LINES, with its length."""
    import ast

    found = []
    for path, text in sorted(sources.items()):
        if (n := len(text.splitlines())) > MODULE_LINES:
            found.append(f"{path}: {n} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > FUNCTION_LINES:
                    found.append(f"{path}:{node.lineno} {node.name}: {length} lines")
    return found


def test_no_room_is_too_big():
    sources = {
        p.relative_to(REPO).as_posix(): p.read_text() for pkg in PACKAGES for p in (REPO / pkg).rglob("*.py")
    }
    assert not oversized(sources), "split by idea: " + "; ".join(oversized(sources))


def test_the_size_check_finds_a_long_function_and_a_long_module():
    body = "".join(f"    x = {i}\n" for i in range(FUNCTION_LINES))  # the def line makes it one too many
    long_function = f"def f():\n{body}"
    assert oversized({"a.py": long_function}) == [f"a.py:1 f: {FUNCTION_LINES + 1} lines"]
    assert oversized({"b.py": "x = 1\n" * (MODULE_LINES + 1)}) == [f"b.py: {MODULE_LINES + 1} lines"]
    assert oversized({"c.py": "def f():\n" + "    x = 1\n" * (FUNCTION_LINES - 1)}) == []
