"""Every change this project makes to manim, in one place, installed only when asked.

Written for manim 0.22 (:data:`WRITTEN_FOR`); :func:`check_version` refuses
another minor version in one line, because the patches replace methods whose
private members (``_stream``, ``_container``, ``_next_pts``) may change. Each
patch below names its reason and its measured gain in one line; the full
measurements are in ``docs/manim.md``, and each has a test that shows the
output unchanged (``tests/manim_patches/``).

- held frames (:func:`install`): a frozen frame was converted to YUV once per
  repeat, and x264 ran at ``medium``. Gain: about 40% of a held frame's encode;
  with ``superfast``, a third less CPU for a 1080p60 render at equal or better PSNR.
- SVG disk cache (:func:`install`, :mod:`manim_patches.svgcache`): every render process parsed
  every Text and TeX again. Gain: about a fifth of a 480p15 render of section 3's scene.
- cairo path cache (:class:`PathCachedCamera`): unchanged shapes rebuilt their
  path every frame. Gain: about a quarter of a 1080p60 render's drawing time.
- exact skipping (:class:`ExactRenderer`): a skipped animation moved the clock
  by its run time, a rendered one by whole frames. Gain: a shard equals the
  whole render frame for frame (without it, shards drift).
- slides config (:func:`install_slides_config`): manim-slides 5.7 sets three
  config keys manim 0.22 removed. Gain: the decks render at all.

Where manim has a seam, the change is a subclass that the scene hands to
manim: ``Scene(renderer=..., camera_class=...)`` takes the renderer and the
camera, so :class:`ExactRenderer` and :class:`PathCachedCamera` are passed by
``LectureScene`` and patch nothing. manim 0.22 has no seam for the segment
encoder (the file writer builds it), the SVG parse (``SVGMobject.__init__``
calls it) or the config keys (``ManimConfig`` is one class), so those three
are method replacements, installed by :func:`install` and
:func:`install_slides_config`; each keeps manim's original method (the
``MANIM_*`` names) so tests can draw both ways and compare.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import Any, Self

import av
import manim
import numpy as np
from manim import config
from manim._config.utils import ManimConfig
from manim.camera.camera import Camera
from manim.mobject.svg.svg_mobject import SVGMobject
from manim.renderer.cairo_renderer import CairoRenderer
from manim.scene.video_segment_encoder import VideoSegmentEncoder

from manim_patches.svgcache import MANIM_INIT_SVG, SVG_FOLDER, cached_svg_path, init_from_disk

__all__ = [
    "WRITTEN_FOR",
    "PatchVersionError",
    "check_version",
    "install",
    "install_slides_config",
    "ExactRenderer",
    "PathCachedCamera",
    "recording_animations",
    "state_digest",
    "rendered_frames",
    "PRESET",
    "SVG_FOLDER",
    "MAX_SHAPES",
    "write_frame_once",
    "init_from_disk",
    "cached_svg_path",
    "remembered_paths",
    "forget_paths",
    "MANIM_WRITE_FRAME",
    "MANIM_INIT_SVG",
]

WRITTEN_FOR = "0.22"
"""The manim minor version these patches were written and measured for."""


class PatchVersionError(RuntimeError):
    """manim is not the version the patches were written for."""


def check_version(version: str | None = None) -> None:
    """Refuse a manim whose minor version is not :data:`WRITTEN_FOR`, in one line.

    >>> check_version("0.22.3")
    >>> check_version("0.23.0")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    manim_patches.PatchVersionError: manim_patches was written for manim 0.22.x, but manim 0.23.0 is ...
    """
    found = manim.__version__ if version is None else version
    if found.split(".")[:2] != WRITTEN_FOR.split("."):
        raise PatchVersionError(
            f"manim_patches was written for manim {WRITTEN_FOR}.x, but manim {found} is installed; "
            "install manim>=0.22,<0.23 (make setup) or re-measure the patches (docs/manim.md)"
        )


def install() -> None:
    """The render patches every lecture scene uses (idempotent); called by ``LectureScene``.

    Only where manim 0.22 has no seam: the file writer builds its segment
    encoders itself, and ``SVGMobject.__init__`` calls its parse directly.
    """
    check_version()
    VideoSegmentEncoder.write_frame = write_frame_once  # type: ignore[method-assign]
    VideoSegmentEncoder.__init__ = _init_with_preset  # type: ignore[method-assign]
    SVGMobject.init_svg_mobject = init_from_disk  # type: ignore[method-assign,assignment]


# -- held frames: convert once, encode n times; x264 superfast ---------------------------------------

PRESET = "superfast"
"""The x264 preset of the lecture's segments: as sharp as manim's ``medium`` at a third less CPU."""

MANIM_WRITE_FRAME = VideoSegmentEncoder.write_frame
_MANIM_ENCODER_INIT = VideoSegmentEncoder.__init__


def _init_with_preset(self: Any, *, target: Any, spec: Any) -> None:
    options = dict(spec.options)
    if spec.codec == "libx264" and "preset" not in options:
        spec = dataclasses.replace(spec, options=tuple(sorted({**options, "preset": PRESET}.items())))
    _MANIM_ENCODER_INIT(self, target=target, spec=spec)


def write_frame_once(self: Any, pixels: Any, *, repeat: int = 1) -> None:
    """Encode ``pixels`` ``repeat`` times, converting it to the stream's pixel format once."""
    if repeat <= 1:
        MANIM_WRITE_FRAME(self, pixels, repeat=repeat)
        return
    self._validate_frame(pixels, repeat)
    time_base = Fraction(self.spec.frame_rate.denominator, self.spec.frame_rate.numerator)
    try:
        frame = av.VideoFrame.from_ndarray(pixels, format="rgba").reformat(format=self.spec.pixel_format)
        frame.time_base = time_base
        for _ in range(repeat):
            frame.pts = self._next_pts
            self._next_pts += 1
            for packet in self._stream.encode(frame):
                self._container.mux(packet)
    except BaseException as error:
        raise self._operation_error("encode", error) from error


