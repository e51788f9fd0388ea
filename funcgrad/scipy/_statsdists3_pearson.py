"""SciPy's ``pearson3(skew)`` distribution (re-exported by :mod:`funcgrad.scipy.stats`):
the standardized gamma distribution with skewness ``skew`` (mean 0, variance 1), the
normal distribution at ``skew = 0``.

With ``u = skew / 2`` (shape ``alpha = 1 / u**2``), the log-density is written so that
it is exact and smooth through ``skew = 0``::

    log pdf(x) = x**2 L(u x) - log1p(u x) - log sqrt(2 pi) - c(alpha)

where ``L(t) = (log1p(t) - t) / t**2`` (its Taylor series near 0) and ``c`` is Stirling's
correction ``gammaln(a) - ((a - 1/2) log a - a + log sqrt(2 pi))`` (its asymptotic series
for a large ``a``): the ``log |skew|`` terms of the gamma density cancel exactly instead of
in rounding.  Every derivative in ``x`` and ``skew`` is that of the exact density.

The distribution function is the gamma's (``gammainc``/``gammaincc`` of ``alpha`` and
``beta (x - zeta)``, as SciPy's) for ``|skew| >= 1.6e-5``; below, where SciPy switches to
the normal distribution (off by up to ``|skew| |x**3 - 3x| / 6`` relative), its Edgeworth
series in ``skew`` through ``skew**8`` (the cumulants are ``(r-1)! u**(r-2)``), which at
``|skew| < 1.6e-5`` equals the gamma's to rounding wherever the density is not 0 in
float64: the values are right and differentiate in ``skew`` (every order) through
``skew = 0``, where SciPy's normal would give a slope of 0.  The quantiles are
``gammaincinv``'s above and Newton steps on the series below (``+-inf`` at ``q = 0, 1``,
as SciPy's, not the gamma's finite end).

The derivative of ``cdf``, ``sf``, ``ppf``, ``isf`` in ``skew`` for ``1.6e-5 <= |skew| <
0.5`` raises NotImplementedError: there the gamma form's slope is a sum of terms
``~ 1/skew**2`` times the result that cancel (``dP/da * (-8/skew**3) + ...``), and it is
1e-8 off at ``skew = 0.1``, 100% at ``1e-3``.  ``logpdf``, ``pdf``, ``entropy`` differentiate
in ``skew`` everywhere; every method in ``x``, ``loc``, ``scale``.  ``entropy`` is the
gamma's in closed form (the asymptotic series for a large ``alpha``, where its
``a log a`` terms cancel): SciPy's numerical integral is 1e-11 to 1e-9 off (checked with
mpmath).  ``mean`` 0, ``var`` 1.
"""
import functools
import math

import numpy as np

from .. import numpy as fnp
from ..custom._decorators import _casting_custom_jvp as custom_jvp
from ..numpy._convert import concrete_values, is_concrete
from . import special as sp
from ._distn import rv_continuous
from ._statsdists_closed import document

__all__ = ["pearson3"]

_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)
_SMALL = 1.6e-5  # (SciPy's switch to the normal distribution; the series below it)
_ORDER = 8


def _series_in_skew():
    """``P[n]``, the power-basis polynomials in ``x`` with ``cdf(x) = ndtr(x) - phi(x)
    sum_n u**n P[n](x)``: ``exp(sum_{r>=3} u**(r-2) z**r / r) = sum_{n,j} a[n, j] u**n
    z**j`` (the cumulant series; ``z**j`` is ``He_j(x) phi(x)`` in the density, so
    ``He_{j-1}(x) phi(x)`` in the distribution function)."""
    width = 3 * _ORDER + 1
    exponent = np.zeros((_ORDER + 1, width))
    for r in range(3, _ORDER + 3):
        exponent[r - 2, r] = 1.0 / r
    total = np.zeros((_ORDER + 1, width))
    total[0, 0] = 1.0
    term = total.copy()
    for m in range(1, _ORDER + 1):
        new = np.zeros_like(term)
        for n1 in range(_ORDER + 1):
            for n2 in range(1, _ORDER + 1 - n1):
                new[n1 + n2] += np.convolve(term[n1], exponent[n2])[:width]
        term = new / m
        total += term
    return [np.polynomial.hermite_e.herme2poly(total[n, 1:]) for n in range(1, _ORDER + 1)]


