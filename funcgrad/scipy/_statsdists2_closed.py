"""More continuous distributions of :mod:`funcgrad.scipy.stats` with closed forms
(re-exported there): ``dgamma``, ``invweibull``, ``johnsonsb``, ``johnsonsu``,
``fatiguelife``, ``gibrat``, ``loglaplace``, ``laplace_asymmetric``, ``powernorm``,
``powerlognorm``, ``genexpon`` and ``genhalflogistic``.

Each is one :class:`._distn.rv_continuous` declaration with SciPy's formulas (its
``_cdf``, ``_sf``, ``_ppf``, ``_isf`` where SciPy has them, so the values agree to
rounding), written with funcgrad's special functions: every method differentiates in
``x``/``q``, the shape parameters, ``loc`` and ``scale`` (``dgamma``'s quantiles in
``a`` through ``gammaincinv``'s rule, ``genexpon``'s through ``lambertw``'s).  The means,
variances and entropies that SciPy integrates numerically are not offered
(NotImplementedError): ``johnsonsb``'s three, the entropies of ``johnsonsu``,
``fatiguelife``, ``powernorm``, ``powerlognorm``, ``genexpon``, and the moments of
``powernorm``, ``powerlognorm``, ``genexpon``, ``genhalflogistic``.  ``invweibull``'s mean
and variance are ``inf`` where they diverge (``c <= 1``, ``c <= 2``), where SciPy's
``gamma(1 - n/c)`` gives a finite, negative number.
"""
import math

from .. import numpy as fnp
from ..primitives.structural import stop_gradient
from . import special as sp
from ._distn import _positive, _support, rv_continuous
from ._statsdists_closed import document

__all__ = ["dgamma", "invweibull", "johnsonsb", "johnsonsu", "fatiguelife", "gibrat",
           "loglaplace", "laplace_asymmetric", "powernorm", "powerlognorm", "genexpon",
           "genhalflogistic"]

_LOG_2 = math.log(2.0)
_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)
_EULER = 0.5772156649015329


def _log_phi(z):
    return -0.5 * z * z - _LOG_SQRT_2PI


# --- dgamma(a): the gamma distribution mirrored about 0 ------------------------------------------

def _dgamma_cdf(z, a):
    right = fnp.greater(z, 0)
    return fnp.where(right, 0.5 + 0.5 * sp.gammainc(a, fnp.abs(z)),
                     0.5 * sp.gammaincc(a, fnp.abs(z)))


def _dgamma_ppf(q, a):
    upper, middle = fnp.greater(q, 0.5), fnp.equal(q, 0.5)
    # (each branch sees a probability of its own: the double-where idiom)
    away = fnp.where(upper, sp.gammaincinv(a, 2.0 * fnp.where(upper, q, 0.75) - 1.0),
                     -sp.gammainccinv(a, 2.0 * fnp.where(upper, 0.25, fnp.where(
                         middle, 0.25, q))))
    # the median is 0 for every a: no slope in a there (gammainccinv's rule would divide
    # by the density at 0, which is 0 or inf); the slope in q is the rule's, 1/pdf(0)
    centre = -sp.gammainccinv(stop_gradient(a), 2.0 * fnp.where(middle, q, 0.5))
    return fnp.where(middle, centre, away)


def _dgamma_logpdf(z, a):
    # at z = 0 the density is 0 for every a > 1: -inf with no slope in a, as outside a
    # support (xlogy's slope in a there, log 0, would make the pdf's 0 * -inf)
    size = fnp.abs(z)
    vanishing = fnp.logical_and(fnp.equal(size, 0), fnp.greater(a, 1))
    safe = fnp.where(vanishing, 1.0, size)
    return _support(fnp.logical_not(vanishing),
                    sp.xlogy(a - 1.0, safe) - safe - _LOG_2 - sp.gammaln(a))


dgamma = rv_continuous(
    "dgamma", shapes=("a",),
    _logpdf=_dgamma_logpdf,
    _cdf=_dgamma_cdf, _sf=lambda z, a: _dgamma_cdf(-z, a),
    _ppf=_dgamma_ppf, _isf=lambda q, a: -_dgamma_ppf(q, a),
    _mean=lambda a: 0.0 * a, _var=lambda a: a * (a + 1.0),
    _entropy=lambda a: a + sp.gammaln(a) + (1.0 - a) * sp.digamma(a) + _LOG_2)


