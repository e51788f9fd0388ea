"""Kummer's ``M(a, b, x) = 1F1(a; b; x)`` where SciPy's own value is wrong: two
recurrences, one element at a time.  Imported (and compiled, then cached) on first use.

* ``by_b_recurrence``: ``M(a, b, x)`` for real ``a``, ``b > 0`` and ``x`` by the
  contiguous relation in ``b`` (DLMF 13.3.2),
  ``c (c - 1) M(a, c - 1, x) + c (1 - c - x) M(a, c, x) + x (c - a) M(a, c + 1, x) = 0``,
  run downwards from ``c = b + k``, where ``k`` is large enough for the power series
  to converge geometrically with no cancellation (``(|a| + 1) |x| < 0.8 c``).
  ``M(a, c, x)`` tends to 1 as ``c`` grows while the relation's other solution grows
  like ``Gamma(c)``: ``M`` is its minimal solution as ``c -> inf``, so the downward
  run is stable (errors in the other solution die out); this is the case SciPy's
  series of Kummer's transform ``exp(x) M(b - a, b, -x)`` cannot do for large ``a``
  and ``-1 <= x < 0`` (its terms reach ``exp(2 sqrt(a |x|))`` times the sum).  The
  work is ``1.25 (|a| + 1) |x|`` steps; ``c`` is ``b + j`` with an integer count
  ``j``, so that the last step lands on ``b`` exactly (a ``c`` decremented ``k``
  times carries ``k`` roundings into a tiny ``b``).
* ``by_a_recurrence``: ``M(-n, b, x)`` for a non-negative integer ``n`` (a scaled
  Laguerre polynomial) by the contiguous relation in ``a`` (DLMF 13.3.1) from
  ``M(0) = 1`` and ``M(-1) = 1 - x/b``.

Both keep the running pair in range by powers of two (``M`` can fall below 1e-300
half way), and return ``mantissa * 2**exponent`` rebuilt at the end.
"""
import math

import numpy as np
from numba import njit

from .._numba_stamp import install

install()  # (before the cached functions: see .._numba_stamp)

__all__ = ["by_b_recurrence", "by_a_recurrence"]

_BIG = 2.0 ** 600
_SMALL = 2.0 ** -600


@njit(cache=True, error_model="numpy", nogil=True)
def _series(a, b, x):
    # (only called where each term is at most 0.8 times the one before: no cancellation)
    total = 1.0
    term = 1.0
    n = 0.0
    while True:
        term *= (a + n) * x / ((b + n) * (n + 1.0))
        total += term
        n += 1.0
        if abs(term) <= 1e-17 * abs(total):
            return total


@njit(cache=True, error_model="numpy", nogil=True)
def _rescaled(here, other, scale):
    """A three-term recurrence's two latest values brought back by 2**-600 or 2**600 when
    the latest leaves [2**-600, 2**600], and the exponent so far (the ratios stay exact)."""
    size = abs(here)
    if size > _BIG:
        return here * _SMALL, other * _SMALL, scale + 600
    if size < _SMALL and size != 0.0:
        return here * _BIG, other * _BIG, scale - 600
    return here, other, scale


@njit(cache=True, error_model="numpy", nogil=True)
def _one_by_b(a, b, x):
    k = math.ceil(max(0.0, 1.25 * (abs(a) + 1.0) * abs(x) - b)) + 1.0
    upper = _series(a, b + k + 1.0, x)  # M(a, c + 1, x)
    here = _series(a, b + k, x)  # M(a, c, x)
    scale = 0
    j = k
    while j > 0.5:
        c = b + j
        below = (-c * (1.0 - c - x) * here - x * (c - a) * upper) / (c * (c - 1.0))
        upper = here
        here = below
        j -= 1.0
        here, upper, scale = _rescaled(here, upper, scale)
    return math.ldexp(here, scale) if scale != 0 else here


@njit(cache=True, error_model="numpy", nogil=True)
def _one_by_a(n, b, x):
    if n == 0.0:
        return 1.0
    older = 1.0  # M(0, b, x)
    here = 1.0 - x / b  # M(-1, b, x)
    scale = 0
    k = 1.0
    while k < n - 0.5:
        a = -k
        # (b - a) M(a - 1) + (2a - b + x) M(a) - a M(a + 1) = 0
        below = (a * older - (2.0 * a - b + x) * here) / (b - a)
        older = here
        here = below
        k += 1.0
        here, older, scale = _rescaled(here, older, scale)
    return math.ldexp(here, scale) if scale != 0 else here


@njit(cache=True, error_model="numpy", nogil=True)
def _many_by_b(a, b, x, out):
    for i in range(out.shape[0]):
        out[i] = _one_by_b(a[i], b[i], x[i])


@njit(cache=True, error_model="numpy", nogil=True)
def _many_by_a(n, b, x, out):
    for i in range(out.shape[0]):
        out[i] = _one_by_a(n[i], b[i], x[i])


def _flat(*arrays):
    return [np.ascontiguousarray(v, dtype=np.float64).ravel() for v in arrays]


def by_b_recurrence(a, b, x):
    """``M(a, b, x)`` (float64, one flat array per argument, of one length; ``b > 0``,
    all finite) by the downward recurrence in ``b``."""
    a, b, x = _flat(a, b, x)
    out = np.empty_like(x)
    if out.size:
        _many_by_b(a, b, x, out)
    return out


def by_a_recurrence(n, b, x):
    """``M(-n, b, x)`` (float64 flat arrays of one length; ``n`` a non-negative integer,
    ``b > 0``) by the recurrence in ``a``."""
    n, b, x = _flat(n, b, x)
    out = np.empty_like(x)
    if out.size:
        _many_by_a(n, b, x, out)
    return out
