r"""A real trained decoder, SmolLM2-135M-Instruct, run in numpy: causal attention, its KV cache, measured.

The model's weights and tokenizer are read by :mod:`attnmath.decoder_weights`
(:func:`load_decoder`, once per process, on first use; ``import attnmath`` does
not read them). Each of the 30 layers computes, for query head h and its
key-value head :math:`g = \lfloor h / 3 \rfloor` (grouped-query attention),

.. math:: A^{(h)} = \mathrm{softmax}\!\big(R(Q^{(h)}) R(K^{(g)})^\top / \sqrt{64} + M\big),
          \qquad M_{tj} = \begin{cases} 0 & j \le t \text{ (and allowed)} \\
          -\infty & \text{otherwise}\end{cases}

with :func:`attnmath.softmax.softmax` and RoPE :math:`R` (base 100000) rotating
adjacent pairs of dimensions by angles proportional to each token's absolute
position; then :math:`x \leftarrow x + [A^{(1)}V^{(1)}, \dots]\,W_O` and
:math:`x \leftarrow x + (\mathrm{SiLU}(n W_g) \odot n W_u) W_d`, each block
reading an RMSNorm :math:`n` of :math:`x`. The logits are the final RMSNorm of
:math:`x` times the (tied) embedding matrix. No BOS token is added: the model's
tokenizer does not add one.

:func:`forward` runs a whole text at once;
:class:`attnmath.decoder_cache.IncrementalDecoder` runs it a token at a time, keeping
each layer's keys and values in a real KV cache.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import expit

from attnmath._validate import FloatArray, check_int
from attnmath.decoder_weights import (
    D_HEAD,
    F32,
    MAX_TOKENS,
    N_KV_HEADS,
    N_LAYERS,
    Decoder,
    DecoderLayer,
    load_decoder,
)
from attnmath.kvcache import kv_cache_bytes
from attnmath.positions import causal_mask  # the same mask the lecture draws (re-exported)
from attnmath.softmax import softmax

__all__ = [
    "DecoderRun",
    "tokenize",
    "detokenize",
    "token_texts",
    "causal_mask",
    "window_mask",
    "forward",
    "greedy_next_token",
    "cache_bytes",
]

IntArray = NDArray[np.intp]
BoolArray = NDArray[np.bool_]


@dataclass(frozen=True, eq=False)
class DecoderRun:
    """One text through the decoder, every position at once.

    Attributes
    ----------
    ids : ndarray of int, shape (T,)
    logits : ndarray of float32, shape (T, 49152)
        Row t scores the token after position t.
    attention : ndarray of float64, shape (30, 9, T, T)
        Each layer's and query head's weights; rows are queries, sum to 1, and are 0 on future keys.
    queries : ndarray of float32, shape (30, 9, T, 64)
        Each layer's queries, rotated (RoPE).
    keys, values : ndarray of float32, shape (30, 3, T, 64)
        Each layer's keys (rotated) and values: what a KV cache holds after the text.
    hidden : ndarray of float32, shape (31, T, 576)
        The embeddings, then each layer's output (the residual stream).
    """

    ids: IntArray
    logits: F32
    attention: FloatArray
    queries: F32
    keys: F32
    values: F32
    hidden: F32

    def __len__(self) -> int:
        return len(self.ids)


def _check_length(n: int) -> None:
    if n > MAX_TOKENS:
        raise ValueError(
            f"the text has {n} tokens, more than the {MAX_TOKENS} the lecture's decoder runs "
            f"(attnmath.decoder_weights.MAX_TOKENS); shorten it"
        )


def tokenize(text: str) -> IntArray:
    """The token ids of ``text`` (no BOS is added: the model's tokenizer adds none).

    Raises
    ------
    ValueError
        If the text is empty or has more than :data:`MAX_TOKENS` tokens.

    Examples
    --------
    >>> token_texts(tokenize("One, two, 2024"))
    ('One', ',', ' two', ',', ' ', '2', '0', '2', '4')
    """
    if not isinstance(text, str) or not text:
        raise ValueError(f"text must be a non-empty str, got {text!r}")
    ids = np.array(load_decoder().tokenizer.encode(text).ids, dtype=np.intp)
    _check_length(len(ids))
    return ids


def _as_ids(ids: ArrayLike) -> IntArray:
    arr = np.asarray(ids)
    if arr.ndim != 1 or arr.size == 0 or arr.dtype.kind not in "iu":
        raise ValueError(f"ids must be a non-empty 1-d array of token ids, got {arr.dtype} {arr.shape}")
    vocab = load_decoder().vocab_size
    if arr.min() < 0 or arr.max() >= vocab:
        raise ValueError(f"token ids must lie in 0..{vocab - 1}")
    _check_length(len(arr))
    return arr.astype(np.intp)


def detokenize(ids: ArrayLike) -> str:
    """The text of token ids (control tokens such as ``<|im_end|>`` left out)."""
    return str(load_decoder().tokenizer.decode(_as_ids(ids).tolist()))


def token_texts(ids: ArrayLike) -> tuple[str, ...]:
    """Each token's own text, e.g. ``' Paris'`` (a character split over two tokens shows as U+FFFD)."""
    tokenizer = load_decoder().tokenizer
    return tuple(tokenizer.decode([i], skip_special_tokens=False) for i in _as_ids(ids).tolist())


def window_mask(n: int, window: int, sinks: int = 0) -> BoolArray:
    """(n, n) a sliding window of the last ``window`` keys (the query's own too), and the first ``sinks``.

    This is what a cache that evicts its oldest tokens keeps (StreamingLLM's cache with
    ``sinks`` > 0). Used as :func:`forward`'s ``allowed``, every token keeps its absolute
    position: the window is a mask, the rotary angles are not renumbered.

    Examples
    --------
    >>> window_mask(5, 2, sinks=1).astype(int)
    array([[1, 0, 0, 0, 0],
           [1, 1, 0, 0, 0],
           [1, 1, 1, 0, 0],
           [1, 0, 1, 1, 0],
           [1, 0, 0, 1, 1]])
    """
    n = check_int(n, "n", minimum=1)
    window = check_int(window, "window", minimum=1)
    sinks = check_int(sinks, "sinks", minimum=0)
    t, j = np.arange(n)[:, None], np.arange(n)[None, :]
    return (j <= t) & ((t - j < window) | (j < sinks))


def _rms_norm(x: F32, gain: F32, eps: float) -> F32:
    return x / np.sqrt(np.mean(np.square(x), axis=-1, keepdims=True) + np.float32(eps)) * gain


@functools.cache
def _rotary_table(base: float, d: int) -> tuple[F32, F32]:
    """The cosine and sine, (MAX_TOKENS, d / 2), of RoPE's angle ``position * base ** (-2 i / d)``."""
    angles = np.arange(MAX_TOKENS)[:, None] * base ** (-np.arange(0, d, 2) / d)  # float64
    return np.cos(angles).astype(np.float32), np.sin(angles).astype(np.float32)


def _rotary(x: F32, positions: IntArray, base: float) -> F32:
    """RoPE on adjacent pairs (x0, x1), (x2, x3), ... of the last axis; ``x`` is (..., T, 64)."""
    cos_table, sin_table = _rotary_table(base, x.shape[-1])
    cos, sin = cos_table[positions], sin_table[positions]
    even, odd = x[..., 0::2], x[..., 1::2]
    out = np.empty_like(x)
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = even * sin + odd * cos
    return out


def _feed_forward(x: F32, layer: DecoderLayer, eps: float) -> F32:
    gate, up = np.split(_rms_norm(x, layer.ffn_norm, eps) @ layer.w_gate_up, 2, axis=-1)
    return x + (gate * expit(gate) * up) @ layer.w_down


def _project(dec: Decoder, layer: DecoderLayer, x: F32, positions: IntArray) -> tuple[F32, F32, F32]:
    """Rotated queries (H, T, d), rotated keys (G, T, d) and values (G, T, d) of hidden states (T, D)."""
    n = _rms_norm(x, layer.attn_norm, dec.eps)
    heads = (n @ layer.w_qkv).reshape(len(x), dec.n_heads + 2 * dec.n_kv_heads, dec.d_head)
    q, k, v = np.split(heads.transpose(1, 0, 2), [dec.n_heads, dec.n_heads + dec.n_kv_heads])
    return _rotary(q, positions, dec.rope_base), _rotary(k, positions, dec.rope_base), v


def _attend(q: F32, k: F32, v: F32, allowed: BoolArray) -> tuple[FloatArray, F32]:
    """Weights (H, Tq, Tk) and head outputs (Tq, H * d), query head h reading key-value head h // (H / G)."""
    h, tq, d = q.shape
    g = k.shape[0]
    grouped = q.reshape(g, h // g, tq, d)  # query heads 3g, 3g+1, 3g+2 share key-value head g
    scores = grouped @ k[:, None].transpose(0, 1, 3, 2) / np.float32(np.sqrt(d))  # (G, H/G, Tq, Tk)
    a = softmax(np.where(allowed, scores, -np.inf)).reshape(h, tq, -1)  # float64; masked keys exactly 0
    out = a.reshape(g, h // g, tq, -1).astype(np.float32) @ v[:, None]  # (G, H/G, Tq, d)
    return a, out.reshape(h, tq, d).transpose(1, 0, 2).reshape(tq, h * d)


def _as_allowed(allowed: ArrayLike | None, n: int) -> BoolArray:
    causal = causal_mask(n)
    if allowed is None:
        return causal
    mask = np.asarray(allowed)
    if mask.dtype.kind != "b" or mask.shape != (n, n):
        raise ValueError(f"allowed must be a ({n}, {n}) boolean array, got {mask.dtype} {mask.shape}")
    if not mask.diagonal().all():
        raise ValueError("allowed must let every token attend to itself (its diagonal all True)")
    return causal & mask


def _run(dec: Decoder, ids: IntArray, allowed: BoolArray, keep: bool) -> tuple[F32, list[Any]]:
    """Logits (T, V) and, when ``keep``, each layer's (attention, q, k, v, output)."""
    positions = np.arange(len(ids))  # absolute positions, whatever the mask
    x = dec.embeddings[ids]
    kept: list[Any] = [x] if keep else []
    for layer in dec.layers:
        q, k, v = _project(dec, layer, x, positions)
        a, heads = _attend(q, k, v, allowed)
        x = _feed_forward(x + heads @ layer.w_o, layer, dec.eps)
        if keep:
            kept.append((a, q, k, v, x))
    return _rms_norm(x, dec.output_norm, dec.eps) @ dec.embeddings.T, kept


def forward(text: str | ArrayLike, *, allowed: ArrayLike | None = None) -> DecoderRun:
    """Run a text (or its token ids) through SmolLM2-135M-Instruct with causal attention.

    Parameters
    ----------
    text : str or array_like of int
        A text (tokenized with :func:`tokenize`) or token ids.
    allowed : array_like of bool, shape (T, T), optional
        Which keys each query may attend to, on top of the causal mask (e.g.
        :func:`window_mask`); its diagonal must be True. Positions stay absolute.

    Returns
    -------
    DecoderRun

    Raises
    ------
    ValueError
        If the text has more than :data:`MAX_TOKENS` tokens, or ``allowed`` is not a (T, T) mask.

    Examples
    --------
    >>> run = forward("The capital of France is")
    >>> run.attention.shape, run.keys.shape, run.logits.shape
    ((30, 9, 5, 5), (30, 3, 5, 64), (5, 49152))
    >>> token_texts([int(run.logits[-1].argmax())])
    (' Paris',)
    """
    ids = tokenize(text) if isinstance(text, str) else _as_ids(text)
    logits, kept = _run(load_decoder(), ids, _as_allowed(allowed, len(ids)), keep=True)
    layers = kept[1:]
    return DecoderRun(
        ids=ids,
        logits=logits,
        attention=np.stack([a for a, *_ in layers]),
        queries=np.stack([q for _, q, *_ in layers]),
        keys=np.stack([k for *_, k, _, _ in layers]),
        values=np.stack([v for *_, v, _ in layers]),
        hidden=np.stack([kept[0], *(x for *_, x in layers)]),
    )


def greedy_next_token(text: str) -> str:
    """The model's most likely next token after ``text``, as text.

    Examples
    --------
    >>> greedy_next_token("The cat sat on the mat. The dog sat on the")
    ' mat'
    """
    dec = load_decoder()
    ids = tokenize(text)
    logits, _ = _run(dec, ids, causal_mask(len(ids)), keep=False)
    return token_texts([int(np.argmax(logits[-1]))])[0]


def cache_bytes(n_tokens: int = 1, *, bytes_per_element: int = 2, n_kv_heads: int = N_KV_HEADS) -> int:
    """Bytes of SmolLM2-135M's KV cache for ``n_tokens``: 30 layers x 2 x key-value heads x 64 x bytes.

    ``n_kv_heads=9`` gives the cache the model would need without grouped-query attention
    (one key-value head per query head).

    Examples
    --------
    >>> cache_bytes(), cache_bytes(n_kv_heads=9)  # fp16, per token
    (23040, 69120)
    """
    return kv_cache_bytes(N_LAYERS, n_kv_heads, D_HEAD, n_tokens, bytes_per_element=bytes_per_element)
