r"""What trained attention heads do: pattern scores per head, and the real head nearest each stylised one.

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
  its determiners and adjectives), word pieces pooled with the tokenizer's word ids.

Each of the lecture's four stylised heads is then paired with the real head that
scores highest on its pattern (:func:`match_stylised`); it counts as a match only
when that score reaches :data:`MATCH_THRESHOLD`. Nothing assumes a match exists.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from attnmath._validate import FloatArray, as_float_array, check_nonnegative
from attnmath.heads import DEFAULT_SENTENCE, HEAD_NAMES, Sentence, stylized_heads
from attnmath.softmax import check_distribution, effective_k

__all__ = [
    "MATCH_THRESHOLD",
    "SINK_THRESHOLD",
    "STYLISED_SCORES",
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
    "HeadScores",
    "head_scores",
    "HeadMatch",
    "match_stylised",
    "AttentionSink",
    "attention_sink",
    "RealHeads",
    "real_heads",
]

BoolArray = NDArray[np.bool_]

MATCH_THRESHOLD = 0.5
"""A real head matches a stylised one when it puts at least half its weight where the stylised head looks
(for H3: when its rows overlap the decay profile by at least half)."""

SINK_THRESHOLD = 0.5
"""An attention sink: a head that parks at least half of the words' weight on one special token."""

STYLISED_SCORES = ("previous", "syntax", "decay", "modifiers")
"""The :class:`HeadScores` field that measures each stylised head H1..H4's pattern."""


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
    t = a.shape[-1]
    ids = np.asarray(word_ids)
    if ids.dtype.kind not in "iu" or ids.shape != (t,):
        raise ValueError(f"word_ids must be integers of shape ({t},), got {ids.dtype} {ids.shape}")
    tg = np.asarray(targets)
    n_words = int(ids.max()) + 1
    if tg.dtype != bool or tg.ndim != 2 or tg.shape != (n_words, n_words):
        raise ValueError(
            f"targets must be a boolean (W, W) matrix with W = {n_words} words (from word_ids), "
            f"got {tg.dtype} {tg.shape}"
        )
    missing = sorted(set(range(n_words)) - set(ids[ids >= 0].tolist()))
    if missing:
        raise ValueError(f"word_ids has no token for word(s) {missing}")
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
class HeadScores:
    """Every pattern score of every head for one sentence; each score is an (L, H) array.

    Queries are the sentence's word tokens ([CLS] and [SEP] rows are left out).

    Attributes
    ----------
    tokens : tuple of str
    previous, next, itself : ndarray, shape (L, H)
        Mean weight on the previous, next and same token (``previous`` counts only
        queries whose previous token is a word token, so a [CLS] sink earns nothing).
    cls, sep, punctuation : ndarray, shape (L, H)
        Mean weight parked on [CLS], on [SEP], on punctuation tokens (0 when there is none).
    distance : ndarray, shape (L, H)
        Mean attention distance in tokens.
    decay : ndarray, shape (L, H)
        Overlap with the stylised H3 profile over the word tokens.
    spread : ndarray, shape (L, H)
        Effective number of keys over the number of tokens.
    syntax, modifiers : ndarray, shape (L, H), or None
        Weight on the stylised H2 / H4 targets; None without an annotated sentence.
    """

    tokens: tuple[str, ...]
    previous: FloatArray
    next: FloatArray
    itself: FloatArray
    cls: FloatArray
    sep: FloatArray
    punctuation: FloatArray
    distance: FloatArray
    decay: FloatArray
    spread: FloatArray
    syntax: FloatArray | None
    modifiers: FloatArray | None


