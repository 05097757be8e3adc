"""Still stretches are measured against each stretch's first frame, so a gliding dot does not count as motion.

Real H.264 clips (the writers of tests/production/test_motion.py): a big square that moves then
holds, and a picture that holds while one small dot glides across it, the flourish the
frame-to-frame measure (:mod:`production.media.motion`) counts as motion and issue 51 does not.
"""

from __future__ import annotations

import json

import numpy as np

from production.media.motion import frame_signals
from production.media.stillness import STILL_SHARE, still_stretches, stretch_ends
from tests.production.test_motion import FPS, SIZE, square_at, write


def beats(slug: str, seconds: float) -> list[dict]:
    cues = [["a", 0.0, seconds]]
    return [{"id": f"Test.01-{slug}", "text": "", "start": 0.0, "end": seconds, "cues": cues}]


def test_a_square_that_moves_then_holds_is_still_from_where_it_stops(tmp_path):
    moving = [square_at(10 + 4 * i) for i in range(3 * FPS)]
    video = write_clip(tmp_path, moving + [moving[-1]] * (8 * FPS))
    longest = still_stretches(video, beats("x", 11.0))[0]
    assert round(longest.start) == 3 and round(longest.speech) == 8  # the 8 s it holds, spoken over


def test_a_small_gliding_dot_is_still_for_this_measure_but_motion_for_the_frame_to_frame_one(tmp_path):
    frames = []
    for i in range(10 * FPS):
        img = square_at(100)
        x = 10 + 2 * i
        img[150:154, x : x + 4] = (230, 230, 230)  # a 4 x 4 dot, 16 of 57,600 pixels
        frames.append(img)
    video = write_clip(tmp_path, frames)
    _fps, changed, _ink = frame_signals(video)
    assert changed[FPS:].mean() > 0.9  # frame to frame, it moves all along
    (only,) = still_stretches(video, beats("x", 10.0))
    assert round(only.speech) == 10  # against its first frame, nothing moves: one still stretch


def test_a_pause_and_predict_hold_carries_no_speech(tmp_path):
    video = write_clip(tmp_path, [square_at(100)] * (8 * FPS))
    assert still_stretches(video, beats("predict", 8.0)) == []


def test_a_frame_moved_past_the_share_ends_every_stretch_that_holds_it():
    base = np.zeros((100, 100))
    moved = base.copy()
    moved.flat[: int(STILL_SHARE * base.size) + 1] = 255  # just over the share
    under = base.copy()
    under.flat[: int(STILL_SHARE * base.size) - 1] = 255  # just under it
    assert stretch_ends(np.stack([base, under, under, moved, moved])).tolist() == [3, 5, 5, 5, 5]


def test_a_picture_that_changes_a_little_then_a_little_more_is_still_from_the_first_change(tmp_path):
    """Each patch moves under the share; both together move over it from the first frame.

    Cutting the clip where a frame first moves from its stretch's start gives 6 s, then 4 s; the
    picture a viewer sees from 3 s to the end is one, and it holds for 7 s.
    """
    first, both = square_at(100), square_at(100)
    for img, patches in ((first, [(20, 20)]), (both, [(20, 20), (140, 20)])):
        for y, x in patches:
            img[y : y + 14, x : x + 12] = (230, 230, 230)  # 42 of 14,400 half-size pixels: 0.29%
    video = write_clip(tmp_path, [square_at(100)] * (3 * FPS) + [first] * (3 * FPS) + [both] * (4 * FPS))
    longest = still_stretches(video, beats("x", 10.0))[0]
    assert (round(longest.start), round(longest.end), round(longest.speech)) == (3, 10, 7)


def write_clip(tmp_path, frames):
    video = tmp_path / "00-Test.mp4"
    write(video, frames)
    assert frames[0].shape[:2] == (SIZE[1], SIZE[0])
    (tmp_path / "00-Test.beats.json").write_text(json.dumps({"beats": []}))
    return video
