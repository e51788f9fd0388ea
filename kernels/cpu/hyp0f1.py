"""The power series of ``0F1(; v; z)`` where SciPy's own value is wrong, one element at a
time.  Imported (and compiled, then cached) on first use.

``series(v, z)`` sums ``sum_k z**k / ((v)_k k!)`` until a term is below ``1e-17`` of the
sum, and returns the sum together with the sum of the terms' magnitudes: their ratio
bounds the cancellation, so the caller knows how many digits the sum kept (about
``eps * magnitudes / |sum|`` relative).  For ``v > 0`` and ``|z| <= v/4`` each term is at
most a quarter of the one before (some 20 terms, no cancellation to speak of); for
``v < 0`` the terms first grow, and the caller decides by that ratio whether to keep the
sum.  A sum that has not settled after ``MAX_TERMS`` terms is NaN.
"""
import math

import numpy as np
from numba import njit

from .._numba_stamp import install

install()  # (before the cached functions: see .._numba_stamp)

__all__ = ["series", "MAX_TERMS"]

MAX_TERMS = 1.0e6


@njit(cache=True, error_model="numpy", nogil=True)
def _one(v, z):
    total = 1.0
    size = 1.0
    term = 1.0
    k = 0.0
    while k < MAX_TERMS:
        term *= z / ((v + k) * (k + 1.0))
        total += term
        size += abs(term)
        k += 1.0
        if not math.isfinite(size):
            return math.nan, math.inf
        # (a small term ends the sum only once the rest shrink by half a term or more,
        # so that their sum is below it: for v < 0 they first grow, pass near v + k = 0,
        # and shrink for good only past k = -v)
        if (abs(term) <= 1e-17 * abs(total) and k > -v
                and abs(z) <= 0.5 * (v + k) * (k + 1.0)):
            return total, size
    return math.nan, math.inf


@njit(cache=True, error_model="numpy", nogil=True)
def _many(v, z, total, size):
    for i in range(total.shape[0]):
        total[i], size[i] = _one(v[i], z[i])


def series(v, z):
    """``(sum, sum of magnitudes)`` of ``0F1(; v; z)``'s power series (float64 flat arrays
    of one length, finite, ``v`` not zero or a negative integer)."""
    v, z = (np.ascontiguousarray(a, dtype=np.float64).ravel() for a in (v, z))
    total = np.empty_like(z)
    size = np.empty_like(z)
    if total.size:
        _many(v, z, total, size)
    return total, size
