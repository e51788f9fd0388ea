"""SciPy's ``nchypergeom_wallenius(M, n, N, odds)`` (re-exported by
:mod:`funcgrad.scipy.stats`), Wallenius' noncentral hypergeometric distribution:
``N`` balls drawn one at a time, without replacement, from ``n`` of type I (weight
``odds``) and ``M - n`` of type II (weight 1).

Values are SciPy's (the BiasedUrn library; imported on the first call, concrete values
only: not under ``jit``/``vmap``) where SciPy's mass is at least 1e-3; below, the true
ones (the integral below, to 1e-13): BiasedUrn computes to an absolute 1e-12, so its
small masses are 0 or percent-off, e.g. ``nchypergeom_wallenius.pmf(5, 30, 25, 10, 1000)``
is 5.437e-18 (mpmath, the finite sum of the integral's binomial expansion) where SciPy
gives 5.355e-18, and ``pmf(6, 50, 10, 45, 20)`` 1.479e-28 where SciPy gives 0.  ``M``, ``n``,
``N`` are integer counts: a derivative
in them raises ValueError.  The derivative in ``odds`` (``w``) is that of Wallenius'
integral: with ``m1 = n``, ``m2 = M - n`` and ``D = w (m1 - x) + m2 - (N - x)``,

    P(x) = C(m1, x) C(m2, N - x) D integral_0^inf exp(-D s) (1 - exp(-w s))**x
                                                  (1 - exp(-s))**(N - x) ds

(the substitution ``t = exp(-D s)`` in Wallenius' ``integral_0^1 (1 - t**(w/D))**x (1 -
t**(1/D))**(N - x) dt``: a smooth integrand on a half-line, where the original is
concentrated near ``t = 0``).  ``log D + log integral`` is computed by tanh-sinh in logs
(:func:`funcgrad.scipy.integrate.tanhsinh`, relative tolerance 1e-13, differentiable in
its arguments) and added as ``Q - stop_gradient(Q)``: derivatives of every order in
``odds`` are the integral's (1e-13 relative to mpmath).  A mass above 1/2 is ``1 -`` the
sum of the others, value and derivative (``log D + log integral`` nearly cancels the
binomials there, and its slope cancels to nearly 0 at the ends of the support for odds
far from 1).  ``cdf``/``sf`` sum those masses over the support with the same device
(their values SciPy's).  The quantiles are SciPy's search on that CDF (a step function,
derivative 0).  ``stats`` is the generic one (raw moments summed over the masses);
``entropy`` is ``-sum p log p`` over the support
(:mod:`._distn_entropy`), differentiable in ``odds`` through these masses; ``mean`` and
``var`` are not offered here (NotImplementedError).
"""
import math

import numpy as np

from .. import numpy as fnp
from ..core import Tracer, is_special
from ..lax import stop_gradient
from ..numpy._convert import concrete_values
from ._distn import _all, rv_discrete
from ._integrate3_tanhsinh import tanhsinh
from ._linalg_tools import no_derivative
from ._statsdists_discrete import _integer

__all__ = ["nchypergeom_wallenius"]

_COUNTS = ("nchypergeom_wallenius: M, n and N are integer counts; they have no derivative. "
           "Pass them as plain numbers, or differentiate in odds only")
# (with log=True SciPy reads rtol as the log of the relative tolerance: 1e-13 there would
# be e**1e-13, no tolerance at all, and the integral stopped at minlevel, 1e-2 off)
_LOG_RTOL = math.log(1e-13)
_TRUSTED = math.log(1e-3)
_HALF = math.log(0.5)


def _scipys(method, k, M, n, N, odds):
    from scipy import stats
    what = f"nchypergeom_wallenius.{method} (SciPy's values)"
    fix = "call it outside jit and vmap"
    values = [concrete_values(stop_gradient(v), what, fix) for v in (k, M, n, N, odds)]
    with np.errstate(all="ignore"):
        return np.asarray(getattr(stats.nchypergeom_wallenius, method)(*values), np.float64)


