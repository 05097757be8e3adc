"""A published file is the old one or the whole new one: never a half-written or shared temporary file."""

from __future__ import annotations

import threading

import pytest

from atomic_files import copy_file, replacing, replacing_folder, temporary_name, write_bytes, write_text


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "clip.mp4"
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError), replacing(target) as tmp:
        tmp.write_bytes(b"half of the new")
        raise RuntimeError("the encoder died")
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["clip.mp4"]


def test_the_temporary_keeps_the_suffix_tools_choose_formats_by(tmp_path):
    for name in ("still.png", "lecture.mp4", "captions.srt"):
        with replacing(tmp_path / name) as tmp:
            assert tmp.suffix == (tmp_path / name).suffix and tmp.parent == tmp_path
            tmp.write_text(name)
        assert (tmp_path / name).read_text() == name


def test_two_writers_of_one_file_never_share_a_temporary(tmp_path):
    names = {temporary_name(tmp_path / "manifest.json") for _ in range(1000)}
    assert len(names) == 1000
    target = tmp_path / "manifest.json"
    texts = [f"writer {i} " * 2000 for i in range(8)]
    threads = [threading.Thread(target=write_text, args=(target, t)) for t in texts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert target.read_text() in texts  # one writer's whole text, not a mix
    assert sorted(p.name for p in tmp_path.iterdir()) == ["manifest.json"]


def test_bytes_and_copies(tmp_path):
    write_bytes(tmp_path / "a.bin", b"\x00\x01")
    copy_file(tmp_path / "a.bin", tmp_path / "b.bin")
    assert (tmp_path / "b.bin").read_bytes() == b"\x00\x01"


def test_a_failed_folder_leaves_the_old_folder_whole_and_no_temporary(tmp_path):
    with replacing_folder(tmp_path / "course") as tmp:
        (tmp / "a.zip").write_text("old")
    with pytest.raises(RuntimeError), replacing_folder(tmp_path / "course") as tmp:
        (tmp / "a.zip").write_text("half")
        raise RuntimeError("the writer failed")
    assert [p.name for p in tmp_path.iterdir()] == ["course"]
    assert [p.name for p in (tmp_path / "course").iterdir()] == ["a.zip"]
    assert (tmp_path / "course" / "a.zip").read_text() == "old"
