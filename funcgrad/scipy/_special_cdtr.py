"""SciPy's distribution functions of :mod:`funcgrad.scipy.special` (re-exported there):
``chdtr``/``chdtrc`` (chi-square), ``gdtr``/``gdtrc`` (gamma, rate ``a``), ``pdtr``/
``pdtrc`` (Poisson), ``bdtr``/``bdtrc`` (binomial), ``nbdtr``/``nbdtrc`` (negative
binomial), ``stdtr`` (Student's t), ``fdtr``/``fdtrc`` (F), and ``binom``, the binomial
coefficient of real arguments.

Each is ``gammainc``/``gammaincc``/``betainc`` of transformed arguments with SciPy's
(Cephes') domain checks: NaN outside the domain, SciPy's values at its ends.  Derivatives
come from those primitives, in the continuous argument (``x``, ``m``, ``p``, ``t``) and in
the shapes (``v``, ``b`` of ``gdtr``, ``df``, ``dfn``, ``dfd``) alike.  The counts ``k`` of the discrete ones are floored as SciPy's (and ``n`` of
``bdtr``/``nbdtr`` truncated): piecewise constant, so their derivative is 0.
"""
import math

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import operand as _operand
from ..primitives import elementwise as _ew
from ..primitives import incomplete as _inc, special as _sp
from ..primitives.structural import stop_gradient as _stop_gradient
from ..typing import Array, ArrayLike
from ._special_gamma import beta as _beta, betaln as _betaln

__all__ = ["chdtr", "chdtrc", "gdtr", "gdtrc", "pdtr", "pdtrc", "bdtr", "bdtrc", "nbdtr",
           "nbdtrc", "stdtr", "fdtr", "fdtrc", "binom"]

_NAN = math.nan


def _nan_where(bad, value):
    return fnp.where(bad, _NAN, value)


def _count(k):
    """``floor(k)`` as a constant (a step function: derivative 0, not the primitive's
    missing derivative in its shape)."""
    return _stop_gradient(fnp.floor(k))


def chdtr(v: ArrayLike, x: ArrayLike) -> Array:
    """The chi-square CDF with ``v`` degrees of freedom, ``gammainc(v/2, x/2)`` (NaN for
    ``x < 0``).

    >>> import math
    >>> round(float(chdtr(2.0, 2.0)), 14) == round(1 - math.exp(-1), 14)
    True
    """
    v, x = _operand(v), _operand(x)
    return _nan_where(fnp.less(x, 0), _inc.gammainc(v * 0.5, x * 0.5))


def chdtrc(v: ArrayLike, x: ArrayLike) -> Array:
    """The chi-square survival function, ``gammaincc(v/2, x/2)``.

    >>> import math
    >>> round(float(chdtrc(2.0, 2.0)), 14) == round(math.exp(-1), 14)
    True
    """
    v, x = _operand(v), _operand(x)
    return _nan_where(fnp.less(x, 0), _inc.gammaincc(v * 0.5, x * 0.5))


def gdtr(a: ArrayLike, b: ArrayLike, x: ArrayLike) -> Array:
    """The gamma CDF of rate ``a`` and shape ``b``, ``gammainc(b, a x)``.

    >>> import math
    >>> round(float(gdtr(1.0, 1.0, 2.0)), 14) == round(1 - math.exp(-2), 14)
    True
    """
    a, b, x = _operand(a), _operand(b), _operand(x)
    return _nan_where(fnp.less(x, 0), _inc.gammainc(b, a * x))


def gdtrc(a: ArrayLike, b: ArrayLike, x: ArrayLike) -> Array:
    """The gamma survival function, ``gammaincc(b, a x)``.

    >>> import math
    >>> round(float(gdtrc(1.0, 1.0, 2.0)), 14) == round(math.exp(-2), 14)
    True
    """
    a, b, x = _operand(a), _operand(b), _operand(x)
    return _nan_where(fnp.less(x, 0), _inc.gammaincc(b, a * x))


def pdtr(k: ArrayLike, m: ArrayLike) -> Array:
    """The Poisson CDF, ``P(N <= k)`` for mean ``m``: ``gammaincc(floor(k) + 1, m)``
    (NaN for ``k < 0`` or ``m < 0``).

    >>> import math, funcgrad as fg
    >>> round(float(pdtr(0.0, 1.5)), 14) == round(math.exp(-1.5), 14)
    True
    >>> float(fg.grad(pdtr, 1)(0.0, 0.0))
    -1.0
    """
    k, m = _operand(k), _operand(m)
    value = _inc.gammaincc(_count(k) + 1.0, m)
    value = _nan_where(fnp.logical_or(fnp.less(k, 0), fnp.less(m, 0)), value)
    # (SciPy's m = 0 case comes before its check of k: 1.0 also for a NaN k)
    return fnp.where(fnp.logical_and(fnp.equal(m, 0), fnp.isnan(k)), 1.0, value)


