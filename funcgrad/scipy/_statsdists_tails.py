"""Continuous distributions of :mod:`funcgrad.scipy.stats` with a closed-form density,
distribution function and quantile, on a half-line or the whole line (re-exported
there): ``weibull_max``, ``truncexpon``, ``burr``, ``fisk``, ``burr12``, ``levy``,
``levy_l``, ``loguniform`` (and its other name ``reciprocal``), ``halflogistic``,
``gompertz``, ``exponweib``, ``exponpow``, ``kappa3``, ``alpha``, ``foldcauchy``,
``genlogistic``, ``moyal`` and ``crystalball`` (a normal core with a power-law left
tail; its moments and entropy not offered): declared as those of :mod:`._statsdists_closed`, whose
helpers they share.
"""
import math

from .. import numpy as fnp
from . import special as sp
from ._distn import _all, _positive, _support, rv_continuous
from ._moments import _above
from ._statsdists_closed import (_EULER, _LOG_2, _LOG_SQRT_2PI, _PI, _nonnegative, _within,
                                 document, mirror)
from ._statsdists_quantiles import numeric_quantiles

__all__ = ["weibull_max", "truncexpon", "burr", "fisk", "burr12", "levy", "levy_l", "loguniform",
           "reciprocal", "halflogistic", "gompertz", "exponweib", "exponpow", "kappa3",
           "alpha", "foldcauchy", "genlogistic", "moyal", "crystalball"]


# --- on [0, inf): weibull_max(c), truncexpon(b), burr(c, d), fisk(c), burr12(c, d), levy... ---

def _capped_power(u, c):
    """``u**c`` for ``u > 0``, capped at 800, past which ``exp(-u**c)`` is 0 (so the
    distribution functions are exactly 0 or 1 there, with the slope 0 and not NaN)."""
    return fnp.exp(fnp.minimum(c * fnp.log(u), math.log(800.0)))


def _weibull_min_logpdf(z, c):
    inside, u = _nonnegative(z)
    return _support(inside, fnp.log(c) + sp.xlogy(c - 1.0, u) - fnp.power(u, c))


def _weibull_min_logsf(z, c, capped=False):
    inside, u = _positive(z)
    return fnp.where(inside, -(_capped_power(u, c) if capped else fnp.power(u, c)), 0.0)


def _weibull_moments(c):
    m1 = fnp.exp(sp.gammaln(1.0 + 1.0 / c))
    return m1, fnp.exp(sp.gammaln(1.0 + 2.0 / c)) - m1 * m1


weibull_max = mirror("weibull_max", rv_continuous(
    "weibull_min", shapes=("c",), _logpdf=_weibull_min_logpdf,
    _cdf=lambda z, c: -fnp.expm1(_weibull_min_logsf(z, c, True)),
    _sf=lambda z, c: fnp.exp(_weibull_min_logsf(z, c, True)), _logsf=_weibull_min_logsf,
    _ppf=lambda q, c: fnp.power(-fnp.log1p(-q), 1.0 / c),
    _isf=lambda q, c: fnp.power(-fnp.log(q), 1.0 / c),
    _mean=lambda c: _weibull_moments(c)[0], _var=lambda c: _weibull_moments(c)[1],
    _entropy=lambda c: _EULER * (1.0 - 1.0 / c) - fnp.log(c) + 1.0))


def _truncexpon_logpdf(z, b):
    inside, u = _within(z, 0.0, b, 0.0)
    return _support(inside, -u - fnp.log(-fnp.expm1(-b)))


truncexpon = rv_continuous(
    "truncexpon", shapes=("b",), _logpdf=_truncexpon_logpdf,
    _cdf=lambda z, b: fnp.expm1(-fnp.clip(z, 0.0, b)) / fnp.expm1(-b),
    _sf=lambda z, b: (fnp.exp(-b) - fnp.exp(-fnp.clip(z, 0.0, b))) / fnp.expm1(-b),
    _ppf=lambda q, b: -fnp.log1p(q * fnp.expm1(-b)),
    _isf=lambda q, b: -fnp.log(fnp.exp(-b) - q * fnp.expm1(-b)),
    _mean=lambda b: 1.0 - b / fnp.expm1(b),
    _var=lambda b: 2.0 - (b * b + 2.0 * b) / fnp.expm1(b) - (1.0 - b / fnp.expm1(b)) ** 2,
    _entropy=lambda b: fnp.log(fnp.expm1(b)) + (1.0 + fnp.exp(b) * (b - 1.0)) / -fnp.expm1(b))


