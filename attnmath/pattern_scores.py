r"""One pattern score of trained attention heads, and word pieces pooled into words.

Every score reads attention weights of shape (..., T, T), rows = queries, and
averages over a set of query rows (by default all that apply):

- ``previous`` / ``next`` / ``itself``: mean weight on token :math:`i-1`, :math:`i+1`, :math:`i`;
- ``cls`` / ``sep`` / ``punctuation``: mean weight parked on those tokens (:func:`mass_on`);
- ``distance``: mean attention distance :math:`\sum_j a_{ij} |i - j|`, in tokens;
- ``decay``: overlap :math:`\sum_j \min(a_{ij}, p_{ij})` with the stylised H3 profile
  :math:`p_{ij} \propto e^{-\lambda |i-j|}` (1 when identical, 0 when disjoint);
- ``spread``: effective number of keys :math:`e^{H(a_i)}` over the number of keys (1: uniform);
- ``syntax`` / ``modifiers``: mean weight from an annotated word to the words the stylised
  H2 / H4 of :mod:`attnmath.heads` point it at (verb to subject, preposition to verb; noun to
  its determiners and adjectives), word pieces pooled with the tokenizer's word ids
  (:func:`target_score`).

:func:`word_attention` pools the same way to give whole weight maps between words.
Every head of a sentence is scored, and matched to the stylised heads, in
:mod:`attnmath.head_patterns`.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from attnmath._validate import FloatArray, as_float_array, check_nonnegative
from attnmath.softmax import check_distribution, effective_k

__all__ = [
    "previous_token_score",
    "next_token_score",
    "self_score",
    "mass_on",
    "mean_distance",
    "decay_profile",
    "decay_overlap",
    "spread",
    "target_score",
    "special_tokens",
    "punctuation_tokens",
    "WordAttention",
    "word_attention",
]

BoolArray = NDArray[np.bool_]


def _attention(attention: Any) -> FloatArray:
    a = as_float_array(attention, "attention", min_ndim=2)
    if a.shape[-1] != a.shape[-2] or a.shape[-1] == 0:
        raise ValueError(f"attention must have shape (..., T, T) with T >= 1, got {a.shape}")
    check_nonnegative(a, "attention")
    return a


def _rows(queries: Any, t: int, allowed: BoolArray | None = None, name: str = "queries") -> BoolArray:
    """The query rows to average over, as a (T,) mask; ``allowed`` drops rows where the score is undefined."""
    if queries is None:
        q = np.ones(t, dtype=bool)
    else:
        q = np.asarray(queries)
        if q.dtype != bool or q.shape != (t,):
            raise ValueError(f"{name} must be a boolean mask of shape ({t},), got {q.dtype} {q.shape}")
    if allowed is not None:
        q = q & allowed
    if not q.any():
        raise ValueError(f"{name} selects no row where this score is defined")
    return q


def _keys(keys: Any, t: int) -> BoolArray:
    k = np.asarray(keys)
    if k.dtype == bool:
        if k.shape != (t,):
            raise ValueError(f"keys must be a boolean mask of shape ({t},), got {k.shape}")
        return k
    if k.dtype.kind not in "iu" or k.ndim > 1 or np.any((k < 0) | (k >= t)):
        raise ValueError(f"keys must be a boolean mask of shape ({t},) or token indices in 0..{t - 1}")
    mask = np.zeros(t, dtype=bool)
    mask[k] = True
    return mask


def _offset_score(attention: Any, offset: int, queries: Any) -> FloatArray:
    a = _attention(attention)
    t = a.shape[-1]
    i = np.arange(t)
    rows = np.flatnonzero(_rows(queries, t, (i + offset >= 0) & (i + offset < t)))
    return np.asarray(a[..., rows, rows + offset].mean(axis=-1))  # (...)


def previous_token_score(attention: Any, queries: Any = None) -> FloatArray:
    """Mean weight a query puts on the token just before it.

    Parameters
    ----------
    attention : array_like, shape (..., T, T)
        Attention weights, rows = queries.
    queries : array_like of bool, shape (T,), optional
        Rows to average over; row 0 (which has no previous token) never counts.

    Returns
    -------
    ndarray, shape (...)

    Examples
    --------
    >>> previous_token_score(np.eye(4, k=-1))  # row 0 has no previous token: left out
    array(1.)
    """
    return _offset_score(attention, -1, queries)


def next_token_score(attention: Any, queries: Any = None) -> FloatArray:
    """Mean weight a query puts on the token just after it (the last row never counts).

    Examples
    --------
    >>> next_token_score(np.eye(3, k=1))
    array(1.)
    """
    return _offset_score(attention, 1, queries)


def self_score(attention: Any, queries: Any = None) -> FloatArray:
    """Mean weight a query puts on itself.

    Examples
    --------
    >>> self_score(np.full((2, 4, 4), 0.25))
    array([0.25, 0.25])
    """
    return _offset_score(attention, 0, queries)


def mass_on(attention: Any, keys: Any, queries: Any = None) -> FloatArray:
    """Mean total weight the queries put on a set of keys (e.g. ``[CLS]``, ``[SEP]``, punctuation).

    Parameters
    ----------
    attention : array_like, shape (..., T, T)
    keys : array_like
        A (T,) boolean mask or token indices.
    queries : array_like of bool, shape (T,), optional

    Returns
    -------
    ndarray, shape (...)

    Examples
    --------
    >>> a = np.array([[0.5, 0.5, 0.0], [1.0, 0.0, 0.0], [0.0, 0.5, 0.5]])
    >>> float(mass_on(a, [0]))
    0.5
    """
    a = _attention(attention)
    k = _keys(keys, a.shape[-1])
    q = _rows(queries, a.shape[-1])
    return np.asarray(a[..., q, :][..., k].sum(axis=-1).mean(axis=-1))


def mean_distance(attention: Any, queries: Any = None) -> FloatArray:
    r"""Mean attention distance :math:`\sum_j a_{ij}|i - j|`, in tokens, averaged over queries.

    Examples
    --------
    >>> float(mean_distance(np.eye(5, k=-2), queries=np.arange(5) >= 2))  # two tokens back
    2.0
    """
    a = _attention(attention)
    t = a.shape[-1]
    q = _rows(queries, t)
    dist = np.abs(np.arange(t)[:, None] - np.arange(t)[None, :])  # (T, T)
    return np.asarray((a * dist).sum(axis=-1)[..., q].mean(axis=-1))


def decay_profile(t: int, decay: float, keys: Any = None) -> FloatArray:
    r"""(T, T) rows :math:`\propto e^{-\lambda|i-j|}` over ``keys``: the stylised H3 without a causal mask."""
    k = np.ones(t, dtype=bool) if keys is None else _keys(keys, t)
    dist = np.abs(np.arange(t)[:, None] - np.arange(t)[None, :])  # (T, T)
    w = np.where(k[None, :], np.exp(-decay * dist), 0.0)  # (T, T)
    return w / w.sum(axis=-1, keepdims=True)


def decay_overlap(attention: Any, decay: float = 0.7, queries: Any = None, keys: Any = None) -> FloatArray:
    r"""Overlap of each row with the distance-decay profile, :math:`\sum_j \min(a_{ij}, p_{ij})`.

    :math:`p_{ij} \propto e^{-\lambda |i-j|}` over ``keys`` is H3's profile in
    :mod:`attnmath.heads` (ALiBi with slope ``decay``), without its causal mask. The
    overlap is one minus the total variation distance: 1 for that very profile, 0 for
    weight entirely elsewhere.

    Parameters
    ----------
    attention : array_like, shape (..., T, T)
    decay : float
        :math:`\lambda > 0`.
    queries : array_like of bool, shape (T,), optional
    keys : array_like, optional
        Keys the profile spreads over (mask or indices); all by default.

    Returns
    -------
    ndarray, shape (...)

    Examples
    --------
    >>> float(decay_overlap(decay_profile(6, 0.7)))
    1.0
    >>> round(float(decay_overlap(np.eye(6))), 3)  # a self head shares only the diagonal
    0.436
    """
    a = _attention(attention)
    if not np.isfinite(decay) or decay <= 0:
        raise ValueError(f"decay must be finite and > 0, got {decay!r}")
    t = a.shape[-1]
    q = _rows(queries, t)
    p = decay_profile(t, float(decay), keys)  # (T, T)
    return np.asarray(np.minimum(a, p).sum(axis=-1)[..., q].mean(axis=-1))


def spread(attention: Any, queries: Any = None) -> FloatArray:
    r"""Effective number of keys :math:`e^{H(a_i)}` over the number of keys T, averaged over queries.

    1 for uniform rows, :math:`1/T` for one-hot rows. Rows must be distributions.

    Examples
    --------
    >>> float(spread(np.full((4, 4), 0.25))), float(spread(np.eye(4)))
    (1.0, 0.25)
    """
    a = check_distribution(_attention(attention), "attention")
    q = _rows(queries, a.shape[-1])
    return np.asarray((effective_k(a) / a.shape[-1])[..., q].mean(axis=-1))


def _word_ids_of(word_ids: Any, t: int) -> tuple[NDArray[np.intp], int]:
    """``word_ids`` checked against T tokens, and the number of words (every word has a token)."""
    ids = np.asarray(word_ids)
    if ids.dtype.kind not in "iu" or ids.shape != (t,):
        raise ValueError(f"word_ids must be integers of shape ({t},), got {ids.dtype} {ids.shape}")
    n_words = int(ids.max()) + 1
    if n_words < 1:
        raise ValueError("word_ids marks no token as part of a word")
    missing = sorted(set(range(n_words)) - set(ids[ids >= 0].tolist()))
    if missing:
        raise ValueError(f"word_ids has no token for word(s) {missing}")
    return ids.astype(np.intp), n_words


def target_score(attention: Any, word_ids: Any, targets: Any) -> FloatArray:
    """Mean weight from annotated words to their target words, word pieces pooled.

    For each word with at least one target, each of its tokens' total weight on the
    tokens of its target words is averaged over the word's tokens; the result is the
    mean over those words.

    Parameters
    ----------
    attention : array_like, shape (..., T, T)
    word_ids : array_like of int, shape (T,)
        The word each token belongs to; -1 for tokens of no word ([CLS], [SEP], padding).
    targets : array_like of bool, shape (W, W)
        ``targets[w, v]``: word w should attend to word v; rows with no True are skipped.

    Returns
    -------
    ndarray, shape (...)

    Raises
    ------
    ValueError
        If no word has a target, or ``word_ids`` and ``targets`` disagree on the number of words.

    Examples
    --------
    >>> a = np.array([[1, 0, 0], [0.8, 0.2, 0.0], [0.1, 0.3, 0.6]])  # tokens 1 and 2 are word 1's pieces
    >>> float(target_score(a, [0, 1, 1], np.array([[False, False], [True, False]])))
    0.45
    """
    a = _attention(attention)
    ids, n_words = _word_ids_of(word_ids, a.shape[-1])
    tg = np.asarray(targets)
    if tg.dtype != bool or tg.ndim != 2 or tg.shape != (n_words, n_words):
        raise ValueError(
            f"targets must be a boolean (W, W) matrix with W = {n_words} words (from word_ids), "
            f"got {tg.dtype} {tg.shape}"
        )
    sources = np.flatnonzero(tg.any(axis=1))
    if sources.size == 0:
        raise ValueError("targets has no word with a target")
    per_word = []
    for w in sources:
        keys = np.isin(ids, np.flatnonzero(tg[w])) & (ids >= 0)  # (T,) the target words' tokens
        per_word.append(a[..., ids == w, :][..., keys].sum(axis=-1).mean(axis=-1))  # (...)
    return np.asarray(np.mean(per_word, axis=0))


def special_tokens(tokens: Sequence[str]) -> BoolArray:
    """(T,) True for ``[CLS]`` and ``[SEP]``."""
    return np.array([tok in ("[CLS]", "[SEP]") for tok in tokens], dtype=bool)


def punctuation_tokens(tokens: Sequence[str]) -> BoolArray:
    """(T,) True for tokens made only of punctuation characters (Unicode category P), e.g. ``.`` or ``'``.

    Examples
    --------
    >>> punctuation_tokens(["[CLS]", "it", "'", "s", "!", "[SEP]"]).tolist()
    [False, False, True, False, True, False]
    """
    marks = [bool(tok) and all(unicodedata.category(c).startswith("P") for c in tok) for tok in tokens]
    return np.array(marks, dtype=bool)


@dataclass(frozen=True, eq=False)
class WordAttention:
    """Attention between words: word pieces pooled as :func:`target_score` pools them.

    Attributes
    ----------
    queries : tuple of str
        The W words, in order: the rows.
    keys : tuple of str
        The K columns in token order: each word once, and each token of no word
        (``[CLS]``, ``[SEP]``) on its own, e.g. ``("[CLS]", *words, "[SEP]")``.
    weights : ndarray, shape (..., W, K)
        ``weights[..., w, k]``: the mean over word w's tokens of their total weight on
        key k's tokens. Rows of distributions stay distributions.
    """

    queries: tuple[str, ...]
    keys: tuple[str, ...]
    weights: FloatArray


def word_attention(
    attention: Any, tokens: Sequence[str], word_ids: Any, words: Sequence[str] | None = None
) -> WordAttention:
    """Pool token attention (..., T, T) into word attention (..., W, K).

    Parameters
    ----------
    attention : array_like, shape (..., T, T)
        E.g. :attr:`attnmath.encoder.EncoderRun.attention`, rows = queries.
    tokens : sequence of str, length T
    word_ids : array_like of int, shape (T,)
        The word each token belongs to; -1 for tokens of no word.
    words : sequence of str, optional
        The words' labels (e.g. the sentence given to :func:`attnmath.encoder.encode_words`);
        by default each word's pieces joined, without ``##``.

    Returns
    -------
    WordAttention

    Examples
    --------
    >>> a = np.array([[1.0, 0, 0, 0], [0.1, 0.2, 0.3, 0.4], [0.3, 0.3, 0.2, 0.2], [0, 0, 0, 1.0]])
    >>> w = word_attention(a, ["[CLS]", "token", "##ization", "[SEP]"], [-1, 0, 0, -1])
    >>> w.queries, w.keys, w.weights.round(2).tolist()
    (('tokenization',), ('[CLS]', 'tokenization', '[SEP]'), [[0.2, 0.5, 0.3]])
    """
    a = _attention(attention)
    t = a.shape[-1]
    if len(tokens) != t:
        raise ValueError(f"tokens has {len(tokens)} entries for attention over {t} tokens")
    ids, n_words = _word_ids_of(word_ids, t)
    if words is None:
        words = [
            "".join(tok.removeprefix("##") for tok, i in zip(tokens, ids, strict=True) if i == w)
            for w in range(n_words)
        ]
    elif len(words) != n_words:
        raise ValueError(f"words has {len(words)} entries, word_ids {n_words} words")
    labels, groups, seen = [], [], set()
    for j, w in enumerate(ids.tolist()):
        if w < 0:
            labels.append(tokens[j])
            groups.append(np.arange(t) == j)
        elif w not in seen:
            seen.add(w)
            labels.append(words[w])
            groups.append(ids == w)
    key_groups = np.stack(groups).T.astype(float)  # (T, K)
    of_word = (ids[None, :] == np.arange(n_words)[:, None]).astype(float)  # (W, T)
    query_mean = of_word / of_word.sum(axis=1, keepdims=True)  # (W, T), each word's tokens averaged
    return WordAttention(
        tuple(words), tuple(labels), np.asarray(query_mean @ (a @ key_groups))
    )  # (..., W, K)
