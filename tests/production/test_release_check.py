"""The release check: one line naming what is missing or wrong, and exit 1 (``tools/check_release.py``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def release_check(media: Path) -> subprocess.CompletedProcess[str]:
    tool = REPO / "tools" / "check_release.py"
    return subprocess.run(
        [sys.executable, str(tool), "--media-dir", str(media)], capture_output=True, text=True, timeout=120
    )


def test_a_folder_without_a_lecture_is_refused_in_one_line(tmp_path: Path):
    done = release_check(tmp_path)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        f"release check: {tmp_path / 'lecture' / '1080p60'}: no clips (run make lecture)"
    ]


def test_a_clip_that_is_not_a_video_is_named(tmp_path: Path):
    folder = tmp_path / "lecture" / "1080p60"
    folder.mkdir(parents=True)
    (folder / "00-LectureTitle.mp4").write_bytes(b"not a video")
    done = release_check(tmp_path)
    assert done.returncode == 1
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("release check: ") and "00-LectureTitle.mp4" in line
