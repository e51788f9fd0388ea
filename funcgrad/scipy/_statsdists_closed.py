"""Continuous distributions of :mod:`funcgrad.scipy.stats` whose density, distribution
function and quantiles are closed forms in elementary functions, on a bounded support
or symmetric about 0 (re-exported there): ``genextreme``, ``genpareto``, ``triang``,
``trapezoid``, ``powerlaw``, ``bradford``, ``arcsine``, ``anglit``, ``cosine``,
``semicircular``, ``hypsecant`` and ``dweibull`` (those on a half-line are in
:mod:`._statsdists_tails`).

Each is one :class:`._distn.rv_continuous` declaration of its standardized functions of
``z = (x - loc) / scale`` (SciPy's formulas, or a more accurate form of the same
value), with its mean, variance and entropy where SciPy has them in closed form, so
every method differentiates in ``x``, the shape parameters, ``loc`` and ``scale``.
Outside the support the functions see a stand-in inside it (the double-where idiom),
so no NaN reaches the derivatives of the points inside.  ``cosine``'s and
``semicircular``'s quantiles invert their CDFs numerically (:mod:`._statsdists_quantiles`).
"""
import functools
import math

import numpy as np

from .. import numpy as fnp
from . import special as sp
from ._distn import _all, _support, rv_continuous
from ._moments import _above
from ._statsdists_quantiles import numeric_quantiles

__all__ = ["genextreme", "genpareto", "triang", "trapezoid", "powerlaw", "bradford", "arcsine",
           "anglit", "cosine", "semicircular", "hypsecant", "dweibull"]

_EULER = 0.5772156649015329
_ZETA3 = 1.2020569031595942
_LOG_2 = math.log(2.0)
_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)
_PI = math.pi


def _nonnegative(z):
    inside = fnp.greater_equal(z, 0)
    return inside, fnp.where(inside, z, 1.0)


def _within(z, lo, hi, stand_in):
    """``(lo <= z <= hi, z there and stand_in elsewhere)``."""
    inside = _all(fnp.greater_equal(z, lo), fnp.less_equal(z, hi))
    return inside, fnp.where(inside, z, stand_in)


def _real(*shape):
    """SciPy's ``_argcheck`` of a shape that may be any finite number."""
    return _all(*[fnp.isfinite(s) for s in shape])


def mirror(name, d):
    """The distribution of ``-X`` for ``X ~ d`` (``weibull_max`` of ``weibull_min``...):
    every function of ``d`` at ``-z``, the tails swapped."""
    def flip(fn):
        return None if fn is None else (lambda z, *s: fn(-z, *s))

    def negate(fn):
        return None if fn is None else (lambda q, *s: -fn(q, *s))
    get = d.__dict__.get
    return rv_continuous(
        name, shapes=d.shapes, _valid=d._valid, _logpdf=flip(get("_logpdf")),
        _cdf=flip(get("_sf")), _sf=flip(get("_cdf")), _logcdf=flip(get("_logsf")),
        _logsf=flip(get("_logcdf")), _ppf=negate(get("_isf")), _isf=negate(get("_ppf")),
        _mean=None if get("_mean") is None else (lambda *s: -d._mean(*s)),
        _var=get("_var"), _entropy=get("_entropy"))


# --- generalized extreme values: genextreme(c), genpareto(c) ----------------------------------

def _log1p_ratio(u):
    """``log1p(u) / u``, smooth through ``u = 0`` (its limit 1 there, and its slope -1/2:
    the generalized distributions at ``c = 0`` are differentiable in ``c``; the series'
    first neglected term is below 1e-16 for ``|u| < 1e-4``)."""
    small = fnp.less(fnp.abs(u), 1e-4)
    s, t = fnp.where(small, u, 0.0), fnp.where(small, 1.0, u)
    return fnp.where(small, 1.0 + s * (-0.5 + s * (1.0 / 3.0 - s * 0.25)), fnp.log1p(t) / t)


def _ends(q, fn, at_zero, at_one):
    """``fn`` of a ``q`` strictly inside (0, 1) (a stand-in 1/2 elsewhere: the double
    where), and the support's ends ``at_zero`` and ``at_one`` at ``q = 0`` and ``1``."""
    inside = _all(fnp.greater(q, 0), fnp.less(q, 1))
    return fnp.where(inside, fn(fnp.where(inside, q, 0.5)),
                     fnp.where(fnp.equal(q, 0), at_zero, at_one))


