"""SmolLM2-135M-Instruct a token at a time, with a real KV cache (section 6).

Each new token's query, key and value are computed in every layer; its key and
value join that layer's cache (3 key-value heads, which the 9 query heads share)
and its query attends over the cache: earlier tokens are never recomputed. The
logits equal those of :func:`attnmath.decoder.forward`'s causal pass.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attnmath._validate import FloatArray, check_int
from attnmath.decoder import _as_ids, _attend, _check_length, _feed_forward, _project, _rms_norm
from attnmath.decoder_weights import D_HEAD, F32, N_KV_HEADS, N_LAYERS, load_decoder

__all__ = ["DecodeStep", "IncrementalDecoder"]


@dataclass(frozen=True, eq=False)
class DecodeStep:
    """One token appended to an :class:`IncrementalDecoder`.

    Attributes
    ----------
    position : int
        The token's position (0 for the first).
    logits : ndarray of float32, shape (49152,)
        Scores for the next token.
    attention : ndarray of float64, shape (30, 9, position + 1)
        The token's attention row in every layer and head, over the cached tokens and itself.
    """

    position: int
    logits: F32
    attention: FloatArray


class IncrementalDecoder:
    """SmolLM2-135M-Instruct a token at a time, with a real KV cache.

    Each :meth:`append` computes the new token's query, key and value in every
    layer, appends the key and value to that layer's cache (3 key-value heads,
    float32) and attends over the cache: earlier tokens are never recomputed.

    Examples
    --------
    >>> from attnmath.decoder import cache_bytes, token_texts, tokenize
    >>> decoder = IncrementalDecoder()
    >>> steps = [decoder.append(i) for i in tokenize("The capital of France is")]
    >>> len(decoder), decoder.nbytes == cache_bytes(5, bytes_per_element=4)
    (5, True)
    >>> token_texts([int(steps[-1].logits.argmax())])
    (' Paris',)
    """

    def __init__(self) -> None:
        self._dec = load_decoder()
        self._n = 0
        self._keys = np.empty((N_LAYERS, N_KV_HEADS, 16, D_HEAD), dtype=np.float32)
        self._values = np.empty_like(self._keys)

    def __len__(self) -> int:
        return self._n

    @property
    def keys(self) -> F32:
        """(30, 3, t, 64) the cached keys (rotated), a read-only view."""
        view = self._keys[:, :, : self._n]
        view.flags.writeable = False
        return view

    @property
    def values(self) -> F32:
        """(30, 3, t, 64) the cached values, a read-only view."""
        view = self._values[:, :, : self._n]
        view.flags.writeable = False
        return view

    @property
    def nbytes(self) -> int:
        """Bytes of the cached keys and values (float32); the storage grows by doubling."""
        return int(self.keys.nbytes + self.values.nbytes)

    def _grow(self) -> None:
        size = self._keys.shape[2]
        keys = np.empty((N_LAYERS, N_KV_HEADS, 2 * size, D_HEAD), dtype=np.float32)
        values = np.empty_like(keys)
        keys[:, :, :size], values[:, :, :size] = self._keys, self._values
        self._keys, self._values = keys, values

    def append(self, token_id: int) -> DecodeStep:
        """Run one more token; its key and value join the cache.

        Raises
        ------
        ValueError
            If the cache already holds :data:`MAX_TOKENS` tokens, or the id is not a token.
        """
        dec, t = self._dec, self._n
        token = int(_as_ids([check_int(token_id, "token_id", minimum=0)])[0])
        _check_length(t + 1)
        if t == self._keys.shape[2]:
            self._grow()
        x = dec.embeddings[token][None]  # (1, D)
        rows = []
        for i, layer in enumerate(dec.layers):
            q, k, v = _project(dec, layer, x, np.array([t]))
            self._keys[i, :, t], self._values[i, :, t] = k[:, 0], v[:, 0]
            a, heads = _attend(q, self._keys[i, :, : t + 1], self._values[i, :, : t + 1], np.ones(1, bool))
            x = _feed_forward(x + heads @ layer.w_o, layer, dec.eps)
            rows.append(a[:, 0])
        self._n = t + 1
        logits = (_rms_norm(x, dec.output_norm, dec.eps) @ dec.embeddings.T)[0]
        return DecodeStep(position=t, logits=logits, attention=np.stack(rows))
