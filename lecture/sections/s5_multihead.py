"""Section 5: multi-head attention: four stylised heads, a trained encoder's 72, a trained decoder's 270."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from attnmath import DEFAULT_SENTENCE, HEAD_NAMES, STYLISED_SCORES, Sentence, real_heads, stylized_heads
from lecture.parameters import Integer, Parameters, SentenceCheck, lecturer
from lecture.questions import Option, Question
from lecture.section import Figure, Section, floats
from lecture.sections.s5_induction import induction, induction_figure

__all__ = ["HeadRoutingParameters", "SECTION", "MODEL_PLACES", "MAX_INDUCTION_TOKENS", "trained_heads"]

MAX_INDUCTION_TOKENS = 20
"""The most random tokens a copy may have: the scene shows both copies as readable chips."""


@dataclass(frozen=True)
class HeadRoutingParameters(Parameters):
    """The annotated sentence the heads read, and the random tokens the trained decoder reads twice."""

    scene: ClassVar[str] = "HeadRouting"
    sentence: Sentence = lecturer(DEFAULT_SENTENCE, SentenceCheck())
    induction_tokens: int = lecturer(
        20,
        Integer(4, MAX_INDUCTION_TOKENS),
        f"4–{MAX_INDUCTION_TOKENS} random tokens the decoder reads twice",
    )
    induction_seed: int = lecturer(0, Integer(0, 2**31, shown=False))


def questions(_p: HeadRoutingParameters) -> list[Question]:
    """Which heads fold into a fixed-size summary, and what two heads with one W_Q and W_K share."""
    return [
        Question(
            "In general, for any sentence read word by word, which of the four stylised heads could replace "
            "all past keys and values by one fixed-size summary?",
            "Head one, ideally: it needs only the previous value, a one-slot window. And head three: "
            "its geometric decay folds into a running sum, shrunk by the same factor each step. And head "
            "four: a noun's determiners and adjectives come before it in its phrase, so a sum reset at "
            "each phrase holds them. The syntax head's target may be any earlier noun, known only when its "
            "query arrives, so its memory grows with the sentence.",
            "Pause and predict: reading word by word, which of our four built heads could, for any sentence, "
            "keep one fixed-size summary instead of every word?",
            "All but the syntax head: the previous-token head keeps one value; distance decay, one "
            "discounted sum; modifiers, one sum per phrase.",
            (
                Option(
                    "Only the previous-token head",
                    "The decay head's weights shrink by one factor a step, so a running sum holds them too.",
                ),
                Option(
                    "All four heads",
                    "A verb's subject may be any earlier noun, depending on clauses still open; no "
                    "fixed-size "
                    "summary covers every case.",
                ),
                Option("All but the syntax head"),
            ),
        ),
        Question(
            "Two heads share W_Q and W_K but have different W_V. What do they share?",
            "Their weights, not their outputs: weights come only from queries and keys, which the shared "
            "W_Q and W_K make the same; the different W_V give different values, so the same weights "
            "average different things.",
            "",
            "",
            (
                Option("Their weights, not their outputs"),
                Option(
                    "Nothing: their weights differ too",
                    "Weights come only from queries and keys, which identical W_Q and W_K make identical.",
                ),
                Option(
                    "Both their weights and outputs",
                    "The same weights average different value vectors, so the outputs differ.",
                ),
            ),
        ),
    ]


MODEL_PLACES = {
    "cls": "[CLS]",
    "sep": "[SEP]",
    "itself": "the token itself",
    "previous": "the previous token",
    "next": "the next token",
}
"""The :class:`attnmath.HeadScores` fields the trained view's readout compares, and how it names them."""

_SCORE_LABELS = {
    "previous": "previous-token score",
    "syntax": "weight on the annotated subject or verb",
    "decay": "overlap with the distance-decay profile",
    "modifiers": "weight on the noun's determiners and adjectives",
}
_UNMEASURED = {
    "syntax": "the sentence annotates no verb's subject and no preposition's verb",
    "modifiers": "the sentence annotates no noun phrase with a determiner or adjective",
}


