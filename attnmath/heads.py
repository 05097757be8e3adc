r"""Four stylised attention heads over an annotated sentence (lecture section 5).

Each head is real attention computed by :func:`multi_head_attention`; only its
parameters are designed by hand, from the sentence's annotations:

- H1, previous token: :math:`W_Q, W_K` act on one-hot positions so that
  :math:`q_i \cdot k_j` peaks at :math:`j = i - 1`;
- H2, syntax: verbs attend to their subjects, prepositions to their head verbs;
- H3, positional: an ALiBi-style bias, weights decaying with distance whatever the content;
- H4, determiners and modifiers: words attend to the determiners and adjectives of their phrase.

These are stylised examples, not measurements from a particular model.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

import numpy as np
from numpy.typing import NDArray

from attnmath._validate import FloatArray
from attnmath.multihead import MultiHeadResult, multi_head_attention
from attnmath.positions import alibi_bias, causal_mask

__all__ = [
    "previous_token_projections",
    "POS_TAGS",
    "Token",
    "Sentence",
    "DEFAULT_SENTENCE",
    "HEAD_NAMES",
    "StylizedHeads",
    "stylized_heads",
    "distinctive_queries",
]

POS_TAGS = ("DET", "ADJ", "NOUN", "PRON", "VERB", "PREP", "ADV", "CONJ", "PUNCT")
HEAD_NAMES = (
    "previous token",
    "verb to subject, preposition to head verb",
    "decays with distance",
    "determiners and modifiers",
)


def previous_token_projections(n: int, strength: float) -> tuple[FloatArray, FloatArray]:
    r"""(W_Q, W_K), each (n, n), acting on one-hot positions so that attention looks one step back.

    With :math:`q_i = e_i W_Q = c\, e_i` and :math:`k_j = e_j W_K = c\, e_{j+1}`,
    :math:`q_i \cdot k_j / \sqrt{n} = \text{strength}` exactly when :math:`j = i - 1`
    and 0 otherwise (:math:`c^2 = \text{strength} \sqrt{n}`).

    Examples
    --------
    >>> w_q, w_k = previous_token_projections(4, 2.0)
    >>> ((np.eye(4) @ w_q) @ (np.eye(4) @ w_k).T / 2.0).round(6)
    array([[0., 0., 0., 0.],
           [2., 0., 0., 0.],
           [0., 2., 0., 0.],
           [0., 0., 2., 0.]])
    """
    c = np.sqrt(strength * np.sqrt(n))
    return c * np.eye(n), c * np.eye(n, k=1)


@dataclass(frozen=True)
class Token:
    """One annotated token.

    Attributes
    ----------
    text : str
        The word as shown.
    pos : str
        Part of speech, one of :data:`POS_TAGS`.
    subject : int, optional
        For a verb: index of its subject.
    head : int, optional
        For a preposition: index of the verb it attaches to.
    phrase : int, optional
        For determiners, adjectives and nouns: the id of their noun phrase.
    """

    text: str
    pos: str
    subject: int | None = None
    head: int | None = None
    phrase: int | None = None


@dataclass(frozen=True)
class Sentence:
    """A tokenised sentence with hand annotations; validated on construction."""

    tokens: tuple[Token, ...]

    def __post_init__(self) -> None:
        if len(self.tokens) < 2:
            raise ValueError(f"a sentence needs at least 2 tokens, got {len(self.tokens)}")
        for i, tok in enumerate(self.tokens):
            _check_token(i, tok, len(self.tokens))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Sentence:
        """Build from ``{"tokens": [{"text": ..., "pos": ..., ...}, ...]}`` (e.g. parsed TOML or JSON)."""
        if not isinstance(data, Mapping) or set(data) != {"tokens"}:
            raise ValueError(f"sentence must be a table with exactly one key 'tokens', got {sorted(data)}")
        allowed = {f.name for f in fields(Token)}
        tokens = []
        for i, item in enumerate(data["tokens"]):
            if not isinstance(item, Mapping):
                raise TypeError(f"token {i} must be a table, got {type(item).__name__}")
            unknown = set(item) - allowed
            if unknown:
                raise ValueError(f"token {i}: unknown key(s) {sorted(unknown)}; allowed: {sorted(allowed)}")
            tokens.append(Token(**item))
        return cls(tuple(tokens))

    @property
    def texts(self) -> tuple[str, ...]:
        """The words."""
        return tuple(t.text for t in self.tokens)

    def __len__(self) -> int:
        return len(self.tokens)


def _check_token(i: int, tok: Token, n: int) -> None:
    if not isinstance(tok.text, str) or not tok.text:
        raise ValueError(f"token {i}: text must be a non-empty string, got {tok.text!r}")
    if tok.pos not in POS_TAGS:
        raise ValueError(
            f"token {i} ({tok.text!r}): unknown role {tok.pos!r}; expected one of {', '.join(POS_TAGS)}"
        )
    for role, allowed_pos in (("subject", "VERB"), ("head", "PREP")):
        target = getattr(tok, role)
        if target is None:
            continue
        if tok.pos != allowed_pos:
            raise ValueError(f"token {i} ({tok.text!r}): only a {allowed_pos} has a {role}")
        if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target < n or target == i:
            raise ValueError(
                f"token {i} ({tok.text!r}): {role} {target!r} must be another token index in 0..{n - 1}"
            )
    if tok.phrase is not None and (
        isinstance(tok.phrase, bool) or not isinstance(tok.phrase, int) or tok.phrase < 0
    ):
        raise ValueError(f"token {i} ({tok.text!r}): phrase must be an integer >= 0, got {tok.phrase!r}")


DEFAULT_SENTENCE = Sentence.from_dict(
    {
        "tokens": [
            {"text": "The", "pos": "DET", "phrase": 0},
            {"text": "small", "pos": "ADJ", "phrase": 0},
            {"text": "cat", "pos": "NOUN", "phrase": 0},
            {"text": "chased", "pos": "VERB", "subject": 2},
            {"text": "the", "pos": "DET", "phrase": 1},
            {"text": "old", "pos": "ADJ", "phrase": 1},
            {"text": "dog", "pos": "NOUN", "phrase": 1},
            {"text": "across", "pos": "PREP", "head": 3},
            {"text": "the", "pos": "DET", "phrase": 2},
            {"text": "garden", "pos": "NOUN", "phrase": 2},
        ]
    }
)


@dataclass(frozen=True)
class StylizedHeads:
    """Four stylised heads on one sentence.

    Attributes
    ----------
    sentence : Sentence
    names : tuple of str
        What each head does.
    targets : ndarray of bool, shape (4, T, T)
        The annotated targets each head is designed to attend to (H3 has none).
    result : MultiHeadResult
        The real multi-head computation; ``result.weights`` is (4, T, T).
    causal : bool
    """

    sentence: Sentence
    names: tuple[str, ...]
    targets: NDArray[np.bool_]
    result: MultiHeadResult
    causal: bool

    @property
    def weights(self) -> FloatArray:
        """(4, T, T) attention weights."""
        return self.result.weights


def _syntax_targets(s: Sentence) -> NDArray[np.bool_]:
    t = np.eye(len(s), dtype=bool)  # tokens with no annotated target attend to themselves
    for i, tok in enumerate(s.tokens):
        target = tok.subject if tok.pos == "VERB" else tok.head if tok.pos == "PREP" else None
        if target is not None:
            t[i] = False
            t[i, target] = True
    return t


def _modifier_targets(s: Sentence) -> NDArray[np.bool_]:
    t = np.eye(len(s), dtype=bool)
    for i, tok in enumerate(s.tokens):
        mods = [
            j
            for j, o in enumerate(s.tokens)
            if tok.phrase is not None and o.phrase == tok.phrase and o.pos in ("DET", "ADJ")
        ]
        if mods:
            t[i] = False
            t[i, mods] = True
    return t


def _designed_targets(sentence: Sentence) -> NDArray[np.bool_]:
    """Each head's designed targets, (4, T, T): the previous token, syntax, none (H3 is a bias), modifiers."""
    n = len(sentence)
    return np.stack(
        [
            np.eye(n, k=-1, dtype=bool),
            _syntax_targets(sentence),
            np.zeros((n, n), dtype=bool),
            _modifier_targets(sentence),
        ]
    )


