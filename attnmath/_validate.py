"""Argument checks shared by the public functions of :mod:`attnmath`.

Every public function validates at its boundary with these helpers, so a bad
argument fails with a message that names it and says what was expected,
instead of a traceback from deep inside numpy or scipy.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "as_float_array",
    "as_bool_array",
    "check_nonnegative",
    "check_tau",
    "check_int",
    "normalize_axis",
]

FloatArray = NDArray[np.float64]


def as_float_array(x: Any, name: str, *, min_ndim: int = 0) -> FloatArray:
    """Convert ``x`` to a float64 array, rejecting non-numeric data.

    Parameters
    ----------
    x : array_like
        The argument's value.
    name : str
        The argument's name, used in error messages.
    min_ndim : int
        Smallest number of dimensions accepted.

    Returns
    -------
    ndarray of float64
    """
    try:
        arr = np.asarray(x)
    except (ValueError, TypeError) as exc:  # ragged nested lists
        raise TypeError(f"{name} must be a numeric array, got {type(x).__name__}: {exc}") from None
    if arr.dtype.kind not in "iuf":
        raise TypeError(
            f"{name} must be a real numeric array, got dtype {arr.dtype} (from {type(x).__name__})"
        )
    if arr.ndim < min_ndim:
        raise ValueError(f"{name} must have at least {min_ndim} dimension(s), got shape {arr.shape}")
    return arr.astype(np.float64, copy=False)


def as_bool_array(x: Any, name: str) -> NDArray[np.bool_]:
    """Convert ``x`` to a boolean array, rejecting anything that is not boolean."""
    arr = np.asarray(x)
    if arr.dtype.kind != "b":
        raise TypeError(f"{name} must be a boolean array (True = may attend), got dtype {arr.dtype}")
    return arr


def check_nonnegative(arr: FloatArray, name: str) -> None:
    """Raise if ``arr`` holds NaN or a negative entry."""
    if np.any(np.isnan(arr)):
        raise ValueError(f"{name} must not contain NaN")
    if np.any(arr < 0):
        raise ValueError(f"{name} must be >= 0, got min {float(np.min(arr))!r}")


def check_tau(tau: Any, name: str = "tau") -> FloatArray:
    """Return ``tau`` as a float array after checking it is >= 0 and not NaN."""
    arr = as_float_array(tau, name)
    if np.any(np.isnan(arr)):
        raise ValueError(f"{name} must be >= 0, got NaN")
    if np.any(arr < 0):
        raise ValueError(f"{name} must be >= 0, got {float(np.min(arr))!r}")
    return arr


def check_int(value: Any, name: str, *, minimum: int) -> int:
    """Return ``value`` as an int after checking its type and lower bound."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    return int(value)


def normalize_axis(axis: int, ndim: int, name: str = "axis") -> int:
    """Return ``axis`` as a negative index valid for an array of ``ndim`` dimensions."""
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"{name} must be an integer, got {type(axis).__name__}")
    if not -ndim <= axis < ndim:
        raise ValueError(f"{name}={axis} is out of range for an array with {ndim} dimension(s)")
    return int(axis) - ndim if axis >= 0 else int(axis)
