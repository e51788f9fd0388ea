"""More discrete distributions of :mod:`funcgrad.scipy.stats` (re-exported there):
``randint``, ``hypergeom``, ``zipf``, ``zipfian``, ``logser``, ``boltzmann``,
``planck``, ``dlaplace``, ``yulesimon``, ``betanbinom`` and ``skellam``, with SciPy's
parameters and supports, each one :class:`._distn.rv_discrete` declaration.

``logpmf`` and ``pmf`` differentiate in the real shape parameters (``zipf``'s ``a``
through the derivative of ``zeta`` in its exponent, :mod:`funcgrad.primitives.zeta`);
the integer counts (``randint``'s bounds, ``hypergeom``'s
``M, n, N``, ``zipfian``'s ``n``, ``boltzmann``'s ``N``) are not differentiable.  The
quantiles are SciPy's (a step function, derivative 0).  ``hypergeom``'s and
``zipfian``'s CDFs are sums over the support, whose length must be a plain value (not
under ``jit`` or ``vmap``); ``betanbinom``'s CDF and sf are finite sums of one tail or
the other (:mod:`._statsdists_betanbinom_tails`), so its counts must be plain values
too; ``skellam``'s CDF is SciPy's, through the noncentral chi-square
(:mod:`._special_noncentral`), and its quantiles are searched between Cantelli's bounds
on both sides.
"""
import copy
import math
from typing import Any

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import concrete_values
from . import special as sp
from ._distn import _all, _support, rv_discrete
from ._moments import _above
from ._special_noncentral import ncx2_tail
from ._statsdists_betanbinom_tails import betanbinom_tail, betanbinom_tail_bound

__all__ = ["randint", "hypergeom", "zipf", "zipfian", "logser", "boltzmann", "planck",
           "dlaplace", "yulesimon", "betanbinom", "skellam"]


def _integer(v):
    return fnp.equal(v, fnp.floor(v))


def _on(k, low, high=None):
    """``(k an integer in [low, high], k there and low elsewhere)``."""
    inside = _all(_integer(k), fnp.greater_equal(k, low),
                  True if high is None else fnp.less_equal(k, high))
    return inside, fnp.where(inside, k, low)


def _sum_over(term, k, top, *params, upper=False, what="the cdf"):
    """``sum of term(j, *params)`` over the integers ``j = 0..top`` with ``j <= floor(k)``
    (``upper``: above it), broadcast over ``k`` and the parameters; ``top`` (the largest
    support end) must be a plain value: it sets how many terms there are."""
    count = concrete_values(top, f"{what} (a sum over the support)",
                            "Pass the integer parameters as plain numbers or NumPy arrays.")
    j = np.arange(float(np.max(count, initial=0.0)) + 1.0)
    shape = fnp.broadcast_shapes(fnp.shape(k), *[fnp.shape(p) for p in params])
    kk, *pp = (fnp.expand_dims(fnp.broadcast_to(v, shape), -1) for v in (k, *params))
    below = fnp.less_equal(j, fnp.floor(kk))
    return fnp.sum(fnp.where(fnp.logical_not(below) if upper else below, term(j, *pp), 0.0),
                   axis=-1)


class _heavy_tailed(rv_discrete):
    """A discrete distribution on ``a, a + 1, ...`` whose variance may be infinite, so
    that the quantiles' search takes its right end from ``_tail_bound(tail, *shape)``, a
    ``k`` whose upper tail is at most ``tail`` (not from Cantelli's inequality)."""

    _tail_bound: Any

    def _quantile(self, q, args, kwds, upper):
        from ._discrete_quantiles import quantile
        shape, (loc, _), ok = self._args(args, kwds)
        q = fnp.asarray(q, dtype=np.float64)
        inside = _all(fnp.greater(q, 0), fnp.less(q, 1))
        tail = fnp.stop_gradient(fnp.where(inside, q if upper else 1.0 - q, 0.5))
        # (2**53: past it the float64 integers are not all there, and 64 bisection steps
        # under jit or vmap reach it)
        high = fnp.minimum(fnp.ceil(self._tail_bound(
            tail, *[fnp.stop_gradient(s) for s in shape])) + 1.0, 2.0 ** 53)
        searched = copy.copy(self)
        searched._bounded, searched._bounds = True, lambda *s: (self._bounds(*s)[0], high)
        out = quantile(searched, q, shape, loc, ok, upper)
        return fnp.where(fnp.equal(q, 0.0 if upper else 1.0), math.inf, out)


