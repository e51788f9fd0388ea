"""Continuous distributions of :mod:`funcgrad.scipy.stats` built on special functions
(re-exported there): the gamma family's ``chi``, ``maxwell``, ``nakagami``, ``erlang``,
``gengamma`` and ``loggamma`` (their distribution functions through ``gammainc`` /
``gammaincc``, their quantiles through gamma's, :mod:`._ppf`); ``betaprime`` (through
``betainc`` and ``betaincinv``, as Fisher's F); the normal family's ``invgauss``,
``wald``, ``exponnorm``, ``skewnorm`` (its CDF through Owen's T), ``foldnorm`` and
``rice`` (its density through ``i0e``).

Every method differentiates in ``x``, the shape parameters, ``loc`` and ``scale``; in a
shape parameter that a special function takes, by that function's rule (it raises where
the rule is missing).  The quantiles with no closed form in funcgrad's special functions
(``invgauss``, ``wald``, ``exponnorm``, ``skewnorm``, ``foldnorm``, ``rice``) invert the
CDF numerically (:mod:`._statsdists_quantiles`).  ``rice``'s CDF is a series of ``ive``
(Marcum's Q); its entropy is not offered.
"""
import math

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import concrete_values, is_concrete
from . import special as sp
from ._continuous_more import _f_quantile, _f_tail
from ._distn import _positive, _support, rv_continuous
from ._distn_more import gamma_cdf, gamma_isf, gamma_logpdf, gamma_ppf, gamma_sf
from ._moments import _above
from ._statsdists_closed import _real, document
from ._statsdists_quantiles import numeric_quantiles
from ._statsdists_tails import _exp_exp1

__all__ = ["chi", "maxwell", "nakagami", "erlang", "gengamma", "loggamma", "betaprime",
           "invgauss", "wald", "exponnorm", "skewnorm", "foldnorm", "rice"]

_LOG_2 = math.log(2.0)
_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)
_EULER = 0.5772156649015329


def _nonnegative(z):
    inside = fnp.greater_equal(z, 0)
    return inside, fnp.where(inside, z, 1.0)


def _gamma_of_power(transform, upper_below=0.0):
    """The CDF and survival function of ``X`` with ``transform(X) ~ gamma(a)`` for an
    increasing ``transform`` on ``[0, inf)``: ``(cdf, sf)`` of ``(z, a, *rest)``."""
    # (gamma's argument capped at a + 50 sqrt(a) + 1000, where its upper tail is 0 to the
    # last bit: x**2 would overflow (gammainc's slope 0 times inf was NaN), and gammainc's
    # derivative in a does not converge at 1e300)
    def capped(u, a, rest):
        t = transform(fnp.minimum(u, 1e150), a, *rest)
        return fnp.minimum(t, a + 50.0 * fnp.sqrt(a) + 1000.0)

    def cdf(z, a, *rest):
        inside, u = _nonnegative(z)
        return fnp.where(inside, gamma_cdf(capped(u, a, rest), a), 0.0)

    def sf(z, a, *rest):
        inside, u = _nonnegative(z)
        return fnp.where(inside, gamma_sf(capped(u, a, rest), a), 1.0)
    return cdf, sf


# --- chi(df), maxwell: X**2 / 2 ~ gamma(df / 2) ---------------------------------------------

def _chi_logpdf(z, df):
    inside, u = _nonnegative(z)
    return _support(inside, sp.xlogy(df - 1.0, u) - 0.5 * u * u - (0.5 * df - 1.0) * _LOG_2
                    - sp.gammaln(0.5 * df))


_chi_cdf, _chi_sf = _gamma_of_power(lambda u, half_df: 0.5 * u * u)


def _chi_mean(df):
    return math.sqrt(2.0) * fnp.exp(sp.gammaln(0.5 * (df + 1.0)) - sp.gammaln(0.5 * df))


def _chi_entropy(df):
    return sp.gammaln(0.5 * df) + 0.5 * (df - _LOG_2 - (df - 1.0) * sp.digamma(0.5 * df))


chi = rv_continuous(
    "chi", shapes=("df",), _logpdf=_chi_logpdf,
    _cdf=lambda z, df: _chi_cdf(z, 0.5 * df), _sf=lambda z, df: _chi_sf(z, 0.5 * df),
    _ppf=lambda q, df: fnp.sqrt(2.0 * gamma_ppf(q, 0.5 * df)),
    _isf=lambda q, df: fnp.sqrt(2.0 * gamma_isf(q, 0.5 * df)),
    _mean=_chi_mean, _var=lambda df: df - _chi_mean(df) ** 2, _entropy=_chi_entropy)
