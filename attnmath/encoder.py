r"""A real trained transformer, all-MiniLM-L6-v2, run in numpy: its attention weights, measured.

The model's weights and tokenizer are read by :mod:`attnmath.encoder_weights`
(:func:`load_encoder`, once per process, on first use; ``import attnmath`` does
not read them). Each layer computes

.. math:: A^{(h)} = \mathrm{softmax}\!\big(Q^{(h)} K^{(h)\top} / \sqrt{d_h} + M\big),
          \qquad M_{ij} = \begin{cases} 0 & j \text{ a real token} \\ -\infty & j \text{ padding}\end{cases}

with :func:`attnmath.softmax.softmax`, then
:math:`x \leftarrow \mathrm{LN}(x + [A^{(1)}V^{(1)}, \dots]\,W_O)` and
:math:`x \leftarrow \mathrm{LN}(x + \mathrm{GELU}(x W_1) W_2)` (biases omitted).
The sentence embedding is the mask-weighted mean of the last hidden states,
L2-normalised, as sentence-transformers computes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, overload

import numpy as np
from numpy.typing import NDArray
from scipy.special import erf

from attnmath._validate import FloatArray
from attnmath.encoder_weights import (
    F32,
    MAX_TOKENS,
    MODEL_INSTALL,
    MODEL_PACKAGE,
    MODEL_SHA256,
    Encoder,
    EncoderError,
    EncoderLayer,
    load_encoder,
    model_dir,
)
from attnmath.softmax import softmax

__all__ = [
    # the model's files and weights, from attnmath.encoder_weights
    "MODEL_PACKAGE",
    "MODEL_INSTALL",
    "MODEL_SHA256",
    "MAX_TOKENS",
    "EncoderError",
    "EncoderLayer",
    "Encoder",
    "model_dir",
    "load_encoder",
    # the forward pass
    "EncoderRun",
    "EncoderBatch",
    "encode",
    "encode_words",
    "sentence_embedding",
]

IntArray = NDArray[np.intp]
BoolArray = NDArray[np.bool_]


@dataclass(frozen=True, eq=False)
class EncoderRun:
    """One text through the encoder.

    Attributes
    ----------
    tokens : tuple of str
        Word pieces, ``[CLS]`` first and ``[SEP]`` last.
    ids : ndarray of int, shape (T,)
    mask : ndarray of bool, shape (T,)
        True for real tokens (all of them for a single text).
    word_ids : ndarray of int, shape (T,)
        The word each token belongs to, -1 for ``[CLS]``, ``[SEP]`` and padding: the
        tokenizer's words for :func:`encode`, the given words for :func:`encode_words`.
    hidden : ndarray of float32, shape (L + 1, T, 384)
        The embeddings, then each layer's output.
    attention : ndarray of float64, shape (L, H, T, T)
        Each layer's and head's attention weights; rows are queries, and sum to 1.
    """

    tokens: tuple[str, ...]
    ids: IntArray
    mask: BoolArray
    word_ids: IntArray
    hidden: F32
    attention: FloatArray

    @property
    def special(self) -> BoolArray:
        """(T,) True for ``[CLS]`` and ``[SEP]``."""
        return np.array([t in ("[CLS]", "[SEP]") for t in self.tokens])

    def __len__(self) -> int:
        return len(self.tokens)


@dataclass(frozen=True, eq=False)
class EncoderBatch:
    """Several texts through the encoder at once, padded on the right to the longest.

    Attributes
    ----------
    tokens : tuple of tuple of str
        Each text's tokens, padded with ``[PAD]``.
    ids, mask, word_ids : ndarray, shape (B, T)
        As in :class:`EncoderRun`; ``mask`` is False on padding.
    hidden : ndarray of float32, shape (B, L + 1, T, 384)
    attention : ndarray of float64, shape (B, L, H, T, T)
        Padding keys get weight exactly 0; padding query rows are computed but meaningless.
    """

    tokens: tuple[tuple[str, ...], ...]
    ids: IntArray
    mask: BoolArray
    word_ids: IntArray
    hidden: F32
    attention: FloatArray

    @property
    def lengths(self) -> IntArray:
        """(B,) each text's number of real tokens."""
        return np.asarray(self.mask.sum(axis=1), dtype=np.intp)

    def run(self, b: int) -> EncoderRun:
        """Text ``b``'s real tokens alone, as :func:`encode` would give them."""
        if isinstance(b, bool) or not isinstance(b, (int, np.integer)) or not 0 <= b < len(self.tokens):
            raise ValueError(f"b must be a text index in 0..{len(self.tokens) - 1}, got {b!r}")
        n = int(self.lengths[b])
        return EncoderRun(
            self.tokens[b][:n],
            self.ids[b, :n],
            self.mask[b, :n],
            self.word_ids[b, :n],
            self.hidden[b, :, :n],
            self.attention[b, :, :, :n, :n],
        )