def _log1p_power(u, c):
    """``log1p(u**c)`` as ``logaddexp(0, c log u)``: no overflow of ``u**c`` (SciPy's
    burr12.logsf is -inf at 1e300, the value is -2070 for c = 2.5, d = 3)."""
    return fnp.logaddexp(0.0, c * fnp.log(u))


def _burr_logcdf(z, c, d):
    inside, u = _positive(z)
    return fnp.where(inside, -d * _log1p_power(u, -c), -math.inf)


def _burr_logpdf(z, c, d):
    inside, u = _positive(z)
    return _support(inside, fnp.log(c) + fnp.log(d) - (c + 1.0) * fnp.log(u)
                    - (d + 1.0) * _log1p_power(u, -c))


def _burr_moment(n):
    """``E[X**n] = d B(d + n/c, 1 - n/c)``, NaN for ``c <= n`` (SciPy's)."""
    def f(c, d):
        return _above(c, float(n), lambda s: d * fnp.exp(sp.betaln(d + n / s, 1.0 - n / s)),
                      math.nan)
    return f


burr = rv_continuous(
    "burr", shapes=("c", "d"), _logpdf=_burr_logpdf, _logcdf=_burr_logcdf,
    _cdf=lambda z, c, d: fnp.exp(_burr_logcdf(z, c, d)),
    _sf=lambda z, c, d: -fnp.expm1(_burr_logcdf(z, c, d)),
    _ppf=lambda q, c, d: fnp.expm1(-fnp.log(q) / d) ** (-1.0 / c),
    _isf=lambda q, c, d: fnp.expm1(-fnp.log1p(-q) / d) ** (-1.0 / c),
    _mean=_burr_moment(1), _var=lambda c, d: _burr_moment(2)(c, d) - _burr_moment(1)(c, d) ** 2)
fisk = rv_continuous(
    "fisk", shapes=("c",), **{k: (lambda fn: lambda *a: fn(*a, 1.0))(burr.__dict__[k]) for k in (
        "_logpdf", "_logcdf", "_cdf", "_sf", "_ppf", "_isf", "_mean", "_var")},
    _entropy=lambda c: 2.0 - fnp.log(c))


def _burr12_logsf(z, c, d):
    inside, u = _positive(z)
    return fnp.where(inside, -d * _log1p_power(u, c), 0.0)


def _burr12_logpdf(z, c, d):
    inside, u = _nonnegative(z)
    return _support(inside, fnp.log(c) + fnp.log(d) + sp.xlogy(c - 1.0, u)
                    - (d + 1.0) * fnp.log1p(u ** c))


def _burr12_moment(n):
    """``E[X**n] = d B(1 + n/c, d - n/c)``, NaN for ``c d <= n`` (SciPy's)."""
    def f(c, d):
        return _above(c * d, float(n), lambda cd: d * fnp.exp(sp.betaln(
            1.0 + n / c, (cd - n) / c)), math.nan)
    return f


burr12 = rv_continuous(
    "burr12", shapes=("c", "d"), _logpdf=_burr12_logpdf, _logsf=_burr12_logsf,
    _sf=lambda z, c, d: fnp.exp(_burr12_logsf(z, c, d)),
    _cdf=lambda z, c, d: -fnp.expm1(_burr12_logsf(z, c, d)),
    _ppf=lambda q, c, d: fnp.expm1(-fnp.log1p(-q) / d) ** (1.0 / c),
    _isf=lambda q, c, d: fnp.expm1(-fnp.log(q) / d) ** (1.0 / c),
    _mean=_burr12_moment(1),
    _var=lambda c, d: _burr12_moment(2)(c, d) - _burr12_moment(1)(c, d) ** 2)


def _levy_logpdf(z):
    inside, u = _positive(z)
    return _support(inside, -_LOG_SQRT_2PI - 1.5 * fnp.log(u) - 0.5 / u)


def _levy_tail(fn, below):
    def f(z):
        inside, u = _positive(z)
        return fnp.where(inside, fn(fnp.sqrt(0.5 / u)), below)
    return f


