"""Closed forms behind the univariate distributions' ``stats`` and ``moment`` (standardized:
``loc = 0``, ``scale = 1``), for the families whose moments do not all exist (heavy tails),
whose density has a kink away from its mean (where the generic quadrature of
:mod:`._distn_moments_rules` converges slowly), or whose SciPy value is a closed form that
the quadrature would only approximate.  Three tables, by SciPy's name:

* ``STATS``: ``(mean, variance, skewness, excess kurtosis)`` as functions of the shapes, as
  SciPy's ``_stats`` (``None`` for an entry left to the raw moments or the quadrature);
* ``MUNP``: the raw moment ``E[X**n]`` as a function of ``n`` (a Python int) and the shapes,
  as SciPy's ``_munp``;
* ``TAIL``: for heavy-tailed families left to the quadrature, the order from which the raw
  moments diverge (``E[X**r]`` exists for ``r < TAIL``); the statistics of higher orders are
  NaN there, as SciPy's.

Where a moment does not exist the value is SciPy's: ``inf`` for a divergent one, ``nan`` for
an undefined one.
"""
import math

import numpy as np

from .. import numpy as fnp
from . import special as sp
from ._distn_moments_studentized import studentized_range_munp

__all__ = ["STATS", "MUNP", "TAIL"]

_INF, _NAN = math.inf, math.nan


def _above(x, bound, fill, fn, *others):
    """``fn(x, *others)`` where ``x > bound``, ``fill`` elsewhere; ``fn`` sees ``bound + 1``
    for ``x`` there (the double-where idiom: no NaN or inf from the branch not taken
    reaches a derivative).  A Python ``x``: the branch alone."""
    if isinstance(x, (int, float)):
        return fn(x, *others) if x > bound else fill + 0.0 * sum(others)
    inside = fnp.greater(x, bound)
    return fnp.where(inside, fn(fnp.where(inside, x, bound + 1.0), *others), fill)


# --- heavy tails: Pareto-like families ----------------------------------------------------

def _pareto_stats(b):
    mean = _above(b, 1.0, _INF, lambda s: s / (s - 1.0))
    var = _above(b, 2.0, _INF, lambda s: s / ((s - 2.0) * (s - 1.0) ** 2))
    skew = _above(b, 3.0, _NAN,
                  lambda s: 2.0 * (s + 1.0) * fnp.sqrt(s - 2.0) / ((s - 3.0) * fnp.sqrt(s)))
    kurt = _above(b, 4.0, _NAN, lambda s: 6.0 * (s ** 3 + s ** 2 - 6.0 * s - 2.0)
                  / (s * (s - 3.0) * (s - 4.0)))
    return mean, var, skew, kurt


def _lomax_stats(c):
    mean, var, skew, kurt = _pareto_stats(c)
    return mean - 1.0, var, skew, kurt


def _invgamma_stats(a):
    return (_above(a, 1.0, _INF, lambda s: 1.0 / (s - 1.0)),
            _above(a, 2.0, _INF, lambda s: 1.0 / ((s - 1.0) ** 2 * (s - 2.0))),
            _above(a, 3.0, _NAN, lambda s: 4.0 * fnp.sqrt(s - 2.0) / (s - 3.0)),
            _above(a, 4.0, _NAN,
                   lambda s: 6.0 * (5.0 * s - 11.0) / ((s - 3.0) * (s - 4.0))))


def _t_stats(df):
    finite = fnp.isfinite(df)
    d = fnp.where(finite, df, 10.0)
    mean = fnp.where(fnp.greater(df, 1.0), 0.0 * d, _INF)
    var = fnp.where(fnp.greater(df, 2.0), fnp.where(finite, _above(
        d, 2.0, 1.0, lambda s: s / (s - 2.0)), 1.0),
        fnp.where(fnp.greater(df, 1.0), _INF, _NAN))
    skew = fnp.where(fnp.greater(df, 3.0), 0.0 * d, _NAN)
    kurt = fnp.where(fnp.greater(df, 4.0), fnp.where(finite, _above(
        d, 4.0, 0.0, lambda s: 6.0 / (s - 4.0)), 0.0),
        fnp.where(fnp.greater(df, 2.0), _INF, _NAN))
    return mean, var, skew, kurt


