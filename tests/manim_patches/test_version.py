"""The patches name the manim they were written for, and refuse another in one line."""

from __future__ import annotations

import manim
import pytest

import manim_patches
from production.cli import main


def test_the_installed_manim_is_the_one_the_patches_were_written_for():
    manim_patches.check_version()
    assert manim.__version__.startswith(manim_patches.WRITTEN_FOR + ".")


@pytest.mark.parametrize("version", ["0.23.0", "0.21.9", "1.22.0"])
def test_another_minor_version_is_refused_in_one_line(version):
    with pytest.raises(manim_patches.PatchVersionError) as caught:
        manim_patches.check_version(version)
    message = str(caught.value)
    assert "\n" not in message and version in message and "0.22" in message


@pytest.mark.parametrize("install", ["install", "install_slides_config"])
def test_no_patch_installs_on_another_manim(monkeypatch, install):
    monkeypatch.setattr(manim, "__version__", "0.23.1")
    with pytest.raises(manim_patches.PatchVersionError):
        getattr(manim_patches, install)()


def test_the_command_line_refuses_another_manim_before_rendering(monkeypatch, capsys, tmp_path):
    import production.cli as cli

    monkeypatch.setattr(manim, "__version__", "0.23.1")
    rendered = []
    monkeypatch.setattr(cli, "render_clips", lambda *a, **k: rendered.append(a))
    status = main(["render", "LectureTitle", "--quality", "l", "--media-dir", str(tmp_path)])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and not rendered
    assert len(err) == 1 and err[0].startswith("error: manim_patches was written for manim 0.22.x")
    assert "Traceback" not in "".join(err)
