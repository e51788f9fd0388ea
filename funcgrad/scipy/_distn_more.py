"""More of :mod:`funcgrad.scipy.stats`' distributions (re-exported there), the ones
``jax.scipy.stats`` has beyond the first set: ``truncnorm``, ``gennorm``, ``vonmises``,
``wrapcauchy``, ``betabinom`` and ``multinomial``, with SciPy's parameters and supports,
differentiable in ``x``, the shape parameters, ``loc`` and ``scale``.

* ``truncnorm(a, b)``: the normal distribution cut to ``[a, b]`` (standardized units, as
  SciPy).  The mass ``Phi(b) - Phi(a)`` is taken in logs from the tail the interval lies
  in (``log_ndtr`` of the nearer end, ``log1p(-exp(...))`` for the other), so intervals far
  in a tail keep their accuracy, as SciPy's ``_log_gauss_mass``.
* ``gennorm(beta)``: density ``beta / (2 Gamma(1/beta)) exp(-|z|**beta)``; its CDF goes
  through ``gammainc`` (in ``beta`` by that function's derivative in ``a``).
* ``vonmises(kappa)``: ``exp(kappa cos z) / (2 pi I0(kappa))``, periodic as SciPy's
  (``kappa >= 0``); its CDF is SciPy's series (:mod:`._vonmises_cdf`), its quantiles
  that CDF inverted over one period, ``[-pi, pi]``, as SciPy's (``-inf`` and ``inf`` at
  ``q = 0`` and ``1``, the ends of SciPy's support).
* ``wrapcauchy(c)``: on ``[0, 2 pi]``, with its closed-form CDF and quantile.
* ``betabinom(n, a, b)``: ``logpmf``/``pmf``, differentiable in ``a`` and ``b``; ``cdf``
  and ``sf`` as sums of the masses (as SciPy's), so ``ppf`` and ``isf`` too.
* ``multinomial``: ``logpmf(x, n, p)``/``pmf`` over the last axis, as SciPy.
"""
import math
from typing import Any

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import concrete_values
from . import _ppf
from . import special as sp
from ._distn import _all, _support, rv_continuous, rv_discrete, rv_frozen
from ._vonmises_cdf import vonmises_cdf, vonmises_entropy
from ._statsdists_quantiles import numeric_quantiles
from ..typing import Array, ArrayLike

__all__ = ["truncnorm", "gennorm", "vonmises", "wrapcauchy", "betabinom", "multinomial"]

_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)
_LOG_2 = math.log(2.0)
_TWO_PI = 2 * math.pi


# --- truncnorm(a, b) -------------------------------------------------------------------------

def _log1mexp(x):
    """``log(1 - exp(x))`` for ``x <= 0``: ``expm1`` near 0, ``log1p`` far from it."""
    near = fnp.greater(x, -_LOG_2)
    return fnp.where(near, fnp.log(-fnp.expm1(fnp.where(near, x, -1.0))),
                     fnp.log1p(-fnp.exp(fnp.where(near, -1.0, x))))


def _log_gauss_mass(a, b):
    """``log(Phi(b) - Phi(a))`` for ``a <= b``, from the tail the interval lies in."""
    right = fnp.greater(a, 0)   # both ends in the right tail: the masses of -b and -a
    left = fnp.less(b, 0)       # both in the left tail
    middle = fnp.logical_not(fnp.logical_or(right, left))
    # (each branch sees a stand-in interval where it is not taken: no NaN in derivatives)
    ra, rb = fnp.where(right, a, 1.0), fnp.where(right, b, 2.0)
    la, lb = fnp.where(left, a, -2.0), fnp.where(left, b, -1.0)
    ma, mb = fnp.where(middle, a, -1.0), fnp.where(middle, b, 1.0)
    in_right = sp.log_ndtr(-ra) + _log1mexp(sp.log_ndtr(-rb) - sp.log_ndtr(-ra))
    in_left = sp.log_ndtr(lb) + _log1mexp(sp.log_ndtr(la) - sp.log_ndtr(lb))
    across = fnp.log1p(-sp.ndtr(ma) - sp.ndtr(-mb))
    return fnp.where(right, in_right, fnp.where(left, in_left, across))


