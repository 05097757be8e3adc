"""Section 6 on a real decoder: the section's sentence fed to SmolLM2 one token at a time.

One beat, after the model's bytes a token (:mod:`scenes.s6_real`): the sentence's
tokens enter one by one; each step fills one row of a real head's causal map (section
5's previous-token head, so the stripe sits just left of the diagonal) and adds one
token's keys and values to a cache stack whose size is counted beside it. Last, how
far the cached steps' next-token scores are from one full pass over the sentence:
they match. The numbers are :func:`lecture.sections.s6_real.real_decoding`'s.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, FadeIn, Mobject, Rectangle, VGroup

from drawing import theme
from drawing.text import label
from lecture.parameters import ConfigError
from lecture.sections.s6_kv_cache import KVCacheParameters
from lecture.sections.s6_real import RealDecoding, kib, real_decoding, sentence_text
from scenes.base import Mixin
from scenes.onscreen import changing

__all__ = ["CachedDecoding", "gap_text"]

MAP_SIDE = 4.0  # the causal map's width at most: less when long tokens leave less room
MAP_BOTTOM = -2.45  # the map's and the stack's bottom edge; the top is as high as their rows need
ROW = 0.4  # a row's height: the rows' names (small text) never overlap; 12 rows reach the top
MAP_RIGHT = 0.0  # the map's room ends here; the row names take the room left of it
STACK_X = 0.9  # the cache stack's centre
TEXT_X = 1.65  # the left edge of the cache's size and of the check: the longest line ends in the safe area


def gap_text(gap: float) -> str:
    """A score difference as the picture prints it: ``5.9e-05`` -> ``"0.00006"`` (one significant digit)."""
    digits = max(0, -int(np.floor(np.log10(gap)))) if gap > 0 else 1
    return f"{gap:.{digits}f}"


class CachedDecoding(Mixin[KVCacheParameters]):
    """The beat that decodes the section's sentence through SmolLM2's real KV cache."""

    def show_real_decoding(self) -> None:
        """Tokens enter; a real head's causal rows fill; the cache stack and its size grow; the check."""
        decoded = self.decoded()
        rows, cells, frame = self.causal_rows(decoded)
        slots, count = self.cache_stack(decoded), self.cache_count(decoded, 0)
        kv = VGroup(
            label("k", small=True, color=theme.KEY).next_to(slots[0][0], UP, buff=0.12),
            label("v", small=True, color=theme.VALUE).next_to(slots[0][1], UP, buff=0.12),
        )
        head = VGroup(
            label("previous-token head", small=True, color=theme.WEIGHT),
            label(f"layer {decoded.layer + 1}, head {decoded.head + 1}", small=True, color=theme.MUTED),
        ).arrange(DOWN, buff=0.08)
        head.next_to(frame[0], UP, buff=0.2)
        check = self.full_pass_check(decoded)
        with self.beat(
            "real-decoding",
            f"Feed it the same sentence, token by token: each adds {kib(decoded.step_bytes)} kibibytes; "
            "its predictions match a full pass, to rounding.",
            shows="A real previous-token head's rows fill, token by token; the cache reaches "
            f"{kib(len(decoded.tokens) * decoded.step_bytes)} kibibytes.",
        ):
            self.clear_then(frame, head, kv, count)
            self.until_said("token by token")
            seconds = max(0.35, min(0.8, (self.seconds_until("predictions") - 0.2) / len(rows)))
            for t, row in enumerate(rows):
                grown = self.cache_count(decoded, t + 1)
                self.remove(count)  # the count steps at once: a number that morphs cannot be read
                self.add(grown)
                self.play(
                    FadeIn(row), FadeIn(cells[t]), FadeIn(slots[t], shift=0.15 * DOWN), run_time=seconds
                )
                count = grown
            self.when_said("match", FadeIn(check, shift=0.2 * UP), run_time=0.8)
            self.hold(self.speech_left() + 1.0)  # the check is read after the voice stops

    def decoded(self) -> RealDecoding:
        """The section's sentence through the real cache; too many tokens to lay out is a lecturer's error."""
        try:
            return real_decoding(sentence_text(self.params.words))
        except ValueError as exc:
            raise ConfigError(f"[{self.params.scene}] words: {exc}") from None

    @staticmethod
    def causal_rows(decoded: RealDecoding) -> tuple[list[Mobject], list[VGroup], VGroup]:
        """(each query token's name left of its row; each row's cells lit by the head's weights; a frame).

        The names take the room they need from the left edge; the map is centred in what is left.
        """
        n = len(decoded.tokens)
        names: list[Mobject] = [label(t.strip() or "\u2423", small=True) for t in decoded.tokens]
        room_left = theme.SAFE_LEFT + max(m.width for m in names) + 0.15
        room = min(MAP_SIDE, MAP_RIGHT - room_left)
        width, height = room / max(n, 10), ROW  # up to 10 tokens, square cells; more, narrower
        left = room_left + (room - width * n) / 2
        frame = Rectangle(width=width * n, height=height * n, color=theme.MUTED, stroke_width=1.5)
        frame.move_to([left + width * n / 2, MAP_BOTTOM + height * n / 2, 0])
        corner = frame.get_corner(UP + LEFT)
        cells: list[VGroup] = []
        for t in range(n):
            row = VGroup()
            for j in range(t + 1):
                square = Rectangle(width=width, height=height, stroke_width=0.5, stroke_color=theme.MUTED)
                at = corner + np.array([(j + 0.5) * width, -(t + 0.5) * height, 0.0])
                row.add(square.set_fill(theme.WEIGHT, opacity=float(decoded.weights[t, j])).move_to(at))
            cells.append(row)
            names[t].move_to([corner[0] - 0.15 - names[t].width / 2, row[0].get_y(), 0])
        keys = label("keys: earlier tokens", small=True, color=theme.MUTED).next_to(frame, DOWN, buff=0.15)
        return names, cells, VGroup(frame, keys)

    @staticmethod
    def cache_stack(decoded: RealDecoding) -> list[VGroup]:
        """One slot a token, keys beside values, stacked down from the top as the cache grows."""
        n = len(decoded.tokens)
        pitch, top = ROW, MAP_BOTTOM + ROW * n  # a slot beside each row
        slots = []
        for t in range(n):
            k = Rectangle(width=0.5, height=0.8 * pitch, color=theme.KEY, fill_opacity=0.6, stroke_width=1)
            v = Rectangle(width=0.5, height=0.8 * pitch, color=theme.VALUE, fill_opacity=0.6, stroke_width=1)
            slot = VGroup(k, v).arrange(RIGHT, buff=0.06)
            slots.append(slot.move_to([STACK_X, top - (t + 0.5) * pitch, 0]))
        return slots

    @staticmethod
    def cache_count(decoded: RealDecoding, t: int) -> Mobject:
        """The cache's size after ``t`` tokens, right of the stack: tokens, and tokens times bytes a token."""
        per_token, total = kib(decoded.step_bytes), kib(t * decoded.step_bytes)
        name = label(f"cache, all {decoded.layers} layers:", small=True, color=theme.TEXT)
        product = label(f"{t} token{'' if t == 1 else 's'} x {per_token} KiB", small=True, color=theme.KEY)
        sums = (
            changing(product, "cache product"),
            changing(label(f"= {total} KiB", small=True, color=theme.KEY), "cache sum"),
        )
        both = VGroup(name, *sums)
        both.arrange(DOWN, buff=0.12, aligned_edge=LEFT)
        top = MAP_BOTTOM + ROW * len(decoded.tokens)
        return both.move_to([TEXT_X, top, 0], aligned_edge=UP + LEFT)

    @staticmethod
    def full_pass_check(decoded: RealDecoding) -> Mobject:
        """The largest gap between the cached steps' scores and one full pass, under the stack."""
        lines = VGroup(
            label("cached vs full pass:", small=True, color=theme.TEXT),
            label("predictions differ", small=True, color=theme.VALUE),
            label(f"by at most {gap_text(decoded.max_gap)}", small=True, color=theme.VALUE),
        ).arrange(DOWN, buff=0.12, aligned_edge=LEFT)
        return lines.move_to([TEXT_X, MAP_BOTTOM, 0], aligned_edge=DOWN + LEFT)