# -- cairo paths of unchanged shapes reused -------------------------------------------------------------

MAX_SHAPES = 20_000
"""Remembered shapes at most; past that the memory is cleared and refilled (a scene has a few thousand)."""

_PLAIN_TRANSFORM = Camera.transform_points_pre_display
_PATHS: dict[int, tuple[bytes, tuple[float, ...], Any]] = {}


class PathCachedCamera(Camera):
    """Manim's camera, handing Cairo the remembered path of a shape unchanged since the frame before."""

    def set_cairo_context_path(self, ctx: Any, vmobject: Any) -> Self:
        """Give ``ctx`` ``vmobject``'s path: the remembered one when its points and the view are unchanged."""
        if type(self).transform_points_pre_display is not _PLAIN_TRANSFORM:
            return super().set_cairo_context_path(
                ctx, vmobject
            )  # a 3D camera moves points by its orientation
        points = vmobject.points  # the plain camera's transform (non-finite to zeros) depends on them only
        if len(points) == 0:
            return self
        key, matrix = points.tobytes(), tuple(ctx.get_matrix())
        seen = _PATHS.get(id(vmobject))
        if seen is not None and seen[2] is not None and seen[0] == key and seen[1] == matrix:
            ctx.new_path()
            ctx.append_path(seen[2])
            return self
        super().set_cairo_context_path(ctx, vmobject)
        if len(_PATHS) >= MAX_SHAPES:
            _PATHS.clear()
        unchanged = seen is not None and seen[0] == key and seen[1] == matrix
        _PATHS[id(vmobject)] = (key, matrix, ctx.copy_path() if unchanged else None)
        return self


def remembered_paths() -> list[Any]:
    """The cairo paths remembered now, one per shape (None: seen once, not yet copied)."""
    return [path for _, _, path in _PATHS.values()]


def forget_paths() -> None:
    """Forget every remembered path (a test starts from an empty memory)."""
    _PATHS.clear()


# -- skipped animations keep a rendered clock -----------------------------------------------------------

_TIMELINES: list[list[tuple[int, bool, float, str]]] = []


def rendered_frames(duration: float, frozen: bool, frame_rate: float) -> int:
    """How many frames a rendered animation of ``duration`` seconds writes (manim 0.22, Cairo).

    >>> rendered_frames(1.0, False, 15), rendered_frames(1.01, False, 15), rendered_frames(1.06, True, 15)
    (15, 16, 15)
    """
    if frozen:
        return int(duration / (1 / frame_rate))
    return len(np.arange(0, duration, 1 / frame_rate))


def _advance(time: float, frames: int, frozen: bool, frame_rate: float) -> float:
    dt = 1 / frame_rate
    if frozen:
        return time + frames * dt
    for _ in range(frames):
        time += 1 * dt
    return time


