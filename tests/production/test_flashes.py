"""WCAG 2.3.1's flash thresholds measured on encoded H.264 clips: fast, slow, small, red, fine flashing."""

from __future__ import annotations

import av
import numpy as np
import pytest

from drawing import theme
from production.media.flashes import MAX_FLASHES, audit_clip, flash_rates, main

FPS, SIZE = 30, (320, 180)
BLACK, WHITE = (0, 0, 0), (255, 255, 255)


def write(path, frames, size=SIZE):
    """An H.264 clip of the given RGB frames, at :data:`FPS`."""
    with av.open(str(path), "w") as container:
        stream = container.add_stream("libx264", rate=FPS)
        stream.width, stream.height, stream.pix_fmt = *size, "yuv420p"
        for img in frames:
            for packet in stream.encode(av.VideoFrame.from_ndarray(img, format="rgb24")):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)
    return path


def filled(colour, size=SIZE):
    return np.full((size[1], size[0], 3), colour, dtype=np.uint8)


def background():
    return filled([int(theme.BACKGROUND[i : i + 2], 16) for i in (1, 3, 5)])


def alternating(hz: float, seconds: float, a, b):
    """Frames that switch between the images ``a`` and ``b`` ``2 * hz`` times a second."""
    half = FPS / (2 * hz)
    return [b if int(i / half) % 2 else a for i in range(round(seconds * FPS))]


def with_square(side: int, colour):
    img = background()
    img[40 : 40 + side, 100 : 100 + side] = colour
    return img


def test_five_hertz_full_frame_black_and_white_fails(tmp_path):
    still = [filled(BLACK)] * FPS
    video = write(tmp_path / "00-Fast.mp4", still + alternating(5, 2, filled(BLACK), filled(WHITE)) + still)
    found = audit_clip(video)
    assert found.fps == FPS
    assert found.general.max() == pytest.approx(5.0, abs=0.5) and found.general.max() > MAX_FLASHES
    [breach] = found.breaches()
    assert breach.kind == "general" and breach.peak > MAX_FLASHES
    assert 0.5 <= breach.start <= 1.5 and 2.5 <= breach.end <= 3.5, (
        breach
    )  # the flashing runs from 1 s to 3 s
    assert found.red.max() == 0


def test_two_hertz_full_frame_black_and_white_passes(tmp_path):
    found = audit_clip(write(tmp_path / "00-Slow.mp4", alternating(2, 3, filled(BLACK), filled(WHITE))))
    assert 1.5 <= found.general.max() <= MAX_FLASHES
    assert found.breaches() == []


@pytest.mark.parametrize(("side", "fails"), [(30, False), (60, True)])
def test_a_flashing_square_counts_only_over_a_quarter_of_a_ten_degree_field(tmp_path, side, fails):
    """The field is a third of 320 x 180 (107 x 60 pixels); 30 x 30 covers 14% of it, 60 x 60 56%."""
    frames = alternating(5, 2, with_square(side, BLACK), with_square(side, WHITE))
    found = audit_clip(write(tmp_path / f"00-Square{side}.mp4", frames))
    assert bool(found.breaches()) is fails
    assert bool(found.general.max() > MAX_FLASHES) is fails


def test_saturated_red_flashing_is_a_red_flash_even_at_equal_luminance(tmp_path):
    """Red #FF0000 and grey #7F7F7F have the same relative luminance (0.21): no general flash, a red one."""
    found = audit_clip(
        write(tmp_path / "00-Red.mp4", alternating(5, 2, filled((127, 127, 127)), filled((255, 0, 0))))
    )
    assert found.general.max() <= MAX_FLASHES
    assert found.red.max() > MAX_FLASHES
    assert {b.kind for b in found.breaches()} == {"red"}


def test_red_against_black_is_both_kinds(tmp_path):
    found = audit_clip(
        write(tmp_path / "00-RedBlack.mp4", alternating(5, 2, filled(BLACK), filled((255, 0, 0))))
    )
    assert found.general.max() > MAX_FLASHES and found.red.max() > MAX_FLASHES


def test_a_fine_balanced_checkerboard_is_exempt(tmp_path):
    """One-pixel squares at 640 pixels wide are under 0.1 degree: they average out to a steady grey."""
    size = (640, 360)
    y, x = np.mgrid[: size[1], : size[0]]
    board = ((x + y) % 2 == 0)[..., None] * np.uint8(255) * np.ones(3, dtype=np.uint8)
    frames = alternating(5, 2, board, 255 - board)
    found = audit_clip(write(tmp_path / "00-Board.mp4", frames, size))
    assert found.breaches() == []


def test_bright_flashing_whose_darker_state_is_above_0_8_is_not_a_general_flash():
    light, white = np.full((30, 40, 3), 0.85), np.ones((30, 40, 3))  # relative luminance 0.85 and 1.0
    assert flash_rates(alternating(5, 2, light, white), FPS).general.max() == 0
    grey = np.full((30, 40, 3), 0.7)
    assert flash_rates(alternating(5, 2, grey, white), FPS).general.max() > MAX_FLASHES


def test_small_changes_and_slow_fades_are_not_flashes():
    frames = [np.full((30, 40, 3), 0.3 + 0.04 * (i % 2)) for i in range(60)]  # flicker of 0.04
    assert flash_rates(frames, FPS).general.max() == 0
    fade = [np.full((30, 40, 3), 0.5 + 0.5 * np.sin(2 * np.pi * i / FPS)) for i in range(3 * FPS)]  # 1 Hz
    assert flash_rates(fade, FPS).general.max() <= 1.5


def test_the_command_reports_each_clip_and_fails_on_a_breach(tmp_path, capsys):
    write(tmp_path / "00-Calm.mp4", [with_square(40, (240, 228, 66))] * FPS)
    assert main([str(tmp_path)]) == 0
    assert "00-Calm: at most 0.0 general and 0.0 red flashes in a second, 0 over 3" in capsys.readouterr().out
    write(tmp_path / "01-Strobe.mp4", alternating(5, 2, filled(BLACK), filled(WHITE)))
    assert main([str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "01-Strobe:" in out and "  general " in out
    assert main([]) == 2 and main([str(tmp_path / "missing")]) == 2
