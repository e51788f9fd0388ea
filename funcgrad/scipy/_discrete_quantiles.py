"""``ppf`` and ``isf`` of :mod:`funcgrad.scipy.stats`' discrete distributions, with
SciPy's conventions: ``ppf(q)`` is the least ``k`` with ``cdf(k) >= q`` and ``isf(q)``
the least ``k`` with ``sf(k) <= q``; ``ppf(0)`` and ``isf(1)`` are ``a - 1`` (``a`` the
left end of the support), ``ppf(1)`` and ``isf(0)`` its right end (``inf`` for an
unbounded one); NaN for ``q`` outside ``[0, 1]``, NaN ``q`` or ``loc`` and invalid
parameters; always float64, as SciPy's.

The search is a bisection over the integers between ``a - 1`` and a right end where the
condition holds: the support's, or from Cantelli's inequality ``P(X - mean >= t) <= var
/ (var + t**2)`` for an unbounded one.  It is written with :mod:`funcgrad.numpy`, so it
runs on traced values too (``jit``, ``vmap``): a fixed 64 steps there (one loop), as
many as the widest interval needs on plain arrays.  The quantile of a discrete
distribution is a step function: its derivative is 0 (in ``q`` and in the parameters)
wherever it exists.
"""
import math

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import concrete_values, is_concrete
from ..primitives.structural import stop_gradient as _stop_gradient

__all__ = ["quantile"]

_TRACED_STEPS = 64  # (halves any interval of float64 integers to one)


def _steps(lo, hi):
    """The bisection steps the widest interval of concrete bounds needs."""
    width = np.asarray(concrete_values(hi, "", ""), float) - np.asarray(
        concrete_values(lo, "", ""), float)
    width = width[np.isfinite(width)]
    return int(np.ceil(np.log2(max(float(width.max(initial=1.0)), 1.0)))) + 1


def quantile(dist, q, shape, loc, ok, upper):
    """``dist.ppf`` (``upper`` False) or ``dist.isf`` of ``q`` at the standardized
    parameters ``shape`` (valid stand-ins where ``ok`` is False), shifted by ``loc``."""
    q, loc = _stop_gradient(fnp.asarray(q, dtype=np.float64)), _stop_gradient(loc)
    shape = [_stop_gradient(s) for s in shape]
    bounds = getattr(dist, "_bounds", None)
    low, high = (0.0, math.inf) if bounds is None else bounds(*shape)
    inside = fnp.logical_and(fnp.greater(q, 0.0), fnp.less(q, 1.0))
    qs = fnp.where(inside, q, 0.5)
    lo = fnp.zeros_like(qs) + (low - 1.0)
    if dist._bounded:
        hi = fnp.zeros_like(qs) + high
    else:
        # Cantelli: the mass above mean + t is at most var / (var + t**2) = the tail
        tail = qs if upper else 1.0 - qs
        t = fnp.sqrt(dist._var(*shape) * ((1.0 - tail) / tail))
        hi = fnp.maximum(fnp.ceil(dist._mean(*shape) + t) + 1.0, low) + fnp.zeros_like(qs)
    if upper:
        def holds(k):
            return fnp.less_equal(dist._sf(k, *shape), qs)
    else:
        def holds(k):
            return fnp.greater_equal(dist._cdf(k, *shape), qs)
    def step(_, bounds):
        lo, hi = bounds
        mid = fnp.floor((lo + hi) * 0.5)
        met = holds(mid)
        return fnp.where(met, lo, mid), fnp.where(met, mid, hi)
    if is_concrete(lo) and is_concrete(hi):
        for k in range(_steps(lo, hi)):
            lo, hi = step(k, (lo, hi))
    else:  # (one loop, compiled once; its first step outside gives the bounds their shape)
        from ..lax import fori_loop
        lo, hi = fori_loop(1, _TRACED_STEPS, step, step(0, (lo, hi)))
    at_zero, at_one = (high, low - 1.0) if upper else (low - 1.0, high)
    out = fnp.where(inside, hi, fnp.where(fnp.equal(q, 0.0), at_zero,
                                          fnp.where(fnp.equal(q, 1.0), at_one, math.nan)))
    out = out + loc
    if ok is not None:
        out = fnp.where(ok, out, math.nan)
    return fnp.astype(out, np.float64) if out.dtype != np.float64 else out