def _reciprocal_or(c, keep, otherwise):
    """``1 / c`` where ``keep``, ``otherwise`` elsewhere (where ``c`` may be 0)."""
    return fnp.where(keep, 1.0 / fnp.where(keep, c, 1.0), otherwise)


def _genextreme_parts(z, c):
    """``(inside the support, log((1 - c z)**(1/c)), log1p(-c z))``: the support is
    ``1 - c z > 0``, the whole line for ``c = 0`` (the Gumbel distribution, the limit)."""
    inside = fnp.greater(1.0 - c * z, 0)
    u = fnp.where(inside, z, 0.0)
    return inside, -u * _log1p_ratio(-c * u), fnp.log1p(-c * u)


def _genextreme_logcdf(z, c, cap=math.inf):
    # (cap: the cdf and sf cap the log of t at 700, where exp(-t) is 0 to the last bit and
    # t itself would overflow to a NaN slope)
    inside, log_t, _ = _genextreme_parts(z, c)
    return fnp.where(inside, -fnp.exp(fnp.minimum(log_t, cap)),
                     fnp.where(fnp.greater(c, 0), 0.0, -math.inf))


def _genextreme_quantile(upper):
    def f(q, c):
        def inner(p):  # (-log of the lower tail's log, then (1 - exp(-c y)) / c)
            y = -fnp.log(-(fnp.log1p(-p) if upper else fnp.log(p)))
            return y * sp.exprel(-c * y)
        low = _reciprocal_or(c, fnp.less(c, 0), -math.inf)
        high = _reciprocal_or(c, fnp.greater(c, 0), math.inf)
        return _ends(q, inner, high if upper else low, low if upper else high)
    return f


@functools.lru_cache(maxsize=None)
def _zetas():
    """``zeta(k)`` for ``k = 2..27`` (the first 1e5 terms and Euler-Maclaurin's tail:
    below 1e-16 relative), computed once, on first use."""
    n = np.arange(1.0, 1e5 + 1.0)
    return [float(np.sum(n[::-1] ** -k)) + 1e5 ** (1 - k) / (k - 1) - 0.5 * 1e5 ** -k
            for k in range(2, 28)]


def _gammaln_1p_series(c, scale_of_k):
    """``sum_k (-1)**k zeta(k) / k * scale_of_k(k) * c**(k - 2)`` for ``k = 2..27``: the
    Taylor series of ``gammaln(1 + c) + euler c`` over ``c**2`` (``scale_of_k = 1``), and
    with ``2**k - 2``, of ``gammaln(1 + 2c) - 2 gammaln(1 + c)``; within 1e-16 for
    ``|c| < 0.1`` (gammaln's absolute error near 1, 1e-17, is a large relative one in
    these differences: 4e-5 of the variance at c = 1e-6)."""
    total = 0.0
    for k, zeta in reversed(list(enumerate(_zetas(), start=2))):
        total = total * c + (-1) ** k * zeta / k * scale_of_k(k)
    return total


def _near_zero(c, series, exact, bound=0.1):
    """``series(c)`` for ``|c| < bound``, ``exact(c)`` elsewhere (each on a safe ``c``)."""
    near = fnp.less(fnp.abs(c), bound)
    return fnp.where(near, series(fnp.where(near, c, 0.0)), exact(fnp.where(near, 1.0, c)))


def _genextreme_mean(c):
    # (1 - Gamma(1 + c)) / c = -(G / c) exprel(G), G = gammaln(1 + c): smooth through c = 0
    def f(s):
        g_over_c = _near_zero(s, lambda t: -_EULER + t * _gammaln_1p_series(t, lambda k: 1.0),
                              lambda t: sp.gammaln(1.0 + t) / t)
        return -g_over_c * sp.exprel(s * g_over_c)
    return _above(c, -1.0, f, math.nan)


