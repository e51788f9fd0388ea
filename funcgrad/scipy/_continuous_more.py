"""More of :mod:`funcgrad.scipy.stats`' continuous distributions (re-exported there):
``lognorm``, ``halfnorm``, ``halfcauchy``, ``weibull_min``, ``pareto``, ``lomax``,
``rayleigh``, ``gumbel_r``, ``gumbel_l`` and ``invgamma``, each from its
standardized functions of ``z = (x - loc) / scale`` in closed form, so that every method
differentiates in ``x``, the shape parameters, ``loc`` and ``scale``; and ``f`` (Fisher's
F), whose CDF and quantiles go through ``betainc`` and ``betaincinv``; ``ksone`` (the
one-sided Kolmogorov-Smirnov statistic ``D+_n``), SciPy's values through ``smirnov``, its
complement and their inverses (:mod:`funcgrad.primitives.smirnov`), differentiable in
``x``, ``loc`` and ``scale`` (not in the integer ``n``).

Outside the support the log-density is ``-inf`` and the CDF 0 or 1, with a zero
derivative: the functions see a stand-in inside the support there (the double-where
idiom), so no NaN reaches the derivatives of the points inside.  ``invgamma`` goes
through ``gammainc`` (its derivative in ``a`` that function's); its
quantiles are the reciprocals of gamma's from the other tail (``1 / gamma.ppf(1 - q)``
would lose the lower tail).
"""
import math

import numpy as np

from .. import numpy as fnp
from . import special as sp
from ..primitives import smirnov as _smirnov
from ._distn import _all, _positive, _support, rv_continuous
from ._distn_more import gamma_isf, gamma_ppf

__all__ = ["lognorm", "halfnorm", "halfcauchy", "weibull_min", "pareto", "lomax", "rayleigh",
           "gumbel_r", "gumbel_l", "invgamma", "f", "ksone"]

_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)
_LOG_2 = math.log(2.0)


def _nonnegative(z):
    """``(z >= 0, z where z >= 0 else 1)``: the double-where idiom's safe input for a
    support that includes 0 (where the derivative may be infinite: 1 is safe)."""
    inside = fnp.greater_equal(z, 0)
    return inside, fnp.where(inside, z, 1.0)


# --- lognorm(s): log(x) ~ N(0, s**2) ---------------------------------------------------------

def _lognorm_logpdf(z, s):
    inside, u = _positive(z)
    log_u = fnp.log(u)
    return _support(inside, -fnp.square(log_u / s) * 0.5 - log_u - fnp.log(s) - _LOG_SQRT_2PI)


def _lognorm_standard(fn, sign, at_zero):
    """``fn(sign * log(z) / s)`` inside, ``at_zero`` for ``z <= 0``."""
    def f(z, s):
        inside, u = _positive(z)
        return fnp.where(inside, fn(fnp.log(u) / s * sign), at_zero)
    return f


lognorm = rv_continuous(
    "lognorm", shapes=("s",), _logpdf=_lognorm_logpdf,
    _cdf=_lognorm_standard(sp.ndtr, 1.0, 0.0),
    _logcdf=_lognorm_standard(sp.log_ndtr, 1.0, -math.inf),
    _sf=_lognorm_standard(sp.ndtr, -1.0, 1.0), _logsf=_lognorm_standard(sp.log_ndtr, -1.0, 0.0),
    _ppf=lambda q, s: fnp.exp(sp.ndtri(q) * s), _isf=lambda q, s: fnp.exp(sp.ndtri(q) * -s))


# --- half distributions (|X| of a symmetric X) ------------------------------------------------

def _halfnorm_logpdf(z):
    inside, u = _nonnegative(z)
    return _support(inside, _LOG_2 - _LOG_SQRT_2PI - fnp.square(u) * 0.5)


def _halfnorm_sf(z):
    return sp.erfc(fnp.maximum(z, 0.0) * math.sqrt(0.5))


halfnorm = rv_continuous(
    "halfnorm", _logpdf=_halfnorm_logpdf,
    _cdf=lambda z: sp.erf(fnp.maximum(z, 0.0) * math.sqrt(0.5)), _sf=_halfnorm_sf,
    _logsf=lambda z: fnp.log(_halfnorm_sf(z)),
    _ppf=lambda q: sp.ndtri((1.0 + q) * 0.5), _isf=lambda q: -sp.ndtri(q * 0.5))