def head_scores(
    attention: Any,
    tokens: Sequence[str],
    word_ids: Any,
    sentence: Sentence | None = None,
    *,
    decay: float = 0.7,
) -> HeadScores:
    """Score every head of one sentence's attention on every pattern.

    Parameters
    ----------
    attention : array_like, shape (L, H, T, T)
        E.g. :attr:`attnmath.encoder.EncoderRun.attention`.
    tokens : sequence of str, length T
    word_ids : array_like of int, shape (T,)
        Word index per token, -1 for special tokens.
    sentence : Sentence, optional
        The annotated words (``word_ids`` index them): gives the ``syntax`` and
        ``modifiers`` scores, from the targets of :func:`attnmath.heads.stylized_heads`.
    decay : float
        The H3 profile's slope, as in :func:`attnmath.heads.stylized_heads`.

    Returns
    -------
    HeadScores

    Examples
    --------
    >>> a = np.eye(5, k=-1); a[0, 0] = 1.0  # each token on the one before it; [CLS] on itself
    >>> tokens, word_ids = ["[CLS]", "a", "b", "c", "[SEP]"], [-1, 0, 1, 2, -1]
    >>> s = head_scores(np.broadcast_to(a, (1, 2, 5, 5)), tokens, word_ids)
    >>> s.previous, s.cls
    (array([[1., 1.]]), array([[0.33333333, 0.33333333]]))
    """
    a = _attention(attention)
    if a.ndim != 4:
        raise ValueError(f"attention must have shape (L, H, T, T), got {a.shape}")
    t = a.shape[-1]
    if len(tokens) != t:
        raise ValueError(f"tokens has {len(tokens)} entries for attention over {t} tokens")
    ids = np.asarray(word_ids)
    if ids.dtype.kind not in "iu" or ids.shape != (t,):
        raise ValueError(f"word_ids must be integers of shape ({t},), got {ids.dtype} {ids.shape}")
    words = ids >= 0
    if not words.any():
        raise ValueError("word_ids marks no token as part of a word")
    special, punct = special_tokens(tokens), punctuation_tokens(tokens)
    after_word = np.concatenate([[False], words[:-1]]) & words  # the previous token is a word token too
    before_word = np.concatenate([words[1:], [False]]) & words  # the next token is a word token too
    none = np.zeros(a.shape[:2])
    syntax = modifiers = None
    if sentence is not None:
        if not isinstance(sentence, Sentence):
            raise TypeError(f"sentence must be a Sentence, got {type(sentence).__name__}")
        if int(ids.max()) + 1 != len(sentence):
            raise ValueError(f"word_ids has {int(ids.max()) + 1} words, the sentence {len(sentence)}")
        targets = stylized_heads(sentence).targets  # (4, W, W); a row pointing only at itself: no annotation
        annotated = targets & ~np.eye(len(sentence), dtype=bool)
        syntax = target_score(a, ids, targets[1] & annotated[1].any(axis=1)[:, None])
        modifiers = target_score(a, ids, targets[3] & annotated[3].any(axis=1)[:, None])
    return HeadScores(
        tokens=tuple(tokens),
        previous=previous_token_score(a, after_word) if after_word.any() else none,
        next=next_token_score(a, before_word) if before_word.any() else none,
        itself=self_score(a, words),
        cls=mass_on(a, np.array([tok == "[CLS]" for tok in tokens]), words),
        sep=mass_on(a, np.array([tok == "[SEP]" for tok in tokens]), words),
        punctuation=mass_on(a, punct, words) if punct.any() else none,
        distance=mean_distance(a, words),
        decay=decay_overlap(a, decay, words, words & ~special),
        spread=spread(a, words),
        syntax=syntax,
        modifiers=modifiers,
    )


@dataclass(frozen=True)
class HeadMatch:
    """The real head that best shows one stylised head's pattern.

    Attributes
    ----------
    stylised : str
        ``"H1"`` .. ``"H4"``.
    name : str
        What the stylised head does (:data:`attnmath.heads.HEAD_NAMES`).
    score_name : str
        The :class:`HeadScores` field compared.
    layer, head : int
        The best real head, 0-based.
    score : float
        Its score.
    threshold : float
    matched : bool
        ``score >= threshold``.
    previous : float
        The same head's previous-token score: when it is high too, adjacency alone may
        explain an H2 or H4 match (subjects and modifiers often sit just before their word).
    """

    stylised: str
    name: str
    score_name: str
    layer: int
    head: int
    score: float
    threshold: float
    matched: bool
    previous: float