def _genextreme_var(c):
    # Gamma(1 + c)**2 (Gamma(1 + 2c) / Gamma(1 + c)**2 - 1) / c**2, as exp(2 G) (A / c**2)
    # exprel(A), A = gammaln(1 + 2c) - 2 gammaln(1 + c)
    def f(s):
        a_over_c2 = _near_zero(s, lambda t: _gammaln_1p_series(t, lambda k: 2.0 ** k - 2.0),
                               lambda t: (sp.gammaln(1.0 + 2.0 * t) - 2.0 * sp.gammaln(1.0 + t))
                               / (t * t), bound=0.05)
        return fnp.exp(2.0 * sp.gammaln(1.0 + s)) * a_over_c2 * sp.exprel(s * s * a_over_c2)
    return _above(c, -0.5, f, math.nan)


def _genextreme_logpdf(z, c):
    inside, log_t, log_w = _genextreme_parts(z, c)
    return _support(inside, log_t - fnp.exp(log_t) - log_w)


genextreme = rv_continuous(
    "genextreme", shapes=("c",), _valid=_real, _logpdf=_genextreme_logpdf,
    _logcdf=_genextreme_logcdf, _cdf=lambda z, c: fnp.exp(_genextreme_logcdf(z, c, 700.0)),
    _sf=lambda z, c: -fnp.expm1(_genextreme_logcdf(z, c, 700.0)),
    _ppf=_genextreme_quantile(False), _isf=_genextreme_quantile(True),
    _mean=_genextreme_mean, _var=_genextreme_var, _entropy=lambda c: _EULER * (1.0 - c) + 1.0)


def _genpareto_parts(z, c):
    """``(in the support, log1p(c z) / c)``: the support ``z >= 0`` and ``1 + c z > 0``."""
    inside = _all(fnp.greater_equal(z, 0), fnp.greater(1.0 + c * z, 0))
    u = fnp.where(inside, z, 0.0)
    return inside, u * _log1p_ratio(c * u)


def _genpareto_logsf(z, c):
    inside, h = _genpareto_parts(z, c)
    return fnp.where(inside, -h, fnp.where(fnp.less(z, 0), 0.0, -math.inf))


def _genpareto_quantile(upper):
    def f(q, c):
        def inner(p):  # ((1 - q)**-c - 1) / c = y exprel(c y), y = -log(1 - q)
            y = -(fnp.log(p) if upper else fnp.log1p(-p))
            return y * sp.exprel(c * y)
        high = fnp.where(fnp.less(c, 0), -1.0 / fnp.where(fnp.less(c, 0), c, -1.0), math.inf)
        return _ends(q, inner, high if upper else 0.0, 0.0 if upper else high)
    return f


def _genpareto_logpdf(z, c):
    # (the right end -1/c of a c < 0 is in the support, as SciPy's: the density there is
    # 0, or 1 for c = -1, the uniform distribution; a constant, the end being a point)
    inside, h = _genpareto_parts(z, c)
    end = _all(fnp.greater(z, 0), fnp.equal(1.0 + c * z, 0))
    return fnp.where(end, fnp.where(fnp.equal(c, -1.0), 0.0, -math.inf),
                     _support(inside, -(c + 1.0) * h))


genpareto = rv_continuous(
    "genpareto", shapes=("c",), _valid=_real, _logpdf=_genpareto_logpdf,
    _logsf=_genpareto_logsf, _sf=lambda z, c: fnp.exp(_genpareto_logsf(z, c)),
    _cdf=lambda z, c: -fnp.expm1(_genpareto_logsf(z, c)),
    _ppf=_genpareto_quantile(False), _isf=_genpareto_quantile(True),
    _mean=lambda c: _above(-c, -1.0, lambda s: 1.0 / (1.0 + s), math.inf),
    _var=lambda c: _above(-c, -0.5, lambda s: 1.0 / ((1.0 + s) ** 2 * (1.0 + 2.0 * s)),
                          math.inf),
    _entropy=lambda c: c + 1.0)


# --- on [0, 1]: triang(c), trapezoid(c, d), powerlaw(a), bradford(c), arcsine -----------------

def _unit(z):
    return _within(z, 0.0, 1.0, 0.5)


def _sides(u, c):
    """``(u < c, u and c for the left piece, u and c for the right piece)``, each piece
    seeing stand-ins where it is not taken (its divisions by ``c`` or ``1 - c`` safe)."""
    left = fnp.less(u, c)
    return (left, fnp.where(left, u, 0.5), fnp.where(left, c, 1.0),
            fnp.where(left, 0.5, u), fnp.where(left | fnp.equal(c, 1.0), 0.0, c))


