"""More continuous distributions of :mod:`funcgrad.scipy.stats` with closed forms
(re-exported there): ``recipinvgauss``, ``halfgennorm``, ``skewcauchy``, ``truncpareto``,
``truncweibull_min`` and ``rdist``.

Each is one :class:`._distn.rv_continuous` declaration with SciPy's formulas (its
``_cdf``, ``_sf``, ``_ppf``, ``_isf`` where SciPy has them, so the values agree to
rounding), rearranged where a difference would cancel (``expm1`` of the exponents:
``truncpareto``, ``truncweibull_min``; the far tail of ``skewcauchy`` as an ``arctan`` of
its own), so that every method differentiates in ``x``/``q``, the shape parameters,
``loc`` and ``scale`` (``halfgennorm``'s and ``rdist``'s quantiles in the shape through
``gammaincinv``'s and ``betaincinv``'s rules).

Closed forms where SciPy integrates numerically: ``recipinvgauss``' mean ``1 + 1/mu``
and variance ``2 + 1/mu`` (the moments of ``1/W``, ``W`` inverse Gaussian with shape 1),
``halfgennorm``'s ``E X**n = Gamma((n+1)/b) / Gamma(1/b)``, ``skewcauchy``'s entropy
``log(4 pi)`` (each half is a half-Cauchy carrying its own scale's share of the mass),
``truncweibull_min``'s moments (SciPy's ``_munp``) and ``rdist``'s variance ``1/(c+1)``
and entropy (the symmetric beta's plus ``log 2``).  ``recipinvgauss``' quantiles invert its
CDF numerically (:mod:`._statsdists_quantiles`, as SciPy's).  Not offered
(NotImplementedError; SciPy integrates them numerically): the entropies of
``recipinvgauss`` and ``truncweibull_min``.
"""
import math

from .. import numpy as fnp
from . import special as sp
from ._distn import _all, _positive, _support, rv_continuous
from ._statsdists_closed import document
from ._statsdists_quantiles import numeric_quantiles

__all__ = ["recipinvgauss", "halfgennorm", "skewcauchy", "truncpareto", "truncweibull_min",
           "rdist"]

_LOG_2 = math.log(2.0)
_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)


# --- recipinvgauss(mu): 1/W for W inverse Gaussian (mean mu, shape 1) ----------------------------

def _recipinvgauss_logpdf(z, mu):
    inside, u = _positive(z)
    return _support(inside, -(1.0 - mu * u) ** 2 / (2.0 * u * mu * mu)
                    - 0.5 * fnp.log(u) - _LOG_SQRT_2PI)


def _recipinvgauss_tail(upper):
    def f(z, mu):
        inside, u = _positive(z)
        root = fnp.sqrt(u)
        a = (1.0 / mu - u) / root
        # (exp(2/mu) ndtr(b) in logs: no overflow for a small mu)
        second = fnp.exp(2.0 / mu + sp.log_ndtr(-(1.0 / mu + u) / root))
        value = sp.ndtr(a) + second if upper else sp.ndtr(-a) - second
        return fnp.where(inside, value, 1.0 if upper else 0.0)
    return f


recipinvgauss = rv_continuous(
    "recipinvgauss", shapes=("mu",), _logpdf=_recipinvgauss_logpdf,
    _cdf=_recipinvgauss_tail(False), _sf=_recipinvgauss_tail(True),
    _mean=lambda mu: 1.0 + 1.0 / mu, _var=lambda mu: 2.0 + 1.0 / mu)
recipinvgauss._ppf, recipinvgauss._isf = numeric_quantiles(recipinvgauss, "positive")


# --- halfgennorm(beta): the generalized normal folded at 0 ----------------------------------------

def _power(z, beta):
    """``(z > 0, z**beta)``, 0 for ``z <= 0`` (with no ``log 0`` in the slope in beta)."""
    inside, u = _positive(z)
    return inside, fnp.where(inside, fnp.exp(beta * fnp.log(u)), 0.0)


def _halfgennorm_logpdf(z, beta):
    inside = fnp.greater_equal(z, 0)
    return _support(inside, fnp.log(beta) - sp.gammaln(1.0 / beta) - _power(z, beta)[1])