def _halfcauchy_logpdf(z):
    inside, u = _nonnegative(z)
    return _support(inside, math.log(2 / math.pi) - fnp.log1p(fnp.square(u)))


def _halfcauchy_ppf(q):
    """``tan(pi q / 2)``, as ``1 / tan(pi (1 - q) / 2)`` above 1/2 (``1 - q`` exact there):
    full relative accuracy in the tail, and inf at 1."""
    high = fnp.greater(q, 0.5)
    return fnp.where(high, 1.0 / fnp.tan((1.0 - fnp.where(high, q, 0.75)) * (math.pi / 2)),
                     fnp.tan(fnp.where(high, 0.25, q) * (math.pi / 2)))


def _halfcauchy_isf(q):
    """``tan(pi (1 - q) / 2)``, as ``1 / tan(pi q / 2)`` below 1/2: full relative accuracy
    for tiny ``q`` (``1 - q`` would round), and inf at 0."""
    low = fnp.less(q, 0.5)
    with np.errstate(divide="ignore"):  # (1 / tan(0) = inf: the quantile at q = 0)
        tail = 1.0 / fnp.tan(fnp.where(low, q, 0.25) * (math.pi / 2))
    return fnp.where(low, tail, fnp.tan((1.0 - fnp.where(low, 0.75, q)) * (math.pi / 2)))


halfcauchy = rv_continuous(
    "halfcauchy", _logpdf=_halfcauchy_logpdf,
    _cdf=lambda z: fnp.arctan(fnp.maximum(z, 0.0)) * (2 / math.pi),
    # (1 - 2/pi arctan(z) = 2/pi arctan(1/z): no cancellation in the tail)
    _sf=lambda z: fnp.where(fnp.greater(z, 0), fnp.arctan(1.0 / _positive(z)[1]) * (2 / math.pi),
                            1.0),
    _ppf=_halfcauchy_ppf, _isf=_halfcauchy_isf)


# --- powers of an exponential variable ----------------------------------------------------------

def _weibull_min_logpdf(z, c):
    # (x = 0 is in the support, as SciPy's: the density there is c for c = 1, inf below)
    inside, u = _nonnegative(z)
    return _support(inside, fnp.log(c) + sp.xlogy(c - 1.0, u) - fnp.power(u, c))


def _weibull_min_logsf(z, c):
    inside, u = _positive(z)
    return fnp.where(inside, -fnp.power(u, c), 0.0)


weibull_min = rv_continuous(
    "weibull_min", shapes=("c",), _logpdf=_weibull_min_logpdf,
    _cdf=lambda z, c: -fnp.expm1(_weibull_min_logsf(z, c)),
    _sf=lambda z, c: fnp.exp(_weibull_min_logsf(z, c)), _logsf=_weibull_min_logsf,
    _ppf=lambda q, c: fnp.power(-fnp.log1p(-q), 1.0 / c),
    _isf=lambda q, c: fnp.power(-fnp.log(q), 1.0 / c))


def _rayleigh_logpdf(z):
    # (z = inf is outside too: log(z) - z**2/2 would be inf - inf there, SciPy's is -inf)
    inside = fnp.logical_and(fnp.greater(z, 0), fnp.less(z, math.inf))
    u = fnp.where(inside, z, 1.0)
    return _support(inside, fnp.log(u) - fnp.square(u) * 0.5)


def _rayleigh_logsf(z):
    return -fnp.square(fnp.maximum(z, 0.0)) * 0.5


rayleigh = rv_continuous(
    "rayleigh", _logpdf=_rayleigh_logpdf, _cdf=lambda z: -fnp.expm1(_rayleigh_logsf(z)),
    _sf=lambda z: fnp.exp(_rayleigh_logsf(z)), _logsf=_rayleigh_logsf,
    _ppf=lambda q: fnp.sqrt(-2.0 * fnp.log1p(-q)), _isf=lambda q: fnp.sqrt(-2.0 * fnp.log(q)))


# --- Pareto tails -------------------------------------------------------------------------------

def _pareto_logsf(z, b):
    inside = fnp.greater_equal(z, 1.0)
    return fnp.where(inside, -b * fnp.log(fnp.where(inside, z, 1.0)), 0.0)