# --- randint(low, high): uniform on the integers low..high-1 ----------------------------------

randint = rv_discrete(
    "randint", shapes=("low", "high"),
    _valid=lambda low, high: _all(fnp.greater(high, low), _integer(low), _integer(high)),
    _logpmf=lambda k, low, high: _support(_on(k, low, high - 1.0)[0], -fnp.log(high - low)),
    _cdf=lambda k, low, high: fnp.clip((fnp.floor(k) - low + 1.0) / (high - low), 0.0, 1.0),
    _sf=lambda k, low, high: fnp.clip((high - 1.0 - fnp.floor(k)) / (high - low), 0.0, 1.0),
    _mean=lambda low, high: (low + high - 1.0) * 0.5,
    _var=lambda low, high: ((high - low) ** 2 - 1.0) / 12.0,
    _entropy=lambda low, high: fnp.log(high - low))
randint._bounds, randint._bounded = (lambda low, high: (low, high - 1.0)), True


# --- hypergeom(M, n, N): successes in N draws without replacement of M, n of them successes ---

def _hypergeom_bounds(M, n, N):
    return fnp.maximum(N - (M - n), 0.0), fnp.minimum(n, N)


def _hypergeom_logpmf(k, M, n, N):
    low, high = _hypergeom_bounds(M, n, N)
    inside, s = _on(k, low, high)
    return _support(inside, (sp.betaln(n + 1.0, 1.0) + sp.betaln(M - n + 1.0, 1.0)
                             + sp.betaln(M - N + 1.0, N + 1.0) - sp.betaln(s + 1.0, n - s + 1.0)
                             - sp.betaln(N - s + 1.0, M - n - N + s + 1.0)
                             - sp.betaln(M + 1.0, 1.0)))


def _hypergeom_tail(upper):
    def f(k, M, n, N):
        low, high = _hypergeom_bounds(M, n, N)
        total = _sum_over(lambda j, *p: fnp.exp(_hypergeom_logpmf(j, *p)), k, N, M, n, N,
                          upper=upper, what="hypergeom's cdf and sf")
        # (past the support: exactly 1 or 0, not a sum that rounds)
        return fnp.where(fnp.less(k, low), 1.0 if upper else 0.0,
                         fnp.where(fnp.greater_equal(k, high), 0.0 if upper else 1.0, total))
    return f


def _hypergeom_entropy(M, n, N):
    def entr(j, M, n, N):
        return sp.entr(fnp.exp(_hypergeom_logpmf(j, M, n, N)))
    return _sum_over(entr, N, N, M, n, N, what="hypergeom's entropy")


hypergeom = rv_discrete(
    "hypergeom", shapes=("M", "n", "N"),
    _valid=lambda M, n, N: _all(fnp.greater(M, 0), fnp.greater_equal(n, 0),
                                fnp.greater_equal(N, 0), fnp.less_equal(n, M),
                                fnp.less_equal(N, M), _integer(M), _integer(n), _integer(N)),
    _logpmf=_hypergeom_logpmf, _cdf=_hypergeom_tail(False), _sf=_hypergeom_tail(True),
    _mean=lambda M, n, N: N * n / M,
    _var=lambda M, n, N: N * n * (M - n) * (M - N) / (M * M * (M - 1.0)),
    _entropy=_hypergeom_entropy)
