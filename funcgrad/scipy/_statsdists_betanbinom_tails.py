"""The CDF and survival function of :mod:`funcgrad.scipy.stats`' ``betanbinom(n, a, b)`` (the
negative binomial count of failures before the ``n``-th success, its success probability
``p`` drawn from ``beta(a, b)``), and a point past a given upper tail for its quantiles.

SciPy sums the masses ``0..k`` (its generic ``rv_discrete._cdf``) and takes ``sf = 1 -
cdf``.  Here each tail is a finite sum of its own, whichever is shorter:

- ``cdf(k) = sum_{j=0}^{k} pmf(j)`` (``k + 1`` terms, accurate where the CDF is small);
- ``sf(k) = P(Binomial(n + k, p) <= n - 1)`` averaged over ``p``: the ``n`` masses
  ``0..n-1`` of ``betabinom(n + k, a, b)`` (given ``p``, fewer than ``n`` successes in the
  first ``n + k`` trials is exactly more than ``k`` failures before the ``n``-th success).
  It keeps a far tail (``a`` small: the masses fall as ``k**-(a+1)``) to full relative
  accuracy, where SciPy's ``1 - cdf`` loses it.

Each element uses the direct sum of the tail asked for where it has at most ``L`` terms,
else one minus the other's, ``L`` the largest over the elements of the shorter count
(at least 64).  The counts set the number of terms, so ``n`` and ``k`` must be plain
values (not under ``jit`` or ``vmap``).  Both sums are written with funcgrad's special
functions: they differentiate in ``a`` and ``b`` (``n`` is an integer count; in ``k`` the
functions are steps, derivative 0).
"""
import math

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import concrete_values
from ..primitives.structural import stop_gradient
from . import special as sp

__all__ = ["betanbinom_tail", "betanbinom_tail_bound"]

_MIN_TERMS = 64  # (a direct sum of the tail asked for wherever it is this short)
_WHAT = "betanbinom's cdf and sf (a sum whose length the counts n and k set)"
_FIX = "Pass n and k as plain numbers or NumPy arrays (not under jit or vmap)."


def _log_mass(j, n, a, b):
    """``log pmf(j)`` of ``betanbinom(n, a, b)`` at the integers ``j >= 0``."""
    return -fnp.log(n + j) - sp.betaln(n, j + 1.0) + sp.betaln(a + n, b + j) - sp.betaln(a, b)


def _log_betabinom_mass(i, big_n, a, b):
    """``log pmf(i)`` of ``betabinom(big_n, a, b)``; ``C(N, i)`` as ``1 / ((N + 1) B(N - i
    + 1, i + 1))``, which keeps its accuracy for a huge ``N`` (a difference of
    ``gammaln`` would not)."""
    return (-fnp.log(big_n + 1.0) - sp.betaln(big_n - i + 1.0, i + 1.0)
            + sp.betaln(i + a, big_n - i + b) - sp.betaln(a, b))


def betanbinom_tail(k, n, a, b, upper):
    """``betanbinom``'s CDF (``upper`` False) or survival function at ``k`` (see the module
    docstring): 0 and 1 below the support, NaN where ``n`` is 0 (SciPy's masses are NaN
    there)."""
    c = fnp.floor(k)
    shape = fnp.broadcast_shapes(fnp.shape(c), fnp.shape(n), fnp.shape(a), fnp.shape(b))
    c_plain = np.broadcast_to(np.asarray(concrete_values(stop_gradient(c), _WHAT, _FIX),
                                         float), shape)
    n_plain = np.broadcast_to(np.asarray(concrete_values(stop_gradient(n), _WHAT, _FIX),
                                         float), shape)
    with np.errstate(invalid="ignore"):
        counts = np.where(c_plain >= 0, np.minimum(n_plain, c_plain + 1.0), 0.0)
    counts = counts[np.isfinite(counts)]
    terms = int(max(float(counts.max(initial=0.0)), _MIN_TERMS))
    j = np.arange(float(terms))
    below_support, beyond = fnp.less(c, 0), fnp.equal(c, math.inf)
    c = fnp.where(beyond, 0.0, c)  # (k = inf: the CDF is 1 and the sf 0, set below)
    ce, ne, ae, be = (fnp.expand_dims(fnp.broadcast_to(v, shape), -1) for v in (c, n, a, b))
    # (each sum over its own range, the other terms masked: the double where keeps the
    # masked ones' arguments valid)
    low_ok = fnp.less_equal(j, ce)
    low = fnp.sum(fnp.where(low_ok, fnp.exp(_log_mass(
        fnp.where(low_ok, j, 0.0), ne, ae, be)), 0.0), axis=-1)
    high_ok = fnp.less(j, ne)
    big_n = ne + fnp.maximum(ce, 0.0)
    high = fnp.sum(fnp.where(high_ok, fnp.exp(_log_betabinom_mass(
        fnp.where(high_ok, j, 0.0), big_n, ae, be)), 0.0), axis=-1)
    cc, nn = fnp.broadcast_to(c, shape), fnp.broadcast_to(n, shape)
    low_direct = fnp.less_equal(cc + 1.0, float(terms))
    high_direct = fnp.less_equal(nn, float(terms))
    if upper:
        out = fnp.where(high_direct, high, 1.0 - low)
        out = fnp.where(below_support, 1.0, out)
    else:
        out = fnp.where(low_direct, low, 1.0 - high)
        out = fnp.where(below_support, 0.0, out)
    out = fnp.where(beyond, 0.0 if upper else 1.0, fnp.clip(out, 0.0, 1.0))
    return fnp.where(fnp.equal(nn, 0), math.nan, out)


def betanbinom_tail_bound(tail, n, a, b):
    """A ``k`` with ``sf(k) <= tail`` (concrete): doubled from ``2 n`` until it holds, at most
    ``2**53`` (for the quantiles' search, which needs a finite right end)."""
    tail = np.asarray(concrete_values(stop_gradient(tail), _WHAT, _FIX), float)
    plain = [np.asarray(concrete_values(stop_gradient(v), _WHAT, _FIX), float)
             for v in (n, a, b)]
    shape = np.broadcast_shapes(tail.shape, *[v.shape for v in plain])
    high = np.broadcast_to(np.maximum(2.0 * plain[0], 1.0), shape).copy()
    with np.errstate(all="ignore"):
        for _ in range(60):
            sf = np.asarray(concrete_values(betanbinom_tail(high, *plain, upper=True), "", ""))
            more = (sf > tail) & (high < 2.0 ** 53)
            if not more.any():
                break
            high = np.where(more, np.minimum(2.0 * high, 2.0 ** 53), high)
    return high
