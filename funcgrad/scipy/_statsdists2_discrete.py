"""More discrete distributions of :mod:`funcgrad.scipy.stats` (re-exported there):
``nhypergeom`` (the negative hypergeometric: successes drawn before the ``r``-th
failure).

The masses are SciPy's ``betaln`` form; the CDF, survival function and entropy are sums
over the support ``0..n``, whose length must be a plain value (not under ``jit`` or
``vmap``), as ``hypergeom``'s; the quantiles are SciPy's search (a step function,
derivative 0).  ``M``, ``n`` and ``r`` are integer counts: not differentiable.
"""
from .. import numpy as fnp
from . import special as sp
from ._distn import _all, _support, rv_discrete
from ._statsdists_discrete import _integer, _on, _sum_over

__all__ = ["nhypergeom"]


def _nhypergeom_logpmf(k, M, n, r):
    inside, s = _on(k, 0.0, n)
    value = (-sp.betaln(s + 1.0, fnp.where(r == 0, 1.0, r)) + sp.betaln(s + r, 1.0)
             - sp.betaln(n - s + 1.0, M - r - n + 1.0) + sp.betaln(M - r - s + 1.0, 1.0)
             + sp.betaln(n + 1.0, M - n + 1.0) - sp.betaln(M + 1.0, 1.0))
    # (r = 0: no failure to wait for, all the mass at k = 0, as SciPy's)
    value = fnp.where(r == 0, fnp.where(s == 0, 0.0, -fnp.inf), value)
    return _support(inside, value)


def _nhypergeom_tail(upper):
    def f(k, M, n, r):
        total = _sum_over(lambda j, *p: fnp.exp(_nhypergeom_logpmf(j, *p)), k, n, M, n, r,
                          upper=upper, what="nhypergeom's cdf and sf")
        # (past the support: exactly 1 or 0, not a sum that rounds)
        return fnp.where(fnp.less(k, 0), 1.0 if upper else 0.0,
                         fnp.where(fnp.greater_equal(k, n), 0.0 if upper else 1.0, total))
    return f


def _nhypergeom_entropy(M, n, r):
    def entr(j, M, n, r):
        return sp.entr(fnp.exp(_nhypergeom_logpmf(j, M, n, r)))
    return _sum_over(entr, n, n, M, n, r, what="nhypergeom's entropy")


nhypergeom = rv_discrete(
    "nhypergeom", shapes=("M", "n", "r"),
    _valid=lambda M, n, r: _all(fnp.greater_equal(n, 0), fnp.less_equal(n, M),
                                fnp.greater_equal(r, 0), fnp.less_equal(r, M - n),
                                _integer(M), _integer(n), _integer(r)),
    _logpmf=_nhypergeom_logpmf, _cdf=_nhypergeom_tail(False), _sf=_nhypergeom_tail(True),
    _mean=lambda M, n, r: r * n / (M - n + 1.0),
    _var=lambda M, n, r: (r * (M + 1.0) * n / ((M - n + 1.0) * (M - n + 2.0))
                          * (1.0 - r / (M - n + 1.0))),
    _entropy=_nhypergeom_entropy)
nhypergeom._bounds, nhypergeom._bounded = (lambda M, n, r: (0.0 * M, n)), True
nhypergeom.__doc__ = """SciPy's ``nhypergeom`` distribution (parameters: ``M``, ``n``, ``r``,
``loc``).

>>> round(float(nhypergeom.pmf(3, 20, 7, 12)), 10)
0.0234778122
"""