maxwell = rv_continuous(
    "maxwell", _logpdf=lambda z: _chi_logpdf(z, 3.0), _cdf=lambda z: _chi_cdf(z, 1.5),
    _sf=lambda z: _chi_sf(z, 1.5), _ppf=lambda q: fnp.sqrt(2.0 * gamma_ppf(q, 1.5)),
    _isf=lambda q: fnp.sqrt(2.0 * gamma_isf(q, 1.5)),
    _mean=lambda: 2.0 * math.sqrt(2.0 / math.pi), _var=lambda: 3.0 - 8.0 / math.pi,
    _entropy=lambda: _EULER + 0.5 * math.log(2 * math.pi) - 0.5)


# --- nakagami(nu): nu X**2 ~ gamma(nu) -------------------------------------------------------

def _nakagami_logpdf(z, nu):
    inside, u = _nonnegative(z)
    return _support(inside, _LOG_2 + nu * fnp.log(nu) - sp.gammaln(nu)
                    + sp.xlogy(2.0 * nu - 1.0, u) - nu * u * u)


def _nakagami_mean(nu):
    return fnp.exp(sp.gammaln(nu + 0.5) - sp.gammaln(nu)) / fnp.sqrt(nu)


_nakagami_cdf, _nakagami_sf = _gamma_of_power(lambda u, nu: nu * u * u)
nakagami = rv_continuous(
    "nakagami", shapes=("nu",), _logpdf=_nakagami_logpdf, _cdf=_nakagami_cdf, _sf=_nakagami_sf,
    _ppf=lambda q, nu: fnp.sqrt(gamma_ppf(q, nu) / nu),
    _isf=lambda q, nu: fnp.sqrt(gamma_isf(q, nu) / nu),
    _mean=_nakagami_mean, _var=lambda nu: 1.0 - _nakagami_mean(nu) ** 2,
    _entropy=lambda nu: (sp.gammaln(nu) + nu - (nu - 0.5) * sp.digamma(nu)
                         - 0.5 * fnp.log(nu) - _LOG_2))


# --- erlang(a): gamma with an integer shape (SciPy's warns on others; so does nothing here) --

erlang = rv_continuous(
    "erlang", shapes=("a",), _logpdf=gamma_logpdf, _cdf=gamma_cdf, _sf=gamma_sf,
    _ppf=gamma_ppf, _isf=gamma_isf, _mean=lambda a: a * 1.0, _var=lambda a: a * 1.0,
    _entropy=lambda a: a + sp.gammaln(a) + (1.0 - a) * sp.digamma(a))


# --- gengamma(a, c): X**c ~ gamma(a) (c < 0: a decreasing power, the tails swapped) ----------

def _gengamma_logpdf(z, a, c):
    inside, u = _positive(z)
    return _support(inside, fnp.log(fnp.abs(c)) + sp.xlogy(c * a - 1.0, u) - u ** c
                    - sp.gammaln(a))


def _gengamma_tail(upper):
    def f(z, a, c):
        inside, u = _positive(z)
        # (x**c capped at exp(700): gammainc is 1 to the last bit there, for any a below 1e300)
        xc = fnp.exp(fnp.minimum(c * fnp.log(u), 700.0))
        lower_tail = fnp.greater(c, 0) != upper  # (for c < 0 the lower tail is gamma's upper)
        value = fnp.where(lower_tail, sp.gammainc(a, xc), sp.gammaincc(a, xc))
        return fnp.where(inside, value, 1.0 if upper else 0.0)
    return f


def _gengamma_quantile(upper):
    def f(q, a, c):
        positive = fnp.greater(c, 0)
        # (for c < 0 the q quantile is gamma's from the other tail; each branch sees a
        # power of its own sign)
        from_ppf = gamma_ppf(q, a) if not upper else gamma_isf(q, a)
        from_isf = gamma_isf(q, a) if not upper else gamma_ppf(q, a)
        return fnp.where(positive, from_ppf, from_isf) ** (1.0 / c)
    return f


def _gengamma_moment(n):
    def f(a, c):
        return _above(a + n / c, 0.0, lambda s: fnp.exp(sp.gammaln(s) - sp.gammaln(a)),
                      math.inf)
    return f