levy = rv_continuous(
    "levy", _logpdf=_levy_logpdf, _cdf=_levy_tail(sp.erfc, 0.0), _sf=_levy_tail(sp.erf, 1.0),
    _ppf=lambda q: 1.0 / sp.ndtri(0.5 * q) ** 2, _isf=lambda q: 0.5 / sp.erfinv(q) ** 2,
    _mean=lambda: math.inf, _var=lambda: math.inf,
    _entropy=lambda: (1.0 + 3.0 * _EULER + math.log(16 * _PI)) / 2.0)
levy_l = mirror("levy_l", levy)
levy_l._mean = lambda: math.inf  # (SciPy's, though the mean of -X diverges to -inf)


def _loguniform_logpdf(z, a, b):
    inside, u = _within(z, a, b, a)
    return _support(inside, -fnp.log(u) - fnp.log(fnp.log(b) - fnp.log(a)))


def _loguniform_cdf(z, a, b):
    return (fnp.log(fnp.clip(z, a, b)) - fnp.log(a)) / (fnp.log(b) - fnp.log(a))


def _loguniform_moments(a, b):
    span = fnp.log(b) - fnp.log(a)
    m1 = (b - a) / span
    return m1, 0.5 * (b * b - a * a) / span - m1 * m1


def _make_loguniform(name):
    return rv_continuous(
        name, shapes=("a", "b"), _valid=lambda a, b: _all(fnp.greater(a, 0), fnp.greater(b, a)),
        _logpdf=_loguniform_logpdf, _cdf=_loguniform_cdf,
        _sf=lambda z, a, b: (fnp.log(b) - fnp.log(fnp.clip(z, a, b))) / (fnp.log(b) - fnp.log(a)),
        _ppf=lambda q, a, b: fnp.exp(fnp.log(a) + q * (fnp.log(b) - fnp.log(a))),
        _isf=lambda q, a, b: fnp.exp(fnp.log(b) - q * (fnp.log(b) - fnp.log(a))),
        _mean=lambda a, b: _loguniform_moments(a, b)[0],
        _var=lambda a, b: _loguniform_moments(a, b)[1],
        _entropy=lambda a, b: 0.5 * fnp.log(a * b) + fnp.log(fnp.log(b / a)))


loguniform, reciprocal = _make_loguniform("loguniform"), _make_loguniform("reciprocal")


def _halflogistic_logpdf(z):
    inside, u = _nonnegative(z)
    return _support(inside, _LOG_2 - u - 2.0 * fnp.log1p(fnp.exp(-u)))


halflogistic = rv_continuous(
    "halflogistic", _logpdf=_halflogistic_logpdf,
    _cdf=lambda z: fnp.tanh(0.5 * fnp.maximum(z, 0.0)),
    _sf=lambda z: 2.0 * sp.expit(-fnp.maximum(z, 0.0)),
    _ppf=lambda q: 2.0 * fnp.arctanh(q),
    # (q = 2 / (1 + exp(x)): x = log(2/q - 1), no 1 - q in it for a tiny q)
    _isf=lambda q: _LOG_2 - fnp.log(q) + fnp.log1p(-0.5 * q),
    _mean=lambda: 2.0 * _LOG_2, _var=lambda: _PI ** 2 / 3.0 - 4.0 * _LOG_2 ** 2,
    _entropy=lambda: 2.0 - _LOG_2)


def _exp_exp1(r):
    """``exp(r) E1(r)`` for ``r > 0``, by its asymptotic series beyond 200 (where
    ``exp(r)`` would overflow first; the first term dropped is below 1e-14 there)."""
    far = fnp.greater(r, 200.0)
    near, big = fnp.where(far, 1.0, r), fnp.where(far, r, 200.0)
    series, term = 0.0, 1.0 / big
    for k in range(1, 9):
        series = series + term
        term = -term * k / big
    return fnp.where(far, series, fnp.exp(near) * sp.exp1(near))


def _gompertz_logsf(z, c):
    # (past z = 700 the tail is 0 to the last bit: capped, so exp(z) cannot overflow to a
    # NaN slope of inf * 0)
    return -c * fnp.expm1(fnp.clip(z, 0.0, 700.0))


