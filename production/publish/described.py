"""The audio-described lecture: each beat's description spoken after it while its last frame holds.

WCAG 2.2's extended audio description (1.2.7): where the narration leaves no
pause for a description, the picture stops. A described clip is made from the
clip the normal build published, frame for frame, with the beat's last frame
repeated for as long as its description takes (:data:`LEAD` of silence, the
description, :data:`TAIL` of silence). No frame is rendered again: the frames
are decoded and encoded once more (libx264 at manim's own settings), and the
voice is laid afresh from the same sound files, with each description placed in
its pause, then mastered like a clip's.

Beside it, a clip's descriptions as a WebVTT ``kind="descriptions"`` track
(:func:`descriptions_vtt`): each beat's description over the beat, for a
player or screen reader that reads description tracks over the plain clip.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

import av

from atomic_files import replacing
from narration.beats import Beat, BeatsRecord, Description
from narration.cues import Cue
from narration.narrator import NarrationSettings, Narrator
from production.media.captions import to_vtt
from production.media.soundtrack import add_voice
from production.media.video import probe
from production.options import RenderError

__all__ = [
    "LEAD",
    "TAIL",
    "DESCRIBED",
    "Freeze",
    "freezes",
    "described_record",
    "write_described_video",
    "describe_clip",
    "descriptions_vtt",
    "MissingVoice",
    "speaker",
]

LEAD = 0.25
"""Seconds of silence after the beat's own speech, before its description starts."""
TAIL = 0.35
"""Seconds of silence after the description, before the picture moves again."""
DESCRIBED = ".described"
"""What a described file adds to its clip's stem: ``03-<Scene>.described.mp4``."""
CRF = "23"
"""libx264's constant rate factor, as manim encodes its clips (``manim._config.video_encoder``)."""


class MissingVoice(RenderError):
    """A description's sound file is not on this machine (one line: what to do)."""


@dataclass(frozen=True)
class Freeze:
    """The picture holds after ``after`` frames of the source, for ``frames`` frames."""

    after: int
    frames: int


def _pause(beat: Beat) -> float:
    """Seconds the picture holds after ``beat`` in the described clip (0 when it has no description)."""
    return LEAD + beat.description.duration + TAIL if beat.description.needed else 0.0


def freezes(record: BeatsRecord, fps: float) -> list[Freeze]:
    """Where the described clip holds its picture, and for how many frames, beat by beat.

    >>> from narration.beats import Description
    >>> d = Description("Bars fall.", False, 1.0)
    >>> record = BeatsRecord("S", 4.0, (Beat("S.01-a", "A.", 0.0, 2.0, "none", "none", description=d),
    ...                                  Beat("S.02-b", "B.", 2.0, 4.0, "none", "none")))
    >>> freezes(record, 15)
    [Freeze(after=30, frames=24), Freeze(after=60, frames=0)]
    """
    return [Freeze(round(b.end * fps), math.ceil(_pause(b) * fps - 1e-9)) for b in record.beats]


def described_record(record: BeatsRecord, fps: float, holds: Sequence[Freeze] | None = None) -> BeatsRecord:
    """The beats of the described clip: times moved by the pauses before them, each description in its pause.

    A beat's ``audio`` and ``cues`` then hold its description's too, in clip
    time, so the described clip's voice and captions are made as a clip's are.
    Its description keeps its text, with no audio or cues of its own.

    >>> from narration.beats import Description
    >>> d = Description("Bars fall.", False, 1.0, (("d.wav", 0.0),), (Cue(0.0, 1.0, "Bars fall."),))
    >>> record = BeatsRecord("S", 4.0, (Beat("S.01-a", "A.", 0.0, 2.0, "none", "none", description=d),
    ...                                  Beat("S.02-b", "B.", 2.0, 4.0, "none", "none", (("b.wav", 2.1),))))
    >>> out = described_record(record, 15)
    >>> [(b.start, b.end) for b in out.beats], out.duration
    ([(0.0, 3.6), (3.6, 5.6)], 5.6)
    >>> out.beats[0].audio, out.beats[0].cues, out.beats[1].audio
    ((('d.wav', 2.25),), (Cue(start=2.25, end=3.25, text='Bars fall.'),), (('b.wav', 3.7),))
    """
    beats: list[Beat] = []
    offset = 0.0
    for beat, freeze in zip(record.beats, holds if holds is not None else freezes(record, fps), strict=True):
        hold = freeze.frames / fps
        said_at = beat.end + offset + LEAD  # where the description starts, in the described clip
        desc = beat.description
        audio = tuple((p, round(t + offset, 6)) for p, t in beat.audio)
        audio += tuple((p, round(said_at + t, 6)) for p, t in desc.audio) if hold else ()
        cues = tuple(c.moved_to_ms(offset) for c in beat.cues)
        cues += tuple(c.moved_to_ms(said_at) for c in desc.cues) if hold else ()
        moved = replace(
            beat,
            start=round(beat.start + offset, 3),
            end=round(beat.end + offset + hold, 3),
            audio=audio,
            cues=cues,
            description=replace(desc, audio=(), cues=()),
        )
        beats.append(moved)
        offset += hold
    return replace(record, duration=round(record.duration + offset, 3), beats=tuple(beats))


