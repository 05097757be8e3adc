r"""Multi-head attention: several query-dependent statistics in parallel (lecture section 5).

.. math:: \mathrm{head}_h = \mathrm{softmax}\!\big(X W_Q^{(h)} (X W_K^{(h)})^\top / \sqrt{d_h}
          + B_h\big)\, X W_V^{(h)}, \qquad Y = [\mathrm{head}_1, \dots, \mathrm{head}_H]\, W_O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from attnmath._validate import FloatArray, as_float_array, check_int
from attnmath.attention import attention

__all__ = ["MultiHeadResult", "multi_head_attention", "split_heads"]


@dataclass(frozen=True)
class MultiHeadResult:
    """Every step of a multi-head layer.

    Attributes
    ----------
    weights : ndarray, shape (H, T, T)
        Each head's attention weights.
    head_outputs : ndarray, shape (H, T, d_head)
        Each head's weighted sum of its values.
    concat : ndarray, shape (T, H * d_head)
        The head outputs side by side.
    output : ndarray, shape (T, d_model)
        ``concat @ w_o``.
    """

    weights: FloatArray
    head_outputs: FloatArray
    concat: FloatArray
    output: FloatArray


def split_heads(x: FloatArray, n_heads: int) -> FloatArray:
    """(T, H * d) -> (H, T, d)."""
    t, width = x.shape
    return x.reshape(t, n_heads, width // n_heads).transpose(1, 0, 2)


def multi_head_attention(
    x: Any, w_q: Any, w_k: Any, w_v: Any, w_o: Any, n_heads: int, *, mask: Any = None, bias: Any = None
) -> MultiHeadResult:
    r"""Multi-head self-attention over one sequence.

    Parameters
    ----------
    x : array_like, shape (T, d_model)
        Token representations.
    w_q, w_k, w_v : array_like, shape (d_model, H * d_head)
        Projections; columns ``h * d_head : (h + 1) * d_head`` belong to head h.
    w_o : array_like, shape (H * d_head, d_out)
        Output projection.
    n_heads : int
        Number of heads H (must divide the projection width).
    mask : array_like of bool, optional
        (T, T) or (H, T, T); True where a position may attend.
    bias : array_like, optional
        (T, T) or (H, T, T) added to each head's scaled scores.

    Returns
    -------
    MultiHeadResult

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(size=(5, 8)); w = [rng.normal(size=(8, 8)) for _ in range(4)]
    >>> res = multi_head_attention(x, *w, n_heads=2)
    >>> res.weights.shape, res.output.shape
    ((2, 5, 5), (5, 8))
    """
    xa = as_float_array(x, "x", min_ndim=2)
    if xa.ndim != 2:
        raise ValueError(f"x must have shape (T, d_model), got {xa.shape}")
    n_heads = check_int(n_heads, "n_heads", minimum=1)
    projections = [
        _projection(w, name, xa.shape[1], n_heads) for w, name in ((w_q, "w_q"), (w_k, "w_k"), (w_v, "w_v"))
    ]
    if projections[0].shape[1] != projections[1].shape[1]:
        raise ValueError(
            f"w_q and w_k must have the same width, got {projections[0].shape} and {projections[1].shape}"
        )
    wo = as_float_array(w_o, "w_o", min_ndim=2)
    if wo.ndim != 2 or wo.shape[0] != projections[2].shape[1]:
        raise ValueError(f"w_o must have shape ({projections[2].shape[1]}, d_out), got {wo.shape}")
    q, k, v = (split_heads(xa @ w, n_heads) for w in projections)  # (H, T, d_head) each
    res = attention(q, k, v, mask=mask, bias=bias)  # tau = sqrt(d_head)
    concat = res.output.transpose(1, 0, 2).reshape(xa.shape[0], -1)  # (T, H * d_head)
    return MultiHeadResult(res.weights, res.output, concat, concat @ wo)


def _projection(w: Any, name: str, d_model: int, n_heads: int) -> FloatArray:
    arr = as_float_array(w, name, min_ndim=2)
    if arr.ndim != 2 or arr.shape[0] != d_model:
        raise ValueError(f"{name} must have shape ({d_model}, H * d_head), got {arr.shape}")
    if arr.shape[1] % n_heads:
        raise ValueError(f"{name} width {arr.shape[1]} is not divisible by n_heads={n_heads}")
    return arr
