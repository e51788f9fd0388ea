"""The all-pole recursion under ``scipy.signal.lfilter``: ``y`` with
``sum_k a[k] y[n - k] = f[n]`` along the last axis (``y`` zero before the start), one
row of ``a`` per row of ``f``.  Imported (and compiled, then cached) on first use.
"""
import numpy as np
from numba import njit

from .._numba_stamp import install

install()  # (before the cached functions: see .._numba_stamp)

__all__ = ["all_pole"]


@njit(cache=True, error_model="numpy", nogil=True)
def _rows(a, f, y):
    order = a.shape[1] - 1
    for r in range(f.shape[0]):
        for n in range(f.shape[1]):
            acc = f[r, n]
            for k in range(1, min(order, n) + 1):
                acc -= a[r, k] * y[r, n - k]
            y[r, n] = acc / a[r, 0]


def all_pole(a, f):
    """``y`` of ``f``'s shape ``(..., N)`` from ``a`` ``(..., K + 1)`` (the same leading
    shape) and ``f``, both of one float or complex dtype."""
    if a.shape[:-1] != f.shape[:-1] or a.dtype != f.dtype or a.shape[-1] == 0:
        raise ValueError(f"all_pole: a {a.shape} {a.dtype} and f {f.shape} {f.dtype} must "
                         f"share their leading shape and dtype, a non-empty")
    rows = int(np.prod(f.shape[:-1]))
    rows_a = np.ascontiguousarray(a.reshape(rows, a.shape[-1]))
    rows_f = np.ascontiguousarray(f.reshape(rows, f.shape[-1]))
    y = np.empty_like(rows_f)
    if y.size:
        _rows(rows_a, rows_f, y)
    return y.reshape(f.shape)