# --- invweibull(c): 1/X for X ~ weibull_min(c) ----------------------------------------------------

def _inverse_power(z, c):
    """``(z > 0, z**-c)`` with ``z**-c`` capped at ``exp(700)`` (the CDF ``exp(-z**-c)`` is
    0 to the last bit there: the cap keeps its slope 0, not ``0 * inf``)."""
    inside, u = _positive(z)
    return inside, fnp.exp(fnp.minimum(-c * fnp.log(u), 700.0))


def _invweibull_logpdf(z, c):
    inside, u = _positive(z)
    power = _inverse_power(z, c)[1]
    return _support(inside, fnp.log(c) - (c + 1.0) * fnp.log(u) - power)


def _invweibull_moment(n):
    def f(c):
        finite = fnp.greater(c, n)
        return fnp.where(finite, sp.gamma(1.0 - n / fnp.where(finite, c, 2.0 * n)), math.inf)
    return f


invweibull = rv_continuous(
    "invweibull", shapes=("c",), _logpdf=_invweibull_logpdf,
    _cdf=lambda z, c: fnp.where(_inverse_power(z, c)[0], fnp.exp(-_inverse_power(z, c)[1]),
                                0.0),
    _sf=lambda z, c: fnp.where(_inverse_power(z, c)[0], -fnp.expm1(-_inverse_power(z, c)[1]),
                               1.0),
    _ppf=lambda q, c: (-fnp.log(q)) ** (-1.0 / c),
    _isf=lambda q, c: (-fnp.log1p(-q)) ** (-1.0 / c),
    _mean=_invweibull_moment(1),
    _var=lambda c: fnp.where(fnp.greater(c, 2), _invweibull_moment(2)(c)
                             - _invweibull_moment(1)(c) ** 2, math.inf),
    _entropy=lambda c: 1.0 + _EULER + _EULER / c - fnp.log(c))


# --- johnsonsb(a, b), johnsonsu(a, b): normal after logit / asinh --------------------------------

def _johnson_valid(a, b):
    return fnp.logical_and(fnp.greater(b, 0), fnp.isfinite(a))


def _johnsonsb_logpdf(z, a, b):
    inside = fnp.logical_and(fnp.greater(z, 0), fnp.less(z, 1))
    u = fnp.where(inside, z, 0.5)
    return _support(inside, fnp.log(b) - fnp.log(u * (1.0 - u)) + _log_phi(a + b * sp.logit(u)))


def _johnsonsb_tail(upper):
    def f(z, a, b):
        inside = fnp.logical_and(fnp.greater(z, 0), fnp.less(z, 1))
        w = a + b * sp.logit(fnp.where(inside, z, 0.5))
        past = fnp.greater_equal(z, 1)  # (outside: 0 below the support, 1 above; sf 1 - that)
        if upper:
            return fnp.where(inside, sp.ndtr(-w), fnp.where(past, 0.0, 1.0))
        return fnp.where(inside, sp.ndtr(w), fnp.where(past, 1.0, 0.0))
    return f


johnsonsb = rv_continuous(
    "johnsonsb", shapes=("a", "b"), _valid=_johnson_valid, _logpdf=_johnsonsb_logpdf,
    _cdf=_johnsonsb_tail(False), _sf=_johnsonsb_tail(True),
    _ppf=lambda q, a, b: sp.expit((sp.ndtri(q) - a) / b),
    _isf=lambda q, a, b: sp.expit((-sp.ndtri(q) - a) / b))

johnsonsu = rv_continuous(
    "johnsonsu", shapes=("a", "b"), _valid=_johnson_valid,
    _logpdf=lambda z, a, b: (fnp.log(b) - 0.5 * fnp.log1p(z * z)
                             + _log_phi(a + b * fnp.arcsinh(z))),
    _cdf=lambda z, a, b: sp.ndtr(a + b * fnp.arcsinh(z)),
    _sf=lambda z, a, b: sp.ndtr(-(a + b * fnp.arcsinh(z))),
    _ppf=lambda q, a, b: fnp.sinh((sp.ndtri(q) - a) / b),
    _isf=lambda q, a, b: fnp.sinh((-sp.ndtri(q) - a) / b),
    _mean=lambda a, b: -fnp.exp(0.5 / (b * b)) * fnp.sinh(a / b),
    _var=lambda a, b: (0.5 * fnp.expm1(1.0 / (b * b))
                       * (fnp.exp(1.0 / (b * b)) * fnp.cosh(2.0 * a / b) + 1.0)))


