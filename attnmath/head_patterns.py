r"""What trained attention heads do: every head scored, and the real head nearest each stylised one.

:func:`head_scores` scores every head of one sentence's attention on every
pattern of :mod:`attnmath.pattern_scores` (previous, next and same token, weight
parked on [CLS], [SEP] and punctuation, distance, decay, spread, and the
stylised H2 / H4 targets when the sentence is annotated).

Each of the lecture's four stylised heads is then paired with the real head that
scores highest on its pattern (:func:`match_stylised`); it counts as a match only
when that score reaches :data:`MATCH_THRESHOLD`. Nothing assumes a match exists.
:func:`attention_sink` finds the head that parks the most weight on one special
token, and :func:`real_heads` does all of it for a sentence in all-MiniLM-L6-v2.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from attnmath._validate import FloatArray
from attnmath.heads import DEFAULT_SENTENCE, HEAD_NAMES, Sentence, stylized_heads
from attnmath.pattern_scores import (
    WordAttention,
    _attention,
    decay_overlap,
    decay_profile,
    mass_on,
    mean_distance,
    next_token_score,
    previous_token_score,
    punctuation_tokens,
    self_score,
    special_tokens,
    spread,
    target_score,
    word_attention,
)

__all__ = [
    "MATCH_THRESHOLD",
    "SINK_THRESHOLD",
    "STYLISED_SCORES",
    # one score at a time, from attnmath.pattern_scores
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
    # every head, matched
    "HeadScores",
    "head_scores",
    "HeadMatch",
    "match_stylised",
    "AttentionSink",
    "attention_sink",
    "RealHeads",
    "real_heads",
]

MATCH_THRESHOLD = 0.5
"""A real head matches a stylised one when it puts at least half its weight where the stylised head looks
(for H3: when its rows overlap the decay profile by at least half)."""

SINK_THRESHOLD = 0.5
"""An attention sink: a head that parks at least half of the words' weight on one special token."""

STYLISED_SCORES = ("previous", "syntax", "decay", "modifiers")
"""The :class:`HeadScores` field that measures each stylised head H1..H4's pattern."""


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
        Weight on the stylised H2 / H4 targets; None without a sentence, or when it
        annotates no such target (no verb's subject or preposition's verb; no noun phrase
        with a determiner or adjective).
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
    ids = _word_ids(a, tokens, word_ids)
    words = ids >= 0
    special, punct = special_tokens(tokens), punctuation_tokens(tokens)
    after_word = np.concatenate([[False], words[:-1]]) & words  # the previous token is a word token too
    before_word = np.concatenate([words[1:], [False]]) & words  # the next token is a word token too
    none = np.zeros(a.shape[:2])
    syntax, modifiers = _annotated_scores(a, ids, sentence) if sentence is not None else (None, None)
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


def _word_ids(a: np.ndarray, tokens: Sequence[str], word_ids: Any) -> np.ndarray:
    """``word_ids`` as an integer array, checked against the (L, H, T, T) attention ``a`` and ``tokens``.

    Raises
    ------
    ValueError
        Where ``a`` is not 4-d, ``tokens`` or ``word_ids`` do not have one entry per
        token, or no token is part of a word.
    """
    if a.ndim != 4:
        raise ValueError(f"attention must have shape (L, H, T, T), got {a.shape}")
    t = a.shape[-1]
    if len(tokens) != t:
        raise ValueError(f"tokens has {len(tokens)} entries for attention over {t} tokens")
    ids = np.asarray(word_ids)
    if ids.dtype.kind not in "iu" or ids.shape != (t,):
        raise ValueError(f"word_ids must be integers of shape ({t},), got {ids.dtype} {ids.shape}")
    if not (ids >= 0).any():
        raise ValueError("word_ids marks no token as part of a word")
    return ids


def _annotated_scores(
    a: np.ndarray, ids: np.ndarray, sentence: Sentence
) -> tuple[FloatArray | None, FloatArray | None]:
    """The ``syntax`` and ``modifiers`` scores of :func:`head_scores`: None where nothing is annotated.

    The targets are :func:`attnmath.heads.stylized_heads`' H2 and H4 rows that
    point at a word other than their own.
    """
    if not isinstance(sentence, Sentence):
        raise TypeError(f"sentence must be a Sentence, got {type(sentence).__name__}")
    if int(ids.max()) + 1 != len(sentence):
        raise ValueError(f"word_ids has {int(ids.max()) + 1} words, the sentence {len(sentence)}")
    targets = stylized_heads(sentence).targets  # (4, W, W); a row pointing only at itself: no annotation
    annotated = targets & ~np.eye(len(sentence), dtype=bool)
    syntax_targets, modifier_targets = (targets[h] & annotated[h].any(axis=1)[:, None] for h in (1, 3))
    syntax = target_score(a, ids, syntax_targets) if syntax_targets.any() else None
    modifiers = target_score(a, ids, modifier_targets) if modifier_targets.any() else None
    return syntax, modifiers


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

    @property
    def words(self) -> WordAttention:
        """Every head's attention between the sentence's words, (L, H, W, W + 2): [CLS], words, [SEP]."""
        return word_attention(self.run.attention, self.run.tokens, self.run.word_ids, self.sentence.texts)


def real_heads(sentence: Sentence = DEFAULT_SENTENCE) -> RealHeads:
    """Measure the lecture's sentence in the real model (loads it on first use).

    Parameters
    ----------
    sentence : Sentence
        Annotated words, e.g. section 5's sentence.

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
