"""Reading SmolLM2-135M-Instruct's GGUF file: its metadata checked, its tensors dequantised, its tokenizer.

PyPI's ``gguf`` (the format's own reader) opens the file and dequantises each
Q4_1 and Q8_0 tensor to float32; :mod:`attnmath.decoder_weights` calls
:func:`read_gguf` only when its cache of the dequantised weights is missing.
The tokenizer is GPT-2's byte-level BPE built with ``tokenizers`` from the
file's vocabulary and merges, with SmolLM2's pre-tokenizer (digits split one by
one, then the byte-level split) and its control tokens kept whole.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from attnmath.decoder_spec import D_HEAD, F32, N_HEADS, N_KV_HEADS, N_LAYERS, DecoderError

__all__ = ["read_gguf"]

_EXPECTED = {
    "general.architecture": "llama",
    "llama.block_count": N_LAYERS,
    "llama.attention.head_count": N_HEADS,
    "llama.attention.head_count_kv": N_KV_HEADS,
    "llama.embedding_length": 576,
    "llama.feed_forward_length": 1536,
    "llama.rope.dimension_count": D_HEAD,
    "llama.rope.freq_base": 100000.0,
    "llama.context_length": 8192,
    "llama.vocab_size": 49152,
    "tokenizer.ggml.model": "gpt2",
    "tokenizer.ggml.pre": "smollm",
}
_EPS = "llama.attention.layer_norm_rms_epsilon"


def _field(reader: Any, key: str) -> Any:
    if key not in reader.fields:
        raise DecoderError(f"the GGUF file has no {key!r}: not SmolLM2-135M; run tools/check_decoder.py")
    return reader.fields[key].contents()


def _check_metadata(reader: Any, path: Path) -> dict[str, Any]:
    found = {key: _field(reader, key) for key in (*_EXPECTED, _EPS)}
    wrong = {k: found[k] for k, v in _EXPECTED.items() if found[k] != v}
    if wrong or not 0 < found[_EPS] < 1e-3:
        expected = {k: _EXPECTED[k] for k in wrong} or "a small epsilon"
        raise DecoderError(
            f"{path} is not SmolLM2-135M-Instruct (metadata {wrong or {_EPS: found[_EPS]}}, expected "
            f"{expected}); run tools/check_decoder.py"
        )
    return found


def _tokenizer_json(reader: Any) -> tuple[str, NDArray[np.intp]]:
    """The tokenizer (``tokenizers``' JSON) built from the file's vocabulary and merges; the control ids."""
    from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers

    tokens = _field(reader, "tokenizer.ggml.tokens")
    merges = [tuple(m.split(" ", 1)) for m in _field(reader, "tokenizer.ggml.merges")]
    types = np.asarray(_field(reader, "tokenizer.ggml.token_type"))
    tokenizer = Tokenizer(models.BPE(vocab={t: i for i, t in enumerate(tokens)}, merges=merges))
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence(
        [pre_tokenizers.Digits(individual_digits=True), pre_tokenizers.ByteLevel(add_prefix_space=False)]
    )
    tokenizer.decoder = decoders.ByteLevel()
    special = np.flatnonzero(types == 3).astype(np.intp)  # GGUF's token type 3: control
    tokenizer.add_special_tokens([AddedToken(tokens[i], special=True) for i in special])
    return tokenizer.to_str(), special


def read_gguf(path: Path) -> dict[str, Any]:
    """Every weight (dequantised, as ``x @ w``), the hyper-parameters and the tokenizer of the GGUF file."""
    import gguf

    reader = gguf.GGUFReader(path)
    meta = _check_metadata(reader, path)
    tensors = {t.name: t for t in reader.tensors}

    def weight(name: str) -> F32:
        if name not in tensors:
            raise DecoderError(f"{path} has no tensor {name!r}; run tools/check_decoder.py")
        t = tensors[name]
        return np.asarray(gguf.quants.dequantize(t.data, t.tensor_type), dtype=np.float32)

    arrays: dict[str, Any] = {
        "embeddings": weight("token_embd.weight"),
        "output_norm": weight("output_norm.weight"),
    }
    for i in range(meta["llama.block_count"]):
        for name in ("attn_norm", "ffn_norm", "attn_output", "ffn_down"):
            w = weight(f"blk.{i}.{name}.weight")
            arrays[f"{i}.{name}"] = w if w.ndim == 1 else np.ascontiguousarray(w.T)  # (out, in) -> (in, out)
        fused = {"qkv": ("attn_q", "attn_k", "attn_v"), "gate_up": ("ffn_gate", "ffn_up")}
        for name, parts in fused.items():  # (out, in) stacked on out -> (in, out)
            stacked = np.concatenate([weight(f"blk.{i}.{p}.weight") for p in parts])
            arrays[f"{i}.{name}"] = np.ascontiguousarray(stacked.T)
    tokenizer, special = _tokenizer_json(reader)
    config = {k.rsplit(".", 1)[-1]: meta[k] for k in meta if k.startswith("llama.")}
    arrays["tokenizer"] = np.frombuffer(tokenizer.encode(), dtype=np.uint8)
    arrays["special_ids"] = special
    arrays["config"] = np.frombuffer(json.dumps(config).encode(), dtype=np.uint8)
    return arrays