def pdtrc(k: ArrayLike, m: ArrayLike) -> Array:
    """The Poisson survival function, ``P(N > k)``: ``gammainc(floor(k) + 1, m)``.

    >>> import math
    >>> round(float(pdtrc(0.0, 1.5)), 14) == round(1 - math.exp(-1.5), 14)
    True
    """
    k, m = _operand(k), _operand(m)
    value = _inc.gammainc(_count(k) + 1.0, m)
    value = _nan_where(fnp.logical_or(fnp.less(k, 0), fnp.less(m, 0)), value)
    # (SciPy's m = 0 case comes before its check of k: 0.0 also for a NaN k)
    return fnp.where(fnp.logical_and(fnp.equal(m, 0), fnp.isnan(k)), 0.0, value)


def _binomial_args(k, n, p):
    k, n, p = _operand(k), _operand(n), _operand(p)
    outside = fnp.logical_or(fnp.logical_or(fnp.less(p, 0), fnp.greater(p, 1)), fnp.isnan(n))
    return _count(k), _stop_gradient(fnp.trunc(n)), p, outside


def bdtr(k: ArrayLike, n: ArrayLike, p: ArrayLike) -> Array:
    """The binomial CDF, ``P(N <= k)`` of ``n`` trials of success probability ``p``:
    ``betainc(n - k, k + 1, 1 - p)`` (1 for ``k = n``; NaN for ``k < 0``, ``k > n`` or
    ``p`` outside [0, 1]).

    >>> float(bdtr(0.0, 3.0, 0.5))
    0.125
    """
    fk, fn, p, outside = _binomial_args(k, n, p)
    inside = fnp.logical_and(fnp.greater_equal(fk, 0), fnp.less(fk, fn))
    # (the double-where idiom: the shapes stay positive where the value is not betainc's)
    value = _inc.betainc(fnp.where(inside, fn - fk, 1.0), fk + 1.0, 1.0 - p)
    value = fnp.where(fnp.equal(fk, fn), 1.0 + 0.0 * p, value)
    undefined = fnp.logical_or(fnp.logical_or(outside, fnp.isnan(fk)),
                               fnp.logical_or(fnp.less(fk, 0), fnp.greater(fk, fn)))
    return _nan_where(undefined, value)


def bdtrc(k: ArrayLike, n: ArrayLike, p: ArrayLike) -> Array:
    """The binomial survival function, ``P(N > k)``: ``betainc(k + 1, n - k, p)`` (1 for
    ``k < 0``, 0 for ``k = n``, NaN for ``k > n``).

    >>> float(bdtrc(0.0, 3.0, 0.5))
    0.875
    """
    fk, fn, p, outside = _binomial_args(k, n, p)
    inside = fnp.logical_and(fnp.greater_equal(fk, 0), fnp.less(fk, fn))
    value = _inc.betainc(fnp.where(inside, fk + 1.0, 1.0), fnp.where(inside, fn - fk, 1.0), p)
    value = fnp.where(inside, value, fnp.where(fnp.less(fk, 0), 1.0 + 0.0 * p, 0.0 * p))
    return _nan_where(fnp.logical_or(fnp.logical_or(outside, fnp.isnan(fk)),
                                     fnp.greater(fk, fn)), value)


def nbdtr(k: ArrayLike, n: ArrayLike, p: ArrayLike) -> Array:
    """The negative binomial CDF: ``P(at most k failures before the n-th success)``,
    ``betainc(n, k + 1, p)`` (NaN for ``k < 0`` or ``p`` outside [0, 1]).

    >>> float(nbdtr(0.0, 3.0, 0.5))
    0.125
    """
    fk, fn, p, outside = _binomial_args(k, n, p)
    outside = fnp.logical_or(fnp.logical_or(outside, fnp.less(fn, 1)),  # (n truncated)
                             fnp.logical_or(fnp.less(fk, 0), fnp.isinf(fk)))
    return _nan_where(outside, _inc.betainc(fn, fk + 1.0, p))


def nbdtrc(k: ArrayLike, n: ArrayLike, p: ArrayLike) -> Array:
    """The negative binomial survival function, ``betainc(k + 1, n, 1 - p)``.

    >>> float(nbdtrc(0.0, 3.0, 0.5))
    0.875
    """
    fk, fn, p, outside = _binomial_args(k, n, p)
    outside = fnp.logical_or(fnp.logical_or(outside, fnp.less(fn, 1)),  # (n truncated)
                             fnp.logical_or(fnp.less(fk, 0), fnp.isinf(fk)))
    return _nan_where(outside, _inc.betainc(fk + 1.0, fn, 1.0 - p))