def _gompertz_logpdf(z, c):
    inside, u = _nonnegative(z)
    return _support(inside, fnp.log(c) + u - c * fnp.expm1(u))


gompertz = rv_continuous(
    "gompertz", shapes=("c",), _logpdf=_gompertz_logpdf, _logsf=_gompertz_logsf,
    _sf=lambda z, c: fnp.exp(_gompertz_logsf(z, c)),
    _cdf=lambda z, c: -fnp.expm1(_gompertz_logsf(z, c)),
    _ppf=lambda q, c: fnp.log1p(-fnp.log1p(-q) / c), _isf=lambda q, c: fnp.log1p(-fnp.log(q) / c),
    _mean=_exp_exp1, _entropy=lambda c: 1.0 - fnp.log(c) - _exp_exp1(c))


def _exponweib_logcdf(z, a, c):
    inside, u = _positive(z)
    return fnp.where(inside, a * fnp.log(-fnp.expm1(-_capped_power(u, c))), -math.inf)


def _exponweib_logpdf(z, a, c):
    inside, u = _positive(z)
    xc = u ** c
    return _support(inside, fnp.log(a) + fnp.log(c) + (a - 1.0) * fnp.log(-fnp.expm1(-xc))
                    - xc + (c - 1.0) * fnp.log(u))


exponweib = rv_continuous(
    "exponweib", shapes=("a", "c"), _logpdf=_exponweib_logpdf, _logcdf=_exponweib_logcdf,
    _cdf=lambda z, a, c: fnp.exp(_exponweib_logcdf(z, a, c)),
    _sf=lambda z, a, c: -fnp.expm1(_exponweib_logcdf(z, a, c)),
    _ppf=lambda q, a, c: (-fnp.log1p(-q ** (1.0 / a))) ** (1.0 / c),
    _isf=lambda q, a, c: (-fnp.log(-fnp.expm1(fnp.log1p(-q) / a))) ** (1.0 / c))


def _exponpow_logsf(z, b, cap=math.inf):
    # (cap: the cdf and sf cap x**b at 7, where exp(-expm1(x**b)) is 0 to the last bit)
    inside, u = _positive(z)
    return fnp.where(inside, -fnp.expm1(fnp.exp(fnp.minimum(b * fnp.log(u), cap))), 0.0)


def _exponpow_logpdf(z, b):
    inside, u = _positive(z)
    xb = u ** b
    return _support(inside, 1.0 + fnp.log(b) + (b - 1.0) * fnp.log(u) + xb - fnp.exp(xb))


exponpow = rv_continuous(
    "exponpow", shapes=("b",), _logpdf=_exponpow_logpdf, _logsf=_exponpow_logsf,
    _sf=lambda z, b: fnp.exp(_exponpow_logsf(z, b, math.log(7.0))),
    _cdf=lambda z, b: -fnp.expm1(_exponpow_logsf(z, b, math.log(7.0))),
    _ppf=lambda q, b: fnp.log1p(-fnp.log1p(-q)) ** (1.0 / b),
    _isf=lambda q, b: fnp.log1p(-fnp.log(q)) ** (1.0 / b))


def _kappa3_logpdf(z, a):
    inside, u = _nonnegative(z)
    return _support(inside, fnp.log(a) - (a + 1.0) / a * fnp.log(a + u ** a))


def _kappa3_cdf(z, a):
    # x (a + x**a)**(-1/a) = (1 + a x**-a)**(-1/a), in logs: x**a overflowed at 1e300
    # (SciPy's cdf is 0 there, not 1) and its slope was NaN
    inside, u = _positive(z)
    return fnp.where(inside, fnp.exp(-fnp.logaddexp(0.0, fnp.log(a) - a * fnp.log(u)) / a),
                     0.0)


kappa3 = rv_continuous(
    "kappa3", shapes=("a",), _logpdf=_kappa3_logpdf, _cdf=_kappa3_cdf,
    _sf=lambda z, a: 1.0 - _kappa3_cdf(z, a), _ppf=lambda q, a: (a / (q ** -a - 1.0)) ** (1.0 / a))


def _alpha_logpdf(z, a):
    inside, u = _positive(z)
    w = a - 1.0 / u
    return _support(inside, -2.0 * fnp.log(u) - 0.5 * w * w - _LOG_SQRT_2PI - sp.log_ndtr(a))