def _log_integral(x, M, n, N, odds):
    """``log(D integral ...)`` of the module docstring on the support (``x`` an integer
    there); 0 where ``D = 0`` (every ball drawn: the mass is 1, constant)."""
    m1, m2 = n, M - n
    D = odds * (m1 - x) + m2 - (N - x)
    empty = fnp.less_equal(D, 0)
    D = fnp.where(empty, 1.0, D)

    def log_integrand(s, x, N, odds, D):
        return (-D * s + sp_xlog(x, -fnp.expm1(-odds * s))
                + sp_xlog(N - x, -fnp.expm1(-s)))
    res = tanhsinh(log_integrand, 0.0, np.inf, args=(x * 1.0, N * 1.0, odds, D), log=True, rtol=_LOG_RTOL,
                   minlevel=4)
    return fnp.where(empty, 0.0, fnp.log(D) + fnp.asarray(res.integral))


def sp_xlog(a, b):
    """``a log b``, 0 where ``a = 0`` (``(1 - e**-s)**0 = 1`` also at ``s = 0``)."""
    zero = fnp.equal(a, 0)
    return fnp.where(zero, 0.0, a * fnp.log(fnp.where(zero, 1.0, b)))


def _in_support(x, M, n, N):
    low, high = fnp.maximum(0.0, N - (M - n)), fnp.minimum(n, N)
    return _all(_integer(x), fnp.greater_equal(x, low), fnp.less_equal(x, high)), low


def _log_binomials(x, M, n, N):
    """``log C(n, x) + log C(M - n, N - x)`` on concrete counts (``betaln``: no
    cancellation between large ``gammaln`` values)."""
    from scipy.special import betaln
    with np.errstate(all="ignore"):
        return (-np.log1p(n) - betaln(n - x + 1.0, x + 1.0)
                - np.log1p(M - n) - betaln(M - n - (N - x) + 1.0, N - x + 1.0))


def _log_mass(k, M, n, N, odds, value, complement=True):
    """The log-masses: SciPy's ``value`` where it is accurate, the integral's where SciPy's
    mass is below ``_TRUSTED`` (BiasedUrn computes to an absolute 1e-12: smaller masses
    come back 0 or percent-off), and, where ``odds`` is differentiated, the integral's
    derivatives added as ``Q - stop_gradient(Q)``.  A mass above 1/2 is ``1 -`` the sum of
    the others (``complement``): ``log D + log I`` and its slope cancel to nearly 0 there."""
    slope = _differentiated(odds)
    concrete = [concrete_values(stop_gradient(v), "nchypergeom_wallenius (its support)",
                                "call it outside jit and vmap") for v in (k, M, n, N)]
    inside = np.asarray(_in_support(*concrete)[0])
    value, inside = np.broadcast_arrays(value, inside)
    small = inside & (value < _TRUSTED)
    big = inside & (value > _HALF) if complement else np.zeros(value.shape, bool)
    if not slope and not np.any(small | big):
        return fnp.asarray(value)
    kk, MM, nn, NN = np.broadcast_arrays(*concrete)
    x = np.where(inside, kk, np.maximum(0.0, NN - (MM - nn)))
    q = _log_integral(x, MM, nn, NN, odds)
    out = np.where(small, _log_binomials(x, MM, nn, NN) + np.asarray(stop_gradient(q)),
                   value)
    if slope:
        out = out + fnp.where(inside, q - stop_gradient(q), 0.0)
    if np.any(big):
        at = np.flatnonzero(big)
        rest = _log_rest(*(v.reshape(-1)[at] for v in (kk, MM, nn, NN)),
                         fnp.take(fnp.reshape(fnp.broadcast_to(odds, big.shape), (-1,)), at))
        slot = np.zeros(big.size, np.intp)  # (where each point's rest sits in ``rest``)
        slot[at] = np.arange(at.size)
        out = fnp.where(big, fnp.reshape(fnp.take(rest, slot), big.shape), out)
    return fnp.asarray(out)


