"""The base class every lecture scene derives from: title card, captions, summary frame."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from manim import DOWN, UP, FadeIn, FadeOut, Mobject, Scene, ValueTracker, VGroup, linear

from scenes import theme
from scenes.widgets import label

__all__ = ["LectureScene"]


class LectureScene(Scene):
    """A scene of the lecture: one section, a title card, captions on every step.

    Subclasses set ``section`` and ``title`` and write ``construct`` as a
    storyboard of short named steps.
    """

    section: ClassVar[str] = ""
    title: ClassVar[str] = ""

    def setup(self) -> None:
        """Apply the lecturer's overrides (``LECTURE_CONFIG``) before ``construct`` runs."""
        from scenes.config import apply_overrides  # late: config imports the scene list

        apply_overrides(self)

    def show_title_card(self) -> None:
        """Show the section's title card for about two seconds, then clear it."""
        heading = label(self.section, color=theme.MUTED, size=theme.BODY_SIZE)
        name = label(self.title, size=theme.TITLE_SIZE)
        if name.width > theme.SAFE_RIGHT - theme.SAFE_LEFT:
            name.scale_to_fit_width(theme.SAFE_RIGHT - theme.SAFE_LEFT)
        card = VGroup(heading, name).arrange(DOWN, buff=0.35).move_to(0.3 * UP)
        self.play(
            FadeIn(card, shift=0.2 * UP),
            run_time=0.6,
            subcaption=f"{self.section}: {self.title}",
            subcaption_duration=theme.TITLE_CARD_SECONDS,
        )
        self.wait(theme.TITLE_CARD_SECONDS - 1.0)
        self.play(FadeOut(card), run_time=0.4)

    def reveal(self, *mobjects: Mobject, caption: str, run_time: float = 1.5, hold: float = 2.0) -> None:
        """Fade ``mobjects`` in under a caption that stays for the fade and the hold."""
        self.play(
            *(FadeIn(m) for m in mobjects),
            run_time=run_time,
            subcaption=caption,
            subcaption_duration=run_time + hold,
        )
        self.wait(hold)
        self.slide_break()

    def sweep(
        self, tracker: ValueTracker, value: float, *, seconds: float, caption: str, hold: float = 1.5
    ) -> None:
        """Move ``tracker`` linearly to ``value`` under a caption, hold the frame, end the slide."""
        self.play(
            tracker.animate.set_value(value),
            run_time=seconds,
            rate_func=linear,
            subcaption=caption,
            subcaption_duration=seconds + hold,
        )
        if hold > 0:
            self.wait(hold)
        self.slide_break()

    def slide_break(self) -> None:
        """A breakpoint: a new slide when rendered as a deck (manim-slides), nothing otherwise."""
        next_slide = getattr(self, "next_slide", None)
        if callable(next_slide):
            next_slide()

    def go_live(self, group: VGroup, refresh: Callable[[], None]) -> None:
        """Redraw ``group`` with ``refresh()`` on every frame from now on.

        During ``play()`` manim draws every mobject without an updater into a
        frozen background image, so everything ``refresh`` changes must belong
        to ``group``, and ``group`` itself (not loose copies of its members) must
        be in the scene. This puts it there and attaches the updater.
        """
        self.remove(*group.submobjects)
        self.add(group)
        group.clear_updaters()
        group.add_updater(lambda _m: refresh())

    def caption(self, text: str, seconds: float) -> None:
        """Hold the frame for ``seconds`` with a caption."""
        self.add_subcaption(text, duration=seconds)
        self.wait(seconds)
        self.slide_break()