def write_described_video(src: Path, holds: Sequence[Freeze], out: Path) -> int:
    """Write ``out``: ``src``'s frames, each freeze's frame repeated; silent. Returns the frames written.

    The frame repeated is the last one before the freeze (the beat's last
    picture). ``out`` is written beside itself and renamed into place.
    """
    pending = sorted((h for h in holds if h.frames > 0), key=lambda h: h.after)
    written = 0
    with replacing(out) as tmp, av.open(str(src)) as source, av.open(str(tmp), "w") as sink:
        vin = source.streams.video[0]
        vin.thread_type = "AUTO"
        rate = vin.average_rate or vin.guessed_rate
        if rate is None:
            raise ValueError(f"{src.name}: its video stream has no frame rate")
        stream = sink.add_stream("libx264", rate=rate, options={"crf": CRF})
        tick = 1 / Fraction(rate)
        stream.width, stream.height = vin.codec_context.width, vin.codec_context.height
        stream.pix_fmt = "yuv420p"
        last = None

        def emit(frame: av.VideoFrame) -> None:
            nonlocal written
            image = frame.reformat(format="yuv420p")
            image.pts, image.time_base = written, tick
            for packet in stream.encode(image):
                sink.mux(packet)
            written += 1

        for read, frame in enumerate(source.decode(vin)):
            while pending and pending[0].after <= read and last is not None:
                for _ in range(pending.pop(0).frames):
                    emit(last)
            emit(frame)
            last = frame
        for hold in pending:
            if last is not None:
                for _ in range(hold.frames):
                    emit(last)
        for packet in stream.encode():
            sink.mux(packet)
    return written


def _check_voice(record: BeatsRecord, clip_name: str) -> None:
    for path, _ in record.placements():
        if not path.is_file():
            raise MissingVoice(
                f"{clip_name}: the sound file {path} is missing on this machine; "
                "run `attention-lecture build --described` here without --scheduler to make it"
            )


def describe_clip(
    video: Path,
    record: BeatsRecord,
    out: Path,
    speak: Callable[[Beat], Description] | None = None,
) -> BeatsRecord:
    """Write the described clip ``out`` from a published clip and its beats; returns its beats.

    ``speak(beat)`` gives a description its sound when the record's files are
    not here (a clip rendered on another machine); without it a missing file
    is a :class:`MissingVoice` error.
    """
    if speak is not None:
        beats = tuple(
            replace(b, description=speak(b))
            if b.description.needed and not all(Path(p).is_file() for p, _ in b.description.audio)
            else b
            for b in record.beats
        )
        record = replace(record, beats=beats)
    fps = probe(video).fps
    holds = freezes(record, fps)
    described = described_record(record, fps, holds)
    _check_voice(described, video.name)
    silent = out.with_name(f".{out.stem}.frames{out.suffix}")
    try:
        write_described_video(video, holds, silent)
        seconds = probe(silent).duration
        if not add_voice(silent, described, out, seconds):
            with replacing(out) as tmp:
                Path(tmp).write_bytes(silent.read_bytes())
    finally:
        silent.unlink(missing_ok=True)
    return described


def descriptions_vtt(record: BeatsRecord) -> str:
    """A WebVTT ``kind="descriptions"`` track: each beat's description over its beat, in clip time.

    >>> from narration.beats import Description
    >>> shown = Description("Bars fall.", False, 1.0)
    >>> beat = Beat("S.01-a", "A.", 0.0, 2.0, "none", "none", description=shown)
    >>> print(descriptions_vtt(BeatsRecord("S", 2.0, (beat,))))
    WEBVTT
    <BLANKLINE>
    00:00:00.000 --> 00:00:02.000
    Bars fall.
    <BLANKLINE>
    """
    cues = [Cue(b.start, b.end, b.description.text) for b in record.beats if b.description.needed]
    return to_vtt(cues)


def speaker(settings: NarrationSettings) -> Callable[[Beat], Description]:
    """A description's sound made here with ``settings``' voice (cached; a recording wins if there is one)."""

    def speak(beat: Beat) -> Description:
        return Narrator(beat.id.split(".", 1)[0], settings).describe(beat.id, beat.description.text)

    return speak
