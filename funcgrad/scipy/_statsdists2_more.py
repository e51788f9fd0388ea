"""More continuous distributions of :mod:`funcgrad.scipy.stats` (re-exported there):
``mielke`` (Burr type XII's relative, closed forms), ``kstwobign`` (the limit of the
scaled Kolmogorov-Smirnov statistic: ``kolmogorov`` and its theta series) ``argus``
(through ``gammainc(3/2, .)``, as SciPy's) and ``jf_skew_t`` (Jones and Faddy's skew t:
``betainc`` of ``(1 + x / sqrt(a + b + x**2)) / 2``, its quantiles ``betaincinv``'s).

Every method differentiates in ``x``/``q``, the shapes, ``loc`` and ``scale``.
``kstwobign``'s density is its CDF's derivative (the series differentiated: no other
closed form to keep in step), its ``ppf`` the CDF inverted numerically
(:mod:`._statsdists_quantiles`; SciPy's uses a private inverse), its ``isf``
``kolmogi``.  ``argus``' quantiles are numerical, as SciPy's.  Not offered (SciPy
integrates them numerically): the entropies of all four; ``kstwobign``'s mean and
variance are their closed forms ``sqrt(pi/2) log 2`` and ``pi**2/12 - pi/2 log(2)**2``
(SciPy's numerical integrals agree to 6e-12).
"""
import math

from .. import numpy as fnp
from . import special as sp
from ._distn import _positive, _support, rv_continuous
from ._statsdists_closed import document
from ._statsdists_quantiles import numeric_quantiles

__all__ = ["mielke", "kstwobign", "argus", "jf_skew_t"]

_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)


# --- mielke(k, s) ----------------------------------------------------------------------------------

def _mielke_log_cdf(z, k, s):
    inside, u = _positive(z)
    # (log1p(x**s) as logaddexp(0, s log x): no overflow far out)
    return inside, u, k * fnp.log(u) - (k / s) * fnp.logaddexp(0.0, s * fnp.log(u))


def _mielke_logpdf(z, k, s):
    inside, u, _ = _mielke_log_cdf(z, k, s)
    return _support(inside, fnp.log(k) + (k - 1.0) * fnp.log(u)
                    - (1.0 + k / s) * fnp.logaddexp(0.0, s * fnp.log(u)))


def _mielke_moment(n):
    def f(k, s):
        finite = fnp.greater(s, n)
        t = fnp.where(finite, s, 2.0 * n)
        value = fnp.exp(sp.gammaln((k + n) / t) + sp.gammaln(1.0 - n / t) - sp.gammaln(k / t))
        return fnp.where(finite, value, math.inf)
    return f


def _mielke_quantile(q, k, s):
    qsk = q ** (s / k)
    return (qsk / (1.0 - qsk)) ** (1.0 / s)


def _mielke_isf(q, k, s):
    # (the upper tail: with t = (s/k) log(1 - q), x**s = exp(t) / (1 - exp(t)), SciPy's
    # ppf(1 - q) without rounding 1 - q)
    t = (s / k) * fnp.log1p(-q)
    return (fnp.exp(t) / -fnp.expm1(t)) ** (1.0 / s)


mielke = rv_continuous(
    "mielke", shapes=("k", "s"), _logpdf=_mielke_logpdf,
    _logcdf=lambda z, k, s: fnp.where(*_mielke_log_cdf(z, k, s)[::2], -math.inf),
    _cdf=lambda z, k, s: fnp.where(_mielke_log_cdf(z, k, s)[0],
                                   fnp.exp(_mielke_log_cdf(z, k, s)[2]), 0.0),
    _sf=lambda z, k, s: fnp.where(_mielke_log_cdf(z, k, s)[0],
                                  -fnp.expm1(_mielke_log_cdf(z, k, s)[2]), 1.0),
    _ppf=_mielke_quantile,
    _isf=lambda q, k, s: _mielke_isf(q, k, s),
    _mean=_mielke_moment(1),
    _var=lambda k, s: fnp.where(fnp.greater(s, 2), _mielke_moment(2)(k, s)
                                - _mielke_moment(1)(k, s) ** 2, math.inf))


