"""Live redraws: a group redrawn on every frame from the numbers it shows, and only its changing parts.

:class:`LiveScene` is the scene's part that keeps such groups: ``go_live``
starts a group's redraw, ``check_live`` finds one that an animation broke,
``stop_live`` ends it. :class:`scenes.base.LectureScene` derives from it.
"""

from __future__ import annotations

from collections.abc import Callable

from manim import Group, Mobject, Scene, VGroup

__all__ = ["LiveScene", "live_parts"]


def live_parts(mob: Mobject) -> tuple[list[Mobject], list[Mobject]]:
    """Split ``mob`` into (parts that stay still, parts that change) for a live redraw.

    Widgets say which of their parts change (``live_parts()``); a plain group
    is split member by member; any other mobject counts as changing.
    """
    own = getattr(mob, "live_parts", None)
    if callable(own):
        return own()
    if type(mob) in (VGroup, Group):
        still: list[Mobject] = []
        moving: list[Mobject] = []
        for sub in mob.submobjects:
            s, m = live_parts(sub)
            still += s
            moving += m
        return still, moving
    return [], [mob]


class LiveScene(Scene):
    """A scene that redraws live groups every frame (their drivers kept in ``live_drivers``)."""

    live_drivers: dict[int, tuple[VGroup, VGroup]]
    """Each live group's id -> (the group, the driver holding its changing parts); set in ``setup``."""

    def go_live(self, group: VGroup, refresh: Callable[[], None]) -> None:
        """Redraw ``group`` with ``refresh()`` on every frame, until :meth:`stop_live`.

        During ``play()`` manim draws every mobject that neither moves nor has
        an updater once, into a background image, and redraws the rest on
        every frame. So the parts of ``group`` that ``refresh`` leaves alone
        (a widget's ``live_parts()`` names them: axes, titles, labels) go into
        the scene on their own, and only the changing parts are redrawn each
        frame, driven by one updater placed last in the scene. Everything
        ``refresh`` changes must belong to ``group``.
        """
        self.stop_live(group)
        still, moving = live_parts(group)
        self.remove(group)
        self.add(*still)
        driver = VGroup(*moving)
        driver.add_updater(lambda _m: refresh())
        self.add(driver)
        self.live_drivers[id(group)] = (group, driver)

    def check_live(self, where: str) -> None:
        """Fail loudly when a live group's redraw was lost.

        An animation of one member of a live group (``Indicate(readout)``) makes
        manim add that member to the scene on its own, and manim then replaces
        the group that held it by the group's other members: the driver and its
        updater leave the scene, and the picture silently stops following its
        numbers. Animate around a live part (``Circumscribe``), never the part.
        """
        lost = [driver for _group, driver in self.live_drivers.values() if driver not in self.mobjects]
        if lost:
            raise RuntimeError(f"bug in {where}: an animation split a live group, which no longer redraws")

    def stop_live(self, group: VGroup) -> None:
        """Stop redrawing ``group`` every frame; it stays in the scene as one group."""
        entry = self.live_drivers.pop(id(group), None)
        if entry is None:
            return
        _group, driver = entry
        driver.clear_updaters()
        self.remove(driver)
        self.add(group)