# --- fatiguelife(c) (Birnbaum-Saunders), gibrat ---------------------------------------------------

def _fatiguelife_logpdf(z, c):
    inside, u = _positive(z)
    return _support(inside, fnp.log1p(u) - (u - 1.0) ** 2 / (2.0 * u * c * c)
                    - fnp.log(2.0 * c) - _LOG_SQRT_2PI - 1.5 * fnp.log(u))


def _fatiguelife_tail(upper):
    def f(z, c):
        inside, u = _positive(z)
        w = (fnp.sqrt(u) - 1.0 / fnp.sqrt(u)) / c
        return fnp.where(inside, sp.ndtr(-w) if upper else sp.ndtr(w), 1.0 if upper else 0.0)
    return f


def _fatiguelife_quantile(sign):
    def f(q, c):
        t = sign * c * sp.ndtri(q)
        return 0.25 * (t + fnp.sqrt(t * t + 4.0)) ** 2
    return f


fatiguelife = rv_continuous(
    "fatiguelife", shapes=("c",), _logpdf=_fatiguelife_logpdf,
    _cdf=_fatiguelife_tail(False), _sf=_fatiguelife_tail(True),
    _ppf=_fatiguelife_quantile(1.0), _isf=_fatiguelife_quantile(-1.0),
    _mean=lambda c: 0.5 * c * c + 1.0, _var=lambda c: c * c * (1.25 * c * c + 1.0))


def _gibrat_logpdf(z):
    inside, u = _positive(z)
    return _support(inside, -fnp.log(u) + _log_phi(fnp.log(u)))


def _gibrat_tail(upper):
    def f(z):
        inside, u = _positive(z)
        w = fnp.log(u)
        return fnp.where(inside, sp.ndtr(-w) if upper else sp.ndtr(w), 1.0 if upper else 0.0)
    return f


gibrat = rv_continuous(
    "gibrat", _logpdf=_gibrat_logpdf, _cdf=_gibrat_tail(False), _sf=_gibrat_tail(True),
    _ppf=lambda q: fnp.exp(sp.ndtri(q)), _isf=lambda q: fnp.exp(-sp.ndtri(q)),
    _mean=lambda: math.sqrt(math.e), _var=lambda: math.e * (math.e - 1.0),
    _entropy=lambda: 0.5 + 0.5 * math.log(2 * math.pi))


# --- loglaplace(c): exp(X) for X Laplace with scale 1/c; laplace_asymmetric(kappa) -----------------

def _loglaplace_logpdf(z, c):
    inside, u = _positive(z)
    below = fnp.less(u, 1)
    return _support(inside, fnp.log(0.5 * c) + fnp.where(below, c - 1.0, -c - 1.0) * fnp.log(u))


def _loglaplace_tail(upper):
    def f(z, c):
        inside, u = _positive(z)
        below = fnp.less(u, 1)
        half = 0.5 * fnp.exp(fnp.where(below, c, -c) * fnp.log(u))  # (the nearer tail)
        value = fnp.where(below, 1.0 - half, half) if upper else fnp.where(below, half,
                                                                           1.0 - half)
        return fnp.where(inside, value, 1.0 if upper else 0.0)
    return f


def _loglaplace_moment(n):
    def f(c):
        finite = fnp.greater(c, n)
        s = fnp.where(finite, c, 2.0 * n)
        return fnp.where(finite, s * s / (s * s - n * n), math.inf)
    return f