def _triang_logpdf(z, c):
    inside, u = _unit(z)
    left, ul, cl, ur, cr = _sides(u, c)
    return _support(inside, _LOG_2 + fnp.where(left, fnp.log(ul / cl),
                                               fnp.log((1.0 - ur) / (1.0 - cr))))


def _triang_cdf(z, c):
    left, ul, cl, ur, cr = _sides(fnp.clip(z, 0.0, 1.0), c)
    return fnp.where(left, ul * ul / cl, 1.0 - (1.0 - ur) ** 2 / (1.0 - cr))


def _triang_sf(z, c):
    left, ul, cl, ur, cr = _sides(fnp.clip(z, 0.0, 1.0), c)
    return fnp.where(left, 1.0 - ul * ul / cl, (1.0 - ur) ** 2 / (1.0 - cr))


def _triang_ppf(q, c):
    left = fnp.less(q, c)
    return fnp.where(left, fnp.sqrt(c * fnp.where(left, q, 0.5) + fnp.where(left, 0.0, 0.25)),
                     1.0 - fnp.sqrt((1.0 - c) * (1.0 - fnp.where(left, 0.5, q))
                                    + fnp.where(left, 0.25, 0.0)))


triang = rv_continuous(
    "triang", shapes=("c",), _valid=lambda c: _all(fnp.greater_equal(c, 0), fnp.less_equal(c, 1)),
    _logpdf=_triang_logpdf, _cdf=_triang_cdf, _sf=_triang_sf, _ppf=_triang_ppf,
    _mean=lambda c: (1.0 + c) / 3.0, _var=lambda c: (1.0 - c + c * c) / 18.0,
    _entropy=lambda c: 0.5 + 0.0 * c - _LOG_2)


def _trapezoid_pieces(z, c, d):
    """``(left, right, u, z / c on the left, (1 - z) / (1 - d) on the right, height)``."""
    u = fnp.clip(z, 0.0, 1.0)
    left, right = fnp.less(u, c), fnp.greater(u, d)
    rise = fnp.where(left, u, 0.5) / fnp.where(left, c, 1.0)
    fall = (1.0 - fnp.where(right, u, 0.5)) / (1.0 - fnp.where(right, d, 0.0))
    return left, right, u, rise, fall, 2.0 / (1.0 + d - c)


def _trapezoid_logpdf(z, c, d):
    inside = _unit(z)[0]
    left, right, _, rise, fall, h = _trapezoid_pieces(z, c, d)
    return _support(inside, fnp.log(h * fnp.where(left, rise, fnp.where(right, fall, 1.0))))


def _trapezoid_cdf(z, c, d):
    left, right, u, rise, fall, h = _trapezoid_pieces(z, c, d)
    return fnp.where(left, 0.5 * h * c * rise * rise, fnp.where(
        right, 1.0 - 0.5 * h * (1.0 - d) * fall * fall, h * (u - 0.5 * c)))


def _trapezoid_sf(z, c, d):
    left, right, u, rise, fall, h = _trapezoid_pieces(z, c, d)
    return fnp.where(left, 1.0 - 0.5 * h * c * rise * rise, fnp.where(
        right, 0.5 * h * (1.0 - d) * fall * fall, 1.0 - h * (u - 0.5 * c)))


def _trapezoid_ppf(q, c, d):
    h = 2.0 / (1.0 + d - c)
    left, right = fnp.less(q, 0.5 * h * c), fnp.greater(q, 1.0 - 0.5 * h * (1.0 - d))
    ql, qr = fnp.where(left, q, 0.0), fnp.where(right, q, 1.0)
    return fnp.where(left, fnp.sqrt(2.0 * ql * c / h + fnp.where(left, 0.0, 1.0)), fnp.where(
        right, 1.0 - fnp.sqrt(2.0 * (1.0 - qr) * (1.0 - d) / h + fnp.where(right, 0.0, 1.0)),
        q / h + 0.5 * c))


def _trapezoid_moment(n):
    """``E[X**n] = 2 (1 + d + ... + d**(n+1) - c**(n+1)) / ((1 + d - c)(n + 1)(n + 2))``."""
    def f(c, d):
        powers = sum(d ** k for k in range(n + 2))
        return 2.0 * (powers - c ** (n + 1)) / ((1.0 + d - c) * (n + 1) * (n + 2))
    return f