gengamma = rv_continuous(
    "gengamma", shapes=("a", "c"),
    _valid=lambda a, c: fnp.logical_and(fnp.greater(a, 0), fnp.not_equal(c, 0)),
    _logpdf=_gengamma_logpdf, _cdf=_gengamma_tail(False), _sf=_gengamma_tail(True),
    _ppf=_gengamma_quantile(False), _isf=_gengamma_quantile(True), _mean=_gengamma_moment(1),
    _var=lambda a, c: _gengamma_moment(2)(a, c) - _gengamma_moment(1)(a, c) ** 2,
    _entropy=lambda a, c: (a * (1.0 - sp.digamma(a)) + sp.digamma(a) / c + sp.gammaln(a)
                           - fnp.log(fnp.abs(c))))


# --- loggamma(c): exp(X) ~ gamma(c) -----------------------------------------------------------

loggamma = rv_continuous(
    "loggamma", shapes=("c",), _logpdf=lambda z, c: c * z - fnp.exp(z) - sp.gammaln(c),
    # (z capped at 700, as gengamma's x**c)
    _cdf=lambda z, c: sp.gammainc(c, fnp.exp(fnp.minimum(z, 700.0))),
    _sf=lambda z, c: sp.gammaincc(c, fnp.exp(fnp.minimum(z, 700.0))),
    _ppf=lambda q, c: fnp.log(gamma_ppf(q, c)), _isf=lambda q, c: fnp.log(gamma_isf(q, c)),
    _mean=lambda c: sp.digamma(c), _var=lambda c: sp.polygamma(1, c),
    _entropy=lambda c: sp.gammaln(c) - c * sp.digamma(c) + c)


# --- betaprime(a, b): X / (1 + X) ~ beta(a, b), as Fisher's F(2a, 2b) times a / b -------------

def _betaprime_logpdf(z, a, b):
    inside, u = _nonnegative(z)
    return _support(inside, sp.xlogy(a - 1.0, u) - (a + b) * fnp.log1p(u) - sp.betaln(a, b))


betaprime = rv_continuous(
    "betaprime", shapes=("a", "b"), _logpdf=_betaprime_logpdf,
    _cdf=lambda z, a, b: _f_tail(False)(z * b / a, 2.0 * a, 2.0 * b),
    _sf=lambda z, a, b: _f_tail(True)(z * b / a, 2.0 * a, 2.0 * b),
    _ppf=lambda q, a, b: _f_quantile(False)(q, 2.0 * a, 2.0 * b) * a / b,
    _isf=lambda q, a, b: _f_quantile(True)(q, 2.0 * a, 2.0 * b) * a / b,
    _mean=lambda a, b: _above(b, 1.0, lambda s: a / (s - 1.0), math.inf),
    _var=lambda a, b: _above(b, 2.0, lambda s: a * (a + s - 1.0) / ((s - 2.0) * (s - 1.0) ** 2),
                             math.inf),
    # (beta's entropy plus 2 E log(1 + X) = -2 E log(1 - Y), Y = X / (1 + X) ~ beta(a, b))
    _entropy=lambda a, b: (sp.betaln(a, b) - (a - 1.0) * sp.digamma(a) - (b + 1.0) * sp.digamma(b)
                           + (a + b) * sp.digamma(a + b)))


# --- invgauss(mu), wald -----------------------------------------------------------------------

def _invgauss_logpdf(z, mu):
    inside, u = _positive(z)
    return _support(inside, -_LOG_SQRT_2PI - 1.5 * fnp.log(u) - (u / mu - 1.0) ** 2 / (2.0 * u))


def _invgauss_log_tail(upper):
    """SciPy's ``log Phi(+-(x/mu - 1)/sqrt x) + log1p(+-exp(2/mu + log Phi(-(x/mu + 1)/sqrt
    x) - that))``: the ``exp(2/mu)`` factor in logs, no overflow for a small ``mu``."""
    def f(z, mu):
        inside, u = _positive(z)
        root = fnp.sqrt(u)
        first = sp.log_ndtr((u / mu - 1.0) / root * (-1.0 if upper else 1.0))
        second = 2.0 / mu + sp.log_ndtr(-(u / mu + 1.0) / root)
        ratio = fnp.exp(second - first)
        value = first + fnp.log1p(-ratio if upper else ratio)
        return fnp.where(inside, value, 0.0 if upper else -math.inf)
    return f


def _invgauss_entropy(mu):
    return 0.5 * (1.0 + math.log(2 * math.pi) + 3.0 * fnp.log(mu)) - 1.5 * _exp_exp1(2.0 / mu)