def _layer_norm(x: NDArray[Any], norm: tuple[F32, F32], eps: float) -> F32:
    mean = x.mean(axis=-1, keepdims=True)
    var = np.square(x - mean).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + np.float32(eps)) * norm[0] + norm[1]


def _gelu(x: NDArray[Any]) -> F32:
    """BERT's exact GELU, ``x * Phi(x)``."""
    return 0.5 * x * (1.0 + erf(x / np.float32(np.sqrt(2.0))))


def _forward(enc: Encoder, ids: IntArray, mask: BoolArray) -> tuple[F32, FloatArray]:
    """Hidden states (B, L + 1, T, D) and attention weights (B, L, H, T, T) for padded ids (B, T)."""
    b, t = ids.shape
    h, d = enc.n_heads, enc.d_head
    x = enc.word_embeddings[ids] + enc.position_embeddings[:t] + enc.token_type_embedding  # (B, T, D)
    x = _layer_norm(x, enc.embedding_norm, enc.eps)
    scale = np.float32(np.sqrt(d))
    key_mask = mask[:, None, None, :]  # (B, 1, 1, T): padding keys are masked for every head and query
    hidden, weights = [x], []
    for layer in enc.layers:
        q = (x @ layer.w_q + layer.b_q).reshape(b, t, h, d).transpose(0, 2, 1, 3)  # (B, H, T, d)
        k = (x @ layer.w_k + layer.b_k).reshape(b, t, h, d).transpose(0, 2, 1, 3)  # (B, H, T, d)
        v = (x @ layer.w_v + layer.b_v).reshape(b, t, h, d).transpose(0, 2, 1, 3)  # (B, H, T, d)
        scores = np.where(key_mask, q @ k.transpose(0, 1, 3, 2) / scale, -np.inf)  # (B, H, T, T)
        a = softmax(scores)  # (B, H, T, T), float64; masked keys exactly 0
        heads = a.astype(np.float32) @ v  # (B, H, T, d)
        concat = heads.transpose(0, 2, 1, 3).reshape(b, t, h * d)  # (B, T, D)
        x = _layer_norm(x + concat @ layer.w_o + layer.b_o, layer.norm1, enc.eps)  # (B, T, D)
        ff = _gelu(x @ layer.w_1 + layer.b_1) @ layer.w_2 + layer.b_2  # (B, T, D)
        x = _layer_norm(x + ff, layer.norm2, enc.eps)  # (B, T, D)
        hidden.append(x)
        weights.append(a)
    return np.stack(hidden, axis=1), np.stack(weights, axis=1)


def _check_length(n: int, which: str) -> None:
    if n > MAX_TOKENS:
        raise ValueError(
            f"{which} has {n} tokens (with [CLS] and [SEP]), more than the model's limit of {MAX_TOKENS}"
        )


def _word_ids(encoding: Any) -> list[int]:
    return [-1 if w is None else int(w) for w in encoding.word_ids]


def _run_batch(encodings: Sequence[Any]) -> EncoderBatch:
    enc = load_encoder()
    t = max(len(e.ids) for e in encodings)
    ids = np.zeros((len(encodings), t), dtype=np.intp)  # [PAD] is id 0
    mask = np.zeros((len(encodings), t), dtype=bool)
    word_ids = np.full((len(encodings), t), -1, dtype=np.intp)
    for i, e in enumerate(encodings):
        n = len(e.ids)
        ids[i, :n], mask[i, :n], word_ids[i, :n] = e.ids, True, _word_ids(e)
    hidden, attention = _forward(enc, ids, mask)
    tokens = tuple(tuple(e.tokens) + ("[PAD]",) * (t - len(e.ids)) for e in encodings)
    return EncoderBatch(tokens, ids, mask, word_ids, hidden, attention)