trapezoid = rv_continuous(
    "trapezoid", shapes=("c", "d"),
    _valid=lambda c, d: _all(fnp.greater_equal(c, 0), fnp.less_equal(d, 1), fnp.less_equal(c, d)),
    _logpdf=_trapezoid_logpdf, _cdf=_trapezoid_cdf, _sf=_trapezoid_sf, _ppf=_trapezoid_ppf,
    _mean=_trapezoid_moment(1),
    _var=lambda c, d: _trapezoid_moment(2)(c, d) - _trapezoid_moment(1)(c, d) ** 2,
    _entropy=lambda c, d: 0.5 * (1.0 - d + c) / (1.0 + d - c) + fnp.log(0.5 * (1.0 + d - c)))


def _powerlaw_logpdf(z, a):
    inside, u = _within(z, 0.0, 1.0, 0.5)
    return _support(inside, fnp.log(a) + sp.xlogy(a - 1.0, u))


def _powerlaw_sf(z, a):
    inside = fnp.greater(z, 0)  # (log 0 at and below 0: its slope in a would be NaN)
    return fnp.where(inside, -fnp.expm1(a * fnp.log(fnp.clip(fnp.where(inside, z, 1.0), 0.0, 1.0))),
                     1.0)


powerlaw = rv_continuous(
    "powerlaw", shapes=("a",), _logpdf=_powerlaw_logpdf,
    _cdf=lambda z, a: fnp.clip(z, 0.0, 1.0) ** a, _sf=_powerlaw_sf,
    _ppf=lambda q, a: q ** (1.0 / a), _isf=lambda q, a: fnp.exp(fnp.log1p(-q) / a),
    _mean=lambda a: a / (a + 1.0), _var=lambda a: a / ((a + 2.0) * (a + 1.0) ** 2),
    _entropy=lambda a: 1.0 - 1.0 / a - fnp.log(a))


def _bradford_logpdf(z, c):
    inside, u = _unit(z)
    return _support(inside, fnp.log(c) - fnp.log(fnp.log1p(c)) - fnp.log1p(c * u))


def _bradford_moments(c):
    k = fnp.log1p(c)
    return (c - k) / (c * k), ((c + 2.0) * k - 2.0 * c) / (2.0 * c * k * k)


bradford = rv_continuous(
    "bradford", shapes=("c",), _logpdf=_bradford_logpdf,
    _cdf=lambda z, c: fnp.log1p(c * fnp.clip(z, 0.0, 1.0)) / fnp.log1p(c),
    _sf=lambda z, c: fnp.log((1.0 + c) / (1.0 + c * fnp.clip(z, 0.0, 1.0))) / fnp.log1p(c),
    _ppf=lambda q, c: fnp.expm1(q * fnp.log1p(c)) / c,
    _mean=lambda c: _bradford_moments(c)[0], _var=lambda c: _bradford_moments(c)[1],
    _entropy=lambda c: 0.5 * fnp.log1p(c) - fnp.log(c / fnp.log1p(c)))


def _arcsine_logpdf(z):
    inside, u = _unit(z)
    return _support(inside, -math.log(_PI) - 0.5 * (fnp.log(u) + fnp.log1p(-u)))


arcsine = rv_continuous(
    "arcsine", _logpdf=_arcsine_logpdf,
    _cdf=lambda z: (2.0 / _PI) * fnp.arcsin(fnp.sqrt(fnp.clip(z, 0.0, 1.0))),
    _sf=lambda z: (2.0 / _PI) * fnp.arcsin(fnp.sqrt(1.0 - fnp.clip(z, 0.0, 1.0))),
    _ppf=lambda q: fnp.sin((0.5 * _PI) * q) ** 2, _isf=lambda q: fnp.cos((0.5 * _PI) * q) ** 2,
    _mean=lambda: 0.5, _var=lambda: 0.125, _entropy=lambda: math.log(_PI / 4.0))


# --- symmetric about 0: anglit, cosine, semicircular, hypsecant, dweibull(c) ------------------

