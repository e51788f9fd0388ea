"""More continuous distributions of :mod:`funcgrad.scipy.stats` (re-exported there):
``rel_breitwigner`` (SciPy's complex ``arctan`` form of its CDF), ``kappa4`` (Hosking's
four-parameter kappa, one smooth form through ``h = 0`` and ``k = 0``) and
``dpareto_lognorm`` (the double Pareto-lognormal, through Mills' ratios in logs).

Every method differentiates in ``x``/``q``, the shapes, ``loc`` and ``scale``.
``kappa4``'s functions are written with ``log1p(u)/u`` and ``exprel`` (SciPy switches
between four formulas at ``h = 0``, ``k = 0``): the same values, and slopes in ``h`` and
``k`` that are right at 0 too.  The quantiles of ``rel_breitwigner`` and
``dpareto_lognorm`` invert their CDFs numerically (:mod:`._statsdists_quantiles`, as
SciPy's).  ``rel_breitwigner``'s and ``dpareto_lognorm``'s mean and variance are SciPy's
closed forms (``inf``/NaN where they diverge, as SciPy's).  The entropies of all three
are ``-integral f log f`` by the generic rule of :mod:`._distn_entropy` (SciPy integrates
them numerically too), differentiable in the shapes and ``scale``.  Not offered
(NotImplementedError; SciPy integrates them numerically): ``kappa4``'s mean and variance.
"""
import math

from .. import numpy as fnp
from . import special as sp
from ._distn import _positive, _support, rv_continuous
from ._statsdists_closed import _log1p_ratio, document
from ._statsdists_quantiles import numeric_quantiles

__all__ = ["rel_breitwigner", "kappa4", "dpareto_lognorm"]

_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)


# --- rel_breitwigner(rho): the relativistic Breit-Wigner distribution ------------------------------

def _rel_breitwigner_logpdf(z, rho):
    inside = fnp.greater_equal(z, 0)
    root = fnp.sqrt(1.0 + 1.0 / (rho * rho))
    log_c = 0.5 * fnp.log(2.0 * root * root / (1.0 + root)) + math.log(2 / math.pi)
    return _support(inside, log_c - fnp.log1p(((z - rho) * (z + rho) / rho) ** 2))


def _rel_breitwigner_cdf(z, rho):
    """SciPy's ``2 C Im(sqrt(-1 + i/rho) arctan(x / sqrt(-rho (rho + i))))``."""
    inside, u = _positive(z)
    c = fnp.sqrt(2.0 / (1.0 + fnp.sqrt(1.0 + 1.0 / (rho * rho)))) / math.pi
    w = fnp.sqrt(-1.0 + 1j / rho) * fnp.arctan(u / fnp.sqrt(-rho * (rho + 1j)))
    return fnp.where(inside, fnp.minimum(2.0 * c * fnp.imag(w), 1.0), 0.0)


def _rel_breitwigner_mean(rho):
    root = fnp.sqrt(1.0 + 1.0 / (rho * rho))
    return fnp.sqrt(2.0 * root * root / (1.0 + root)) / math.pi * rho * (
        0.5 * math.pi + fnp.arctan(rho))


def _rel_breitwigner_var(rho):
    root = fnp.sqrt(1.0 + 1.0 / (rho * rho))
    c = fnp.sqrt(root * root / (2.0 * (1.0 + root))) * rho
    second = 2.0 * c * fnp.real((1.0 - 1j * rho) / fnp.sqrt(-1.0 - 1j / rho))
    return second - _rel_breitwigner_mean(rho) ** 2


rel_breitwigner = rv_continuous(
    "rel_breitwigner", shapes=("rho",), _logpdf=_rel_breitwigner_logpdf,
    _cdf=_rel_breitwigner_cdf, _sf=lambda z, rho: 1.0 - _rel_breitwigner_cdf(z, rho),
    _mean=_rel_breitwigner_mean, _var=_rel_breitwigner_var)
rel_breitwigner._ppf, rel_breitwigner._isf = numeric_quantiles(rel_breitwigner, "positive")


