"""Every quantity the lecture "Attention" shows, in plain numpy and scipy.

This package never imports manim: scenes draw what it computes.
"""

from attnmath.attention import (
    FEATURE_MAPS,
    AttentionResult,
    attention,
    favor_features,
    linear_attention,
    linear_attention_weights,
)
from attnmath.datasets import noisy_sine
from attnmath.heads import (
    DEFAULT_SENTENCE,
    HEAD_NAMES,
    POS_TAGS,
    Sentence,
    StylizedHeads,
    Token,
    previous_token_projections,
    stylized_heads,
)
from attnmath.kernels import (
    KERNELS,
    kernel_profile,
    kernel_weights,
    loo_cv_error,
    nadaraya_watson,
    squared_distances,
)
from attnmath.kvcache import (
    CacheReadout,
    KVCache,
    PagedBlocks,
    RunningSummary,
    kv_cache_bytes,
    paged_kv_blocks,
    running_summary_bytes,
    streaming_keep,
)
from attnmath.multihead import MultiHeadResult, multi_head_attention, split_heads
from attnmath.positions import (
    alibi_bias,
    alibi_slopes,
    causal_mask,
    local_window_mask,
    stylized_t5_bucket_values,
    t5_bias,
    t5_relative_position_bucket,
)
from attnmath.retrieval import (
    REGIMES,
    SweepResult,
    classify_regime,
    optimal_objective,
    retrieval_objective,
    solve_retrieval,
    temperature_sweep,
)
from attnmath.similarity import (
    SimilarityFit,
    attention_weights,
    fit_similarity,
    gaussian_as_dot_product,
    position_features,
)
from attnmath.softmax import check_distribution, effective_k, entropy, softmax
from attnmath.variants import VARIANTS, WeightProfiles, content_profiles, weight_profiles

__all__ = [
    "softmax",
    "entropy",
    "effective_k",
    "check_distribution",
    "retrieval_objective",
    "optimal_objective",
    "solve_retrieval",
    "temperature_sweep",
    "SweepResult",
    "classify_regime",
    "REGIMES",
    "KERNELS",
    "kernel_weights",
    "kernel_profile",
    "nadaraya_watson",
    "loo_cv_error",
    "squared_distances",
    "attention_weights",
    "fit_similarity",
    "SimilarityFit",
    "gaussian_as_dot_product",
    "position_features",
    "noisy_sine",
    "attention",
    "AttentionResult",
    "linear_attention",
    "linear_attention_weights",
    "favor_features",
    "FEATURE_MAPS",
    "causal_mask",
    "local_window_mask",
    "alibi_slopes",
    "alibi_bias",
    "t5_relative_position_bucket",
    "t5_bias",
    "stylized_t5_bucket_values",
    "VARIANTS",
    "WeightProfiles",
    "weight_profiles",
    "content_profiles",
    "multi_head_attention",
    "MultiHeadResult",
    "split_heads",
    "Sentence",
    "Token",
    "POS_TAGS",
    "DEFAULT_SENTENCE",
    "HEAD_NAMES",
    "StylizedHeads",
    "stylized_heads",
    "previous_token_projections",
    "KVCache",
    "CacheReadout",
    "RunningSummary",
    "kv_cache_bytes",
    "running_summary_bytes",
    "PagedBlocks",
    "paged_kv_blocks",
    "streaming_keep",
]