def _truncnorm_logpdf(z, a, b):
    inside = fnp.logical_and(fnp.greater_equal(z, a), fnp.less_equal(z, b))
    s = fnp.where(inside, z, (a + b) * 0.5)
    return _support(inside, s * s * -0.5 - _LOG_SQRT_2PI - _log_gauss_mass(a, b))


def _truncnorm_log_part(z, a, b, lower):
    """``log`` of the mass below (``lower``) or above ``z``, over the whole mass."""
    s = fnp.clip(z, a, b)
    inside = fnp.logical_and(fnp.greater(s, a), fnp.less(s, b))
    # (at the ends the part is 0 or everything: a stand-in mid-interval keeps the logs finite)
    t = fnp.where(inside, s, (a + b) * 0.5)
    part = _log_gauss_mass(a, t) if lower else _log_gauss_mass(t, b)
    whole = _log_gauss_mass(a, b)
    empty = fnp.less_equal(z, a) if lower else fnp.greater_equal(z, b)
    return fnp.where(inside, part - whole, fnp.where(empty, -math.inf, 0.0))


def _truncnorm_log_side(lower):
    """``logcdf`` (``lower``) or ``logsf``: where the part is over half the mass, as
    ``log1p(-other part)``, which keeps its accuracy near 0 (SciPy's choice too)."""
    def f(z, a, b):
        part = _truncnorm_log_part(z, a, b, lower)
        other = _truncnorm_log_part(z, a, b, not lower)
        big = fnp.greater(part, -_LOG_2)
        return fnp.where(big, _log1mexp(fnp.where(big, other, -1.0)), part)
    return f


def _truncnorm_ppf(q, a, b):
    """``Phi^-1`` of the point ``q`` of the way through the mass, from the left end for
    an interval in the left half and from the right end (mirrored) otherwise."""
    mirrored = fnp.greater(a, 0)
    lo, hi = fnp.where(mirrored, -b, a), fnp.where(mirrored, -a, b)
    p = fnp.where(mirrored, 1.0 - q, q)
    log_low = sp.log_ndtr(lo)
    x = sp.ndtri(fnp.exp(log_low) + p * fnp.exp(_log_gauss_mass(lo, hi)))
    x = fnp.clip(x, lo, hi)
    return fnp.where(mirrored, -x, x)


truncnorm = rv_continuous(
    "truncnorm", shapes=("a", "b"), _valid=lambda a, b: fnp.less(a, b),
    _logpdf=_truncnorm_logpdf,
    _cdf=lambda z, a, b: fnp.exp(_truncnorm_log_part(z, a, b, True)),
    _logcdf=_truncnorm_log_side(True),
    _sf=lambda z, a, b: fnp.exp(_truncnorm_log_part(z, a, b, False)),
    _logsf=_truncnorm_log_side(False),
    _ppf=_truncnorm_ppf)


# --- gennorm(beta) ---------------------------------------------------------------------------

def _gennorm_log_density_at_0(beta):
    return fnp.log(beta) - _LOG_2 - sp.gammaln(1.0 / beta)


def _abs_pow(z, beta):
    """``|z|**beta`` with the slope 0 at ``z = 0`` (the double-where idiom): the power
    rule's ``beta |z|**(beta-1)`` is inf there for ``beta < 1``, and times the 0 of
    ``d|z|/dz`` it made every derivative through ``z = 0`` (in ``scale`` too) NaN."""
    zero = fnp.equal(z, 0)
    return fnp.where(zero, 0.0, fnp.abs(fnp.where(zero, 1.0, z)) ** beta)


def _gennorm_logpdf(z, beta):
    return _gennorm_log_density_at_0(beta) - _abs_pow(z, beta)


def _gennorm_tail(z, beta):
    # (the tail beyond |z| directly, by gammaincc: 0.5 - gammainc / 2 would cancel there)
    return sp.gammaincc(1.0 / beta, _abs_pow(z, beta)) * 0.5


def _at_center(z, center_value, slope, fn):
    """``fn(z)`` away from ``z = 0``, and ``center_value + slope * z`` at it: the value
    there and its derivative (``gammaincc``'s slope in ``x`` is inf at ``x = 0`` for
    ``a < 1``, ``|z|**beta``'s is 0 there: the chain rule gave NaN for the density)."""
    zero = fnp.equal(z, 0)
    return fnp.where(zero, center_value + slope * z, fn(fnp.where(zero, 1.0, z)))


