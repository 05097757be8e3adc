r"""SmolLM2-135M's heads and its cache, measured: induction, previous-token and sink heads; windowed NLL.

**Heads** (:func:`head_scores`). A random sequence of distinct tokens
:math:`s_0 \dots s_{n-1}`, repeated once, is run through :func:`attnmath.decoder.forward`.
For each of the 270 heads (30 layers x 9):

- *induction score*: the mean weight a query in the second copy (position
  :math:`t \ge n`) puts on the token after its earlier copy, position :math:`t - n + 1`
  (Olsson et al., 2022);
- *previous-token score*: the mean weight on position :math:`t - 1`, over :math:`t \ge 1`;
- *sink score*: the mean weight on position 0, over :math:`t \ge 1`; a head whose
  sink score is over :data:`SINK_SHARE` is a *sink head* (Xiao et al., 2023).

**Cache eviction** (:func:`window_nll`). The mean negative log-likelihood per
token of a text under full causal attention, under a sliding window of the last
``window`` keys (a cache that evicts its oldest tokens), and under the window plus
the first ``sinks`` tokens kept (StreamingLLM's cache). Here the window is a mask
on one full pass: every token keeps its absolute position (its rotary angle) rather
than being renumbered by its place in the cache, as StreamingLLM does.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, NDArray

from attnmath._validate import FloatArray, check_int
from attnmath.decoder import DecoderRun, _as_allowed, _as_ids, _run, forward, tokenize, window_mask
from attnmath.decoder_weights import keep_result, kept_result, load_decoder

__all__ = [
    "SINK_SHARE",
    "DecoderHeads",
    "WindowNll",
    "repeated_random_tokens",
    "head_scores",
    "token_nll",
    "window_nll",
    "trailing_mean",
]

SINK_SHARE = 0.5
"""A head is a sink head when its queries put more than this share of their weight on position 0."""


@dataclass(frozen=True, eq=False)
class DecoderHeads:
    """Every head's scores on a sequence repeated twice.

    Attributes
    ----------
    ids : ndarray of int, shape (2 n,)
        The sequence, twice.
    induction, previous, sink : ndarray of float64, shape (30, 9)
        Each layer's and head's induction, previous-token and sink scores (see the module).
    copied : ndarray of bool, shape (n - 1,)
        Whether the model's greedy prediction at positions n .. 2n - 2 of the second copy is
        the next token of the copy.
    """

    ids: NDArray[np.intp]
    induction: FloatArray
    previous: FloatArray
    sink: FloatArray
    copied: NDArray[np.bool_]

    @property
    def n_heads(self) -> int:
        """Every head of the model: layers x query heads."""
        return int(self.induction.size)

    @staticmethod
    def _best(scores: FloatArray) -> tuple[int, int, float]:
        layer, head = np.unravel_index(int(np.argmax(scores)), scores.shape)
        return int(layer), int(head), float(scores[layer, head])

    @property
    def best_induction(self) -> tuple[int, int, float]:
        """(layer, head, score) of the strongest induction head, 0-based."""
        return self._best(self.induction)

    @property
    def best_previous(self) -> tuple[int, int, float]:
        """(layer, head, score) of the strongest previous-token head, 0-based."""
        return self._best(self.previous)

    @property
    def typical_induction(self) -> float:
        """The median head's induction score."""
        return float(np.median(self.induction))

    @property
    def sink_heads(self) -> int:
        """How many heads put more than :data:`SINK_SHARE` of their weight on position 0."""
        return int(np.count_nonzero(self.sink > SINK_SHARE))

    @property
    def copy_accuracy(self) -> float:
        """The share of the second copy's tokens the model predicts."""
        return float(self.copied.mean())


def repeated_random_tokens(length: int = 20, seed: int = 0) -> NDArray[np.intp]:
    """``length`` distinct random ordinary tokens (no control token), then the same again.

    Examples
    --------
    >>> ids = repeated_random_tokens(5, seed=1)
    >>> ids.shape, bool((ids[:5] == ids[5:]).all()), len(set(ids.tolist()))
    ((10,), True, 5)
    """
    length = check_int(length, "length", minimum=2)
    dec = load_decoder()
    ordinary = np.setdiff1d(np.arange(dec.vocab_size), dec.special_ids)
    first = np.random.default_rng(seed).choice(ordinary, size=length, replace=False).astype(np.intp)
    return np.concatenate([first, first])


def head_scores(ids: ArrayLike, run: DecoderRun | None = None) -> DecoderHeads:
    """Every head's induction, previous-token and sink scores on a sequence repeated twice.

    Parameters
    ----------
    ids : array_like of int, shape (2 n,)
        A sequence of n distinct tokens, twice (e.g. :func:`repeated_random_tokens`).
    run : DecoderRun, optional
        :func:`~attnmath.decoder.forward` of ``ids``, when the caller has it already (it is not rerun).

    Returns
    -------
    DecoderHeads

    Raises
    ------
    ValueError
        If ``ids`` is not a sequence of distinct tokens repeated twice.
    """
    seq = _as_ids(ids)
    n = len(seq) // 2
    if len(seq) % 2 or n < 2 or not (seq[:n] == seq[n:]).all() or len(set(seq[:n].tolist())) != n:
        raise ValueError("ids must be n >= 2 distinct tokens, then the same n tokens again")
    if run is None:
        run = forward(seq)
    elif not np.array_equal(run.ids, seq):
        raise ValueError("run must be the decoder's pass over these ids")
    a = run.attention  # (L, H, 2n, 2n)
    t = np.arange(n, 2 * n)
    later = np.arange(1, 2 * n)
    predicted = run.logits[n : 2 * n - 1].argmax(axis=-1)
    return DecoderHeads(
        ids=seq,
        induction=a[:, :, t, t - n + 1].mean(axis=-1),
        previous=a[:, :, later, later - 1].mean(axis=-1),
        sink=a[:, :, later, 0].mean(axis=-1),
        copied=predicted == seq[n + 1 :],
    )


