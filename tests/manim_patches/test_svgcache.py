"""Parsed SVGs loaded from disk have exactly the points a fresh parse gives."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from manim import MathTex, Text, tempconfig
from manim.mobject.svg.svg_mobject import SVGMobject

import manim_patches


@pytest.fixture(autouse=True)
def own_store(monkeypatch, tmp_path):
    """The machine's shared parses (atomic_files.shared) in the test's own folder."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))


def _points(mob) -> list[np.ndarray]:
    return [m.points for m in mob.family_members_with_points()]


def _build(tmp_path, original: bool):
    saved = SVGMobject.init_svg_mobject
    SVGMobject.init_svg_mobject = manim_patches.MANIM_INIT_SVG if original else manim_patches.init_from_disk
    try:
        with tempconfig({"tex_dir": str(tmp_path / "Tex"), "text_dir": str(tmp_path / "texts")}):
            return MathTex(r"H(a) = -\sum_i a_i \log a_i"), Text("weights follow q")
    finally:
        SVGMobject.init_svg_mobject = saved


def test_loaded_mobjects_equal_parsed_ones(tmp_path) -> None:
    parsed = _build(tmp_path, original=True)
    first = _build(tmp_path, original=False)  # parses and keeps
    kept = sorted((tmp_path / manim_patches.SVG_FOLDER).glob("*.pickle"))
    assert len(kept) >= 2
    stamps = [p.stat().st_mtime_ns for p in kept]
    loaded = _build(tmp_path, original=False)  # loads
    assert [p.stat().st_mtime_ns for p in kept] == stamps  # read, not rewritten
    for a, b, c in zip(parsed, first, loaded, strict=True):
        pa, pb, pc = _points(a), _points(b), _points(c)
        assert len(pa) == len(pb) == len(pc) > 0
        for x, y, z in zip(pa, pb, pc, strict=True):
            assert np.array_equal(x, y) and np.array_equal(x, z)
    # and every other attribute: the segment cache keys on the scene state's digest
    assert _digest(first) == _digest(loaded)


def _digest(mobs) -> str:
    class Held:  # what state_digest reads of a scene
        mobjects = list(mobs)

    return manim_patches.state_digest(Held())


def test_a_broken_pickle_is_parsed_again(tmp_path) -> None:
    parsed = _build(tmp_path, original=False)
    for path in (tmp_path / manim_patches.SVG_FOLDER).glob("*.pickle"):
        path.write_bytes(b"not a pickle")
    again = _build(tmp_path, original=False)
    for a, b in zip(parsed, again, strict=True):
        assert all(np.array_equal(x, y) for x, y in zip(_points(a), _points(b), strict=True))
    kept = (tmp_path / manim_patches.SVG_FOLDER).glob("*.pickle")
    assert all(p.read_bytes() != b"not a pickle" for p in kept)


def test_the_cache_sits_beside_the_resolved_text_folder(tmp_path) -> None:
    # manim's text_dir is the template "{media_dir}/texts" unless set: the cache follows the media folder.
    with tempconfig({"media_dir": str(tmp_path / "media")}):
        path = manim_patches.cached_svg_path(Text("where"))
    assert path is not None and path.parent == tmp_path / "media" / manim_patches.SVG_FOLDER


def test_a_parse_kept_for_one_media_folder_serves_another(tmp_path, monkeypatch) -> None:
    from atomic_files.shared import TEXTS

    first = _build(tmp_path / "one", original=False)
    TEXTS.add(tmp_path / "one" / "texts")  # as a build shares what it drew
    TEXTS.fill(tmp_path / "two" / "texts")  # and the next build's caches start with it
    parses: list[object] = []
    parse = manim_patches.MANIM_INIT_SVG
    monkeypatch.setattr(
        manim_patches, "MANIM_INIT_SVG", lambda mob, cache: parses.append(mob) or parse(mob, cache)
    )
    second = _build(tmp_path / "two", original=False)  # its own empty caches
    assert parses == [] and len(list((tmp_path / "two" / manim_patches.SVG_FOLDER).glob("*.pickle"))) >= 2
    assert _digest(first) == _digest(second)


def test_two_parses_of_one_svg_take_turns(tmp_path) -> None:
    """Manim parses through a ``<name>_.svg`` beside the SVG and deletes it: a second parse of that SVG,
    in another process or thread, waits for the first instead of deleting its copy."""
    from types import SimpleNamespace

    from manim_patches.svgcache import _parsing

    svg = SimpleNamespace(get_file_path=lambda: tmp_path / "texts" / "one.svg")
    other = SimpleNamespace(get_file_path=lambda: tmp_path / "texts" / "two.svg")
    kept = tmp_path / manim_patches.SVG_FOLDER / "key.pickle"
    spans: dict[str, tuple[float, float]] = {}

    def parse(name: str, mob, seconds: float) -> None:
        with _parsing(mob, kept):
            start = time.monotonic()
            time.sleep(seconds)
            spans[name] = (start, time.monotonic())

    first = threading.Thread(target=parse, args=("first", svg, 0.4))
    first.start()
    time.sleep(0.1)  # the first holds its SVG's lock
    parse("other", other, 0.0)  # another SVG's parse does not wait for it
    parse("second", svg, 0.0)  # the same SVG's does
    first.join()
    assert spans["other"][0] < spans["first"][1] <= spans["second"][0]
    with _parsing(svg, None):  # no cache folder: nothing to lock in, and it still parses
        pass