def _gennorm_cdf(z, beta):
    def away(s):
        tail = _gennorm_tail(s, beta)
        return fnp.where(fnp.less(s, 0), tail, 1.0 - tail)
    return _at_center(z, 0.5, fnp.exp(_gennorm_log_density_at_0(beta)), away)


def _gennorm_logcdf(z, beta):
    def away(s):
        tail = _gennorm_tail(s, beta)
        left = fnp.less(s, 0)  # (each log sees only its side: log(0) of a far tail is -inf)
        return fnp.where(left, fnp.log(fnp.where(left, tail, 0.5)),
                         fnp.log1p(-fnp.where(left, 0.5, tail)))
    # (d log cdf / dz at 0 is the density over cdf(0) = 1/2)
    return _at_center(z, -_LOG_2, 2.0 * fnp.exp(_gennorm_log_density_at_0(beta)), away)


# gamma's density, distribution function and quantile (stats' gamma is built from them)
def gamma_logpdf(z, a):
    # (x = 0 is in the support, as SciPy's: the density there is 1 for a = 1, inf below)
    inside = fnp.greater_equal(z, 0)
    s = fnp.where(inside, z, 1.0)
    return _support(inside, sp.xlogy(a - 1.0, s) - s - sp.gammaln(a))


def gamma_cdf(z, a):
    # (the double-where idiom: below the support gammainc's slope x**(a-1) at x = 0 is inf
    # for a < 1, and inf * 0 from a clamp would make the derivative NaN there)
    inside = fnp.greater_equal(z, 0)
    return fnp.where(inside, sp.gammainc(a, fnp.where(inside, z, 1.0)), 0.0)


def gamma_sf(z, a):
    inside = fnp.greater_equal(z, 0)
    return fnp.where(inside, sp.gammaincc(a, fnp.where(inside, z, 1.0)), 1.0)


gamma_ppf = _ppf.gamma_ppf(gamma_cdf, gamma_logpdf)
gamma_isf = _ppf.gamma_isf(gamma_sf, gamma_logpdf)  # (from the upper tail: tiny q stays exact)
def _gennorm_ppf(q, beta):
    """``|Z|**beta ~ Gamma(1/beta)``: below 1/2 from gamma's upper tail (``isf(2q)``:
    tiny ``q`` stays exact, where ``1 - 2q`` would round), above from its lower one."""
    # (at the median the slope is 1 / density(0), where 0**(1/beta) made it NaN: the
    # double-where idiom, with q itself elsewhere, so that a tiny q keeps its digits)
    median = fnp.equal(q, 0.5)
    p = fnp.where(median, 0.25, q)
    low = fnp.less(p, 0.5)
    lower = -gamma_isf(2.0 * fnp.where(low, p, 0.25), 1.0 / beta) ** (1.0 / beta)
    upper = gamma_ppf(2.0 * fnp.where(low, 0.75, p) - 1.0, 1.0 / beta) ** (1.0 / beta)
    slope = fnp.exp(-_gennorm_log_density_at_0(beta))
    return fnp.where(median, (q - 0.5) * slope, fnp.where(low, lower, upper))


gennorm = rv_continuous(
    "gennorm", shapes=("beta",), _logpdf=_gennorm_logpdf, _cdf=_gennorm_cdf,
    _logcdf=_gennorm_logcdf, _sf=lambda z, beta: _gennorm_cdf(-z, beta),
    _logsf=lambda z, beta: _gennorm_logcdf(-z, beta),
    _ppf=_gennorm_ppf, _isf=lambda q, beta: -_gennorm_ppf(q, beta))


# --- circular: vonmises(kappa) on [-pi, pi], wrapcauchy(c) on [0, 2 pi] ---------------------

def _vonmises_logpdf(z, kappa):
    # (periodic, not cut to [-pi, pi]: SciPy's has no support bounds)
    # log I0(kappa) = log i0e(kappa) + kappa: no overflow for large kappa
    return kappa * (fnp.cos(z) - 1.0) - math.log(_TWO_PI) - fnp.log(sp.i0e(kappa))


vonmises = rv_continuous("vonmises", shapes=("kappa",), _logpdf=_vonmises_logpdf,
                         _valid=lambda kappa: fnp.greater_equal(kappa, 0),  # (SciPy's)
                         _cdf=vonmises_cdf, _sf=lambda z, kappa: 1.0 - vonmises_cdf(z, kappa),
                         _entropy=vonmises_entropy)