def _encodings(texts: Sequence[str]) -> list[Any]:
    for i, text in enumerate(texts):
        if not isinstance(text, str):
            raise TypeError(f"texts[{i}] must be a str, got {type(text).__name__}")
    encodings = load_encoder().tokenizer.encode_batch(list(texts))
    for i, e in enumerate(encodings):
        _check_length(len(e.ids), f"text {i}" if len(texts) > 1 else "the text")
    return encodings


@overload
def encode(text: str) -> EncoderRun: ...
@overload
def encode(text: list[str] | tuple[str, ...]) -> EncoderBatch: ...
def encode(text: str | list[str] | tuple[str, ...]) -> EncoderRun | EncoderBatch:
    """Run one text, or a padded batch of texts, through all-MiniLM-L6-v2.

    Parameters
    ----------
    text : str or sequence of str
        One text gives an :class:`EncoderRun`; a list or tuple of texts gives an
        :class:`EncoderBatch` padded to its longest text.

    Returns
    -------
    EncoderRun or EncoderBatch

    Raises
    ------
    ValueError
        If a text has more than :data:`MAX_TOKENS` tokens, or the batch is empty.

    Examples
    --------
    >>> run = encode("The cat sat.")
    >>> run.tokens
    ('[CLS]', 'the', 'cat', 'sat', '.', '[SEP]')
    >>> run.hidden.shape, run.attention.shape
    ((7, 6, 384), (6, 12, 6, 6))
    >>> bool(np.allclose(run.attention.sum(axis=-1), 1.0))
    True
    """
    if isinstance(text, str):
        return _run_batch(_encodings([text])).run(0)
    if not isinstance(text, Sequence) or len(text) == 0:
        raise ValueError(f"text must be a str or a non-empty sequence of str, got {text!r}")
    return _run_batch(_encodings(text))


def encode_words(words: Sequence[str]) -> EncoderRun:
    """Run a sentence given as words; ``word_ids`` then index ``words`` (a word may be several pieces).

    Parameters
    ----------
    words : sequence of str
        The sentence's words, e.g. :attr:`attnmath.heads.Sentence.texts`.

    Returns
    -------
    EncoderRun

    Raises
    ------
    ValueError
        If ``words`` is empty or the sentence has more than :data:`MAX_TOKENS` tokens.

    Examples
    --------
    >>> run = encode_words(["Tokenization", "works"])
    >>> run.tokens, run.word_ids.tolist()
    (('[CLS]', 'token', '##ization', 'works', '[SEP]'), [-1, 0, 0, 1, -1])
    """
    if isinstance(words, str) or not isinstance(words, Sequence) or len(words) == 0:
        raise ValueError(f"words must be a non-empty sequence of str, got {words!r}")
    for i, w in enumerate(words):
        if not isinstance(w, str) or not w.strip():
            raise ValueError(f"words[{i}] must be a non-empty str, got {w!r}")
    e = load_encoder().tokenizer.encode(list(words), is_pretokenized=True)
    _check_length(len(e.ids), "the sentence")
    return _run_batch([e]).run(0)


def sentence_embedding(texts: str | Sequence[str]) -> F32:
    """Mean-pooled (mask-weighted), L2-normalised sentence embeddings, as sentence-transformers computes them.

    sentence-transformers truncates texts at 256 tokens for this model; here a text
    of up to :data:`MAX_TOKENS` tokens is used whole (and a longer one refused).

    Parameters
    ----------
    texts : str or sequence of str

    Returns
    -------
    ndarray of float32, shape (B, 384)
        Unit rows; their dot products are cosine similarities.

    Examples
    --------
    >>> e = sentence_embedding(["A man is eating food.", "A man is eating a meal.", "The sky is blue."])
    >>> sims = e @ e.T
    >>> bool(sims[0, 1] > 0.8 > 0.2 > sims[0, 2])
    True
    """
    batch = encode([texts] if isinstance(texts, str) else list(texts))
    last, m = batch.hidden[:, -1], batch.mask[..., None].astype(np.float32)  # (B, T, D), (B, T, 1)
    pooled = (last * m).sum(axis=1) / np.maximum(m.sum(axis=1), 1e-9)  # (B, D)
    return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
