"""Section 5's trained decoder: SmolLM2-135M-Instruct reads random tokens twice, and its induction head copies.

The scene's induction beats and the page's Explore figure read :func:`induction`:
``length`` distinct random tokens (:func:`attnmath.decoder_probes.repeated_random_tokens`),
repeated once, decoded in one causal pass (:func:`attnmath.decoder.forward`) and scored
head by head (:func:`attnmath.decoder_probes.head_scores`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

from attnmath.decoder import forward, token_texts
from attnmath.decoder_probes import DecoderHeads, head_scores, repeated_random_tokens
from lecture.section import floats

__all__ = ["DECODER_NAME", "DECODER_SPOKEN", "Induction", "induction", "induction_figure"]

DECODER_NAME = "SmolLM2-135M-Instruct"
"""The decoder's name on screen."""
DECODER_SPOKEN = "Smol L M 2"
"""Its name as the voice says it (the captions show the same words)."""


@dataclass(frozen=True, eq=False)
class Induction:
    """The repeated sequence through the decoder: its tokens, every head's scores, two heads' maps.

    Attributes
    ----------
    tokens : tuple of str
        The 2 n tokens as text (the second n repeat the first).
    heads : DecoderHeads
        Every head's induction, previous-token and sink scores, and which second-copy tokens it predicts.
    previous, induction : ndarray of float64, shape (2 n, 2 n)
        The best previous-token head's and the best induction head's attention.
    first_copied : ndarray of bool, shape (n - 1,)
        Whether the greedy prediction at positions 0 .. n - 2 is the first copy's next token.
    """

    tokens: tuple[str, ...]
    heads: DecoderHeads
    previous: NDArray[np.float64]
    induction: NDArray[np.float64]
    first_copied: NDArray[np.bool_]

    @property
    def n(self) -> int:
        """The tokens in one copy."""
        return len(self.tokens) // 2

    @property
    def n_heads(self) -> int:
        """Every head of the model: layers x query heads."""
        return int(self.heads.induction.size)


@lru_cache(maxsize=4)
def induction(length: int, seed: int) -> Induction:
    """``length`` random tokens, twice, through the decoder: the heads that look back and that copy."""
    ids = repeated_random_tokens(length, seed)
    run = forward(ids)
    heads = head_scores(ids)
    (pl, ph, _), (il, ih, _) = heads.best_previous, heads.best_induction
    predicted = run.logits[: length - 1].argmax(axis=-1)
    return Induction(
        tokens=token_texts(ids),
        heads=heads,
        previous=run.attention[pl, ph],
        induction=run.attention[il, ih],
        first_copied=predicted == ids[1:length],
    )


def induction_figure(found: Induction) -> dict[str, Any]:
    """The page's data: the tokens, every head's three scores, the two heads' maps and the predictions."""
    h = found.heads
    return {
        "model": DECODER_NAME,
        "tokens": list(found.tokens),
        "induction": floats(h.induction),
        "previous": floats(h.previous),
        "sink": floats(h.sink),
        "best_induction": list(h.best_induction),
        "best_previous": list(h.best_previous),
        "typical_induction": h.typical_induction,
        "maps": {"previous": floats(found.previous), "induction": floats(found.induction)},
        "copied": [bool(c) for c in h.copied],
        "first_copied": [bool(c) for c in found.first_copied],
    }
