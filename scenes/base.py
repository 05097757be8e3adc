"""The base class every lecture scene derives from: beats with narration, title card, live updaters."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast, get_args, get_origin

from manim import (
    DOWN,
    RIGHT,
    UP,
    FadeIn,
    FadeOut,
    Mobject,
    Rectangle,
    RendererType,
    ValueTracker,
    VGroup,
    Wait,
    config,
    linear,
)

import manim_patches
from drawing import theme
from drawing.predict import THINK_SECONDS, Curtain, predict_card
from drawing.widgets import label, wrapped
from lecture.clips import LECTURE, UnknownScene, find_clip
from lecture.config import LectureConfig, lecture_for
from lecture.parameters import Parameters
from lecture.questions import ANSWER_BEAT, ASK_BEAT, LETTERS, PREDICT_BEAT, Question
from lecture.section import Section
from lecture.settings import Played, SceneSettings
from narration.beats import Beat, BeatsRecord, Description
from narration.narrator import BREATH, SECTION_BREATH, NarrationSettings, Narrator, Spoken
from narration.written import written
from scenes.live import LiveScene
from scenes.observer import observer
from scenes.onscreen import visible_items, visible_words, whole_equations

__all__ = ["LectureScene", "Mixin", "SAID", "Said"]


class Said:
    """The mark of a beat whose narration already describes its picture (``beat(..., shows=SAID)``)."""

    def __repr__(self) -> str:
        return "SAID"


SAID = Said()


P = TypeVar("P", bound=Parameters)


class LectureScene(LiveScene, Generic[P]):
    """A scene of the lecture: one section, a title card, captions on every step.

    Subclasses write ``construct`` as a storyboard of short named steps. The
    section, its title and its questions come from the scene's
    :class:`lecture.section.Section` in :data:`lecture.clips.LECTURE`. A scene with
    data names its parameters' model, ``class MyScene(LectureScene[MyParameters])``,
    and reads them typed as ``self.params``: the model's defaults, or the lecturer's values in their place.
    """

    section: Section | None = None
    """The scene's section (None for a scene outside the lecture, such as a test's)."""
    settings: SceneSettings
    """What the build asked of this render (:class:`lecture.settings.SceneSettings`), read once in setup."""
    lecture: LectureConfig
    """The lecture this scene belongs to: the lecturer's file the build passed, or the default."""
    params: P
    """The scene's data (:mod:`lecture.parameters`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        manim_patches.install()  # held frames and parsed SVGs: see manim_patches
        if config.renderer == RendererType.CAIRO and kwargs.get("renderer") is None and not args:
            # manim's seam: exact skipping (shards, plans, previews) and unchanged paths drawn from memory
            camera = kwargs.setdefault("camera_class", manim_patches.PathCachedCamera)
            skip = bool(kwargs.get("skip_animations", False))
            kwargs["renderer"] = manim_patches.ExactRenderer(camera_class=camera, skip_animations=skip)
        super().__init__(*args, **kwargs)

    def want_state(self) -> None:
        """The next animation may start a segment of the build's cache: the plan digests the state there."""
        if isinstance(self.renderer, manim_patches.ExactRenderer):
            self.renderer.state_wanted = True

    def setup(self) -> None:
        """Read the build's settings, the lecture and the scene's parameters once, before ``construct``."""
        self.live_drivers: dict[int, tuple[VGroup, VGroup]] = {}
        self.settings = SceneSettings.current()
        self.lecture = lecture_for(self.settings)
        self.params = self._parameters()
        self.narrator = Narrator(self.script_name(), NarrationSettings.of(self.settings))
        self.beats: list[Beat] = []
        self.beat_spans: list[tuple[str, int, int]] = []  # (beat id, first and last animation)
        self.moving: list[tuple[float, float]] = []  # (start, end) of every animation played, in scene time
        self.late: list[tuple[str, str, float]] = []  # (beat, words, s): a cue the picture reached late
        self.want_state()  # the first animation starts a segment
        try:
            self.section = find_clip(self.script_name())
        except UnknownScene:
            self.section = None

    @classmethod
    def parameters_model(cls) -> type[Parameters]:
        """The model the scene names (``LectureScene[Model]``); the empty :class:`Parameters` when none."""
        for klass in cls.__mro__:
            for base in getattr(klass, "__orig_bases__", ()):
                if get_origin(base) is LectureScene and isinstance(get_args(base)[0], type):
                    return get_args(base)[0]
        return Parameters

    def _parameters(self) -> P:
        model, name = self.parameters_model(), self.script_name()
        params = self.lecture.parameters_for(name) or model()
        if type(params) is not model:
            raise TypeError(f"bug: {name} names {model.__name__}, but its data is a {type(params).__name__}")
        return cast(P, params)

    @classmethod
    def script_name(cls) -> str:
        """The section scene's name, also for subclasses that only change how it is built (decks, tests)."""
        return next(k.__name__ for k in cls.__mro__ if "construct" in vars(k) or k is LectureScene)

    @contextmanager
    def beat(
        self, slug: str, text: str, shows: str | Said | None = None, *, ends_section: bool = False
    ) -> Iterator[Spoken]:
        """One beat of the storyboard: its narration is spoken while the body animates.

        ``shows`` is the beat's audio description: what its picture shows that
        ``text`` does not say, in words a listener follows, numbers taken from
        the same values the screen shows. :data:`SAID` marks a beat whose
        narration describes its picture already. A described build speaks the
        description after the beat while the picture holds
        (:mod:`production.publish.described`); ``script`` prints it.

        The beat lasts at least as long as its narration plus a breath: when
        the body's animations are shorter, the last frame is held. The body
        may pace itself on ``spoken.duration``. Captions come from the
        narration. Rendered as a deck, each beat is a slide whose speaker notes
        are the beat's script.
        """
        beat_id = f"{self.script_name()}.{len(self.beats) + 1:02d}-{slug}"
        text = observer().starting(self, beat_id, text)  # a warm preview may give it its new text here
        self.slide_break(notes=" ".join(text.split()))
        self.want_state()  # the beat's first animation starts a segment of the build's cache
        first = self.renderer.num_plays  # the beat's first animation, as ``manim -n`` numbers them
        spoken = self.narrator.speak(beat_id, text)
        if spoken.warning:
            print(f"warning: {spoken.warning}", file=sys.stderr)
        start = self.renderer.time
        self.spoken, self.speech_ends = spoken, start + spoken.duration
        for cue in spoken.cues:
            self.add_subcaption(cue.text, duration=cue.duration, offset=cue.start)
        self.beat_equations: dict[str, str] = {}  # key -> LaTeX, a readout's value the latest it showed
        self.beat_words: dict[str, str] = {}  # key -> words on screen in the beat, a count's latest state
        yield spoken
        self.check_live(beat_id)
        breath = SECTION_BREATH if ends_section else BREATH  # a clip's last beat leaves room before the next
        self.hold(start + spoken.duration + breath - self.renderer.time)
        self.note_equations()
        self.record_beat(spoken, start, self.describe(beat_id, shows))
        self.beat_spans.append((beat_id, first, self.renderer.num_plays - 1))
        self.want_state()  # so does the next animation, in a beat or not
        observer().ended(self, beat_id)

    def pause_and_predict(
        self,
        question: Question,
        answer: Callable[[Spoken], None],
        shows: str | Said = SAID,
        *,
        ends_section: bool = False,
    ) -> None:
        """Ask ``question`` over the dimmed picture, hold for the viewer to choose, then ``answer`` shows it.

        Three beats: ``ask`` speaks the question, its lines written as they are read; ``predict`` reads
        the lettered options as they appear, then holds :data:`drawing.predict.THINK_SECONDS` of silence
        (the lecture's one deliberate hold, where the page's player pauses and asks); ``predict-answer``
        names the right letter, lifts the curtain and runs ``answer``, the animation that proves it while
        it is spoken. The question is the section's first (:attr:`lecture.section.Section.questions`), as
        the notes and the page ask it; ``shows`` describes the answer's picture.
        """
        card = predict_card(question.spoken.split(": ", 1)[-1], [o.text for o in question.options])
        curtain = Curtain()
        with self.beat(ASK_BEAT, question.spoken, shows=SAID):
            heading, lines = card.ask
            self.play(FadeIn(curtain), FadeIn(heading, lines[0], shift=0.2 * UP), run_time=0.8)
            for line in lines[1:]:  # the question is written as it is read: the card changes with the words
                self.when_said(self.spoken.first_said(line.words), FadeIn(line, shift=0.1 * UP), run_time=0.5)
            self.hold(self.speech_left() + (0.0 if question.options else THINK_SECONDS))
        if question.options:
            with self.beat(PREDICT_BEAT, question.spoken_options, shows=SAID):
                for letter, row in zip(LETTERS, card.options, strict=False):
                    self.when_said(f"{letter},", FadeIn(row, shift=0.1 * UP), run_time=0.5)
                self.hold(self.speech_left() + THINK_SECONDS)
        with self.beat(ANSWER_BEAT, question.said_answer, shows=shows, ends_section=ends_section) as spoken:
            self.play(FadeOut(curtain), FadeOut(card), run_time=0.6)
            answer(spoken)

    def describe(self, beat_id: str, shows: str | Said | None) -> Description:
        """The beat's audio description, spoken (or timed) by the scene's voice; empty when there is none."""
        if isinstance(shows, Said):
            return Description(said=True)
        return self.narrator.describe(beat_id, shows) if shows else Description()

    def play(self, *args: Any, **kwargs: Any) -> None:
        """Play, then note the equations on screen (the descriptive transcript lists each beat's).

        The animation's span is noted in ``moving``: a dry run's plan of when the picture moves, which
        :func:`production.media.motion.plan_held` checks against the speech without rendering a frame.
        """
        start = self.renderer.time
        super().play(*args, **kwargs)
        if self.renderer.time > start and not all(isinstance(a, Wait) for a in args):  # a hold is no motion
            self.moving.append((start, self.renderer.time))
        self.note_equations()
        if self.settings.progress and not self.renderer.skip_animations:
            print(Played(self.renderer.num_plays - 1).line(), flush=True)  # the build's progress

    def when_said(self, words: str, *animations: Any, run_time: float = 1.0, **kwargs: Any) -> None:
        """Play ``animations`` as the current beat's narration reaches ``words``: a thing moves when named.

        When the words have already been spoken (an earlier animation ran past them), they play at once.
        """
        self.until_said(words)
        self.play(*animations, run_time=run_time, **kwargs)

    def note_equations(self) -> None:
        """Add the equations and words now on screen to the current beat's, in the order they first appear."""
        seen = getattr(self, "beat_equations", None)
        if seen is not None:
            for _group, driver in self.live_drivers.values():  # manim redraws them at the next frame only
                driver.update(0)
            seen.update(visible_items(self))
            self.beat_words.update(visible_words(self))

    def rejoin(self, *parts: Mobject) -> None:
        """``parts``, animated one by one, are drawn by their group again, not on their own.

        manim adds a part it animates (``Write``, ``FadeIn``) to the scene's top level; left there, the
        part outlives a later fade of its group. The caller puts them in their group (or adds the group).
        """
        self.remove(*(m for part in parts for m in part.get_family()))

    def speech_left(self) -> float:
        """Seconds of the current beat's narration still to come (0 once it has been spoken)."""
        return max(0.0, getattr(self, "speech_ends", 0.0) - self.renderer.time)

    def until_said(self, words: str) -> None:
        """Hold until the current beat's narration reaches ``words``, placed within their caption cue.

        A phrase the narration never says is a bug in the scene, and is reported as one. Where the words
        were said before (an earlier animation ran past them), how late the picture comes is noted in
        ``late`` (beat, words, seconds): a test holds each under a second.
        """
        wait = self.seconds_until(words)
        if wait < 0:
            self.late.append((self.spoken.beat_id, words, round(-wait, 3)))
        self.hold(wait)

    def seconds_until(self, words: str) -> float:
        """Seconds from now until the current beat's narration says ``words`` (negative once said)."""
        spoken, found = self.spoken, self.spoken.holding(words)
        if not found:
            raise RuntimeError(f"bug in {spoken.beat_id}: its narration never says {words!r}")
        cue, text = found[0]
        words = written(words)
        at = cue.start + cue.duration * text.index(words) / len(text)
        return self.speech_ends - spoken.duration + at - self.renderer.time

    def hold(self, seconds: float) -> None:
        """Hold the frame for ``seconds`` (nothing when it is less than one frame).

        The frame is frozen: live updaters would redraw the same picture on
        every frame of a hold (nothing they follow moves while the voice
        speaks), so the frame is drawn once and repeated.
        """
        if seconds >= 1.0 / config.frame_rate:
            self.wait(seconds, frozen_frame=True)

    def fade_in(self, *mobjects: Mobject, run_time: float = 1.5) -> None:
        """Fade ``mobjects`` in together."""
        self.play(*(FadeIn(m) for m in mobjects), run_time=run_time)

    def clear_then(self, *shown: Mobject) -> None:
        """The last picture leaves, then the next one's frame comes in: the two never overlap."""
        self.play(*(FadeOut(m) for m in self.mobjects), run_time=0.4)
        self.fade_in(*shown, run_time=0.5)

    def sweep_to(self, tracker: ValueTracker, value: float, seconds: float) -> None:
        """Move ``tracker`` linearly to ``value`` in ``seconds``."""
        self.play(tracker.animate.set_value(value), run_time=seconds, rate_func=linear)

    def title_beat(self) -> None:
        """The section's first beat: its number and title said while its title card shows."""
        section = self._own_section()
        with self.beat("title", section.spoken_title, shows=SAID):
            self.title_card()

    def question(self) -> Question:
        """The section's pause-and-predict question, computed from the scene's parameters."""
        return self._own_section().ask(self.params)[0]

    def _own_section(self) -> Section:
        if self.section is None:
            raise TypeError(f"bug: {self.script_name()} is not a section of the lecture (lecture/clips.py)")
        return self.section

    def title_card(self) -> None:
        """The section's title card, shown while the beat's narration lasts, then cleared."""
        section = self._own_section()
        heading = label(f"Section {section.number}", color=theme.MUTED, size=theme.BODY_SIZE)
        width = theme.SAFE_RIGHT - theme.SAFE_LEFT
        name = wrapped(section.title, width=width, size=theme.TITLE_SIZE, max_lines=2)
        card = VGroup(heading, name, self.progress_strip()).arrange(DOWN, buff=0.35).move_to(0.3 * UP)
        self.play(FadeIn(card, shift=0.2 * UP), run_time=0.6)
        self.hold(max(self.speech_left(), theme.TITLE_CARD_SECONDS - 1.0))
        self.play(FadeOut(card), run_time=0.4)

    def progress_strip(self) -> VGroup:
        """Where the section stands in the lecture: one short bar per section, this one lit."""
        sections = [c.scene for c in LECTURE if c.number != "0"]
        bars = VGroup(
            *(
                Rectangle(width=0.7, height=0.12, stroke_width=0).set_fill(
                    theme.TEXT if scene == self.script_name() else theme.MUTED,
                    opacity=1.0 if scene == self.script_name() else 0.35,
                )
                for scene in sections
            )
        )
        return bars.arrange(RIGHT, buff=0.15)

    def record_beat(self, spoken: Spoken, start: float, description: Description | None = None) -> None:
        """Note the beat's times, voice, sound, description and equations (its sound plays under manim)."""
        self.beats.append(
            Beat(
                id=spoken.beat_id,
                text=spoken.text,
                start=round(start, 3),
                end=round(self.renderer.time, 3),
                voice=spoken.voice,
                engine=spoken.engine,
                audio=tuple((str(path), round(start + offset, 3)) for path, offset in spoken.audio),
                cues=tuple(cue.moved_to_ms(start) for cue in spoken.cues),
                warning=spoken.warning,
                description=description or Description(),
                equations=tuple(whole_equations(list(dict.fromkeys(self.beat_equations.values())))),
                words=tuple(dict.fromkeys(self.beat_words.values())),
            )
        )
        if self.settings.beats_out is None:  # plain manim CLI: manim mixes the voice in
            for path, offset in spoken.audio:
                self.add_sound(str(path), time_offset=start + offset - self.renderer.time)

    def tear_down(self) -> None:
        """Write the beats for the build (``SceneSettings.beats_out``), if it asked for them."""
        out = self.settings.beats_out
        if out is not None:
            BeatsRecord(self.script_name(), self.renderer.time, tuple(self.beats)).write(out)
        super().tear_down()

    def slide_break(self, notes: str = "") -> None:
        """A new slide, with speaker ``notes``, when rendered as a deck (manim-slides); nothing otherwise.

        manim-slides' ``next_slide`` ends the slide so far and gives the next one
        its settings, so a beat calls it as it starts (at the very start it only
        sets the first slide's notes).
        """
        next_slide = getattr(self, "next_slide", None)
        if callable(next_slide):
            next_slide(notes=notes)


if TYPE_CHECKING:
    Mixin = LectureScene
else:

    class _MixinBase:
        """``Mixin[P]`` is ``object`` at run time: a mixin adds methods, and the scene is the LectureScene."""

        def __getitem__(self, _params: object) -> type:
            return object

    Mixin = _MixinBase()
"""The base of a scene's mixin (``class Figures(Mixin[Params])``): to mypy the ``LectureScene[Params]``
it is mixed into, so its methods may use the scene's; at run time nothing, so the scene's own bases
stay in charge of its method order."""