hypergeom._bounds, hypergeom._bounded = _hypergeom_bounds, True


# --- zipf(a) on 1, 2, ...; zipfian(a, n) on 1..n: masses k**-a --------------------------------

def _zipf_logpmf(k, a):
    inside, s = _on(k, 1.0)
    return _support(inside, -a * fnp.log(s) - fnp.log(sp.zeta(a, 1.0)))


def _zipf_sf(k, a):
    # (the tail sum_{j > k} j**-a is Hurwitz's zeta(a, k + 1))
    return fnp.where(fnp.less(k, 1), 1.0, sp.zeta(a, fnp.floor(fnp.maximum(k, 1.0)) + 1.0)
                     / sp.zeta(a, 1.0))


zipf = _heavy_tailed(
    "zipf", shapes=("a",), _valid=lambda a: fnp.greater(a, 1), _logpmf=_zipf_logpmf,
    _sf=_zipf_sf, _cdf=lambda k, a: 1.0 - _zipf_sf(k, a),
    _mean=lambda a: _above(a, 2.0, lambda s: sp.zeta(s - 1.0, 1.0) / sp.zeta(s, 1.0), math.inf),
    _var=lambda a: _above(a, 3.0, lambda s: sp.zeta(s - 2.0, 1.0) / sp.zeta(s, 1.0) - (
        sp.zeta(s - 1.0, 1.0) / sp.zeta(s, 1.0)) ** 2, math.inf))
zipf._bounds = lambda a: (1.0, math.inf)
# (sum_{j > k} j**-a <= k**(1 - a) / (a - 1): the integral of the decreasing x**-a)
zipf._tail_bound = lambda tail, a: ((a - 1.0) * sp.zeta(a, 1.0) * tail) ** (-1.0 / (a - 1.0))


def _harmonic(k, a, n, power=0.0):
    """``sum_{j=1}^{min(k, n)} j**(power - a)``, ``n`` a plain value."""
    def term(j, a, n):
        return fnp.where(_all(fnp.greater_equal(j, 1), fnp.less_equal(j, n)),
                         fnp.exp((power - a) * fnp.log(fnp.maximum(j, 1.0))), 0.0)
    return _sum_over(term, k, n, a, n, what="zipfian")


def _zipfian_logpmf(k, a, n):
    inside, s = _on(k, 1.0, n)
    return _support(inside, -a * fnp.log(s) - fnp.log(_harmonic(n, a, n)))


def _zipfian_moment(power):
    def f(a, n):
        return _harmonic(n, a, n, power) / _harmonic(n, a, n)
    return f


def _zipfian_entropy(a, n):
    """``-sum p log p = a E[log k] + log H``, ``log p = -a log k - log H``."""
    def term(j, a, n):
        inside = _all(fnp.greater_equal(j, 1), fnp.less_equal(j, n))
        log_j = fnp.log(fnp.maximum(j, 1.0))
        return fnp.where(inside, fnp.exp(-a * log_j) * log_j, 0.0)
    h = _harmonic(n, a, n)
    return a * _sum_over(term, n, n, a, n, what="zipfian") / h + fnp.log(h)


zipfian = rv_discrete(
    "zipfian", shapes=("a", "n"),
    _valid=lambda a, n: _all(fnp.greater_equal(a, 0), fnp.greater_equal(n, 1), _integer(n)),
    _logpmf=_zipfian_logpmf,
    _cdf=lambda k, a, n: _harmonic(k, a, n) / _harmonic(n, a, n),
    _sf=lambda k, a, n: (_harmonic(n, a, n) - _harmonic(k, a, n)) / _harmonic(n, a, n),
    _mean=_zipfian_moment(1.0),
    _var=lambda a, n: _zipfian_moment(2.0)(a, n) - _zipfian_moment(1.0)(a, n) ** 2,
    _entropy=_zipfian_entropy)