def _f_stats(dfn, dfd):
    v1 = dfn * 1.0
    mean = _above(dfd, 2.0, _INF, lambda v2: v2 / (v2 - 2.0)) + 0.0 * v1
    var = _above(dfd, 4.0, _INF, lambda v2, v1: 2.0 * v2 * v2 * (v1 + v2 - 2.0) / (
        v1 * (v2 - 2.0) ** 2 * (v2 - 4.0)), v1)
    skew = _above(dfd, 6.0, _NAN, lambda v2, v1: math.sqrt(8.0) * (
        2.0 * v1 + v2 - 2.0) / (v2 - 6.0) * fnp.sqrt((v2 - 4.0) / (v1 * (v1 + v2 - 2.0))), v1)
    kurt = _above(dfd, 8.0, _NAN, lambda v2, v1: 1.5 * (8.0 + 8.0 * (
        2.0 * v1 + v2 - 2.0) ** 2 / (v2 - 6.0) * (v2 - 4.0) / (v1 * (v1 + v2 - 2.0))) / (
        v2 - 8.0), v1)
    return mean, var, skew, kurt


def _burr_stats(c, d):
    """SciPy's: the raw moments ``d B(d + k/c, 1 - k/c)``, NaN from ``k >= c``."""
    e = [lambda c, d, k=k: d * sp.beta(d + k / c, 1.0 - k / c) for k in range(1, 5)]
    mean = _above(c, 1.0, _NAN, e[0], d)

    def central(c, d, order):
        m1, m2 = e[0](c, d), e[1](c, d)
        v = m2 - m1 * m1
        if order == 2:
            return v
        if order == 3:
            return (e[2](c, d) - 3.0 * m2 * m1 + 2.0 * m1 ** 3) / fnp.sqrt(v ** 3)
        return (e[3](c, d) - 4.0 * e[2](c, d) * m1 + 6.0 * m2 * m1 * m1
                - 3.0 * m1 ** 4) / (v * v) - 3.0
    return (mean,) + tuple(_above(c, float(k), _NAN,
                                  lambda c, d, k=k: central(c, d, k), d) for k in (2, 3, 4))


def _genpareto_stats(c):
    return (_above(-c, -1.0, _INF, lambda m: 1.0 / (1.0 + m)),
            _above(-c, -0.5, _NAN, lambda m: 1.0 / ((1.0 + m) ** 2 * (1.0 + 2.0 * m))),
            _above(-c, -1.0 / 3.0, _NAN, lambda m: 2.0 * (1.0 - m) * fnp.sqrt(
                1.0 + 2.0 * m) / (1.0 + 3.0 * m)),
            _above(-c, -0.25, _NAN, lambda m: 3.0 * (1.0 + 2.0 * m) * (
                2.0 * m * m - m + 3.0) / ((1.0 + 3.0 * m) * (1.0 + 4.0 * m)) - 3.0))


def _genpareto_munp(n, c):
    zero = fnp.equal(c, 0)
    s = fnp.where(zero, 1.0, c)
    total = sum(math.comb(n, k) * (-1.0) ** k / (1.0 - s * k) for k in range(n + 1))
    value = fnp.where(fnp.less(s * n, 1.0), total * (-1.0 / s) ** n, _INF)
    return fnp.where(zero, float(math.factorial(n)), value)


# --- raw moments of the families SciPy states them for --------------------------------------

