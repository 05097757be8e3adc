"""Section 5's trained decoder: SmolLM2-135M-Instruct reads random tokens twice; its induction head copies.

The scene's induction beats and the page's Explore figure (:func:`induction_figure`) read :func:`induction`:
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
from attnmath.decoder_spec import MODEL_NAME
from lecture.section import floats

__all__ = [
    "DECODER_NAME",
    "DECODER_SPOKEN",
    "SCORE_DECIMALS",
    "Induction",
    "induction",
    "induction_figure",
    "causal_hundredths",
]

DECODER_NAME = MODEL_NAME
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
    attention : ndarray of float64, shape (30, 9, 2 n, 2 n)
        Every head's attention (the page's small maps).
    first_copied : ndarray of bool, shape (n - 1,)
        Whether the greedy prediction at positions 0 .. n - 2 is the first copy's next token.
    """

    tokens: tuple[str, ...]
    heads: DecoderHeads
    previous: NDArray[np.float64]
    induction: NDArray[np.float64]
    attention: NDArray[np.float64]
    first_copied: NDArray[np.bool_]

    @property
    def n(self) -> int:
        """The tokens in one copy."""
        return len(self.tokens) // 2

    @property
    def n_heads(self) -> int:
        """Every head of the model: layers x query heads."""
        return self.heads.n_heads


@lru_cache(maxsize=4)
def induction(length: int, seed: int) -> Induction:
    """``length`` random tokens, twice, through the decoder: the heads that look back and that copy."""
    ids = repeated_random_tokens(length, seed)
    run = forward(ids)
    heads = head_scores(ids, run)
    (pl, ph, _), (il, ih, _) = heads.best_previous, heads.best_induction
    predicted = run.logits[: length - 1].argmax(axis=-1)
    return Induction(
        tokens=token_texts(ids),
        heads=heads,
        previous=run.attention[pl, ph],
        induction=run.attention[il, ih],
        attention=run.attention,
        first_copied=predicted == ids[1:length],
    )


SCORE_DECIMALS = 3
"""Decimals the page prints a head's scores with (and embeds them at)."""


def causal_hundredths(weights: NDArray[np.float64]) -> list[Any]:
    """(..., T, T) causal maps as nested lists of one flat list per map: its weights in hundredths.

    Each map's lower triangle, row by row (row t holds keys 0 .. t), as integers 0 to 100: the
    2 decimals the page shows. A future key's weight is 0 and is left out.

    >>> causal_hundredths(np.array([[1.0, 0.0], [0.254, 0.746]]))
    [100, 25, 75]
    """
    rows, keys = np.tril_indices(weights.shape[-1])
    return np.rint(weights[..., rows, keys] * 100).astype(int).tolist()


def induction_figure(found: Induction) -> dict[str, Any]:
    """The page's decoder view: the tokens, every head's three scores and causal map, the best heads.

    ``maps`` is (L, H, T (T + 1) / 2): every head's weights in hundredths (:func:`causal_hundredths`);
    the scores are rounded to :data:`SCORE_DECIMALS`, the best heads found before rounding.
    """
    h = found.heads
    n_layers, n_heads = h.induction.shape
    scores = {name: np.round(getattr(h, name), SCORE_DECIMALS) for name in ("induction", "previous", "sink")}
    return {
        "model": DECODER_NAME,
        "layers": n_layers,
        "heads": n_heads,
        "n": found.n,
        "decimals": SCORE_DECIMALS,
        "tokens": list(found.tokens),
        **{name: floats(v) for name, v in scores.items()},
        "best_induction": list(h.best_induction[:2]),
        "best_previous": list(h.best_previous[:2]),
        "typical_induction": round(h.typical_induction, SCORE_DECIMALS),
        "sink_heads": h.sink_heads,
        "maps": causal_hundredths(found.attention),
    }