zipfian._bounds, zipfian._bounded = (lambda a, n: (1.0, n)), True


# --- logser(p): masses -p**k / (k log(1 - p)) on 1, 2, ... ------------------------------------

def _logser_logpmf(k, p):
    inside, s = _on(k, 1.0)
    return _support(inside, s * fnp.log(p) - fnp.log(s) - fnp.log(-fnp.log1p(-p)))


def _logser_moments(p):
    r = fnp.log1p(-p)
    mean = p / (p - 1.0) / r
    return mean, -p / r / (p - 1.0) ** 2 - mean * mean


_TINY = 1e-100


def _logser_sf(k, p):
    """``sum_{j > k} p**j / j = B(p; k + 1, 0)``, the incomplete beta function at ``b = 0``,
    as SciPy's: ``betainc(k + 1, b, p) B(k + 1, b)`` at ``b = 1e-100`` (off by a relative
    1e-100), over ``-log(1 - p)``."""
    c = fnp.floor(fnp.maximum(k, 0.0)) + 1.0
    tail = sp.betainc(c, _TINY, p) * fnp.exp(sp.betaln(c, _TINY))
    return fnp.where(fnp.less(k, 1), 1.0, tail / -fnp.log1p(-p))


logser = rv_discrete(
    "logser", shapes=("p",), _valid=lambda p: _all(fnp.greater(p, 0), fnp.less(p, 1)),
    _logpmf=_logser_logpmf, _sf=_logser_sf, _cdf=lambda k, p: 1.0 - _logser_sf(k, p),
    _mean=lambda p: _logser_moments(p)[0], _var=lambda p: _logser_moments(p)[1])
logser._bounds = lambda p: (1.0, math.inf)


# --- boltzmann(lambda_, N) on 0..N-1 and planck(lambda_) on 0, 1, ...: masses exp(-lambda k) ---

def _boltzmann_logpmf(k, lam, N):
    inside, s = _on(k, 0.0, N - 1.0)
    return _support(inside, fnp.log(-fnp.expm1(-lam)) - lam * s - fnp.log(-fnp.expm1(-lam * N)))


def _boltzmann_cdf(k, lam, N):
    c = fnp.clip(fnp.floor(k), -1.0, N - 1.0)
    return fnp.expm1(-lam * (c + 1.0)) / fnp.expm1(-lam * N)


def _boltzmann_moments(lam, N):
    z, zn = fnp.exp(-lam), fnp.exp(-lam * N)
    return (z / (1.0 - z) - N * zn / (1.0 - zn),
            z / (1.0 - z) ** 2 - N * N * zn / (1.0 - zn) ** 2)


boltzmann = rv_discrete(
    "boltzmann", shapes=("lambda_", "N"),
    _valid=lambda lam, N: _all(fnp.greater(lam, 0), fnp.greater(N, 0), _integer(N)),
    _logpmf=_boltzmann_logpmf, _cdf=_boltzmann_cdf,
    _sf=lambda k, lam, N: 1.0 - _boltzmann_cdf(k, lam, N),
    _mean=lambda lam, N: _boltzmann_moments(lam, N)[0],
    _var=lambda lam, N: _boltzmann_moments(lam, N)[1],
    # (log p = log C - lambda k: the entropy is lambda E[k] - log C)
    _entropy=lambda lam, N: (lam * _boltzmann_moments(lam, N)[0] - fnp.log(-fnp.expm1(-lam))
                             + fnp.log(-fnp.expm1(-lam * N))))
boltzmann._bounds, boltzmann._bounded = (lambda lam, N: (0.0, N - 1.0)), True


def _planck_logsf(k, lam):
    return -lam * (fnp.floor(fnp.maximum(k, -1.0)) + 1.0)


