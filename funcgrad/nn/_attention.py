"""Scaled dot-product attention, as ``jax.nn.dot_product_attention`` defines it.

Written with ``funcgrad.numpy`` (two ``einsum`` and a :func:`softmax`), so every transform
differentiates it.  Masked-out logits are replaced by a large negative number rather than
``-inf`` (JAX's choice: a row masked out entirely averages the values instead of giving
NaN), and the softmax runs in at least single precision.
"""
import numpy as np

from .. import numpy as fnp
from ..typing import Array, ArrayLike
from ._reductions import softmax

__all__ = ["dot_product_attention"]


def _sequence_mask(lengths, size, batch, name):
    """``[b, s]``: whether position ``s`` lies before ``lengths[b]``."""
    lengths = fnp.asarray(lengths)
    if lengths.dtype.kind not in "iu" or lengths.shape != (batch,):
        raise ValueError(f"dot_product_attention: {name} must be an integer array of shape "
                         f"(batch,) = ({batch},), got {lengths.dtype} {lengths.shape}")
    return np.arange(size)[None, :] < lengths[:, None]


def _window(local_window_size):
    if isinstance(local_window_size, (int, np.integer)):
        return int(local_window_size), int(local_window_size)
    left, right = local_window_size
    return int(left), int(right)


def dot_product_attention(query: ArrayLike, key: ArrayLike, value: ArrayLike,
                          bias: ArrayLike | None = None, mask: ArrayLike | None = None, *,
                          scale: float | None = None, is_causal: bool = False,
                          query_seq_lengths: ArrayLike | None = None,
                          key_value_seq_lengths: ArrayLike | None = None,
                          local_window_size: int | tuple[int, int] | None = None,
                          implementation: str | None = None) -> Array:
    """``softmax(query @ key^T * scale + bias, masked) @ value``, per batch and head.

    Shapes (JAX's names): ``query`` ``(B, T, N, H)``, ``key`` and ``value`` ``(B, S, K,
    H)`` with ``N`` a multiple of ``K`` (grouped-query attention: each key/value head
    serves ``N // K`` query heads); the batch axis may be left out of all three. ``bias``
    (added to the logits) and ``mask`` (boolean, True = attend) broadcast to ``(B, N, T,
    S)``. ``scale`` defaults to ``1 / sqrt(H)``; ``is_causal`` lets query ``t`` see keys
    ``s <= t``; ``query_seq_lengths``/``key_value_seq_lengths`` (``(B,)`` integers) mask
    the padding beyond each sequence's length (padding queries give zeros);
    ``local_window_size`` ``(left, right)`` (or
    one int for both) lets query ``t`` see keys ``t - left <= s <= t + right``. The result
    has ``query``'s shape and dtype.

    >>> import numpy as np, funcgrad as fg, funcgrad.nn as nn
    >>> q = k = v = np.eye(2).reshape(2, 1, 2)  # T = S = 2, one head, H = 2
    >>> nn.dot_product_attention(q, k, v, scale=1000.0).round(6)
    array([[[1., 0.]],
    <BLANKLINE>
           [[0., 1.]]])
    >>> nn.dot_product_attention(q, k, v, is_causal=True)[0]
    array([[1., 0.]])
    >>> g = fg.grad(lambda q: nn.dot_product_attention(q, k, v).sum())(q)
    >>> g.shape
    (2, 1, 2)
    """
    if implementation not in (None, "xla"):
        raise ValueError(f"dot_product_attention: implementation={implementation!r} is not "
                         f"available here; funcgrad has one implementation: pass None "
                         f"(or 'xla')")
    query, key, value = fnp.asarray(query), fnp.asarray(key), fnp.asarray(value)
    batched = query.ndim == 4
    if query.ndim not in (3, 4) or key.ndim != query.ndim or value.ndim != query.ndim:
        raise ValueError(f"dot_product_attention: query, key and value must all be (B, T, N, "
                         f"H) or all (T, N, H); got shapes {query.shape}, {key.shape}, "
                         f"{value.shape}")
    if not batched:
        query, key, value = query[None], key[None], value[None]
    b, t, n, h = query.shape
    s, k = key.shape[1], key.shape[2]
    if key.shape != value.shape or key.shape[0] != b or key.shape[3] != h or n % k:
        raise ValueError(f"dot_product_attention: key and value must have one shape (B, S, K, "
                         f"H) with query's B and H and K dividing query's N heads; got "
                         f"query {query.shape}, key {key.shape}, value {value.shape}")
    dtype = query.dtype
    scale = 1.0 / np.sqrt(h) if scale is None else scale
    grouped = fnp.reshape(query, (b, t, k, n // k, h))
    logits = fnp.einsum("btkgh,bskh->bkgts", grouped, key)
    logits = fnp.reshape(logits * fnp.asarray(scale, logits.dtype), (b, n, t, s))
    if bias is not None:
        logits = fnp.astype(logits + fnp.asarray(bias), logits.dtype)
    rows = (None if query_seq_lengths is None
            else _sequence_mask(query_seq_lengths, t, b, "query_seq_lengths"))
    keep = _keep(mask, is_causal, rows, key_value_seq_lengths, local_window_size, b, t, s)
    if keep is not None:
        large_negative = -0.7 * float(np.finfo(logits.dtype).max)
        logits = fnp.where(keep, logits, fnp.asarray(large_negative, logits.dtype))
    wide = np.promote_types(logits.dtype, np.float32)
    probs = fnp.astype(softmax(fnp.astype(logits, wide), axis=-1), key.dtype)
    probs = fnp.reshape(probs, (b, k, n // k, t, s))
    out = fnp.reshape(fnp.einsum("bkgts,bskh->btkgh", probs, value), (b, t, n, h))
    if rows is not None:  # padding queries give zeros, as JAX's
        out = fnp.where(rows[:, :, None, None], out, fnp.zeros((), out.dtype))
    out = fnp.astype(out, dtype)
    return out if batched else out[0]


def _keep(mask, is_causal, rows, key_value_seq_lengths, local_window_size, b, t, s):
    """The boolean ``(B, N or 1, T, S)`` mask of logits attended to, or None for all
    (``rows``: ``[b, t]``, the queries within their sequence's length, or None)."""
    keep = None

    def both(extra):
        return extra if keep is None else fnp.logical_and(keep, extra)

    if mask is not None:
        mask = fnp.asarray(mask)
        if mask.dtype.kind != "b":
            raise TypeError(f"dot_product_attention: mask must be boolean (True = attend), "
                            f"got {mask.dtype}; add a float mask as bias= instead")
        keep = mask
    if is_causal:
        keep = both(np.tril(np.ones((t, s), bool)))
    if local_window_size is not None:
        left, right = _window(local_window_size)
        tq, sk = np.arange(t)[:, None], np.arange(s)[None, :]
        keep = both((tq <= sk + left) & (tq >= sk - right))
    if rows is not None:
        keep = both(rows[:, None, :, None])
    if key_value_seq_lengths is not None:
        cols = _sequence_mask(key_value_seq_lengths, s, b, "key_value_seq_lengths")
        keep = both(cols[:, None, None, :])
    return keep