# --- kstwobign ------------------------------------------------------------------------------------

_THETA_BELOW = 0.6  # (the theta series' 5 terms, kolmogorov's split)


def _kstwobign_cdf(z):
    """``1 - kolmogorov(x)`` from ``x = 0.6``; below, the theta series ``sqrt(2 pi)/x
    sum exp(-(2k-1)**2 pi**2 / (8 x**2))``, which keeps a tiny CDF's digits."""
    inside, u = _positive(z)
    low = fnp.less(u, _THETA_BELOW)
    v = fnp.where(low, u, 0.5)
    theta = 0.0 * v
    for k in range(1, 6):
        theta = theta + fnp.exp(-((2 * k - 1) * math.pi) ** 2 / (8.0 * v * v))
    theta = math.sqrt(2 * math.pi) / v * theta
    upper = 1.0 - sp.kolmogorov(fnp.where(low, 1.0, u))
    return fnp.where(inside, fnp.where(low, theta, upper), 0.0)


def _kstwobign_logpdf(z):
    from ..forward_mode import _jvp
    z = fnp.asarray(z)
    density = _jvp(_kstwobign_cdf, (z,), (fnp.ones_like(z),), False, "jvp")[1]
    return fnp.log(density)


kstwobign = rv_continuous(
    "kstwobign", _logpdf=_kstwobign_logpdf, _cdf=_kstwobign_cdf,
    _sf=lambda z: fnp.where(fnp.greater(z, 0), sp.kolmogorov(fnp.maximum(z, 0.0)), 1.0),
    _isf=lambda q: sp.kolmogi(q),
    _mean=lambda: math.sqrt(math.pi / 2) * math.log(2.0),
    _var=lambda: math.pi ** 2 / 12 - math.pi / 2 * math.log(2.0) ** 2)
kstwobign._ppf = numeric_quantiles(kstwobign, "positive")[0]


# --- argus(chi) -------------------------------------------------------------------------------------

def _argus_psi(chi):
    """``Phi(chi) - chi phi(chi) - 1/2``, as ``gammainc(3/2, chi**2/2) / 2`` (SciPy's: no
    cancellation for a small ``chi``)."""
    return 0.5 * sp.gammainc(1.5, 0.5 * chi * chi)


def _argus_logpdf(z, chi):
    inside = fnp.logical_and(fnp.greater(z, 0), fnp.less(z, 1))
    u = fnp.where(inside, z, 0.5)
    y = 1.0 - u * u
    log_norm = 3.0 * fnp.log(chi) - _LOG_SQRT_2PI - fnp.log(_argus_psi(chi))
    return _support(inside, log_norm + fnp.log(u) + 0.5 * fnp.log1p(-u * u)
                    - 0.5 * chi * chi * y)


def _argus_sf(z, chi):
    inside = fnp.logical_and(fnp.greater(z, 0), fnp.less(z, 1))
    u = fnp.where(inside, z, 0.5)
    value = _argus_psi(chi * fnp.sqrt((1.0 - u) * (1.0 + u))) / _argus_psi(chi)
    return fnp.where(inside, value, fnp.where(fnp.less_equal(z, 0), 1.0, 0.0))


# (SciPy's polynomial of E X**2 below chi = 0.1, where 1 - 3/chi**2 + ... cancels)
_ARGUS_SMALL = [-358 / 65690625, 0, -94 / 1010625, 0, 2 / 2625, 0, 6 / 175, 0, 0.4]


def _argus_mean(chi):
    return (math.sqrt(math.pi / 8) * chi * sp.ive(1.0, 0.25 * chi * chi) / _argus_psi(chi))


def _argus_var(chi):
    big = fnp.greater(chi, 0.1)
    c = fnp.where(big, chi, 1.0)
    second = 1.0 - 3.0 / (c * c) + c * fnp.exp(-0.5 * c * c - _LOG_SQRT_2PI) / _argus_psi(c)
    small = 0.0 * chi
    for coefficient in _ARGUS_SMALL:
        small = small * chi + coefficient
    return fnp.where(big, second, small) - _argus_mean(chi) ** 2