def _anglit_logpdf(z):
    inside, u = _within(z, -_PI / 4, _PI / 4, 0.0)
    return _support(inside, fnp.log(fnp.cos(2.0 * u)))


anglit = rv_continuous(
    "anglit", _logpdf=_anglit_logpdf,
    _cdf=lambda z: fnp.sin(fnp.clip(z, -_PI / 4, _PI / 4) + _PI / 4) ** 2,
    # (the mirror image, exactly 0 at the right end: cos(pi/2)**2 is 4e-33)
    _sf=lambda z: fnp.sin(_PI / 4 - fnp.clip(z, -_PI / 4, _PI / 4)) ** 2,
    _ppf=lambda q: fnp.arcsin(fnp.sqrt(q)) - _PI / 4,
    _isf=lambda q: fnp.arccos(fnp.sqrt(q)) - _PI / 4,
    _mean=lambda: 0.0, _var=lambda: _PI ** 2 / 16.0 - 0.5, _entropy=lambda: 1.0 - _LOG_2)


def _w_minus_sin(w):
    """``w - sin(w)`` for ``w`` in [0, pi], by its series below 1 (the difference would
    cancel: the cosine distribution's tails are ``(w - sin w) / (2 pi)``)."""
    small = fnp.less(w, 1.0)
    s = fnp.where(small, w, 0.0)
    series, term = 0.0, s * s * s / 6.0
    for k in range(1, 9):  # (the first term dropped is below 1e-17 w**3)
        series = series + term
        term = -term * s * s / ((2 * k + 2) * (2 * k + 3))
    big = fnp.where(small, 2.0, w)
    return fnp.where(small, series, big - fnp.sin(big))


def _cosine_cdf(z):
    u = fnp.clip(z, -_PI, _PI)
    left = fnp.less_equal(u, 0)
    return fnp.where(left, _w_minus_sin(_PI + fnp.where(left, u, 0.0)),
                     2 * _PI - _w_minus_sin(_PI - fnp.where(left, 0.0, u))) / (2 * _PI)


def _cosine_logpdf(z):
    inside, u = _within(z, -_PI, _PI, 0.0)
    return _support(inside, fnp.log1p(fnp.cos(u)) - math.log(2 * _PI))


cosine = rv_continuous(
    "cosine", _logpdf=_cosine_logpdf, _cdf=_cosine_cdf, _sf=lambda z: _cosine_cdf(-z),
    _mean=lambda: 0.0, _var=lambda: _PI ** 2 / 3.0 - 2.0,
    _entropy=lambda: math.log(4 * _PI) - 1.0)


def _semicircular_logpdf(z):
    inside, u = _within(z, -1.0, 1.0, 0.0)
    return _support(inside, math.log(2 / _PI) + 0.5 * (fnp.log1p(-u) + fnp.log1p(u)))


def _semicircular_cdf(z):
    # (at the ends the density is 0 but sqrt's and arcsin's slopes are inf: the ends and
    # beyond are constants, the formula sees a stand-in there)
    inside = fnp.less(fnp.abs(z), 1.0)
    u = fnp.where(inside, z, 0.0)
    return fnp.where(inside, 0.5 + (u * fnp.sqrt((1.0 - u) * (1.0 + u)) + fnp.arcsin(u)) / _PI,
                     fnp.where(fnp.greater(z, 0), 1.0, 0.0))


semicircular = rv_continuous(
    "semicircular", _logpdf=_semicircular_logpdf, _cdf=_semicircular_cdf,
    _sf=lambda z: _semicircular_cdf(-z), _mean=lambda: 0.0, _var=lambda: 0.25,
    _entropy=lambda: 0.64472988584940017414)


def _log_cosh(z):
    a = fnp.abs(z)
    return a + fnp.log1p(fnp.exp(-2.0 * a)) - _LOG_2


def _hypsecant_cdf(z):
    # (2/pi arctan(exp(z)), as 1 - 2/pi arctan(exp(-z)) above 0: exp(z) overflows first)
    left = fnp.less_equal(z, 0)
    return fnp.where(left, (2.0 / _PI) * fnp.arctan(fnp.exp(fnp.where(left, z, 0.0))),
                     1.0 - (2.0 / _PI) * fnp.arctan(fnp.exp(-fnp.where(left, 0.0, z))))