# --- kappa4(h, k) -----------------------------------------------------------------------------------

def _kappa4_parts(z, h, k):
    """``(inside, log y, log cdf, log(1 - k x), log(1 - h y))`` with ``y = (1 - k x)**(1/k)``
    and ``log cdf = log(1 - h y) / h``, each ``log1p(u)/u`` smooth through ``h, k = 0``;
    stand-ins outside the support (where ``1 - k x <= 0`` or ``1 - h y <= 0``)."""
    u1 = -k * z
    ok1 = fnp.greater(u1, -1.0)
    zs, u1 = fnp.where(ok1, z, 0.0), fnp.where(ok1, u1, 0.0)
    log_y = -zs * _log1p_ratio(u1)
    y = fnp.exp(log_y)
    u2 = -h * y
    ok2 = fnp.greater(u2, -1.0)
    y, u2 = fnp.where(ok2, y, 0.0), fnp.where(ok2, u2, 0.0)
    inside = fnp.logical_and(ok1, ok2)
    return inside, ok1, log_y, -y * _log1p_ratio(u2), fnp.log1p(u1), fnp.log1p(u2)


def _kappa4_logpdf(z, h, k):
    inside, _, log_y, log_cdf, log_t1, log_t2 = _kappa4_parts(z, h, k)
    return _support(inside, log_y + log_cdf - log_t1 - log_t2)


def _kappa4_logcdf(z, h, k):
    inside, ok1, _, log_cdf, _, _ = _kappa4_parts(z, h, k)
    # outside: past 1/k (k > 0) the CDF is 1; before the lower end 0
    outside = fnp.where(fnp.logical_and(fnp.logical_not(ok1), fnp.greater(k, 0)), 0.0,
                        -math.inf)
    return fnp.where(inside, log_cdf, outside)


def _log1mexp(v):
    """``log(1 - exp(v))`` for ``v <= 0``, accurate at both ends."""
    near = fnp.greater(v, -math.log(2.0))
    return fnp.where(near, fnp.log(-fnp.expm1(fnp.where(near, v, -1.0))),
                     fnp.log1p(-fnp.exp(fnp.where(near, -1.0, v))))


def _kappa4_quantile(upper):
    """SciPy's ``(1 - ((1 - q**h)/h)**k)/k`` as ``-log w exprel(k log w)`` with ``w =
    (1 - q**h)/h = -log p exprel(h log p)`` (``p = q``, or ``1 - q`` as ``log1p(-q)``
    for ``isf``); the support's ends at ``q = 0, 1``."""
    def f(q, h, k):
        interior = fnp.logical_and(fnp.greater(q, 0), fnp.less(q, 1))
        qs = fnp.where(interior, q, 0.5)
        lq = fnp.log1p(-qs) if upper else fnp.log(qs)
        log_w = fnp.log(-lq * sp.exprel(h * lq))
        x = -log_w * sp.exprel(k * log_w)
        positive_h, negative_k = fnp.greater(h, 0), fnp.less(k, 0)
        hs = fnp.where(positive_h, h, 1.0)
        lower = fnp.where(positive_h, fnp.log(hs) * sp.exprel(-k * fnp.log(hs)),
                          fnp.where(negative_k, 1.0 / fnp.where(negative_k, k, -1.0),
                                    -math.inf))
        top = fnp.where(fnp.greater(k, 0), 1.0 / fnp.where(fnp.greater(k, 0), k, 1.0),
                        math.inf)
        at_one = fnp.equal(q, 0.0) if upper else fnp.equal(q, 1.0)
        return fnp.where(interior, x, fnp.where(at_one, top, lower))
    return f


kappa4 = rv_continuous(
    "kappa4", shapes=("h", "k"), _valid=lambda h, k: True,
    _logpdf=_kappa4_logpdf, _logcdf=_kappa4_logcdf,
    _cdf=lambda z, h, k: fnp.exp(_kappa4_logcdf(z, h, k)),
    _sf=lambda z, h, k: -fnp.expm1(_kappa4_logcdf(z, h, k)),
    _logsf=lambda z, h, k: _log1mexp(_kappa4_logcdf(z, h, k)),
    _ppf=_kappa4_quantile(False), _isf=_kappa4_quantile(True))