def _log_rest(k, M, n, N, odds):
    """``log(1 - sum of the other masses)`` (1-d arrays; the masses over ``j = 0..max N``
    on a last axis)."""
    j = np.arange(float(np.max(N)) + 1.0)
    kk, MM, nn, NN = (v[:, None] for v in (k, M, n, N))
    oo = fnp.expand_dims(odds, -1)
    others = fnp.exp(_log_mass(j + 0.0 * oo, MM, nn, NN, oo,
                               _scipys("logpmf", j, MM, nn, NN, oo), complement=False))
    return fnp.log1p(-fnp.sum(fnp.where(j != kk, others, 0.0), axis=-1))


def _differentiated(odds):
    return isinstance(odds, Tracer) or is_special(odds)


def _counts(M, n, N):
    return [no_derivative(v, _COUNTS) for v in (M, n, N)]


def _logpmf(k, M, n, N, odds):
    M, n, N = _counts(M, n, N)
    return _log_mass(k, M, n, N, odds, _scipys("logpmf", k, M, n, N, odds))


def _tail(upper):
    method = "sf" if upper else "cdf"

    def f(k, M, n, N, odds):
        M, n, N = _counts(M, n, N)
        value = _scipys(method, k, M, n, N, odds)
        if not _differentiated(odds):
            return fnp.asarray(value)
        # the masses over j = 0..max N (a last axis), summed where j <= k (> k for sf)
        top = concrete_values(stop_gradient(N), "nchypergeom_wallenius (its support)",
                              "call it outside jit and vmap")
        j = np.arange(float(np.max(top, initial=0.0)) + 1.0)
        shape = fnp.broadcast_shapes(fnp.shape(k), fnp.shape(M), fnp.shape(n),
                                     fnp.shape(N), fnp.shape(odds))
        kk, MM, nn, NN, oo = (fnp.expand_dims(fnp.broadcast_to(v, shape), -1)
                              for v in (stop_gradient(k), M, n, N, odds))
        mass = fnp.exp(_log_mass(j + 0.0 * oo, MM, nn, NN, oo,
                                 _scipys("logpmf", j, MM, nn, NN, oo)))
        chosen = fnp.greater(j, kk) if upper else fnp.less_equal(j, kk)
        total = fnp.sum(fnp.where(chosen, mass, 0.0), axis=-1)
        return value + (total - stop_gradient(total))
    return f


nchypergeom_wallenius = rv_discrete(
    "nchypergeom_wallenius", shapes=("M", "n", "N", "odds"),
    _valid=lambda M, n, N, odds: _all(_integer(M), _integer(n), _integer(N),
                                      fnp.greater_equal(M, 0), fnp.greater_equal(n, 0),
                                      fnp.greater_equal(N, 0), fnp.greater(odds, 0),
                                      fnp.less_equal(N, M), fnp.less_equal(n, M)),
    _logpmf=_logpmf, _cdf=_tail(False), _sf=_tail(True))
nchypergeom_wallenius._bounds = lambda M, n, N, odds: (fnp.maximum(0.0, N - (M - n)),
                                                       fnp.minimum(n, N))
nchypergeom_wallenius._bounded = True
nchypergeom_wallenius.__doc__ = """SciPy's ``nchypergeom_wallenius`` distribution
(parameters: M, n, N, odds, loc): SciPy's values, differentiable in ``odds`` through
Wallenius' integral (concrete values only; M, n, N are integer counts).

>>> import funcgrad as fg
>>> round(float(nchypergeom_wallenius.pmf(3, 20, 8, 6, 2.5)), 12)
0.326762950704
>>> round(float(fg.grad(nchypergeom_wallenius.logpmf, 4)(3, 20, 8, 6, 2.5)), 8)  # d/dodds
-0.25353978
"""