def _crystalball_munp(n, beta, m):
    """SciPy's: ``N (A sum_k C(n,k) B**(n-k) (-1)**k (m/beta)**(k+1-m) / (m-k-1) + 2**((n-1)/2)
    Gamma((n+1)/2) (1 + (-1)**n P((n+1)/2, beta**2/2)))``, ``inf`` from ``n + 1 >= m``."""
    def moment(beta, m):
        ratio = m / beta
        norm = 1.0 / (ratio / (m - 1.0) * fnp.exp(-beta * beta / 2.0)
                      + math.sqrt(2.0 * math.pi) * sp.ndtr(beta))
        a = fnp.exp(m * fnp.log(ratio) - beta * beta / 2.0)
        b = ratio - beta
        left = sum(math.comb(n, k) * b ** (n - k) * (-1.0) ** k / (m - k - 1.0)
                   * ratio ** (k + 1.0 - m) for k in range(n + 1))
        right = 2.0 ** ((n - 1) / 2.0) * math.gamma((n + 1) / 2.0) * (
            1.0 + (-1.0) ** n * sp.gammainc((n + 1) / 2.0, beta * beta / 2.0))
        return norm * (a * left + right)
    return _above(m, n + 1.0, _INF, lambda m, beta: moment(beta, m), beta)


def _rel_breitwigner_munp(n, rho):
    """SciPy's: the mean and second moment in closed form, ``inf`` beyond (the real part of
    SciPy's complex square root written out: ``sqrt(-1 - i/rho) = p - i q``)."""
    if n == 0:
        return 1.0 + 0.0 * rho
    r2 = 1.0 + 1.0 / (rho * rho)
    r = fnp.sqrt(r2)
    if n == 1:
        return fnp.sqrt(2.0 * r2 / (1.0 + r)) / math.pi * rho * (math.pi / 2 + fnp.arctan(rho))
    if n == 2:
        c = fnp.sqrt(r2 / (2.0 * (1.0 + r))) * rho
        p, q = fnp.sqrt((r - 1.0) / 2.0), fnp.sqrt((r + 1.0) / 2.0)
        return 2.0 * c * (p + rho * q) / r
    return _INF + 0.0 * rho


def _trapezoid_munp(n, c, d):
    """SciPy's (Kacker's): ``2 / (1 + d - c) ((1 - d**(n+2)) / (1 - d) - c**(n+1)) / ((n+1)
    (n+2))``, the first ratio as ``expm1((n+2) log d) / (d - 1)`` (``n + 2`` at ``d = 1``)."""
    inner = fnp.logical_and(fnp.greater(d, 0), fnp.less(d, 1))
    ds = fnp.where(inner, d, 0.5)
    dc = fnp.where(inner, fnp.expm1((n + 2) * fnp.log(ds)) / (ds - 1.0),
                   fnp.where(fnp.equal(d, 1), float(n + 2), 1.0))
    return 2.0 / (1.0 + d - c) * (dc - c ** (n + 1)) / ((n + 1) * (n + 2))


def _betaprime_munp(n, a, b):
    def moment(a, b):
        out = 1.0 + 0.0 * a
        for i in range(1, n + 1):
            out = out * (a + i - 1.0) / (b - i)
        return out
    return _above(b, float(n), _INF, lambda b, a: moment(a, b), a)


def _gengamma_munp(n, a, c):
    """``Gamma(a + n/c) / Gamma(a)``; ``inf`` where ``a + n/c <= 0`` (``c < 0``, the moment
    diverges; SciPy's ``poch`` gives a finite number there, which is no moment)."""
    return _above(a + n / c, 0.0, _INF, lambda s, a: fnp.exp(sp.gammaln(s) - sp.gammaln(a)), a)


def _dpareto_lognorm_munp(n, u, s, a, b):
    return _above(a, float(n), _NAN, lambda a, u, s, b: a * b / (
        (a - n) * (b + n)) * fnp.exp(n * u + n * n * s * s / 2.0), u, s, b)


# --- densities with a kink away from the mean, and small closed forms ---------------------