def _halfgennorm_moment(n):
    return lambda beta: fnp.exp(sp.gammaln((n + 1.0) / beta) - sp.gammaln(1.0 / beta))


halfgennorm = rv_continuous(
    "halfgennorm", shapes=("beta",), _logpdf=_halfgennorm_logpdf,
    _cdf=lambda z, beta: sp.gammainc(1.0 / beta, _power(z, beta)[1]),
    _sf=lambda z, beta: sp.gammaincc(1.0 / beta, _power(z, beta)[1]),
    _ppf=lambda q, beta: sp.gammaincinv(1.0 / beta, q) ** (1.0 / beta),
    _isf=lambda q, beta: sp.gammainccinv(1.0 / beta, q) ** (1.0 / beta),
    _mean=_halfgennorm_moment(1),
    _var=lambda beta: _halfgennorm_moment(2)(beta) - _halfgennorm_moment(1)(beta) ** 2,
    _entropy=lambda beta: 1.0 / beta - fnp.log(beta) + sp.gammaln(1.0 / beta))


# --- skewcauchy(a): Cauchy halves of scales 1 - a (left) and 1 + a (right) ------------------------

def _skewcauchy_scale(z, a):
    return fnp.where(fnp.less(z, 0), 1.0 - a, 1.0 + a)


def _skewcauchy_tail(upper):
    """The tail beyond ``z`` on its own side, ``s/pi arctan(s/|z|)`` (its scale ``s``),
    without SciPy's ``1/2 - arctan`` difference; on the other side ``1 - `` that."""
    def f(z, a):
        own_side = fnp.greater(z, 0) if upper else fnp.less(z, 0)
        right = own_side if upper else fnp.logical_not(own_side)
        s = fnp.where(right, 1.0 + a, 1.0 - a)
        own = s / math.pi * fnp.arctan2(s, fnp.where(right, z, -z))
        return fnp.where(own_side, own, 1.0 - own)
    return f


def _skewcauchy_ppf(q, a):
    left = fnp.less(q, 0.5 * (1.0 - a))
    s = fnp.where(left, 1.0 - a, 1.0 + a)
    return s * fnp.tan(math.pi / s * (q - 0.5 * (1.0 - a)))


skewcauchy = rv_continuous(
    "skewcauchy", shapes=("a",),
    _valid=lambda a: fnp.less(fnp.abs(a), 1),
    _logpdf=lambda z, a: -math.log(math.pi) - fnp.log1p((z / _skewcauchy_scale(z, a)) ** 2),
    _cdf=_skewcauchy_tail(False), _sf=_skewcauchy_tail(True), _ppf=_skewcauchy_ppf,
    _mean=lambda a: math.nan + 0.0 * a, _var=lambda a: math.nan + 0.0 * a,
    _entropy=lambda a: math.log(4 * math.pi) + 0.0 * a)


# --- truncpareto(b, c): pareto(b) cut at c -----------------------------------------------------------

def _cut(c):
    """``c``, with 2 for an invalid ``c <= 1`` (``_distn``'s stand-in 1 would divide 0 by
    0; those entries are NaN anyway)."""
    return fnp.where(fnp.greater(c, 1), c, 2.0)


def _truncpareto_inside(z, c):
    inside = _all(fnp.greater_equal(z, 1), fnp.less_equal(z, c))
    return inside, fnp.log(fnp.where(inside, z, 1.0))


def _truncpareto_logpdf(z, b, c):
    c = _cut(c)
    inside, log_z = _truncpareto_inside(z, c)
    # log(b / (1 - c**-b)) for either sign of b: |b| / |expm1(-b log c)|
    return _support(inside, fnp.log(fnp.abs(b)) - fnp.log(fnp.abs(fnp.expm1(-b * fnp.log(c))))
                    - (b + 1.0) * log_z)