def token_nll(ids: ArrayLike, allowed: ArrayLike | None = None) -> FloatArray:
    """(T - 1,) each next token's negative log-likelihood (nats), position t predicting token t + 1.

    ``allowed`` is :func:`attnmath.decoder.forward`'s mask (causal when omitted).
    """
    seq = _as_ids(ids)
    logits, _ = _run(load_decoder(), seq, _as_allowed(allowed, len(seq)), keep=False)
    z = logits[:-1].astype(np.float64)
    peak = z.max(axis=-1)
    log_norm = peak + np.log(np.exp(z - peak[:, None]).sum(axis=-1))
    return log_norm - z[np.arange(len(seq) - 1), seq[1:]]


@dataclass(frozen=True)
class WindowNll:
    """Mean NLL per token (nats) of one text under three caches, over the predictions from ``start`` on.

    Attributes
    ----------
    tokens : int
        The text's length in tokens.
    window, sinks, start : int
        The window's length (keys, the query's own included), the sink tokens kept, and the first
        position whose prediction counts.
    full, windowed, with_sinks : float
        Mean NLL with full causal attention, the window alone, and the sinks plus the window.
    losses : ndarray, shape (3, tokens - 1)
        Each prediction's NLL under the three caches in that order, position t predicting token
        t + 1, from the first position on (the means are over ``losses[:, start:]``).
    """

    tokens: int
    window: int
    sinks: int
    start: int
    full: float
    windowed: float
    with_sinks: float
    losses: FloatArray = field(compare=False, repr=False)

    @property
    def perplexities(self) -> tuple[float, float, float]:
        """The exponentials of the three mean NLLs: full, window, sinks + window."""
        return float(np.exp(self.full)), float(np.exp(self.windowed)), float(np.exp(self.with_sinks))


def window_nll(
    text: str | ArrayLike,
    *,
    window: int = 64,
    sinks: int = 4,
    start: int | None = None,
    use_cache: bool = True,
) -> WindowNll:
    """Mean NLL per token of ``text`` under full attention, a sliding window, and sinks plus the window.

    Positions stay absolute (see the module). ``start`` (default ``2 * window``) leaves out
    the first predictions, where the window still holds the first tokens. Three passes over a
    few hundred tokens take seconds, so with ``use_cache`` the means are kept beside the cached
    weights (:func:`~attnmath.decoder_weights.keep_result`, keyed by the tokens, the model and the
    decoder's code) and read back by the next process.

    Raises
    ------
    ValueError
        If the text has more than :data:`MAX_TOKENS` tokens, or no prediction from ``start`` on.
    """
    seq = tokenize(text) if isinstance(text, str) else _as_ids(text)
    window = check_int(window, "window", minimum=1)
    sinks = check_int(sinks, "sinks", minimum=0)
    start = check_int(2 * window if start is None else start, "start", minimum=0)
    if start >= len(seq) - 1:
        raise ValueError(f"start={start} leaves no prediction in a text of {len(seq)} tokens")
    inputs = {"ids": seq.tolist(), "window": window, "sinks": sinks, "start": start}
    kept = kept_result("window-nll", inputs) if use_cache else None
    losses = _kept_losses(kept, len(seq) - 1)
    if losses is None:
        masks = (None, window_mask(len(seq), window), window_mask(len(seq), window, sinks))
        losses = np.stack([token_nll(seq, mask) for mask in masks])
        if use_cache:
            keep_result("window-nll", inputs, {"losses": losses.tolist()})
    full, windowed, with_sinks = (float(row[start:].mean()) for row in losses)
    return WindowNll(len(seq), window, sinks, start, full, windowed, with_sinks, losses)


def _kept_losses(kept: dict[str, object] | None, n: int) -> FloatArray | None:
    """The three rows of losses a kept result holds, or None where it holds no such thing."""
    try:
        losses = np.asarray(kept["losses"], dtype=np.float64) if kept is not None else None
    except (KeyError, TypeError, ValueError):
        return None
    return losses if losses is not None and losses.shape == (3, n) else None


def trailing_mean(x: ArrayLike, width: int) -> FloatArray:
    """(n - width + 1,) the mean of each ``width`` consecutive values, ending at ``x[width - 1]`` onward.

    >>> trailing_mean([1.0, 2.0, 3.0, 5.0], 2).tolist()
    [1.5, 2.5, 4.0]
    """
    values = np.asarray(x, dtype=np.float64)
    width = check_int(width, "width", minimum=1)
    if values.ndim != 1 or len(values) < width:
        raise ValueError(f"trailing_mean needs a 1-D array of at least width={width} values")
    sums = np.cumsum(np.concatenate([[0.0], values]))
    return (sums[width:] - sums[:-width]) / width
