r"""Autoregressive decoding with a KV cache, and why it keeps raw keys and values (section 6).

At step t the output is :math:`\sum_{i \le t} \alpha_i(q_t)\, v_i`. Each new
query reweights every cached pair. Softmax's kernel :math:`\exp(q \cdot k / \tau)`
does not factor into a query part times a key part, so no fixed-size summary
of the past serves every future query: the cache must keep the raw
:math:`(k_i, v_i)`. Only a query-independent (uniform) pattern could be
collapsed into the running sum :math:`\sum_i v_i` kept by :class:`RunningSummary`.
Linear attention's kernel :math:`\phi(q)^\top \phi(k)` does factor, so its past
folds into a d x d state :math:`S_t = S_{t-1} + \phi(k_t) v_t^\top`
(:func:`linear_state_bytes`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from attnmath._validate import FloatArray, as_float_array, check_int
from attnmath.softmax import softmax

__all__ = [
    "KVCache",
    "CacheReadout",
    "RunningSummary",
    "kv_cache_bytes",
    "running_summary_bytes",
    "linear_state_bytes",
    "raw_cache_overtakes",
    "PagedBlocks",
    "paged_kv_blocks",
    "streaming_keep",
]


@dataclass(frozen=True)
class CacheReadout:
    r"""What one query reads from the cache.

    Attributes
    ----------
    output : ndarray, shape (d_v,) or (m, d_v)
        :math:`\sum_i \alpha_i v_i`.
    weights : ndarray, shape (len,) or (m, len)
        :math:`\alpha_i` over every cached position.
    """

    output: FloatArray
    weights: FloatArray


class KVCache:
    r"""Growing store of raw keys and values for one attention head.

    Parameters
    ----------
    d_k, d_v : int, optional
        Widths of keys and values; fixed by the first :meth:`append` if omitted.

    Examples
    --------
    >>> cache = KVCache(2, 1)
    >>> cache.append([1.0, 0.0], [5.0]); cache.append([0.0, 1.0], [7.0])
    >>> len(cache), cache.attend([0.0, 0.0]).output
    (2, array([6.]))
    """

    def __init__(self, d_k: int | None = None, d_v: int | None = None) -> None:
        self.d_k = None if d_k is None else check_int(d_k, "d_k", minimum=1)
        self.d_v = None if d_v is None else check_int(d_v, "d_v", minimum=1)
        self._keys = np.zeros((0, self.d_k or 0))
        self._values = np.zeros((0, self.d_v or 0))

    def __len__(self) -> int:
        return self._keys.shape[0]

    @property
    def keys(self) -> FloatArray:
        """Cached keys, shape (len, d_k) (a read-only view)."""
        view = self._keys.view()
        view.flags.writeable = False
        return view

    @property
    def values(self) -> FloatArray:
        """Cached values, shape (len, d_v) (a read-only view)."""
        view = self._values.view()
        view.flags.writeable = False
        return view

    @property
    def nbytes(self) -> int:
        """Bytes held by the cached keys and values."""
        return int(self._keys.nbytes + self._values.nbytes)

    def append(self, k: Any, v: Any) -> None:
        """Add one step (k: (d_k,), v: (d_v,)) or a block (k: (m, d_k), v: (m, d_v)).

        On any error the cache is left exactly as it was.
        """
        ka = np.atleast_2d(as_float_array(k, "k", min_ndim=1))
        va = np.atleast_2d(as_float_array(v, "v", min_ndim=1))
        if ka.ndim != 2 or va.ndim != 2 or ka.shape[0] != va.shape[0]:
            raise ValueError(
                f"k and v must hold the same number of steps, got shapes {np.shape(k)} and {np.shape(v)}"
            )
        for name, arr, width in (("k", ka, self.d_k), ("v", va, self.d_v)):
            if width is not None and arr.shape[1] != width:
                raise ValueError(f"{name} must have width {width}, got shape {arr.shape}")
            if not np.all(np.isfinite(arr)):
                raise ValueError(f"{name} must be finite")
        if self.d_k is None or self.d_v is None:
            self.d_k, self.d_v = ka.shape[1], va.shape[1]
            self._keys, self._values = np.zeros((0, self.d_k)), np.zeros((0, self.d_v))
        self._keys = np.concatenate([self._keys, ka])
        self._values = np.concatenate([self._values, va])

    def attend(self, q: Any, *, tau: float | None = None) -> CacheReadout:
        r"""Read the cache with query ``q`` (shape (d_k,) or (m, d_k)).

        Weights :math:`\mathrm{softmax}_i(q \cdot k_i / \tau)` over every cached
        position, :math:`\tau = \sqrt{d_k}` by default.
        """
        if len(self) == 0 or self.d_k is None:
            raise ValueError("the cache is empty: append at least one (k, v) before attending")
        qa = as_float_array(q, "q", min_ndim=1)
        if qa.shape[-1] != self.d_k or qa.ndim > 2:
            raise ValueError(f"q must have shape ({self.d_k},) or (m, {self.d_k}), got {qa.shape}")
        scale = np.sqrt(self.d_k) if tau is None else float(tau)
        if not (np.isfinite(scale) and scale > 0):
            raise ValueError(f"tau must be finite and > 0, got {tau}")
        weights = softmax(qa @ self._keys.T / scale)  # (len,) or (m, len)
        return CacheReadout(weights @ self._values, weights)


class RunningSummary:
    r"""Constant-memory accumulator: :math:`\sum_i v_i` and the count.

    Its read-out is the uniform (broadcast) attention output over the prefix.
    It has no keys, so it cannot answer a query-dependent pattern.
    """

    def __init__(self, d_v: int) -> None:
        self.d_v = check_int(d_v, "d_v", minimum=1)
        self.total = np.zeros(self.d_v)
        self.count = 0

    def append(self, v: Any) -> None:
        """Add one value (d_v,) or a block (m, d_v)."""
        va = np.atleast_2d(as_float_array(v, "v", min_ndim=1))
        if va.shape[1] != self.d_v or not np.all(np.isfinite(va)):
            raise ValueError(f"v must be finite with width {self.d_v}, got shape {np.shape(v)}")
        self.total = self.total + va.sum(axis=0)
        self.count += va.shape[0]

    def read(self) -> FloatArray:
        r""":math:`\frac1t \sum_{i \le t} v_i`."""
        if self.count == 0:
            raise ValueError("the summary is empty: append a value first")
        return self.total / self.count

    @property
    def nbytes(self) -> int:
        """Bytes held: the sum and the count, whatever the sequence length."""
        return int(self.total.nbytes + np.dtype(np.int64).itemsize)


def kv_cache_bytes(
    n_layers: int, n_kv_heads: int, head_dim: int, seq_len: int, *, bytes_per_element: int = 2
) -> int:
    """Bytes of a full KV cache: ``2 * layers * kv_heads * head_dim * seq_len * bytes``.

    The 2 counts keys and values.

    Examples
    --------
    >>> kv_cache_bytes(32, 32, 128, 1)  # 512 KiB per token for a 7B-class fp16 model
    524288
    >>> kv_cache_bytes(32, 32, 128, 4096) / 2**30
    2.0
    """
    layers = check_int(n_layers, "n_layers", minimum=1)
    heads = check_int(n_kv_heads, "n_kv_heads", minimum=1)
    dim = check_int(head_dim, "head_dim", minimum=1)
    length = check_int(seq_len, "seq_len", minimum=0)
    width = check_int(bytes_per_element, "bytes_per_element", minimum=1)
    return 2 * layers * heads * dim * length * width


def running_summary_bytes(
    n_layers: int, n_kv_heads: int, head_dim: int, *, bytes_per_element: int = 2
) -> int:
    """Bytes of a running sum of values per layer and head, plus an 8-byte count; constant in length.

    Examples
    --------
    >>> running_summary_bytes(32, 32, 128) // 1024  # KiB, whatever the sequence length
    256
    """
    one_token = kv_cache_bytes(n_layers, n_kv_heads, head_dim, 1, bytes_per_element=bytes_per_element)
    per_token_values = one_token // 2
    return per_token_values + 8


def linear_state_bytes(n_layers: int, n_kv_heads: int, head_dim: int, *, bytes_per_element: int = 2) -> int:
    r"""Bytes of causal linear attention's states: per layer and head, a d x d matrix and a vector.

    :math:`S_t = \sum_{i \le t} \phi(k_i) v_i^\top` and its normaliser
    :math:`z_t = \sum_{i \le t} \phi(k_i)`, with the feature map keeping the
    head's width; constant in sequence length.

    Examples
    --------
    >>> linear_state_bytes(32, 32, 128) / 2**20  # MiB, whatever the sequence length
    32.25
    """
    layers = check_int(n_layers, "n_layers", minimum=1)
    heads = check_int(n_kv_heads, "n_kv_heads", minimum=1)
    dim = check_int(head_dim, "head_dim", minimum=1)
    width = check_int(bytes_per_element, "bytes_per_element", minimum=1)
    return layers * heads * (dim * dim + dim) * width


def raw_cache_overtakes(n_layers: int, n_kv_heads: int, head_dim: int, *, bytes_per_element: int = 2) -> int:
    """The fewest tokens at which the raw KV cache takes more bytes than linear attention's states.

    Examples
    --------
    >>> raw_cache_overtakes(32, 32, 128)  # 64 tokens take 32 MiB, under the states' 32.25; 65 take 32.5
    65
    """
    shape = (n_layers, n_kv_heads, head_dim)
    state = linear_state_bytes(*shape, bytes_per_element=bytes_per_element)
    return state // kv_cache_bytes(*shape, 1, bytes_per_element=bytes_per_element) + 1


@dataclass(frozen=True)
class PagedBlocks:
    """Paged allocation of a sequence's cache (as in vLLM).

    Attributes
    ----------
    n_blocks : int
        Blocks allocated: ``ceil(seq_len / block_size)``.
    used_slots : int
        Token slots holding data (``seq_len``).
    wasted_slots : int
        Empty slots, all in the last block (< ``block_size``).
    """

    n_blocks: int
    used_slots: int
    wasted_slots: int


def paged_kv_blocks(seq_len: int, block_size: int = 16) -> PagedBlocks:
    """Blocks needed for ``seq_len`` tokens and the slots left empty in the last one.

    Examples
    --------
    >>> paged_kv_blocks(100, 16)
    PagedBlocks(n_blocks=7, used_slots=100, wasted_slots=12)
    """
    seq_len = check_int(seq_len, "seq_len", minimum=0)
    block_size = check_int(block_size, "block_size", minimum=1)
    n_blocks = -(-seq_len // block_size)
    return PagedBlocks(n_blocks, seq_len, n_blocks * block_size - seq_len)


def streaming_keep(seq_len: int, n_sink: int, window: int) -> NDArray[np.int64]:
    """Positions an attention-sink cache (StreamingLLM) keeps: the first ``n_sink`` and the last ``window``.

    Everything is kept when it fits.

    Examples
    --------
    >>> streaming_keep(10, 2, 3)
    array([0, 1, 7, 8, 9])
    >>> streaming_keep(4, 2, 3)
    array([0, 1, 2, 3])
    """
    seq_len = check_int(seq_len, "seq_len", minimum=0)
    n_sink = check_int(n_sink, "n_sink", minimum=0)
    window = check_int(window, "window", minimum=0)
    if n_sink + window >= seq_len:
        return np.arange(seq_len, dtype=np.int64)
    return np.concatenate([np.arange(n_sink), np.arange(seq_len - window, seq_len)]).astype(np.int64)