def _alpha_cdf(z, a):
    inside, u = _positive(z)
    return fnp.where(inside, sp.ndtr(a - 1.0 / u) / sp.ndtr(a), 0.0)


def _alpha_sf(z, a):
    # (the mass of (a - 1/x, a] of the normal: both tails' forms, no 1 - cdf)
    inside, u = _positive(z)
    return fnp.where(inside, (sp.ndtr(1.0 / u - a) - sp.ndtr(-a)) / sp.ndtr(a), 1.0)


alpha = rv_continuous(
    "alpha", shapes=("a",), _logpdf=_alpha_logpdf, _cdf=_alpha_cdf, _sf=_alpha_sf,
    _ppf=lambda q, a: 1.0 / (a - sp.ndtri(q * sp.ndtr(a))),
    _mean=lambda a: math.inf + 0.0 * a, _var=lambda a: math.inf + 0.0 * a)


def _foldcauchy_logpdf(z, c):
    inside, u = _nonnegative(z)
    return _support(inside, fnp.log(1.0 / (1.0 + (u - c) ** 2) + 1.0 / (1.0 + (u + c) ** 2))
                    - math.log(_PI))


def _foldcauchy_cdf(z, c):
    u = fnp.maximum(z, 0.0)
    return (fnp.arctan(u - c) + fnp.arctan(u + c)) / _PI


def _foldcauchy_sf(z, c):
    # (pi/2 - arctan(t) = arctan2(1, t), each term without the cancellation of 1 - cdf)
    u = fnp.maximum(z, 0.0)
    return (fnp.arctan2(1.0, u - c) + fnp.arctan2(1.0, u + c)) / _PI


foldcauchy = rv_continuous(
    "foldcauchy", shapes=("c",), _valid=lambda c: fnp.greater_equal(c, 0),
    _logpdf=_foldcauchy_logpdf, _cdf=_foldcauchy_cdf, _sf=_foldcauchy_sf,
    _mean=lambda c: math.inf + 0.0 * c, _var=lambda c: math.inf + 0.0 * c)
foldcauchy._ppf, foldcauchy._isf = numeric_quantiles(foldcauchy, "positive")


# --- on the whole line: genlogistic(c), moyal ------------------------------------------------

def _genlogistic_logpdf(z, c):
    # (log c - z - (c + 1) log(1 + exp(-z)), as log_expit: no overflow for z << 0)
    return fnp.log(c) - z + (c + 1.0) * sp.log_expit(z)


genlogistic = rv_continuous(
    "genlogistic", shapes=("c",), _logpdf=_genlogistic_logpdf,
    _logcdf=lambda z, c: c * sp.log_expit(z), _cdf=lambda z, c: fnp.exp(c * sp.log_expit(z)),
    _sf=lambda z, c: -fnp.expm1(c * sp.log_expit(z)),
    _ppf=lambda q, c: -fnp.log(fnp.expm1(-fnp.log(q) / c)),
    _isf=lambda q, c: -fnp.log(fnp.expm1(-fnp.log1p(-q) / c)),
    _mean=lambda c: _EULER + sp.digamma(c), _var=lambda c: _PI ** 2 / 6.0 + sp.polygamma(1, c),
    _entropy=lambda c: -fnp.log(c) + sp.digamma(c + 1.0) + _EULER + 1.0)
def _moyal_root(z):
    # (exp(-z/2) / sqrt 2, z capped at -1400: below, erfc of it is 0 to the last bit and
    # exp(-z/2) would overflow to a NaN slope)
    return fnp.exp(-0.5 * fnp.maximum(z, -1400.0)) * math.sqrt(0.5)


moyal = rv_continuous(
    "moyal", _logpdf=lambda z: -0.5 * (z + fnp.exp(-z)) - _LOG_SQRT_2PI,
    _cdf=lambda z: sp.erfc(_moyal_root(z)), _sf=lambda z: sp.erf(_moyal_root(z)),
    _ppf=lambda q: -fnp.log(2.0 * sp.erfcinv(q) ** 2),
    _isf=lambda q: -fnp.log(2.0 * sp.erfinv(q) ** 2),
    _mean=lambda: _EULER + _LOG_2, _var=lambda: _PI ** 2 / 2.0,
    _entropy=lambda: (1.0 + _EULER + math.log(4 * _PI)) / 2.0)