def _laplace_asymmetric_stats(kappa):
    k4 = kappa ** 4
    return (1.0 / kappa - kappa, 1.0 / (kappa * kappa) + kappa * kappa,
            2.0 * (1.0 - kappa ** 6) / (1.0 + k4) ** 1.5, 6.0 * (1.0 + k4 * k4) / (1.0 + k4) ** 2)


def _triang_stats(c):
    q = 1.0 - c + c * c
    return ((c + 1.0) / 3.0, q / 18.0,
            math.sqrt(2.0) * (2.0 * c - 1.0) * (c + 1.0) * (c - 2.0) / (5.0 * q ** 1.5),
            -0.6 + 0.0 * c)


def _yulesimon_stats(alpha):
    mean = _above(alpha, 1.0, _INF, lambda a: a / (a - 1.0))
    var = fnp.where(fnp.less_equal(alpha, 1.0), _NAN, _above(
        alpha, 2.0, _INF, lambda a: a * a / ((a - 2.0) * (a - 1.0) ** 2)))
    skew = fnp.where(fnp.less_equal(alpha, 2.0), _NAN, _above(
        alpha, 3.0, _INF, lambda a: fnp.sqrt(a - 2.0) * (a + 1.0) ** 2 / (a * (a - 3.0))))
    kurt = fnp.where(fnp.less_equal(alpha, 2.0), _NAN, _above(
        alpha, 4.0, _INF, lambda a: a + 3.0 + (11.0 * a ** 3 - 49.0 * a - 22.0) / (
            a * (a - 4.0) * (a - 3.0))))
    return mean, var, skew, kurt


def _betanbinom_stats(n, a, b):
    mean = _above(a, 1.0, _INF, lambda a, n, b: n * b / (a - 1.0), n, b)
    var = _above(a, 2.0, _INF, lambda a, n, b: n * b * (n + a - 1.0) * (
        a + b - 1.0) / ((a - 2.0) * (a - 1.0) ** 2), n, b)
    skew = _above(a, 3.0, _INF, lambda a, n, b: (2.0 * n + a - 1.0) * (
        2.0 * b + a - 1.0) / (a - 3.0) / fnp.sqrt(n * b * (n + a - 1.0) * (b + a - 1.0) / (
            a - 2.0)), n, b)

    def kurtosis(n, a, b):
        inner = (a + 5.0) * b * b + (a + 5.0) * (a - 1.0) * b + 2.0 * (a - 1.0) ** 2
        top = ((a - 1.0) ** 2 * (a * a + a * (6.0 * b - 1.0) + 6.0 * (b - 1.0) * b)
               + 3.0 * n * n * inner + 3.0 * (a - 1.0) * n * inner)
        return (a - 2.0) * top / ((a - 4.0) * (a - 3.0) * b * n * (a + b - 1.0) * (
            a + n - 1.0)) - 3.0
    return mean, var, skew, _above(a, 4.0, _INF, lambda a, n, b: kurtosis(n, a, b), n, b)


def _zipf_munp(n, a):
    return _above(a, n + 1.0, _INF, lambda a: sp.zeta(a - n, 1.0) / sp.zeta(a, 1.0))


def _ncx2_stats(df, nc):
    v = df + 2.0 * nc
    return (df + nc, 2.0 * v, math.sqrt(8.0) * (df + 3.0 * nc) / v ** 1.5,
            12.0 * (df + 4.0 * nc) / (v * v))


def _poisson_binom_stats(p):
    """The cumulants of a sum of independent Bernoulli trials: ``sum p q``, ``sum p q (1 -
    2p)``, ``sum p q (1 - 6 p q)`` (``q = 1 - p``)."""
    pq = p * (1.0 - p)
    var = fnp.sum(pq, axis=-1)
    return (fnp.sum(p, axis=-1), var, fnp.sum(pq * (1.0 - 2.0 * p), axis=-1) / var ** 1.5,
            fnp.sum(pq * (1.0 - 6.0 * pq), axis=-1) / (var * var))