argus = rv_continuous(
    "argus", shapes=("chi",), _logpdf=_argus_logpdf,
    _cdf=lambda z, chi: 1.0 - _argus_sf(z, chi), _sf=_argus_sf,
    _mean=_argus_mean, _var=_argus_var)
argus._ppf, argus._isf = numeric_quantiles(argus, (0.0, 1.0))


# --- jf_skew_t(a, b): Jones and Faddy's skew t, (1 + T / sqrt(a + b + T**2)) / 2 ~ beta(a, b) ---

def _jf_halves(z, a, b):
    """``(y, 1 - y)`` for ``y = (1 + x / r) / 2``, ``r = sqrt(a + b + x**2)``: the side
    that would cancel as ``(a + b) / (2 r (r -+ x))`` (``r**2 - x**2 = a + b``)."""
    r = fnp.sqrt(a + b + z * z)
    below, above = fnp.less(z, 0), fnp.greater(z, 0)
    # (double where: r + z cancels to 0 for z < -1e8 in the branch not taken, whose
    # 1/0 slope would make the derivative in a and b NaN there)
    zb, za = fnp.where(below, z, -1.0), fnp.where(above, z, 1.0)
    rb, ra = fnp.sqrt(a + b + zb * zb), fnp.sqrt(a + b + za * za)
    y = fnp.where(below, (a + b) / (2.0 * rb * (rb - zb)), 0.5 * (1.0 + z / r))
    yc = fnp.where(above, (a + b) / (2.0 * ra * (ra + za)), 0.5 * (1.0 - z / r))
    return y, yc


def _jf_logpdf(z, a, b):
    y, yc = _jf_halves(z, a, b)
    return ((a + 0.5) * fnp.log(2.0 * y) + (b + 0.5) * fnp.log(2.0 * yc)
            - (a + b - 1.0) * math.log(2.0) - sp.betaln(a, b) - 0.5 * fnp.log(a + b))


def _jf_from_beta(w, wc, a, b):
    return (w - wc) * fnp.sqrt(a + b) / (2.0 * fnp.sqrt(w * wc))


def _jf_ppf(q, a, b):
    w = sp.betaincinv(a, b, q)
    return _jf_from_beta(w, 1.0 - w, a, b)


def _jf_isf(q, a, b):
    wc = sp.betaincinv(b, a, q)  # (the upper tail's own quantile: no 1 - q)
    return _jf_from_beta(1.0 - wc, wc, a, b)


def _jf_moment(n):
    """SciPy's ``E T**n = (a + b)**(n/2) / (2**n B(a, b)) sum_i C(n, i) (-1)**i
    B(a + n/2 - i, b - n/2 + i)`` for ``a, b > n/2``, else NaN."""
    def f(a, b):
        valid = fnp.logical_and(fnp.greater(a, 0.5 * n), fnp.greater(b, 0.5 * n))
        aa, bb = fnp.where(valid, a, n + 1.0), fnp.where(valid, b, n + 1.0)
        total = 0.0 * aa
        for i in range(n + 1):
            total = total + (math.comb(n, i) * (-1) ** i
                             * fnp.exp(sp.betaln(aa + 0.5 * n - i, bb - 0.5 * n + i)
                                       - sp.betaln(aa, bb)))
        return fnp.where(valid, (aa + bb) ** (0.5 * n) / 2.0 ** n * total, math.nan)
    return f


jf_skew_t = rv_continuous(
    "jf_skew_t", shapes=("a", "b"), _logpdf=_jf_logpdf,
    _cdf=lambda z, a, b: sp.betainc(a, b, _jf_halves(z, a, b)[0]),
    _sf=lambda z, a, b: sp.betainc(b, a, _jf_halves(z, a, b)[1]),
    _ppf=_jf_ppf, _isf=_jf_isf, _mean=_jf_moment(1),
    _var=lambda a, b: _jf_moment(2)(a, b) - _jf_moment(1)(a, b) ** 2)


document(globals(), {"mielke": ((2.5, 3.5), 0.5), "kstwobign": ((), 0.5),
                     "argus": ((1.3,), 0.5), "jf_skew_t": ((2.5, 1.5), 0.5)})
