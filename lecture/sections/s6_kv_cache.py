"""Section 6: causal masking and the KV cache, why it keeps raw keys and values, and what that costs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from attnmath import (
    DEFAULT_SENTENCE,
    KVCache,
    Sentence,
    causal_mask,
    kv_cache_bytes,
    linear_state_bytes,
    previous_token_projections,
)
from attnmath.decoder_weights import DecoderError, load_decoder
from lecture.parameters import ConfigError, Integer, Parameters, Words, lecturer
from lecture.questions import Option, Question
from lecture.section import Figure, Section, floats
from lecture.sections.s6_real import (
    MAX_DECODED,
    MODEL_NAME,
    decoder_figure,
    real_eviction,
    sentence_text,
)

__all__ = [
    "KVCacheParameters",
    "SECTION",
    "MODEL",
    "CONTEXT",
    "SHARED_KV_HEADS",
    "SHARED_MODEL",
    "RELATIVE_CLAUSE",
    "RUNNING_WORDS",
    "decode_weights",
]

MODEL = {"n_layers": 32, "n_kv_heads": 32, "head_dim": 128}
"""The section's 7B-class model: full multi-head keys and values, one sequence, fp16."""
CONTEXT = 4096
"""The section's context length."""
SHARED_KV_HEADS = 8
"""Key-value heads the asked question lets the model's query heads share: grouped-query attention."""
SHARED_MODEL = {**MODEL, "n_kv_heads": SHARED_KV_HEADS}
"""The section's model with its query heads sharing :data:`SHARED_KV_HEADS` key-value heads."""
RELATIVE_CLAUSE = Sentence.from_dict(
    {
        "tokens": [
            {"text": "The", "pos": "DET", "phrase": 0},
            {"text": "cat", "pos": "NOUN", "phrase": 0},
            {"text": "that", "pos": "PRON"},
            {"text": "the", "pos": "DET", "phrase": 1},
            {"text": "dogs", "pos": "NOUN", "phrase": 1},
            {"text": "chased", "pos": "VERB", "subject": 4},
            {"text": "slept", "pos": "VERB", "subject": 1},
        ]
    }
)
"""The syntax head's hard case: "chased" needs the latest noun, "dogs"; "slept" needs "cat", behind it, so
no summary that keeps only the latest noun (or any one slot fixed in advance) serves both queries."""


RUNNING_WORDS = (*(t.text for t in DEFAULT_SENTENCE.tokens), ".")
"""Section 5's sentence, the lecture's running example, with its full stop: section 6 decodes it."""


@dataclass(frozen=True)
class KVCacheParameters(Parameters):
    """The words decoded, how many of them are the prompt, and the two heads' example data."""

    scene: ClassVar[str] = "KVCacheGrowth"
    words: tuple[str, ...] = lecturer(
        RUNNING_WORDS,
        Words(),
        f"{Words().doc()}, and at most {MAX_DECODED} of {MODEL_NAME}'s tokens: "
        "its real decoder reads them too",
    )
    n_prompt: int = lecturer(4, Integer(1, 11), "fewer than the words")
    strength: float = 6.0
    seed: int = 6

    def check(self, where: str) -> None:
        """The prompt leaves at least one word to decode, and the real decoder's tokens fit the picture.

        The words are tokenized (which loads the decoder) only when the lecturer changed them.
        """
        if self.n_prompt >= len(self.words):
            raise ConfigError(
                f"{where}: [{self.scene}] n_prompt must be smaller than the number of words "
                f"({len(self.words)})"
            )
        if self.words != type(self)().words and (n := token_count(sentence_text(self.words))) > MAX_DECODED:
            raise ConfigError(
                f"{where}: [{self.scene}] words make {n} of {MODEL_NAME}'s tokens, and section 6 lays out "
                f"at most {MAX_DECODED}: use fewer or shorter words"
            )


def token_count(text: str) -> int:
    """How many tokens the real decoder splits ``text`` into (any count; :func:`tokenize` caps it)."""
    try:
        return len(load_decoder().tokenizer.encode(text).ids)
    except DecoderError as exc:
        raise ConfigError(f"cannot count the decoder's tokens: {exc}") from None


def questions(p: KVCacheParameters) -> list[Question]:
    """The same model with shared key-value heads; a bounded cache; a head that reads positions only."""
    return [_grouped_cache(p), _sinks_and_window(p), _position_only_head(p)]


def _grouped_cache(_p: KVCacheParameters) -> Question:
    """The asked question: the section's model, its query heads sharing a quarter as many KV heads."""
    shared = SHARED_KV_HEADS
    heads, per_token = MODEL["n_kv_heads"], kv_cache_bytes(**MODEL, seq_len=1)
    grouped = kv_cache_bytes(**SHARED_MODEL, seq_len=1)
    return Question(
        f"The section's model keeps {per_token // 1024} KiB of cache a token: each of its "
        f"{MODEL['n_layers']} layers has {heads} query heads, each with its own key-value head. Let the "
        f"{heads} query heads share {shared} key-value heads instead (same head size and precision). How "
        "much cache a token now?",
        f"{grouped // 1024} KiB, a quarter: the cache holds a key and a value for each key-value head, "
        f"and {shared} is a quarter of {heads}; the query heads keep nothing. This sharing is "
        "grouped-query attention, as in SmolLM2.",
        f"Pause and predict: each layer's {heads} heads keep their own queries but share {shared} sets of "
        "keys and values. Cache per token now?",
        f"{grouped // 1024} kibibytes, a quarter: the cache keeps one key and one value per shared set, a "
        "key-value head; queries aren't cached.",
        (
            Option(
                "The same as before",
                "The cache stores a key and a value for each key-value head, so fewer of them store less.",
            ),
            Option("A quarter as much"),
            Option(
                "An eighth as much",
                f"{shared} of {heads} is a quarter, and each shared set still keeps one key and one value.",
            ),
        ),
    )


