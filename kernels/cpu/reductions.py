"""Reduction kernels: logsumexp and its VJP, the max/min VJP.

Sum, mean, max and min themselves stay NumPy's (pairwise SIMD sums and SIMD max/min,
which a Numba loop does not beat; measured in ``benchmarks/kernels.py``), and so do
``unbroadcast`` (a NumPy sum) and the broadcast-back of a reduced cotangent (a
zero-copy ``broadcast_to`` view).  Variance is a composite of those primitives.

The Numba kernels work on a 2-d ``(rows, n)`` layout: the reduced axes are moved last
and merged (a copy only when that view is not contiguous), one row per output element.
"""
import contextlib
import math

import numpy as np

from . import _lazy
from ._lazy import F32, F64, config


def _sweep(name):
    # Built now even when loading in the background: no NumPy path gives these sweeps'
    # bits (they accumulate in float64, in their own order).
    return getattr(_lazy.loops(name), name)


def _rows(x, axes):
    """``x`` with ``axes`` moved last and merged: (2-d C-contiguous array, kept shape)."""
    nd = x.ndim
    k = nd - len(axes)
    if tuple(axes) == tuple(range(k, nd)):  # trailing axes (the usual case): one reshape
        kept_shape = x.shape[:k]  # callers pass non-empty arrays: at least one row
        return np.ascontiguousarray(x.reshape(math.prod(kept_shape), -1)), kept_shape, None
    keep = [i for i in range(nd) if i not in axes]
    xt = np.transpose(x, keep + list(axes))
    kept_shape = tuple(x.shape[i] for i in keep)
    n = 1
    for a in axes:
        n *= x.shape[a]
    rows = 1
    for d in kept_shape:
        rows *= d
    return np.ascontiguousarray(xt.reshape(rows, n)), kept_shape, keep


def _unrows(r, x, axes, kept_shape, keep):
    """Inverse of ``_rows`` for an array of x's size: back to x's axis order (a view)."""
    if keep is None:
        return r.reshape(x.shape)
    full = r.reshape(kept_shape + tuple(x.shape[a] for a in axes))
    return np.transpose(full, np.argsort(keep + list(axes)))


def _reduced_shape(shape, axes, keepdims):
    if keepdims:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


def _numba_ok(x, axes):
    # (the size first: a small array, a softmax's logits, is refused at once)
    return (type(x) is np.ndarray and x.size >= config.numba_min
            and (x.dtype is F64 or x.dtype is F32) and len(axes) > 0)


# --- logsumexp -----------------------------------------------------------------------------

_NO_WARNINGS_TO_HIDE = contextlib.nullcontext()
_all_true = np.logical_and.reduce


def _logsumexp_parts(x, axes, keepdims):
    """NumPy's way: ``(logsumexp, e, s)`` with ``e = exp(x - shift)`` and ``s`` its sum
    over ``axes`` (kept as axes of length 1): ``e / s`` is the softmax."""
    # The ufuncs' reductions, which np.max/np.sum call after their Python set-up (the
    # same bits, ~12 us less on W3's softmax of 128 x 10).
    m = np.maximum.reduce(x, axis=axes, keepdims=True)
    finite = np.isfinite(m)
    quiet = _NO_WARNINGS_TO_HIDE  # (each sum holds exp(0) = 1: no log(0))
    # (logical_and.reduce: what finite.all() runs, after a call of NumPy's Python _all)
    if not _all_true(finite, None):  # all -inf (or an inf, a NaN) along a slice: shift by 0
        m = np.where(finite, m, 0)
        quiet = np.errstate(divide="ignore")
    with quiet:
        e = np.exp(x - m)
        s = np.add.reduce(e, axis=axes, keepdims=True)
        out = np.log(s) + m
    if not keepdims:
        out = out.squeeze(axis=axes)
    return (out.astype(x.dtype, copy=False) if x.dtype.kind == "f" else out), e, s


def _logsumexp_numpy(x, axes, keepdims):
    return _logsumexp_parts(x, axes, keepdims)[0]


def logsumexp(x, axes, keepdims=False):
    """``log(sum(exp(x)))`` over ``axes`` (sorted non-negative ints; non-empty axes).

    Large float arrays: two sweeps per output element (max, then the shifted exp-sum,
    accumulated in float64), instead of NumPy's five passes and three temporaries.
    """
    return logsumexp_with_softmax(x, axes, keepdims)[0]


def logsumexp_with_softmax(x, axes, keepdims=False):
    """``(logsumexp, parts)``: ``parts = (e, s)`` when computed NumPy's way, so that the
    VJP's softmax is ``e / s`` with no second pass (the same arrays a recomputation gives:
    the same bits); ``None`` when a kernel computed it (the VJP has its own kernel)."""
    if not _numba_ok(x, axes) or x.size == 0:
        out, e, s = _logsumexp_parts(x, axes, keepdims)
        return out, (e, s)
    r, kept_shape, _ = _rows(x, axes)
    out = np.empty(r.shape[0], x.dtype)
    _sweep("logsumexp_rows")(r, out)
    return out.reshape(_reduced_shape(x.shape, axes, keepdims)), None


def logsumexp_vjp(g, x, out, axes, keepdims):
    """``g * softmax(x)`` with g broadcast back over ``axes``; None if not plain.

    None tells the caller to use the differentiable rule (small or non-float arrays).
    """
    if not _numba_ok(x, axes) or x.size == 0:
        return None
    dt = x.dtype
    g = np.asarray(g)
    out = np.asarray(out)
    reduced = _reduced_shape(x.shape, axes, keepdims)
    if g.dtype is not dt or out.dtype is not dt or g.shape != reduced or out.shape != reduced:
        return None
    r, kept_shape, keep = _rows(x, axes)
    res = np.empty(r.shape, dt)
    _sweep("softmax_scale_rows")(np.ascontiguousarray(g).reshape(-1), r, res)
    return _unrows(res, x, axes, kept_shape, keep)


# --- max / min -------------------------------------------------------------------------------

def extremum_vjp(g, x, out, axes, keepdims):
    """The max/min VJP: each slice's ``g`` split evenly among the entries equal to its
    extremum (ties share, as in JAX and PyTorch); None if not plain (use the rule)."""
    if not _numba_ok(x, axes) or x.size == 0:
        return None
    dt = x.dtype
    g = np.asarray(g)
    out = np.asarray(out)
    reduced = _reduced_shape(x.shape, axes, keepdims)
    if g.dtype is not dt or out.dtype is not dt or g.shape != reduced or out.shape != reduced:
        return None
    r, kept_shape, keep = _rows(x, axes)
    res = np.empty(r.shape, dt)
    _sweep("extremum_weights_rows")(np.ascontiguousarray(g).reshape(-1), r,
                                    np.ascontiguousarray(out).reshape(-1), res)
    return _unrows(res, x, axes, kept_shape, keep)