loglaplace = rv_continuous(
    "loglaplace", shapes=("c",), _logpdf=_loglaplace_logpdf,
    _cdf=_loglaplace_tail(False), _sf=_loglaplace_tail(True),
    _ppf=lambda q, c: fnp.where(fnp.less(q, 0.5), (2.0 * q) ** (1.0 / c),
                                (2.0 * (1.0 - q)) ** (-1.0 / c)),
    _isf=lambda q, c: fnp.where(fnp.greater(q, 0.5), (2.0 * (1.0 - q)) ** (1.0 / c),
                                (2.0 * q) ** (-1.0 / c)),
    _mean=_loglaplace_moment(1),
    _var=lambda c: fnp.where(fnp.greater(c, 2), _loglaplace_moment(2)(c)
                             - _loglaplace_moment(1)(c) ** 2, math.inf),
    _entropy=lambda c: fnp.log(2.0 / c) + 1.0)


def _asymmetric_tail(upper):
    """SciPy's: the tail on the far side of 0 is ``exp(-|x| rate) share``."""
    def f(z, k):
        right = fnp.greater_equal(z, 0)
        whole = k + 1.0 / k
        # (each exponent is not positive on its own side: the double-where idiom)
        far_right = fnp.exp(-fnp.where(right, z, 0.0) * k) * ((1.0 / k) / whole)
        far_left = fnp.exp(fnp.where(right, 0.0, z) / k) * (k / whole)
        if upper:
            return fnp.where(right, far_right, 1.0 - far_left)
        return fnp.where(right, 1.0 - far_right, far_left)
    return f


def _asymmetric_ppf(q, k):
    whole = k + 1.0 / k
    upper = fnp.greater_equal(q, k / whole)
    return fnp.where(upper, -fnp.log((1.0 - fnp.where(upper, q, 0.0)) * whole * k) / k,
                     fnp.log(fnp.where(upper, 1.0, q) * whole / k) * k)


def _asymmetric_isf(q, k):
    whole = k + 1.0 / k
    lower = fnp.less_equal(q, (1.0 / k) / whole)
    return fnp.where(lower, -fnp.log(fnp.where(lower, q, 1.0) * whole * k) / k,
                     fnp.log((1.0 - fnp.where(lower, 0.0, q)) * whole / k) * k)


laplace_asymmetric = rv_continuous(
    "laplace_asymmetric", shapes=("kappa",),
    _logpdf=lambda z, k: z * fnp.where(fnp.greater_equal(z, 0), -k, 1.0 / k) - fnp.log(
        k + 1.0 / k),
    _cdf=_asymmetric_tail(False), _sf=_asymmetric_tail(True),
    _ppf=_asymmetric_ppf, _isf=_asymmetric_isf,
    _mean=lambda k: 1.0 / k - k, _var=lambda k: 1.0 / (k * k) + k * k,
    _entropy=lambda k: 1.0 + fnp.log(k + 1.0 / k))


# --- powernorm(c), powerlognorm(c, s): the minimum of c normals (log-normals) -------------------

powernorm = rv_continuous(
    "powernorm", shapes=("c",),
    _logpdf=lambda z, c: fnp.log(c) + _log_phi(z) + (c - 1.0) * sp.log_ndtr(-z),
    _logsf=lambda z, c: c * sp.log_ndtr(-z),
    _cdf=lambda z, c: -fnp.expm1(c * sp.log_ndtr(-z)),
    _sf=lambda z, c: fnp.exp(c * sp.log_ndtr(-z)),
    _ppf=lambda q, c: -sp.ndtri((1.0 - q) ** (1.0 / c)),
    _isf=lambda q, c: -sp.ndtri(fnp.exp(fnp.log(q) / c)))


def _powerlognorm_logpdf(z, c, s):
    inside, u = _positive(z)
    w = fnp.log(u) / s
    return _support(inside, fnp.log(c) - fnp.log(u) - fnp.log(s) + _log_phi(w)
                    + (c - 1.0) * sp.log_ndtr(-w))


def _powerlognorm_logsf(z, c, s):
    inside, u = _positive(z)
    return fnp.where(inside, c * sp.log_ndtr(-fnp.log(u) / s), 0.0)