_POLYS = _series_in_skew()
_X_CAP = 40.0  # (beyond, phi(x) is 0 in float64: the series' polynomials are not needed)


def _series_correction(z, u):
    """``phi(x) sum_n u**n P[n](x)``, ``x`` capped at +-40 (where phi underflows)."""
    x = fnp.clip(z, -_X_CAP, _X_CAP)
    total = 0.0 * x
    for poly in reversed(_POLYS):
        p = 0.0 * x
        for c in poly[::-1]:
            p = p * x + float(c)
        total = (total + p) * u
    return fnp.exp(-0.5 * x * x - _LOG_SQRT_2PI) * total


def _log1p_remainder(t):
    """``(log1p(t) - t) / t**2``, its Taylor series where ``|t| < 0.01`` (the first
    neglected term below 1e-17; the direct form would lose ``1e-16 / |t|`` there)."""
    small = fnp.less(fnp.abs(t), 0.01)
    s, r = fnp.where(small, t, 0.0), fnp.where(small, 0.5, t)
    series = 0.0 * s
    for k in range(9, 1, -1):
        series = series * s + (-1.0) ** (k + 1) / k
    return fnp.where(small, series, (fnp.log1p(r) - r) / (r * r))


# Stirling's series of gammaln's remainder in 1/a: B_2k / (2k (2k - 1))
_STIRLING = [1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360, 1 / 156]


def _stirling_remainder(u):
    """``gammaln(a) - ((a - 1/2) log a - a + log sqrt(2 pi))`` at ``a = 1 / u**2``: the
    series in ``u**2 = 1 / a`` for ``a > 12`` (its terms below 1e-17 there)."""
    v = u * u
    large = fnp.less(v, 1.0 / 12)
    s = fnp.where(large, v, 0.0)
    series = 0.0 * s
    for c in reversed(_STIRLING):
        series = series * s * s + c
    a = 1.0 / fnp.where(large, 1.0, v)
    direct = sp.gammaln(a) - ((a - 0.5) * fnp.log(a) - a + _LOG_SQRT_2PI)
    return fnp.where(large, series * s, direct)


def _logpdf(z, skew):
    u = 0.5 * skew
    t = u * z
    inside = fnp.greater(t, -1.0)
    ts, zs = fnp.where(inside, t, 0.0), fnp.where(inside, z, 0.0)
    value = (zs * zs * _log1p_remainder(ts) - fnp.log1p(ts) - _LOG_SQRT_2PI
             - _stirling_remainder(u))
    return fnp.where(inside, value, -math.inf)


_LOSSY = 0.5  # (below, gammainc's slope in a huge shape cancels: 1e-8 off at skew 0.1)


@functools.partial(custom_jvp, nondiff_argnums=(1,))
def _slope_guard(skew, method):
    """``skew``; its derivative raises where ``_SMALL <= |skew| < 0.5``, where the gamma
    form's slope in ``skew`` is ``dP/da * (-8 / skew**3) + ...``: terms ~ ``1/skew**2``
    times the result that cancel, so that rounding in ``dP/da`` becomes a wrong slope."""
    return skew


@_slope_guard.defjvp
def _slope_guard_jvp(method, primals, tangents):
    (skew,), (t,) = primals, tangents
    if is_concrete(skew):
        a = np.abs(concrete_values(skew, "", ""))
        lossy = bool(np.any((a >= _SMALL) & (a < _LOSSY)))
    else:
        lossy = True  # (under jit the values are unknown: refuse rather than risk it)
    if lossy:
        raise NotImplementedError(
            f"funcgrad.scipy.stats.pearson3.{method}: the derivative in skew is not "
            f"implemented for {_SMALL} <= |skew| < {_LOSSY} (or under jit), where the gamma "
            f"function's slope in its shape 4/skew**2 loses its digits; logpdf and pdf "
            f"differentiate in skew everywhere, and every method in x, loc and scale")
    return skew, t


def _split(skew, method):
    """``(small, skew where small else 0, skew where not small else 1)``, the last one
    guarded (``_slope_guard``)."""
    small = fnp.less(fnp.abs(skew), _SMALL)
    if is_concrete(small) and bool(np.all(concrete_values(small, "", ""))):
        return small, skew, 1.0  # (no traced stand-in: gammainc's 2nd slope in a raises)
    return small, fnp.where(small, skew, 0.0), _slope_guard(fnp.where(small, 1.0, skew), method)