_vonmises_period_quantiles = numeric_quantiles(vonmises, (-math.pi, math.pi))


def _vonmises_quantile(upper):
    """The CDF inverted over one period, ``[-pi, pi]``, where SciPy's generic quantile finds
    it; ``q = 0`` and ``q = 1`` are the ends of SciPy's support, ``-inf`` and ``inf``."""
    within = _vonmises_period_quantiles[1 if upper else 0]

    def f(q, kappa):
        at_zero, at_one = (math.inf, -math.inf) if upper else (-math.inf, math.inf)
        return fnp.where(fnp.equal(q, 0), at_zero,
                         fnp.where(fnp.equal(q, 1), at_one, within(q, kappa)))
    return f


vonmises._ppf, vonmises._isf = _vonmises_quantile(False), _vonmises_quantile(True)


def _wrapcauchy_logpdf(z, c):
    inside = fnp.logical_and(fnp.greater_equal(z, 0), fnp.less_equal(z, _TWO_PI))
    s = fnp.where(inside, z, 1.0)
    return _support(inside, fnp.log1p(-c * c) - math.log(_TWO_PI)
                    - fnp.log1p(c * c - 2.0 * c * fnp.cos(s)))


def _wrapcauchy_cdf(z, c):
    ratio = (1.0 + c) / (1.0 - c)
    s = fnp.clip(z, 0.0, _TWO_PI)
    low = fnp.less(s, math.pi)
    # arctan(ratio tan(x/2)) / pi on each half, tan's pole at pi kept out of both
    below = fnp.arctan(ratio * fnp.tan(fnp.where(low, s, 0.0) * 0.5)) / math.pi
    above = 1.0 - fnp.arctan(ratio * fnp.tan((_TWO_PI - fnp.where(low, _TWO_PI, s)) * 0.5)
                             ) / math.pi
    return fnp.where(low, below, above)


def _wrapcauchy_ppf(q, c):
    ratio = (1.0 - c) / (1.0 + c)
    low = fnp.less(q, 0.5)
    below = 2.0 * fnp.arctan(ratio * fnp.tan(math.pi * fnp.where(low, q, 0.0)))
    above = _TWO_PI - 2.0 * fnp.arctan(ratio * fnp.tan(math.pi * (1.0 - fnp.where(low, 1.0, q))))
    return fnp.where(low, below, above)


wrapcauchy = rv_continuous(
    "wrapcauchy", shapes=("c",), _valid=lambda c: _all(fnp.greater(c, 0), fnp.less(c, 1)),
    _logpdf=_wrapcauchy_logpdf, _cdf=_wrapcauchy_cdf,
    _sf=lambda z, c: 1.0 - _wrapcauchy_cdf(z, c), _ppf=_wrapcauchy_ppf)


# --- betabinom(n, a, b) ----------------------------------------------------------------------

def _betabinom_logpmf(k, n, a, b):
    inside = _all(fnp.equal(k, fnp.floor(k)), fnp.greater_equal(k, 0), fnp.less_equal(k, n))
    s = fnp.where(inside, k, 0.0)
    log_comb = sp.gammaln(n + 1.0) - sp.gammaln(s + 1.0) - sp.gammaln(n - s + 1.0)
    return _support(inside, log_comb + sp.betaln(s + a, n - s + b) - sp.betaln(a, b))


def _betabinom_sum(k, n, a, b, upper):
    """The mass at ``j <= floor(k)`` (``upper``: above it), summed over ``j = 0..max n`` as
    SciPy's: ``n`` decides how many terms, so it must be a plain value (not under ``jit``
    or ``vmap``); ``a`` and ``b`` may be traced (the sum is differentiable in them)."""
    count = concrete_values(
        n, "betabinom's cdf and sf (a sum over 0..n)",
        "Pass n as a plain number or NumPy array (it is an integer count).")
    top = int(np.max(count, initial=0.0)) if np.size(count) else 0
    j = np.arange(top + 1.0)
    shape = fnp.broadcast_shapes(fnp.shape(k), fnp.shape(n), fnp.shape(a), fnp.shape(b))
    kk, nn, aa, bb = (fnp.expand_dims(fnp.broadcast_to(v, shape), -1) for v in (k, n, a, b))
    pmf = fnp.exp(_betabinom_logpmf(j, nn, aa, bb))  # (0 past each n)
    f = fnp.floor(kk)
    below = fnp.less_equal(j, f)
    total = fnp.sum(fnp.where(fnp.logical_not(below) if upper else below, pmf, 0.0), axis=-1)
    # (k past the support: exactly 1 or 0, not a sum that rounds)
    full = fnp.greater_equal(k, n)
    return fnp.where(fnp.less(k, 0), 1.0 if upper else 0.0,
                     fnp.where(full, 0.0 if upper else 1.0, total))