def stylized_heads(
    sentence: Sentence = DEFAULT_SENTENCE,
    *,
    causal: bool = False,
    strength: float = 6.0,
    decay: float = 0.7,
    d_content: int = 4,
    seed: int = 0,
) -> StylizedHeads:
    r"""Build the four heads as one multi-head attention layer and run it.

    The input of token i is a seeded random content embedding followed by the
    one-hot vector of its position: :math:`x_i = [c_i, e_i]`. Every head has
    :math:`d_h = T`, its values are the position one-hots (so a head's output
    at token i is where it looked), and :math:`W_O` is seeded random.

    Parameters
    ----------
    sentence : Sentence
        The annotated tokens.
    causal : bool
        Mask future positions.
    strength : float
        Score given to a designed target (H1 to H4 except H3), before the softmax.
    decay : float
        H3's bias slope: weight falls as :math:`e^{-\text{decay}\,|i-j|}`.
    d_content : int
        Width of the random content embedding.
    seed : int
        Seed for the embeddings and :math:`W_O`.

    Returns
    -------
    StylizedHeads
    """
    if not isinstance(sentence, Sentence):
        raise TypeError(f"sentence must be a Sentence, got {type(sentence).__name__}")
    n = len(sentence)
    rng = np.random.default_rng(seed)
    x = np.concatenate([rng.normal(size=(n, d_content)), np.eye(n)], axis=1)  # (T, d_content + T)
    d_model, d_head = x.shape[1], n
    w_q, w_k, w_v = (np.zeros((d_model, 4 * d_head)) for _ in range(3))
    pos = slice(d_content, d_model)
    w_q[pos, 0:d_head], w_k[pos, 0:d_head] = previous_token_projections(n, strength)
    for h in range(4):
        w_v[pos, h * d_head : (h + 1) * d_head] = np.eye(n)
    w_o = rng.normal(size=(4 * d_head, d_model)) / np.sqrt(4 * d_head)
    targets = _designed_targets(sentence)
    bias = np.stack(
        [np.zeros((n, n)), strength * targets[1], alibi_bias(n, decay, causal=False), strength * targets[3]]
    )
    mask = causal_mask(n) if causal else None
    result = multi_head_attention(x, w_q, w_k, w_v, w_o, 4, mask=mask, bias=bias)
    return StylizedHeads(sentence, HEAD_NAMES, targets, result, causal)