def _match_entry(h: int, field: str, m: Any) -> dict[str, Any]:
    """The page's entry for stylised head ``h``: its best trained head, or why none was measured."""
    entry: dict[str, Any] = {
        "stylised": f"H{h + 1}",
        "name": HEAD_NAMES[h],
        "score_label": _SCORE_LABELS[field],
    }
    if m is None:
        return entry | {"measured": False, "why": _UNMEASURED[field]}
    return entry | {
        "measured": True,
        "layer": m.layer,
        "head": m.head,
        "score": m.score,
        "threshold": m.threshold,
        "matched": m.matched,
        "previous": m.previous,
        "just_under": not m.matched and round(m.score, 3) >= m.threshold,
        "adjacent": m.matched and field != "previous" and m.previous >= m.threshold,
    }


def trained_heads(sentence: Sentence) -> dict[str, Any]:
    """The trained-model view: all-MiniLM-L6-v2's 72 heads on the sentence, measured by attnmath.

    ``weights`` (L, H, W, K) are :attr:`attnmath.RealHeads.words` (word pieces pooled;
    keys [CLS], the words, [SEP]) rounded to the 2 decimals the table prints; ``scores``
    are the :class:`attnmath.HeadScores` the readout prints; ``matches`` and ``sink``
    are :func:`attnmath.match_stylised`'s and :func:`attnmath.attention_sink`'s.
    """
    found = real_heads(sentence)
    words = found.words
    by_name = {m.stylised: m for m in found.matches}
    matches = [_match_entry(h, field, by_name.get(f"H{h + 1}")) for h, field in enumerate(STYLISED_SCORES)]
    first = next((m for m in found.matches if m.matched), None)
    sink = found.sink
    n_layers, n_heads = found.scores.cls.shape
    return {
        "name": "all-MiniLM-L6-v2",
        "layers": int(n_layers),
        "heads": int(n_heads),
        "queries": list(words.queries),
        "keys": list(words.keys),
        "weights": floats(np.round(words.weights, 2)),
        "scores": {name: floats(getattr(found.scores, name)) for name in MODEL_PLACES},
        "places": MODEL_PLACES,
        "chosen": [first.layer, first.head] if first is not None else [0, 0],
        "matches": matches,
        "sink": {
            "token": sink.token,
            "layer": sink.layer,
            "head": sink.head,
            "weight": sink.weight,
            "mean_weight": sink.mean_weight,
            "threshold": sink.threshold,
            "is_sink": sink.is_sink,
        },
    }


def figure(p: HeadRoutingParameters) -> dict[str, Any]:
    """The sentence, the stylised heads' causal weights (4, T, T), the trained encoder's and decoder's."""
    sentence = p.sentence
    result = stylized_heads(sentence, causal=True)
    return {
        "words": list(sentence.texts),
        "names": list(result.names),
        "weights": floats(result.weights),
        "head": 0,
        "query": len(sentence) - 1,
        "model": trained_heads(sentence),
        "decoder": induction_figure(induction(p.induction_tokens, p.induction_seed)),
    }


SECTION = Section(
    scene=HeadRoutingParameters.scene,
    module="s5_multihead",
    number="5",
    title="Multi-head: many statistics at once",
    seconds=99.0,
    parameters=HeadRoutingParameters,
    questions=questions,
    figure=Figure(figure),
    equations=(
        r"\operatorname{head}_h = \operatorname{Attn}\big(X W_Q^{(h)},\, X W_K^{(h)},\, X W_V^{(h)}\big),"
        r"\qquad h = 1, \dots, H",
        r"\operatorname{MultiHead}(X) = \big[\operatorname{head}_1 \;\; \operatorname{head}_2 \;\;"
        r"\cdots \;\; \operatorname{head}_H\big]\, W_O",
    ),
)