# --- crystalball(beta, m): a normal core for z > -beta, a power-law tail (B - z)**-m below ---

def _crystalball_parts(beta, m):
    """``(log N, C)``: the normalization and the tail's mass over ``N``,
    ``m / beta exp(-beta**2/2) / (m - 1)``."""
    tail_mass = m / beta * fnp.exp(-0.5 * beta * beta) / (m - 1.0)
    return -fnp.log(tail_mass + math.sqrt(2 * _PI) * sp.ndtr(beta)), tail_mass


def _crystalball_logpdf(z, beta, m):
    log_n, _ = _crystalball_parts(beta, m)
    core = fnp.greater(z, -beta)
    zc, zt = fnp.where(core, z, 0.0), fnp.where(core, -beta, z)
    tail = m * fnp.log(m / beta) - 0.5 * beta * beta - m * fnp.log(m / beta - beta - zt)
    return log_n + fnp.where(core, -0.5 * zc * zc, tail)


def _crystalball_cdf(z, beta, m):
    log_n, tail_mass = _crystalball_parts(beta, m)
    core = fnp.greater(z, -beta)
    zc, zt = fnp.where(core, z, 0.0), fnp.where(core, -beta, z)
    above = tail_mass + math.sqrt(2 * _PI) * (sp.ndtr(zc) - sp.ndtr(-beta))
    below = fnp.exp(m * fnp.log(m / beta) - 0.5 * beta * beta
                    + (1.0 - m) * fnp.log(m / beta - beta - zt)) / (m - 1.0)
    return fnp.exp(log_n) * fnp.where(core, above, below)


def _crystalball_sf(z, beta, m):
    # (in the core, the normal mass above z directly: 1 - cdf was 1e-16, not 0, far out)
    log_n, _ = _crystalball_parts(beta, m)
    core = fnp.greater(z, -beta)
    upper = fnp.exp(log_n) * math.sqrt(2 * _PI) * sp.ndtr(-fnp.where(core, z, 0.0))
    return fnp.where(core, upper, 1.0 - _crystalball_cdf(fnp.where(core, -beta, z), beta, m))


def _crystalball_ppf(q, beta, m):
    log_n, tail_mass = _crystalball_parts(beta, m)
    low = fnp.less(q, fnp.exp(log_n) * tail_mass)
    ql, qh = fnp.where(low, q, 0.5 * fnp.exp(log_n) * tail_mass), fnp.where(low, 0.5, q)
    below = m / beta - beta - fnp.exp((fnp.log((m - 1.0) * ql) - log_n - m * fnp.log(m / beta)
                                       + 0.5 * beta * beta) / (1.0 - m))
    above = sp.ndtri(sp.ndtr(-beta) + (qh * fnp.exp(-log_n) - tail_mass) / math.sqrt(2 * _PI))
    return fnp.where(low, below, above)


crystalball = rv_continuous(
    "crystalball", shapes=("beta", "m"),
    _valid=lambda beta, m: _all(fnp.greater(beta, 0), fnp.greater(m, 1)),
    _logpdf=_crystalball_logpdf, _cdf=_crystalball_cdf,
    _sf=_crystalball_sf, _ppf=_crystalball_ppf)


document(globals(), {
    "weibull_max": ((1.7,), -0.5), "truncexpon": ((2.5,), 0.5), "fisk": ((3.5,), 0.5),
    "burr": ((4.5, 1.5), 0.5), "burr12": ((2.5, 3.0), 0.5), "levy": ((), 0.5),
    "levy_l": ((), -0.5), "loguniform": ((0.1, 4.0), 0.5), "reciprocal": ((0.1, 4.0), 0.5),
    "halflogistic": ((), 0.5), "gompertz": ((0.8,), 0.5), "genlogistic": ((1.8,), 0.5),
    "exponweib": ((2.2, 1.3), 0.5), "exponpow": ((1.6,), 0.5), "moyal": ((), 0.5),
    "kappa3": ((1.4,), 0.5), "alpha": ((1.5,), 0.5), "foldcauchy": ((0.7,), 0.5),
    "crystalball": ((1.5, 2.5), 0.5)})
