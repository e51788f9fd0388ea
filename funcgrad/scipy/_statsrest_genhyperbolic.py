"""SciPy's ``genhyperbolic(p, a, b)`` (re-exported by :mod:`funcgrad.scipy.stats`), the
generalized hyperbolic distribution, whose density is

    (a**2 - b**2)**(p/2) / (sqrt(2 pi) a**(p - 1/2) K_p(sqrt(a**2 - b**2)))
        * exp(b x) (1 + x**2)**((p - 1/2)/2) K_{p - 1/2}(a sqrt(1 + x**2)),

written in logs with the exponentially scaled ``kve`` (``log K_v(z) = log kve(v, z) -
z``) so that neither Bessel function overflows nor underflows.  Its order ``p`` enters
only through ``kve``'s order, whose derivative is
:func:`funcgrad.primitives.special_bessel_order.kve_order_slope` (quadrature of the
integral representation): every method differentiates in ``x``, ``p``, ``a``, ``b``,
``loc`` and ``scale``.

The CDF and SF integrate the density (SciPy integrates it with ``quad``), here by
tanh-sinh over the tail on each point's side of the mean
(:func:`._statsdists4_bessel._tail_integral`: concrete values only, so not under
``jit``/``vmap``); the quantiles invert that CDF numerically.  Mean and variance are
SciPy's ``_stats``: with ``g = sqrt(a**2 - b**2)`` and ``r_n = K_{p+n}(g)/K_p(g)``, ``b
r_1 / g`` and ``r_1/g + b**2 (r_2 - r_1**2)/g**2``.  The entropy is not offered
(NotImplementedError).  Valid parameters are SciPy's: ``|b| < a`` for ``p >= 0``, ``|b| <=
a`` for ``p < 0`` (SciPy's density is NaN at ``|b| = a``, and so is this one).
"""
import math

from .. import numpy as fnp
from . import special as sp
from ._distn import rv_continuous
from ._statsdists4_bessel import _tail_integral
from ._statsdists_quantiles import numeric_quantiles

__all__ = ["genhyperbolic"]

_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)


def _gamma(a, b):
    d = a * a - b * b
    return fnp.sqrt(fnp.where(d > 0, d, 0.0))


def _logpdf(z, p, a, b):
    g = _gamma(a, b)
    root = fnp.sqrt(1.0 + z * z)
    root = fnp.where(fnp.isinf(z), fnp.abs(z), root)
    return (p * fnp.log(g) - _LOG_SQRT_2PI - (p - 0.5) * fnp.log(a)
            - fnp.log(sp.kve(p, g)) + g + b * z + (p - 0.5) * fnp.log(root)
            + fnp.log(sp.kve(p - 0.5, a * root)) - a * root)


def _ratio(n):
    """``K_{p+n}(g) / K_p(g)`` (the scalings ``exp(g)`` cancel)."""
    return lambda p, g: sp.kve(p + n, g) / sp.kve(p, g)


def _mean(p, a, b):
    g = _gamma(a, b)
    return b * _ratio(1)(p, g) / g


def _var(p, a, b):
    g = _gamma(a, b)
    r1, r2 = _ratio(1)(p, g), _ratio(2)(p, g)
    return r1 / g + b * b * (r2 - r1 * r1) / (g * g)


def _centre(p, a, b):
    """A point in the bulk and its width, for the tail integrals (the mean and standard
    deviation where they are finite)."""
    m, v = _mean(p, a, b), _var(p, a, b)
    m = fnp.where(fnp.isfinite(m), m, 0.0)
    return m, fnp.sqrt(fnp.where(fnp.logical_and(fnp.isfinite(v), v > 0), v, 1.0))


genhyperbolic = rv_continuous(
    "genhyperbolic", shapes=("p", "a", "b"),
    _valid=lambda p, a, b: fnp.logical_or(
        fnp.logical_and(fnp.less(fnp.abs(b), a), fnp.greater_equal(p, 0)),
        fnp.logical_and(fnp.less_equal(fnp.abs(b), a), fnp.less(p, 0))),
    _logpdf=_logpdf, _mean=_mean, _var=_var)
genhyperbolic._cdf, genhyperbolic._sf = _tail_integral("genhyperbolic", _logpdf, _centre, None)
genhyperbolic._ppf, genhyperbolic._isf = numeric_quantiles(genhyperbolic, "line")
genhyperbolic.__doc__ = """SciPy's ``genhyperbolic`` distribution (parameters: p, a, b, loc,
scale), the generalized hyperbolic; differentiable in every argument, the order ``p``
included (cdf/sf/ppf/isf integrate the density: not under jit or vmap).

>>> import funcgrad as fg
>>> round(float(genhyperbolic.logpdf(0.5, 1.5, 2.0, 0.7)), 10)
-0.9634003592
>>> round(float(fg.grad(genhyperbolic.logpdf, 1)(0.5, 1.5, 2.0, 0.7)), 8)  # d/dp
-0.07093305
"""