def _position_only_head(_p: KVCacheParameters) -> Question:
    """A head whose weights read only how far back each token is: its keys are never read."""
    return Question(
        "A head's weights follow a learned profile of how far back each token is, never what the token "
        "is. In general, what must its cache keep?",
        "The values, but no keys: no score reads a key, so keeping keys wastes memory, while the output "
        "still averages past values. Some profiles need even less: a window keeps only its last values, "
        "and ALiBi's decay without content scores is geometric, so one running sum serves it.",
        "",
        "",
        (
            Option(
                "Every key and value, as softmax heads do",
                "No weight here reads a key, so the keys are never used.",
            ),
            Option("The values, but no keys"),
            Option(
                "Nothing: position alone sets the output",
                "Position sets the weights, but the output averages past values, so they must be kept.",
            ),
        ),
    )


def _sinks_and_window(_p: KVCacheParameters) -> Question:
    """The section's model keeping sinks and a recent window, against a linear-attention state."""
    evicted = real_eviction()
    kept = evicted.sinks + evicted.window
    per_token, n = kv_cache_bytes(**MODEL, seq_len=1), 100_000
    state, cache = linear_state_bytes(**MODEL) / 2**20, kept * per_token / 2**20
    raw = kv_cache_bytes(**MODEL, seq_len=n) / 2**30
    return Question(
        f"The section's model ({per_token // 1024} KiB a token) keeps only its first {evicted.sinks} "
        f"tokens, as sinks, and the {evicted.window} most recent. At {n:,} tokens, how does its cache "
        f"compare with the {state:.2f} MiB state of a linear-attention model of that shape?",
        f"About {cache:.0f} MiB, a little more than the linear state: {kept} kept tokens \u00d7 "
        f"{per_token // 1024} KiB, fixed at any length. The full cache at {n:,} tokens would be about "
        f"{raw:.0f} GiB. Evicted tokens are gone for good.",
        "",
        "",
        (
            Option(
                f"About {raw:.0f} GiB, the full cache",
                f"Evicted entries are dropped; only {kept} stay.",
            ),
            Option(f"About {cache:.0f} MiB, a little more"),
            Option(
                f"Far smaller: it keeps only {kept} tokens",
                f"Each kept token costs {per_token // 1024} KiB across all layers and heads, so {kept} of "
                f"them come to {cache:.0f} MiB.",
            ),
        ),
    )


def decode_weights(words: tuple[str, ...], strength: float, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Both heads' weights for each decoding step, through two real caches (as the scene decodes)."""
    n = len(words)
    values = np.random.default_rng(seed).normal(size=(n, 2))
    w_q, w_k = previous_token_projections(n, strength)
    uniform, pointer = KVCache(n, 2), KVCache(n, 2)
    steps = []
    for t in range(n):
        e = np.eye(n)[t]
        uniform.append(e @ w_k, values[t])
        pointer.append(e @ w_k, values[t])
        steps.append((uniform.attend(np.zeros(n)).weights, pointer.attend(e @ w_q).weights))
    return steps


def figure(p: KVCacheParameters) -> dict[str, Any]:
    """The words, the prompt, the causal mask, both heads' weights at every step, and the real decoder."""
    steps = decode_weights(p.words, p.strength, p.seed)
    return {
        "words": list(p.words),
        "n_prompt": int(p.n_prompt),
        "mask": causal_mask(len(p.words)).tolist(),
        "heads": ["uniform head", "previous-token head"],
        "weights": [[floats(u), floats(v)] for u, v in steps],
        "decoder": decoder_figure(),
    }


SECTION = Section(
    scene=KVCacheParameters.scene,
    module="s6_kv_cache",
    number="6",
    title="Causal masking and the KV cache",
    seconds=194.0,
    parameters=KVCacheParameters,
    questions=questions,
    figure=Figure(figure),
    equations=(
        r"o_t = \sum_{i \le t} \alpha_i(q_t)\, v_i, \qquad"
        r"\alpha_i(q_t) = \frac{\exp(q_t \cdot k_i / \tau)}{\sum_{j \le t} \exp(q_t \cdot k_j / \tau)}",
        r"\text{KV cache after step } t:\ (k_1, v_1), \dots, (k_t, v_t)",
        r"S_t = S_{t-1} + \phi(k_t)\, v_t^\top, \quad z_t = z_{t-1} + \phi(k_t), \qquad "
        r"o_t = \frac{\phi(q_t)^\top S_t}{\phi(q_t)^\top z_t}",
    ),
)