planck = rv_discrete(
    "planck", shapes=("lambda_",),
    _logpmf=lambda k, lam: _support(_on(k, 0.0)[0], fnp.log(-fnp.expm1(-lam))
                                    - lam * _on(k, 0.0)[1]),
    _cdf=lambda k, lam: -fnp.expm1(_planck_logsf(k, lam)),
    _sf=lambda k, lam: fnp.exp(_planck_logsf(k, lam)), _logsf=_planck_logsf,
    _mean=lambda lam: 1.0 / fnp.expm1(lam), _var=lambda lam: fnp.exp(-lam) / fnp.expm1(-lam) ** 2,
    _entropy=lambda lam: (lam * fnp.exp(-lam) / -fnp.expm1(-lam)
                          - fnp.log(-fnp.expm1(-lam))))


# --- yulesimon(alpha) on 1, 2, ...: masses alpha B(k, alpha + 1) ------------------------------

def _yulesimon_logsf(k, alpha):
    c = fnp.floor(fnp.maximum(k, 1.0))
    return fnp.log(c) + sp.betaln(c, alpha + 1.0)


yulesimon = _heavy_tailed(
    "yulesimon", shapes=("alpha",),
    _logpmf=lambda k, alpha: _support(_on(k, 1.0)[0], fnp.log(alpha) + sp.betaln(
        _on(k, 1.0)[1], alpha + 1.0)),
    _sf=lambda k, alpha: fnp.where(fnp.less(k, 1), 1.0, fnp.exp(_yulesimon_logsf(k, alpha))),
    _cdf=lambda k, alpha: fnp.where(fnp.less(k, 1), 0.0,
                                    -fnp.expm1(_yulesimon_logsf(k, alpha))),
    _mean=lambda alpha: _above(alpha, 1.0, lambda s: s / (s - 1.0), math.inf),
    _var=lambda alpha: _above(alpha, 2.0, lambda s: s * s / ((s - 1.0) ** 2 * (s - 2.0)),
                              _above(alpha, 1.0, lambda s: math.inf, math.nan)))
yulesimon._bounds = lambda alpha: (1.0, math.inf)
# (X is geometric given V = exp(-W), W ~ expon(scale=1/alpha): sf(k) = E (1 - V)**k <= E
# exp(-k V) <= Gamma(alpha + 1) k**-alpha, V having the density alpha v**(alpha-1) on (0, 1))
yulesimon._tail_bound = lambda tail, alpha: fnp.exp(
    (sp.gammaln(alpha + 1.0) - fnp.log(tail)) / alpha)


# --- betanbinom(n, a, b): the negative binomial with a beta-distributed p ---------------------

def _betanbinom_logpmf(k, n, a, b):
    inside, s = _on(k, 0.0)
    # (the binomial coefficient by betaln: gammaln(n + k) - gammaln(k + 1) cancels for a
    # large k)
    return _support(inside, -fnp.log(n + s) - sp.betaln(n, s + 1.0)
                    + sp.betaln(a + n, b + s) - sp.betaln(a, b))


betanbinom = _heavy_tailed(
    "betanbinom", shapes=("n", "a", "b"), _logpmf=_betanbinom_logpmf,
    _cdf=lambda k, n, a, b: betanbinom_tail(k, n, a, b, upper=False),
    _sf=lambda k, n, a, b: betanbinom_tail(k, n, a, b, upper=True),
    _valid=lambda n, a, b: _all(fnp.greater_equal(n, 0), _integer(n), fnp.greater(a, 0),
                                fnp.greater(b, 0)),
    _mean=lambda n, a, b: _above(a, 1.0, lambda s: n * b / (s - 1.0), math.inf),
    _var=lambda n, a, b: _above(a, 2.0, lambda s: n * b * (n + s - 1.0) * (b + s - 1.0) / (
        (s - 2.0) * (s - 1.0) ** 2), math.inf))
betanbinom._bounds, betanbinom._tail_bound = (lambda n, a, b: (0.0, math.inf)), \
    betanbinom_tail_bound