def poisson_binom_masses(p):
    """``P[..., j]``, the probability of ``j`` successes of the Bernoulli trials ``p``: their
    masses convolved one at a time (sums of positive terms)."""
    zero = 0.0 * p[..., :1]
    masses = 1.0 + zero
    for i in range(p.shape[-1]):
        pi = p[..., i:i + 1]
        masses = (fnp.concatenate([masses * (1.0 - pi), zero], axis=-1)
                  + fnp.concatenate([zero, masses * pi], axis=-1))
    return masses


def _poisson_binom_munp(k, p):
    """``sum_j j**k P[j]`` over :func:`poisson_binom_masses`."""
    return fnp.sum(poisson_binom_masses(p) * fnp.arange(float(p.shape[-1] + 1)) ** k, axis=-1)


def _nct_munp(k, df, nc):
    """``E[T**k] = (df/2)**(k/2) Gamma((df-k)/2) / Gamma(df/2) E[(Z + nc)**k]`` for ``df >
    k`` (``T = (Z + nc) / sqrt(V/df)``, ``V`` chi-square), NaN beyond, as SciPy's."""
    def moment(df, nc):
        normal = sum(math.comb(k, j) * nc ** (k - j) * float(np.prod(np.arange(j - 1, 0, -2)))
                     for j in range(0, k + 1, 2))
        return fnp.exp(k / 2.0 * fnp.log(df / 2.0) + sp.gammaln((df - k) / 2.0)
                       - sp.gammaln(df / 2.0)) * normal
    return _above(df, float(k), _NAN, moment, nc)


def _irwinhall_stats(n):
    return n * 0.5, n / 12.0, 0.0 * n, -1.2 / n


def _kappa4_tail(h, k):
    """SciPy's ``_get_stats_info``: moments of orders below ``int(-1/k)`` (``k < 0``) or
    ``int(-k/h)`` (``h < 0 <= k``), else all four."""
    neg_k, neg_h = fnp.less(k, 0), fnp.logical_and(fnp.less(h, 0), fnp.greater_equal(k, 0))
    ks, hs = fnp.where(neg_k, k, -1.0), fnp.where(neg_h, h, -1.0)
    return fnp.where(neg_k, fnp.trunc(-1.0 / ks), fnp.where(neg_h, fnp.trunc(-k / hs), 5.0))


def _beta_stats(a, b):
    s, ab = a + b, a * b
    return (a / s, ab / (s * s * (s + 1.0)),
            2.0 * (b - a) * fnp.sqrt(s + 1.0) / ((s + 2.0) * fnp.sqrt(ab)),
            6.0 * ((a - b) ** 2 * (s + 1.0) - ab * (s + 2.0)) / (ab * (s + 2.0) * (s + 3.0)))


def _binom_stats(n, p):
    q = 1.0 - p
    npq = n * p * q
    return n * p, npq, (q - p) / fnp.sqrt(npq), (1.0 - 6.0 * p * q) / npq


_ZETA3 = 1.2020569031595942  # (Apery's constant: gumbel's skewness)


def _levy_stable_stats(alpha, beta):
    """SciPy's: a mean (0) beyond ``alpha = 1``, a variance (2) and shape only at
    ``alpha = 2`` (the normal distribution); the moments of order ``alpha`` and beyond
    diverge."""
    normal, zero = fnp.equal(alpha, 2.0), 0.0 * (alpha + beta)
    return (fnp.where(fnp.greater(alpha, 1.0), zero, _NAN), fnp.where(normal, 2.0 + zero, _INF),
            fnp.where(normal, zero, _NAN), fnp.where(normal, zero, _NAN))


def _constant(*values):
    return lambda *shapes: values