invgauss = rv_continuous(
    "invgauss", shapes=("mu",), _logpdf=_invgauss_logpdf,
    _logcdf=_invgauss_log_tail(False), _logsf=_invgauss_log_tail(True),
    _cdf=lambda z, mu: fnp.exp(_invgauss_log_tail(False)(z, mu)),
    _sf=lambda z, mu: fnp.exp(_invgauss_log_tail(True)(z, mu)),
    _mean=lambda mu: mu * 1.0, _var=lambda mu: mu ** 3, _entropy=_invgauss_entropy)
wald = rv_continuous(
    "wald", **{k: (lambda fn: lambda z: fn(z, 1.0))(invgauss.__dict__[k])
               for k in ("_logpdf", "_logcdf", "_logsf", "_cdf", "_sf")},
    _mean=lambda: 1.0, _var=lambda: 1.0, _entropy=lambda: _invgauss_entropy(1.0))


# --- exponnorm(K): a normal plus an exponential of mean K -------------------------------------

def _exponnorm_log_product(z, K):
    """``log(exp((1/K)(1/(2K) - z)) Phi(z - 1/K))``, the term both tails share."""
    inv = 1.0 / K
    return inv * (0.5 * inv - z) + sp.log_ndtr(z - inv)


exponnorm = rv_continuous(
    "exponnorm", shapes=("K",),
    _logpdf=lambda z, K: _exponnorm_log_product(z, K) - fnp.log(K),
    _cdf=lambda z, K: sp.ndtr(z) - fnp.exp(_exponnorm_log_product(z, K)),
    _sf=lambda z, K: sp.ndtr(-z) + fnp.exp(_exponnorm_log_product(z, K)),
    _mean=lambda K: K * 1.0, _var=lambda K: 1.0 + K * K)


# --- skewnorm(a): density 2 phi(z) Phi(a z) ---------------------------------------------------

def _skewnorm_cdf(z, a):
    # (Phi(z) - 2 T(z, a), Owen's T; SciPy's own uses Boost's, the same function)
    return fnp.clip(sp.ndtr(z) - 2.0 * sp.owens_t(z, a), 0.0, 1.0)


def _skewnorm_mean(a):
    return math.sqrt(2.0 / math.pi) * a / fnp.sqrt(1.0 + a * a)


skewnorm = rv_continuous(
    "skewnorm", shapes=("a",), _valid=_real,
    _logpdf=lambda z, a: _LOG_2 - 0.5 * z * z - _LOG_SQRT_2PI + sp.log_ndtr(a * z),
    _cdf=_skewnorm_cdf, _sf=lambda z, a: _skewnorm_cdf(-z, -a),
    _mean=_skewnorm_mean, _var=lambda a: 1.0 - _skewnorm_mean(a) ** 2)


# --- foldnorm(c): |X| for X ~ N(c, 1) ---------------------------------------------------------

def _foldnorm_logpdf(z, c):
    # log(phi(x - c) + phi(x + c)) = -(x^2 + c^2)/2 + log(2 cosh(c x)) - log sqrt(2 pi)
    inside, u = _nonnegative(z)
    y = fnp.abs(c * u)
    return _support(inside, -0.5 * (u * u + c * c) + y + fnp.log1p(fnp.exp(-2.0 * y))
                    - _LOG_SQRT_2PI)


def _foldnorm_mean(c):
    return (math.sqrt(2.0 / math.pi) * fnp.exp(-0.5 * c * c)
            + c * sp.erf(c * math.sqrt(0.5)))


foldnorm = rv_continuous(
    "foldnorm", shapes=("c",), _valid=lambda c: fnp.greater_equal(c, 0),
    _logpdf=_foldnorm_logpdf,
    _cdf=lambda z, c: 0.5 * (sp.erf((fnp.maximum(z, 0.0) - c) * math.sqrt(0.5))
                             + sp.erf((fnp.maximum(z, 0.0) + c) * math.sqrt(0.5))),
    _sf=lambda z, c: sp.ndtr(c - fnp.maximum(z, 0.0)) + sp.ndtr(-c - fnp.maximum(z, 0.0)),
    _mean=_foldnorm_mean, _var=lambda c: c * c + 1.0 - _foldnorm_mean(c) ** 2)


# --- rice(b): the length of a 2-d normal vector at distance b from 0 --------------------------

def _rice_logpdf(z, b):
    # (log I0(x b) = log i0e(x b) + x b: no overflow for large x b)
    inside, u = _nonnegative(z)
    return _support(inside, sp.xlogy(1.0, u) - 0.5 * (u - b) ** 2 + fnp.log(sp.i0e(u * b)))


