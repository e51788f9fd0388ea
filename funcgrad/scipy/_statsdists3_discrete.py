"""More discrete distributions of :mod:`funcgrad.scipy.stats` (re-exported there):
``nchypergeom_fisher`` (Fisher's noncentral hypergeometric distribution) and
``poisson_binom`` (successes of independent trials with probabilities ``p``).

``poisson_binom``'s masses are the trials' Bernoulli masses convolved one at a time
(positive terms; SciPy uses a DFT), differentiable in ``p``, whose last axis holds the
trials (SciPy's convention; the leading axes broadcast with ``k``).

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
from ._distn import _all, _checked, _split, rv_discrete
from ._distn_moments_closed import poisson_binom_masses
from ._linalg_tools import no_derivative
from ._statsdists_discrete import _integer

__all__ = ["nchypergeom_fisher", "poisson_binom"]

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


# --- poisson_binom(p): the number of successes of independent trials with probabilities p -----

class _PoissonBinomial(rv_discrete):
    """SciPy's ``poisson_binom``: one shape ``p``, an array whose last axis holds the
    trials' success probabilities (the leading axes broadcast with ``k``)."""

    def _args(self, args, kwds):
        (p,), (loc,) = _split(self.name, self.shapes, args, kwds, self._defaults)
        p = fnp.asarray(p)
        if p.dtype.kind not in "f":
            p = fnp.astype(p, np.float64)
        if p.ndim == 0:  # (one trial)
            p = fnp.reshape(p, (1,))
        ok = _checked(fnp.all(_all(fnp.greater_equal(p, 0), fnp.less_equal(p, 1)), axis=-1))
        if ok is None:
            return [p], (loc, 1.0), None
        return [fnp.where(fnp.expand_dims(ok, -1), p, 0.5)], (loc, 1.0), ok


def _poisson_binom_table(k, p):
    masses = poisson_binom_masses(p)
    j = np.arange(masses.shape[-1], dtype=float)
    return fnp.expand_dims(k, -1), j, masses


def _poisson_binom_logpmf(k, p):
    kk, j, masses = _poisson_binom_table(k, p)
    mass = fnp.sum(fnp.where(fnp.equal(j, kk), masses, 0.0), axis=-1)
    positive = fnp.greater(mass, 0)
    return fnp.where(positive, fnp.log(fnp.where(positive, mass, 1.0)), -np.inf)


def _poisson_binom_tail(upper):
    def f(k, p):
        kk, j, masses = _poisson_binom_table(k, p)
        below = fnp.less_equal(j, fnp.floor(kk))
        return fnp.sum(fnp.where(fnp.logical_not(below) if upper else below, masses, 0.0),
                       axis=-1)
    return f


poisson_binom = _PoissonBinomial(
    "poisson_binom", shapes=("p",), _logpmf=_poisson_binom_logpmf,
    _cdf=_poisson_binom_tail(False), _sf=_poisson_binom_tail(True),
    _mean=lambda p: fnp.sum(p, axis=-1), _var=lambda p: fnp.sum(p * (1.0 - p), axis=-1),
    _entropy=lambda p: fnp.sum(sp.entr(poisson_binom_masses(p)), axis=-1))
poisson_binom._bounds = lambda p: (0.0, float(p.shape[-1]))
poisson_binom._bounded = True
poisson_binom.__doc__ = """SciPy's ``poisson_binom`` distribution (parameters: ``p``, the
trials' success probabilities along its last axis, and ``loc``); differentiable in ``p``.

>>> import numpy as np, funcgrad as fg
>>> [round(float(v), 12) for v in poisson_binom.pmf([0, 1, 2, 3], [0.2, 0.5, 0.7])]
[0.12, 0.43, 0.38, 0.07]
>>> g = fg.grad(lambda p: poisson_binom.pmf(3, p))(np.array([0.2, 0.5, 0.7]))
>>> round(float(g[0]), 12)  # d(p1 p2 p3)/dp1 = p2 p3
0.35
"""
