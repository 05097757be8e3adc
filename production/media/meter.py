"""ffmpeg's own loudness meter (``ebur128``) through PyAV: a second opinion on what a clip ships.

:mod:`production.media.audio` measures with ``pyloudnorm`` and its own 4x
true-peak interpolator; this reads the same signal with ffmpeg's filter, which
is how a platform or an editor would measure the published file. The tests and
the release check (``tools/check_release.py``) measure shipped tracks with it.
"""

from __future__ import annotations

import av
import av.filter
import numpy as np

__all__ = ["ebur128"]

_CHUNK = 4800
"""Samples pushed through the filter at a time."""


def ebur128(samples: np.ndarray, sr: int) -> tuple[float, float]:
    """Integrated loudness (LUFS) and true peak (dBTP) of ``samples`` from ffmpeg's ``ebur128`` filter.

    ``samples`` is shaped (frames,) or (frames, channels), full scale 1.0.
    """
    x = np.asarray(samples, dtype=np.float32)
    x = x[:, None] if x.ndim == 1 else x
    layout = "mono" if x.shape[1] == 1 else "stereo"
    graph = av.filter.Graph()
    source = graph.add_abuffer(sample_rate=sr, format="flt", layout=layout)
    meter = graph.add("ebur128", "metadata=1:peak=true")
    sink = graph.add("abuffersink")
    source.link_to(meter)
    meter.link_to(sink)
    graph.configure()
    last: dict[str, str] = {}

    def drain() -> None:
        nonlocal last
        while True:
            try:
                metadata = dict(graph.pull().metadata)
                last = metadata if "lavfi.r128.I" in metadata else last
            except (av.BlockingIOError, av.EOFError):
                return

    for at in range(0, x.shape[0], _CHUNK):
        frame = av.AudioFrame.from_ndarray(
            np.ascontiguousarray(x[at : at + _CHUNK]).reshape(1, -1), format="flt", layout=layout
        )
        frame.sample_rate, frame.pts = sr, at
        graph.push(frame)
        drain()
    graph.push(None)
    drain()
    return float(last["lavfi.r128.I"]), float(20 * np.log10(float(last["lavfi.r128.true_peak"])))