def _truncpareto_tail(upper):
    def f(z, b, c):
        c = _cut(c)
        inside, log_z = _truncpareto_inside(z, c)
        whole = fnp.expm1(-b * fnp.log(c))
        if upper:  # (x**-b - c**-b) / (1 - c**-b)
            value = fnp.exp(-b * log_z) * fnp.expm1(-b * (fnp.log(c) - log_z)) / whole
            return fnp.where(inside, value, fnp.where(fnp.less(z, 1), 1.0, 0.0))
        value = fnp.expm1(-b * log_z) / whole  # (1 - x**-b) / (1 - c**-b)
        return fnp.where(inside, value, fnp.where(fnp.less(z, 1), 0.0, 1.0))
    return f


def _truncpareto_moment(n):
    """SciPy's ``E X**n = b (c**b - c**n) / ((b - n) (c**b - 1))``, the ratio
    ``(c**(b-n) - 1) / (b - n)`` as ``log c exprel((b - n) log c)``: smooth through
    ``b = n`` (SciPy's separate ``b log c / (1 - c**-b)`` there)."""
    def f(b, c):
        log_c = fnp.log(_cut(c))
        return b * fnp.exp(n * log_c) * log_c * sp.exprel((b - n) * log_c) / fnp.expm1(b * log_c)
    return f


def _truncpareto_entropy(b, c):
    log_c = fnp.log(_cut(c))
    return -(fnp.log(b / -fnp.expm1(-b * log_c)) + (b + 1.0) * (log_c / fnp.expm1(b * log_c)
                                                                  - 1.0 / b))


truncpareto = rv_continuous(
    "truncpareto", shapes=("b", "c"),
    _valid=lambda b, c: _all(fnp.not_equal(b, 0), fnp.greater(c, 1)),
    _logpdf=_truncpareto_logpdf,
    _cdf=_truncpareto_tail(False), _sf=_truncpareto_tail(True),
    _ppf=lambda q, b, c: fnp.exp(-fnp.log1p(fnp.expm1(-b * fnp.log(_cut(c))) * q) / b),
    _isf=lambda q, b, c: fnp.exp(-fnp.log1p(fnp.expm1(-b * fnp.log(_cut(c))) * (1.0 - q))
                                 / b),
    _mean=_truncpareto_moment(1),
    _var=lambda b, c: _truncpareto_moment(2)(b, c) - _truncpareto_moment(1)(b, c) ** 2,
    _entropy=_truncpareto_entropy)


# --- truncweibull_min(c, a, b): weibull_min(c) cut to [a, b] ----------------------------------------

def _upper_end(a, b):
    """``b``, with ``a + 1`` for an invalid ``b <= a`` (NaN entries: no 0/0 on the way)."""
    return fnp.where(fnp.greater(b, a), b, a + 1.0)


def _truncweibull_parts(z, c, a, b):
    """``(a <= z <= b, z**c, a**c, b**c)``; ``z**c`` at a stand-in outside."""
    b = _upper_end(a, b)
    inside = _all(fnp.greater_equal(z, a), fnp.less_equal(z, b))
    u = fnp.where(inside, z, 0.5 * (a + b))
    return inside, u ** c, a ** c, b ** c


def _truncweibull_logpdf(z, c, a, b):
    inside, uc, ac, bc = _truncweibull_parts(z, c, a, b)
    u = fnp.where(inside, z, 0.5 * (a + _upper_end(a, b)))
    # log(exp(-a**c) - exp(-b**c)) = -a**c + log(-expm1(a**c - b**c))
    log_mass = -ac + fnp.log(-fnp.expm1(ac - bc))
    return _support(inside, fnp.log(c) + sp.xlogy(c - 1.0, u) - uc - log_mass)


def _truncweibull_tail(upper):
    def f(z, c, a, b):
        inside, uc, ac, bc = _truncweibull_parts(z, c, a, b)
        whole = -fnp.expm1(ac - bc)
        below = fnp.less(z, a)
        if upper:  # (exp(-x**c) - exp(-b**c)) / (exp(-a**c) - exp(-b**c))
            value = fnp.exp(ac - uc) * -fnp.expm1(uc - bc) / whole
            return fnp.where(inside, value, fnp.where(below, 1.0, 0.0))
        value = -fnp.expm1(ac - uc) / whole
        return fnp.where(inside, value, fnp.where(below, 0.0, 1.0))
    return f