def match_stylised(scores: HeadScores, threshold: float = MATCH_THRESHOLD) -> tuple[HeadMatch, ...]:
    """For each stylised head H1..H4, the real head with the highest score on its pattern.

    H2 and H4 need annotated scores (``head_scores(..., sentence=...)``) and are left
    out otherwise.

    Parameters
    ----------
    scores : HeadScores
    threshold : float
        The score a match needs, in [0, 1].

    Returns
    -------
    tuple of HeadMatch

    Examples
    --------
    >>> a = np.eye(5, k=-1); a[0, 0] = 1.0
    >>> tokens, word_ids = ["[CLS]", "a", "b", "c", "[SEP]"], [-1, 0, 1, 2, -1]
    >>> scores = head_scores(np.broadcast_to(a, (1, 2, 5, 5)), tokens, word_ids)
    >>> best = match_stylised(scores)[0]
    >>> best.stylised, best.score, best.matched
    ('H1', 1.0, True)
    """
    if not isinstance(scores, HeadScores):
        raise TypeError(f"scores must be HeadScores, got {type(scores).__name__}")
    if not 0.0 <= threshold <= 1.0:
        raise ValueError(f"threshold must be in [0, 1], got {threshold!r}")
    found = []
    for h, field in enumerate(STYLISED_SCORES):
        values = getattr(scores, field)
        if values is None:
            continue
        layer, head = np.unravel_index(int(np.argmax(values)), values.shape)
        best = float(values[layer, head])
        prev = float(scores.previous[layer, head])
        match = HeadMatch(
            f"H{h + 1}", HEAD_NAMES[h], field, int(layer), int(head), best, threshold, best >= threshold, prev
        )
        found.append(match)
    return tuple(found)


@dataclass(frozen=True)
class AttentionSink:
    """The head that parks the most weight on one special token.

    Attributes
    ----------
    token : str
        ``"[CLS]"`` or ``"[SEP]"``.
    layer, head : int
        0-based.
    weight : float
        Mean weight the words put on ``token`` in that head.
    mean_weight : float
        Mean over every head of the weight on ``token``.
    threshold : float
    is_sink : bool
        ``weight >= threshold``.
    """

    token: str
    layer: int
    head: int
    weight: float
    mean_weight: float
    threshold: float
    is_sink: bool


def attention_sink(scores: HeadScores, threshold: float = SINK_THRESHOLD) -> AttentionSink:
    """The largest mean weight any head parks on one special token ([CLS] or [SEP]).

    Examples
    --------
    >>> a = np.zeros((2, 3, 5, 5)); a[..., 0] = 1.0  # every query on [CLS]
    >>> sink = attention_sink(head_scores(a, ["[CLS]", "a", "b", "c", "[SEP]"], [-1, 0, 1, 2, -1]))
    >>> sink.token, sink.weight, sink.is_sink
    ('[CLS]', 1.0, True)
    """
    if not isinstance(scores, HeadScores):
        raise TypeError(f"scores must be HeadScores, got {type(scores).__name__}")
    token, values = max((("[CLS]", scores.cls), ("[SEP]", scores.sep)), key=lambda tv: float(tv[1].max()))
    layer, head = np.unravel_index(int(np.argmax(values)), values.shape)
    weight = float(values[layer, head])
    mean = float(values.mean())
    return AttentionSink(token, int(layer), int(head), weight, mean, threshold, weight >= threshold)


@dataclass(frozen=True, eq=False)
class RealHeads:
    """A sentence through all-MiniLM-L6-v2, its heads scored and matched to the stylised ones.

    Attributes
    ----------
    sentence : Sentence
    run : attnmath.encoder.EncoderRun
    scores : HeadScores
    matches : tuple of HeadMatch
        H1..H4.
    sink : AttentionSink
    """

    sentence: Sentence
    run: Any
    scores: HeadScores
    matches: tuple[HeadMatch, ...]
    sink: AttentionSink


def real_heads(sentence: Sentence = DEFAULT_SENTENCE) -> RealHeads:
    """Measure the lecture's sentence in the real model (loads it on first use).

    Parameters
    ----------
    sentence : Sentence
        Annotated words, e.g. HeadRouting's sentence.

    Returns
    -------
    RealHeads

    Examples
    --------
    >>> found = real_heads()
    >>> found.matches[0].stylised, found.matches[0].matched
    ('H1', True)
    """
    from attnmath.encoder import encode_words

    if not isinstance(sentence, Sentence):
        raise TypeError(f"sentence must be a Sentence, got {type(sentence).__name__}")
    run = encode_words(sentence.texts)
    scores = head_scores(run.attention, run.tokens, run.word_ids, sentence)
    return RealHeads(sentence, run, scores, match_stylised(scores), attention_sink(scores))