# --- skellam(mu1, mu2): the difference of two Poisson counts ----------------------------------

def _skellam_logpmf(k, mu1, mu2):
    # exp(-(mu1 + mu2)) (mu1/mu2)**(k/2) I_|k|(2 sqrt(mu1 mu2)), I in its scaled form ive
    inside = _integer(k)
    s = fnp.where(inside, k, 0.0)
    z = 2.0 * fnp.sqrt(mu1 * mu2)
    return _support(inside, -(mu1 + mu2) + 0.5 * s * (fnp.log(mu1) - fnp.log(mu2))
                    + fnp.log(sp.ive(fnp.abs(s), z)) + z)


def _skellam_tail(upper):
    """The CDF (``upper``: survival function) as SciPy's, by the noncentral chi-square:
    ``P(X <= k) = ncx2.cdf(2 mu2; -2k, 2 mu1)`` for ``k < 0`` and ``ncx2.sf(2 mu1;
    2(k + 1), 2 mu2)`` for ``k >= 0`` (each tail its own series: no ``1 - cdf``)."""
    def f(k, mu1, mu2):
        c = fnp.floor(k)
        left = fnp.less(c, 0)
        lk, rk = fnp.where(left, c, -1.0), fnp.where(left, 0.0, c)  # (the double where)
        return fnp.where(left, ncx2_tail(2.0 * mu2, -2.0 * lk, 2.0 * mu1, upper),
                         ncx2_tail(2.0 * mu1, 2.0 * (rk + 1.0), 2.0 * mu2, not upper))
    return f


class _searched_both_ways(rv_discrete):
    """A discrete distribution on all the integers whose quantiles are searched between
    Cantelli's bounds on both sides of the mean (``sigma**2 / (sigma**2 + t**2)`` bounds
    the mass beyond ``mean -+ t``)."""

    def _quantile(self, q, args, kwds, upper):
        from ._discrete_quantiles import quantile
        shape, (loc, _), ok = self._args(args, kwds)
        q = fnp.asarray(q, dtype=np.float64)
        inside = _all(fnp.greater(q, 0), fnp.less(q, 1))
        qs = fnp.stop_gradient(fnp.where(inside, q, 0.5))
        plain = [fnp.stop_gradient(s) for s in shape]
        mean, var = self._mean(*plain), self._var(*plain)
        below, above = (1.0 - qs, qs) if upper else (qs, 1.0 - qs)  # (the two tails' mass)
        low = fnp.floor(mean - fnp.sqrt(var * (1.0 - below) / below)) - 1.0
        high = fnp.ceil(mean + fnp.sqrt(var * (1.0 - above) / above)) + 1.0
        searched = copy.copy(self)
        searched._bounded, searched._bounds = True, lambda *s: (low, high)
        out = quantile(searched, q, shape, loc, ok, upper)
        ends = fnp.where(fnp.equal(q, 0), math.inf if upper else -math.inf,
                         fnp.where(fnp.equal(q, 1), -math.inf if upper else math.inf, out))
        return fnp.where(inside, out, ends)


# (mu1, mu2 > 0: SciPy's takes 0 too, and its masses are NaN there)
skellam = _searched_both_ways(
    "skellam", shapes=("mu1", "mu2"), _logpmf=_skellam_logpmf,
    _cdf=_skellam_tail(False), _sf=_skellam_tail(True),
    _mean=lambda mu1, mu2: mu1 - mu2, _var=lambda mu1, mu2: mu1 + mu2)


# --- dlaplace(a) on all the integers: masses tanh(a/2) exp(-a |k|) ----------------------------

def _dlaplace_cdf(k, a):
    c = fnp.floor(k)
    right = fnp.greater_equal(c, 0)
    return fnp.where(right, 1.0 - fnp.exp(-a * fnp.where(right, c, 0.0)) / (fnp.exp(a) + 1.0),
                     fnp.exp(a * (fnp.where(right, -1.0, c) + 1.0)) / (fnp.exp(a) + 1.0))