class ExactRenderer(CairoRenderer):
    """Manim's Cairo renderer, whose skipped animations advance the clock as rendered ones do.

    For shards, plans and previews (``-n FROM,UPTO``, dry runs): a skipped
    animation moves the clock by the frames a render would write, with the same
    floating-point steps, and runs the updaters once as a rendered ``play()``
    does after its last frame. Inside :func:`recording_animations` it also
    records each animation, and the digest of the scene state it starts from
    where :attr:`state_wanted` is set (a scene sets it where a segment may start).
    """

    state_wanted: bool | None = None
    """Digest the scene state before the next animation (reset after each digest); None: before every one."""

    def play(self, scene: Any, *args: Any, **kwargs: Any) -> None:
        """Manim's ``play``; a skipped animation then moves the clock by the frames it would write."""
        before = self.time
        state = ""  # what this animation starts from, where the scene may start a segment here
        if _TIMELINES and self.state_wanted is not False:
            state = state_digest(scene)
            if self.state_wanted:
                self.state_wanted = False
        super().play(scene, *args, **kwargs)
        frozen = bool(scene.is_current_animation_frozen_frame())
        frames = rendered_frames(scene.duration, frozen, config["frame_rate"])
        if _TIMELINES:
            _TIMELINES[-1].append((frames, frozen, round(float(scene.duration), 6), state))
        if self.skip_animations:
            self.time = _advance(before, frames, frozen, self.camera.frame_rate)
            if not frozen:
                scene.update_mobjects(0)  # as a rendered play() does after its last frame


@contextmanager
def recording_animations() -> Iterator[list[tuple[int, bool, float, str]]]:
    """Collect ``(frames, frozen, seconds, state)`` of every animation an :class:`ExactRenderer` plays inside.

    ``state`` is :func:`state_digest` of the scene as the animation starts,
    where the renderer's :attr:`~ExactRenderer.state_wanted` is set (it is
    reset after each digest): the digest costs a few milliseconds per
    animation, and only a segment's first animation needs it.
    """
    _TIMELINES.append([])
    try:
        yield _TIMELINES[-1]
    finally:
        _TIMELINES.pop()


def state_digest(scene: Any) -> str:
    """A digest of what the scene's next frames are drawn from: its mobjects, in order, as they are now.

    Every family member's type and its array and scalar attributes (points,
    colours, widths, opacities, a tracker's value) go in, and so do the
    families of the mobjects it keeps for later (``saved_state``, ``target``).
    Two scenes with equal digests draw an animation's frames alike, whatever
    time it is: a picture that depends on absolute time (an updater driven by
    ``dt``) shows it in the state, so the digest changes with it.
    """
    digest = hashlib.sha256()
    for top in scene.mobjects:
        digest.update(b"\x00top")
        for mob in top.get_family():
            _digest_mobject(digest, mob)
            for name in ("saved_state", "target"):
                kept = getattr(mob, name, None)
                if isinstance(kept, manim.Mobject):
                    digest.update(name.encode())
                    for part in kept.get_family():
                        _digest_mobject(digest, part)
    return digest.hexdigest()[:24]


_NOT_STATE = frozenset({"original_id"})
"""Attributes that differ between two runs of one scene (an SVG path's ``original_id`` is an ``id()``)."""


def _digest_mobject(digest: Any, mob: Any) -> None:
    scalars, arrays = [type(mob).__name__], []
    for name, value in vars(mob).items():
        if name in _NOT_STATE:
            continue
        if isinstance(value, np.ndarray):
            scalars.append(f"{name}:{value.dtype}{value.shape}")
            arrays.append(value.tobytes())
        elif isinstance(value, (bool, int, float, str)):
            scalars.append(f"{name}={value!r}")
    digest.update("|".join(scalars).encode() + b"".join(arrays))


# -- manim-slides 5.7 on manim 0.22 ---------------------------------------------------------------------


def install_slides_config() -> None:
    """Give ``ManimConfig`` the keys manim-slides 5.7 still sets, with their 0.21 meaning (idempotent)."""
    check_version()
    if getattr(ManimConfig, "_attention_slides_patch", False):
        return

    def get_write(self: ManimConfig) -> bool:
        return self.format != "none" and not self.dry_run

    def set_ignored(self: ManimConfig, value: Any) -> None:  # removed keys: nothing left to set
        del value

    original: Any = ManimConfig.__dict__["max_files_cached"]  # the property object

    def set_max_files(self: ManimConfig, value: Any) -> None:
        # manim-slides asks for "no limit" with inf; manim 0.22 spells that -1.
        original.fset(self, -1 if isinstance(value, float) and math.isinf(value) else value)

    ManimConfig.write_to_movie = property(get_write, set_ignored)  # type: ignore[attr-defined]
    ManimConfig.flush_cache = property(lambda self: False, set_ignored)  # type: ignore[attr-defined]
    ManimConfig.max_files_cached = property(original.fget, set_max_files)  # type: ignore[method-assign, assignment]
    ManimConfig._attention_slides_patch = True  # type: ignore[attr-defined]