def _rice_mean(b):
    return (math.sqrt(2.0) * math.gamma(1.5) * fnp.exp(-0.5 * b * b)
            * sp.hyp1f1(1.5, 1.0, 0.5 * b * b))


_RICE_TRACED_TERMS = 1000  # (enough for b x <= 9025; NaN beyond, under jit or vmap)
_RICE_MAX_TERMS = 20000  # (b x up to 4e6 on plain arrays)


def _rice_tail(upper):
    """The CDF (or, ``upper``, the survival function) by Marcum's Q: with ``z = b x`` and
    ``r`` the smaller of ``b/x`` and ``x/b``, the smaller tail is ``exp(-(x - b)**2 / 2)
    sum_k r**k ive(k, z)`` (over ``k >= 0`` beyond ``x = b``, the upper tail; ``k >= 1``
    below it, the lower one), the other one 1 minus it.  The terms fall off past ``k ~
    sqrt(z)``: ``10 sqrt(z) + 50`` of them on plain arrays."""
    def f(z, b_in):
        inside, u = _positive(z)
        # (b = 0 is rayleigh, exp(-x**2/2) above: ive(0, z)'s kink at z = 0 would give the
        # slope in b a one-sided term where the true one, the CDF being even in b, is 0)
        zero = fnp.equal(b_in, 0)
        # (the smaller tail is below exp(-(x - b)**2 / 2): 0 to the last bit past |x - b| =
        # 40, where the series sees a stand-in, x = b = 1)
        near = fnp.logical_and(fnp.less_equal(fnp.abs(u - b_in), 40.0), ~zero)
        u, b = fnp.where(near, u, 1.0), fnp.where(near, b_in, 1.0)
        prod = u * b
        if is_concrete(prod):
            top = float(np.max(concrete_values(prod, "", ""), initial=0.0))
            count, cut = int(10.0 * math.sqrt(top)) + 50, math.inf
            if count > _RICE_MAX_TERMS:
                raise ValueError(f"rice's cdf/sf at b x = {top:.3g} needs {count} terms of its "
                                 f"series (at most {_RICE_MAX_TERMS}); there the distribution "
                                 f"is normal to within 1/(b x): use norm(b, 1)")
        else:
            count, cut = _RICE_TRACED_TERMS, ((_RICE_TRACED_TERMS - 50) / 10.0) ** 2
        k = np.arange(float(count))
        above = fnp.greater(u, b)
        log_r = fnp.log(fnp.where(above, b / u, u / b))[..., None]
        first = fnp.where(above, 0.0, 1.0)[..., None]
        terms = fnp.where(k >= first, fnp.exp(k * log_r) * sp.ive(k, prod[..., None]), 0.0)
        small = fnp.sum(terms, axis=-1) * fnp.exp(-0.5 * (u - b) ** 2)
        far = fnp.logical_and(~near, ~zero)
        above = fnp.where(zero | far, fnp.greater(z, b_in), above)
        small = fnp.where(zero, fnp.exp(-0.5 * z * z + 0.0 * b_in), fnp.where(far, 0.0, small))
        value = fnp.where(above == upper, small, 1.0 - small)
        value = fnp.where(prod > cut, math.nan, value)
        return fnp.where(inside, value, 1.0 if upper else 0.0)
    return f


rice = rv_continuous(
    "rice", shapes=("b",), _valid=lambda b: fnp.greater_equal(b, 0), _logpdf=_rice_logpdf,
    _cdf=_rice_tail(False), _sf=_rice_tail(True),
    _mean=_rice_mean, _var=lambda b: 2.0 + b * b - _rice_mean(b) ** 2)

for _d, _kind in ((invgauss, "positive"), (wald, "positive"), (exponnorm, "line"),
                  (skewnorm, "line"), (foldnorm, "positive"), (rice, "positive")):
    _d._ppf, _d._isf = numeric_quantiles(_d, _kind)
del _d, _kind


document(globals(), {
    "chi": ((3.5,), 0.5), "maxwell": ((), 0.5), "nakagami": ((1.3,), 0.5), "erlang": ((3,), 0.5),
    "gengamma": ((1.5, 1.7), 0.5), "loggamma": ((1.6,), 0.5), "betaprime": ((2.5, 3.5), 0.5),
    "invgauss": ((0.6,), 0.5), "wald": ((), 0.5), "exponnorm": ((1.3,), 0.5),
    "skewnorm": ((2.5,), 0.5), "foldnorm": ((0.9,), 0.5), "rice": ((1.2,), 0.5)})