class _two_sided(rv_discrete):
    """A discrete distribution on all the integers, whose quantiles are its own closed
    forms (the search of :mod:`._discrete_quantiles` starts from a finite left end)."""

    def _quantile(self, q, args, kwds, upper):
        shape, (loc, _), ok = self._args(args, kwds)
        q = fnp.stop_gradient(fnp.asarray(q, dtype=np.float64))
        shape = [fnp.stop_gradient(s) for s in shape]
        inside = _all(fnp.greater(q, 0), fnp.less(q, 1))
        qs = fnp.where(inside, q, 0.5)
        k = self._isf(qs, *shape) if upper else self._ppf(qs, *shape)
        ends = fnp.where(fnp.equal(q, 0), math.inf if upper else -math.inf,
                         fnp.where(fnp.equal(q, 1), -math.inf if upper else math.inf, math.nan))
        out = fnp.where(inside, k, ends) + fnp.stop_gradient(loc)
        return out if ok is None else fnp.where(ok, out, math.nan)


def _dlaplace_ppf(q, a):
    # (SciPy's inversion of the two geometric tails, then the step below where it also holds)
    const = 1.0 + fnp.exp(a)
    left = fnp.less(q, 1.0 / (1.0 + fnp.exp(-a)))
    k = fnp.ceil(fnp.where(left, fnp.log(q * const) / a - 1.0, -fnp.log((1.0 - q) * const) / a))
    return fnp.where(fnp.greater_equal(_dlaplace_cdf(k - 1.0, a), q), k - 1.0, k)


dlaplace = _two_sided(
    "dlaplace", shapes=("a",),
    _logpmf=lambda k, a: _support(_integer(k), fnp.log(fnp.tanh(0.5 * a)) - a * fnp.abs(
        fnp.where(_integer(k), k, 0.0))),
    _cdf=_dlaplace_cdf, _sf=lambda k, a: _dlaplace_cdf(-fnp.floor(k) - 1.0, a),
    _ppf=_dlaplace_ppf, _isf=lambda q, a: -_dlaplace_ppf(q, a),
    _mean=lambda a: 0.0 * a, _var=lambda a: 2.0 * fnp.exp(a) / fnp.expm1(a) ** 2,
    _entropy=lambda a: a / fnp.sinh(a) - fnp.log(fnp.tanh(0.5 * a)))


for _name, _call in {
        "randint": "randint.pmf(2, -2, 5)", "hypergeom": "hypergeom.pmf(3, 20, 7, 12)",
        "zipf": "zipf.cdf(3, 2.7)", "zipfian": "fg.grad(lambda a: zipfian.logpmf(3, a, 9))(1.3)",
        "logser": "fg.grad(lambda p: logser.logpmf(3, p))(0.6)",
        "boltzmann": "fg.grad(lambda lam: boltzmann.cdf(3, lam, 8))(0.7)",
        "planck": "fg.grad(lambda lam: planck.logpmf(3, lam))(0.6)",
        "dlaplace": "fg.grad(lambda a: dlaplace.logpmf(-3, a))(0.8)",
        "yulesimon": "fg.grad(lambda a: yulesimon.sf(3, a))(2.6)",
        "betanbinom": "fg.grad(lambda b: betanbinom.logpmf(3, 5, 3.5, b))(2.0)",
        "skellam": "fg.grad(lambda m: skellam.logpmf(-2, m, 3.0))(1.5)"}.items():
    _d = globals()[_name]
    _d.__doc__ = f"""SciPy's ``{_name}`` distribution (parameters: {", ".join(
        f"``{p}``" for p in _d.shapes + ("loc",))}).

>>> import math, funcgrad as fg
>>> math.isfinite({_call})
True
"""
del _name, _call, _d