def stdtr(df: ArrayLike, t: ArrayLike) -> Array:
    """Student's t CDF with ``df`` degrees of freedom (the normal CDF for ``df = inf``;
    NaN for ``df <= 0``).  At ``t = 0`` the value is 1/2 and the slope the density
    there (``betainc``'s slope at ``x = 1`` times ``dx/dt = 0`` would be NaN).

    >>> import funcgrad as fg
    >>> float(stdtr(1.0, 1.0)), round(float(fg.grad(stdtr, 1)(1.0, 0.0)), 15)  # 1/pi
    (0.75, 0.318309886183791)
    """
    df, t = _operand(df), _operand(t)
    normal = fnp.isinf(df)
    d = fnp.where(fnp.logical_or(normal, fnp.less_equal(df, 0)), 1.0, df)
    zero = fnp.equal(t, 0)
    s = fnp.where(zero, 1.0, t)
    tail = _inc.betainc(d * 0.5, 0.5, d / (d + s * s)) * 0.5
    away = fnp.where(fnp.greater(s, 0), 1.0 - tail, tail)
    log_density_at_0 = (_sp.gammaln((d + 1.0) * 0.5) - _sp.gammaln(d * 0.5)
                        - 0.5 * fnp.log(d * math.pi))
    student = fnp.where(zero, 0.5 + fnp.exp(log_density_at_0) * t, away)
    gauss = _ew.erfc(t * -math.sqrt(0.5)) * 0.5
    return _nan_where(fnp.less_equal(df, 0), fnp.where(normal, gauss, student))


def _f_args(dfn, dfd, x):
    dfn, dfd, x = _operand(dfn), _operand(dfd), _operand(x)
    bad = fnp.logical_or(fnp.logical_or(fnp.less_equal(dfn, 0), fnp.less_equal(dfd, 0)),
                         fnp.less(x, 0))
    return dfn, dfd, x, bad


def fdtr(dfn: ArrayLike, dfd: ArrayLike, x: ArrayLike) -> Array:
    """The F distribution's CDF, ``betainc(dfn/2, dfd/2, dfn x / (dfd + dfn x))`` (1 at
    ``x = inf``; NaN for ``dfn <= 0``, ``dfd <= 0`` or ``x < 0``).

    >>> float(fdtr(2.0, 2.0, 1.0))
    0.5
    """
    dfn, dfd, x, bad = _f_args(dfn, dfd, x)
    infinite = fnp.isinf(x)
    s = fnp.where(infinite, 1.0, x)
    w = fnp.where(infinite, 1.0, dfn * s / (dfd + dfn * s))
    return _nan_where(bad, _inc.betainc(dfn * 0.5, dfd * 0.5, w))


def fdtrc(dfn: ArrayLike, dfd: ArrayLike, x: ArrayLike) -> Array:
    """The F distribution's survival function, ``betainc(dfd/2, dfn/2, dfd / (dfd + dfn
    x))``.

    >>> float(fdtrc(2.0, 2.0, 1.0))
    0.5
    """
    dfn, dfd, x, bad = _f_args(dfn, dfd, x)
    infinite = fnp.isinf(x)
    s = fnp.where(infinite, 1.0, x)
    w = fnp.where(infinite, 0.0, dfd / (dfd + dfn * s))
    return _nan_where(bad, _inc.betainc(dfd * 0.5, dfn * 0.5, w))


_PRODUCT_TERMS = 20  # (SciPy's product formula for integer k below 20)


def _gamma_form(n, k):
    """``1 / ((n + 1) B(1 + n - k, 1 + k))``, as ``exp(-betaln - log(n + 1))`` for
    ``n >= 1e10 k`` (SciPy's: no overflow between)."""
    big = fnp.logical_and(fnp.greater(k, 0), fnp.greater_equal(n, 1e10 * k))
    nb, kb = fnp.where(big, n, 1.0), fnp.where(big, k, 0.5)  # (stand-ins: no pole)
    large = fnp.exp(-_betaln(1.0 + nb - kb, 1.0 + kb) - fnp.log(nb + 1.0))
    return fnp.where(big, large, 1.0 / (n + 1.0) / _beta(1.0 + n - k, 1.0 + k)), big