powerlognorm = rv_continuous(
    "powerlognorm", shapes=("c", "s"), _logpdf=_powerlognorm_logpdf,
    _logsf=_powerlognorm_logsf,
    _cdf=lambda z, c, s: -fnp.expm1(_powerlognorm_logsf(z, c, s)),
    _sf=lambda z, c, s: fnp.exp(_powerlognorm_logsf(z, c, s)),
    _ppf=lambda q, c, s: fnp.exp(-sp.ndtri((1.0 - q) ** (1.0 / c)) * s),
    _isf=lambda q, c, s: fnp.exp(-sp.ndtri(q ** (1.0 / c)) * s))


# --- genexpon(a, b, c), genhalflogistic(c) ---------------------------------------------------------

def _genexpon_log_sf(z, a, b, c):
    inside, u = _positive(z)
    return inside, (-a - b) * u + b * (-fnp.expm1(-c * u)) / c


def _genexpon_logpdf(z, a, b, c):
    inside, log_sf = _genexpon_log_sf(z, a, b, c)
    u = fnp.where(inside, z, 1.0)
    return _support(inside, fnp.log(a + b * (-fnp.expm1(-c * u))) + log_sf)


def _genexpon_quantile(log_tail):
    def f(q, a, b, c):
        s = a + b
        t = (b - c * log_tail(q)) / s
        return (t + sp.lambertw(-b / s * fnp.exp(-t)).real) / c
    return f


genexpon = rv_continuous(
    "genexpon", shapes=("a", "b", "c"), _logpdf=_genexpon_logpdf,
    _logsf=lambda z, a, b, c: fnp.where(*_genexpon_log_sf(z, a, b, c), 0.0),
    _cdf=lambda z, a, b, c: -fnp.expm1(fnp.where(*_genexpon_log_sf(z, a, b, c), 0.0)),
    _sf=lambda z, a, b, c: fnp.exp(fnp.where(*_genexpon_log_sf(z, a, b, c), 0.0)),
    _ppf=_genexpon_quantile(lambda q: fnp.log1p(-q)), _isf=_genexpon_quantile(fnp.log))


def _genhalflogistic_power(z, c):
    """``(0 < z < 1/c, (1 - c z)**(1/c))`` (the power of a stand-in outside)."""
    inside = fnp.logical_and(fnp.greater(z, 0), fnp.less(z * c, 1))
    u = fnp.where(inside, z, 0.5 / c)
    return inside, u, fnp.exp(fnp.log1p(-c * u) / c)


def _genhalflogistic_logpdf(z, c):
    inside, u, t = _genhalflogistic_power(z, c)
    return _support(inside, _LOG_2 + (1.0 / c - 1.0) * fnp.log1p(-c * u)
                    - 2.0 * fnp.log1p(t))


def _genhalflogistic_tail(upper):
    def f(z, c):
        inside, _, t = _genhalflogistic_power(z, c)
        value = 2.0 * t / (1.0 + t) if upper else (1.0 - t) / (1.0 + t)
        beyond = fnp.greater_equal(z * c, 1)
        return fnp.where(inside, value, fnp.where(beyond, 0.0 if upper else 1.0,
                                                  1.0 if upper else 0.0))
    return f


genhalflogistic = rv_continuous(
    "genhalflogistic", shapes=("c",), _logpdf=_genhalflogistic_logpdf,
    _cdf=_genhalflogistic_tail(False), _sf=_genhalflogistic_tail(True),
    _ppf=lambda q, c: (1.0 - ((1.0 - q) / (1.0 + q)) ** c) / c,
    # (2 t / (1 + t) = q at t = q / (2 - q): the upper tail without 1 - q)
    _isf=lambda q, c: (1.0 - (q / (2.0 - q)) ** c) / c,
    _entropy=lambda c: 2.0 - (2.0 * c + 1.0) * _LOG_2)


document(globals(), {
    "dgamma": ((1.6,), 0.5), "invweibull": ((2.5,), 0.5), "johnsonsb": ((0.4, 1.3), 0.5),
    "johnsonsu": ((0.4, 1.3), 0.5), "fatiguelife": ((0.7,), 0.5), "gibrat": ((), 0.5),
    "loglaplace": ((2.5,), 0.5), "laplace_asymmetric": ((1.6,), 0.5),
    "powernorm": ((2.5,), 0.5), "powerlognorm": ((2.5, 0.8), 0.5),
    "genexpon": ((1.5, 2.0, 1.3), 0.5), "genhalflogistic": ((0.6,), 0.5)})