def _truncweibull_quantile(upper):
    def f(q, c, a, b):
        ac, bc = a ** c, _upper_end(a, b) ** c
        p = 1.0 - q if upper else q
        # SciPy's (-log((1 - p) exp(-a**c) + p exp(-b**c)))**(1/c), exp(-a**c) taken out
        return (ac - fnp.log1p(p * fnp.expm1(ac - bc))) ** (1.0 / c)
    return f


def _truncweibull_moment(n):
    """SciPy's ``Gamma(n/c + 1) (P(n/c + 1, b**c) - P(n/c + 1, a**c)) / (exp(-a**c) -
    exp(-b**c))``."""
    def f(c, a, b):
        s = n / c + 1.0
        ac, bc = a ** c, _upper_end(a, b) ** c
        # (a = 0, the common case: P(s, 0) = 0 without gammainc's slope at 0)
        positive = fnp.greater(a, 0)
        lower = fnp.where(positive, sp.gammainc(s, fnp.where(positive, ac, 1.0)), 0.0)
        return sp.gamma(s) * (sp.gammainc(s, bc) - lower) / (fnp.exp(-ac) - fnp.exp(-bc))
    return f


truncweibull_min = rv_continuous(
    "truncweibull_min", shapes=("c", "a", "b"),
    _valid=lambda c, a, b: _all(fnp.greater_equal(a, 0), fnp.greater(b, a), fnp.greater(c, 0)),
    _logpdf=_truncweibull_logpdf,
    _cdf=_truncweibull_tail(False), _sf=_truncweibull_tail(True),
    _ppf=_truncweibull_quantile(False), _isf=_truncweibull_quantile(True),
    _mean=_truncweibull_moment(1),
    _var=lambda c, a, b: _truncweibull_moment(2)(c, a, b) - _truncweibull_moment(1)(c, a, b) ** 2)


# --- rdist(c): 2 Y - 1 for Y ~ beta(c/2, c/2) ------------------------------------------------------

def _rdist_logpdf(z, c):
    inside = _all(fnp.greater(z, -1), fnp.less(z, 1))
    u = fnp.where(inside, z, 0.0)
    h = 0.5 * c
    return _support(inside, -_LOG_2 + (h - 1.0) * (fnp.log(0.5 * (1.0 + u))
                                                    + fnp.log(0.5 * (1.0 - u)))
                    - sp.betaln(h, h))


def _rdist_tail(upper):
    def f(z, c):
        inside = _all(fnp.greater(z, -1), fnp.less(z, 1))
        u = fnp.where(inside, z, 0.0)
        y = 0.5 * (1.0 - u) if upper else 0.5 * (1.0 + u)  # (symmetric: I_{1-y}(h, h) = sf)
        past = fnp.greater_equal(z, 1)
        outside = fnp.where(past, 0.0, 1.0) if upper else fnp.where(past, 1.0, 0.0)
        return fnp.where(inside, sp.betainc(0.5 * c, 0.5 * c, y), outside)
    return f


def _rdist_entropy(c):
    h = 0.5 * c
    return _LOG_2 + sp.betaln(h, h) - 2.0 * (h - 1.0) * sp.digamma(h) + (c - 2.0) * sp.digamma(c)


rdist = rv_continuous(
    "rdist", shapes=("c",), _logpdf=_rdist_logpdf,
    _cdf=_rdist_tail(False), _sf=_rdist_tail(True),
    _ppf=lambda q, c: 2.0 * sp.betaincinv(0.5 * c, 0.5 * c, q) - 1.0,
    _isf=lambda q, c: 1.0 - 2.0 * sp.betaincinv(0.5 * c, 0.5 * c, q),
    _mean=lambda c: 0.0 * c, _var=lambda c: 1.0 / (c + 1.0), _entropy=_rdist_entropy)


document(globals(), {
    "recipinvgauss": ((0.8,), 0.5), "halfgennorm": ((1.5,), 0.5), "skewcauchy": ((0.3,), 0.5),
    "truncpareto": ((1.8, 3.0), 2.0), "truncweibull_min": ((2.0, 0.1, 2.0), 0.5),
    "rdist": ((2.5,), 0.5)})