def _near_zero_n(n, k):
    """SciPy's leading terms for ``k > 1e8 |n|`` (``n`` next to 0, where the Beta form
    cancels)."""
    gamma_1n = fnp.exp(_sp.gammaln(1.0 + n))
    lead = (gamma_1n / k + gamma_1n * n / (2.0 * k * k)) / (math.pi * fnp.exp(n * fnp.log(k)))
    kf = fnp.floor(k)
    whole = fnp.equal(k, kf)
    value = lead * fnp.sin((fnp.where(whole, k - kf, k) - n) * math.pi)
    return fnp.where(fnp.logical_and(whole, fnp.equal(fnp.fmod(kf, 2.0), 1.0)), -value, value)


def _slope_of(f):
    """0 in value, ``f``'s derivative where ``f`` is finite."""
    return fnp.where(fnp.isfinite(f), f - _stop_gradient(f), 0.0)


def binom(n: ArrayLike, k: ArrayLike) -> Array:
    """The binomial coefficient of real ``n`` and ``k``, ``1 / ((n + 1) B(n - k + 1,
    k + 1))``, with SciPy's values: the exact product for an integer ``0 <= k < 20``
    (``n choose n - k`` where that is smaller, ``n`` a positive integer), NaN for a
    negative integer ``n``, ``exp(-betaln)`` for ``n >= 1e10 k``, leading terms for
    ``k > 1e8 |n|``; float32 computed in float64, as SciPy's.  Differentiable in ``n`` and
    ``k``: the product's slope in ``n``, the Gamma form's in ``k`` (and in both where the
    value is not the product's; NaN at its poles).

    >>> import funcgrad as fg
    >>> float(binom(5.0, 2.0)), round(float(binom(5.5, 2.5)), 12)
    (10.0, 14.4375)
    >>> float(fg.grad(binom)(0.0, 1.0))  # binom(n, 1) = n
    1.0
    """
    n, k = _operand(n), _operand(k)
    dtypes = [v.dtype for v in (n, k) if hasattr(v, "dtype")]  # (Python numbers: weak)
    single = bool(dtypes) and np.result_type(*dtypes) == np.float32
    if single:
        n, k = fnp.astype(n, np.float64), fnp.astype(k, np.float64)
    # SciPy's exact product for an integer k in [0, 20) (n not within 1e-8 of 0 but 0)
    kx = _stop_gradient(fnp.floor(k))
    nx = _stop_gradient(fnp.floor(n))
    integer_k = fnp.logical_and(fnp.equal(k, kx), fnp.logical_or(
        fnp.greater(fnp.abs(n), 1e-8), fnp.equal(n, 0)))
    swap = fnp.logical_and(fnp.logical_and(fnp.equal(nx, n), fnp.greater(kx, nx * 0.5)),
                           fnp.greater(nx, 0))
    kk = fnp.where(swap, nx - kx, kx)
    product_case = fnp.logical_and(integer_k, fnp.logical_and(
        fnp.greater_equal(kk, 0), fnp.less(kk, float(_PRODUCT_TERMS))))
    kk = fnp.where(product_case, kk, 0.0)
    num, den = 1.0 + fnp.zeros_like(n), 1.0 + fnp.zeros_like(k)  # (n * 0 is NaN at inf)
    for i in range(1, _PRODUCT_TERMS):
        take = fnp.less_equal(float(i), kk)
        num = num * fnp.where(take, i + n - kk, 1.0)
        den = den * fnp.where(take, fnp.zeros_like(k) + float(i), 1.0)
    # (the double-where idiom throughout: each form sees stand-ins off its own case, so
    # that a pole of the other's Beta leaks no NaN into the derivative)
    # (the product's slope in n is the function's unless k was swapped for n - k, a
    # function of n: the Gamma form's slope in n there)
    n_const = fnp.where(swap, n, _stop_gradient(n))
    k_slope = _gamma_form(fnp.where(product_case, n_const, 2.5),
                          fnp.where(product_case, k, 0.5))[0]
    product = fnp.where(swap, _stop_gradient(num / den), num / den) + _slope_of(k_slope)
    ng, kg = fnp.where(product_case, 2.5, n), fnp.where(product_case, 0.5, k)
    gamma_form, big = _gamma_form(ng, kg)
    tiny = fnp.logical_and(~big, fnp.greater(kg, 1e8 * fnp.abs(ng)))
    near = _near_zero_n(fnp.where(tiny, ng, 0.0), fnp.where(tiny, kg, 2.5))
    other = _stop_gradient(fnp.where(tiny, near, gamma_form)) + _slope_of(gamma_form)
    value = _nan_where(fnp.logical_and(fnp.less(n, 0), fnp.equal(n, nx)),  # (SciPy's NaN)
                       fnp.where(product_case, product, other))
    return fnp.astype(value, np.float32) if single else value
