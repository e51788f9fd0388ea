"""Evaluation of the B-spline coefficients of :func:`cspline1d` and :func:`qspline1d` for
:mod:`funcgrad.scipy.signal` (re-exported there): ``cspline1d_eval`` and
``qspline1d_eval``, with SciPy's values.

A point ``x`` maps to ``u = (x - x0) / dx`` on the coefficients' grid, reflected into
``[0, N - 1]`` (the coefficients extend mirror-symmetrically, period ``2 (N - 1)``); the
spline there is the sum of the nearest coefficients times the centred B-spline at their
distance.  Written with funcgrad operations: linear in the coefficients and piecewise
polynomial in the points, so it differentiates in both (the spline is twice, the
quadratic once, continuously differentiable).
"""
import numpy as np

from .. import numpy as fnp
from ..lax import stop_gradient
from ..numpy._convert import asarray
from ..typing import Array, ArrayLike
from ._ndimage_spline import bspline

__all__ = ["cspline1d_eval", "qspline1d_eval"]


def _evaluate(name, order, cj, newx, dx, x0, dtype):
    cj, newx = asarray(cj), asarray(newx)
    if cj.ndim != 1 or cj.shape[0] == 0:
        raise ValueError(f"{name}: spline coefficients 'cj' must be a non-empty 1-d array, "
                         f"got shape {cj.shape}")
    u = (newx - x0) / dx
    if u.dtype.kind not in "fc":
        u = fnp.astype(u, np.float64)
    n = cj.shape[0]
    if u.size == 0:
        return fnp.zeros(u.shape, dtype(cj, u))
    if n == 1:  # (the mirror image of one coefficient is that constant)
        return fnp.zeros(u.shape, dtype(cj, u)) + cj[0]
    period = 2 * (n - 1)
    u = fnp.remainder(u, period)
    u = fnp.where(u > n - 1, period - u, u)
    # the first of the order + 1 coefficients whose B-splines reach u
    first = stop_gradient(fnp.floor(u - (order + 1) / 2)) + 1
    total = 0.0
    for i in range(order + 1):
        j = first + i
        index = fnp.astype(fnp.clip(j, 0, n - 1), np.int64)
        total = total + fnp.take(cj, index) * bspline(u - j, order)
    return fnp.astype(total, dtype(cj, u))


def cspline1d_eval(cj: ArrayLike, newx: ArrayLike, dx: float = 1.0, x0: float = 0) -> Array:
    """The cubic spline of coefficients ``cj`` (from :func:`cspline1d`, samples spaced
    ``dx`` from ``x0``) at the points ``newx`` (``scipy.signal.cspline1d_eval``), with
    mirror-symmetric extension.  Differentiable in ``cj`` and ``newx``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> cj = fss.cspline1d(np.arange(16.0) ** 2 / 16)
    >>> fss.cspline1d_eval(cj, np.array([2.5, -1.0])).round(6)   # (x^2 / 16: 0.390625)
    array([0.390885, 0.0625  ])
    """
    return _evaluate("cspline1d_eval", 3, cj, newx, dx, x0, lambda c, u: c.dtype)


def qspline1d_eval(cj: ArrayLike, newx: ArrayLike, dx: float = 1.0, x0: float = 0) -> Array:
    """The quadratic spline of coefficients ``cj`` (from :func:`qspline1d`) at the points
    ``newx`` (``scipy.signal.qspline1d_eval``), with mirror-symmetric extension.
    Differentiable in ``cj`` and ``newx``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> cj = fss.qspline1d(np.arange(16.0) ** 2 / 16)
    >>> fss.qspline1d_eval(cj, np.array([2.5, -1.0])).round(6)
    array([0.390737, 0.0625  ])
    """
    return _evaluate("qspline1d_eval", 2, cj, newx, dx, x0, lambda c, u: u.dtype)