betabinom = rv_discrete(
    "betabinom", shapes=("n", "a", "b"), _logpmf=_betabinom_logpmf,
    _cdf=lambda k, n, a, b: _betabinom_sum(k, n, a, b, False),
    _sf=lambda k, n, a, b: _betabinom_sum(k, n, a, b, True),
    _valid=lambda n, a, b: _all(fnp.greater_equal(n, 0), fnp.equal(n, fnp.floor(n)),
                                fnp.greater(a, 0), fnp.greater(b, 0)))
betabinom._bounds, betabinom._bounded = (lambda n, a, b: (0.0, n)), True

for _d in (truncnorm, gennorm, vonmises, wrapcauchy):
    _params = {"truncnorm": "-1.0, 2.0, ", "gennorm": "1.5, ", "vonmises": "2.0, ",
               "wrapcauchy": "0.3, "}[_d.name]
    _d.__doc__ = f"""SciPy's ``{_d.name}`` distribution (parameters: {", ".join(
        _d.shapes + ("loc", "scale"))}).

>>> import funcgrad as fg
>>> g = fg.grad(lambda s: {_d.name}.logpdf(0.5, {_params}scale=s))(1.5)  # d/dscale
"""
betabinom.__doc__ = """SciPy's ``betabinom`` distribution (parameters: n, a, b, loc):
``logpmf`` and ``pmf``, differentiable in ``a`` and ``b``; ``cdf``, ``sf``, ``ppf`` and
``isf`` (sums over ``0..n``: ``n`` a plain value).

>>> import funcgrad as fg
>>> g = fg.grad(lambda a: betabinom.logpmf(2.0, 5, a, 1.5))(0.8)
"""
del _d, _params


# --- multinomial -----------------------------------------------------------------------------

class _multinomial:
    """``multinomial.logpmf(x, n, p)`` and ``pmf``, as SciPy: the counts along the last
    axis of ``x``, which must be non-negative integers summing to ``n`` (else ``-inf``);
    ``p`` the probabilities along its last axis.  Differentiable in ``p`` (and in ``n``
    through ``gammaln``).

    >>> import numpy as np
    >>> round(float(multinomial.pmf(np.array([1.0, 1.0]), 2, np.array([0.5, 0.5]))), 12)
    0.5
    """

    def logpmf(self, x: ArrayLike, n: ArrayLike, p: ArrayLike) -> Array:
        """``log pmf(x)``."""
        x, n, p = fnp.asarray(x), fnp.asarray(n), fnp.asarray(p)
        counts = _all(fnp.equal(x, fnp.floor(x)), fnp.greater_equal(x, 0))
        valid = fnp.logical_and(fnp.all(counts, axis=-1), fnp.equal(fnp.sum(x, axis=-1), n))
        s = fnp.where(counts, x, 0.0)
        value = (sp.gammaln(n + 1.0) - fnp.sum(sp.gammaln(s + 1.0), axis=-1)
                 + fnp.sum(sp.xlogy(s, p), axis=-1))
        return _support(valid, value)

    def pmf(self, x: ArrayLike, n: ArrayLike, p: ArrayLike) -> Array:
        """``exp(logpmf)``."""
        return fnp.exp(self.logpmf(x, n, p))

    def __call__(self, n: ArrayLike, p: ArrayLike, seed: object = None) -> Any:
        """The distribution with ``n`` and ``p`` fixed, as SciPy's ``multinomial(n, p)``
        (``seed``, for SciPy's sampling, accepted and unused: there is no ``rvs``)."""
        return rv_frozen(self, (n, p), {})

    def __repr__(self) -> str:
        return "<funcgrad.scipy.stats.multinomial>"


multinomial = _multinomial()
