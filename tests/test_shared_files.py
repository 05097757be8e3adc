"""The files every media folder on the machine shares (atomic_files.shared): TeX, parsed SVGs, the voice."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from atomic_files.shared import SWITCH, TEX, VOICE, SharedFiles
from narration.engines import SpeechEngine
from narration.voice import synthesise


@pytest.fixture(autouse=True)
def own_store(monkeypatch, tmp_path):
    """An empty store of the test's own, switched on."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    monkeypatch.delenv(SWITCH, raising=False)


class CountingEngine(SpeechEngine):
    """A tone per text, counting how often it was asked to speak."""

    name = "counting"

    def __init__(self) -> None:
        self.spoken: list[str] = []

    def key(self) -> str:
        return "counting-1"

    @property
    def label(self) -> str:
        return "counting"

    def speak(self, spoken: str, folder: Path) -> tuple[int, np.ndarray]:
        self.spoken.append(spoken)
        return 16000, 0.3 * np.sin(np.linspace(0, 400 * np.pi, 16000))


def test_a_second_media_folder_gets_the_voice_without_speaking_again(tmp_path):
    engine = CountingEngine()
    first = synthesise("Keys and values.", tmp_path / "a" / "voice", engine)
    second = synthesise("Keys and values.", tmp_path / "b" / "voice", engine)
    assert engine.spoken == ["Keys and values."]
    assert second.parent == tmp_path / "b" / "voice" and second.read_bytes() == first.read_bytes()
    synthesise("A new sentence.", tmp_path / "b" / "voice", engine)
    assert len(engine.spoken) == 2


def test_switched_off_it_neither_gives_nor_keeps(tmp_path, monkeypatch):
    monkeypatch.setenv(SWITCH, "off")
    engine = CountingEngine()
    synthesise("Keys and values.", tmp_path / "a" / "voice", engine)
    synthesise("Keys and values.", tmp_path / "b" / "voice", engine)
    assert len(engine.spoken) == 2 and VOICE.folder is None


def test_only_whole_files_of_the_kind_are_shared(tmp_path):
    folder = tmp_path / "Tex"
    folder.mkdir()
    for name in ("ab12.svg", "ab12_.svg", ".ab12.x1.partial.svg", "ab12.tex", "ab12.dvi"):
        (folder / name).write_text(name)
    assert TEX.add(folder) == 1
    assert sorted(p.name for p in TEX.folder.iterdir()) == ["ab12.svg"]


def test_a_store_that_cannot_be_written_costs_nothing_but_time(tmp_path):
    store = SharedFiles("Tex", ".svg")
    store.folder.parent.mkdir(parents=True)
    store.folder.write_text("a file where the folder would be")  # mkdir fails: an OSError
    (tmp_path / "x.svg").write_text("<svg/>")
    store.put(tmp_path / "x.svg")  # no error
    assert store.get("x.svg", tmp_path / "elsewhere") is None


@pytest.mark.render
def test_a_formula_typeset_for_one_media_folder_is_not_typeset_for_the_next(tmp_path, monkeypatch):
    from manim import MathTex, tempconfig
    from manim.utils import tex_file_writing

    from production.render.workspace import cache_view, keep_new_cache_files

    compiled: list[Path] = []
    latex = tex_file_writing.compile_tex
    monkeypatch.setattr(tex_file_writing, "compile_tex", lambda f, *a: compiled.append(f) or latex(f, *a))
    formula = r"\sum_i q_i k_i \over \sqrt{d_k}"
    first = cache_view(tmp_path / "one", tmp_path / "work1")
    with tempconfig({"tex_dir": str(first / "Tex"), "media_dir": str(tmp_path / "m1")}):
        MathTex(formula)
    keep_new_cache_files(first, tmp_path / "one")
    assert len(compiled) == 1
    second = cache_view(tmp_path / "two", tmp_path / "work2")  # another media folder's build
    made = {p.name for p in (first / "Tex").glob("*.svg")}
    assert made and {p.name for p in (second / "Tex").glob("*.svg")} == made
    with tempconfig({"tex_dir": str(second / "Tex"), "media_dir": str(tmp_path / "m2")}):
        MathTex(formula)
    assert len(compiled) == 1


def test_the_switch_reads_off_in_its_usual_spellings(monkeypatch):
    for word in ("off", "0", "no", "False"):
        monkeypatch.setenv(SWITCH, word)
        assert TEX.folder is None
    monkeypatch.setenv(SWITCH, "on")
    assert TEX.folder == Path(os.environ["XDG_CACHE_HOME"], "attention-lecture", "shared", "Tex")
