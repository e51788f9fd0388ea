"""SciPy's ``irwinhall(n)`` distribution (re-exported by :mod:`funcgrad.scipy.stats`): the
sum of ``n`` independent standard uniforms, whose density is the cardinal B-spline of
order ``n`` on ``[0, n]``.

The B-splines come from the Cox-de Boor recursion ``B_m(t) = (t B_{m-1}(t) + (m - t)
B_{m-1}(t - 1)) / (m - 1)`` over all shifts ``t = x - j`` at once (sums of positive terms:
no cancellation, where the alternating power sum loses digits as ``n`` grows), the CDF
``sum_j B_{n+1}(x - j)`` (its derivative telescopes to ``B_n(x)``), evaluated on the
smaller tail (``x <= n/2``; the other by symmetry).  Differentiable in ``x``, ``loc`` and
``scale``; ``n`` is an integer count (plain values: they set the recursion's length; no
derivative), as SciPy's.  ``mean`` ``n/2``, ``var`` ``n/12``; the quantiles invert the CDF
numerically (:mod:`._statsdists_quantiles`); the entropy is ``-integral f log f`` by the
generic rule of :mod:`._distn_entropy`, cut at the integers where the density has kinks
(SciPy integrates it numerically too).
"""
import numpy as np

from .. import numpy as fnp
from ..numpy._convert import concrete_values
from ._distn import _all, rv_continuous
from ._linalg_tools import no_derivative
from ._statsdists_closed import document
from ._statsdists_quantiles import numeric_quantiles

__all__ = ["irwinhall"]


_COUNT = ("irwinhall: n is an integer count (the number of uniforms summed); it has no "
          "derivative. Pass n as a plain number, or differentiate in x, loc and scale only")


def _count(fn):
    """``fn`` with its ``n`` (the last argument) refusing a derivative."""
    def f(*args):
        return fn(*args[:-1], no_derivative(args[-1], _COUNT))
    return f


def _largest(n):
    top = concrete_values(n, "irwinhall's n (the order of its B-spline)",
                          "Pass n as a plain integer or NumPy array of integers.")
    return int(np.max(top, initial=1))


def _splines(t, n):
    """``(B_n(t), sum_j B_{n+1}(t - j))`` for ``0 <= t <= n/2`` (broadcast over ``n``)."""
    top = _largest(n)
    t, n = fnp.broadcast_arrays(fnp.asarray(t), fnp.asarray(n, dtype=np.float64))
    shifts = np.arange(top + 2, dtype=float)
    u = fnp.expand_dims(t, -1) - shifts  # (u_j = t - j)
    b = fnp.where(_all(fnp.greater_equal(u, 0), fnp.less(u, 1)), 1.0, 0.0) + 0.0 * u
    density, total = 0.0 * t, 0.0 * t
    for m in range(1, top + 2):
        if m > 1:
            shifted = fnp.concatenate([b[..., 1:], 0.0 * b[..., :1]], axis=-1)  # B(u - 1)
            b = (u * b + (m - u) * shifted) / (m - 1)
        density = fnp.where(fnp.equal(n, m), b[..., 0], density)
        total = fnp.where(fnp.equal(n, m - 1), fnp.sum(b, axis=-1), total)
    return density, total


def _halves(z, n):
    """``(z <= n/2, the point mirrored onto [0, n/2] and clipped to it)``."""
    left = fnp.less_equal(z, 0.5 * n)
    t = fnp.where(left, z, n - z)
    return left, fnp.clip(t, 0.0, 0.5 * n)


def _logpdf(z, n):
    _, t = _halves(z, n)
    inside = _all(fnp.greater_equal(z, 0), fnp.less_equal(z, n))
    density = _splines(t, n)[0]
    positive = fnp.logical_and(inside, fnp.greater(density, 0))
    return fnp.where(positive, fnp.log(fnp.where(positive, density, 1.0)), -np.inf)


def _tail(upper):
    def f(z, n):
        left, t = _halves(z, n)
        near = _splines(t, n)[1]  # (the tail on z's side)
        if upper:
            return fnp.where(left, 1.0 - near, near)
        return fnp.where(left, near, 1.0 - near)
    return f


irwinhall = rv_continuous(
    "irwinhall", shapes=("n",),
    _valid=lambda n: fnp.logical_and(fnp.greater(n, 0), fnp.equal(n, fnp.floor(n))),
    _logpdf=_count(_logpdf), _cdf=_count(_tail(False)), _sf=_count(_tail(True)),
    _mean=_count(lambda n: 0.5 * n), _var=_count(lambda n: n / 12.0))
_numeric_ppf, _numeric_isf = numeric_quantiles(irwinhall, "positive")
# (the support's right end n at q = 1, as SciPy's; the search's own end is inf)
irwinhall._ppf = lambda q, n: fnp.where(fnp.equal(q, 1.0), n, _numeric_ppf(q, n))
irwinhall._isf = lambda q, n: fnp.where(fnp.equal(q, 0.0), n, _numeric_isf(q, n))

document(globals(), {"irwinhall": ((4,), 0.5)})