STATS = {
    # (the common families' closed forms, as SciPy's)
    "norm": _constant(0.0, 1.0, 0.0, 0.0),
    "expon": _constant(1.0, 1.0, 2.0, 6.0),
    "uniform": _constant(0.5, 1.0 / 12.0, 0.0, -1.2),
    "logistic": _constant(0.0, math.pi ** 2 / 3.0, 0.0, 1.2),
    "laplace": _constant(0.0, 2.0, 0.0, 3.0),
    "gumbel_r": _constant(0.5772156649015329, math.pi ** 2 / 6.0,
                          12.0 * math.sqrt(6.0) * _ZETA3 / math.pi ** 3, 2.4),
    "gumbel_l": _constant(-0.5772156649015329, math.pi ** 2 / 6.0,
                          -12.0 * math.sqrt(6.0) * _ZETA3 / math.pi ** 3, 2.4),
    "gamma": lambda a: (a * 1.0, a * 1.0, 2.0 / fnp.sqrt(a), 6.0 / a),
    "erlang": lambda a: (a * 1.0, a * 1.0, 2.0 / fnp.sqrt(a), 6.0 / a),
    "chi2": lambda df: (df * 1.0, 2.0 * df, fnp.sqrt(8.0 / df), 12.0 / df),
    "beta": _beta_stats,
    "poisson": lambda mu: (mu * 1.0, mu * 1.0, 1.0 / fnp.sqrt(mu), 1.0 / mu),
    "binom": _binom_stats,
    "bernoulli": lambda p: _binom_stats(1.0, p),
    "nbinom": lambda n, p: (n * (1.0 - p) / p, n * (1.0 - p) / (p * p),
                            (2.0 - p) / fnp.sqrt(n * (1.0 - p)), 6.0 / n + p * p / (n * (1.0 - p))),
    "geom": lambda p: (1.0 / p, (1.0 - p) / (p * p), (2.0 - p) / fnp.sqrt(1.0 - p),
                       6.0 + p * p / (1.0 - p)),
    "alpha": _constant(_INF, _INF, _NAN, _NAN),
    "arcsine": _constant(0.5, 0.125, 0.0, -1.5),
    "cauchy": _constant(_NAN, _NAN, _NAN, _NAN),
    "skewcauchy": lambda a: (_NAN + 0.0 * a,) * 4,
    "foldcauchy": lambda c: (_INF + 0.0 * c, _INF + 0.0 * c, _NAN + 0.0 * c, _NAN + 0.0 * c),
    "halfcauchy": _constant(_INF, _INF, _NAN, _NAN),
    "levy": _constant(_INF, _INF, _NAN, _NAN),
    "levy_l": _constant(_INF, _INF, _NAN, _NAN),
    "pareto": _pareto_stats,
    "lomax": _lomax_stats,
    "invgamma": _invgamma_stats,
    "t": _t_stats,
    "f": _f_stats,
    "burr": _burr_stats,
    "fisk": lambda c: _burr_stats(c, 1.0),
    "genpareto": _genpareto_stats,
    "rel_breitwigner": lambda rho: (None, None, _NAN + 0.0 * rho, _NAN + 0.0 * rho),
    "laplace_asymmetric": _laplace_asymmetric_stats,
    "triang": _triang_stats,
    "yulesimon": _yulesimon_stats,
    "betanbinom": _betanbinom_stats,
    "ncx2": _ncx2_stats,
    "poisson_binom": _poisson_binom_stats,
    "irwinhall": _irwinhall_stats,
    "tukeylambda": lambda lam: (0.0 * lam, None, 0.0 * lam, None),
    "landau": _constant(_NAN, _NAN, _NAN, _NAN),  # (a tail like 1/x**2: no mean, as SciPy)
    "levy_stable": _levy_stable_stats,
}