# --- dpareto_lognorm(u, s, a, b): exp(N(u, s**2) + E1/a - E2/b) ------------------------------------

def _log_phi(t):
    return -0.5 * t * t - _LOG_SQRT_2PI


def _log_mills(t):
    """``log(ndtr(-t) / phi(t))``, Mills' ratio in logs (no overflow either way)."""
    return sp.log_ndtr(-t) - _log_phi(t)


def _dpareto_parts(z, u, s, a, b):
    inside, y = _positive(z)
    log_y = fnp.log(y)
    w = (log_y - u) / s
    return inside, log_y, w, a * s - w, b * s + w


def _dpareto_logpdf(z, u, s, a, b):
    inside, log_y, w, x1, x2 = _dpareto_parts(z, u, s, a, b)
    return _support(inside, fnp.log(a) + fnp.log(b) - fnp.log(a + b) - log_y + _log_phi(w)
                    + fnp.logaddexp(_log_mills(x1), _log_mills(x2)))


def _dpareto_logcdf(z, u, s, a, b):
    """``log(ndtr(w) - phi(w) (b R(x1) - a R(x2)) / (a + b))`` (SciPy's Eq. 2), the
    difference in logs on whichever side it does not cancel."""
    inside, log_y, w, x1, x2 = _dpareto_parts(z, u, s, a, b)
    t3, t4 = fnp.log(b) + _log_mills(x1), fnp.log(a) + _log_mills(x2)
    top = fnp.maximum(t3, t4)
    d = fnp.exp(t3 - top) - fnp.exp(t4 - top)  # (b R1 - a R2) / exp(top)
    log_term = _log_phi(w) + top - fnp.log(a + b) + fnp.log(fnp.abs(d))
    log_ndtr = sp.log_ndtr(w)
    negative = fnp.less_equal(d, 0)  # (then the CDF is a sum)
    added = fnp.logaddexp(log_ndtr, log_term)
    ratio = fnp.where(negative, -1.0, log_term - log_ndtr)
    taken = log_ndtr + fnp.log(-fnp.expm1(ratio))
    return fnp.where(inside, fnp.where(negative, added, taken), -math.inf)


def _dpareto_moment(n):
    """SciPy's ``E X**n = a b / ((a - n)(b + n)) exp(n u + n**2 s**2 / 2)``, NaN for
    ``a <= n``."""
    def f(u, s, a, b):
        finite = fnp.greater(a, n)
        aa = fnp.where(finite, a, n + 1.0)
        value = aa * b / ((aa - n) * (b + n)) * fnp.exp(n * u + 0.5 * n * n * s * s)
        return fnp.where(finite, value, math.nan)
    return f


dpareto_lognorm = rv_continuous(
    "dpareto_lognorm", shapes=("u", "s", "a", "b"),
    _valid=lambda u, s, a, b: fnp.logical_and(
        fnp.logical_and(fnp.greater(s, 0), fnp.greater(a, 0)), fnp.greater(b, 0)),
    _logpdf=_dpareto_logpdf, _logcdf=_dpareto_logcdf,
    _cdf=lambda z, *p: fnp.exp(_dpareto_logcdf(z, *p)),
    _sf=lambda z, *p: -fnp.expm1(_dpareto_logcdf(z, *p)),
    _logsf=lambda z, *p: _log1mexp(_dpareto_logcdf(z, *p)),
    _mean=_dpareto_moment(1),
    _var=lambda *p: _dpareto_moment(2)(*p) - _dpareto_moment(1)(*p) ** 2)
dpareto_lognorm._ppf, dpareto_lognorm._isf = numeric_quantiles(dpareto_lognorm, "positive")


document(globals(), {"rel_breitwigner": ((0.8,), 0.5), "kappa4": ((0.3, 0.2), 0.5),
                     "dpareto_lognorm": ((0.2, 0.6, 2.5, 1.5), 0.5)})