def _gamma_tail(z, skew, upper):
    """SciPy's gamma form: ``P(alpha, y)`` (skew > 0) or ``Q(alpha, y)`` (skew < 0) for
    the lower tail, ``y = beta (x - zeta)`` clipped at 0 (outside the support)."""
    beta = 2.0 / skew
    alpha = beta * beta
    y = fnp.maximum(beta * (z + 2.0 / skew), 0.0)
    positive = fnp.greater(skew, 0)
    return fnp.where(positive != upper, sp.gammainc(alpha, y), sp.gammaincc(alpha, y))


def _tail(upper):
    def f(z, skew):
        small, s_small, s_big = _split(skew, "sf" if upper else "cdf")
        series = _series_correction(fnp.where(small, z, 0.0), 0.5 * s_small)
        near = sp.ndtr(-z) + series if upper else sp.ndtr(z) - series
        # (each branch sees its own points: no clipped-support slope from the other)
        return fnp.where(small, near, _gamma_tail(fnp.where(small, 0.0, z), s_big, upper))
    return f


_cdf, _sf = _tail(False), _tail(True)


def _quantile(upper):
    def f(q, skew):
        small, s_small, s_big = _split(skew, "isf" if upper else "ppf")
        beta = 2.0 / s_big
        alpha = beta * beta
        positive = fnp.greater(s_big, 0)
        g = fnp.where(positive != upper, sp.gammaincinv(alpha, q), sp.gammainccinv(alpha, q))
        far = g / beta - 2.0 / s_big  # (SciPy's gammaincinv(alpha, q) / beta + zeta)
        # below: Newton steps on the series from the normal quantile (each squares the
        # O(skew) error; the derivatives follow the converged iterate)
        start = -sp.ndtri(q) if upper else sp.ndtri(q)
        finite = fnp.isfinite(start)  # (q = 0 or 1: the normal's +-inf, as SciPy's)
        x, qs = fnp.where(finite, start, 0.0), fnp.where(finite, q, 0.5)
        tail = _sf if upper else _cdf
        sign = -1.0 if upper else 1.0
        for _ in range(3):
            x = x - sign * (tail(x, s_small) - qs) / fnp.exp(_logpdf(x, s_small))
        out = fnp.where(small, fnp.where(finite, x, start), far)
        # (q = 0 and 1: +-inf, SciPy's ends of pearson3's declared support, not the
        # finite end -2/skew of the gamma's)
        return fnp.where(fnp.equal(q, 0.0), math.inf if upper else -math.inf,
                         fnp.where(fnp.equal(q, 1.0), -math.inf if upper else math.inf, out))
    return f


def _entropy(skew):
    """The gamma's ``a + gammaln(a) + (1 - a) digamma(a) - log |beta|``; for a large
    ``a`` from the asymptotic series, where the ``a log a`` terms cancel: ``1/2 + log
    sqrt(2 pi) + c(a) - 1/(2a) + (a - 1) d(a)`` with ``digamma(a) = log a - 1/(2a) -
    d(a)``."""
    u = 0.5 * skew
    v = u * u
    large = fnp.less(v, 1.0 / 12)
    s = fnp.where(large, v, 0.0)
    # d(a) = sum B_2k / (2k a**2k) = 1/(12 a^2) - 1/(120 a^4) + ...; (a - 1) d = (1 - s) d a
    d_over_a = s * (1 / 12 + s * s * (-1 / 120 + s * s * (1 / 252 + s * s * (-1 / 240
                                                                              + s * s / 132))))
    near = (0.5 + _LOG_SQRT_2PI + _stirling_remainder(fnp.where(large, u, 0.0)) - 0.5 * s
            + (1.0 - s) * d_over_a)
    a = 1.0 / fnp.where(large, 1.0, v)
    direct = (a + sp.gammaln(a) + (1.0 - a) * sp.digamma(a)
              + fnp.log(fnp.abs(fnp.where(large, 1.0, u))))
    return fnp.where(large, near, direct)


pearson3 = rv_continuous(
    "pearson3", shapes=("skew",), _valid=lambda skew: fnp.isfinite(skew),
    _logpdf=_logpdf, _cdf=_cdf, _sf=_sf, _ppf=_quantile(False), _isf=_quantile(True),
    _mean=lambda skew: 0.0 * skew, _var=lambda skew: 1.0 + 0.0 * skew, _entropy=_entropy)

document(globals(), {"pearson3": ((0.7,), 0.5)})
