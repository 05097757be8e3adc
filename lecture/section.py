"""A section of the lecture, declared once: its scene, title, data, questions, Explore figure and equations.

Every consumer reads a section from its :class:`Section`: the build (which
scene to render, what its up-to-date hash covers), the scene (its title card,
spoken title, parameters and pause-and-predict question), the page (the Explore
figure's data, the questions), the notes (the key equations) and the chapters.
Each section's declaration lives in its own module under :mod:`lecture.sections`;
:data:`lecture.clips.LECTURE` puts them in order. A new section is one new
module there, one scene module under ``scenes/`` and one line in that order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

import numpy as np
from numpy.typing import ArrayLike

from lecture.parameters import Parameters
from lecture.questions import Question

__all__ = ["Section", "Figure", "floats", "section_heading", "SCENES_DIR", "NUMBER_WORDS"]

SCENES_DIR = Path(__file__).resolve().parents[1] / "scenes"
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
"""How a section's number is said in its spoken title ("Section three.")."""

P = TypeVar("P", bound=Parameters)


@dataclass(frozen=True)
class Figure(Generic[P]):
    """A section's Explore figure on the page: ``compute`` turns the section's parameters into its data.

    The figure's script is ``assets/explore/<id>.js`` and its data sits under
    ``<id>`` in the page's figure data, where ``id`` is ``s<number>``.
    """

    compute: Callable[[P], dict[str, Any]]


@dataclass(frozen=True)
class Section(Generic[P]):
    """One section of the lecture, and the scene that renders it.

    Attributes
    ----------
    scene : str
        The scene's class name (what ``manim`` is told to render).
    module : str
        The scene module's file stem under ``scenes/``.
    number : str
        The section's number in the lecture text ("0" for the title).
    title : str
        Its title: on the title card, in listings, chapters, pages and the manifest, and spoken.
    seconds : float
        Length of the narrated clip with the draft voice (for listings and planning).
    parameters : type
        The model of the scene's data (:mod:`lecture.parameters`): defaults and the lecturer's keys.
    questions : callable
        The section's check-yourself questions, computed from its parameters; the first is the
        one its pause-and-predict beat asks.
    figure : Figure or None
        Its Explore figure on the page, if it has one.
    equations : tuple of str
        Its key equations (LaTeX, in reading order) for the notes.
    reads : tuple of Section
        Other sections whose lecturer data this clip shows too (the recap shows section 3's scores), so
        that an override of theirs makes this clip out of date as well.
    reads_outline : bool
        The clip shows the lecture's title and outline (the title scene), so they are part of its hash.
    """

    scene: str
    module: str
    number: str
    title: str
    seconds: float
    parameters: type[P]
    questions: Callable[[P], list[Question]] = field(default=lambda _params: [])
    figure: Figure[P] | None = None
    equations: tuple[str, ...] = ()
    reads: tuple[Section[Any], ...] = ()
    reads_outline: bool = False

    @property
    def path(self) -> Path:
        """The scene's source file."""
        return SCENES_DIR / f"{self.module}.py"

    @property
    def figure_id(self) -> str:
        """The Explore figure's id on the page, ``s<number>``."""
        return f"s{self.number}"

    @property
    def spoken_title(self) -> str:
        """What the title beat says: "Section three. <title>." (the title scene speaks its own welcome)."""
        return f"Section {NUMBER_WORDS[int(self.number)]}. {self.title}."

    def checked(self, params: Parameters | None) -> P:
        """``params`` as this section's model (its defaults when None); a wrong model is a bug."""
        if params is None:
            return self.parameters()
        if type(params) is not self.parameters:
            raise TypeError(
                f"bug: {self.scene} takes {self.parameters.__name__}, got a {type(params).__name__}"
            )
        return params

    def ask(self, params: Parameters | None = None) -> list[Question]:
        """The section's questions, computed from ``params`` (the defaults when None)."""
        return self.questions(self.checked(params))

    def figure_data(self, params: Parameters | None = None) -> dict[str, Any] | None:
        """The Explore figure's data from ``params`` (the defaults when None); None without a figure."""
        return None if self.figure is None else self.figure.compute(self.checked(params))


def floats(a: ArrayLike) -> Any:
    """An array (or number sequence) as nested lists of Python floats, exact in a figure's JSON.

    >>> floats(np.arange(3))
    [0.0, 1.0, 2.0]
    """
    return np.asarray(a, dtype=float).tolist()


def section_heading(number: str, title: str) -> str:
    """A section's heading in chapters, pages and transcripts: its number and title (title section: title).

    >>> section_heading("3", "Softmax"), section_heading("0", "Attention")
    ('3. Softmax', 'Attention')
    """
    return title if number == "0" else f"{number}. {title}"