def _pareto_logpdf(z, b):
    inside = fnp.greater_equal(z, 1.0)
    return _support(inside, fnp.log(b) - (b + 1.0) * fnp.log(fnp.where(inside, z, 1.0)))


pareto = rv_continuous(
    "pareto", shapes=("b",), _logpdf=_pareto_logpdf,
    _cdf=lambda z, b: -fnp.expm1(_pareto_logsf(z, b)),
    _sf=lambda z, b: fnp.exp(_pareto_logsf(z, b)), _logsf=_pareto_logsf,
    _ppf=lambda q, b: fnp.exp(-fnp.log1p(-q) / b), _isf=lambda q, b: fnp.exp(-fnp.log(q) / b))


def _lomax_logsf(z, c):
    return -c * fnp.log1p(fnp.maximum(z, 0.0))


def _lomax_logpdf(z, c):
    inside, u = _nonnegative(z)
    return _support(inside, fnp.log(c) - (c + 1.0) * fnp.log1p(u))


lomax = rv_continuous(
    "lomax", shapes=("c",), _logpdf=_lomax_logpdf,
    _cdf=lambda z, c: -fnp.expm1(_lomax_logsf(z, c)),
    _sf=lambda z, c: fnp.exp(_lomax_logsf(z, c)), _logsf=_lomax_logsf,
    _ppf=lambda q, c: fnp.expm1(-fnp.log1p(-q) / c),
    _isf=lambda q, c: fnp.expm1(-fnp.log(q) / c))


# --- extreme values -----------------------------------------------------------------------------

gumbel_r = rv_continuous(
    "gumbel_r", _logpdf=lambda z: -z - fnp.exp(-z),
    _cdf=lambda z: fnp.exp(-fnp.exp(-z)), _logcdf=lambda z: -fnp.exp(-z),
    _sf=lambda z: -fnp.expm1(-fnp.exp(-z)), _ppf=lambda q: -fnp.log(-fnp.log(q)),
    _isf=lambda q: -fnp.log(-fnp.log1p(-q)))
gumbel_l = rv_continuous(
    "gumbel_l", _logpdf=lambda z: z - fnp.exp(z),
    _cdf=lambda z: -fnp.expm1(-fnp.exp(z)), _sf=lambda z: fnp.exp(-fnp.exp(z)),
    _logsf=lambda z: -fnp.exp(z), _ppf=lambda q: fnp.log(-fnp.log1p(-q)),
    _isf=lambda q: fnp.log(-fnp.log(q)))


# --- invgamma(a): 1/X ~ gamma(a) ------------------------------------------------------------------

def _invgamma_logpdf(z, a):
    inside, u = _positive(z)
    return _support(inside, -(a + 1.0) * fnp.log(u) - sp.gammaln(a) - 1.0 / u)


def _invgamma_tail(upper):
    def f(z, a):
        inside, u = _positive(z)
        tail = (sp.gammainc if upper else sp.gammaincc)(a, 1.0 / u)
        return fnp.where(inside, tail, 1.0 if upper else 0.0)
    return f


def _reciprocal(x):
    with np.errstate(divide="ignore"):  # (1 / 0 = inf: the quantile at the support's end)
        return 1.0 / x


invgamma = rv_continuous(
    "invgamma", shapes=("a",), _logpdf=_invgamma_logpdf, _cdf=_invgamma_tail(False),
    _sf=_invgamma_tail(True),
    # (1/X's lower tail is X's upper one: each quantile from gamma's other tail)
    _ppf=lambda q, a: _reciprocal(gamma_isf(q, a)), _isf=lambda q, a: _reciprocal(gamma_ppf(q, a)))


# --- f(dfn, dfd): (chi2(dfn)/dfn) / (chi2(dfd)/dfd) ----------------------------------------------

def _f_logpdf(z, dfn, dfd):
    # (0 is in the support, as SciPy's: density inf, finite or 0 there for dfn <, = or > 2)
    inside = fnp.greater_equal(z, 0)
    u = fnp.where(inside, z, 1.0)
    half_n = dfn * 0.5
    return _support(inside, half_n * fnp.log(dfn / dfd) + sp.xlogy(half_n - 1.0, u)
                    - (half_n + dfd * 0.5) * fnp.log1p(dfn * u / dfd)
                    - sp.betaln(half_n, dfd * 0.5))