MUNP = {
    "burr12": lambda n, c, d: _above(c * d, float(n), _NAN, lambda cd, c: cd / c * sp.beta(
        1.0 + n / c, (cd - n) / c), c),
    "crystalball": _crystalball_munp,
    "dpareto_lognorm": _dpareto_lognorm_munp,
    "genpareto": _genpareto_munp,
    "loglaplace": lambda n, c: _above(c * c, float(n * n), _INF, lambda c2: c2 / (c2 - n * n)),
    "mielke": lambda n, k, s: _above(s, float(n), _INF, lambda s, k: fnp.exp(
        sp.gammaln((k + n) / s) + sp.gammaln(1.0 - n / s) - sp.gammaln(k / s)), k),
    "betaprime": _betaprime_munp,
    "gengamma": _gengamma_munp,
    "rel_breitwigner": _rel_breitwigner_munp,
    "trapezoid": _trapezoid_munp,
    "zipf": _zipf_munp,
    "poisson_binom": _poisson_binom_munp,
    "nct": _nct_munp,
    # (power tails: exact beyond the fourth order, where the quadrature of x**n pdf would
    # converge slowly)
    "pareto": lambda n, b: _above(b, float(n), _INF, lambda b: b / (b - n)),
    "lomax": lambda n, c: _above(c, float(n), _INF, lambda c: math.factorial(n) * fnp.exp(
        sp.gammaln(c - n) - sp.gammaln(c))),
    "invgamma": lambda n, a: _above(a, float(n), _INF, lambda a: fnp.exp(
        sp.gammaln(a - n) - sp.gammaln(a))),
    # (kinks inside the support, away from the mean: the quadrature would converge slowly)
    "triang": lambda n, c: _trapezoid_munp(n, c, c),
    "laplace_asymmetric": lambda n, kappa: math.factorial(n) / (1.0 + kappa * kappa) * (
        kappa ** -n + (-1.0) ** n * kappa ** (n + 2)),
    "lognorm": lambda n, s: fnp.exp(n * n * s * s / 2.0),
    "gibrat": lambda n: math.exp(n * n / 2.0),
    "burr": lambda n, c, d: _above(c, float(n), _NAN, lambda c, d: d * sp.beta(
        1.0 - n / c, d + n / c), d),
    "fisk": lambda n, c: _above(c, float(n), _NAN, lambda c: sp.beta(1.0 - n / c, 1.0 + n / c)),
    "invweibull": lambda n, c: _above(c, float(n), _NAN, lambda c: sp.gamma(1.0 - n / c)),
    "studentized_range": studentized_range_munp,  # (E[R**n] E[(V/df)**(-n/2)])
}

TAIL = {
    # (the families whose statistics are closed forms above: their moments beyond 4)
    "alpha": lambda a: 1.0 + 0.0 * a,
    "cauchy": lambda: 1.0, "halfcauchy": lambda: 1.0,
    "skewcauchy": lambda a: 1.0 + 0.0 * a, "foldcauchy": lambda c: 1.0 + 0.0 * c,
    "levy": lambda: 0.5, "levy_l": lambda: 0.5, "landau": lambda: 1.0,
    "levy_stable": lambda alpha, beta: fnp.where(fnp.equal(alpha, 2.0), _INF, alpha + 0.0 * beta),
    "pareto": lambda b: b * 1.0, "lomax": lambda c: c * 1.0, "invgamma": lambda a: a * 1.0,
    "t": lambda df: df * 1.0, "f": lambda dfn, dfd: dfd * 0.5 + 0.0 * dfn,
    "yulesimon": lambda alpha: alpha * 1.0, "betanbinom": lambda n, a, b: a + 0.0 * (n + b),
    "kappa3": lambda a: a * 1.0,
    "kappa4": _kappa4_tail,
    "ncf": lambda dfn, dfd, nc: dfd * 0.5 + 0.0 * (dfn + nc),
    "jf_skew_t": lambda a, b: 2.0 * fnp.minimum(a, b),
    "genextreme": lambda c: fnp.where(fnp.less(c, 0), -1.0 / fnp.where(fnp.less(c, 0), c, -1.0),
                                      _INF),
    "tukeylambda": lambda lam: fnp.where(fnp.less(lam, 0), -1.0 / fnp.where(
        fnp.less(lam, 0), lam, -1.0), _INF),
}