hypsecant = rv_continuous(
    "hypsecant", _logpdf=lambda z: -math.log(_PI) - _log_cosh(z), _cdf=_hypsecant_cdf,
    _sf=lambda z: _hypsecant_cdf(-z),
    _ppf=lambda q: fnp.log(fnp.tan((0.5 * _PI) * q)),
    _isf=lambda q: -fnp.log(fnp.tan((0.5 * _PI) * q)),
    _mean=lambda: 0.0, _var=lambda: _PI ** 2 / 4.0, _entropy=lambda: math.log(2 * _PI))


def _abs_power(z, c):
    """``|z|**c`` with the slope 0 at ``z = 0`` (the power rule's inf times 0 there)."""
    zero = fnp.equal(z, 0)
    return fnp.where(zero, 0.0, fnp.abs(fnp.where(zero, 1.0, z)) ** c)


def _dweibull_half(z, c):
    # (the mass beyond |z| on one side; |z|**c capped at 800, where it is 0 to the last
    # bit and the power would overflow to a NaN slope in c)
    return 0.5 * fnp.exp(-fnp.minimum(_abs_power(fnp.clip(z, -1e150, 1e150), c), 800.0))


def _dweibull_ppf(q, c):
    low = fnp.less_equal(q, 0.5)
    tail = 2.0 * fnp.where(low, q, 1.0 - q)
    return fnp.where(low, -1.0, 1.0) * fnp.power(-fnp.log(tail), 1.0 / c)


def _dweibull_logpdf(z, c):
    zero = fnp.equal(z, 0)
    # ((c - 1) log|z| at z = 0: -inf, 0 or inf by c, as constants: no slope from them)
    at_zero = fnp.where(fnp.greater(c, 1), -math.inf, fnp.where(fnp.less(c, 1), math.inf, 0.0))
    return (fnp.log(c) - _LOG_2 - _abs_power(z, c) + fnp.where(
        zero, at_zero, (c - 1.0) * fnp.log(fnp.abs(fnp.where(zero, 1.0, z)))))


dweibull = rv_continuous(
    "dweibull", shapes=("c",), _logpdf=_dweibull_logpdf,
    _cdf=lambda z, c: fnp.where(fnp.greater(z, 0), 1.0 - _dweibull_half(z, c),
                                _dweibull_half(z, c)),
    _sf=lambda z, c: fnp.where(fnp.greater(z, 0), _dweibull_half(z, c),
                               1.0 - _dweibull_half(z, c)),
    _ppf=_dweibull_ppf, _isf=lambda q, c: -_dweibull_ppf(q, c),
    _mean=lambda c: 0.0 * c, _var=lambda c: fnp.exp(sp.gammaln(1.0 + 2.0 / c)),
    _entropy=lambda c: _EULER * (1.0 - 1.0 / c) - fnp.log(c) + 1.0 + _LOG_2)

cosine._ppf, cosine._isf = numeric_quantiles(cosine, (-_PI, _PI))
semicircular._ppf, semicircular._isf = numeric_quantiles(semicircular, (-1.0, 1.0))


def document(module_globals, examples):
    """Each distribution's docstring: its SciPy name and parameters, and an example that
    differentiates its log-density at ``x`` (``examples``: name -> (shapes, x))."""
    for name, (shapes, x) in examples.items():
        d = module_globals[name]
        args = "".join(f"{s}, " for s in shapes)
        d.__doc__ = f"""SciPy's ``{name}`` distribution (parameters: {", ".join(
            d.shapes + ("loc", "scale"))}).

>>> import math, funcgrad as fg
>>> g = fg.grad(lambda s: {name}.logpdf({x}, {args}scale=s))(1.5)  # d/dscale
>>> math.isfinite(g)
True
"""


document(globals(), {
    "genextreme": ((0.2,), 0.5), "genpareto": ((0.3,), 0.5), "triang": ((0.6,), 0.5),
    "trapezoid": ((0.2, 0.7), 0.5), "dweibull": ((1.6,), 0.5), "powerlaw": ((1.7,), 0.5),
    "arcsine": ((), 0.5), "anglit": ((), 0.5), "bradford": ((1.3,), 0.5), "cosine": ((), 0.5),
    "semicircular": ((), 0.5), "hypsecant": ((), 0.5)})