def _f_tail(upper):
    """The CDF (``upper=False``) or the survival function: ``betainc`` of ``dfn z / (dfd +
    dfn z)`` or of its complement ``dfd / (dfd + dfn z)``, each computed directly (no
    ``1 - w``), 0 or 1 outside the support (the double-where idiom)."""
    def f(z, dfn, dfd):
        inside, u = _positive(z)
        t = dfn * u
        if upper:
            value = sp.betainc(dfd * 0.5, dfn * 0.5, dfd / (dfd + t))
        else:
            value = sp.betainc(dfn * 0.5, dfd * 0.5, t / (dfd + t))
        return fnp.where(inside, value, 1.0 if upper else 0.0)
    return f


def _f_quantile(upper):
    """``ppf`` (``upper=False``) or ``isf`` by ``betaincinv``: ``x = (dfd/dfn) w / v`` with
    ``w = I^-1`` of the lower tail and ``v = 1 - w`` of the upper, each from the tail
    probability below 1/2 (``1 - q`` is exact above it), so neither side cancels."""
    def f(q, dfn, dfd):
        lower_q = 1.0 - q if upper else q
        low = fnp.less_equal(lower_q, 0.5)
        # (the double where: each inverse sees a probability of its own side)
        w = sp.betaincinv(dfn * 0.5, dfd * 0.5, fnp.where(low, lower_q, 0.5))
        v = sp.betaincinv(dfd * 0.5, dfn * 0.5, fnp.where(low, 0.5, q if upper else 1.0 - q))
        ratio = fnp.where(low, w / (1.0 - w), (1.0 - v) / v)
        return ratio * (dfd / dfn)
    return f


f = rv_continuous(
    "f", shapes=("dfn", "dfd"), _logpdf=_f_logpdf, _cdf=_f_tail(False), _sf=_f_tail(True),
    _ppf=_f_quantile(False), _isf=_f_quantile(True))


# --- ksone(n): D+_n, the one-sided Kolmogorov-Smirnov statistic of n samples -------------------

def _unit(z):
    """``(0 <= z <= 1, z there and 1/2 elsewhere)``: the double where's safe input (the
    functions of smirnov are NaN outside [0, 1])."""
    inside = fnp.logical_and(fnp.greater_equal(z, 0), fnp.less_equal(z, 1))
    return inside, fnp.where(inside, z, 0.5)


def _ksone_logpdf(z, n):
    # (the density is 0 at z = 1 for n > 1: -inf there too, with a zero derivative)
    inside, u = _unit(z)
    density = _smirnov.smirnov_density(n, u)
    positive = fnp.logical_and(inside, fnp.greater(density, 0))
    return _support(positive, fnp.log(fnp.where(positive, density, 1.0)))


def _ksone_tail(fn, below):
    """``fn(n, z)`` on [0, 1]; ``below`` left of it, ``1 - below`` right of it."""
    def tail(z, n):
        inside, u = _unit(z)
        return fnp.where(inside, fn(n, u), fnp.where(fnp.less(z, 0), below, 1.0 - below))
    return tail


ksone = rv_continuous(
    "ksone", shapes=("n",),
    _valid=lambda n: _all(fnp.greater_equal(n, 1), fnp.equal(n, fnp.floor(n))),
    _logpdf=_ksone_logpdf, _cdf=_ksone_tail(_smirnov.smirnovc, 0.0),
    _sf=_ksone_tail(_smirnov.smirnov, 1.0), _ppf=lambda q, n: _smirnov.smirnovci(n, q),
    _isf=lambda q, n: _smirnov.smirnovi(n, q))


for _d in (lognorm, halfnorm, halfcauchy, weibull_min, pareto, lomax, rayleigh, gumbel_r,
           gumbel_l, invgamma, f, ksone):
    _params = ", ".join(["2.5"] * len(_d.shapes) + ["scale=s"])
    _d.__doc__ = f"""SciPy's ``{_d.name}`` distribution (parameters: {", ".join(
        _d.shapes + ("loc", "scale"))}).

>>> import funcgrad as fg
>>> g = fg.grad(lambda s: {_d.name}.logpdf(1.5, {_params}))(1.5)  # d/dscale
"""
del _d, _params
