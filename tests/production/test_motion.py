"""Held and empty frames are found on real encoded video, and a pause-and-predict hold is let through."""

from __future__ import annotations

import json

import av
import numpy as np

from drawing import theme
from production.media.motion import CHANGE, INK, LOOKBACK, audit_clip, blocks, frame_signals

FPS, SIZE = 15, (320, 180)


def write(path, frames):
    """An H.264 clip of the given RGB frames."""
    with av.open(str(path), "w") as container:
        stream = container.add_stream("libx264", rate=FPS)
        stream.width, stream.height, stream.pix_fmt = *SIZE, "yuv420p"
        for img in frames:
            for packet in stream.encode(av.VideoFrame.from_ndarray(img, format="rgb24")):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)


def background():
    rgb = np.array([int(theme.BACKGROUND[i : i + 2], 16) for i in (1, 3, 5)], dtype=np.uint8)
    return np.tile(rgb, (SIZE[1], SIZE[0], 1))


def square_at(x):
    img = background()
    img[60:120, x : x + 60] = (240, 228, 66)
    return img


def clip(tmp_path):
    """3 s of a moving square, 8 s of it still, then 5 s of an empty frame."""
    moving = [square_at(10 + 4 * i) for i in range(3 * FPS)]
    still = [square_at(10 + 4 * (3 * FPS - 1))] * (8 * FPS)
    empty = [background()] * (5 * FPS)
    video = tmp_path / "00-Test.mp4"
    write(video, moving + still + empty)
    return video


def beats(tmp_path, slug_of_the_still_part):
    record = {
        "scene": "Test",
        "duration": 16.0,
        "beats": [
            {"id": "Test.01-moving", "text": "", "start": 0.0, "end": 3.0, "cues": [["a", 0.0, 3.0]]},
            {"id": f"Test.02-{slug_of_the_still_part}", "text": "", "start": 3.0, "end": 11.0,
             "cues": [["b", 3.0, 8.0]]},
            {"id": "Test.03-empty", "text": "", "start": 11.0, "end": 16.0, "cues": [["c", 11.0, 5.0]]},
        ],
    }  # fmt: skip
    path = tmp_path / "00-Test.beats.json"
    path.write_text(json.dumps(record))
    return path


def test_signals_see_motion_and_ink(tmp_path):
    fps, changed, ink = frame_signals(clip(tmp_path))
    assert fps == FPS and len(changed) == 16 * FPS
    assert changed[1 : 3 * FPS].all()  # the square moves every frame
    # then holds, encoder noise and all, from half a second on (each frame is compared with one 0.5 s back)
    assert not changed[3 * FPS + round(LOOKBACK * FPS) : 11 * FPS].any()
    assert ink[: 11 * FPS].min() > 0.05 and ink[11 * FPS + 1 :].max() < 0.001


def test_a_held_and_an_empty_stretch_while_speaking_are_found(tmp_path):
    held, empty = audit_clip(clip(tmp_path), beats(tmp_path, "still"))
    # the square leaving is a visible change: the still part ends there
    assert [(h.beat, round(h.seconds)) for h in held] == [("Test.02-still", 8)]
    assert [(e.beat, round(e.seconds)) for e in empty] == [("Test.03-empty", 5)]


def test_a_pause_and_predict_hold_is_exempt(tmp_path):
    held, _ = audit_clip(clip(tmp_path), beats(tmp_path, "predict"))
    assert [(h.beat, round(h.seconds)) for h in held] == []  # what remains (the empty 5 s) is under 6 s


def test_a_slow_change_counts_though_no_two_frames_in_a_row_differ_enough(tmp_path):
    """A hairline growing a pixel a frame, as an equation written over seconds: a viewer sees it move."""
    frames = []
    for i in range(8 * FPS):
        img = background()
        img[81, 10 : 11 + i] = (240, 228, 66)
        frames.append(img)
    video = tmp_path / "00-Slow.mp4"
    write(video, frames)
    _fps, changed, _ink = frame_signals(video)
    grey = [blocks(f.astype(float) @ [0.299, 0.587, 0.114]) for f in frames]
    step = max(np.mean(np.abs(a - b) > INK) for a, b in zip(grey[1:], grey[:-1], strict=True))
    assert step < CHANGE  # from one frame to the next, too little changes to count
    beats_json = tmp_path / "00-Slow.beats.json"
    beats_json.write_text(json.dumps({"beats": [{"id": "Slow.01-x", "cues": [["a", 0.0, 8.0]]}]}))
    held, _empty = audit_clip(video, beats_json)
    assert held == [] and changed[FPS:].mean() > 0.9
