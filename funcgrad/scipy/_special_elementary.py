"""More of ``funcgrad.scipy.special`` (re-exported there): the elementary functions SciPy
keeps in ``scipy.special`` (``expm1``, ``log1p``, ``exp2``, ``exp10``, ``cbrt``, ``cosm1``,
``exprel``, ``softplus``, ``huber``, ``pseudo_huber``), written with funcgrad.numpy, so
that plain ``scipy.special.expm1(x)`` on a traced value differentiates too (a SciPy ufunc
reaches the ``funcgrad.scipy.special`` function of its name)."""
import math

from .. import numpy as fnp
from ..numpy._convert import operand as _operand
from ..typing import Array, ArrayLike

__all__ = ["expm1", "log1p", "exp2", "exp10", "cbrt", "cosm1", "exprel", "softplus", "huber",
           "pseudo_huber"]

_INF = math.inf


def expm1(x: ArrayLike) -> Array:
    """``exp(x) - 1``, accurate near 0 (``scipy.special.expm1``, as ``numpy.expm1``).

    >>> import funcgrad as fg
    >>> float(expm1(1e-20)), float(fg.grad(expm1)(0.0))
    (1e-20, 1.0)
    """
    return fnp.expm1(x)


def log1p(x: ArrayLike) -> Array:
    """``log(1 + x)``, accurate near 0 (``scipy.special.log1p``, as ``numpy.log1p``).

    >>> import funcgrad as fg
    >>> float(log1p(1e-20)), float(fg.grad(log1p)(1.0))
    (1e-20, 0.5)
    """
    return fnp.log1p(x)


def exp2(x: ArrayLike) -> Array:
    """``2**x``; derivative ``log(2) 2**x``.

    >>> float(exp2(3.0))
    8.0
    """
    return fnp.exp2(x)


def exp10(x: ArrayLike) -> Array:
    """``10**x``; derivative ``log(10) 10**x``.

    >>> float(exp10(3.0))
    1000.0
    """
    return fnp.power(10.0, _operand(x))


def cbrt(x: ArrayLike) -> Array:
    """The real cube root (negative for negative ``x``); derivative ``1 / (3 cbrt(x)**2)``.

    >>> float(cbrt(-8.0))
    -2.0
    """
    return fnp.cbrt(x)


def cosm1(x: ArrayLike) -> Array:
    """``cos(x) - 1``, accurate near 0 (there as ``-2 sin(x/2)**2``, which does not
    cancel; from ``pi/4`` on, as SciPy, the difference itself); derivative ``-sin(x)``.

    >>> round(float(cosm1(1e-10)) / 5e-21, 12)  # (cos(1e-10) - 1 would be 0.0)
    -1.0
    """
    x = _operand(x)
    return fnp.where(fnp.less(fnp.abs(x), math.pi / 4), -2.0 * fnp.square(fnp.sin(x * 0.5)),
                     fnp.cos(x) - 1.0)


def exprel(x: ArrayLike) -> Array:
    """The relative error of ``exp``: ``(exp(x) - 1) / x``, 1 at 0; derivative
    ``(x exp(x) - expm1(x)) / x**2`` (1/2 at 0).

    >>> import funcgrad as fg
    >>> float(exprel(0.0)), float(fg.grad(exprel)(0.0))
    (1.0, 0.5)
    """
    x = _operand(x)
    # Near 0 the quotient (and its derivative even more) cancels: a Taylor polynomial
    # there, whose truncation error (x**6/5040) is below rounding for |x| < 1e-3.  (The
    # double-where idiom: the quotient never sees 0.)
    small = fnp.less(fnp.abs(x), 1e-3)
    s = fnp.where(small, x, 0.0)
    series = 1.0 + s * (0.5 + s * (1 / 6 + s * (1 / 24 + s * (1 / 120 + s * (1 / 720)))))
    q = fnp.where(small, 1.0, x)
    quotient = fnp.where(fnp.equal(q, _INF), _INF, fnp.expm1(q) / q)  # (SciPy: inf at inf)
    return fnp.where(small, series, quotient)


def softplus(x: ArrayLike) -> Array:
    """``log(1 + exp(x))`` without overflow (``scipy.special.softplus``); derivative
    ``expit(x)``.

    >>> import funcgrad as fg
    >>> float(softplus(1000.0)), float(fg.grad(softplus)(0.0))
    (1000.0, 0.5)
    """
    return fnp.logaddexp(0.0, _operand(x))


def huber(delta: ArrayLike, r: ArrayLike) -> Array:
    """Huber's loss: ``r**2 / 2`` where ``|r| <= delta``, ``delta (|r| - delta/2)``
    beyond, ``inf`` for ``delta < 0``.  Differentiable in ``r`` (``r``, then
    ``delta sign(r)``) and ``delta`` (0, then ``|r| - delta``).

    >>> import funcgrad as fg
    >>> float(huber(1.0, 3.0)), float(fg.grad(huber, 1)(1.0, 3.0))
    (2.5, 1.0)
    """
    delta, r = _operand(delta), _operand(r)
    a = fnp.abs(r)
    value = fnp.where(fnp.less_equal(a, delta), 0.5 * r * r, delta * (a - 0.5 * delta))
    return fnp.where(fnp.less(delta, 0), _INF, value)


def pseudo_huber(delta: ArrayLike, r: ArrayLike) -> Array:
    """The pseudo-Huber loss ``delta**2 (sqrt(1 + (r/delta)**2) - 1)`` (0 for
    ``delta == 0``, ``inf`` for ``delta < 0``), computed as
    ``r**2 / (sqrt(1 + (r/delta)**2) + 1)``, which does not cancel for small ``r/delta``.

    >>> import funcgrad as fg
    >>> float(pseudo_huber(1.0, 0.0)), float(fg.grad(pseudo_huber, 1)(1.0, 0.0))
    (0.0, 0.0)
    """
    delta, r = _operand(delta), _operand(r)
    positive = fnp.greater(delta, 0)
    d = fnp.where(positive, delta, 1.0)  # (the double-where idiom: no r/0)
    # (|r| = inf: inf, as SciPy's, where r**2 / (sqrt(1 + r**2) + 1) is inf / inf)
    infinite = fnp.isinf(r)
    finite_r = fnp.where(infinite, 0.0, r)
    value = finite_r * finite_r / (fnp.sqrt(1.0 + fnp.square(finite_r / d)) + 1.0)
    value = fnp.where(infinite, _INF, value)
    edge = fnp.where(fnp.equal(delta, 0), 0.0, _INF).astype(value.dtype)  # (float32 stays)
    out = fnp.where(positive, value, edge)
    # SciPy's order of cases: delta < 0 is inf; else r == 0 is 0; else a NaN or infinite
    # delta is NaN (delta**2 * 0 there, not the limit r**2 / 2)
    undefined = fnp.logical_or(fnp.isnan(delta), fnp.isposinf(delta))
    out = fnp.where(undefined, math.nan, out)
    return fnp.where(fnp.logical_and(fnp.equal(r, 0), ~fnp.less(delta, 0)), 0.0, out)
