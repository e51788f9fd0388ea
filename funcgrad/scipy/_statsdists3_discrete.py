"""More discrete distributions of :mod:`funcgrad.scipy.stats` (re-exported there):
``nchypergeom_fisher`` (Fisher's noncentral hypergeometric distribution).

Its masses ``C(n, x) C(M - n, N - x) odds**x`` normalized are summed exactly over the
support ``max(0, N - (M - n)) .. min(n, N)`` in logs (``logsumexp``; SciPy calls the
BiasedUrn library, accurate to 1e-12), so every method differentiates in ``odds``; the
support's length must be a plain value (not under ``jit`` or ``vmap``), as
``hypergeom``'s.  ``M``, ``n`` and ``N`` are integer counts: differentiating in them
raises ValueError.  The quantiles are SciPy's search (a step function, derivative 0).
"""
import numpy as np

from .. import numpy as fnp
from ..numpy._convert import concrete_values
from . import special as sp
from ._distn import _all, rv_discrete
from ._linalg_tools import no_derivative
from ._statsdists_discrete import _integer

__all__ = ["nchypergeom_fisher"]

_COUNTS = ("nchypergeom_fisher: M, n and N are integer counts; they have no derivative. "
           "Pass them as plain numbers, or differentiate in odds (and k's loc) only")


def _log_terms(j, M, n, N, odds):
    """``log(C(n, j) C(M - n, N - j) odds**j)``, ``-inf`` off the support."""
    low, high = fnp.maximum(0.0, N - (M - n)), fnp.minimum(n, N)
    inside = _all(_integer(j), fnp.greater_equal(j, low), fnp.less_equal(j, high))
    s = fnp.where(inside, j, low)
    value = (sp.gammaln(n + 1.0) - sp.gammaln(s + 1.0) - sp.gammaln(n - s + 1.0)
             + sp.gammaln(M - n + 1.0) - sp.gammaln(N - s + 1.0) - sp.gammaln(M - n - N + s + 1.0)
             + s * fnp.log(odds))
    return fnp.where(inside, value, -np.inf)


def _table(k, M, n, N, odds):
    """``(k, j, log p_j, log normalizer)`` over ``j = 0..max N`` (a last axis), broadcast
    with ``k``."""
    M, n, N = (no_derivative(v, _COUNTS) for v in (M, n, N))
    top = concrete_values(N, "nchypergeom_fisher (a sum over its support)",
                          "Pass M, n and N as plain numbers or NumPy arrays.")
    j = np.arange(float(np.max(top, initial=0.0)) + 1.0)
    shape = fnp.broadcast_shapes(fnp.shape(k), fnp.shape(M), fnp.shape(n), fnp.shape(N),
                                 fnp.shape(odds))
    kk, MM, nn, NN, oo = (fnp.expand_dims(fnp.broadcast_to(v, shape), -1)
                          for v in (k, M, n, N, odds))
    terms = _log_terms(j, MM, nn, NN, oo)
    log_norm = sp.logsumexp(terms, axis=-1, keepdims=True)
    return kk, j, terms - log_norm, log_norm[..., 0]


def _logpmf(k, M, n, N, odds):
    log_norm = _table(k, M, n, N, odds)[3]
    return _log_terms(k, M, n, N, odds) - log_norm


def _tail(upper):
    def f(k, M, n, N, odds):
        kk, j, log_p, _ = _table(k, M, n, N, odds)
        below = fnp.less_equal(j, fnp.floor(kk))
        keep = fnp.logical_not(below) if upper else below
        return fnp.sum(fnp.where(keep, fnp.exp(log_p), 0.0), axis=-1)
    return f


def _moment(power):
    def f(M, n, N, odds):
        _, j, log_p, _ = _table(0.0, M, n, N, odds)
        return fnp.sum(j ** power * fnp.exp(log_p), axis=-1)
    return f


def _entropy(M, n, N, odds):
    _, _, log_p, _ = _table(0.0, M, n, N, odds)
    return fnp.sum(sp.entr(fnp.exp(log_p)), axis=-1)


nchypergeom_fisher = rv_discrete(
    "nchypergeom_fisher", shapes=("M", "n", "N", "odds"),
    _valid=lambda M, n, N, odds: _all(_integer(M), _integer(n), _integer(N),
                                      fnp.greater_equal(M, 0), fnp.greater_equal(n, 0),
                                      fnp.greater_equal(N, 0), fnp.greater(odds, 0),
                                      fnp.less_equal(N, M), fnp.less_equal(n, M)),
    _logpmf=_logpmf, _cdf=_tail(False), _sf=_tail(True),
    _mean=_moment(1), _var=lambda *p: _moment(2)(*p) - _moment(1)(*p) ** 2,
    _entropy=_entropy)
nchypergeom_fisher._bounds = lambda M, n, N, odds: (fnp.maximum(0.0, N - (M - n)),
                                                    fnp.minimum(n, N))
nchypergeom_fisher._bounded = True
nchypergeom_fisher.__doc__ = """SciPy's ``nchypergeom_fisher`` distribution (parameters:
``M``, ``n``, ``N``, ``odds``, ``loc``); differentiable in ``odds``.

>>> import funcgrad as fg
>>> round(float(nchypergeom_fisher.pmf(3, 20, 7, 12, 1.0)), 10)  # odds 1: hypergeom's
0.1986584107
>>> round(float(fg.grad(nchypergeom_fisher.mean, argnums=3)(20, 7, 12, 1.0)), 10) > 0
True
"""