def distinctive_queries(weights: FloatArray) -> NDArray[np.intp]:
    r"""For each head, the query whose weight row differs most from every other head's.

    Head h's score at query i is the total variation distance from its row to the
    nearest other head's row, :math:`\min_{g \ne h} \tfrac12 \sum_j |w_{hij} - w_{gij}|`;
    the query returned maximises it (the first on ties): the word where the head's
    statistic stands out from all the others.

    Parameters
    ----------
    weights : ndarray, shape (H, T, T)
        Attention weights of H >= 2 heads, rows = queries.

    Returns
    -------
    ndarray of int, shape (H,)

    Examples
    --------
    >>> w = np.array([[[1, 0], [1, 0]], [[1, 0], [0, 1]], [[1, 0], [0.5, 0.5]]])
    >>> distinctive_queries(w)
    array([1, 1, 1])
    """
    w = np.asarray(weights, dtype=float)
    if w.ndim != 3 or w.shape[0] < 2 or w.shape[1] != w.shape[2]:
        raise ValueError(f"weights must have shape (H >= 2, T, T), got {w.shape}")
    tv = 0.5 * np.abs(w[:, None] - w[None, :]).sum(axis=-1)  # (H, H, T)
    heads = np.arange(w.shape[0])
    tv[heads, heads] = np.inf
    return np.asarray(tv.min(axis=1).argmax(axis=1), dtype=np.intp)
